# test/gen.mk: generated code against protoc (round-trips, text, limits, malformed input under
# $(SAN)), the real schemas compiling cleanly, the real block (test/gen/run.sh).
.PHONY: check-gen
check-gen: pbjc | deps
	SAN="$(SAN)" CC="$(CC)" test/gen/run.sh ./pbjc $(B)

CHECKS += check-gen
