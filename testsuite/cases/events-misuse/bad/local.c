int eval (int depth) { static int seen __attribute__ ((dsprof_event)); return seen + depth; }
