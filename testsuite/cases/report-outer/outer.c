/* outer.c - a bytecode VM's records for report-outer: statements (event type
   stmt, dimension stmt holding their SQL) run opcodes (event type op,
   dimension opcode, and bytes, the memory an opcode asks for), at known counts:

     init                      op in two blocks: no enclosing stmt
     SELECT a   x2             push 8, push 8, add, sort whose bytes is the
                               double 1.25
     INSERT b                  push 16, store 100, a block (no stmt) around
                               a store 50 and a note whose bytes is a string
     SELECT c                  push 4 and a nested stmt SELECT d, whose load
                               32 has SELECT d as its nearest stmt
     DELETE e                  a block around a drop and a flag whose bytes
                               is the bool true

   The report's outer:stmt and --sum bytes figures follow from these alone.  */

#include <dsprof.h>

/* An opcode's record, open: its caller may add a bytes and must finish it.  */

static dsprof_id
op_start (const char *name)
{
  dsprof_id id = dsprof_start ("op");
  dsprof_dim_str ("opcode", name);
  return id;
}

/* An opcode asking for BYTES (-1: none).  */

static void
op (const char *name, long long bytes)
{
  dsprof_id id = op_start (name);
  if (bytes >= 0)
    dsprof_dim_int ("bytes", bytes);
  dsprof_finish (id);
}

static dsprof_id
stmt (const char *sql)
{
  dsprof_id id = dsprof_start ("stmt");
  dsprof_dim_str ("stmt", sql);
  return id;
}

int
main (void)
{
  /* The decoder reuses the records of these blocks for the later ones, in
     statements: what was learnt about the first ones must not stick.  */
  dsprof_id block = dsprof_start ("block");
  dsprof_id block2 = dsprof_start ("block");
  op ("init", -1);
  dsprof_finish (block2);
  dsprof_finish (block);
  for (int i = 0; i < 2; i++)
    {
      dsprof_id s = stmt ("SELECT a");
      op ("push", 8);
      op ("push", 8);
      op ("add", -1);
      dsprof_id sort = op_start ("sort");
      dsprof_dim_double ("bytes", 1.25);
      dsprof_finish (sort);
      dsprof_finish (s);
    }

  dsprof_id s = stmt ("INSERT b");
  op ("push", 16);
  op ("store", 100);
  block = dsprof_start ("block");
  op ("store", 50);
  dsprof_id note = op_start ("note");
  dsprof_dim_str ("bytes", "many");
  dsprof_finish (note);
  dsprof_finish (block);
  dsprof_finish (s);

  s = stmt ("SELECT c");
  op ("push", 4);
  dsprof_id inner = stmt ("SELECT d");
  op ("load", 32);
  dsprof_finish (inner);
  dsprof_finish (s);

  s = stmt ("DELETE e");
  block = dsprof_start ("block");
  op ("drop", -1);
  dsprof_id flag = op_start ("flag");
  dsprof_dim_bool ("bytes", 1);
  dsprof_finish (flag);
  dsprof_finish (block);
  dsprof_finish (s);

  return 0;
}
