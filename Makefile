# warpsim - plain make. Builds build/warpsim, build/lib/libcudart.so.13, build/lib/libcuda.so.1, build/lib/libcublas.so.13, build/lib/libcufft.so.12,
# build/lib/libnvJitLink.so.13, build/lib/libwarpsim_preload.so and build/libwarpsim.a.
# Plain `make` compiles on every core (a -j given on the command line wins).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
CC      ?= cc
OPT     ?= -O2
ARCH    := $(shell uname -m)
ifeq ($(ARCH),x86_64)
OPT     += -mpopcnt
endif
CFLAGS  ?= $(OPT) -g
WFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fPIC -fno-semantic-interposition
DEVDIR  := $(CURDIR)/devices
B       ?= build
CPPFLAGS += -DWS_DEVICES_DIR='"$(DEVDIR)"' -DWS_BUILD_DIR='"$(CURDIR)/$(B)"'
LDLIBS  := -lzstd -llz4 -ljansson -lm -lpthread -ldl
CUDA_HOME ?= /usr/local/cuda
# warpsim's CUDA libraries, one folder of src/libs each (see below), and the SONAME each is built as
LIBS     := cublas curand cufft
LIB_SONAME_cublas := libcublas.so.13
LIB_SONAME_curand := libcurand.so.10
LIB_SONAME_cufft := libcufft.so.12
LIB_SOS  := $(foreach l,$(LIBS),$(B)/lib/$(LIB_SONAME_$(l)))

# layers, lowest first: ptx -> core (mem, device) -> timing, check -> report -> host session -> runtime, cli
CORE_SRC := $(wildcard src/ptx/*.c src/mem/*.c src/device/*.c src/core/*.c src/analysis/*.c src/fatbin/*.c \
                       src/timing/*.c src/check/*.c src/report/*.c src/host/*.c)
RT_SRC   := $(wildcard src/runtime/*.c)
DRV_SRC  := $(wildcard src/driver/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
JL_SRC   := $(wildcard src/jitlink/*.c)
PL_SRC   := $(wildcard src/preload/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(B)/obj/%.o)
RT_OBJ   := $(RT_SRC:%.c=$(B)/obj/%.o)
DRV_OBJ  := $(DRV_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/obj/%.o)
JL_OBJ   := $(JL_SRC:%.c=$(B)/obj/%.o)
PL_OBJ   := $(PL_SRC:%.c=$(B)/obj/%.o)
# generated sources: the view page (src/report/view_page.html) as a C string, in $(B)/gen (never committed)
GEN_OBJ  := $(B)/obj/gen/view_page.o
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(B)/warpsim $(B)/lib/libcudart.so.13 $(B)/lib/libcuda.so.1 $(B)/lib/libnvJitLink.so.13 \
     $(B)/lib/libwarpsim_preload.so $(LIB_SOS) $(B)/libwarpsim.a $(UNIT_BIN)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# the runtime is compiled against NVIDIA's headers for exact CUDA types, enums and signatures
# the core's lane loops and the timing model's are vector code at -O3 (the simulator's hot path; -O2 elsewhere)
$(B)/obj/src/core/%.o: OPT := $(patsubst -O2,-O3,$(OPT))
$(B)/obj/src/timing/%.o: OPT := $(patsubst -O2,-O3,$(OPT))
$(B)/obj/src/runtime/%.o: CPPFLAGS += -I$(CUDA_HOME)/include
$(B)/obj/src/driver/%.o: CPPFLAGS += -I$(CUDA_HOME)/include
$(B)/obj/src/libs/%.o: CPPFLAGS += -I$(CUDA_HOME)/include

$(B)/libwarpsim.a: $(CORE_OBJ) $(GEN_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# the view page as ws_rep_view_page[]: each line of the .html one C string literal (\, " and ? escaped)
$(B)/gen/view_page.c: src/report/view_page.html
	@mkdir -p $(dir $@)
	LC_ALL=C awk 'BEGIN { print "/* generated from src/report/view_page.html by the Makefile: do not edit */"; \
	    print "#include <stddef.h>"; print "extern const char ws_rep_view_page[];"; \
	    print "extern const size_t ws_rep_view_page_len;"; print "const char ws_rep_view_page[] =" } \
	  { o = ""; for (i = 1; i <= length($$0); i++) { c = substr($$0, i, 1); \
	      o = o (c == "\\" || c == "\"" || c == "?" ? "\\" c : c) } print "\"" o "\\n\"" } \
	  END { print ";"; print "const size_t ws_rep_view_page_len = sizeof ws_rep_view_page - 1;" }' $< > $@.tmp
	mv -f $@.tmp $@

