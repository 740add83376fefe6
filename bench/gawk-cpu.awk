# gawk-cpu.awk - a CPU-bound gawk workload for `make bench` (real_times):
# user functions and recursion, associative arrays, the string built-ins and
# regular expressions; about half a second uninstrumented.  -v scale=S does
# S of the work (default 1).
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
function word(i,    s) { s = sprintf("w%05d", i * 7919 % 50000); return toupper(substr(s, 2)) }
BEGIN {
  if (!scale) scale = 1
  for (i = 0; i < 300000 * scale; i++) {
    k = word(i)
    count[k]++
    total += length(k)
  }
  n = split("the quick brown fox jumps over the lazy dog", w, " ")
  for (i = 0; i < 200000 * scale; i++) {
    t = w[i % n + 1] "-" i
    if (t ~ /o[a-z]+-[0-9]*7$/) hits++
    gsub(/[aeiou]/, "", t)
    seen[t] = 1
  }
  for (k in count) distinct++
  # fib's calls grow by the golden ratio per step: about SCALE of them.
  print fib(int(22 + log(scale) / log(1.618))), total, distinct, hits, length(seen)
}
