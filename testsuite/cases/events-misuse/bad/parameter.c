int eval (int depth __attribute__ ((dsprof_event))) { return depth; }
