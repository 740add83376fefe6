#!/usr/bin/env bash
# man-options.sh - write the OPTIONS section of docs/dsprof.1 anew from the
# commands' option tables (`report/dsprof help --man`, after `make`; awk's -v would read its
# backslashes as escapes, hence the environment): the
# lines between its two marking comments are replaced.
set -euo pipefail
cd "$(dirname "$0")/.."
man=docs/dsprof.1
GEN=$(report/dsprof help --man) awk '
  /^\.\\" End of the OPTIONS section\.$/ { print ENVIRON["GEN"]; skip = 0 }
  !skip { print }
  /^\.\\" fails when it differs\./ { skip = 1 }
' "$man" >"$man.new"
mv "$man.new" "$man"
