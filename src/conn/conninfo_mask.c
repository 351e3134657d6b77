/*
 * conninfo_mask.c — a database name fit to be shown: connection strings
 * parsed by libpq (PQconninfoParse) and rebuilt with their secret options
 * masked (conninfo_mask.h).
 */
#include <ctype.h>
#include <stdio.h>
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

/* ---- what a rejection may quote ------------------------------------------ */

/* What the quoted part that ends one of libpq's messages is. */
typedef enum quoted_kind
{
	QUOTED_KEYWORD,				/* a keyword the string names */
	QUOTED_URI_PART,			/* a part of a URI that was percent-decoded */
} quoted_kind;

/*
 * The messages of PQconninfoParse (libpq 15 and later, untranslated)
 * whose last quoted part may be shown, by their text before it.  A
 * keyword is never secret: pgbench's message shows it, and so does ours.
 * A message not listed here (translated, or of another libpq) has its
 * quoted parts hidden as before.
 */
static const struct
{
	const char *head;
	quoted_kind kind;
}			quoting_messages[] = {
	{"invalid connection option \"", QUOTED_KEYWORD},
	{"invalid URI query parameter: \"", QUOTED_KEYWORD},
	{"extra key/value separator \"=\" in URI query parameter: \"", QUOTED_KEYWORD},
	{"invalid percent-encoded token: \"", QUOTED_URI_PART},
	{"forbidden value %00 in percent-encoded value: \"", QUOTED_URI_PART},
};

/* s (n bytes) is the same text as t (tn bytes). */
static bool
same_text(const char *s, size_t n, const char *t, size_t tn)
{
	return n == tn && memcmp(s, t, n) == 0;
}

/* Append s (n bytes) at *end, a comma first when sep. */
static void
append_part(char **end, bool sep, const char *s, size_t n)
{
	if (sep)
		*(*end)++ = ',';
	memcpy(*end, s, n);
	*end += n;
}

/* The parts of a URI that libpq percent-decodes, and whether tok is one. */
typedef struct uri_parts
{
	const char *tok;			/* the part a message quotes */
	size_t		toklen;
	bool		secret;			/* tok is the user info or a parameter's value */
	bool		shown;			/* tok is the hosts, ports, database or a keyword */
} uri_parts;

/* The query's parameters (from after '?'): keywords shown, values secret. */
static void
scan_query(uri_parts *u, const char *p)
{
	while (*p != '\0')
	{
		size_t		n = strcspn(p, "&");
		const char *eq = memchr(p, '=', n);

		if (eq != NULL)
		{
			u->shown |= same_text(p, (size_t) (eq - p), u->tok, u->toklen);
			u->secret |= same_text(eq + 1, (size_t) (p + n - eq - 1), u->tok, u->toklen);
		}
		p += n + (p[n] == '&');
	}
}

/*
 * Whether tok is a part of URI uri that may be shown: the host list or
 * the port list (each joined by commas, as libpq decodes them), the
 * database name or a parameter's keyword, and neither the user, the
 * password nor a parameter's value (libpq decodes them first: equal
 * text may as well be theirs).  The URI is cut as libpq cuts it: the
 * user info up to the first '@' when that comes before any '/', each
 * host up to ':', '/', '?' or ',' (in brackets up to ']'), its port up
 * to '/', '?' or ',', the database name from '/' to '?', the query's
 * parameters KEY=VALUE between '&'.
 */
