/*
 * json_read.c — a strict recursive-descent JSON reader into a tree of
 * values held in one arena, and the paths of values for messages
 * (json_read.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/offline/json_read.h"

/* The longest number read (RFC 8259 sets none; ours are under 30). */
#define JSON_MAX_NUMBER 127

/* ---- the arena ------------------------------------------------------------ */

/* The first block's size; each next one doubles, up to the largest. */
#define BLOCK_FIRST 4096
#define BLOCK_LARGEST (1024 * 1024)

struct json_block
{
	struct json_block *next;
	size_t		used;
	size_t		size;
	max_align_t data[];
};

/* size bytes (8-aligned) from doc's arena; NULL when memory is short. */
static void *
arena_alloc(json_doc *doc, size_t size)
{
	struct json_block *b = doc->blocks;
	size_t		need = (size + 7) & ~(size_t) 7;

	if (b == NULL || b->size - b->used < need)
	{
		size_t		bsize = b == NULL ? BLOCK_FIRST
			: b->size >= BLOCK_LARGEST / 2 ? BLOCK_LARGEST : 2 * b->size;

		if (bsize < need)
			bsize = need;
		b = malloc(sizeof(struct json_block) + bsize);
		if (b == NULL)
			return NULL;
		b->next = doc->blocks;
		b->used = 0;
		b->size = bsize;
		doc->blocks = b;
	}
	b->used += need;
	return (char *) b->data + b->used - need;
}

void
json_doc_free(json_doc *doc)
{
	struct json_block *b = doc->blocks;

	while (b != NULL)
	{
		struct json_block *next = b->next;

		free(b);
		b = next;
	}
	memset(doc, 0, sizeof(*doc));
}

/* ---- the parser ----------------------------------------------------------- */

typedef struct json_parser
{
	const char *p;
	const char *end;
	const char *start;
	json_doc   *doc;
	json_value *stack;			/* members of the open containers */
	size_t		top;
	size_t		capacity;
	char	   *err;
	size_t		errlen;
	bool		failed;
} json_parser;

static bool parse_value(json_parser *jp, json_value *v, int depth);
static bool fail_at(json_parser *jp, const char *at, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/* Record the first error, with its line and column (at at). */
static bool
fail_at(json_parser *jp, const char *at, const char *fmt,...)
{
	int			line = 1;
	const char *bol = jp->start;
	char		what[128];
	va_list		ap;

	if (jp->failed)
		return false;
	for (const char *q = jp->start; q < at; q++)
		if (*q == '\n')
		{
			line++;
			bol = q + 1;
		}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(jp->err, jp->errlen, "line %d, column %ld: %s", line, (long) (at - bol) + 1, what);
	jp->failed = true;
	return false;
}

#define fail(jp, ...) fail_at((jp), (jp)->p, __VA_ARGS__)

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

/* ---- strings -------------------------------------------------------------- */

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
		char		c = *jp->p;

		if (c >= '0' && c <= '9')
			*cp = *cp * 16 + (unsigned) (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*cp = *cp * 16 + (unsigned) ((c | 0x20) - 'a' + 10);
		else
			return fail(jp, "invalid \\u escape");
		jp->p++;
	}
	return true;
}

/* One escape after the backslash, decoded into out. */
static bool
escape(json_parser *jp, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	const char *at = jp->p - 1;
	unsigned	cp,
				low;
	const char *hit;

	if (*jp->p != 'u')
	{
		if (*jp->p == '\0' || (hit = strchr(from, *jp->p)) == NULL)
			return fail_at(jp, at, "invalid escape");
		out[(*n)++] = to[hit - from];
		jp->p++;
		return true;
	}
	jp->p++;
	if (!hex4(jp, &cp))
		return false;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return fail_at(jp, at, "unpaired surrogate");
	if (cp >= 0xD800 && cp < 0xDC00)
	{
		if (jp->end - jp->p < 2 || jp->p[0] != '\\' || jp->p[1] != 'u')
			return fail_at(jp, at, "unpaired surrogate");
		jp->p += 2;
		if (!hex4(jp, &low))
			return false;
		if (low < 0xDC00 || low > 0xDFFF)
			return fail_at(jp, at, "unpaired surrogate");
		cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
	}
	if (cp == 0)
		return fail_at(jp, at, "a NUL character (\\u0000) in a string");
	put_utf8(out, n, cp);
	return true;
}

