# report-fuzz-regress: every input the fuzzer found a bug with (testsuite/fuzz/regress)
# and the seed corpus, through the fuzz harness built with AddressSanitizer and
# UndefinedBehaviorSanitizer (make build/sanitize/fuzz-run): the profile checker,
# the decoder and every report command over each, with no sanitizer report.
# Then what the dsprof command makes of the inputs whose times overflow, worked
# out from how they were made (gen-image.c's hand-min.data with an invariant-TSC
# clock of 1 tick per second: one tick is 1e9 ns; the file's start is at 1000 ns,
# the events chunk's base at 2000 ns):
#   time-beyond-2e64-ns      Start 2^40 ticks after the base, Finish 10 later:
#                            both beyond 2^64 ns, shown as the last one, 0ns long
#   duration-beyond-2e64-ns  Start at the base (1000 ns into the run), Finish
#                            2^40 ticks later: 2^64 - 1 - 1000 ns long, the
#                            report's Total as much with --raw, else less the
#                            recorder's half pair (1.5 ns / 2, rounded down: 1).
# And that many chunks defining a large name id are read in linear time.
. "$(dirname "$0")/../../lib.sh"
FUZZ=$TOP/testsuite/fuzz

one_at_a_time build-sanitize make -s -C "$TOP" build/sanitize/fuzz-run >make.log 2>&1 \
  || { cat make.log >&2; fail "cannot build the sanitized fuzz driver"; }
export ASAN_OPTIONS=detect_leaks=1:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
export LSAN_OPTIONS=exitcode=86:suppressions=$FUZZ/lsan.supp:print_suppressions=0
"$TOP/build/sanitize/fuzz-run" "$FUZZ/seeds" "$FUZZ/regress" >run.log 2>&1 \
  || { tail -60 run.log >&2; fail "fuzz-run: status $?"; }
grep -qE 'Sanitizer|runtime error:' run.log && { cat run.log >&2; fail "sanitizer report"; }
n=$(( $(ls "$FUZZ/seeds" | wc -l) + $(ls "$FUZZ/regress" | wc -l) ))
grep -q "^fuzz-run: $n inputs, no problem found\$" run.log \
  || fail "fuzz-run did not run all $n inputs: $(tail -1 run.log)"

run_dsprof records "$FUZZ/seeds/hand-min.data" >min.txt 2>err || fail "records hand-min: $(cat err)"
echo "#1 10ns event=AttrEval name=f file=t.c line=3 thread=1 x=-3 result=7 complete=true" >min.expected
expect_same min.expected min.txt

run_dsprof records "$FUZZ/regress/time-beyond-2e64-ns" >late.txt 2>err \
  || fail "records time-beyond-2e64-ns: status $? ($(cat err))"
echo "#1 0ns event=AttrEval name=f file=t.c line=3 thread=1 x=-3 result=7 complete=true" >late.expected
expect_same late.expected late.txt
run_dsprof trace "$FUZZ/regress/time-beyond-2e64-ns" >late-trace.txt 2>err \
  || fail "trace time-beyond-2e64-ns: status $? ($(cat err))"
cat >late-trace.expected <<'END'
18446744073709551615ns t1 Start event=AttrEval name=f file=t.c line=3 thread=1 x=-3
18446744073709551615ns t1 Finish event=AttrEval name=f result=7 complete=true
END
expect_same late-trace.expected late-trace.txt

run_dsprof records "$FUZZ/regress/duration-beyond-2e64-ns" >long.txt 2>err \
  || fail "records duration-beyond-2e64-ns: status $? ($(cat err))"
echo "#1 18446744073709550615ns event=AttrEval name=f file=t.c line=3 thread=1 x=-3 result=7 complete=true" >long.expected
expect_same long.expected long.txt
run_dsprof report --format json --raw "$FUZZ/regress/duration-beyond-2e64-ns" >long.json 2>err \
  || fail "report duration-beyond-2e64-ns: status $? ($(cat err))"
grep -q '"value":"f","total_ns":18446744073709550615,' long.json \
  || fail "report --raw: Total of f is not 2^64 - 1001 ns: $(cat long.json)"
run_dsprof report --format json "$FUZZ/regress/duration-beyond-2e64-ns" >long.json 2>err \
  || fail "report duration-beyond-2e64-ns: status $? ($(cat err))"
grep -q '"value":"f","total_ns":18446744073709550614,' long.json \
  || fail "report: Total of f is not 2^64 - 1002 ns: $(cat long.json)"
# A stream of many one-page chunks each defining a large name id: the decoder
# used to keep names in a table indexed by id (2^25 entries, 400 MB) and clear it
# at every chunk, 5000 chunks took over a minute; now they take milliseconds.
# gen-image.c writes the profile (5000 records of event x).
gcc -O1 -I"$TOP/include" -o gen-image "$FUZZ/gen-image.c" || fail "gen-image.c does not compile"
./gen-image . 5000 || fail "gen-image failed"
timeout 20 "$TOP/report/dsprof" info --count hand-names.data >names.txt 2>err \
  || fail "dsprof info hand-names.data: status $? (124: over 20 s) $(cat err)"
grep -qx 'records: 5000 (0 incomplete)' names.txt || fail "hand-names.data: $(grep records names.txt)"
exit 0
