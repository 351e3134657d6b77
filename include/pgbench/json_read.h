/*
 * json_read.h — a small JSON reader (RFC 8259) for the report files that
 * --merge-reports reads back: the whole text into a tree of values.
 *
 * Numbers keep both readings: a double, and for an integer written
 * without fraction or exponent its exact int64 (an unsigned value above
 * INT64_MAX keeps its bits, as random seeds are printed).  Strings are
 * decoded (escapes, \u with surrogate pairs, to UTF-8).  Nesting is
 * limited to JSON_MAX_NESTING levels, so a hostile file gives an error,
 * not a stack overflow.
 *
 * Ownership: json_parse allocates the tree (out of memory stops the
 * process, xalloc.h); json_free releases it.  Pointers returned by the
 * accessors point into the tree.  No global state: any thread.
 */
#ifndef PGBENCH_JSON_READ_H
#define PGBENCH_JSON_READ_H

#include "pgbench/common.h"

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

typedef struct json_value
{
	json_kind	kind;
	bool		boolean;		/* JSON_BOOL */
	bool		is_integer;		/* JSON_NUMBER without fraction or exponent */
	double		number;			/* JSON_NUMBER */
	int64_t		integer;		/* JSON_NUMBER when is_integer */
	char	   *string;			/* JSON_STRING, decoded; owned */
	int			n;				/* JSON_ARRAY, JSON_OBJECT: members */
	struct json_value *items;	/* n values; owned */
	char	  **keys;			/* JSON_OBJECT: n keys; owned */
} json_value;

/*
 * Parse text (len bytes; need not end with a NUL) into *out.  On a syntax
 * error returns false with a message ("line L: expected ...") in err;
 * *out is then empty (freeable).
 */
bool		json_parse(const char *text, size_t len, json_value *out, char *err, size_t errlen);

/* Release a tree made by json_parse; *v becomes JSON_NULL. */
void		json_free(json_value *v);

/*
 * Release the value of member key of obj (if any), which becomes null:
 * to keep a small part of a big tree.
 */
void		json_drop(json_value *obj, const char *key);

/* The member key of obj; NULL when obj is not an object or lacks it. */
const json_value *json_get(const json_value *obj, const char *key);

/* Item i of an array; NULL when v is not an array or i is out of range. */
const json_value *json_at(const json_value *v, int i);

/* v is absent (NULL) or JSON null. */
bool		json_is_null(const json_value *v);

/* A number's value: NaN when v is not a number. */
double		json_num(const json_value *v);

/* An integer's value: def when v is not an integer. */
int64_t		json_int(const json_value *v, int64_t def);

/* A string's value: NULL when v is not a string. */
const char *json_str(const json_value *v);

/* A boolean's value: false when v is not a boolean. */
bool		json_bool(const json_value *v);

#endif
