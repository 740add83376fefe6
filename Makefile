# dsprof - top-level build.  `make demo` and `make check` are the two commands to
# know; see README.md.

CC       ?= gcc
CXX      ?= g++
PREFIX   ?= /usr/local
DESTDIR  ?=
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
WARN      = -Wall -Wextra
GCC_PLUGIN_DIR := $(shell $(CC) -print-file-name=plugin)

PLUGIN_SRC  := $(wildcard plugin/*.cc)
RUNTIME_SRC := $(wildcard runtime/*.c)
REPORT_SRC  := $(wildcard report/*.c)
UNIT_SRC    := $(wildcard testsuite/unit/*.c)

PLUGIN  = plugin/dsprof.so
LIBA    = runtime/libdsprof.a
LIBSO   = runtime/libdsprof.so
REPORT  = report/dsprof
UNIT    = testsuite/unit/run-unit

RUNTIME_OBJ := $(RUNTIME_SRC:.c=.o)
REPORT_OBJ  := $(REPORT_SRC:.c=.o)
REPORT_LIB_OBJ := $(filter-out report/dsprof.o report/cmd-%.o,$(REPORT_OBJ))

all: deps-check $(PLUGIN) $(LIBA) $(LIBSO) $(REPORT)

# ---- dependencies (Debian packages) -------------------------------------------
deps:
	@scripts/deps.sh install
deps-check:
	@scripts/deps.sh check

# ---- the three programs ----------------------------------------------------------
$(PLUGIN): $(PLUGIN_SRC) $(wildcard plugin/*.h) include/dsprof-format.h
	$(CXX) $(CXXFLAGS) $(WARN) -Wno-unused-parameter -fPIC -shared -fno-rtti \
	  -I$(GCC_PLUGIN_DIR)/include -Iinclude -o $@ $(PLUGIN_SRC)

runtime/%.o: runtime/%.c $(wildcard runtime/*.h) include/dsprof-format.h
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden \
	  -Iinclude -Iruntime -c -o $@ $<
$(LIBA): $(RUNTIME_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIBSO): $(RUNTIME_OBJ)
	$(CC) -shared -o $@ $^ -lpthread

report/%.o: report/%.c $(wildcard report/*.h) include/dsprof-format.h
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -Iinclude -Ireport -I/usr/include/libiberty -c -o $@ $<
# -rdynamic: --derive libraries call the record accessors of dsprof-derive.h.
$(REPORT): $(REPORT_OBJ)
	$(CC) -rdynamic -o $@ $^ -liberty -lreadline -ldl -lm

# ---- tests ----------------------------------------------------------------------
$(UNIT): $(UNIT_SRC) $(REPORT_LIB_OBJ) $(LIBA)
	$(CC) -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) -Iinclude -Ireport -Iruntime -I/usr/include/libiberty \
	  -o $@ $(UNIT_SRC) $(REPORT_LIB_OBJ) $(LIBA) -lcunit -liberty -lm -lpthread

check: all $(UNIT)
	@testsuite/run-all.sh

demo: all
	@scripts/demo.sh

bench: all
	@scripts/bench.sh

# ---- install ----------------------------------------------------------------------
install: all
	@scripts/install.sh "$(DESTDIR)" "$(PREFIX)"

clean:
	rm -f plugin/*.so runtime/*.o runtime/*.a runtime/*.so report/*.o $(REPORT) $(UNIT)
	rm -rf testsuite/out build

.PHONY: all deps deps-check check demo bench install clean
