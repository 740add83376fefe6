/* render.c - one annotated function per rendering rule of docs/contract.md §4.2, each called
   once from main, in order.  Every definition sits on one line that ends in a
   marker comment, so test.sh can find the line the profile must name.  main
   prints the addresses the profile must show, as "ADDR name 0x...".  */

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dsprof.h>

enum colour { RED, GREEN, BLUE };
enum sign { NEG = -1, ZERO = 0, POS = 1 };
struct point { int x, y; };
union word { int i; float f; };
struct wrapped { int a[4]; };
typedef enum colour colour_t;

/* strings changes its text: the profile keeps the text at entry.  */

/* Integers of every width, signed and unsigned, at their limits.  */
DSPROF_EVENT void ints (signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, long l, unsigned long ul, long long ll, unsigned long long ull) { (void) sc, (void) uc, (void) s, (void) us, (void) i, (void) u, (void) l, (void) ul, (void) ll, (void) ull; } /* @ints */
DSPROF_EVENT void small (char c, int8_t i8, uint8_t u8, int16_t i16, uint16_t u16, int32_t i32, uint32_t u32, int64_t i64, uint64_t u64) { (void) c, (void) i8, (void) u8, (void) i16, (void) u16, (void) i32, (void) u32, (void) i64, (void) u64; } /* @small */
DSPROF_EVENT void bools (_Bool t, _Bool f) { (void) t, (void) f; } /* @bools */
DSPROF_EVENT void enums (enum colour c, enum colour unknown, enum sign neg, enum sign sunknown) { (void) c, (void) unknown, (void) neg, (void) sunknown; } /* @enums */
DSPROF_EVENT void floats (float f, double d, double big, double tiny, double frac, long double ld, double negzero) { (void) f, (void) d, (void) big, (void) tiny, (void) frac, (void) ld, (void) negzero; } /* @floats */
DSPROF_EVENT void strings (char *p, const char *cp, signed char *sp, unsigned char *up, const unsigned char *cup, const char *null) { p[0] = 'P'; (void) cp, (void) sp, (void) up, (void) cup, (void) null; } /* @strings */
DSPROF_EVENT void lengths (const char *s63, const char *s64, const char *s65, const char *s100) { (void) s63, (void) s64, (void) s65, (void) s100; } /* @lengths */
DSPROF_EVENT void quoting (const char *empty, const char *space, const char *quote, const char *equals, const char *backslash, const char *newline, const char *tab, const char *ctrl) { (void) empty, (void) space, (void) quote, (void) equals, (void) backslash, (void) newline, (void) tab, (void) ctrl; } /* @quoting */
DSPROF_EVENT void pointers (int *ip, void *vp, struct point *sp, int arr[4], void (*fn) (void)) { (void) ip, (void) vp, (void) sp, (void) arr, (void) fn; } /* @pointers */
DSPROF_EVENT void formatted (struct point *pt, struct point *other, struct point *long_pt, struct point *exact_pt, struct point *null_pt) { (void) pt, (void) other, (void) long_pt, (void) exact_pt, (void) null_pt; } /* @formatted */
DSPROF_EVENT void aggregates (int before, struct point p, union word w, struct wrapped a, int after) { (void) before, (void) p, (void) w, (void) a, (void) after; } /* @aggregates */
DSPROF_EVENT int r_int (void) { return -7; } /* @r_int */
DSPROF_EVENT unsigned long long r_ull (void) { return ULLONG_MAX; } /* @r_ull */
DSPROF_EVENT _Bool r_bool (void) { return 1; } /* @r_bool */
DSPROF_EVENT enum sign r_enum (void) { return NEG; } /* @r_enum */
DSPROF_EVENT double r_double (void) { return 0.25; } /* @r_double */
DSPROF_EVENT const char *r_str (void) { return "done"; } /* @r_str */
DSPROF_EVENT const char *r_null (void) { return NULL; } /* @r_null */
DSPROF_EVENT struct point r_struct (void) { struct point p = { 1, 2 }; return p; } /* @r_struct */
DSPROF_EVENT void r_void (void) { } /* @r_void */
DSPROF_EVENT_TYPE ("Custom") short typed (short n) { return (short) (n * 2); } /* @typed */
DSPROF_EVENT void qualified (const int ci, volatile unsigned vu, const char *const ccs, char *restrict rs, size_t sz, colour_t te, const _Bool cb, char chars[16]) { (void) ci, (void) vu, (void) ccs, (void) rs, (void) sz, (void) te, (void) cb, (void) chars; } /* @qualified */

