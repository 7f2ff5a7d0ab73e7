# test/docs.mk: the documentation keeps up with the code: every status and every runtime macro a user may
# define is documented, and the README's five-minute tour builds and prints what it says (test/docs/tour.sh).
.PHONY: check-docs
CHECKS += check-docs

check-docs: pbjc | deps
	sh test/docs/statuses.sh
	sh test/docs/macros.sh
	CC="$(CC)" WARN="$(WARN)" SAN="$(SAN)" sh test/docs/tour.sh $(B)/docs/tour
