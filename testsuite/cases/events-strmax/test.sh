# events-strmax: how much of a string dimension is kept (strmax.c).  By
# default 1,024 bytes, then "..." (the truncated bit): two 200-byte statements
# that differ only from byte 151 on are two rows of `dsprof report`, and one
# under DSPROF_STRMAX=64; a 2,000-byte string keeps 1,024 bytes and "...", as
# a parameter, a result, a dsprof_dim_str and a formatter's text.  Under
# DSPROF_STRMAX=8 (the least) the cut never splits a UTF-8 character, and
# bytes that are no UTF-8 sequence are cut where they are (the exact bytes,
# which `records` shows as \xHH).
# Under DSPROF_STRMAX=65536 (the most: the format's bound, DSPROF_STR_MAX) a
# 70,000-byte string keeps 65,536 bytes, in `dsprof records` and the chrome
# export.  A value out of range or not a number gets exactly one `dsprof:`
# warning and the default; the least, the most and an empty value none.
# Thousands of events with 1,004-byte strings as parameter and result run
# across many chunk ends (the room a Start and a Finish reserve for their
# strings): none dropped, every value whole, at the default and at the most.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/strmax.c" .
dscc -O2 -o strmax strmax.c || fail "strmax.c does not build"

# run NAME STRMAX MODE...: run strmax MODE with DSPROF_STRMAX=STRMAX (unset
# if "-") into NAME.data; its stderr in NAME.err, its records in NAME.rec
# (without durations and file names).
run () {
  local name=$1 strmax=$2
  shift 2
  local status=0
  if [ "$strmax" = - ]; then
    DSPROF_OUT=$name.data ./strmax "$@" >"$name.out" 2>"$name.err" || status=$?
  else
    DSPROF_STRMAX=$strmax DSPROF_OUT=$name.data ./strmax "$@" >"$name.out" 2>"$name.err" \
      || status=$?
  fi
  [ "$status" -eq 0 ] || fail "strmax $* ($name) exited with status $status: $(cat "$name.err")"
  run_dsprof records "$name.data" >"$name.raw" 2>&1 || fail "dsprof records $name.data: $(cat "$name.raw")"
  sed -E 's/^#[0-9]+ [0-9]+ns //; s/ file=[^ ]+ / /; s/ line=[0-9]+ / /' "$name.raw" >"$name.rec"
}

rep () { head -c "$2" /dev/zero | tr '\0' "$1"; }

# ---- the default: 1,024 bytes ----
run rows - rows
[ ! -s rows.err ] || fail "rows wrote to stderr: $(cat rows.err)"
sel=$(rep s 143)
q1024=$(rep q 1024)
f1024=$(rep f 1024)
cat >rows.expected <<EOT
event=query name=query thread=1 sql="SELECT ${sel}A$(rep s 49)" result=1 complete=true
event=query name=query thread=1 sql="SELECT ${sel}B$(rep s 49)" result=1 complete=true
event=query name=query thread=1 sql="SELECT ${sel}A$(rep s 49)" result=1 complete=true
event=query name=query thread=1 sql=$q1024... result=1 complete=true
event=echo name=echo thread=1 s=$q1024... result=$q1024... complete=true
event=tagged name=tagged thread=1 result=1 extra=$q1024... complete=true
event=shown name=shown thread=1 b=$f1024... result=1 complete=true
EOT
expect_same rows.expected rows.rec

# The statements' rows of `dsprof report sql`: value and count.
statements () {
  run_dsprof report sql --where name=query --format csv "$1" \
    | awk -F, '$1 == 1 && $2 ~ /^SELECT / { print $2 " " $9 }' | sort
}
printf 'SELECT %sA%s 2\nSELECT %sB%s 1\n' "$sel" "$(rep s 49)" "$sel" "$(rep s 49)" >rows.report
statements rows.data >rows.got
expect_same rows.report rows.got

# ---- DSPROF_STRMAX=64: one row, as before 1,024 ----
run r64 64 rows
[ ! -s r64.err ] || fail "DSPROF_STRMAX=64 wrote to stderr: $(cat r64.err)"
printf 'SELECT %s... 3\n' "$(rep s 57)" >r64.report
statements r64.data >r64.got
expect_same r64.report r64.got
grep -qx "event=query name=query thread=1 sql=$(rep q 64)... result=1 complete=true" r64.rec \
  || fail "DSPROF_STRMAX=64: the 2,000-byte string does not keep 64 bytes"

