/* summary.c - `dsprof summary`: the coverage figures of the line counts
   model (coverage.h, lcov's) per function, per source file and in total, as
   text, CSV or JSON.  */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libiberty.h"
#include "coverage.h"
#include "lines.h"
#include "text.h"

/* The figures are coverage.h's, lcov's.  */

/* One row of the summary: a function (NAME and LINE), a source (NAME NULL) or
   the totals (FILE NULL).  */

struct sum_row
{
  const char *file, *name;
  uint32_t line;
  uint64_t calls;
  struct cov_row cov;
};

/* The rows of M: by source path, each source's functions by line then name
   and the source itself, then the totals.  Return how many; free *ROWS.  */

static size_t
summary_rows (const struct lc_model *m, struct sum_row **rows)
{
  struct lc_source **v = cov_sorted_sources (m);
  size_t n = 0, max = 1;
  for (size_t i = 0; i < m->nsources; i++)
    max += v[i]->nfuncs + 1;
  struct sum_row *r = XCNEWVEC (struct sum_row, max);
  struct cov_row total = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 },
                           { 0, 0 } };
  for (size_t i = 0; i < m->nsources; i++)
    {
      const struct lc_source *s = v[i];
      for (uint32_t k = 0; k < s->nfuncs; k++)
        r[n++] = (struct sum_row) { s->path, s->funcs[k].name, s->funcs[k].line,
                                    s->funcs[k].count, cov_func (&s->funcs[k]) };
      r[n] = (struct sum_row) { s->path, NULL, 0, 0, cov_source (s) };
      cov_add (&total, &r[n++].cov);
    }
  r[n++] = (struct sum_row) { NULL, NULL, 0, 0, total };
  free (v);
  *rows = r;
  return n;
}

/* The name of row R in the text table: FILE:LINE NAME, FILE, or "total".  */

static char *
row_where (const struct sum_row *r)
{
  if (!r->file)
    return xstrdup ("total");
  if (!r->name)
    return xstrdup (r->file);
  char line[16];
  snprintf (line, sizeof line, "%u", r->line);
  return concat (r->file, ":", line, " ", r->name, NULL);
}

static void
summary_text_rows (const struct sum_row *r, size_t n, FILE *out)
{
  char buf[64];
  static const char *const head[5] = { "LINES", "BLOCKS", "FUNCTIONS",
                                       "BR-EXEC", "BR-TAKEN" };
  int w[5];
  for (int k = 0; k < 5; k++)
    w[k] = (int) strlen (head[k]);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov *c[5] = { &r[i].cov.lines, &r[i].cov.blocks,
                                 &r[i].cov.funcs, &r[i].cov.br_exec,
                                 &r[i].cov.br_taken };
      for (int k = 0; k < 5; k++)
        {
          int len = (int) strlen (cov_text (buf, sizeof buf, *c[k]));
          w[k] = len > w[k] ? len : w[k];
        }
    }
  for (int k = 0; k < 5; k++)
    fprintf (out, "%*s  ", w[k], head[k]);
  fputs ("WHERE\n", out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov *c[5] = { &r[i].cov.lines, &r[i].cov.blocks,
                                 &r[i].cov.funcs, &r[i].cov.br_exec,
                                 &r[i].cov.br_taken };
      for (int k = 0; k < 5; k++)
        fprintf (out, "%*s  ", w[k], cov_text (buf, sizeof buf, *c[k]));
      char *where = row_where (&r[i]);
      fprintf (out, "%s\n", text_shown (where));
      free (where);
    }
}

static const char *
row_kind (const struct sum_row *r)
{
  return !r->file ? "total" : !r->name ? "file" : "function";
}

static void
summary_csv_rows (const struct sum_row *r, size_t n, FILE *out)
{
  fputs ("kind,file,function,line,calls,lines_hit,lines,blocks_hit,blocks,"
         "functions_hit,functions,branches_executed,branches_taken,branches\n",
         out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov_row *c = &r[i].cov;
      fprintf (out, "%s,", row_kind (&r[i]));
      text_csv (out, r[i].file ? r[i].file : "");
      fputc (',', out);
      text_csv (out, r[i].name ? r[i].name : "");
      if (r[i].name)
        fprintf (out, ",%u,%" PRIu64, r[i].line, r[i].calls);
      else
        fputs (",,", out);
      fprintf (out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               c->lines.hit, c->lines.total, c->blocks.hit, c->blocks.total,
               c->funcs.hit, c->funcs.total, c->br_exec.hit, c->br_taken.hit,
               c->br_taken.total);
    }
}

static void
summary_json_rows (const struct sum_row *r, size_t n, FILE *out)
{
  fputs ("[", out);
  for (size_t i = 0; i < n; i++)
    {
      const struct cov_row *c = &r[i].cov;
      fprintf (out, "%s\n  {\"kind\": \"%s\"", i ? "," : "", row_kind (&r[i]));
      if (r[i].file)
        {
          fputs (", \"file\": ", out);
          text_json (out, r[i].file);
        }
      if (r[i].name)
        {
          fputs (", \"function\": ", out);
          text_json (out, r[i].name);
          fprintf (out, ", \"line\": %u, \"calls\": %" PRIu64, r[i].line,
                   r[i].calls);
        }
      fprintf (out, ", \"lines_hit\": %" PRIu64 ", \"lines\": %" PRIu64
               ", \"blocks_hit\": %" PRIu64 ", \"blocks\": %" PRIu64
               ", \"functions_hit\": %" PRIu64 ", \"functions\": %" PRIu64
               ", \"branches_executed\": %" PRIu64 ", \"branches_taken\": %"
               PRIu64 ", \"branches\": %" PRIu64 "}",
               c->lines.hit, c->lines.total, c->blocks.hit, c->blocks.total,
               c->funcs.hit, c->funcs.total, c->br_exec.hit, c->br_taken.hit,
               c->br_taken.total);
    }
  fputs ("\n]\n", out);
}

/* Summary of M by RENDER.  */

static void
summary_of (const struct lc_model *m, FILE *out,
            void (*render) (const struct sum_row *r, size_t n, FILE *out))
{
  struct sum_row *rows;
  size_t n = summary_rows (m, &rows);
  render (rows, n, out);
  free (rows);
}

void
summary_text (const struct lc_model *m, FILE *out)
{
  summary_of (m, out, summary_text_rows);
}

void
summary_csv (const struct lc_model *m, FILE *out)
{
  summary_of (m, out, summary_csv_rows);
}

void
summary_json (const struct lc_model *m, FILE *out)
{
  summary_of (m, out, summary_json_rows);
}
