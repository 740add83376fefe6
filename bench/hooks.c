/* hooks.c - empty -finstrument-functions hooks for events.c (compiled without
   -finstrument-functions): the baseline cost of a call into an entry and an
   exit hook that do nothing.  */

void __cyg_profile_func_enter (void *fn, void *site)
  __attribute__ ((noipa, no_instrument_function));
void __cyg_profile_func_exit (void *fn, void *site)
  __attribute__ ((noipa, no_instrument_function));

void
__cyg_profile_func_enter (void *fn, void *site)
{
  (void) fn;
  (void) site;
}

void
__cyg_profile_func_exit (void *fn, void *site)
{
  (void) fn;
  (void) site;
}
