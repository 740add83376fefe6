# events-off: DSPROF_EVENTS=0 (or off, no, false, in any case) turns event
# recording off at run time, counters stay on (dsprof(1), ENVIRONMENT): no records,
# no threads, no events, and the same block counts as with events on.  1, on,
# yes, true or empty leave events on, silently; any other value leaves them on
# with one dsprof: warning naming it.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/off.c" .
dscc -O2 -o off off.c || fail "off.c does not compile"
BODY=$(grep -n '/\* BODY \*/' off.c | cut -d: -f1)
LOOP=$(grep -n '/\* LOOP \*/' off.c | cut -d: -f1)

# run DIR [ENV...]: run off in DIR with the environment settings.
run () {
  local dir=$1
  shift
  mkdir "$dir" && cd "$dir"
  env "$@" ../off >out 2>stderr || fail "off ($dir) exited with status $?"
  [ "$(cat out)" = 900 ] || fail "off ($dir) printed $(cat out), not 900"
  run_dsprof lines >lines 2>err || fail "dsprof lines ($dir): status $? ($(cat err))"
  grep -qx "off.c:$BODY: 25" lines || fail "($dir) off.c:$BODY not counted 25: $(cat lines)"
  grep -qx "off.c:$LOOP: 25" lines || fail "($dir) off.c:$LOOP not counted 25: $(cat lines)"
  run_dsprof records >records.raw 2>err || fail "dsprof records ($dir): status $? ($(cat err))"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  run_dsprof info --count >info 2>err || fail "dsprof info ($dir): status $? ($(cat err))"
  cd ..
}

# info_has DIR LINE...
info_has () {
  local dir=$1
  shift
  for want in "$@"; do
    grep -Eq "^$want( |\$)" "$dir/info" || fail "dsprof info ($dir) lacks '$want': $(cat "$dir/info")"
  done
}

run disabled DSPROF_EVENTS=0
[ ! -s disabled/records ] || fail "DSPROF_EVENTS=0, yet records: $(head -5 disabled/records)"
info_has disabled 'threads: 0' 'events: 0' 'records: 0' 'units: 1'
for value in off OFF false No; do
  run "disabled-$value" "DSPROF_EVENTS=$value"
  [ ! -s "disabled-$value/records" ] || fail "DSPROF_EVENTS=$value, yet records: $(head -5 "disabled-$value/records")"
  [ ! -s "disabled-$value/stderr" ] || fail "DSPROF_EVENTS=$value: $(cat "disabled-$value/stderr")"
  info_has "disabled-$value" 'threads: 0' 'events: 0' 'records: 0'
  expect_same disabled/lines "disabled-$value/lines"
done
run_dsprof trace disabled/dsprof.data >trace 2>err || fail "dsprof trace: status $? ($(cat err))"
[ ! -s trace ] || fail "DSPROF_EVENTS=0, yet a trace: $(head -5 trace)"

for setting in DSPROF_EVENTS=1 DSPROF_EVENTS= DSPROF_EVENTS=on DSPROF_EVENTS=Yes \
               DSPROF_EVENTS=TRUE DSPROF_EVENTS=maybe; do
  dir=enabled${setting#DSPROF_EVENTS=}
  run "$dir" "$setting"
  [ "$(wc -l <"$dir/records")" -eq 26 ] || fail "$setting: $(wc -l <"$dir/records") records, not 26"
  grep -q '^#26 event=All name=All thread=1 complete=true -> #1 #2 ' "$dir/records" \
    || fail "$setting: no All record holding the steps: $(tail -1 "$dir/records")"
  [ "$(grep -c ' event=step .* twice=[0-9]* complete=true$' "$dir/records")" -eq 25 ] \
    || fail "$setting: not 25 step records with twice"
  info_has "$dir" 'threads: 1' 'events: 52' 'records: 26'
  # Events on or off, the same counts.
  expect_same disabled/lines "$dir/lines"
  if [ "$setting" = DSPROF_EVENTS=maybe ]; then
    [ "$(cat "$dir/stderr")" = "dsprof: DSPROF_EVENTS='maybe' is not 0, 1, on, off, yes, no, true or false: events stay on" ] \
      || fail "$setting: not the one warning: $(cat "$dir/stderr")"
  else
    [ ! -s "$dir/stderr" ] || fail "$setting: $(cat "$dir/stderr")"
  fi
done
exit 0
