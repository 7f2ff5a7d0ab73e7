# src/build.mk: the compiler. Every src/*.c is part of pbjc; lex.re and
# parse.y are turned into C in $(B)/ by re2c and lemon.
