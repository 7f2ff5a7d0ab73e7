# gen-templates/templates.mk: gen-templates/*.tmpl become C string literals
# ($(B)/gen-templates/templates.inc, by our own src/tools/tmpl2c) that src/emit.c includes.
TMPL_FILES := $(sort $(wildcard gen-templates/*.tmpl))
TMPL_INC   := $(B)/gen-templates/templates.inc

$(B)/tools/tmpl2c: src/tools/tmpl2c.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(TMPL_INC): $(B)/tools/tmpl2c $(TMPL_FILES)
	@mkdir -p $(@D)
	$(B)/tools/tmpl2c $@ $(TMPL_FILES)

# emit.c includes the literals (found through build.mk's -I$(B)) and the runtime's version.
$(B)/emit.o: $(TMPL_INC) $(wildcard rt/*.h)
