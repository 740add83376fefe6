# jq-cpu.jq - a CPU-bound jq workload for `make bench` (real_times), run with
# `jq -n --argjson scale S -f jq-cpu.jq` (S of the work; 1: about a second
# uninstrumented): recursion, objects, arrays, strings and reductions.
def fib: if . < 2 then . else (. - 1 | fib) + (. - 2 | fib) end;
[range(0; 60000 * $scale) | {id: ., name: ("n" + tostring), tags: [range(0; . % 5)]}]
| (map(select(.id % 3 == 0) | .name | ascii_upcase | length) | add) as $names
| (map(.tags | length) | add) as $tags
| (reduce .[] as $r ({}; .[($r.id % 97 | tostring)] += 1) | length) as $groups
# fib's calls grow by the golden ratio per step: about SCALE of them.
| [$names, $tags, $groups, (18 + ($scale | log) / (1.618 | log) | floor | fib)]