/* Dimensions added by hand, in the order added; a clash with a parameter keeps
   the parameter's (Start's) value.  */
DSPROF_EVENT void added (int n, struct point *pt) { dsprof_dim_int ("di", -42); dsprof_dim_uint ("du", ULLONG_MAX); dsprof_dim_double ("dd", 2.5); dsprof_dim_bool ("db", 7); dsprof_dim_bool ("dz", 0); dsprof_dim_str ("ds", "two words"); dsprof_dim_str ("dn", NULL); dsprof_dim_ptr ("dp", pt); dsprof_dim_ptr ("fp", pt); dsprof_dim_int ("n", 99); } /* @added */

static size_t
show_point (const void *p, char *buf, size_t size)
{
  const struct point *pt = p;
  return (size_t) snprintf (buf, size, "Point(%d,%d)", pt->x, pt->y);
}

/* Text longer than 64 bytes: 'L' * 100.  */
static size_t
show_long (const void *p, char *buf, size_t size)
{
  (void) p;
  char text[101];
  memset (text, 'L', 100);
  text[100] = '\0';
  return (size_t) snprintf (buf, size, "%s", text);
}

/* Text of exactly 64 bytes: 'E' * 64.  */
static size_t
show_exact (const void *p, char *buf, size_t size)
{
  (void) p;
  char text[65];
  memset (text, 'E', 64);
  text[64] = '\0';
  return (size_t) snprintf (buf, size, "%s", text);
}

static void target (void) { }

static char *
repeat (char *buf, char c, int n)
{
  memset (buf, c, n);
  buf[n] = '\0';
  return buf;
}

int
main (void)
{
  dsprof_set_formatter ("pt", show_point);
  dsprof_set_formatter ("long_pt", show_long);
  dsprof_set_formatter ("exact_pt", show_exact);
  dsprof_set_formatter ("null_pt", show_point);
  dsprof_set_formatter ("fp", show_point);

  ints (SCHAR_MIN, UCHAR_MAX, SHRT_MIN, USHRT_MAX, INT_MIN, UINT_MAX, LONG_MIN,
        ULONG_MAX, LLONG_MIN, ULLONG_MAX);
  small ('A', -1, 200, -300, 60000, -70000, 4000000000u, -5, 5);
  bools (1, 0);
  enums (BLUE, (enum colour) 7, NEG, (enum sign) -3);
  floats (1.5f, 0.1, 1e100, 1e-5, 123456789.0, 2.5L, -0.0);

  char p[] = "plain", sp[] = "signed", up[] = "unsigned";
  strings (p, "const", (signed char *) sp, (unsigned char *) up,
           (const unsigned char *) "const-unsigned", NULL);

  char s63[64], s64[65], s65[66], s100[101];
  lengths (repeat (s63, 'a', 63), repeat (s64, 'b', 64), repeat (s65, 'c', 65),
           repeat (s100, 'd', 100));
  quoting ("", "a b", "say\"hi\"", "k=v", "back\\slash", "two\nlines", "a\tb",
           "bell\x01");

  int x = 1, arr[4] = { 0 };
  struct point origin = { 0, 0 }, pt = { 3, -4 };
  pointers (&x, &origin, &origin, arr, target);
  printf ("ADDR ip %p\nADDR vp %p\nADDR arr %p\nADDR fn %p\n", (void *) &x,
          (void *) &origin, (void *) arr, (void *) (uintptr_t) target);
  formatted (&pt, &origin, &pt, &pt, NULL);

  union word w = { 5 };
  struct wrapped a = { { 1, 2, 3, 4 } };
  aggregates (10, pt, w, a, 20);

  r_int ();
  r_ull ();
  r_bool ();
  r_enum ();
  r_double ();
  r_str ();
  r_null ();
  r_struct ();
  r_void ();
  short (*volatile through) (short) = typed;   /* a call through a pointer */
  through (21);
  char rs[] = "restrict", chars[16] = "array";
  qualified (-3, 7, "text", rs, sizeof (struct point) + 4, GREEN, 1, chars);
  added (5, &pt);
  printf ("ADDR dp %p\n", (void *) &pt);
  return 0;
}
