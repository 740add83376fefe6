#!/usr/bin/env bash
# check-fresh.sh - the README's two commands on a fresh machine (`make check-fresh`).
#
# Builds a minimal Debian 12 root with mmdebstrap (variant minbase: the Essential
# and required packages, apt, and only git, make and ca-certificates added),
# clones this repository's committed HEAD into /srv/fresh/dsprof there (/srv/fresh
# 0700), and runs `make demo` then `make check` in it as root, each in a chroot
# inside its own mount and PID namespaces (/proc, /sys, /dev, /dev/shm mounted
# there; they go when the step ends, and so does every process it left).  Prints
# each step's wall time, the packages installed and the space used under /usr,
# with the steps' own output; exits non-zero if a step failed (the root is then kept).
#
#   FRESH_MIRROR  Debian mirror (default http://deb.debian.org/debian, this
#                 machine's; its security archive is the same URL's
#                 debian-security)
#   FRESH_DIR     where the root is made (default: a new directory under
#                 ${TMPDIR:-/var/tmp}); it is removed afterwards unless
#                 FRESH_KEEP=1 or a step failed
# Needs root, mmdebstrap and git (`make check-fresh` installs them).
# shellcheck disable=SC2059  # $row, the format of the figures' table
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
die () { echo "check-fresh: $*" >&2; exit 1; }

# inside ROOT COMMAND: run by the script itself in the new namespaces.
if [ "${1:-}" = --inside ]; then
  root=$2
  mount --rbind /dev "$root/dev"
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
  mount --rbind /sys "$root/sys"
  exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
    ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt} \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /srv/fresh/dsprof && $3"
fi

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot, mounts)"
command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (make check-fresh installs it)"
head=$(git -C "$top" rev-parse HEAD) || die "$top is not a git checkout"
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
if [ -n "${FRESH_DIR:-}" ]; then
  root=$FRESH_DIR
  mkdir -p "$root"
  [ -z "$(ls -A "$root")" ] || die "FRESH_DIR '$root' is not empty"
else
  root=$(mktemp -d "${TMPDIR:-/var/tmp}/dsprof-fresh.XXXXXX")
fi
chmod 0755 "$root"   # a root directory's mode (apt's _apt user reads under it)
failed=
cleanup () {
  if [ -n "$failed" ] || [ "${FRESH_KEEP:-}" = 1 ]; then
    echo "check-fresh: the root is kept in $root"
  elif findmnt -R "$root" >/dev/null 2>&1; then
    echo "check-fresh: something is still mounted under $root: kept" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}

packages () {   # how many are installed in the root (0 before it is made)
  [ -f "$root/var/lib/dpkg/status" ] || { echo 0; return; }
  dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${db:Status-Abbrev}\n' | grep -c '^ii'
}
usr_mb () {   # MB used under its /usr
  [ -d "$root/usr" ] || { echo 0; return; }
  du -sxm "$root/usr" | cut -f1
}
rows=()
row='%-12s %7s %9s %-7s %8s %-8s %s'
# measure NAME COMMAND...: run it, then note its row: seconds, packages, /usr.
measure () {
  local name=$1 start=$SECONDS st=0 p0 u0 p u
  shift
  p0=$(packages) u0=$(usr_mb)
  printf '\n\033[1m== check-fresh: %s\033[0m\n' "$name"
  "$@" || st=$?
  p=$(packages) u=$(usr_mb)
  rows+=("$(printf "$row" "$name" "$((SECONDS - start)) s" "$p" "(+$((p - p0)))" "$u MB" \
    "(+$((u - u0)))" "$([ $st -eq 0 ] && echo ok || echo "FAILED (status $st)")")")
  [ $st -eq 0 ] || failed=1
  return $st
}

debian_root () {
  mmdebstrap --variant=minbase --include=git,make,ca-certificates bookworm "$root" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb ${mirror%/debian}/debian-security bookworm-security main" || return
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # The site's own certificate authorities (a proxy's, say), which every machine
  # of the site trusts as this one does: the npm registry is reached over TLS.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null || return
  fi
  mkdir -m 0700 "$root/srv/fresh"
  git clone -q --no-hardlinks "$top" "$root/srv/fresh/dsprof" &&
    git -C "$root/srv/fresh/dsprof" checkout -q "$head"
}

# in_root COMMAND: COMMAND in the root's /srv/fresh/dsprof, in its own namespaces.
in_root () {
  unshare --mount --pid --fork --kill-child --propagation private --mount-proc="$root/proc" \
    "$top/scripts/check-fresh.sh" --inside "$root" "$1"
}

summary () {
  echo
  echo "check-fresh: HEAD $(git -C "$top" log -1 --format='%h %s' "$head" | cut -c1-60)"
  printf "check-fresh: $row\n" step time packages '' /usr '' ''
  local r
  for r in "${rows[@]}"; do echo "check-fresh: $r"; done
}
trap 'summary; cleanup' EXIT

measure "debian root" debian_root || exit 1
measure "make demo" in_root "make demo" || exit 1
measure "make check" in_root "make check" || exit 1
