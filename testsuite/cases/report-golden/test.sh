# report-golden: every command's output on the golden profiles is the one recorded
# in testsuite/golden/expected, byte for byte (testsuite/golden/README).
. "$(dirname "$0")/../../lib.sh"

golden=$TOP/testsuite/golden
[ "$(ls "$golden"/profiles/*.data | wc -l)" -ge 10 ] || fail "golden profiles missing"
"$golden/run.sh" "$PWD/got" || fail "run.sh failed"
n=$(find "$golden/expected" -type f | wc -l)
[ "$n" -eq "$(find got -type f | wc -l)" ] || fail "$(find got -type f | wc -l) outputs, $n expected"
diff -r "$golden/expected" got >diff.txt || {
  head -60 diff.txt >&2
  fail "outputs differ from testsuite/golden/expected ($(grep -c '^diff' diff.txt) files; after a deliberate change: testsuite/golden/make.sh --outputs)"
}
echo "$n outputs as recorded"
