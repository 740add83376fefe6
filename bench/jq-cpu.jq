# jq-cpu.jq - a CPU-bound jq workload for `make bench` (real_times), run with
# `jq -n -f`: recursion, objects, arrays, strings and reductions; about a
# second uninstrumented.
def fib: if . < 2 then . else (. - 1 | fib) + (. - 2 | fib) end;
[range(0; 60000) | {id: ., name: ("n" + tostring), tags: [range(0; . % 5)]}]
| (map(select(.id % 3 == 0) | .name | ascii_upcase | length) | add) as $names
| (map(.tags | length) | add) as $tags
| (reduce .[] as $r ({}; .[($r.id % 97 | tostring)] += 1) | length) as $groups
| [$names, $tags, $groups, (18 | fib)]
