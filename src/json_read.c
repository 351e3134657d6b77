/*
 * json_read.c — a recursive-descent JSON reader into a tree of values,
 * for --merge-reports (json_read.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/json_read.h"
#include "pgbench/xalloc.h"

typedef struct json_parser
{
	const char *p;
	const char *end;
	const char *start;
	char	   *err;
	size_t		errlen;
	bool		failed;
} json_parser;

static bool parse_value(json_parser *jp, json_value *v, int depth);

/* Record the first error, with its line number. */
static bool
fail(json_parser *jp, const char *what)
{
	int			line = 1;

	if (jp->failed)
		return false;
	for (const char *q = jp->start; q < jp->p; q++)
		line += *q == '\n';
	snprintf(jp->err, jp->errlen, "line %d: %s", line, what);
	jp->failed = true;
	return false;
}

static void
skip_space(json_parser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static bool
literal(json_parser *jp, const char *word)
{
	size_t		len = strlen(word);

	if ((size_t) (jp->end - jp->p) < len || memcmp(jp->p, word, len) != 0)
		return fail(jp, "invalid literal");
	jp->p += len;
	return true;
}

/* Append the code point cp as UTF-8 to out at *n. */
static void
put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80)
		out[(*n)++] = (char) cp;
	else if (cp < 0x800)
	{
		out[(*n)++] = (char) (0xC0 | (cp >> 6));
		out[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
	else if (cp < 0x10000)
	{
		out[(*n)++] = (char) (0xE0 | (cp >> 12));
		out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
	else
	{
		out[(*n)++] = (char) (0xF0 | (cp >> 18));
		out[(*n)++] = (char) (0x80 | ((cp >> 12) & 0x3F));
		out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char) (0x80 | (cp & 0x3F));
	}
}

/* Four hex digits after \u. */
static bool
hex4(json_parser *jp, unsigned *cp)
{
	*cp = 0;
	if (jp->end - jp->p < 4)
		return fail(jp, "truncated \\u escape");
	for (int i = 0; i < 4; i++)
	{
		char		c = *jp->p++;

		if (!isxdigit((unsigned char) c))
			return fail(jp, "invalid \\u escape");
		*cp = *cp * 16 + (unsigned) (isdigit((unsigned char) c) ? c - '0' : (tolower(c) - 'a' + 10));
	}
	return true;
}

/* One escape after the backslash, decoded into out. */
static bool
escape(json_parser *jp, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	unsigned	cp,
				low;
	const char *hit;

	if (jp->p >= jp->end)
		return fail(jp, "unterminated string");
	if (*jp->p != 'u')
	{
		if ((hit = strchr(from, *jp->p)) == NULL || *jp->p == '\0')
			return fail(jp, "invalid escape");
		out[(*n)++] = to[hit - from];
		jp->p++;
		return true;
	}
	jp->p++;
	if (!hex4(jp, &cp))
		return false;
	if (cp >= 0xD800 && cp < 0xDC00)
	{
		if (jp->end - jp->p < 2 || jp->p[0] != '\\' || jp->p[1] != 'u')
			return fail(jp, "unpaired surrogate");
		jp->p += 2;
		if (!hex4(jp, &low) || low < 0xDC00 || low > 0xDFFF)
			return fail(jp, "unpaired surrogate");
		cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
	}
	put_utf8(out, n, cp);
	return true;
}

/* A string after its opening quote; *s is malloc'd. */
static bool
parse_string(json_parser *jp, char **s)
{
	const char *q = jp->p;
	char	   *out;
	size_t		n = 0;

	/* the decoded text is never longer than the escaped one */
	while (q < jp->end && *q != '"')
		q += *q == '\\' && q + 1 < jp->end ? 2 : 1;
	if (q >= jp->end)
		return fail(jp, "unterminated string");
	out = pgb_malloc((size_t) (q - jp->p) + 1);
	while (*jp->p != '"')
	{
		unsigned char c = (unsigned char) *jp->p;

		if (c < 0x20)
		{
			free(out);
			return fail(jp, "control character in string");
		}
		jp->p++;
		if (c != '\\')
			out[n++] = (char) c;
		else if (!escape(jp, out, &n))
		{
			free(out);
			return false;
		}
	}
	jp->p++;
	out[n] = '\0';
	*s = out;
	return true;
}

static bool
parse_number(json_parser *jp, json_value *v)
{
	char		buf[64];
	size_t		len = 0;
	char	   *end;

	while (jp->p + len < jp->end && strchr("+-0123456789.eE", jp->p[len]) != NULL && jp->p[len] != '\0')
		len++;
	if (len == 0 || len >= sizeof(buf))
		return fail(jp, "invalid number");
	memcpy(buf, jp->p, len);
	buf[len] = '\0';
	v->kind = JSON_NUMBER;
	errno = 0;
	v->number = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE)
		return fail(jp, "invalid number");
	v->is_integer = strpbrk(buf, ".eE") == NULL;
	if (v->is_integer)
		v->integer = buf[0] == '-' ? strtoll(buf, NULL, 10) : (int64_t) strtoull(buf, NULL, 10);
	jp->p += len;
	return true;
}

