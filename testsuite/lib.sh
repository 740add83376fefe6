# lib.sh - sourced by every testsuite/cases/*/test.sh.  Each case runs in a fresh
# scratch directory ($WORK, its current directory) and exits 0 on success; any
# message on failure goes to stderr.  Helpers:
#   dscc ARGS...      gcc with the dsprof plugin, runtime header and library
#   fail MESSAGE      print MESSAGE and exit 1
#   expect_same A B   fail with a diff unless files A and B are identical
#   run_dsprof ARGS   the dsprof command
#   progress FILE     the 64-bit count a test program keeps in FILE
#   wait_progress FILE N WHAT   until progress FILE reaches N (fail after 20 s)
#   event_chunks PROFILE        one "THREAD SIZE OFFSET" line per event chunk of
#                               PROFILE, in file order
set -eu
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PLUGIN=$TOP/plugin/dsprof.so
DSPROF=$TOP/report/dsprof
CASE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$TOP/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset DSPROF_OUT DSPROF_EVENTS DSPROF_PARENT_PID

dscc () {
  gcc -fplugin="$PLUGIN" -I"$TOP/runtime" "$@" -L"$TOP/runtime" -ldsprof -lpthread
}

run_dsprof () {
  "$DSPROF" "$@"
}

fail () {
  echo "FAIL: $*" >&2
  exit 1
}

expect_same () {
  diff -u "$1" "$2" >&2 || fail "$2 differs from $1"
}

progress () {
  od -An -tu8 "$1" | tr -d ' '
}

wait_progress () {
  local end=$((SECONDS + 20))
  while [ ! -s "$1" ] || [ "$(progress "$1")" -lt "$2" ]; do
    [ $SECONDS -lt $end ] || fail "$3 did not reach $2 iterations"
    sleep 0.01
  done
}

event_chunks () {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
end = struct.unpack_from("<Q", data, 16)[0]     # struct dsprof_file_header.end
off = 4096
while off < end:
    kind, _, size = struct.unpack_from("<IIQ", data, off)
    if kind == 2:                               # DSPROF_CHUNK_EVENTS
        print(struct.unpack_from("<I", data, off + 16)[0], size, off)
    off += size
PY
}
