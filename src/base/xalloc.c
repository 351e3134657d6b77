/*
 * xalloc.c — start-up allocation that stops the process with pgbench's
 * message when memory runs out (see xalloc.h for who may call it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"

static void *
checked(void *ptr)
{
	if (ptr == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(EXIT_FAILURE);
	}
	return ptr;
}

void *
pgb_malloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *
pgb_calloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *
pgb_realloc(void *ptr, size_t size)
{
	return checked(realloc(ptr, size ? size : 1));
}

char *
pgb_strdup(const char *s)
{
	return checked(strdup(s));
}

char *
pgb_strndup(const char *s, size_t len)
{
	char	   *copy = pgb_malloc(len + 1);

	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

char *
pgb_vasprintf(const char *fmt, va_list ap)
{
	va_list		again;
	int			len;
	char	   *text;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (len < 0)
		len = 0;
	text = pgb_malloc((size_t) len + 1);
	if (vsnprintf(text, (size_t) len + 1, fmt, ap) < 0)
		*text = '\0';
	return text;
}

void
pgb_fatal_internal(const char *where, const char *what)
{
	diag_error("internal error in %s: %s", where, what);
	exit(EXIT_FAILURE);
}
