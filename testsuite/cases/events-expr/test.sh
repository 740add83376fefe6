# events-expr: the dsprofile paper's example (examples/expr: 3 + 4 * 5, iszero
# then value at the root) gives 7 records: iszero with one value child, the
# root's value computed once (cached=false, under iszero, demanding its two
# children, Mul demanding Num(4) and Num(5)) and once from the cache
# (cached=true) at top level.  records.txt and trace.txt are the paper's record
# table written out by hand; @VALUE@ and @ISZERO@ are the definitions' lines.
# At -O0 and -O2.
. "$(dirname "$0")/../../lib.sh"

for opt in O0 O2; do
  mkdir "$opt" && cd "$opt"
  cp "$TOP/examples/expr/expr.c" .
  dscc -"$opt" -o expr expr.c || fail "expr.c does not compile at -$opt"
  ./expr >expr.out || fail "expr (-$opt) exited with status $?"
  [ "$(cat expr.out)" = "iszero = false, value = 23" ] || fail "expr printed $(cat expr.out)"

  VALUE=$(grep -n '^value (' expr.c | cut -d: -f1)
  ISZERO=$(grep -n '^iszero (' expr.c | cut -d: -f1)
  [ -n "$VALUE" ] && [ -n "$ISZERO" ] || fail "no definitions of value and iszero in expr.c"
  subst () { sed "s/@VALUE@/$VALUE/g; s/@ISZERO@/$ISZERO/g" "$1"; }

  # records: the tree, numbered in completion order, durations present.
  run_dsprof records >records.raw 2>err || fail "dsprof records: status $? ($(cat err))"
  grep -Ev '^#[0-9]+ [0-9]+ns ' records.raw && fail "records without a duration"
  sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
  subst "$CASE/records.txt" >records.expected
  expect_same records.expected records

  # --where selects records; numbers stay those of the output.
  run_dsprof records --where name=iszero >where.raw 2>err || fail "dsprof records --where: status $? ($(cat err))"
  [ "$(wc -l <where.raw)" -eq 1 ] && grep -q ' name=iszero ' where.raw \
    || fail "records --where name=iszero: $(cat where.raw)"
  run_dsprof records --where cached=true >where.raw 2>err || fail "dsprof records --where: status $?"
  [ "$(wc -l <where.raw)" -eq 1 ] && grep -q 'subject=Add.* cached=true ' where.raw \
    || fail "records --where cached=true: $(cat where.raw)"
  run_dsprof records --where name!=iszero --where cached=false >where.raw 2>err \
    || fail "dsprof records --where: status $?"
  [ "$(wc -l <where.raw)" -eq 5 ] && ! grep -q 'name=iszero\|cached=true' where.raw \
    || fail "records --where name!=iszero --where cached=false: $(cat where.raw)"

  # trace: 14 events in order, times non-decreasing.
  run_dsprof trace >trace.raw 2>err || fail "dsprof trace: status $? ($(cat err))"
  awk '{ t = $1; if (t !~ /^[0-9]+ns$/) { print "bad time: " $0; exit 1 }
         t += 0; if (t < last) { print "time goes back: " $0; exit 1 } last = t }' \
    trace.raw >&2 || fail "dsprof trace: bad times"
  cut -d' ' -f2- trace.raw >trace
  subst "$CASE/trace.txt" >trace.expected   # compared last, below

  # info: one thread, 14 events, nothing dropped or repaired.
  run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
  for want in 'threads: 1' 'events: 14' 'dropped events: 0' 'repaired events: 0'; do
    grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
  done

  # report name cached (csv): value 6 records (5 computed, 1 cached), iszero 1;
  # Total = Self + Desc; value's descendants are all value records, so its Desc
  # is 0; iszero's Desc is the five computed values' time.
  run_dsprof report name cached --format csv >report.csv 2>err \
    || fail "dsprof report --format csv: status $? ($(cat err))"
  [ "$(sed -n 1p report.csv)" = "level,name,cached,total_ns,total_pct,self_ns,self_pct,desc_ns,desc_pct,count,count_pct" ] \
    || fail "report csv header: $(sed -n 1p report.csv)"
  sed 1d report.csv | awk -F, '{ print $1, $2, $3, $10 }' | sort >counts
  printf '%s\n' '1 iszero  1' '1 value  6' '2 iszero  1' '2 value false 5' '2 value true 1' \
    | sort >counts.expected
  expect_same counts.expected counts
  sed 1d report.csv | awk -F, '$4 != $6 + $8 { print "Total != Self + Desc: " $0; bad = 1 }
    $1 == 1 && $2 == "value" && $8 != 0 { print "value has Desc: " $0; bad = 1 }
    $1 == 1 && $2 == "iszero" && !($8 > 0) { print "iszero has no Desc: " $0; bad = 1 }
    END { exit bad }' >&2 || fail "report name cached: bad times"
  cd ..
done
for opt in O0 O2; do
  expect_same "$opt/trace.expected" "$opt/trace"
done
exit 0