$(B)/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -c $< -o $@

$(B)/lib/libcudart.so.13: $(RT_OBJ) $(B)/libwarpsim.a src/runtime/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/runtime/libcudart.map \
	    -Wl,-Bsymbolic -Wl,--no-undefined -o $@ $(RT_OBJ) $(B)/libwarpsim.a $(LDLIBS)
	ln -sf libcudart.so.13 $(B)/lib/libcudart.so

# the driver API (src/driver) is a face over the runtime: libcuda.so.1 links to the libcudart.so.13 beside it
# ($ORIGIN), so both serve one simulated device; unversioned symbols, as NVIDIA's libcuda.so.1 exports them
$(B)/lib/libcuda.so.1: $(DRV_OBJ) $(B)/lib/libcudart.so.13 src/driver/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=src/driver/libcuda.map -Wl,-Bsymbolic \
	    -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' -o $@ $(DRV_OBJ) $(B)/lib/libcudart.so.13 \
	    $(filter-out -l%,$(LDLIBS)) -lpthread
	ln -sf libcuda.so.1 $(B)/lib/libcuda.so

# warpsim's CUDA libraries (src/libs/NAME, NAME in LIBS): each is one shared library (LIB_SONAME_NAME, with the
# version script src/libs/NAME/libNAME.map) of its C files, the shared src/libs/common ones, and its kernels: each
# src/libs/NAME/FILE.cu made into PTX by the toolkit's nvcc as warpsim is built, kept as the C string ws_FILE_ptx,
# launched through our driver API; libcudart.so.13 and libcuda.so.1 beside it ($ORIGIN)
NVCC ?= $(CUDA_HOME)/bin/nvcc
LIBCOMMON_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(wildcard src/libs/common/*.c))
lib_objs = $(patsubst %.c,$(B)/obj/%.o,$(wildcard src/libs/$(1)/*.c)) \
           $(patsubst src/libs/%.cu,$(B)/obj/gen/libs/%_ptx.o,$(wildcard src/libs/$(1)/*.cu)) $(LIBCOMMON_OBJ)
$(B)/gen/libs/%.ptx: src/libs/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_75 -o $@.tmp $< && mv -f $@.tmp $@
$(B)/gen/libs/%_ptx.c: $(B)/gen/libs/%.ptx
	LC_ALL=C awk -v sym=ws_$(notdir $*)_ptx 'BEGIN { print "/* generated from src/libs/$*.cu by the Makefile: do not edit */"; \
	    print "extern const char " sym "[];"; print "const char " sym "[] =" } \
	  { o = ""; for (i = 1; i <= length($$0); i++) { c = substr($$0, i, 1); \
	      o = o (c == "\\" || c == "\"" || c == "?" ? "\\" c : c) } print "\"" o "\\n\"" } \
	  END { print ";" }' $< > $@.tmp
	mv -f $@.tmp $@
# a library's kernels also include the headers beside them
$(B)/gen/libs/curand/cr_kernels.ptx: src/libs/curand/cr_kinds.h
.PRECIOUS: $(B)/gen/libs/%.ptx $(B)/gen/libs/%_ptx.c
define LIB_rule
$(B)/lib/$(LIB_SONAME_$(1)): $(call lib_objs,$(1)) $(B)/lib/libcuda.so.1 $(B)/lib/libcudart.so.13 src/libs/$(1)/lib$(1).map
	@mkdir -p $$(dir $$@)
	$$(CC) -shared -Wl,-soname,$(LIB_SONAME_$(1)) -Wl,--version-script=src/libs/$(1)/lib$(1).map -Wl,-Bsymbolic \
	    -Wl,--no-undefined -Wl,-rpath,'$$$$ORIGIN' -o $$@ $(call lib_objs,$(1)) $(B)/lib/libcuda.so.1 \
	    $(B)/lib/libcudart.so.13 -lpthread -lm $$(filter -f%,$$(LDLIBS))
	ln -sf $(LIB_SONAME_$(1)) $(B)/lib/lib$(1).so
