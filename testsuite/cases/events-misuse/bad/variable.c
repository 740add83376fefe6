int counter __attribute__ ((dsprof_event));
