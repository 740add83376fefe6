static const char *const type = "Eval";
__attribute__ ((dsprof_event (type))) int eval (int depth) { return depth; }
