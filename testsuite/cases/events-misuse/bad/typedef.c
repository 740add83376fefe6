typedef int handle __attribute__ ((dsprof_event));
