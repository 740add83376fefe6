/* main.c - the CUnit registry of dsprof's unit tests: each module's
   <module>_test.c registers its suite here.  Exit status: number of failures.  */

#include <CUnit/Basic.h>
#include <stdio.h>

void runtime_test_register (void);
void cost_test_register (void);
void report_test_register (void);
void flow_test_register (void);
void text_test_register (void);
void codec_test_register (void);
void linecount_test_register (void);
void intmap_test_register (void);
void stacks_test_register (void);
void pb_test_register (void);
void opt_test_register (void);
void callgraph_test_register (void);

int
main (void)
{
  if (CU_initialize_registry () != CUE_SUCCESS)
    {
      fprintf (stderr, "run-unit: %s\n", CU_get_error_msg ());
      return 1;
    }
  runtime_test_register ();
  cost_test_register ();
  report_test_register ();
  flow_test_register ();
  text_test_register ();
  codec_test_register ();
  linecount_test_register ();
  intmap_test_register ();
  stacks_test_register ();
  pb_test_register ();
  opt_test_register ();
  callgraph_test_register ();
  CU_basic_set_mode (CU_BRM_VERBOSE);
  CU_basic_run_tests ();
  unsigned failures = CU_get_number_of_failures ();
  CU_cleanup_registry ();
  return failures ? 1 : 0;
}
