# events-misuse: docs/contract.md §4.1 and §2/§4.3 for code that misuses or does without
# the plugin.
#   1. dsprof_event on a variable, typedef, struct type, field, parameter or
#      local, and a non-string argument: compile errors naming the problem, at
#      the line of the attribute (bad/*.c).
#   2. Annotated code built without the plugin, through the DSPROF_EVENT macros:
#      no warnings with -Wall -Wextra -Wpedantic in every C standard (nor as
#      C++); every dsprof.h entry point harmless when linked with -ldsprof (the
#      manual event is recorded and, with no area event open, gets area's
#      "scaled"; stray dimensions counted); annotations alone
#      need no -ldsprof.
#   3. The same source with the plugin: no warnings; the prototypes' macros
#      make the definitions events.
. "$(dirname "$0")/../../lib.sh"
export LC_ALL=C   # GCC's plain quotes

# ---- 1. compile errors -------------------------------------------------------
applies="'dsprof_event' attribute applies only to functions"
string="'dsprof_event' attribute argument must be a string constant naming the event type"
nargs="wrong number of arguments specified for 'dsprof_event' attribute"
bad=0
while IFS='|' read -r file line msg; do
  cp "$CASE/bad/$file" .
  if gcc -fplugin="$PLUGIN" -c "$file" -o "${file%.c}.o" 2>"$file.err"; then
    echo "FAIL: $file compiles (status 0); wanted error: $msg" >&2
    sed 's/^/    /' "$file.err" >&2
    bad=$((bad + 1))
  elif ! grep -qF "$file:$line:" "$file.err" \
       || ! grep -F "$file:$line:" "$file.err" | grep -qF "error: $msg"; then
    echo "FAIL: $file: no \"$file:$line:...: error: $msg\" among:" >&2
    sed 's/^/    /' "$file.err" >&2
    bad=$((bad + 1))
  fi
done <<LIST
variable.c|1|$applies
typedef.c|1|$applies
struct.c|1|$applies
field.c|1|$applies
parameter.c|1|$applies
local.c|1|$applies
int-arg.c|1|$string
var-arg.c|2|$string
ident-arg.c|1|$string
two-args.c|1|$nargs
LIST

# ---- 2. without the plugin ---------------------------------------------------
cp "$CASE/annotated.c" "$CASE/macros.c" .
for std in c99 c11 c17 gnu99 gnu17; do
  gcc -std=$std -Wall -Wextra -Wpedantic -O2 -I"$TOP/runtime" -c annotated.c \
    -o annotated-$std.o 2>warn || fail "annotated.c -std=$std does not compile: $(cat warn)"
  [ ! -s warn ] || fail "annotated.c -std=$std without the plugin warns: $(cat warn)"
done
if command -v g++ >/dev/null; then
  g++ -x c++ -Wall -Wextra -Wpedantic -I"$TOP/runtime" annotated.c -o annotated-cxx \
    -L"$TOP/runtime" -ldsprof 2>warn || fail "annotated.c as C++ does not build: $(cat warn)"
  [ ! -s warn ] || fail "annotated.c as C++ warns: $(cat warn)"
  mkdir cxx && (cd cxx && ../annotated-cxx >out) || fail "annotated-cxx exited with status $?"
  [ "$(cat cxx/out)" = "fib = 2, area = 24" ] || fail "annotated-cxx printed $(cat cxx/out)"
fi

gcc -Wall -Wextra -I"$TOP/runtime" annotated.c -o plain -L"$TOP/runtime" -ldsprof 2>warn \
  || fail "annotated.c does not link with -ldsprof: $(cat warn)"
[ ! -s warn ] || fail "annotated.c without the plugin warns: $(cat warn)"
mkdir plain.run && cd plain.run
../plain >out || fail "annotated.c built without the plugin exited with status $?"
[ "$(cat out)" = "fib = 2, area = 24" ] || fail "plain printed $(cat out)"
run_dsprof records >records.raw 2>err || fail "dsprof records (no plugin): status $? ($(cat err))"
sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
expect_same "$CASE/without-plugin.txt" records
run_dsprof info --count >info 2>err || fail "dsprof info (no plugin): status $? ($(cat err))"
for want in 'units: 0' 'threads: 1' 'events: 2' 'stray dimensions: 6' 'repaired events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info (no plugin) lacks '$want': $(cat info)"
done
cd ..

gcc -Wall -Wextra -Wpedantic -I"$TOP/runtime" macros.c -o macros 2>warn \
  || fail "macros.c does not build without the plugin and -ldsprof: $(cat warn)"
[ ! -s warn ] || fail "macros.c without the plugin warns: $(cat warn)"
[ "$(./macros)" = "square 49" ] || fail "macros printed $(./macros)"

# ---- 3. with the plugin ------------------------------------------------------
mkdir plugin.run && cd plugin.run
cp "$CASE/annotated.c" .
dscc -Wall -Wextra -Wpedantic -O2 annotated.c -o annotated 2>warn \
  || fail "annotated.c does not compile with the plugin: $(cat warn)"
[ ! -s warn ] || fail "annotated.c with the plugin warns: $(cat warn)"
./annotated >out || fail "annotated exited with status $?"
[ "$(cat out)" = "fib = 2, area = 24" ] || fail "annotated printed $(cat out)"
FIB=$(grep -n '^fib (' annotated.c | cut -d: -f1)
AREA=$(grep -n '^area (' annotated.c | cut -d: -f1)
sed "s/@FIB@/$FIB/; s/@AREA@/$AREA/" "$CASE/with-plugin.txt" >expected
run_dsprof records >records.raw 2>err || fail "dsprof records: status $? ($(cat err))"
sed -E 's/^(#[0-9]+) [0-9]+ns /\1 /' records.raw >records
expect_same expected records
run_dsprof info --count >info 2>err || fail "dsprof info: status $? ($(cat err))"
for want in 'threads: 1' 'events: 14' 'stray dimensions: 6' 'repaired events: 0'; do
  grep -Eq "^$want( |\$)" info || fail "dsprof info lacks '$want': $(cat info)"
done
cd ..

[ "$bad" -eq 0 ] || fail "$bad misuse(s) of the attribute not reported as errors"
exit 0
