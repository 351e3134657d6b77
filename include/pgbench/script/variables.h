/*
 * variables.h — script variables.
 *
 * Names are resolved once, while scripts are compiled: a var_symtab maps
 * each name any script, -D or pgbench itself uses to a slot number.  Each
 * client then owns a var_store, a flat array indexed by slot, so that
 * reading, writing and substituting a variable on the hot path is an array
 * access with no lookup and, once buffers have grown, no allocation.
 *
 * A variable holds a string (from -D, \setshell, \gset), a typed value
 * (from \set), or both: the other form is derived lazily and cached, as
 * pgbench does.
 *
 * The symtab is built single-threaded before the run and only read after.
 * A var_store belongs to one client (one thread).
 */
#ifndef PGBENCH_VARIABLES_H
#define PGBENCH_VARIABLES_H

#include "pgbench/script/value.h"

typedef struct var_symtab var_symtab;

/*
 * An empty symbol table (never NULL: aborts when out of memory, as the
 * start-up code that builds it).  var_symtab_free releases it; NULL-safe.
 */
var_symtab *var_symtab_create(void);
void		var_symtab_free(var_symtab *symtab);

/*
 * Slot of name[0..len), created if new.  The caller checks validity first
 * where pgbench would (var_name_is_valid).  Never fails (aborts on OOM).
 */
int			var_symtab_intern(var_symtab *symtab, const char *name, size_t len);

/* Slot of name[0..len), or -1. */
int			var_symtab_find(const var_symtab *symtab, const char *name, size_t len);

/*
 * Number of slots, and the name of one (owned by the table; NULL for a slot
 * out of range).  Read-only: safe from any thread once the table is built.
 */
int			var_symtab_count(const var_symtab *symtab);
const char *var_symtab_name(const var_symtab *symtab, int slot);

/*
 * pgbench's rule: letters (any non-ASCII byte counts as a letter), digits
 * and underscores, not starting with a digit, not empty.
 */
bool		var_name_is_valid(const char *name, size_t len);

/*
 * Length of the variable name that starts at text (after a ':' in SQL):
 * ASCII letters, digits, '_' and non-ASCII bytes, not starting with a
 * digit.  0 when none.
 */
size_t		var_name_span(const char *text);

/*
 * psql's quoting of a value interpolated into SQL (":'name'", ":"name""):
 * as a literal, '...' with single quotes doubled, or when the value has a
 * backslash " E'...'" (a space first) with backslashes doubled too, as
 * libpq's PQescapeLiteral writes it; as an identifier, "..." with double
 * quotes doubled.  var_quoted_len is the exact length of the result;
 * var_quote writes it, unterminated, to dst (which has that much room) and
 * returns that length.  Pure functions, any thread.
 */
size_t		var_quoted_len(const char *value, bool literal);
size_t		var_quote(char *dst, const char *value, bool literal);

typedef struct var_slot
{
	bool		has_string;		/* str holds the current string form */
	pgb_value	value;			/* PGBT_NO_VALUE until set or parsed */
	char	   *str;			/* string form, NUL-terminated, owned */
	size_t		str_cap;		/* allocated size of str */
} var_slot;

typedef struct var_store
{
	const var_symtab *symtab;	/* names, for messages */
	int			nslots;
	var_slot   *slots;
} var_store;

/*
 * Size a store for every slot of symtab; all unset.  symtab must outlive
 * the store.  var_store_free releases the strings and the slot array.
 */
void		var_store_init(var_store *store, const var_symtab *symtab);
void		var_store_free(var_store *store);

/* Extend a store to slots interned into its symtab after var_store_init. */
void		var_store_grow(var_store *store);

/*
 * Deep copy (for -D defaults to all clients and retry snapshots).  dst is
 * an initialised store (its buffers are reused) or zeroed memory.
 */
void		var_store_copy(var_store *dst, const var_store *src);

/* Whether slot (in range) holds a string or a typed value. */
static inline bool
var_is_set(const var_store *store, int slot)
{
	return store->slots[slot].has_string ||
		store->slots[slot].value.type != PGBT_NO_VALUE;
}

/*
 * Set from a string (copied into the slot's buffer).  false when out of
 * memory growing the buffer (the slot keeps its old value); the only call
 * here that may allocate at run time.
 */
bool		var_set_string(var_store *store, int slot, const char *value, size_t len);

/* Set from a typed value; the string form is made when first needed. */
void		var_set_value(var_store *store, int slot, pgb_value value);

/*
 * Typed value of a variable, parsing its string form when needed
 * ("null", true/yes/on prefixes, false/no/off, integers, doubles).
 * Returns false with a message in errbuf when unset ("undefined variable
 * \"x\"") or malformed ("malformed variable \"x\" value: \"abc\"",
 * "invalid input syntax for type bigint: ...", "value ... is out of range
 * for type bigint").  An empty string fails with errbuf "": pgbench
 * prints nothing for it, only the client's abort line.
 */
bool		var_get_value(var_store *store, int slot, pgb_value *out,
						  char *errbuf, size_t errlen);

/*
 * String form of a variable, formatted and cached when needed (integers
 * in decimal, doubles "%.*g" with DBL_DIG digits, booleans, NULL as "").
 * NULL when unset.  The pointer stays valid until the slot is written.
 */
const char *var_get_string(var_store *store, int slot);

/*
 * Text of a typed value as pgbench prints it: "NULL", "true"/"false",
 * decimal integers, doubles "%.*g" with DBL_DIG digits; non-finite doubles
 * as "NaN", "Infinity", "-Infinity".  Returns snprintf's count; "" for
 * PGBT_NO_VALUE.  var_format_double is that "%.*g" form alone, and
 * var_format_double_fixed the "%f" form used in messages.  All three write
 * at most len bytes, always terminated (len > 0); the program never
 * calls setlocale(), so the decimal point is always '.'.
 */
int			var_format_value(const pgb_value *value, char *buf, size_t len);
int			var_format_double(double d, char *buf, size_t len);
int			var_format_double_fixed(double d, char *buf, size_t len);

#endif