/* The members of an array or object, after its opening bracket. */
static bool
parse_members(json_parser *jp, json_value *v, bool object, int depth)
{
	int			capacity = 0;
	char		close = object ? '}' : ']';

	skip_space(jp);
	if (jp->p < jp->end && *jp->p == close)
	{
		jp->p++;
		return true;
	}
	for (;;)
	{
		if (v->n == capacity)
		{
			capacity = capacity > 0 ? capacity * 2 : 2;
			v->items = pgb_realloc(v->items, (size_t) capacity * sizeof(json_value));
			if (object)
				v->keys = pgb_realloc(v->keys, (size_t) capacity * sizeof(char *));
		}
		memset(&v->items[v->n], 0, sizeof(json_value));
		skip_space(jp);
		if (object)
		{
			if (jp->p >= jp->end || *jp->p != '"')
				return fail(jp, "expected a member name");
			jp->p++;
			if (!parse_string(jp, &v->keys[v->n]))
				return false;
			skip_space(jp);
			if (jp->p >= jp->end || *jp->p != ':')
			{
				v->n++;
				return fail(jp, "expected ':'");
			}
			jp->p++;
		}
		v->n++;
		if (!parse_value(jp, &v->items[v->n - 1], depth + 1))
			return false;
		skip_space(jp);
		if (jp->p < jp->end && *jp->p == ',')
		{
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close)
		{
			jp->p++;
			/* big reports are mostly [index, count] pairs: no slack kept */
			if (v->n < capacity)
				v->items = pgb_realloc(v->items, (size_t) v->n * sizeof(json_value));
			return true;
		}
		return fail(jp, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool
parse_value(json_parser *jp, json_value *v, int depth)
{
	if (depth > JSON_MAX_NESTING)
		return fail(jp, "nested too deeply");
	skip_space(jp);
	if (jp->p >= jp->end)
		return fail(jp, "unexpected end of input");
	switch (*jp->p)
	{
		case '{':
		case '[':
			v->kind = *jp->p == '{' ? JSON_OBJECT : JSON_ARRAY;
			jp->p++;
			return parse_members(jp, v, v->kind == JSON_OBJECT, depth);
		case '"':
			jp->p++;
			v->kind = JSON_STRING;
			return parse_string(jp, &v->string);
		case 't':
			v->kind = JSON_BOOL;
			v->boolean = true;
			return literal(jp, "true");
		case 'f':
			v->kind = JSON_BOOL;
			return literal(jp, "false");
		case 'n':
			v->kind = JSON_NULL;
			return literal(jp, "null");
		default:
			return parse_number(jp, v);
	}
}

bool
json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen)
{
	json_parser jp = {.p = text, .end = text + len, .start = text, .err = err, .errlen = errlen};

	memset(out, 0, sizeof(*out));
	if (parse_value(&jp, out, 0))
	{
		skip_space(&jp);
		if (jp.p == jp.end)
			return true;
		fail(&jp, "unexpected text after the document");
	}
	json_free(out);
	return false;
}

void
json_drop(json_value *obj, const char *key)
{
	json_value *v = (json_value *) json_get(obj, key);

	if (v != NULL)
		json_free(v);
}

void
json_free(json_value *v)
{
	for (int i = 0; i < v->n; i++)
	{
		json_free(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof(*v));
}

const json_value *
json_get(const json_value *obj, const char *key)
{
	if (obj == NULL || obj->kind != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < obj->n; i++)
		if (obj->keys[i] != NULL && strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

const json_value *
json_at(const json_value *v, int i)
{
	return v != NULL && v->kind == JSON_ARRAY && i >= 0 && i < v->n ? &v->items[i] : NULL;
}

bool
json_is_null(const json_value *v)
{
	return v == NULL || v->kind == JSON_NULL;
}

double
json_num(const json_value *v)
{
	return v != NULL && v->kind == JSON_NUMBER ? v->number : NAN;
}

int64_t
json_int(const json_value *v, int64_t def)
{
	return v != NULL && v->kind == JSON_NUMBER && v->is_integer ? v->integer : def;
}

const char *
json_str(const json_value *v)
{
	return v != NULL && v->kind == JSON_STRING ? v->string : NULL;
}

bool
json_bool(const json_value *v)
{
	return v != NULL && v->kind == JSON_BOOL && v->boolean;
}
