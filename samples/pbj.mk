# samples/pbj.mk: GNU make rules that generate C with pbjc from every .proto under $(PROTO_DIR) into
# $(GEN_DIR). Set PBJC, PROTO_DIR, GEN_DIR (and PBJC_FLAGS) first, or take the defaults; it sets PROTOS,
# GEN_C, GEN_H and GEN_D, and the target `generate`. Copy it into a project as it is.
PBJC       ?= pbjc
PROTO_DIR  ?= proto
GEN_DIR    ?= gen
PBJC_FLAGS ?=

PROTOS := $(shell find $(PROTO_DIR) -name '*.proto')
GEN_C  := $(PROTOS:$(PROTO_DIR)/%.proto=$(GEN_DIR)/%.pb.c)
GEN_H  := $(GEN_C:.c=.h)
GEN_D  := $(GEN_C:.c=.d)

# pbjc runs once for each .proto that changed or imports one that did: the target of its run is
# gen/x.pb.d, the dependency file -MD writes (-MT names it its own target), whose prerequisites are
# x.proto and every .proto it imports. pbjc leaves a .pb.h or .pb.c whose bytes did not change as it
# was, so nothing that includes it is compiled again. The .pb.d files are included below, by name
# (any depth): make remakes them first, then starts again and sees the generated files as they are.
$(GEN_DIR)/%.pb.d: $(PROTO_DIR)/%.proto
	$(PBJC) $(PBJC_FLAGS) -I $(PROTO_DIR) -o $(GEN_DIR) -MD -MT $@ $<

# A .pb.h or .pb.c deleted after its .pb.d was made is generated again (two rules: one with both
# targets would count a .pb.h as made whenever its .pb.c exists).
$(GEN_DIR)/%.pb.h: | $(GEN_DIR)/%.pb.d
	$(PBJC) $(PBJC_FLAGS) -I $(PROTO_DIR) -o $(GEN_DIR) $(PROTO_DIR)/$*.proto
$(GEN_DIR)/%.pb.c: | $(GEN_DIR)/%.pb.d
	$(PBJC) $(PBJC_FLAGS) -I $(PROTO_DIR) -o $(GEN_DIR) $(PROTO_DIR)/$*.proto

# Every generated file named here is a target of its own, not an intermediate file: make keeps it,
# and makes it again when it is missing.
.PHONY: generate
generate: $(GEN_C) $(GEN_H)

ifneq ($(MAKECMDGOALS),clean)
-include $(GEN_D)
endif
