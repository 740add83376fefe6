# plugin-readme-usage: README's "Profiling your own program" works as written: its first
# block (the build tree's plugin and runtime, the program started without
# LD_LIBRARY_PATH) and its pkg-config block after `make install` under a fresh
# prefix.  The commands are taken from README.md itself, with /path/to/dsprof
# replaced by this checkout, so the README cannot drift from what works.
. "$(dirname "$0")/../../lib.sh"
unset LD_LIBRARY_PATH

# block N: the Nth ```sh block of README's "Profiling your own program" section.
block () {
  awk -v n="$1" '
    /^## / { in_sec = ($0 == "## Profiling your own program") }
    in_sec && /^```sh$/ { k++; if (k == n) { on = 1; next } }
    on && /^```$/ { exit }
    on { print }' "$TOP/README.md" | sed "s|/path/to/dsprof|$TOP|g"
}

WORK=$PWD
cp "$CASE/interp.c" .
printf '1 2 3 4\n' >script.txt
LINE=$(grep -n 'STATEMENT' interp.c | cut -d: -f1)

block 1 >build-tree.sh
[ "$(wc -l <build-tree.sh)" -ge 4 ] || fail "README's first block not found: $(cat build-tree.sh)"
bash -e build-tree.sh >build-tree.out 2>build-tree.err \
  || fail "README's first block fails: $(cat build-tree.err)"
[ "$(./interp script.txt)" = 20 ] || fail "interp does not run: $(./interp script.txt 2>&1)"
grep -q "^interp\.c:$LINE: 4\$" build-tree.out \
  || fail "README's block: no 'interp.c:$LINE: 4' among the hottest lines: $(cat build-tree.out)"
[ -f interp.c.bb ] || fail "README's block: no interp.c.bb"

# After `make install` (under a prefix of our own), with pkg-config.
mkdir inst pc && cp interp.c script.txt pc/
(cd "$TOP" && scripts/install.sh "" "$WORK/inst") >install.out || fail "install.sh failed"
block 2 >pc/pc.sh
grep -q 'pkg-config' pc/pc.sh || fail "README's pkg-config block not found"
(cd pc && PKG_CONFIG_PATH=$WORK/inst/lib/pkgconfig bash -e pc.sh) 2>pc.err \
  || fail "README's pkg-config block fails: $(cat pc.err)"
(cd pc && ./interp script.txt >out.txt) || fail "the pkg-config build does not start"
[ "$(cat pc/out.txt)" = 20 ] || fail "the pkg-config build printed $(cat pc/out.txt)"
ldd pc/interp | grep -q "$WORK/inst/lib/libdsprof.so" \
  || fail "the pkg-config build does not use the installed libdsprof.so: $(ldd pc/interp)"
grep -q "^interp\.c:$LINE: 4\$" <("$WORK/inst/bin/dsprof" lines pc/dsprof.data) \
  || fail "the pkg-config build's profile: interp.c:$LINE not counted 4 times"
exit 0
