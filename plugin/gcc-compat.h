/* gcc-compat.h - every GCC header dsprof's plugin needs, in the order GCC requires,
   and the one place for GCC-version differences.  dsprof targets the GCC its plugin
   is built with; the plugin refuses to load into any other version (see
   dsprof-plugin.cc).  */

#ifndef DSPROF_GCC_COMPAT_H
#define DSPROF_GCC_COMPAT_H

#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "target.h"
#include "context.h"
#include "cfghooks.h"
#include "tree-cfg.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "tree-ssa-operands.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "gimple-expr.h"
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "varasm.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "diagnostic.h"
#include "langhooks.h"
#include "memmodel.h"
#include "builtins.h"
#include "intl.h"

#if __GNUC__ < 10
#error "dsprof's plugin needs GCC 10 or later"
#endif

#endif /* DSPROF_GCC_COMPAT_H */
