# report-properties: properties of the dsprof command over random programs.
# gen.py SEED writes a program with annotated functions of every parameter and
# result type, recursion, manual events, a longjmp out of open events, threads
# and string values of arbitrary bytes; each seed's program runs twice (a.data,
# b.data).  For every seed:
#   - `merge -o m.data a.data` reads exactly as a.data, and `merge -o ab.data
#     a.data b.data` as `a.data b.data` given together (but for b's threads,
#     numbered after a's in the merge), in report --raw --unit ns (by name; by
#     event and name; by the string dimension why), records, trace and lines
#     (docs/contract.md §5.8);
#   - report --format json and export --format chrome, of a.data and of both
#     profiles, are strict UTF-8 JSON whatever bytes the strings hold:
#     no NaN, no duplicate key, no raw control character, no lone surrogate
#     (check-json.py).
# A failure names its seed; `python3 gen.py SEED >p.c` gives the program again.
# Seed 325 has an event whose only added dimension is named complete, which
# export --format chrome leaves out of the E event's args (E has its own).
# DSPROF_PROPERTY_SEEDS="S1 S2..." runs other seeds than the 13 here.
. "$(dirname "$0")/../../lib.sh"

SEEDS=${DSPROF_PROPERTY_SEEDS:-1 2 3 5 8 13 21 34 55 89 144 233 325}

# views OUT PROFILE...: every compared output of PROFILE... into OUT.*
views () {
  local out=$1; shift
  run_dsprof report name --raw --unit ns "$@" >"$out.name" &&
    run_dsprof report event name --raw --unit ns "$@" >"$out.event-name" &&
    run_dsprof report why --raw --unit ns "$@" >"$out.why" &&
    run_dsprof records "$@" >"$out.records" &&
    run_dsprof trace "$@" >"$out.trace" &&
    run_dsprof lines "$@" >"$out.lines" ||
    fail "seed $seed: a command fails on $*"
}

# same_views A B: the outputs views wrote as A.* and B.* are identical.
same_views () {
  local v
  for v in name event-name why records trace lines; do
    expect_same "$1.$v" "$2.$v"
  done
}

# renumber OUT PROFILE: OUT.records and OUT.trace with the thread numbers of
# the lines after PROFILE's own raised by PROFILE's thread count, as merge
# numbers the threads of the inputs after the first.
renumber () {
  local v threads
  threads=$(run_dsprof info "$2" | sed -n 's/^threads: //p')
  for v in records trace; do
    awk -v n="$(run_dsprof $v "$2" | wc -l)" -v t="$threads" '
      function raise(re, prefix) {
        if (match($0, re)) {
          k = RSTART + length(prefix)
          num = substr($0, k, RSTART + RLENGTH - k)
          $0 = substr($0, 1, k - 1) (num + t) substr($0, RSTART + RLENGTH)
        }
      }
      NR > n { raise("^[0-9]+ns t[0-9]+", $1 " t"); raise(" thread=[0-9]+", " thread=") }
      { print }' "$1.$v" >"$1.$v.new" && mv "$1.$v.new" "$1.$v"
  done
}

# json OUT PROFILE...: the JSON outputs of PROFILE... as OUT-*.json, checked.
json () {
  local out=$1; shift
  run_dsprof report name why --raw --format json "$@" >"$out-report.json" &&
    run_dsprof report event --format json "$@" >"$out-event.json" &&
    run_dsprof export --format chrome -o "$out-chrome.json" "$@" ||
    fail "seed $seed: a JSON command fails on $*"
  python3 "$CASE/check-json.py" "$out-report.json" "$out-event.json" "$out-chrome.json" ||
    fail "seed $seed: JSON of $* is not strict UTF-8 JSON"
}

trap 'st=$?; [ $st -eq 0 ] || echo "report-properties: failed at seed ${seed:-?} (python3 $CASE/gen.py ${seed:-?} >p.c)" >&2' EXIT
for seed in $SEEDS; do
  mkdir "s$seed" && cd "s$seed"
  python3 "$CASE/gen.py" "$seed" >p.c || fail "seed $seed: gen.py fails"
  dscc -O$((seed % 3)) -o p p.c 2>cc.err || fail "seed $seed: p.c does not compile: $(head -5 cc.err)"
  for r in a b; do
    DSPROF_OUT=$r.data ./p >$r.out || fail "seed $seed: run $r exited with status $?"
    [ "$(cat $r.out)" = ok ] || fail "seed $seed: run $r printed $(cat $r.out)"
  done

  run_dsprof merge -o m.data a.data || fail "seed $seed: merge -o m.data a.data: status $?"
  run_dsprof merge -o ab.data a.data b.data || fail "seed $seed: merge -o ab.data a.data b.data: status $?"
  views a a.data
  views m m.data
  same_views a m
  views a+b a.data b.data
  renumber a+b a.data
  views ab ab.data
  same_views a+b ab

  json a a.data
  json ab a.data b.data
  cd ..
done
