/* strings.c - string dimensions the report's renderers must escape and cut:
   values longer than the recorder keeps (two 200-byte statements that differ
   only after byte 64), UTF-8 text with multi-byte characters across the cut,
   bytes that are not UTF-8, quotes, backslashes, commas, '=', blanks, tabs and
   newlines, an empty string and NULL; each through an annotated function and
   as a dimension added while it runs.  */

#include <stdio.h>
#include <string.h>

#include <dsprof.h>

DSPROF_EVENT_TYPE ("Stmt") int
statement (const char *sql, int rows)
{
  dsprof_dim_str ("echo", sql);
  return rows * 2;
}

int
main (void)
{
  char a[201], b[201];
  static const char *texts[] = {
    "",
    "plain",
    "with blank, comma = and \"quotes\" \\ backslash",
    "tab\there\nnewline",
    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 na\xc3\xafve",
    "bad \xff\xfe bytes \xc3 cut",
    "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
    "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
    "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
    "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac",
    NULL,
  };
  int sum = 0;
  memset (a, 'x', 200);
  memset (b, 'x', 200);
  a[200] = b[200] = 0;
  memcpy (a + 150, "SELECT a", 8);
  memcpy (b + 150, "SELECT b", 8);
  sum += statement (a, 1);
  sum += statement (b, 2);
  sum += statement (a, 3);
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
    sum += statement (texts[i], (int) i);
  printf ("%d\n", sum);
  return 0;
}
