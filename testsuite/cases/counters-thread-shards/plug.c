/* plug.c - a library loaded with dlopen while threads run.  */
static volatile long plug_sink;

static __attribute__ ((noinline)) void
plug_bump (long i)
{
  plug_sink += i; /* PLUG */
}

long
plug_work (long n)
{
  for (long i = 0; i < n; i++)
    plug_bump (i);
  return plug_sink;
}
