#!/bin/sh
# playwright.sh - installs playwright-core (the browser driver of the html-browser
# test) from the npm registry into build/node_modules, once; the browser is
# Debian's chromium (deps.sh).  npm comes from Debian's npm package when missing.
set -u
cd "$(dirname "$0")/.." || exit 1
version=1.57.0                  # the last with Debian 12's Node.js 18
have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' build/node_modules/playwright-core/package.json 2>/dev/null)
[ "$have" = "$version" ] && exit 0
command -v npm >/dev/null || scripts/deps.sh install npm || exit 1
mkdir -p build
echo "dsprof: installing playwright-core $version into build/node_modules"
npm install --prefix build --no-audit --no-fund --no-save --loglevel=error \
  "playwright-core@$version" >/dev/null || {
  echo "dsprof: npm install playwright-core@$version failed" >&2; exit 1; }
