# test/docs.mk: the documentation keeps up with the code.
.PHONY: check-docs
CHECKS += check-docs

check-docs:
	sh test/docs/statuses.sh
