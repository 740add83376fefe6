int eval (int depth) __attribute__ ((dsprof_event (Eval)));
int eval (int depth) { return depth; }
