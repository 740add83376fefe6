# plugin-select-expr-errors: a dims= item NAME=EXPR (docs/select.md,
# "Expressions") that does not fit the function's types, or is not an
# expression at all, is one error naming the selection file's FILE:LINE, the
# directive, the item and what is wrong, and gcc exits non-zero without
# writing an object (never an internal compiler error), at -O0 and -O2: an
# unknown member, a member of a non-struct, a non-pointer dereferenced
# (`*' and `->'), pointers to different types subtracted, a difference of
# integers, a struct or a bit-field as the value, a void pointer
# dereferenced, an index out of a variable's array, garbage, an unknown
# variable (in an `event' directive and in a `dispatch' one), a name that
# every record has already (`line').  Good expressions are accepted.
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/e.c" .
# bad O LINE MESSAGE: a selection file of a comment then LINE fails at -O,
# and gcc's only dsprof error (C locale) is exactly "dsprof: sel:2: MESSAGE".
bad () {
  printf '# a selection file\n%s\n' "$2" >sel
  rm -f e.o
  if LC_ALL=C gcc "$1" -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=sel -c e.c 2>bad.err; then
    fail "$1: '$2' was accepted"
  fi
  [ ! -e e.o ] || fail "$1: '$2': gcc failed but wrote e.o"
  grep -qi 'internal compiler error' bad.err && fail "$1: '$2': an ICE: $(cat bad.err)"
  got=$(grep -m1 'error: ' bad.err | sed 's/^.*error: //')
  [ "$got" = "dsprof: sel:2: $3" ] || fail "$1: '$2': error '$got', not 'dsprof: sel:2: $3' (all: $(cat bad.err))"
  [ "$(grep -c 'error: dsprof' bad.err)" = 1 ] || fail "$1: '$2': not one dsprof error: $(cat bad.err)"
}
NOVAL="is not a value dsprof records (an integer, a pointer, a floating-point number)"
for o in -O0 -O2; do
  # Found when the function is compiled: the types.
  bad $o "event eval dims=k=n->kidn" "'event eval': dimension 'k=n->kidn': 'struct node' has no member 'kidn'"
  bad $o "event eval dims=k=n->kind.x" "'event eval': dimension 'k=n->kind.x': '.x' applied to 'int', which is not a struct or union"
  bad $o "event eval dims=k=n.kind" "'event eval': dimension 'k=n.kind': '.kind' applied to 'struct node *', which is not a struct or union"
  bad $o "event eval dims=k=*n->kind" "'event eval': dimension 'k=*n->kind': '*' applied to 'int', which is not a pointer"
  bad $o "event eval dims=k=n->at->line" "'event eval': dimension 'k=n->at->line': '->' applied to 'struct pos', which is not a pointer"
  bad $o "event eval dims=d=n->left-n->at.file" "'event eval': dimension 'd=n->left-n->at.file': '-' of pointers to different types, 'struct node *' and 'const char *'"
  bad $o "event eval dims=d=n->kind-n->at.line" "'event eval': dimension 'd=n->kind-n->at.line': '-' of 'int' and 'int': dsprof subtracts two pointers only"
  bad $o "event eval dims=a=n->at" "'event eval': dimension 'a=n->at': 'struct pos' $NOVAL"
  bad $o "event eval dims=f=n->at.flag" "'event eval': dimension 'f=n->at.flag': member 'flag' is a bit-field, which dsprof does not read"
  bad $o "event eval dims=v=*n->data" "'event eval': dimension 'v=*n->data': '*' applied to 'void *', a pointer to no object type known here"
  # An unknown variable: in an `event' directive when no function it selects has it.
  bad $o "event eval dims=k=m->kind" "'event eval': dimension 'k=m->kind': no variable 'm' in any function it selects in 'e.c'"
  bad $o "dispatch run dims=a=pc-cod" "'dispatch run': dimension 'a=pc-cod': no variable 'cod' in scope at the dispatch"
  bad $o "dispatch run dims=s=stack[16]" "'dispatch run': dimension 's=stack[16]': index 16 out of the bounds of 'long int[16]'"
  bad $o "dispatch run dims=a=pc-&code" "'dispatch': bad expression 'pc-&code' in 'a=pc-&code': expected a variable's name or '(' at '&code'"
  # Found when the file is read: not an expression.
  bad $o "event eval dims=k=n->" "'event': bad expression 'n->' in 'k=n->': expected a member's name at its end"
  bad $o "event eval dims=k=n+1" "'event': bad expression 'n+1' in 'k=n+1': expected '->', '.', '[' or '-' at '+1'"
  bad $o "event eval dims=k=n->at[i]" "'event': bad expression 'n->at[i]' in 'k=n->at[i]': expected a constant index at 'i]'"
  bad $o "event eval dims=k=a-b-c" "'event': bad expression 'a-b-c' in 'k=a-b-c': one '-' at most (the difference of two pointers), not '-c'"
  bad $o "event eval dims=k=" "'event': bad expression '' in 'k=': expected a variable's name or '(' at its end"
  bad $o "event eval dims=result=n->kind" "'event': bad dimension name 'result' (a C identifier named once, not 'result')"
  bad $o "event eval dims=k=n->kind,k=n->left" "'event': bad dimension name 'k' (a C identifier named once, not 'result')"
  bad $o "event eval dims=line=n->at.line" "'event': dimension name 'line' is one dsprof gives every record (event, name, file, line, function, thread, complete, result, depth, parent, location, children, site): name it otherwise"
  bad $o "dispatch run dims=depth=acc" "'dispatch': dimension name 'depth' is one dsprof gives every record (event, name, file, line, function, thread, complete, result, depth, parent, location, children, site): name it otherwise"
  # Good ones.
  printf 'event eval dims=k=n->kind,l=n->left->at.line,d=n->left-n,f=(*n).at.file\ndispatch run dims=at=pc-code,acc,top=stack[15]\n' >good.sel
  LC_ALL=C gcc $o -fplugin="$PLUGIN" -fplugin-arg-dsprof-select=good.sel -c e.c 2>good.err \
    || fail "$o: good expressions refused: $(cat good.err)"
  [ ! -s good.err ] || fail "$o: good expressions: $(cat good.err)"
done
exit 0
