# export-pprof: `dsprof export --format pprof` (docs/contract.md §5.8) read by
# pprof itself (Debian's golang-go, `go tool pprof`), on ex.c (two threads,
# strings to quote, added dimensions, manual events, repaired events) and
# deep.c: -top gives the names with `dsprof report name`'s Self as flat, Total
# as cum and Count under -sample_index=records, also with --raw and by another
# dimension (--dim thread), with labels of some dimensions (--label) or none
# (--no-labels); -traces gives folded's stacks with their self times, each
# sample labelled with its records' dimensions; -diff_base of two
# exports gives the change of the reports' Self between the two, as `dsprof
# diff` gives it.
. "$(dirname "$0")/../../lib.sh"

command -v go >/dev/null || fail "go is missing (Debian golang-go: make deps installs it)"
# go stays inside the scratch directory, offline.
export HOME=$PWD/home GOPATH=$PWD/home/go GOCACHE=$PWD/home/cache GOFLAGS=-mod=mod \
  GOPROXY=off GOTOOLCHAIN=local
mkdir -p "$HOME"
pprof () {
  go tool pprof -unit=ns -nodecount=100000 -nodefraction=0 -edgefraction=0 "$@" 2>pprof.err \
    || fail "go tool pprof $*: $(cat pprof.err)"
}

dscc -O1 -o ex "$FIXTURES/ex.c" || fail "ex.c does not compile"
[ "$(./ex)" = 30 ] || fail "ex printed the wrong result"
run_dsprof export --format pprof -o ex.pb.gz || fail "pprof export: status $?"
gzip -t ex.pb.gz || fail "ex.pb.gz is not gzip"

run_dsprof report name --unit ns --format csv >name.csv
pprof -top ex.pb.gz >top.txt
python3 "$CASE/check.py" top top.txt name.csv self,total || fail "pprof -top (top.txt) against name.csv"
pprof -top -sample_index=records ex.pb.gz >count.txt
python3 "$CASE/check.py" top count.txt name.csv count || fail "records (count.txt) against name.csv"
run_dsprof report name --raw --unit ns --format csv >raw.csv
run_dsprof export --format pprof --raw -o raw.pb.gz || fail "pprof --raw: status $?"
pprof -top raw.pb.gz >rawtop.txt
python3 "$CASE/check.py" top rawtop.txt raw.csv self,total || fail "--raw (rawtop.txt) against raw.csv"
run_dsprof report thread --unit ns --format csv >thread.csv
run_dsprof export --format pprof --dim thread -o thread.pb.gz || fail "--dim thread: status $?"
pprof -top thread.pb.gz >threadtop.txt
python3 "$CASE/check.py" top threadtop.txt thread.csv self,total || fail "--dim thread (threadtop.txt)"

# Labels of some dimensions (--label), or none (--no-labels): the same times.
run_dsprof export --format pprof --label thread --label who -o some.pb.gz || fail "--label: status $?"
pprof -tags some.pb.gz >some.txt
[ "$(sed -n 's/^ *\([^ ]*\): Total .*/\1/p' some.txt | sort | tr '\n' ' ')" = "thread who " ] \
  || fail "--label thread --label who: labels $(cat some.txt)"
pprof -top some.pb.gz >sometop.txt
python3 "$CASE/check.py" top sometop.txt name.csv self,total || fail "--label (sometop.txt)"
run_dsprof export --format pprof --no-labels -o none.pb.gz || fail "--no-labels: status $?"
pprof -tags none.pb.gz >none.txt
! grep -q ': Total' none.txt || fail "--no-labels: labels $(cat none.txt)"
pprof -top none.pb.gz >nonetop.txt
python3 "$CASE/check.py" top nonetop.txt name.csv self,total || fail "--no-labels (nonetop.txt)"

run_dsprof export --format folded >ex.folded
pprof -traces ex.pb.gz >traces.txt
python3 "$CASE/check.py" traces traces.txt ex.folded || fail "pprof -traces (traces.txt) against ex.folded"

# The checks can fail: a name's Self changed, a folded line doubled.
awk -F, -v OFS=, '$2 == "word" { $5 = $5 + 1000 } 1' name.csv >bad.csv
python3 "$CASE/check.py" top top.txt bad.csv self,total 2>/dev/null && fail "check accepts bad.csv"
sed '1p' ex.folded >bad.folded
python3 "$CASE/check.py" traces traces.txt bad.folded 2>/dev/null && fail "check accepts bad.folded"

# Two runs, the second with deep.c's records too: the diff is the change
# of each name's Self.
cp dsprof.data ex1.data
./ex >/dev/null && mv dsprof.data ex2.data
dscc -O2 -o deep "$FIXTURES/deep.c" || fail "deep.c does not compile"
DSPROF_OUT=deep.data ./deep 50 >/dev/null || fail "deep failed"
run_dsprof export --format pprof -o new.pb.gz ex2.data deep.data || fail "two profiles: status $?"
run_dsprof report name --unit ns --format csv ex2.data deep.data >new.csv
pprof -top -diff_base=ex.pb.gz new.pb.gz >diff.txt
python3 "$CASE/check.py" diff diff.txt name.csv new.csv || fail "pprof -diff_base (diff.txt)"
# ... and agrees with `dsprof diff` of the same profiles, name by name.
run_dsprof diff --base ex1.data --new ex2.data --new deep.data name --unit ns --format csv \
  >dsdiff.csv || fail "dsprof diff: status $?"
python3 "$CASE/check.py" dsdiff diff.txt dsdiff.csv || fail "pprof -diff_base (diff.txt) against dsprof diff (dsdiff.csv)"
awk -F, -v OFS=, 'NR > 1 && $2 == "word" { $10 = $10 + 1000 } 1' dsdiff.csv >bad-dsdiff.csv
python3 "$CASE/check.py" dsdiff diff.txt bad-dsdiff.csv 2>/dev/null && fail "check accepts bad-dsdiff.csv"

# ---- bad input and usage ----
set +e
run_dsprof export --format pprof nothere.data >/dev/null 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q nothere.data err.txt || fail "missing profile: status $rc"
head -c 9000 ex2.data >cut.data
run_dsprof export --format pprof -o cut.pb.gz cut.data 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q cut.data err.txt && [ ! -e cut.pb.gz ] || fail "truncated profile: status $rc"
run_dsprof export --format chrome --dim thread ex2.data >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] && grep -q -- --dim err.txt || fail "--dim with chrome: status $rc"
run_dsprof export --format pprof --dim >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] || fail "--dim without a value: status $rc"
run_dsprof export --format perfetto --no-labels ex2.data >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] && grep -q -- --no-labels err.txt || fail "--no-labels with perfetto: status $rc"
run_dsprof export --format pprof --label '' ex2.data >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] || fail "--label '': status $rc"
run_dsprof export --format pprof --dim outer: >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] || fail "--dim outer:: status $rc"
# A dimension no record carries: every stack element the empty value, and the
# note the other commands give.
run_dsprof export --format pprof --dim nosuch -o nosuch.pb.gz ex2.data 2>err.txt; rc=$?
[ $rc = 0 ] && grep -qx "dsprof: no record carries dimension 'nosuch'" err.txt \
  || fail "--dim nosuch: status $rc, $(cat err.txt)"
exit 0
