/*
 * diag.c — pgbench-style messages on stderr, with PG_COLOR support.
 *
 * Each message is assembled in a local buffer and written with one call so
 * that lines from concurrent threads stay whole.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/base/diag.h"

static const char *diag_progname = "pgbench";
static bool diag_verbose = false;

/* The first error's message (without prefix, label or newline), once. */
static atomic_flag first_error_claimed = ATOMIC_FLAG_INIT;
static atomic_bool first_error_ready;
static char first_error[1024];

/* SGR sequences; NULL when colour is off. */
static const char *sgr_error;
static const char *sgr_warning;
static const char *sgr_note;
static const char *sgr_locus;

/* Storage for sequences parsed from PG_COLORS. */
static char sgr_buffer[4][32];

static void
diag_parse_colors(const char *spec)
{
	/* PG_COLORS is "error=01;31:warning=01;35:note=01;36:locus=01". */
	static const char *const names[4] = {"error", "warning", "note", "locus"};
	const char **targets[4] = {&sgr_error, &sgr_warning, &sgr_note, &sgr_locus};
	const char *p = spec;

	while (*p)
	{
		const char *end = strchr(p, ':');
		const char *eq = strchr(p, '=');
		size_t		len = end ? (size_t) (end - p) : strlen(p);

		if (eq && eq < p + len)
		{
			for (int i = 0; i < 4; i++)
			{
				size_t		nlen = strlen(names[i]);
				size_t		vlen = len - (size_t) (eq + 1 - p);

				if ((size_t) (eq - p) == nlen && strncmp(p, names[i], nlen) == 0 &&
					vlen < sizeof(sgr_buffer[i]))
				{
					memcpy(sgr_buffer[i], eq + 1, vlen);
					sgr_buffer[i][vlen] = '\0';
					*targets[i] = sgr_buffer[i];
				}
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
}

void
diag_init(const char *progname)
{
	const char *color = getenv("PG_COLOR");
	bool		use_color = false;

	if (progname)
	{
		const char *slash = strrchr(progname, '/');

		diag_progname = slash ? slash + 1 : progname;
	}

	if (color && strcmp(color, "always") == 0)
		use_color = true;
	else if (color && strcmp(color, "auto") == 0)
	{
		const char *term = getenv("TERM");

		use_color = isatty(fileno(stderr)) && term && strcmp(term, "dumb") != 0;
	}

	if (use_color)
	{
		const char *colors = getenv("PG_COLORS");

		sgr_error = "01;31";
		sgr_warning = "01;35";
		sgr_note = "01;36";
		sgr_locus = "01";
		if (colors)
			diag_parse_colors(colors);
	}
}

void
diag_set_verbose(bool verbose)
{
	diag_verbose = verbose;
}

/* Keep msg when it is the first error (any thread; later ones lose). */
static void
keep_first_error(const char *msg)
{
	size_t		n;

	if (atomic_flag_test_and_set(&first_error_claimed))
		return;
	snprintf(first_error, sizeof(first_error), "%s", msg);
	n = strlen(first_error);
	while (n > 0 && first_error[n - 1] == '\n')
		first_error[--n] = '\0';
	atomic_store(&first_error_ready, true);
}

const char *
diag_first_error(void)
{
	return atomic_load(&first_error_ready) ? first_error : NULL;
}

void
diag_vlog(diag_level level, const char *fmt, va_list ap)
{
	char		buf[8192];
	size_t		len = 0;
	const char *label = NULL;
	const char *sgr = NULL;
	int			n;

	if (level == DIAG_DEBUG && !diag_verbose)
		return;

	switch (level)
	{
		case DIAG_DEBUG:
		case DIAG_INFO:
			/* PostgreSQL's logging labels neither level */
			break;
		case DIAG_WARNING:
			label = "warning: ";
			sgr = sgr_warning;
			break;
		case DIAG_ERROR:
			label = "error: ";
			sgr = sgr_error;
			break;
		case DIAG_DETAIL:
			label = "detail: ";
			sgr = sgr_note;
			break;
		case DIAG_HINT:
			label = "hint: ";
			sgr = sgr_note;
			break;
	}

	if (sgr_locus)
		n = snprintf(buf, sizeof(buf), "\x1b[%sm%s: \x1b[0m", sgr_locus, diag_progname);
	else
		n = snprintf(buf, sizeof(buf), "%s: ", diag_progname);
	len = (size_t) n;

	if (label)
	{
		if (sgr)
			n = snprintf(buf + len, sizeof(buf) - len, "\x1b[%sm%s\x1b[0m", sgr, label);
		else
			n = snprintf(buf + len, sizeof(buf) - len, "%s", label);
		len += (size_t) n;
	}

	n = vsnprintf(buf + len, sizeof(buf) - len, fmt, ap);
	if (n < 0)
		n = 0;
	if (level == DIAG_ERROR)
		keep_first_error(buf + len);
	len += (size_t) n;
	if (len >= sizeof(buf) - 1)
		len = sizeof(buf) - 2;
	/* Messages end with exactly one newline, as PostgreSQL's logging. */
	if (len == 0 || buf[len - 1] != '\n')
		buf[len++] = '\n';
	fwrite(buf, 1, len, stderr);
}

void
diag_log(diag_level level, const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	diag_vlog(level, fmt, ap);
	va_end(ap);
}

void
diag_usage_hint(void)
{
	diag_hint("Try \"%s --help\" for more information.", diag_progname);
}