# ---- DSPROF_STRMAX=8: cut at a UTF-8 character boundary ----
run utf8 8 utf8
[ ! -s utf8.err ] || fail "DSPROF_STRMAX=8 wrote to stderr: $(cat utf8.err)"
# shellcheck disable=SC2059
printf "event=text name=text thread=1 s=%s result=1 complete=true\n" \
  'abcdefg...' 'abcdef...' 'abcdef...' $'abcde\xe2\x82\xac' '"abcdefg\xe9..."' '"abcdefg\x80..."' \
  >utf8.expected
echo "event=shown name=shown thread=1 b=abcdefg... result=1 complete=true" >>utf8.expected
expect_same utf8.expected utf8.rec

# ---- DSPROF_STRMAX=65536, the most ----
# ---- 5,000-byte statements differing at byte 4,501: grouped and filtered
# by their whole text ----
run long 65536 long
[ ! -s long.err ] || fail "long wrote to stderr: $(cat long.err)"
run_dsprof report sql --where name=query --format csv long.data \
  | awk -F, '$1 == 1 && $2 ~ /^s/ { print substr($2, 4500, 3) " " length($2) " " $9 }' \
  | sort >long.got
printf 'sAs 5000 2\nsBs 5000 1\n' >long.report
expect_same long.report long.got
a=$(rep s 4500)A$(rep s 499)
run_dsprof report name --where "sql=$a" --format csv long.data \
  | awk -F, '$1 == 1 && $2 == "query" { print $9 }' >long.where
[ "$(cat long.where)" = 2 ] || fail "--where on a 5,000-byte value: count '$(cat long.where)', expected 2"

run max 65536 max
[ ! -s max.err ] || fail "DSPROF_STRMAX=65536 wrote to stderr: $(cat max.err)"
echo "event=text name=text thread=1 s=$(rep m 65536)... result=1 complete=true" >max.expected
expect_same max.expected max.rec
run_dsprof export --format chrome -o max.json max.data || fail "dsprof export --format chrome max.data"
[ "$(grep -o "\"s\": *\"m*\.\.\.\"" max.json | tr -cd m | wc -c)" -eq 65536 ] \
  || fail "the chrome export does not hold the 65,536 bytes"

# ---- bad values: one warning, the default ----
for v in 7 0 65537 99999999999999999999 abc 12x -5 " 100" 1e3; do
  run bad "$v" rows
  [ "$(grep -c '^dsprof: ' bad.err)" -eq 1 ] && [ "$(wc -l <bad.err)" -eq 1 ] \
    || fail "DSPROF_STRMAX='$v': not exactly one warning: $(cat bad.err)"
  grep -q "DSPROF_STRMAX=.*strings keep 1024 bytes" bad.err \
    || fail "DSPROF_STRMAX='$v': the warning does not say the default: $(cat bad.err)"
  expect_same rows.rec bad.rec
done
echo "warning: $(cat bad.err)"
for v in 8 65536 ""; do
  run good "$v" rows
  [ ! -s good.err ] || fail "DSPROF_STRMAX='$v' wrote to stderr: $(cat good.err)"
done
expect_same rows.rec good.rec    # "" (the last): the default

# ---- many events of long strings across chunk ends ----
for strmax in - 65536; do
  run many "$strmax" many 4000
  [ ! -s many.err ] || fail "many ($strmax) wrote to stderr: $(cat many.err)"
  run_dsprof info many.data >many.info || fail "dsprof info many.data"
  grep -qx "dropped events: 0" many.info || fail "many ($strmax): events dropped: $(cat many.info)"
  chunks=$(sed -n 's/^event stream: .* in \([0-9]*\) chunks$/\1/p' many.info)
  [ "${chunks:-0}" -ge 4 ] || fail "many ($strmax): only ${chunks:-no} chunks"
  awk -v n="$(rep n 1000)" 'BEGIN { for (i = 0; i < 4000; i++)
    printf "event=echo name=echo thread=1 s=%s%04d result=%s%04d complete=true\n", n, i, n, i }' \
    >many.expected
  expect_same many.expected many.rec
done
exit 0
