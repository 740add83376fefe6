/* exit.h - the exit codes of dsprof (docs/contract.md §5): 0 success, 1 usage
   error, 2 unreadable or corrupt input (or unwritable output), always with a
   message naming the file and the problem.  */

#ifndef DSPROF_EXIT_H
#define DSPROF_EXIT_H

enum { EXIT_USAGE = 1, EXIT_DATA = 2 };

#endif /* DSPROF_EXIT_H */
