__attribute__ ((dsprof_event (42))) int eval (int depth) { return depth; }
