/*
 * tap.c — TAP output for the C unit tests: numbered results, the plan at
 * the end, a non-zero exit when anything failed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static int	tap_count;
static int	tap_failed;

static bool
tap_vok(bool ok, const char *fmt, va_list ap)
{
	char		name[1024];

	tap_count++;
	if (!ok)
		tap_failed++;
	/* a name is one TAP line: a newline in it is shown as \n */
	vsnprintf(name, sizeof(name), fmt, ap);
	printf("%sok %d - ", ok ? "" : "not ", tap_count);
	for (const char *c = name; *c; c++)
		if (*c == '\n')
			fputs("\\n", stdout);
		else
			putchar(*c);
	putchar('\n');
	fflush(stdout);
	return ok;
}

bool
tap_ok(bool ok, const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	ok = tap_vok(ok, fmt, ap);
	va_end(ap);
	return ok;
}

void
tap_diag(const char *fmt, ...)
{
	va_list		ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

bool
tap_is_int(int64_t got, int64_t expected, const char *name)
{
	if (!tap_ok(got == expected, "%s", name))
	{
		tap_diag("     got: %lld", (long long) got);
		tap_diag("expected: %lld", (long long) expected);
		return false;
	}
	return true;
}

bool
tap_is_str(const char *got, const char *expected, const char *name)
{
	bool		same = (got == NULL && expected == NULL) ||
		(got != NULL && expected != NULL && strcmp(got, expected) == 0);

	if (!tap_ok(same, "%s", name))
	{
		tap_diag("     got: %s", got ? got : "(null)");
		tap_diag("expected: %s", expected ? expected : "(null)");
		return false;
	}
	return true;
}

bool
tap_is_double(double got, double expected, double tolerance, const char *name)
{
	if (!tap_ok(fabs(got - expected) <= tolerance, "%s", name))
	{
		tap_diag("     got: %.17g", got);
		tap_diag("expected: %.17g", expected);
		return false;
	}
	return true;
}

int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed == 0 && tap_count > 0 ? 0 : 1;
}

static int	saved_stderr = -1;
static FILE *caught;

void
tap_stderr_catch(void)
{
	fflush(stderr);
	caught = tmpfile();
	saved_stderr = dup(STDERR_FILENO);
	if (caught == NULL || saved_stderr < 0 || dup2(fileno(caught), STDERR_FILENO) < 0)
	{
		perror("tap_stderr_catch");
		exit(1);
	}
}

long
tap_stderr_release(char *buf, size_t len)
{
	long		n;

	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	n = (long) lseek(fileno(caught), 0, SEEK_END);
	if (buf != NULL && len > 0)
	{
		size_t		got;

		rewind(caught);
		got = fread(buf, 1, len - 1, caught);
		buf[got] = '\0';
	}
	fclose(caught);
	caught = NULL;
	return n;
}

char *
tap_read_source(const char *dir, const char *name, size_t *len)
{
	char		path[1024];
	FILE	   *in;
	char	   *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((in = fopen(path, "r")) == NULL)
		return NULL;
	if ((text = malloc(1 << 20)) == NULL)
	{
		fclose(in);
		return NULL;
	}
	*len = fread(text, 1, (1 << 20) - 1, in);
	text[*len] = '\0';
	fclose(in);
	return text;
}
