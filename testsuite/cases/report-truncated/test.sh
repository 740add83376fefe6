# report-truncated: a profile cut short while dsprof reads it (a profile is
# mapped: a read past its new end faults with SIGBUS) ends every command with
# one line "dsprof: 'FILE': file truncated while reading" and status 2, never a
# crash, wherever the cut falls: in the header, in the chunk table, or in an
# event stream being decoded.  merge then leaves its output as it was and no
# temporary file.  The cut is made by an LD_PRELOAD'ed shim (shim.c) right after
# dsprof maps the file and before it reads any of it, so the test does not
# depend on timing.
. "$(dirname "$0")/../../lib.sh"

gcc -shared -fPIC -o shim.so "$CASE/shim.c" -ldl || fail "shim.c does not compile"
dscc -O1 -o many "$CASE/many.c" || fail "many.c does not compile"
./many >/dev/null || fail "many exited with $?"
mv dsprof.data whole.data
cp whole.data other.data

# The first events chunk of more than two pages of stream (a thread's chunks
# grow from one page): its offset, and the bytes of stream it holds.
read -r evoff used < <(python3 - whole.data <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
end, off = struct.unpack_from('<Q', d, 16)[0], 4096
while off < end:
    kind, check, size = struct.unpack_from('<IIQ', d, off)
    if kind == 2 and struct.unpack_from('<Q', d, off + 24)[0] > 8192:
        print(off, struct.unpack_from('<Q', d, off + 24)[0])
        break
    off += size
PY
)
[ -n "$evoff" ] && [ "$used" -gt 8192 ] || fail "no events chunk of more than two pages: $evoff $used"

# cut AT CMD...: run dsprof CMD... on t.data cut to AT bytes once mapped.
cut () {
  local at=$1; shift
  cp whole.data t.data
  set +e
  LD_PRELOAD=$PWD/shim.so TRUNCATE_FILE=$PWD/t.data TRUNCATE_AT=$at \
    "$DSPROF" "$@" >out.txt 2>err.txt
  rc=$?
  set -e
  [ "$(stat -c %s t.data)" = "$at" ] || fail "$* (cut at $at): the shim did not cut t.data"
  [ $rc = 2 ] || fail "dsprof $* (cut at $at): status $rc, $(cat err.txt)"
  [ "$(cat err.txt)" = "dsprof: 't.data': file truncated while reading" ] \
    || fail "dsprof $* (cut at $at) said: $(cat err.txt)"
}

# In the header and in the chunk table: every command reading profiles.
for at in 0 4096 "$evoff"; do
  for c in info lines annotate report records trace dims callgraph dot html; do
    cut "$at" $c t.data
  done
  cut "$at" export --format csv t.data
  cut "$at" report name t.data other.data
done
# In an event stream (the chunk's header read, its second page cut): every
# command decoding events.
at=$((evoff + 4096))
for c in "info --count" report records trace dims callgraph dot html; do
  cut "$at" $c t.data
done
cut "$at" export --format chrome -o exp.json t.data
[ ! -e exp.json ] || fail "export wrote exp.json from a truncated profile"

# merge: the output stays as it was, no temporary file is left.
cp other.data m.data
for at in 0 4096 $((evoff + 4096)); do
  cut "$at" merge -o m.data other.data t.data
  cmp -s m.data other.data || fail "merge (cut at $at) changed m.data"
  ls m.data.* 2>/dev/null && fail "merge (cut at $at) left a temporary file"
done

# Without a cut the shim changes nothing.
LD_PRELOAD=$PWD/shim.so "$DSPROF" records whole.data >all.txt || fail "records: status $?"
[ "$(grep -c name=step all.txt)" = 30000 ] || fail "want 30000 step records: $(wc -l <all.txt)"
exit 0
