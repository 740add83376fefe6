# dsprof - top-level build.  `make demo` and `make check` are the two commands to
# know; see README.md.

CC       ?= gcc
CXX      ?= g++
PREFIX   ?= /usr/local
DESTDIR  ?=
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
WARN      = -Wall -Wextra
# Recursive (=): asked of the compiler only when the plugin is built, after
# deps.sh has installed it.
GCC_PLUGIN_DIR = $(shell $(CC) -print-file-name=plugin)

PLUGIN_SRC  := $(wildcard plugin/*.cc)
RUNTIME_SRC := $(wildcard runtime/*.c)
# The report tool's sources by role (docs/architecture.md): format/ reads and
# writes the profile format, model/ builds what the views show, render/ writes
# output formats, cmd/ holds the commands, util/ the rest.
REPORT_DIRS := format model render util cmd
REPORT_SRC  := $(foreach d,$(REPORT_DIRS),$(wildcard report/$(d)/*.c))
REPORT_HDR  := $(foreach d,$(REPORT_DIRS),$(wildcard report/$(d)/*.h))
REPORT_INC  := $(addprefix -Ireport/,$(REPORT_DIRS))
UNIT_SRC    := $(wildcard testsuite/unit/*.c)
UNIT_HDR    := $(wildcard testsuite/unit/*.h)

PLUGIN  = plugin/dsprof.so
LIBA    = runtime/libdsprof.a
LIBSO   = runtime/libdsprof.so
REPORT  = report/dsprof
UNIT    = testsuite/unit/run-unit

# The format codec, include/dsprof-format.c, is compiled into the runtime and the
# report tool (and their sanitizer and fuzzing builds) as dsprof-format.o.
CODEC_SRC   = include/dsprof-format.c
CODEC_DEPS  = $(CODEC_SRC) include/dsprof-format.h
RUNTIME_OBJ := $(RUNTIME_SRC:.c=.o) runtime/dsprof-format.o
REPORT_OBJ  := $(REPORT_SRC:.c=.o) report/dsprof-format.o
# The unit tests link the report modules that need no command: none of cmd/.
REPORT_LIB_OBJ := $(filter-out report/cmd/%.o,$(REPORT_OBJ))

all: deps-check $(PLUGIN) $(LIBA) $(LIBSO) $(REPORT)

# ---- dependencies (Debian packages) -------------------------------------------
# scripts/deps.sh holds each target's package set: `make demo`, `make check`,
# `make bench` and `make check-real` install theirs first (as root; otherwise
# deps.sh prints the apt-get line and fails), `make deps` every set, and `make`
# says what the build misses.  $(CC) names the plugin headers' package.
DEPS = CC="$(CC)" scripts/deps.sh
deps:
	@$(DEPS) install --for check --for bench --for check-real
deps-check:
	@$(DEPS) check --for build

# ---- the three programs ----------------------------------------------------------
$(PLUGIN): $(PLUGIN_SRC) $(wildcard plugin/*.h) include/dsprof-format.h
	$(CXX) $(CXXFLAGS) $(WARN) -Wno-unused-parameter -fPIC -shared -fno-rtti \
	  -I$(GCC_PLUGIN_DIR)/include -Iinclude -o $@ $(PLUGIN_SRC)

runtime/%.o: runtime/%.c $(wildcard runtime/*.h) include/dsprof-format.h
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden \
	  -Iinclude -Iruntime -c -o $@ $<
runtime/dsprof-format.o: $(CODEC_DEPS)
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden \
	  -Iinclude -c -o $@ $<
$(LIBA): $(RUNTIME_OBJ)
	rm -f $@ && ar rcs $@ $^
# -z nodelete: a program that dlcloses an instrumented library keeps libdsprof,
# whose thread-exit destructor and exit handler its threads still run.
$(LIBSO): $(RUNTIME_OBJ)
	$(CC) -shared -Wl,-z,nodelete -o $@ $^ -lpthread

report/%.o: report/%.c $(REPORT_HDR) include/dsprof-format.h
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -Iinclude $(REPORT_INC) -I/usr/include/libiberty -c -o $@ $<
report/dsprof-format.o: $(CODEC_DEPS)
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -Iinclude -c -o $@ $<
# -rdynamic: --derive libraries call the record accessors of dsprof-derive.h.
$(REPORT): $(REPORT_OBJ)
	$(CC) -rdynamic -o $@ $^ -liberty -lreadline -lncurses -ldl -lm -lz

# ---- dsprof-cc and dsprof-c++: the compiler with dsprof added ---------------------
# The driver finds the plugin and the specs file from its own path; the specs file
# (dsprof.specs.in, also used by scripts/install.sh and scripts/real.sh) adds
# libdsprof to every link.
DRIVER    = driver/dsprof-cc driver/dsprof-c++
SPECS     = runtime/dsprof.specs
# (asked when the driver is built, not when the Makefile is read: see GCC_PLUGIN_DIR)
GCC_MAJOR = $(shell $(CC) -dumpversion | cut -d. -f1)
driver/dsprof-cc: driver/dsprof-cc.c
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -DDSPROF_GCC_MAJOR='"$(GCC_MAJOR)"' -o $@ $<
driver/dsprof-c++: driver/dsprof-cc
	ln -sf dsprof-cc $@
$(SPECS): dsprof.specs.in
	sed "s|@LIBDIR@|$(CURDIR)/runtime|g" $< >$@
all: $(DRIVER) $(SPECS)

# ---- tests ----------------------------------------------------------------------
$(UNIT): $(UNIT_SRC) $(UNIT_HDR) $(REPORT_LIB_OBJ) $(LIBA)
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -Iinclude $(REPORT_INC) -Iruntime -I/usr/include/libiberty \
	  -o $@ $(UNIT_SRC) $(REPORT_LIB_OBJ) $(LIBA) -lcunit -liberty -lm -lpthread -lz

# `make demo` and `make check` install the Debian packages they need first, then
# build (in a second make, which asks the compiler installed for its plugin
# directory).
check:
	@$(DEPS) install --for check
	@scripts/playwright.sh
	@$(MAKE) --no-print-directory all $(UNIT)
	@testsuite/run-all.sh

demo:
	@$(DEPS) install --for demo
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh

bench:
	@$(DEPS) install --for bench
	@$(MAKE) --no-print-directory all
	@scripts/bench.sh

# `make check-fresh`: `make demo` then `make check` in a clone of HEAD on a minimal
# Debian 12 root (mmdebstrap: git, make, ca-certificates), as root in a 0700
# directory, with the time, packages and disk space each took
# (scripts/check-fresh.sh).
check-fresh:
	@$(DEPS) install --for check-fresh
	@scripts/check-fresh.sh

# ---- install ----------------------------------------------------------------------
install: all
	@scripts/install.sh "$(DESTDIR)" "$(PREFIX)"

clean:
	rm -f plugin/*.so runtime/*.o runtime/*.a runtime/*.so report/*.o report/*/*.o $(REPORT) $(UNIT)
	rm -f $(DRIVER) $(SPECS)
	rm -rf testsuite/out build

.PHONY: all deps deps-check check demo bench check-fresh install clean

# ---- hostile input: fuzzing and sanitizer builds (testsuite/fuzz/README) ----------
# `make fuzz` builds the libFuzzer harness with clang and runs it for FUZZ_SECONDS
# over a corpus seeded from testsuite/fuzz/seeds; `make check-sanitize` builds the
# runtime, the report tool and the unit tests with AddressSanitizer and
# UndefinedBehaviorSanitizer under build/sanitize (normal objects untouched) and
# runs them.  Neither is part of `all`.
FUZZ_DIR     = build/fuzz
FUZZ_CC      = clang
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 1
SAN_FLAGS    = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=all
FUZZ_OBJ     := $(REPORT_SRC:report/%.c=$(FUZZ_DIR)/%.o) $(FUZZ_DIR)/dsprof-format.o
FUZZ_SRC     = testsuite/fuzz/harness.c
FUZZ_BIN     = $(FUZZ_DIR)/fuzz-profile
SAN_DIR      = build/sanitize
SAN_RT_OBJ   := $(RUNTIME_SRC:runtime/%.c=$(SAN_DIR)/rt-%.o) \
                $(SAN_DIR)/rt-dsprof-format.o
SAN_REP_OBJ  := $(REPORT_SRC:report/%.c=$(SAN_DIR)/rep-%.o) \
                $(SAN_DIR)/rep-dsprof-format.o
SAN_LIB_OBJ  := $(filter-out $(SAN_DIR)/rep-cmd/%.o,$(SAN_REP_OBJ))
# dsprof.c's main is renamed so the harness can call the commands.
$(FUZZ_DIR)/%.o: report/%.c $(REPORT_HDR) include/dsprof-format.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) -fsanitize=fuzzer-no-link \
	  -Dmain=dsprof_main -Iinclude $(REPORT_INC) -I/usr/include/libiberty -c -o $@ $<