endef
$(foreach l,$(LIBS),$(eval $(call LIB_rule,$(l))))

# nvJitLink's stand-in (src/jitlink): refuses links to SASS, so cuda.core (Numba) links PTX with our driver
$(B)/lib/libnvJitLink.so.13: $(JL_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libnvJitLink.so.13 -Wl,--no-undefined -o $@ $(JL_OBJ) $(filter -f%,$(LDLIBS))

# preloaded by `warpsim run`: a CUDA runtime linked statically into a library (CuPy) calls our libcudart.so.13
$(B)/lib/libwarpsim_preload.so: $(PL_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libwarpsim_preload.so -Wl,--no-undefined -o $@ $(PL_OBJ) -ldl -lpthread $(filter -f%,$(LDLIBS))

$(B)/warpsim: $(CLI_OBJ) $(B)/libwarpsim.a
	$(CC) -o $@ $(CLI_OBJ) $(B)/libwarpsim.a $(LDLIBS)
	@mkdir -p $(B)/lib
	ln -sf ../warpsim $(B)/lib/ptxas

$(B)/tests/%: tests/unit/%.c $(B)/libwarpsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -Isrc -o $@ $< $(B)/libwarpsim.a $(LDLIBS)

test: all
	bash tests/run_tests.sh

bench: all
	bash bench/run_bench.sh

clean:
	rm -rf $(B)

# make install [PREFIX=/usr/local] [DESTDIR=]: PREFIX/bin/warpsim, the simulated CUDA libraries in
# PREFIX/lib/warpsim/, the presets in PREFIX/share/warpsim/devices/; warpsim finds both relative to itself.
PREFIX  ?= /usr/local
INSTALL ?= install
# the libraries `warpsim run` puts in front of NVIDIA's
INSTALL_LIBS := $(B)/lib/libcudart.so.13 $(B)/lib/libcuda.so.1 $(B)/lib/libnvJitLink.so.13 \
                $(B)/lib/libwarpsim_preload.so $(LIB_SOS)
I_BIN   := $(DESTDIR)$(PREFIX)/bin
I_LIB   := $(DESTDIR)$(PREFIX)/lib/warpsim
I_DEV   := $(DESTDIR)$(PREFIX)/share/warpsim/devices

install: $(B)/warpsim $(INSTALL_LIBS)
	$(INSTALL) -d -m 755 "$(I_BIN)" "$(I_LIB)" "$(I_DEV)"
	$(INSTALL) -m 755 $(B)/warpsim "$(I_BIN)/warpsim"
	$(INSTALL) -m 755 $(INSTALL_LIBS) "$(I_LIB)/"
	ln -sf libcudart.so.13 "$(I_LIB)/libcudart.so"
	ln -sf libcuda.so.1 "$(I_LIB)/libcuda.so"
	ln -sf ../../bin/warpsim "$(I_LIB)/ptxas"
	rm -f "$(I_DEV)"/*.preset
	$(INSTALL) -m 644 devices/*.preset devices/README.md "$(I_DEV)/"

uninstall:
	rm -f "$(I_BIN)/warpsim" "$(I_LIB)/libcudart.so" "$(I_LIB)/libcuda.so" "$(I_LIB)/ptxas" $(foreach l,$(notdir $(INSTALL_LIBS)),"$(I_LIB)/$(l)")
	rm -f "$(I_DEV)"/*.preset "$(I_DEV)/README.md"
	rmdir "$(I_LIB)" "$(I_DEV)" "$(DESTDIR)$(PREFIX)/share/warpsim" 2>/dev/null || true

# make docs: the pictures in docs/, drawn in headless Chromium by the tests that check them (needs chromium, python3
# and nvcc): the view page of the fixtures tests/data/view/*.json (docs/view-*.png), the view pages of seed programs
# (docs/view-program-*.png) and every explorer's page (docs/explore-*.png)
docs: $(B)/warpsim
	WARPSIM=$(B)/warpsim bash tests/cli/view_page.sh --docs docs
	WARPSIM=$(B)/warpsim bash tests/cli/view_programs.sh --docs docs
	WARPSIM=$(B)/warpsim bash tests/cli/explore.sh --docs docs

.PHONY: all test bench clean install uninstall
.PHONY: docs
-include $(wildcard $(B)/obj/src/*/*.d $(B)/obj/src/*/*/*.d)

# all 31 H200 benchmarks of tests/data/h200 under the timing model: rewrites bench/calibration.md and fails unless
# the accuracy targets hold (tests/cli/calibration.sh checks a subset in make test)
calibrate: all
	python3 bench/calibrate.py --check

.PHONY: calibrate

# ---- fuzzing. `make fuzz` builds every tests/fuzz/fuzz_NAME.c harness with clang's libFuzzer, ASan and UBSan
# into $(FUZZ_B)/fuzz_NAME (linked with the core sources built the same way into $(FUZZ_B)/libwarpsim.a), replays
# tests/fuzz/regress/NAME/, then fuzzes each for FUZZ_SECONDS from the seeds in tests/fuzz/corpus/NAME/
# (see tests/fuzz/README.md). A new harness needs no change here. `make fuzz-regress` only replays.
FUZZ_CC      ?= clang
FUZZ_B       ?= $(B)-fuzz
FUZZ_SECONDS ?= 600
FUZZ_ARGS    ?=
FUZZ_CFLAGS  ?= -O1 -g
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_OBJ     := $(CORE_SRC:%.c=$(FUZZ_B)/obj/%.o)

$(FUZZ_B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(WFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_B)/libwarpsim.a: $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_B)/libwarpsim.a
	$(FUZZ_CC) $(CPPFLAGS) $(WFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -Isrc -o $@ $< \
	    $(FUZZ_B)/libwarpsim.a $(LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

fuzz: fuzz-build
	FUZZ_ARGS='$(FUZZ_ARGS)' bash tests/fuzz/run_fuzz.sh $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-regress: fuzz-build
	bash tests/fuzz/run_fuzz.sh $(FUZZ_B) 0 $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-build fuzz-regress
-include $(wildcard $(FUZZ_B)/obj/src/*/*.d)

# test_fatbin replays tests/fuzz/regress/fatbin and tests/fuzz/corpus/fatbin from the source tree
$(B)/tests/test_fatbin: CPPFLAGS += -DWS_SOURCE_DIR='"$(CURDIR)"'
$(B)/tests/test_fatbin: tests/fuzz/fuzz_fatbin.c

# ---- sanitizers. `make sanitize` builds the simulator, the runtime and the unit tests with ASan and UBSan into
# $(SAN_B) (gcc), then runs tests/run_tests.sh through $(SAN_B)/warpsim-san, which preloads gcc's libasan into
# the nvcc-built programs that load the sanitized $(SAN_B)/lib/libcudart.so.13 (tests/fuzz/run_sanitize.sh).
SAN_B      ?= $(B)-san
SAN_CC     ?= gcc
SAN_CFLAGS ?= -O1 -g $(filter -m%,$(OPT))
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

sanitize-build:
	$(MAKE) B=$(SAN_B) CC=$(SAN_CC) CFLAGS='$(SAN_CFLAGS) $(SAN_FLAGS)' LDLIBS='$(SAN_FLAGS) $(LDLIBS)' all
	SAN_CC=$(SAN_CC) bash tests/fuzz/run_sanitize.sh --setup $(SAN_B)

sanitize: all sanitize-build
	SAN_CC=$(SAN_CC) bash tests/fuzz/run_sanitize.sh $(SAN_B) $(SAN_TESTS)

.PHONY: sanitize sanitize-build

# ---- ThreadSanitizer. `make tsan-build` builds the simulator into $(TSAN_B) with -fsanitize=thread; run a program
# under it with `LD_PRELOAD=$$(gcc -print-file-name=libtsan.so) setarch -R $(TSAN_B)/warpsim run --timing
# --threads 2 PROGRAM` (the nvcc-built program needs the runtime preloaded; setarch -R: TSan's memory layout wants
# address randomization off on this kernel). Managed and pinned host memory map fixed addresses inside TSan's
# shadow, so programs that use them cannot run under it.
TSAN_B ?= $(B)-tsan
tsan-build:
	$(MAKE) B=$(TSAN_B) CC=gcc CFLAGS='-O1 -g -fsanitize=thread' LDLIBS='-fsanitize=thread $(LDLIBS)' all

.PHONY: tsan-build
