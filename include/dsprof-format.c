/* dsprof-format.c - the readers of dsprof-format.h's unit metadata (section 3)
   and event values (section 4), which the runtime, the report tool and the
   tests share: the runtime reads its units' event sites, the report tool the
   whole metadata and the streams.

   Compiled once into each of them (Makefile), as C11; it also compiles as C++.
   It depends on nothing but the C library's string functions, never allocates,
   and reads only within its cursors: a malformed input sets the cursor's ERR
   and makes the call return -1, so a caller checks once per record.  */

#include "dsprof-format.h"

int
dsprof_meta_open (struct dsprof_meta *m, const void *blob, size_t size)
{
  const unsigned char *p = (const unsigned char *) blob;
  m->c.p = p;
  m->c.end = p + size;
  m->c.err = 0;
  m->version = dsprof_read_uleb (&m->c);
  m->source_len = dsprof_read_str (&m->c, &m->source);
  m->compdir_len = dsprof_read_str (&m->c, &m->compdir);
  return m->c.err ? -1 : 0;
}

int
dsprof_meta_next (struct dsprof_meta *m, uint64_t *tag,
                  struct dsprof_cursor *body)
{
  struct dsprof_cursor *c = &m->c;
  if (c->err)
    return -1;
  if (c->p >= c->end)
    return 0;
  *tag = dsprof_read_uleb (c);
  uint64_t len = dsprof_read_uleb (c);
  if (c->err || len > (uint64_t) (c->end - c->p))
    {
      c->err = 1;
      return -1;
    }
  body->p = c->p;
  body->end = c->p + len;
  body->err = 0;
  c->p += len;
  return 1;
}

int
dsprof_site_read (struct dsprof_cursor *body, struct dsprof_site_rec *s)
{
  s->index = dsprof_read_uleb (body);
  s->type_len = dsprof_read_str (body, &s->type);
  s->name_len = dsprof_read_str (body, &s->name);
  s->file = dsprof_read_uleb (body);
  s->line = dsprof_read_uleb (body);
  s->ndims = dsprof_read_uleb (body);
  /* Every dim takes at least two bytes (its name's length, its type).  */
  if (!body->err
      && (s->ndims == 0 || s->ndims > (uint64_t) (body->end - body->p) / 2))
    body->err = 1;
  s->dims = *body;
  return body->err ? -1 : 0;
}

int
dsprof_site_next_dim (struct dsprof_cursor *dims, struct dsprof_site_dim *d)
{
  d->name_len = dsprof_read_str (dims, &d->name);
  uint64_t type = dsprof_read_uleb (dims);
  d->type = type <= DSPROF_DIM_PTR ? (int) type : DSPROF_DIM_NONE;
  d->nenum = 0;
  if (type > DSPROF_DIM_PTR)
    dims->err = 1;
  if (type == DSPROF_DIM_ENUM && !dims->err)
    {
      d->nenum = dsprof_read_uleb (dims);
      /* Every entry takes at least two bytes (its value, its name's length).  */
      if (d->nenum > (uint64_t) (dims->end - dims->p) / 2)
        dims->err = 1;
      d->enums.p = dims->p;
      for (uint64_t i = 0; i < d->nenum && !dims->err; i++)
        {
          const char *s;
          dsprof_read_uleb (dims);
          dsprof_read_str (dims, &s);
        }
      d->enums.end = dims->p;
    }
  if (dims->err)
    d->nenum = 0, d->enums.p = d->enums.end = dims->p;
  else if (d->type != DSPROF_DIM_ENUM)
    d->enums.p = d->enums.end = dims->p;
  d->enums.err = dims->err;
  return dims->err ? -1 : 0;
}

int
dsprof_site_next_enum (struct dsprof_cursor *enums, int64_t *value,
                       const char **name, size_t *len)
{
  *value = dsprof_unzigzag (dsprof_read_uleb (enums));
  *len = dsprof_read_str (enums, name);
  return enums->err ? -1 : 0;
}

int
dsprof_read_value (struct dsprof_cursor *c, int type, struct dsprof_value *v)
{
  memset (v, 0, sizeof *v);
  if (c->err)
    return -1;
  switch (type)
    {
    case DSPROF_DIM_INT:
    case DSPROF_DIM_UINT:
    case DSPROF_DIM_BOOL:
    case DSPROF_DIM_ENUM:
      v->u = dsprof_read_uleb (c);
      if (type == DSPROF_DIM_INT)
        v->u = (uint64_t) dsprof_unzigzag (v->u);
      break;
    case DSPROF_DIM_DOUBLE:
      if (c->end - c->p < 8)
        {
          c->err = 1;
          break;
        }
      memcpy (&v->u, c->p, 8);
      c->p += 8;
      break;
    case DSPROF_DIM_PTR:
      if (dsprof_read_uleb (c) == 0)
        {
          v->u = dsprof_read_uleb (c);
          break;
        }
      v->text = 1;
      /* Then the formatter's text, as a STR value.  */
      /* FALLTHROUGH */
    case DSPROF_DIM_STR:
      {
        uint64_t n = dsprof_read_uleb (c);
        if (n == 0 || c->err)
          break;
        if (n == DSPROF_STR_REF)
          {
            uint64_t k = dsprof_read_uleb (c);
            if (k > UINT32_MAX)
              c->err = 1;
            v->u = k;
            v->ref = !c->err;
            break;
          }
        n--;
        v->truncated = (int) (n & 1);
        n >>= 1;
        if (n > DSPROF_STR_MAX || n > (uint64_t) (c->end - c->p))
          {
            c->err = 1;
            break;
          }
        v->s = (const char *) c->p;
        v->len = (uint32_t) n;
        c->p += n;
        break;
      }
    default:
      c->err = 1;
    }
  return c->err ? -1 : 0;
}

int
dsprof_skip_value (struct dsprof_cursor *c, int type)
{
  struct dsprof_value v;
  return dsprof_read_value (c, type, &v);
}

uint64_t
dsprof_stat_start_mono (const char *stat, long hz, uint64_t boot_ns, uint64_t mono_ns)
{
  /* Field 22, starttime, in clock ticks since boot; the fields before it follow
     the command name's closing parenthesis, and contain none.  */
  const char *p = strrchr (stat, ')');
  for (int field = 2; field < 22 && p; field++)
    p = strchr (p + 1, ' ');
  if (!p || hz <= 0 || p[1] < '0' || p[1] > '9')
    return 0;
  uint64_t start = 0;
  for (p++; *p >= '0' && *p <= '9' && start < UINT64_MAX / 10 - 10; p++)
    start = start * 10 + (uint64_t) (*p - '0');
  uint64_t start_boot = start / (uint64_t) hz * 1000000000u
                        + start % (uint64_t) hz * (1000000000u / (uint64_t) hz);
  if (boot_ns < start_boot || mono_ns < boot_ns - start_boot)
    return 0;
  return mono_ns - (boot_ns - start_boot);
}
