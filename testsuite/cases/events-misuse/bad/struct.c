struct node { int kind; } __attribute__ ((dsprof_event));
