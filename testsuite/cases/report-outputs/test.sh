# report-outputs: every dsprof command that writes a file (-o of lines, export,
# html, dot and callgraph; merge -o; annotate's listings) replaces only a
# regular file (merge: only a dsprof profile), never a directory, fifo, socket
# or device, and never writes through a symbolic link: one message naming the
# file, status 2, the file and what a link points to unchanged, no temporary
# file left, no wait on a fifo.  Outputs get mode 0666 minus the umask (merge's
# were 0600); a write that fails leaves the old file; -o - and no -o still
# write to standard output.
. "$(dirname "$0")/../../lib.sh"

dscc -o expr "$TOP/examples/expr/expr.c" && ./expr >/dev/null || fail "expr"
cp dsprof.data p.data

mkdir dir && mkfifo fifo && echo victim >victim.txt && ln -s victim.txt link
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
[ -S sock ] || fail "no socket made"

# refuse WHAT TARGET CMD...: dsprof CMD... (which writes TARGET) is refused.
refuse () {
  local what=$1 target=$2; shift 2
  set +e
  timeout 20 "$DSPROF" "$@" >out.txt 2>err.txt
  rc=$?
  set -e
  [ $rc = 2 ] || fail "dsprof $* ($what): status $rc, $(cat err.txt)"
  [ "$(wc -l <err.txt)" = 1 ] && grep -q "^dsprof $1: '$target': is $what; " err.txt \
    || fail "dsprof $* ($what) said: $(cat err.txt)"
  [ "$(cat victim.txt)" = victim ] || fail "dsprof $* wrote through the link"
  [ -L link ] && [ -d dir ] && [ -p fifo ] && [ -S sock ] \
    || fail "dsprof $* replaced something: $(ls -l)"
  ! ls ./*.[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9] 2>/dev/null \
      | grep -v '\.c\.bb$' || fail "dsprof $* left a temporary file: $(ls)"
}

for t in "a directory:dir" "a fifo:fifo" "a socket:sock" "a symbolic link:link" \
         "a character device:/dev/null"; do
  what=${t%%:*} target=${t#*:}
  refuse "$what" "$target" lines -o "$target" p.data
  refuse "$what" "$target" lines --append -o "$target" p.data
  refuse "$what" "$target" export --format csv -o "$target" p.data
  refuse "$what" "$target" export --format lcov -o "$target" p.data
  refuse "$what" "$target" html -o "$target" p.data
  refuse "$what" "$target" dot -o "$target" p.data
  refuse "$what" "$target" callgraph -o "$target" p.data
  refuse "$what" "$target" merge -o "$target" p.data
done

# merge replaces only a profile (or one of its inputs).
echo notes >notes.txt
set +e
"$DSPROF" merge -o notes.txt p.data 2>err.txt; rc=$?
set -e
[ $rc = 2 ] && grep -q "^dsprof merge: 'notes.txt': not a dsprof profile" err.txt \
  || fail "merge over a text file: status $rc, $(cat err.txt)"
[ "$(cat notes.txt)" = notes ] || fail "merge replaced notes.txt"
cp p.data m.data
"$DSPROF" merge -o m.data p.data p.data || fail "merge over a profile: status $?"
"$DSPROF" merge -o p2.data p.data p.data || fail "merge to a new file: status $?"
cmp -s m.data p2.data || fail "m.data and p2.data differ"

# annotate -o DIR: a listing that is a link is not written through.
listing=bb/${TOP#/}/examples/expr/expr.c.bb
mkdir -p "$(dirname "$listing")" && ln -s "$PWD/victim.txt" "$listing"
set +e
"$DSPROF" annotate -o bb p.data 2>err.txt; rc=$?
set -e
[ $rc = 2 ] && grep -q "expr\.c\.bb': is a symbolic link; " err.txt \
  || fail "annotate -o over a link: status $rc, $(cat err.txt)"
[ "$(cat victim.txt)" = victim ] || fail "annotate wrote through the link"
# ... nor is a directory it makes under DIR a link to another.
mkdir elsewhere && mkdir -p "bb2/$(dirname "${TOP#/}")" && ln -s "$PWD/elsewhere" "bb2/${TOP#/}"
set +e
"$DSPROF" annotate -o bb2 p.data 2>err.txt; rc=$?
set -e
[ $rc = 2 ] && grep -q "^dsprof annotate: 'bb2/${TOP#/}': is a symbolic link, not a directory" err.txt \
  || fail "annotate -o through a linked directory: status $rc, $(cat err.txt)"
[ -z "$(ls elsewhere)" ] || fail "annotate wrote through a linked directory: $(find elsewhere)"

# Modes: 0666 minus the umask, for every kind of output.
for mask in 022 002 077; do
  want=$(printf '%o' $((0666 & ~0$mask)))
  rm -rf modes && mkdir modes
  (umask $mask
   "$DSPROF" lines -o modes/lines.txt p.data
   "$DSPROF" lines --append -o modes/append.txt p.data
   "$DSPROF" export --format chrome -o modes/chrome.json p.data
   "$DSPROF" html -o modes/page.html p.data
   "$DSPROF" dot -o modes/g.dot p.data
   "$DSPROF" callgraph -o modes/cg.txt p.data
   "$DSPROF" merge -o modes/m.data p.data
   "$DSPROF" annotate -o modes/bb p.data) || fail "umask $mask: status $?"
  for f in modes/*.* "modes/bb/${TOP#/}/examples/expr/expr.c.bb"; do
    [ "$(stat -c %a "$f")" = "$want" ] || fail "umask $mask: $f has mode $(stat -c %a "$f"), want $want"
  done
done

# A write that fails (over the file size limit) leaves the old file.
echo old >old.html
set +e
(ulimit -f 1; trap '' XFSZ; exec "$DSPROF" html -o old.html p.data) 2>err.txt; rc=$?
set -e
[ $rc = 2 ] && grep -q "old.html: write error" err.txt || fail "html over the limit: status $rc, $(cat err.txt)"
[ "$(cat old.html)" = old ] || fail "a failed write changed old.html"
ls old.html.* 2>/dev/null && fail "a failed write left a temporary file"

# Standard output stays.
"$DSPROF" lines p.data >want.txt
"$DSPROF" lines -o - p.data >dash.txt && expect_same want.txt dash.txt
"$DSPROF" lines -o lines.txt p.data && expect_same want.txt lines.txt
"$DSPROF" lines --append -o lines.txt p.data && cat want.txt want.txt >twice.txt \
  && expect_same twice.txt lines.txt
exit 0
