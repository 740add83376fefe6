#!/bin/sh
# install.sh DESTDIR PREFIX - install dsprof's plugin, runtime, header, command,
# man page and pkg-config file (called by `make install`).
set -eu
destdir=$1 prefix=$2
root=$destdir$prefix
gccmajor=$(${CC:-gcc} -dumpversion | cut -d. -f1)
plugindir=$prefix/lib/dsprof/gcc-$gccmajor
install -d "$root/bin" "$root/lib/pkgconfig" "$root/include" "$destdir$plugindir" \
  "$root/share/man/man1"
install -m 755 report/dsprof "$root/bin/dsprof"
install -m 755 plugin/dsprof.so "$destdir$plugindir/dsprof.so"
install -m 644 runtime/libdsprof.a "$root/lib/libdsprof.a"
install -m 755 runtime/libdsprof.so "$root/lib/libdsprof.so"
install -m 644 runtime/dsprof.h "$root/include/dsprof.h"
install -m 644 include/dsprof-derive.h "$root/include/dsprof-derive.h"
install -m 644 docs/dsprof.1 "$root/share/man/man1/dsprof.1"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@PLUGINDIR@|$plugindir|g" dsprof.pc.in \
  >"$root/lib/pkgconfig/dsprof.pc"
echo "dsprof: installed under $root"
