/* dimread.c - dimensions computed from the program's data: the NAME=EXPR
   items of a selection file's dims= (docs/select.md), which the plugin
   checks against the types and compiles into a small program of offsets and
   loads.  Every load goes through dsprof_read_bytes, which catches a
   fault as a string dimension's read does (strings.c): a null pointer on
   the way gives the text "(null)", an unreadable one "(unreadable)", never a
   fault in the program.

   The plugin calls __dsprof_dims_v1 (PROG, ROOTS, CFA, IDS) right after a
   Start hook or an op hook, in the same guarded block (or before a Finish
   hook), CFA the hook's; each dimension becomes a DIM of the innermost
   open record, the hook's, as the dsprof_dim_* functions of dsprof.h make
   one (dsprof_recorder_dim), with its name's id cached in IDS[i], a word
   of the unit's that starts at 0 (the interning takes a lock).
   Nothing is evaluated if that record is not at CFA (its Start was
   dropped, the thread is inside a hook: the dimensions would go to another
   record).  PROG, a constant of the unit:

     byte n                       the dimensions, n times:
       str name                   NUL-terminated
       byte kind                  DSPROF_DIM_*: how the value is recorded
       [ENUM: uleb count, count x (uleb zigzag value, str name)]
       ops up to DX_END:
         DX_ROOT  byte k          push ROOTS[k] (a variable's value, read by
                                  the program itself)
         DX_LOAD  uleb zigzag off, byte size, byte flags
                                  pop a pointer P; null: "(null)"; else push
                                  the SIZE bytes at P + OFF (DX_SIGNED:
                                  sign-extended; DX_FLOAT: a float or double,
                                  pushed as the bits of a double)
         DX_LEA   uleb zigzag off pop P; null: "(null)"; else push P + OFF
                                  (an array member as a pointer)
         DX_DIFF  uleb size       pop B, pop A; push (A - B) / SIZE
       DX_END                     the value is the top of the stack

   A double is pushed and recorded as its bits; integers, pointers and bools
   as words.  */

#include <string.h>

#include "internal.h"

enum
{
  DX_END, DX_ROOT, DX_LOAD, DX_LEA, DX_DIFF
};

#define DX_SIGNED 1
#define DX_FLOAT 2
#define DX_STACK 4

enum dx_status
{
  DX_OK, DX_NULL, DX_UNREADABLE
};

/* The number at *PP, the program a constant of the unit (so no bound but
   the ten bytes any number fits in), *PP moved past it: the codec's reader.  */

static uint64_t
get_uleb (const unsigned char **pp)
{
  struct dsprof_cursor c = { *pp, *pp + 10, 0 };
  uint64_t v = dsprof_read_uleb (&c);
  *pp = c.p;
  return v;
}

/* Whether the N bytes at ADDR may be asked of the fault-catching read: on
   x86-64 an address outside the user half (a non-canonical one faults with
   no address the handler could tell).  */

static int
addressable (uintptr_t addr, size_t n)
{
#if defined(__x86_64__)
  return addr + n >= addr && (addr + n) >> 47 == 0;
#else
  return addr + n >= addr;
#endif
}

/* The SIZE bytes at ADDR as a word, extended or converted as FLAGS says, in
   *V; DX_UNREADABLE if they cannot be read.  */

static enum dx_status
load (uintptr_t addr, unsigned size, unsigned flags, uint64_t *v)
{
  uint64_t x = 0;
  /* Little-endian: the SIZE bytes are the word's low ones.  */
  if (size == 0 || size > 8 || !addressable (addr, size)
      || !dsprof_read_bytes (&x, addr, size))
    return DX_UNREADABLE;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x >>= 8 * (8 - size);
#endif
  if ((flags & DX_FLOAT) && size == 4)
    {
      float f;
      memcpy (&f, &x, 4);
      double d = f;
      memcpy (&x, &d, 8);
    }
  else if ((flags & DX_SIGNED) && size < 8 && (x >> (8 * size - 1) & 1))
    x |= ~(uint64_t) 0 << (8 * size);
  *v = x;
  return DX_OK;
}

/* Run the ops at *PP, over ROOTS, up to DX_END (left past it): the value in
   *V, or why there is none.  */

