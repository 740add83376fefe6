#!/usr/bin/env bash
# gen.sh N FORKS - writes a program of N units into the current directory:
# u0.c ... u<N-1>.c, one function each, and main.c, which forks FORKS children
# in turn (child k calls the function of unit k mod N, and kills itself with SIGKILL
# if k is odd), prints each child's pid, then calls every unit's function.
# Used by runtime-fork-cost and by scripts/bench.sh's fork_cost.
set -eu
n=$1 forks=$2
for ((i = 0; i < n; i++)); do
  echo "int f$i (int x) { return x + $i; }" >"u$i.c"
done
{
  for ((i = 0; i < n; i++)); do echo "int f$i (int);"; done
  echo '#include <signal.h>'
  echo '#include <stdio.h>'
  echo '#include <sys/wait.h>'
  echo '#include <unistd.h>'
  echo 'static int (*const f[]) (int) = {'
  for ((i = 0; i < n; i++)); do echo "f$i,"; done
  echo '};'
  cat <<EOC
int
main (void)
{
  unsigned s = 0;
  for (int k = 0; k < $forks; k++)
    {
      pid_t pid = fork ();
      if (pid < 0)
        return 1;
      if (pid == 0)
        {
          s += f[k % $n] (k);
          if (k % 2)
            kill (getpid (), SIGKILL);
          _exit (s == 1u << 31);
        }
      waitpid (pid, NULL, 0);
      printf ("%d\n", (int) pid);
    }
  for (int i = 0; i < $n; i++)
    s += (unsigned) f[i] ((int) (s % 1000));
  return s == 1u << 31;
}
EOC
} >main.c
