# test/hapi.mk: hapi's Block schema generated once with every API (--fast-write --views --writers) and
# compiled once, in two units side by side, at -O0 without sanitizers, for the hapi checks of reverse,
# views and writers (parity's check keeps its own build, with the default options).
# PBJ_MALLOC/PBJ_FREE in the units call hapi_malloc/hapi_free (test/hapi/alloc.h); each driver links
# test/hapi/hooks.c built to pass them on to its own counting or failing allocator.
HAPI_ALL       := $(B)/hapi-all
HAPI_ALL_UNITS := $(HAPI_ALL)/unit_1.o $(HAPI_ALL)/unit_2.o

$(HAPI_ALL)/.stamp: pbjc test/parity/corpus/hapi.proto
	rm -rf $(HAPI_ALL) && mkdir -p $(HAPI_ALL)
	./pbjc -M $(PARITY_HAPI_ROOTS:%=-I %) -I /usr/include -o $(HAPI_ALL) test/parity/corpus/hapi.proto \
	  | tr -d '\\' | tr ' ' '\n' | grep '\.proto$$' > $(HAPI_ALL)/inputs
	./pbjc --fast-write --views --writers $(PARITY_HAPI_ROOTS:%=-I %) -I /usr/include -o $(HAPI_ALL) \
	  $$(cat $(HAPI_ALL)/inputs) 2>$(HAPI_ALL)/pbjc.err || { cat $(HAPI_ALL)/pbjc.err; exit 1; }
	cd $(HAPI_ALL) && find . -name '*.pb.c' | LC_ALL=C sort | \
	  awk '{ print "#include \"" substr($$0, 3) "\"" > ("unit_" (NR % 2 + 1) ".c") }'
	@touch $@

$(HAPI_ALL)/unit_%.o: $(HAPI_ALL)/.stamp test/hapi/alloc.h $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror -O0 -DPBJ__RUN_SHARED=0 -include test/hapi/alloc.h -Irt -I$(HAPI_ALL) -c -o $@ $(HAPI_ALL)/unit_$*.c

# hooks.c for one driver: $(call hapi_hooks,OUT,MALLOC,FREE) (malloc,free: the C library's, from <stdlib.h>)
hapi_hooks = $(CC) -std=c11 $(WARN) -Werror -O0 $(if $(filter-out malloc,$(2)),-DHAPI_MALLOC_TO=$(2) -DHAPI_FREE_TO=$(3)) \
  -c -o $(1) test/hapi/hooks.c
