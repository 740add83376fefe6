# report-json-utf8: every JSON dsprof writes is valid UTF-8, whatever bytes a
# string dimension holds (docs/contract.md §5).  bytes.c records a string of
# every byte value 1..255 and malformed UTF-8 (stray bytes, a cut sequence, a
# surrogate, an overlong form, a 5-byte lead).  `report --format json` and
# `export --format chrome` must parse with a strict UTF-8 JSON reader, each
# byte of no well-formed sequence U+FFFD and well-formed ones unchanged; the
# page of `dsprof html` (which embeds the report's values) must be strict
# UTF-8 with such bytes shown as \xHH, and the icicle label of a function
# named with 'x' and 150 'é' cut before a character.  check.py holds the checks.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/bytes.c" .
dscc -O2 -o bytes bytes.c || fail "bytes.c does not compile"
[ "$(./bytes)" = 11 ] || fail "bytes did not print 11"

run_dsprof report s --where name=word --format json >report.json 2>err || fail "report --format json: status $? ($(cat err))"
python3 "$CASE/check.py" json report.json || fail "report --format json"
run_dsprof export --format chrome -o trace.json 2>err || fail "export --format chrome: status $? ($(cat err))"
python3 "$CASE/check.py" chrome trace.json || fail "export --format chrome"
run_dsprof html --dims s -o page.html 2>err || fail "html: status $? ($(cat err))"
python3 "$CASE/check.py" html page.html || fail "html"
python3 -c 'import json,sys; json.loads(open(sys.argv[1], encoding="utf-8", errors="strict").read())' report.json ||
  fail "report.json is not strict UTF-8 JSON"
python3 -c 'import json,sys; json.loads(open(sys.argv[1], encoding="utf-8", errors="strict").read())' trace.json ||
  fail "trace.json is not strict UTF-8 JSON"
