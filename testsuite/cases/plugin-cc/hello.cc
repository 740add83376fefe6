// hello.cc - plugin-cc's C++ program for dsprof-c++: a template, a virtual
// call, an exception caught.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

struct shape { virtual int area (int x) const { return x * x; } virtual ~shape () {} };
template <class T> T add (T a, T b) { return a + b; }

int
main (int argc, char **)
{
  std::vector<std::string> v;
  shape s;
  int total = 0;
  for (int i = 0; i < 5; i++)
    v.push_back (std::to_string (i));
  try
    {
      for (const auto &x : v)
        total = add (total, s.area ((int) x.size ()));
      if (argc < 5)
        throw std::runtime_error ("done");
    }
  catch (const std::exception &e)
    {
      total += 100;
    }
  std::printf ("%d\n", total);
  return 0;
}
