#!/usr/bin/env bash
# run.sh DIR - run every line of `commands` on every golden profile, and on one
# merge of them all, into DIR/PROFILE/N.out (stdout and the exit status).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DSPROF=$(cd "$here/../.." && pwd)/report/dsprof
out=$(mkdir -p "$1" && cd "$1" && pwd)
work=$(mktemp -d /tmp/dsprof-golden-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$here"/profiles/*.data "$work/"
cd "$work"
"$DSPROF" merge -o merged.data ./*.data
for p in *.data; do
  name=${p%.data}
  mkdir -p "$out/$name"
  n=0
  while read -r cmd; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    { "$DSPROF" $cmd "$p" 2>/dev/null || echo "exit status $?"; } >"$out/$name/$n.out"
  done <"$here/commands"
done