static bool
uri_part_shown(const char *uri, const char *tok, size_t toklen)
{
	uri_parts	u = {.tok = tok, .toklen = toklen};
	size_t		skip = strncmp(uri, "postgresql://", 13) == 0 ? 13 :
		strncmp(uri, "postgres://", 11) == 0 ? 11 : 0;
	const char *p = uri + skip;
	const char *at = p + strcspn(p, "@/");
	char	   *hosts = malloc(strlen(p) + 1);
	char	   *ports = malloc(strlen(p) + 1);
	char	   *hend = hosts,
			   *pend = ports;

	if (skip == 0 || hosts == NULL || ports == NULL)
	{
		free(hosts);
		free(ports);
		return false;
	}
	if (*at == '@')
	{
		size_t		user = strcspn(p, ":@");

		u.secret |= same_text(p, user, tok, toklen);
		if (p[user] == ':')
			u.secret |= same_text(p + user + 1, (size_t) (at - p - user - 1), tok, toklen);
		p = at + 1;
	}
	for (bool sep = false;; sep = true)
	{
		const char *close = *p == '[' ? strchr(p, ']') : NULL;
		size_t		n = close != NULL ? (size_t) (close - p - 1) : strcspn(p, ":/?,");

		append_part(&hend, sep, close != NULL ? p + 1 : p, n);
		p = close != NULL ? close + 1 : p + n;
		n = *p == ':' ? strcspn(p + 1, "/?,") : 0;
		append_part(&pend, sep, p + 1, n);
		p += *p == ':' ? n + 1 : 0;
		if (*p != ',')
			break;
		p++;
	}
	u.shown |= same_text(hosts, (size_t) (hend - hosts), tok, toklen) ||
		same_text(ports, (size_t) (pend - ports), tok, toklen);
	free(hosts);
	free(ports);
	if (*p == '/')
	{
		size_t		n = strcspn(p + 1, "?");

		u.shown |= same_text(p + 1, n, tok, toklen);
		p += n + 1;
	}
	if (*p == '?')
		scan_query(&u, p + 1);
	return u.shown && !u.secret;
}

/*
 * Whether tok (n bytes) stands in dbname once only: a keyword that is
 * also found elsewhere in it (in a value, as a password mistyped for a
 * keyword's place is) is not shown.
 */
static bool
only_once(const char *dbname, const char *tok, size_t n)
{
	int			seen = 0;

	if (n == 0)
		return true;
	for (const char *p = dbname; *p != '\0'; p++)
		seen += strncmp(p, tok, n) == 0;
	return seen <= 1;
}

/*
 * Whether msg may be shown whole: one of quoting_messages, its quoted
 * part a keyword found once in dbname (only_once), or a part of the URI
 * dbname that holds no secret.
 */
static bool
message_shown(const char *dbname, const char *msg)
{
	const char *last = strrchr(msg, '"');

	if (last == NULL || last[1 + strspn(last + 1, "\n")] != '\0')
		return false;			/* something after the quoted part */
	for (size_t i = 0; i < sizeof(quoting_messages) / sizeof(quoting_messages[0]); i++)
	{
		size_t		hlen = strlen(quoting_messages[i].head);
		const char *tok = msg + hlen;

		if (strncmp(msg, quoting_messages[i].head, hlen) != 0 || last < tok)
			continue;
		if (quoting_messages[i].kind == QUOTED_KEYWORD)
			return only_once(dbname, tok, (size_t) (last - tok));
		return uri_part_shown(dbname, tok, (size_t) (last - tok));
	}
	return false;
}

bool
conninfo_reject_text(const char *dbname, char *buf, size_t len)
{
	PQconninfoOption *opts;
	PQconninfoOption *keywords;
	char	   *errmsg = NULL;
	const char *msg;

	if (len == 0 || !conninfo_is_connection_string(dbname))
		return false;
	opts = PQconninfoParse(dbname, &errmsg);
	if (opts != NULL)
	{
		PQconninfoFree(opts);
		return false;
	}
	msg = errmsg != NULL ? errmsg : "out of memory";
	if (message_shown(dbname, msg))
	{
		size_t		n = strlen(msg);

		while (n > 0 && msg[n - 1] == '\n')
			n--;
		snprintf(buf, len, "%.*s", (int) n, msg);
	}
	else
	{
		keywords = PQconninfoParse("", NULL);	/* every keyword, no value */
		hide_quoted(msg, keywords, buf, len);
		PQconninfoFree(keywords);
	}
	PQfreemem(errmsg);
	return true;
}
