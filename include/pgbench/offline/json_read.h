/*
 * json_read.h — a strict JSON reader (RFC 8259) for the report files that
 * --merge-reports reads back: the whole text into a tree of values, and
 * a way to name a value's place in its document for messages.
 *
 * Strict: the grammar of RFC 8259 exactly (no leading '+', no leading
 * zeros, no "1." or ".5", nothing after the document), UTF-8 checked
 * (no overlong forms, no surrogates, nothing above U+10FFFF), strings
 * without NUL (\u0000 is refused: they are C strings), no member name
 * twice in an object, numbers finite and at most 127 characters long
 * (ours are under 30).  Nesting is limited to JSON_MAX_NESTING levels
 * and a container to INT32_MAX members, so a hostile file gives an
 * error, never a stack overflow.  Running out of memory is an error too
 * ("out of memory"), never an exit.
 *
 * Numbers keep their exact value: an integer (no fraction, no exponent)
 * that fits int64 or uint64 is kept as such (a random seed above
 * INT64_MAX keeps all its bits); an integer beyond uint64 keeps its
 * text (JSON_BIGINT, for messages); other numbers are doubles.
 *
 * Memory: a document's values (16 bytes each) and strings live in one
 * arena that json_doc_free releases at once; a tree costs about 5.5
 * bytes per byte of a report's text.  No global state: any thread.
 */
#ifndef PGBENCH_JSON_READ_H
#define PGBENCH_JSON_READ_H

#include "pgbench/base/common.h"

#define JSON_MAX_NESTING 64

typedef enum json_kind
{
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
} json_kind;

/* What a JSON_NUMBER holds. */
typedef enum json_number_kind
{
	JSON_INT64,					/* an integer in int64 range: integer */
	JSON_UINT64,				/* an integer above INT64_MAX, at most
								 * UINT64_MAX: uinteger */
	JSON_BIGINT,				/* an integer beyond uint64 (either sign):
								 * string, its text as written */
	JSON_REAL,					/* with a fraction or exponent: real */
} json_number_kind;

typedef struct json_value
{
	uint8_t		kind;			/* json_kind */
	uint8_t		number;			/* JSON_NUMBER: json_number_kind */
	bool		boolean;		/* JSON_BOOL */
	int32_t		n;				/* JSON_ARRAY: items; JSON_OBJECT: members;
								 * JSON_STRING: length in bytes */
	union
	{
		int64_t		integer;	/* JSON_INT64 */
		uint64_t	uinteger;	/* JSON_UINT64 */
		double		real;		/* JSON_REAL */
		const char *string;		/* JSON_STRING: UTF-8, NUL-terminated;
								 * JSON_BIGINT: the digits */
		const struct json_value *items; /* JSON_ARRAY: n values;
										 * JSON_OBJECT: 2n, each member's
										 * name (a string) then its value */
	}			u;
} json_value;

struct json_block;

/* A parsed document: its root and the arena holding the whole tree. */
typedef struct json_doc
{
	json_value	root;
	struct json_block *blocks;	/* owned */
} json_doc;

/*
 * Parse text (len bytes; need not end with a NUL) into *doc.  On an error
 * returns false with a message in err ("line L, column C: what", the
 * column counted in bytes from 1); *doc is then empty (freeable).
 */
bool		json_parse(const char *text, size_t len, json_doc *doc, char *err, size_t errlen);

/*
 * Make *dst a document holding a deep copy of v (which may belong to
 * another document): to keep a small part of a big tree.  false when
 * memory is short (*dst then empty).
 */
bool		json_clone(json_doc *dst, const json_value *v);

/* Release a document; its root becomes JSON_NULL.  Its values are gone. */
void		json_doc_free(json_doc *doc);

/* The value of member key of obj; NULL when obj is not an object or lacks it. */
const json_value *json_get(const json_value *obj, const char *key);

/* Item i of an array; NULL when v is not an array or i is out of range. */
const json_value *json_at(const json_value *v, int i);

/* Member i of an object (0 <= i < obj->n): its name, and its value. */
const char *json_member_name(const json_value *obj, int i);
const json_value *json_member_value(const json_value *obj, int i);

/* v is absent (NULL) or JSON null. */
bool		json_is_null(const json_value *v);

/* A number's value as a double (rounded when needed): NaN when v is not a number. */
double		json_num(const json_value *v);

/* A JSON_INT64 number's value: def when v is anything else. */
int64_t		json_int(const json_value *v, int64_t def);

/* A string's value: NULL when v is not a string. */
const char *json_str(const json_value *v);

/* A boolean's value: false when v is not a boolean. */
bool		json_bool(const json_value *v);

/* Two values are equal: same kind, and for numbers the same value. */
bool		json_equal(const json_value *a, const json_value *b);

/*
 * A value and its place in its document, for messages: a chain of
 * member names and array indexes up to the root.  Made on the stack by
 * json_ref_root, json_ref_member and json_ref_item; a json_ref must not
 * outlive its parent.
 */
typedef struct json_ref
{
	const json_value *v;		/* NULL: an absent member or item */
	const struct json_ref *parent;	/* NULL: the root */
	const char *key;			/* member name; NULL: array item */
	int			index;			/* array item's index */
} json_ref;

json_ref	json_ref_root(const json_value *root);

/* Member key of parent's value (v NULL when it is not an object or lacks it). */
json_ref	json_ref_member(const json_ref *parent, const char *key);

/* Item i of parent's value (v NULL when it is not an array or i is out of range). */
json_ref	json_ref_item(const json_ref *parent, int i);

/*
 * The path of r into buf, as "scripts[1].commands" (members by name,
 * items by index, "" for the root); truncated to len - 1 bytes.
 */
void		json_ref_path(const json_ref *r, char *buf, size_t len);

/* "an object", "a string", "an integer", "a number", "null", ... of v (NULL: "nothing"). */
const char *json_kind_name(const json_value *v);

#endif
