/*
 * conninfo_mask.c — a database name fit to be shown: connection strings
 * parsed by libpq (PQconninfoParse) and rebuilt with their secret options
 * masked (conninfo_mask.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "pgbench/conn/conninfo_mask.h"

bool
conninfo_is_connection_string(const char *dbname)
{
	return strchr(dbname, '=') != NULL || strncmp(dbname, "postgresql://", 13) == 0 ||
		strncmp(dbname, "postgres://", 11) == 0;
}

/* A value conninfo must quote: empty, or with a space, a quote or a backslash. */
static bool
needs_quotes(const char *v)
{
	if (*v == '\0')
		return true;
	for (; *v != '\0'; v++)
		if (isspace((unsigned char) *v) || *v == '\'' || *v == '\\')
			return true;
	return false;
}

/* Append " keyword=value" (no space first) at out; returns the new end. */
static char *
append_option(char *out, bool first, const char *keyword, const char *value)
{
	bool		quote = needs_quotes(value);

	if (!first)
		*out++ = ' ';
	out = stpcpy(out, keyword);
	*out++ = '=';
	if (quote)
		*out++ = '\'';
	for (; *value != '\0'; value++)
	{
		if (*value == '\'' || *value == '\\')
			*out++ = '\\';
		*out++ = *value;
	}
	if (quote)
		*out++ = '\'';
	*out = '\0';
	return out;
}

/* The option's value as shown: the mask for a secret one. */
static const char *
shown_value(const PQconninfoOption *opt)
{
	return opt->dispchar != NULL && opt->dispchar[0] == '*' ? CONNINFO_MASK : opt->val;
}

char *
conninfo_mask(const char *dbname)
{
	PQconninfoOption *opts;
	char	   *errmsg = NULL;
	size_t		room = 1;
	char	   *shown;
	char	   *out;

	if (!conninfo_is_connection_string(dbname))
		return strdup(dbname);
	opts = PQconninfoParse(dbname, &errmsg);
	if (opts == NULL)
	{
		if (errmsg == NULL)
			return NULL;		/* out of memory */
		PQfreemem(errmsg);
		return strdup(CONNINFO_NOT_SHOWN);
	}
	/* each option: a space, keyword=, value escaped (at most twice as long), quotes */
	for (const PQconninfoOption *o = opts; o->keyword != NULL; o++)
		if (o->val != NULL)
			room += strlen(o->keyword) + 2 * strlen(shown_value(o)) + 4;
	shown = malloc(room);
	if (shown != NULL)
	{
		out = shown;
		*out = '\0';
		for (const PQconninfoOption *o = opts; o->keyword != NULL; o++)
			if (o->val != NULL)
				out = append_option(out, out == shown, o->keyword, shown_value(o));
	}
	PQconninfoFree(opts);
	return shown;
}

/* Whether q (n bytes) is one of libpq's keywords (options, an array from PQconninfoParse). */
static bool
is_keyword(const PQconninfoOption *options, const char *q, size_t n)
{
	for (const PQconninfoOption *o = options; o != NULL && o->keyword != NULL; o++)
		if (strlen(o->keyword) == n && memcmp(o->keyword, q, n) == 0)
			return true;
	return false;
}

/*
 * msg with every quoted part but a keyword or a mark replaced, into buf:
 * from its opening quote to the last quote of msg, so that a quote inside
 * the hidden text cannot end it early.
 */
static void
hide_quoted(const char *msg, const PQconninfoOption *keywords, char *buf, size_t len)
{
	const char *last = strrchr(msg, '"');
	const char *p = msg;
	size_t		n = 0;

	while (*p != '\0' && n + 1 < len)
	{
		const char *close = *p == '"' ? strchr(p + 1, '"') : NULL;
		size_t		qlen = close != NULL ? (size_t) (close - p - 1) : 0;
		bool		shown = close != NULL &&
			((qlen == 1 && strchr("=:/]", p[1]) != NULL) || is_keyword(keywords, p + 1, qlen));
		const char *text = shown ? p : "\"...\"";
		size_t		take = shown ? qlen + 2 : strlen(text);

		if (*p != '"')
		{
			buf[n++] = *p++;
			continue;
		}
		if (n + take >= len)
			break;
		memcpy(buf + n, text, take);
		n += take;
		if (shown)
			p = close + 1;
		else if (close == NULL || p == last)
			break;				/* no closing quote: nothing after it */
		else
			p = last + 1;
	}
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
}

bool
conninfo_reject_text(const char *dbname, char *buf, size_t len)
{
	PQconninfoOption *opts;
	PQconninfoOption *keywords;
	char	   *errmsg = NULL;

	if (len == 0 || !conninfo_is_connection_string(dbname))
		return false;
	opts = PQconninfoParse(dbname, &errmsg);
	if (opts != NULL)
	{
		PQconninfoFree(opts);
		return false;
	}
	keywords = PQconninfoParse("", NULL);	/* every keyword, no value */
	hide_quoted(errmsg != NULL ? errmsg : "out of memory", keywords, buf, len);
	PQconninfoFree(keywords);
	PQfreemem(errmsg);
	return true;
}