static enum dx_status
run (const unsigned char **pp, const uint64_t *roots, uint64_t *v)
{
  const unsigned char *p = *pp;
  uint64_t stack[DX_STACK];
  unsigned sp = 0;
  enum dx_status st = DX_OK;
  for (int op; (op = *p++) != DX_END;)
    {
      int64_t off = 0;
      unsigned size = 0, flags = 0;
      if (op == DX_LOAD || op == DX_LEA)
        off = dsprof_unzigzag (get_uleb (&p));
      if (op == DX_LOAD)
        size = *p++, flags = *p++;
      if (op == DX_ROOT)
        {
          unsigned k = *p++;
          if (sp < DX_STACK)
            stack[sp++] = roots[k];
          continue;
        }
      if (op == DX_DIFF)
        {
          uint64_t esize = get_uleb (&p);
          if (sp >= 2 && esize)
            {
              sp--;
              stack[sp - 1] = (uint64_t) ((int64_t) (stack[sp - 1] - stack[sp])
                                          / (int64_t) esize);
            }
          continue;
        }
      if (st != DX_OK || sp == 0)
        continue;           /* skip to the end */
      uintptr_t base = (uintptr_t) stack[sp - 1];
      if (!base)
        st = DX_NULL;
      else if (op == DX_LEA)
        stack[sp - 1] = base + (uint64_t) off;
      else
        st = load (base + (uintptr_t) off, size, flags, &stack[sp - 1]);
    }
  *pp = p;
  *v = sp ? stack[sp - 1] : 0;
  return st;
}

/* Step over the enum table at *PP; the name of value V in it, or NULL.  */

static const char *
enum_name (const unsigned char **pp, uint64_t v)
{
  uint64_t n = get_uleb (pp);
  const char *found = NULL;
  for (uint64_t i = 0; i < n; i++)
    {
      int64_t x = dsprof_unzigzag (get_uleb (pp));
      const char *s = (const char *) *pp;
      *pp += strlen (s) + 1;
      if (!found && x == (int64_t) v)
        found = s;
    }
  return found;
}

/* The id of dimension NAME, cached in *ID.  */

static uint32_t
name_id (const char *name, uint32_t *id)
{
  uint32_t k = __atomic_load_n (id, __ATOMIC_RELAXED);
  if (likely (k))
    return k;
  k = dsprof_strings_intern (name);
  __atomic_store_n (id, k, __ATOMIC_RELAXED);
  return k;
}

/* Record V as dimension NAME (of id ID) of KIND, as dsprof_dim_* would;
   an ENUM by the name of its enumerator in TABLE, else as a number.  */

static void
record (const char *name, uint32_t id, int kind, uint64_t v,
        const unsigned char *table)
{
  switch (kind)
    {
    case DSPROF_DIM_BOOL:
      v = v != 0;
      break;
    case DSPROF_DIM_ENUM:
      {
        const char *e = enum_name (&table, v);
        if (e)
          v = (uint64_t) (uintptr_t) e, kind = DSPROF_DIM_STR;
        else
          kind = DSPROF_DIM_INT;
        break;
      }
    default:
      break;
    }
  dsprof_recorder_dim (name, id, kind, v);
}

DSPROF_API void
__dsprof_dims_v1 (const unsigned char *prog, const uint64_t *roots, void *cfa,
                  uint32_t *ids)
{
  if (!dsprof_recorder_open_at ((uintptr_t) cfa))
    return;
  const unsigned char *p = prog;
  for (unsigned i = 0, n = *p++; i < n; i++)
    {
      const char *name = (const char *) p;
      p += strlen (name) + 1;
      int kind = *p++;
      const unsigned char *table = p;
      if (kind == DSPROF_DIM_ENUM)
        enum_name (&p, 0);     /* to the ops */
      uint64_t v;
      enum dx_status st = run (&p, roots, &v);
      uint32_t id = name_id (name, &ids[i]);
      if (st != DX_OK)
        record (name, id, DSPROF_DIM_STR,
                (uint64_t) (uintptr_t) (st == DX_NULL ? "(null)" : "(unreadable)"),
                NULL);
      else
        record (name, id, kind, v, table);
    }
}
