# counters-sigaltstack: a signal handler that is a thread's first counted
# code (update=thread, the default: the runtime's call that takes the
# thread's place in its shard) runs on an alternate signal stack as small as
# the plain build's smallest working one (docs/reliability.md, "Shards,
# threads and warnings").  The runtime's call saves the caller's registers
# and runs on a stack of its own: 8,192 bytes (the classic SIGSTKSZ), 4,096,
# and the smallest size, in 256-byte steps, at which the plain build handles
# its signals; in a new thread whose first counted code is the handler, and in
# the main thread after it ran counted code of another unit; with the shared
# and the static runtime.  Every signal is handled and counted.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/sigalt.c" "$CASE/handler.c" .
N=5
gcc -O2 -o plain sigalt.c handler.c -lpthread || fail "the plain build fails"
dscc -O2 -fplugin-arg-dsprof-exclude='uncounted_*' -o sigalt sigalt.c handler.c \
  || fail "sigalt.c does not compile with the plugin"
gcc -O2 -fplugin="$PLUGIN" -fplugin-arg-dsprof-exclude='uncounted_*' -o sigalt-static \
  sigalt.c handler.c "$TOP/runtime/libdsprof.a" -lpthread \
  || fail "sigalt.c does not link with the static runtime"

low=
for size in $(seq 2048 256 8192); do
  if [ "$(./plain thread $size $N 2>/dev/null)" = $N ] \
     && [ "$(./plain main $size $N 2>/dev/null)" = $N ]; then
    low=$size
    break
  fi
done
[ -n "$low" ] || fail "the plain build handles no signal on any stack up to 8192 bytes"

HANDLED=handler.c:$(grep -n '/\* HANDLED \*/' handler.c | cut -d: -f1)
for prog in sigalt sigalt-static; do
  for size in 8192 4096 $low; do
    for mode in thread main; do
      rm -f p.data
      out=$(DSPROF_OUT=p.data ./$prog $mode $size $N 2>err) \
        || fail "$prog $mode on a $size-byte stack (the plain build's smallest: $low): status $? $(cat err)"
      [ "$out" = $N ] || fail "$prog $mode $size: handled $out signals, not $N"
      run_dsprof lines p.data >lines 2>/dev/null || fail "dsprof lines ($prog $mode $size): status $?"
      grep -qx "$HANDLED: $N" lines \
        || fail "$prog $mode $size: $HANDLED counted $(grep "^$HANDLED:" lines), not $N"
    done
  done
done
exit 0
