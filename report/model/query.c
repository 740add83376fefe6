/* query.c - what a record-based view is asked, and its options (query.h).  */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libiberty.h"
#include "exit.h"
#include "query.h"
#include "text.h"

void
query_init (struct query *q, int argc)
{
  memset (q, 0, sizeof *q);
  q->format = "text";
  q->filters = XCNEWVEC (struct agg_filter, argc + 1);
  q->sums = XCNEWVEC (const char *, argc + 1);
}

void
query_free_filters (struct query *q)
{
  for (int i = 0; i < q->nfilters; i++)
    free ((char *) q->filters[i].dim);
  free (q->filters);
  free (q->sums);
}

bool
parse_filter (char *arg, struct agg_filter *f)
{
  char *eq = strchr (arg, '=');
  if (!eq || eq == arg)
    return false;
  f->negate = eq[-1] == '!';
  f->dim = xstrndup (arg, (size_t) (eq - arg - f->negate));
  f->value = eq + 1;
  return f->dim[0] != '\0';
}

int
check_dim (const char *cmd, const char *name)
{
  const char *usage = agg_dim_usage (name);
  if (usage)
    return usage_error (cmd, "%s, not '%s'", usage, name);
  return 0;
}

bool
looks_like_profile (const char *arg)
{
  return access (arg, F_OK) == 0 || strchr (arg, '/') || strstr (arg, ".data");
}

int
check_dim_option (const char *cmd, const char *opt, const char *arg)
{
  if (!*arg)
    return usage_error (cmd, "%s wants a dimension name", opt);
  if (looks_like_profile (arg))
    return usage_error (cmd, "%s: '%s' is a profile, not a dimension (an "
                        "existing file, or a name with a '/' or a \".data\")",
                        opt, arg);
  return check_dim (cmd, arg);
}

int
query_set_where (const char *cmd, char *arg, void *p)
{
  struct query *q = p;
  if (!parse_filter (arg, &q->filters[q->nfilters++]))
    return usage_error (cmd, "--where wants DIM=VALUE or DIM!=VALUE, not '%s'",
                        arg);
  return check_dim (cmd, q->filters[q->nfilters - 1].dim);
}

int
query_set_unit (const char *cmd, char *arg, void *p)
{
  struct query *q = p;
  if (!text_unit_pick (arg, 0))
    return usage_error (cmd, "--unit must be ns, us, ms or s, not '%s'", arg);
  q->unit = arg;
  return 0;
}

int
query_set_top (const char *cmd, char *arg, void *p)
{
  struct query *q = p;
  char *end;
  errno = 0;
  q->top = strtol (arg, &end, 10);
  if (errno || *end || q->top <= 0)
    return usage_error (cmd, "--top wants a positive number, not '%s'", arg);
  return 0;
}

int
query_set_sum (const char *cmd, char *arg, void *p)
{
  struct query *q = p;
  if (!*arg)
    return usage_error (cmd, "--sum wants a dimension name");
  if (check_dim (cmd, arg))
    return EXIT_USAGE;
  q->sums[q->nsums++] = arg;
  return 0;
}

int
query_set_deduced (const char *cmd, char *arg, void *unused)
{
  (void) cmd, (void) arg, (void) unused;
  agg_costs_deduced ();
  return 0;
}
