__attribute__ ((dsprof_event ("Eval", "More"))) int eval (int depth) { return depth; }
