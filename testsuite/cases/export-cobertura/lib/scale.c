/* scale.c - the export-cobertura program's other directory: a loop's branch
   taken both ways, an if's taken one way.  */
int
scale (int x)
{
  int s = 0;
  for (int i = 0; i < 3; i++)
    s += x;
  if (s < 0)
    s = -s;
  return s;
}
