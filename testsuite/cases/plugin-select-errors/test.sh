# plugin-select-errors: every error of a selection file (docs/select.md) is one
# message naming FILE:LINE and what is wrong, and gcc fails without writing an
# object: unknown directives and options, bad patterns, names, values and
# argument lists, a missing file, a `dispatch' directive's bad function or line,
# and, found when the unit is compiled, a dims= name that is a parameter of
# none of the functions the directive selects and a `call' naming more
# arguments than the call has.  Good `dispatch' directives are accepted.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/f.c" .
# bad LINE MESSAGE: a selection file of a comment then LINE fails, and gcc's
# first error (C locale) is exactly "error: dsprof: sel:2: MESSAGE".
bad () {
  printf '# a selection file\n%s\n' "$1" >sel
  rm -f f.o
  if LC_ALL=C gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=sel -c f.c 2>bad.err; then
    fail "'$1' was accepted"
  fi
  [ ! -e f.o ] || fail "'$1': gcc failed but wrote f.o"
  got=$(grep -m1 'error: ' bad.err | sed 's/^.*error: //')
  [ "$got" = "dsprof: sel:2: $2" ] || fail "'$1': error '$got', not 'dsprof: sel:2: $2' (all: $(cat bad.err))"
  [ "$(grep -c 'error: dsprof' bad.err)" = 1 ] || fail "'$1': not one dsprof error: $(cat bad.err)"
}
DIRS="event, call, dispatch, include, exclude"
bad "evnt f" "unknown directive 'evnt' (valid: $DIRS)"
bad "Event f" "unknown directive 'Event' (valid: $DIRS)"
bad "event" "'event' needs a function pattern"
bad "event f.c" "'event': bad function pattern 'f.c' (a C identifier, or an fnmatch pattern of one)"
bad "event f[ab" "'event': bad function pattern 'f[ab' (a C identifier, or an fnmatch pattern of one)"
bad "event f colour=red" "'event': unknown option 'colour=red' (valid: file=, type=, dims=, result=)"
bad "event f in=main" "'event': unknown option 'in=main' (valid: file=, type=, dims=, result=)"
bad "event f type=A type=B" "'event': option 'type=B' given twice"
bad "event f type=" "'event': option 'type=' needs a value"
bad "event f file=[x" "'event': bad file pattern '[x'"
bad "event f dims=a,,b" "'event': empty name in 'a,,b'"
bad "event f dims=a," "'event': empty name in 'a,'"
bad "call realloc(,n)" "'call': empty name in ',n'"
bad "event f dims=a,1b" "'event': bad dimension name '1b' (a C identifier named once, not 'result')"
bad "event f dims=a,a" "'event': bad dimension name 'a' (a C identifier named once, not 'result')"
bad "event f result=maybe" "'event': bad value 'maybe' for 'result=' (valid: keep, drop)"
bad "call" "'call' needs a function pattern"
bad "call malloc(n" "missing ')' in 'malloc(n'"
bad "call malloc(n))" "'call': bad argument list in 'malloc(n))' (as in 'realloc(p, _)')"
bad "call malloc(n m)" "'call': bad dimension name 'n m' (a C identifier named once, not 'result', or _ to skip an argument)"
bad "call malloc(result)" "'call': bad dimension name 'result' (a C identifier named once, not 'result', or _ to skip an argument)"
bad "call malloc dims=n" "'call': unknown option 'dims=n' (valid: in=, file=, type=, result=)"
bad "call malloc in=f.c" "'call': bad function pattern 'f.c' (a C identifier, or an fnmatch pattern of one)"
bad "dispatch" "'dispatch' needs a function name (FUNC or FUNC@LINE)"
bad "dispatch f@" "'dispatch': bad line '' in 'f@' (a line number from 1)"
bad "dispatch f@0" "'dispatch': bad line '0' in 'f@0' (a line number from 1)"
bad "dispatch f@12x" "'dispatch': bad line '12x' in 'f@12x' (a line number from 1)"
bad "dispatch f@-3" "'dispatch': bad line '-3' in 'f@-3' (a line number from 1)"
bad "dispatch f*" "'dispatch': bad function name 'f*' (a C identifier, optionally @LINE)"
bad "dispatch f type=op" "'dispatch': unknown option 'type=op' (valid: file=, dims=)"
bad "include" "'include' needs one or more patterns"
bad "exclude f [" "'exclude': bad file pattern '['"
# Found when the unit is compiled.
bad "event f dims=a,c" "'event f': no function it selects in 'f.c' has a parameter 'c'"
bad "call free(p, q)" "'call free': 'free' is called with 1 argument, the directive names 2"

# A missing or unreadable file.
LC_ALL=C gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=nosuch -c f.c 2>bad.err && fail "a missing selection file was accepted"
grep -q "error: dsprof: cannot read selection file 'nosuch': No such file or directory" bad.err \
  || fail "missing selection file: $(cat bad.err)"
LC_ALL=C gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=. -c f.c 2>bad.err && fail "a directory as selection file was accepted"
grep -q "error: dsprof: cannot read selection file '.': a directory, not a regular file" bad.err \
  || fail "directory as selection file: $(cat bad.err)"
# Only a regular file of at most 1 MiB is read: a device or a fifo is refused at
# once (never read, never waited for), also under a memory limit; a larger file
# is refused; one of exactly 1 MiB is read.
# nonfile FILE MESSAGE [ULIMIT_KB]: the compile fails with the one error.
nonfile () {
  rm -f f.o
  if (ulimit -v "${3:-unlimited}"; LC_ALL=C timeout 120 gcc -fplugin="$PLUGIN" \
        -fplugin-arg-dsprof-select="$1" -c f.c) 2>bad.err; then
    fail "selection file $1 was accepted"
  fi
  [ ! -e f.o ] || fail "selection file $1: gcc failed but wrote f.o"
  grep -q "error: dsprof: cannot read selection file '$1': $2\$" bad.err \
    || fail "selection file $1: not '$2': $(cat bad.err)"
  [ "$(grep -c "error: dsprof" bad.err)" = 1 ] || fail "selection file $1: not one error: $(cat bad.err)"
}
nonfile /dev/zero "a character device, not a regular file"
nonfile /dev/zero "a character device, not a regular file" 400000
mkfifo fifo
nonfile fifo "a fifo, not a regular file"
big="larger than 1 MiB (1048576 bytes), the most a selection file holds"
{ yes '# a comment line of sixty-four bytes, padded out to that length' | head -c 1048575; echo; } >mib
[ "$(stat -c %s mib)" = 1048576 ] || fail "mib is $(stat -c %s mib) bytes"
LC_ALL=C gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=mib -c f.c 2>mib.err \
  || fail "a selection file of 1 MiB was refused: $(cat mib.err)"
echo '#' >>mib
nonfile mib "$big"

# Good directives, dispatch ones too, are accepted; a dims= name that a
# directive's functions do not have is no error in a unit where it selects none.
printf 'dispatch nosuch\ndispatch nosuch@5 file=f.c   # a comment\n\nevent g dims=nosuch\n  # indented comment\ninclude f*\n' >good
LC_ALL=C gcc -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=good -c f.c 2>good.err || fail "good selection file refused: $(cat good.err)"
[ ! -s good.err ] || fail "good selection file: messages $(cat good.err)"
exit 0
