/*
 * utf8.c — well-formed UTF-8 and U+FFFD for the rest (utf8.h).
 */
#include <string.h>

#include "pgbench/base/utf8.h"

/*
 * The second byte's range after each lead byte (table 3-7); every later
 * byte is 80..BF.  A lead of 0 length cannot start a sequence.
 */
static void
lead_of(unsigned char c, int *len, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		*len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
	{
		*len = 3;
		if (c == 0xE0)
			*lo = 0xA0;			/* below: overlong */
		else if (c == 0xED)
			*hi = 0x9F;			/* above: U+D800..DFFF, surrogates */
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		*len = 4;
		if (c == 0xF0)
			*lo = 0x90;			/* below: overlong */
		else if (c == 0xF4)
			*hi = 0x8F;			/* above: past U+10FFFF */
	}
	else
		*len = 0;				/* 80..BF continuation, C0 C1 overlong, F5..FF */
}

int
utf8_next(const unsigned char *s, size_t n)
{
	int			len;
	unsigned char lo,
				hi;

	if (s[0] < 0x80)
		return 1;
	lead_of(s[0], &len, &lo, &hi);
	if (len == 0)
		return -1;
	for (int i = 1; i < len; i++)
	{
		if ((size_t) i >= n || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xBF;
	}
	return len;
}

bool
utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *) s;

	for (size_t i = 0; i < n;)
	{
		int			k = utf8_next(p + i, n - i);

		if (k < 0)
			return false;
		i += (size_t) k;
	}
	return true;
}

size_t
utf8_sanitize(char *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		o = 0;

	for (size_t i = 0; i < n;)
	{
		int			k = utf8_next(p + i, n - i);

		if (k > 0)
		{
			memcpy(out + o, s + i, (size_t) k);
			o += (size_t) k;
			i += (size_t) k;
		}
		else
		{
			memcpy(out + o, UTF8_REPLACEMENT, 3);
			o += 3;
			i += (size_t) -k;
		}
	}
	out[o] = '\0';
	return o;
}

void
utf8_mask_controls(char *s)
{
	for (char *p = s; *p != '\0'; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			*p = '?';
}
