# warpsim - plain make. Builds build/warpsim, build/lib/libcudart.so.13 and build/libwarpsim.a.
CC      ?= cc
OPT     ?= -O2
ARCH    := $(shell uname -m)
ifeq ($(ARCH),x86_64)
OPT     += -mpopcnt
endif
CFLAGS  ?= $(OPT) -g
WFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fPIC
DEVDIR  := $(CURDIR)/devices
B       ?= build
CPPFLAGS += -DWS_DEVICES_DIR='"$(DEVDIR)"' -DWS_BUILD_DIR='"$(CURDIR)/$(B)"'
LDLIBS  := -lzstd -llz4 -ljansson -lm -lpthread -ldl
CUDA_HOME ?= /usr/local/cuda

# layers, lowest first: ptx -> core (mem, device) -> timing, check -> report -> host session -> runtime, cli
CORE_SRC := $(wildcard src/ptx/*.c src/mem/*.c src/device/*.c src/core/*.c src/analysis/*.c src/fatbin/*.c \
                       src/timing/*.c src/check/*.c src/report/*.c src/host/*.c)
RT_SRC   := $(wildcard src/runtime/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(B)/obj/%.o)
RT_OBJ   := $(RT_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(B)/warpsim $(B)/lib/libcudart.so.13 $(B)/libwarpsim.a $(UNIT_BIN)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# the runtime is compiled against NVIDIA's headers for exact CUDA types, enums and signatures
$(B)/obj/src/runtime/%.o: CPPFLAGS += -I$(CUDA_HOME)/include

$(B)/libwarpsim.a: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(B)/lib/libcudart.so.13: $(RT_OBJ) $(B)/libwarpsim.a src/runtime/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/runtime/libcudart.map \
	    -Wl,-Bsymbolic -o $@ $(RT_OBJ) $(B)/libwarpsim.a $(LDLIBS)
	ln -sf libcudart.so.13 $(B)/lib/libcudart.so

$(B)/warpsim: $(CLI_OBJ) $(B)/libwarpsim.a
	$(CC) -o $@ $(CLI_OBJ) $(B)/libwarpsim.a $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libwarpsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WFLAGS) $(CFLAGS) -Isrc -o $@ $< $(B)/libwarpsim.a $(LDLIBS)

test: all
	bash tests/run_tests.sh

bench: all
	bash bench/run_bench.sh

clean:
	rm -rf $(B)

.PHONY: all test bench clean
-include $(wildcard $(B)/obj/src/*/*.d)

# all 31 H200 benchmarks of tests/data/h200 under the timing model: rewrites bench/calibration.md and fails unless
# the accuracy targets hold (tests/cli/calibration.sh checks a subset in make test)
calibrate: all
	python3 bench/calibrate.py --check

.PHONY: calibrate
