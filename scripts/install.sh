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
# dsprof-cc and dsprof-c++ find the plugin at ../lib/dsprof/gcc-N and the specs
# file, which adds the installed libdsprof to every link, at ../lib/dsprof.
install -m 755 driver/dsprof-cc "$root/bin/dsprof-cc"
install -m 755 driver/dsprof-cc "$root/bin/dsprof-c++"
sed -e "s|@LIBDIR@|$prefix/lib|g" dsprof.specs.in >"$destdir$prefix/lib/dsprof/dsprof.specs"
install -m 644 docs/dsprof-cc.1 "$root/share/man/man1/dsprof-cc.1"
ln -sf dsprof-cc.1 "$root/share/man/man1/dsprof-c++.1"
echo "dsprof: installed under $root"
