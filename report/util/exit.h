/* exit.h - the exit codes of dsprof (docs/contract.md §5): 0 success, 1 usage
   error, 2 unreadable or corrupt input (or unwritable output), always with a
   message naming the file and the problem; and the usage error's message.  */

#ifndef DSPROF_EXIT_H
#define DSPROF_EXIT_H

enum { EXIT_USAGE = 1, EXIT_DATA = 2 };

/* Print "dsprof CMD: message" and a hint to --help; return EXIT_USAGE.  */
int usage_error (const char *cmd, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

#endif /* DSPROF_EXIT_H */
