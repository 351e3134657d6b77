/*
 * fuzz_report_input.c — fuzz_report's input (fuzz_report_int.h): numbers
 * from its back, edges and extremes among them, and C strings of any
 * bytes from its front; and fr_fail (fuzz_report.h), which every part
 * calls.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report_int.h"

void
fr_fail(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	dprintf(2, "fuzz_report: ");
	vdprintf(2, fmt, ap);
	dprintf(2, "\n");
	va_end(ap);
	abort();
}

void *
fr_alloc(fr_in *in, size_t size)
{
	void	   *m = calloc(1, size > 0 ? size : 1);

	if (m == NULL || in->nowned == FR_MAX_OWNED)
		fr_fail("out of memory or of owned slots");
	in->owned[in->nowned++] = m;
	return m;
}

/* The next n (at most 8) bytes from the back, big-endian; 0 when none. */
uint64_t
take(fr_in *in, int n)
{
	uint64_t	v = 0;

	for (int i = 0; i < n && in->q > in->p; i++)
		v = v << 8 | *--in->q;
	return v;
}

int64_t
take_i64(fr_in *in)
{
	static const int64_t edges[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT32_MAX,
	(int64_t) INT32_MAX + 1, INT64_C(1) << 53, (INT64_C(1) << 53) + 1, INT64_MAX};

	switch (take(in, 1) % 4)
	{
		case 0:
			return (int8_t) take(in, 1);
		case 1:
			return edges[take(in, 1) % PGB_LENGTHOF(edges)];
		case 2:
			return (int32_t) take(in, 4);
		default:
			return (int64_t) take(in, 8);
	}
}

/* An int: take_i64's, beyond the int range its nearest end. */
int
take_int(fr_in *in)
{
	int64_t		v = take_i64(in);

	return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int) v;
}

/* Any double, NaN and infinities included. */
double
take_double(fr_in *in)
{
	static const double edges[] = {0.0, -0.0, 0.1, 0.5, 1e-300, 4.9406564584124654e-324,
		2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993.0, 99.99999,
		123456.7890123456789, 1.0000000000000002, 0.30000000000000004, 1e15 + 0.3,
	1e21, -1e-7, INFINITY, -INFINITY, NAN};
	uint64_t	bits;
	double		d;

	switch (take(in, 1) % 6)
	{
		case 0:
			return (int8_t) take(in, 1);
		case 1:
			return edges[take(in, 1) % PGB_LENGTHOF(edges)];
		case 2:
			return (double) take_i64(in) / pow(10.0, (double) (take(in, 1) % 24));
		case 3:
			return (double) (int32_t) take(in, 4) / 1000.0;
		case 4:
			return ldexp((double) take(in, 7), (int) (take(in, 2) % 2200) - 1100);
		default:
			bits = take(in, 8);
			memcpy(&d, &bits, sizeof(d));
			return d;
	}
}

/* A double the program computes as a measured figure (see the top). */
double
take_measured(fr_in *in)
{
	double		d = take_double(in);

	return isfinite(d) && fabs(d) > FR_MEASURED_MAX ? fmod(d, FR_MEASURED_MAX) : d;
}

/*
 * A measured figure the program never leaves NaN or infinite (a reading,
 * a difference of two, a sum of measurements, a share of a total that
 * cannot be 0): take_measured's, 0 for a non-finite one, so that the
 * same input bytes give the same figure otherwise.  The schema declares
 * these members never null (report_schema.h): NaN there would be an
 * input no run makes, which the schema check would refuse.
 */
double
take_reading(fr_in *in)
{
	double		d = take_measured(in);

	return isfinite(d) ? d : 0.0;
}

/* A double the program keeps exact (sums): any finite one. */
double
take_finite(fr_in *in)
{
	double		d = take_double(in);

	return isfinite(d) ? d : 0.0;
}

bool
take_bool(fr_in *in)
{
	return take(in, 1) & 1;
}

/* The next C string from the front, at most max bytes (NUL ends it). */
char *
take_str(fr_in *in, size_t max)
{
	size_t		avail = (size_t) (in->q - in->p);
	const uint8_t *nul = memchr(in->p, '\0', avail);
	size_t		len = nul != NULL ? (size_t) (nul - in->p) : avail;
	char	   *s;

	if (len > max)
		len = max;
	s = fr_alloc(in, len + 1);
	memcpy(s, in->p, len);
	in->p += len;
	if (in->p < in->q && *in->p == '\0')
		in->p++;
	return s;
}

/* A string into a char array of the figures (as take_str, not owned). */
void
take_into(fr_in *in, char *buf, size_t size)
{
	size_t		avail = (size_t) (in->q - in->p);
	const uint8_t *nul = memchr(in->p, '\0', avail);
	size_t		len = nul != NULL ? (size_t) (nul - in->p) : avail;

	if (len > size - 1)
		len = size - 1;
	memcpy(buf, in->p, len);
	buf[len] = '\0';
	in->p += len;
	if (in->p < in->q && *in->p == '\0')
		in->p++;
}