/*
 * Length of the UTF-8 sequence at p (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF); 0 when it is not one.
 */
static int
utf8_length(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	int			len;
	unsigned char lo = 0x80,
				hi = 0xBF;

	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
	{
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	}
	else if (c >= 0xF0 && c <= 0xF4)
	{
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	}
	else
		return 0;
	if (end - p < len || p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

/* A string after its opening quote, decoded into the arena. */
static bool
parse_string(json_parser *jp, json_value *v)
{
	const char *q = jp->p;
	char	   *out;
	size_t		n = 0;

	/* the decoded text is never longer than the escaped one */
	while (q < jp->end && *q != '"')
		q += *q == '\\' && q + 1 < jp->end ? 2 : 1;
	if (q >= jp->end)
		return fail(jp, "unterminated string");
	if (q - jp->p > INT32_MAX)
		return fail(jp, "string too long");
	if ((out = arena_alloc(jp->doc, (size_t) (q - jp->p) + 1)) == NULL)
		return fail(jp, "out of memory");
	while (*jp->p != '"')
	{
		unsigned char c = (unsigned char) *jp->p;
		int			len;

		if (c < 0x20)
			return fail(jp, "control character in string");
		if (c == '\\')
		{
			jp->p++;
			if (!escape(jp, out, &n))
				return false;
			continue;
		}
		if (c < 0x80)
			len = 1;
		else if ((len = utf8_length((const unsigned char *) jp->p, (const unsigned char *) jp->end)) == 0)
			return fail(jp, "invalid UTF-8");
		memcpy(out + n, jp->p, (size_t) len);
		n += (size_t) len;
		jp->p += len;
	}
	jp->p++;
	out[n] = '\0';
	v->kind = JSON_STRING;
	v->n = (int32_t) n;
	v->u.string = out;
	return true;
}

/* ---- numbers -------------------------------------------------------------- */

/* Digits at jp->p, at least one; false when there is none. */
static bool
digits(json_parser *jp)
{
	const char *from = jp->p;

	while (jp->p < jp->end && *jp->p >= '0' && *jp->p <= '9')
		jp->p++;
	return jp->p > from;
}

/*
 * A number, by RFC 8259's grammar:
 * -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 */
static bool
parse_number(json_parser *jp, json_value *v)
{
	const char *from = jp->p;
	bool		negative = false,
				integer = true;
	char		buf[JSON_MAX_NUMBER + 1];
	char	   *end;
	size_t		len;

	if (jp->p < jp->end && *jp->p == '-')
	{
		negative = true;
		jp->p++;
	}
	if (jp->p < jp->end && *jp->p == '0')
		jp->p++;
	else if (jp->p >= jp->end || *jp->p < '1' || *jp->p > '9' || !digits(jp))
		return fail_at(jp, from, from < jp->end && *from != '-' ? "invalid value" : "invalid number");
	if (jp->p < jp->end && *jp->p == '.')
	{
		jp->p++;
		integer = false;
		if (!digits(jp))
			return fail_at(jp, from, "invalid number");
	}
	if (jp->p < jp->end && (*jp->p == 'e' || *jp->p == 'E'))
	{
		jp->p++;
		integer = false;
		if (jp->p < jp->end && (*jp->p == '+' || *jp->p == '-'))
			jp->p++;
		if (!digits(jp))
			return fail_at(jp, from, "invalid number");
	}
	v->kind = JSON_NUMBER;
	if (integer)
	{
		uint64_t	mag = 0;
		bool		big = false;

		for (const char *q = from + negative; q < jp->p && !big; q++)
			big = __builtin_mul_overflow(mag, 10, &mag) ||
				__builtin_add_overflow(mag, (uint64_t) (*q - '0'), &mag);
		if (!big && !negative && mag <= (uint64_t) INT64_MAX)
			v->u.integer = (int64_t) mag;
		else if (!big && !negative)
		{
			v->number = JSON_UINT64;
			v->u.uinteger = mag;
		}
		else if (!big && mag <= (uint64_t) INT64_MAX + 1)
			v->u.integer = mag == (uint64_t) INT64_MAX + 1 ? INT64_MIN : -(int64_t) mag;
		else
			big = true;
		if (!big)
			return true;
	}
	len = (size_t) (jp->p - from);
	if (len > JSON_MAX_NUMBER)
		return fail_at(jp, from, "number longer than %d characters", JSON_MAX_NUMBER);
	memcpy(buf, from, len);
	buf[len] = '\0';
	/* underflow reads as zero or a subnormal; overflow is refused */
	if (!isfinite(strtod(buf, &end)) || end != buf + len)
		return fail_at(jp, from, "number out of range");
	if (integer)
	{
		char	   *text = arena_alloc(jp->doc, len + 1);

		if (text == NULL)
			return fail(jp, "out of memory");
		memcpy(text, buf, len + 1);
		v->number = JSON_BIGINT;
		v->n = (int32_t) len;
		v->u.string = text;
	}
	else
	{
		v->number = JSON_REAL;
		v->u.real = strtod(buf, NULL);
	}
	return true;
}

/* ---- containers ----------------------------------------------------------- */

/* Push v on the members stack. */
static bool
push(json_parser *jp, const json_value *v)
{
	if (jp->top == jp->capacity)
	{
		size_t		capacity = jp->capacity > 0 ? 2 * jp->capacity : 64;
		json_value *grown = realloc(jp->stack, capacity * sizeof(json_value));

		if (grown == NULL)
			return fail(jp, "out of memory");
		jp->stack = grown;
		jp->capacity = capacity;
	}
	jp->stack[jp->top++] = *v;
	return true;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp((*(const json_value *const *) a)->u.string,
				  (*(const json_value *const *) b)->u.string);
}

/*
 * The name of a member that the object's n members (name, value pairs
 * at m) hold twice, or NULL; *oom when memory was short.
 */
static const char *
duplicate_name(const json_value *m, size_t n, bool *oom)
{
	const json_value **names;
	const char *dup = NULL;

	*oom = false;
	if (n <= 16)
	{
		for (size_t i = 1; i < n; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(m[2 * i].u.string, m[2 * j].u.string) == 0)
					return m[2 * i].u.string;
		return NULL;
	}
	if ((names = malloc(n * sizeof(const json_value *))) == NULL)
	{
		*oom = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		names[i] = &m[2 * i];
	qsort(names, n, sizeof(const json_value *), compare_names);
	for (size_t i = 1; i < n && dup == NULL; i++)
		if (strcmp(names[i]->u.string, names[i - 1]->u.string) == 0)
			dup = names[i]->u.string;
	free(names);
	return dup;
}

/* The container whose members are on the stack from base: into the arena. */
static bool
close_container(json_parser *jp, json_value *v, size_t base, const char *open)
{
	size_t		count = jp->top - base;
	size_t		n = v->kind == JSON_OBJECT ? count / 2 : count;
	json_value *items = NULL;

	if (n > INT32_MAX)
		return fail_at(jp, open, "more than %d members", INT32_MAX);
	if (v->kind == JSON_OBJECT && n > 1)
	{
		bool		oom;
		const char *dup = duplicate_name(&jp->stack[base], n, &oom);

		if (oom)
			return fail(jp, "out of memory");
		if (dup != NULL)
			return fail_at(jp, open, "member \"%.60s\" given twice", dup);
	}
	if (count > 0)
	{
		if ((items = arena_alloc(jp->doc, count * sizeof(json_value))) == NULL)
			return fail(jp, "out of memory");
		memcpy(items, &jp->stack[base], count * sizeof(json_value));
	}
	v->n = (int32_t) n;
	v->u.items = items;
	jp->top = base;
	return true;
}

/* The members of an array or object, after its opening bracket. */
static bool
parse_members(json_parser *jp, json_value *v, int depth)
{
	const char *open = jp->p - 1;
	bool		object = v->kind == JSON_OBJECT;
	char		close = object ? '}' : ']';
	size_t		base = jp->top;

	skip_space(jp);
	if (jp->p < jp->end && *jp->p == close)
	{
		jp->p++;
		return close_container(jp, v, base, open);
	}
	for (;;)
	{
		json_value	item = {0};

		skip_space(jp);
		if (object)
		{
			if (jp->p >= jp->end || *jp->p != '"')
				return fail(jp, "expected a member name");
			jp->p++;
			if (!parse_string(jp, &item) || !push(jp, &item))
				return false;
			skip_space(jp);
			if (jp->p >= jp->end || *jp->p != ':')
				return fail(jp, "expected ':'");
			jp->p++;
		}
		if (!parse_value(jp, &item, depth + 1) || !push(jp, &item))
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
			return close_container(jp, v, base, open);
		}
		return fail(jp, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool
parse_value(json_parser *jp, json_value *v, int depth)
{
	memset(v, 0, sizeof(*v));
	if (depth > JSON_MAX_NESTING)
		return fail(jp, "nested more than %d levels deep", JSON_MAX_NESTING);
	skip_space(jp);
	if (jp->p >= jp->end)
		return fail(jp, "unexpected end of input");
	switch (*jp->p)
	{
		case '{':
		case '[':
			v->kind = *jp->p == '{' ? JSON_OBJECT : JSON_ARRAY;
			jp->p++;
			return parse_members(jp, v, depth);
		case '"':
			jp->p++;
			return parse_string(jp, v);
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
json_parse(const char *text, size_t len, json_doc *doc, char *err, size_t errlen)
{
	json_parser jp = {.p = text, .end = text + len, .start = text, .doc = doc,
	.err = err, .errlen = errlen};
	bool		ok;

	memset(doc, 0, sizeof(*doc));
	ok = parse_value(&jp, &doc->root, 0);
	if (ok)
	{
		skip_space(&jp);
		if (jp.p != jp.end)
			ok = fail(&jp, "unexpected text after the document");
	}
	free(jp.stack);
	if (!ok)
		json_doc_free(doc);
	return ok;
}

/* ---- copies --------------------------------------------------------------- */

/* v into *out, its strings and items copied into doc's arena. */
static bool
clone_into(json_doc *doc, json_value *out, const json_value *v)
{
	*out = *v;
	if (v->kind == JSON_STRING || (v->kind == JSON_NUMBER && v->number == JSON_BIGINT))
	{
		char	   *s = arena_alloc(doc, (size_t) v->n + 1);

		if (s == NULL)
			return false;
		memcpy(s, v->u.string, (size_t) v->n + 1);
		out->u.string = s;
	}
	else if ((v->kind == JSON_ARRAY || v->kind == JSON_OBJECT) && v->n > 0)
	{
		size_t		count = (size_t) v->n * (v->kind == JSON_OBJECT ? 2 : 1);
		json_value *items = arena_alloc(doc, count * sizeof(json_value));

		if (items == NULL)
			return false;
		for (size_t i = 0; i < count; i++)
			if (!clone_into(doc, &items[i], &v->u.items[i]))
				return false;
		out->u.items = items;
	}
	return true;
}

bool
json_clone(json_doc *dst, const json_value *v)
{
	memset(dst, 0, sizeof(*dst));
	if (v == NULL)
		return true;
	if (clone_into(dst, &dst->root, v))
		return true;
	json_doc_free(dst);
	return false;
}

/* ---- access --------------------------------------------------------------- */

const json_value *
json_get(const json_value *obj, const char *key)
{
	if (obj == NULL || obj->kind != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < obj->n; i++)
		if (strcmp(obj->u.items[2 * i].u.string, key) == 0)
			return &obj->u.items[2 * i + 1];
	return NULL;
}

const json_value *
json_at(const json_value *v, int i)
{
	return v != NULL && v->kind == JSON_ARRAY && i >= 0 && i < v->n ? &v->u.items[i] : NULL;
}

const char *
json_member_name(const json_value *obj, int i)
{
	return obj->u.items[2 * i].u.string;
}

const json_value *
json_member_value(const json_value *obj, int i)
{
	return &obj->u.items[2 * i + 1];
}

bool
json_is_null(const json_value *v)
{
	return v == NULL || v->kind == JSON_NULL;
}

double
json_num(const json_value *v)
{
	if (v == NULL || v->kind != JSON_NUMBER)
		return NAN;
	switch ((json_number_kind) v->number)
	{
		case JSON_INT64:
			return (double) v->u.integer;
		case JSON_UINT64:
			return (double) v->u.uinteger;
		case JSON_BIGINT:
			return strtod(v->u.string, NULL);
		case JSON_REAL:
			break;
	}
	return v->u.real;
}

int64_t
json_int(const json_value *v, int64_t def)
{
	return v != NULL && v->kind == JSON_NUMBER && v->number == JSON_INT64 ? v->u.integer : def;
}

const char *
json_str(const json_value *v)
{
	return v != NULL && v->kind == JSON_STRING ? v->u.string : NULL;
}

bool
json_bool(const json_value *v)
{
	return v != NULL && v->kind == JSON_BOOL && v->boolean;
}

bool
json_equal(const json_value *a, const json_value *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	if (a->kind != b->kind)
		return false;
	switch ((json_kind) a->kind)
	{
		case JSON_NULL:
			return true;
		case JSON_BOOL:
			return a->boolean == b->boolean;
		case JSON_NUMBER:
			/* integers exactly, else as doubles: 16 and 16.0 are equal */
			if (a->number <= JSON_UINT64 && b->number <= JSON_UINT64)
				return a->number == b->number &&
					(a->number == JSON_INT64 ? a->u.integer == b->u.integer
					 : a->u.uinteger == b->u.uinteger);
			return json_num(a) == json_num(b);
		case JSON_STRING:
			return strcmp(a->u.string, b->u.string) == 0;
		case JSON_ARRAY:
		case JSON_OBJECT:
			if (a->n != b->n)
				return false;
			for (int i = 0; i < a->n * (a->kind == JSON_OBJECT ? 2 : 1); i++)
				if (!json_equal(&a->u.items[i], &b->u.items[i]))
					return false;
			return true;
	}
	return false;
}

/* ---- paths ---------------------------------------------------------------- */

json_ref
json_ref_root(const json_value *root)
{
	return (json_ref) {.v = root};
}

json_ref
json_ref_member(const json_ref *parent, const char *key)
{
	return (json_ref) {.v = json_get(parent->v, key), .parent = parent, .key = key};
}

json_ref
json_ref_item(const json_ref *parent, int i)
{
	return (json_ref) {.v = json_at(parent->v, i), .parent = parent, .index = i};
}

void
json_ref_path(const json_ref *r, char *buf, size_t len)
{
	size_t		n;

	if (len == 0)
		return;
	if (r == NULL || r->parent == NULL)
	{
		buf[0] = '\0';
		return;
	}
	json_ref_path(r->parent, buf, len);
	n = strlen(buf);
	if (r->key != NULL)
		snprintf(buf + n, len - n, "%s%s", n > 0 ? "." : "", r->key);
	else
		snprintf(buf + n, len - n, "[%d]", r->index);
}

const char *
json_kind_name(const json_value *v)
{
	if (v == NULL)
		return "nothing";
	switch ((json_kind) v->kind)
	{
		case JSON_NULL:
			return "null";
		case JSON_BOOL:
			return "a boolean";
		case JSON_NUMBER:
			return v->number == JSON_REAL ? "a number" : "an integer";
		case JSON_STRING:
			return "a string";
		case JSON_ARRAY:
			return "an array";
		case JSON_OBJECT:
			return "an object";
	}
	return "?";
}