$(FUZZ_DIR)/dsprof-format.o: $(CODEC_DEPS)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) -fsanitize=fuzzer-no-link \
	  -Iinclude -c -o $@ $<
$(FUZZ_BIN): $(FUZZ_SRC) $(FUZZ_OBJ)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) -fsanitize=fuzzer -Iinclude \
	  $(REPORT_INC) -I/usr/include/libiberty -o $@ $(FUZZ_SRC) $(FUZZ_OBJ) \
	  -rdynamic -liberty -lreadline -lncurses -ldl -lm -lz

fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) \
	  $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) \
	  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/crashes/ \
	  -dict=testsuite/fuzz/profile.dict \
	  $(FUZZ_DIR)/corpus testsuite/fuzz/seeds testsuite/fuzz/regress

$(SAN_DIR)/rt-%.o: runtime/%.c $(wildcard runtime/*.h) include/dsprof-format.h
	@mkdir -p $(SAN_DIR)/runtime
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -fPIC \
	  -fvisibility=hidden -Iinclude -Iruntime -c -o $@ $<
$(SAN_DIR)/rt-dsprof-format.o: $(CODEC_DEPS)
	@mkdir -p $(SAN_DIR)/runtime
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -fPIC \
	  -fvisibility=hidden -Iinclude -c -o $@ $<
$(SAN_DIR)/rep-dsprof-format.o: $(CODEC_DEPS)
	@mkdir -p $(SAN_DIR)
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -Iinclude -c -o $@ $<
$(SAN_DIR)/rep-%.o: report/%.c $(REPORT_HDR) include/dsprof-format.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -Iinclude $(REPORT_INC) \
	  -I/usr/include/libiberty -c -o $@ $<
$(SAN_DIR)/runtime/libdsprof.a: $(SAN_RT_OBJ)
	rm -f $@ && ar rcs $@ $^
$(SAN_DIR)/runtime/libdsprof.so: $(SAN_RT_OBJ)
	$(CC) -fsanitize=address,undefined -shared -Wl,-z,nodelete -o $@ $^ -lpthread
$(SAN_DIR)/dsprof: $(SAN_REP_OBJ)
	$(CC) -fsanitize=address,undefined -rdynamic -o $@ $^ -liberty -lreadline -lncurses -ldl -lm -lz
$(SAN_DIR)/run-unit: $(UNIT_SRC) $(UNIT_HDR) $(SAN_LIB_OBJ) $(SAN_DIR)/runtime/libdsprof.a
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -Iinclude $(REPORT_INC) -Iruntime \
	  -I/usr/include/libiberty -o $@ $(UNIT_SRC) $(SAN_LIB_OBJ) \
	  $(SAN_DIR)/runtime/libdsprof.a -lcunit -liberty -lm -lpthread -lz
$(SAN_DIR)/fuzz-run: testsuite/fuzz/harness.c testsuite/fuzz/driver.c $(SAN_REP_OBJ)
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -Iinclude $(REPORT_INC) \
	  -I/usr/include/libiberty -Dmain=dsprof_main -c -o $(SAN_DIR)/dsprof-lib.o report/cmd/dsprof.c
	$(CC) -std=c11 -D_GNU_SOURCE $(SAN_FLAGS) $(WARN) -Iinclude $(REPORT_INC) \
	  -I/usr/include/libiberty -o $@ testsuite/fuzz/harness.c testsuite/fuzz/driver.c \
	  $(SAN_DIR)/dsprof-lib.o $(filter-out $(SAN_DIR)/rep-cmd/dsprof.o,$(SAN_REP_OBJ)) \
	  -rdynamic -liberty -lreadline -lncurses -ldl -lm -lz

check-sanitize: all $(SAN_DIR)/runtime/libdsprof.a $(SAN_DIR)/runtime/libdsprof.so \
	  $(SAN_DIR)/dsprof $(SAN_DIR)/run-unit $(SAN_DIR)/fuzz-run
	@testsuite/fuzz/check-sanitize.sh $(SAN_DIR)

.PHONY: fuzz check-sanitize

# `make check-real`: real interpreters from Debian source packages (Lua 5.4, gawk,
# jq) built with the plugin at -O0 and -O2, their own test suites, counts against
# gcov's; SQLite's op records against its VDBE_PROFILE (scripts/real.sh, docs/real.md).  Not part of `check`, whose `counters-lua` case
# builds Lua at -O0 only.  REAL_JOBS: make -j of the builds (default: the number
# of CPUs); REAL_PACKAGES: a subset, e.g. REAL_PACKAGES=jq.
check-real:
	@$(DEPS) install --for check-real
	@$(MAKE) --no-print-directory all
	@REAL_JOBS=$(REAL_JOBS) scripts/real.sh $(REAL_PACKAGES)

.PHONY: check-real

# `make check-real-cc`: three Debian source packages, one per build system (mawk:
# autotools, pcre2: CMake, serd: Meson), built with dsprof-cc alone, their own test
# suites against a plain build's, counts and events, and every line's count against
# gcov's in a build with both (scripts/real-cc.sh, docs/real-cc.md).  REAL_PACKAGES:
# a subset.
check-real-cc:
	@$(DEPS) install --for check-real
	@$(MAKE) --no-print-directory all
	@REAL_JOBS=$(REAL_JOBS) scripts/real-cc.sh $(REAL_PACKAGES)

.PHONY: check-real-cc
