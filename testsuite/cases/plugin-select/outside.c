/* outside.c - plugin-select: a function outside the program (built without
   the plugin) that does not return when CODE is not 0.  */
#include <setjmp.h>
extern jmp_buf back;
int
risky (int code)
{
  if (code)
    longjmp (back, code);
  return 1;
}
