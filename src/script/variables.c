/*
 * variables.c — owns script variables: the name → slot symbol table built
 * while scripts are compiled, and each client's flat store of slots with
 * their string and typed forms (each derived lazily from the other, with
 * pgbench's parsing rules and messages), plus the canonical text of a
 * typed value.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/variables.h"
#include "pgbench/base/xalloc.h"

/*
 * Room every slot has from the start for the text of a number, so that
 * var_get_string never allocates at run time (a double takes at most 24).
 */
#define VAR_VALUE_TEXT_MAX 32

/* ---- symbol table -------------------------------------------------------- */

/*
 * Open addressing with linear probing; buckets hold slot + 1 so that zero
 * means empty.  Kept at most half full.
 */
struct var_symtab
{
	char	  **names;			/* by slot, NUL-terminated, owned */
	size_t	   *name_lens;
	int			count;
	int			names_cap;
	int		   *buckets;
	size_t		nbuckets;		/* power of two */
};

static uint32_t
var_hash_name(const char *name, size_t len)
{
	uint32_t	h = 2166136261u;

	for (size_t i = 0; i < len; i++)
	{
		h ^= (unsigned char) name[i];
		h *= 16777619u;
	}
	return h;
}

var_symtab *
var_symtab_create(void)
{
	var_symtab *symtab = pgb_realloc(NULL, sizeof(var_symtab));

	memset(symtab, 0, sizeof(*symtab));
	symtab->nbuckets = 64;
	symtab->buckets = pgb_realloc(NULL, symtab->nbuckets * sizeof(int));
	memset(symtab->buckets, 0, symtab->nbuckets * sizeof(int));
	return symtab;
}

void
var_symtab_free(var_symtab *symtab)
{
	if (symtab == NULL)
		return;
	for (int i = 0; i < symtab->count; i++)
		free(symtab->names[i]);
	free(symtab->names);
	free(symtab->name_lens);
	free(symtab->buckets);
	free(symtab);
}

/* Bucket index holding name, or the empty bucket where it would go. */
static size_t
var_symtab_probe(const var_symtab *symtab, const char *name, size_t len)
{
	size_t		mask = symtab->nbuckets - 1;
	size_t		i = var_hash_name(name, len) & mask;

	for (;;)
	{
		int			entry = symtab->buckets[i];

		if (entry == 0)
			return i;
		if (symtab->name_lens[entry - 1] == len &&
			memcmp(symtab->names[entry - 1], name, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static void
var_symtab_rehash(var_symtab *symtab)
{
	free(symtab->buckets);
	symtab->nbuckets *= 2;
	symtab->buckets = pgb_realloc(NULL, symtab->nbuckets * sizeof(int));
	memset(symtab->buckets, 0, symtab->nbuckets * sizeof(int));
	for (int slot = 0; slot < symtab->count; slot++)
	{
		size_t		b = var_symtab_probe(symtab, symtab->names[slot],
										 symtab->name_lens[slot]);

		symtab->buckets[b] = slot + 1;
	}
}

int
var_symtab_find(const var_symtab *symtab, const char *name, size_t len)
{
	int			entry = symtab->buckets[var_symtab_probe(symtab, name, len)];

	return entry - 1;
}

int
var_symtab_intern(var_symtab *symtab, const char *name, size_t len)
{
	size_t		b = var_symtab_probe(symtab, name, len);
	int			slot;

	if (symtab->buckets[b] != 0)
		return symtab->buckets[b] - 1;

	if (symtab->count == symtab->names_cap)
	{
		symtab->names_cap = symtab->names_cap ? symtab->names_cap * 2 : 16;
		symtab->names = pgb_realloc(symtab->names,
									 symtab->names_cap * sizeof(char *));
		symtab->name_lens = pgb_realloc(symtab->name_lens,
										 symtab->names_cap * sizeof(size_t));
	}
	slot = symtab->count++;
	symtab->names[slot] = pgb_realloc(NULL, len + 1);
	memcpy(symtab->names[slot], name, len);
	symtab->names[slot][len] = '\0';
	symtab->name_lens[slot] = len;
	symtab->buckets[b] = slot + 1;

	if ((size_t) symtab->count * 2 > symtab->nbuckets)
		var_symtab_rehash(symtab);
	return slot;
}

int
var_symtab_count(const var_symtab *symtab)
{
	return symtab->count;
}

const char *
var_symtab_name(const var_symtab *symtab, int slot)
{
	if (slot < 0 || slot >= symtab->count)
		return NULL;
	return symtab->names[slot];
}

/* ---- names --------------------------------------------------------------- */

/* Bytes >= 0x80 count as letters so that UTF-8 names work, as in pgbench. */
static bool
var_is_name_start(unsigned char c)
{
	return c >= 0x80 || c == '_' ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
var_is_name_char(unsigned char c)
{
	return var_is_name_start(c) || (c >= '0' && c <= '9');
}

bool
var_name_is_valid(const char *name, size_t len)
{
	if (len == 0 || !var_is_name_start((unsigned char) name[0]))
		return false;
	for (size_t i = 1; i < len; i++)
	{
		if (!var_is_name_char((unsigned char) name[i]))
			return false;
	}
	return true;
}

size_t
var_name_span(const char *text)
{
	size_t		n = 0;

	if (!var_is_name_start((unsigned char) text[0]))
		return 0;
	while (text[n] != '\0' && var_is_name_char((unsigned char) text[n]))
		n++;
	return n;
}

/* ---- quoting for SQL text ------------------------------------------------ */

size_t
var_quoted_len(const char *value, bool literal)
{
	char		quote = literal ? '\'' : '"';
	size_t		len = 2;
	bool		backslash = false;

	for (const char *p = value; *p != '\0'; p++)
	{
		len += (*p == quote || (literal && *p == '\\')) ? 2 : 1;
		backslash |= literal && *p == '\\';
	}
	return backslash ? len + 2 : len;
}

size_t
var_quote(char *dst, const char *value, bool literal)
{
	char		quote = literal ? '\'' : '"';
	char	   *d = dst;

	if (literal && strchr(value, '\\') != NULL)
	{
		*d++ = ' ';
		*d++ = 'E';
	}
	*d++ = quote;
	for (const char *p = value; *p != '\0'; p++)
	{
		if (*p == quote || (literal && *p == '\\'))
			*d++ = *p;
		*d++ = *p;
	}
	*d++ = quote;
	return (size_t) (d - dst);
}

/* ---- formatting ---------------------------------------------------------- */

/*
 * PostgreSQL's own printf spells non-finite doubles "NaN", "Infinity" and
 * "-Infinity" whatever the conversion; the C library would say "nan"/"inf".
 */
static const char *
var_nonfinite_name(double d)
{
	if (isnan(d))
		return "NaN";
	if (isinf(d))
		return d > 0 ? "Infinity" : "-Infinity";
	return NULL;
}

/*
 * text into buf as snprintf's "%s" would (truncated to len - 1 bytes and
 * NUL-terminated when len > 0), returning its length.
 */
static int
format_text(const char *text, size_t n, char *buf, size_t len)
{
	if (len > 0)
	{
		size_t		k = n < len ? n : len - 1;

		memcpy(buf, text, k);
		buf[k] = '\0';
	}
	return (int) n;
}

/*
 * v in decimal into dst, which has room for 21 bytes, and a NUL; returns
 * the length.  The hot path binds integer variables into every statement,
 * and glibc's snprintf costs some 700 instructions for one
 * (doc/performance.md): here the digits are counted first, then written
 * in place from the end, two a division.
 */
static int
format_int_to(int64_t v, char *dst)
{
	/* "00" to "99" */
	static const char pairs[201] =
		"0001020304050607080910111213141516171819"
		"2021222324252627282930313233343536373839"
		"4041424344454647484950515253545556575859"
		"6061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	static const uint64_t powers[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
	uint64_t	u = v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;
	/* digits: from the bit length (log10(2) ~ 1233 / 4096), then one check */
	int			digits = ((64 - __builtin_clzll(u | 1)) * 1233) >> 12;
	int			n;
	char	   *p;

	digits += u >= powers[digits];
	n = (v < 0) + (digits > 0 ? digits : 1);
	p = dst + n;
	*p = '\0';
	while (u >= 100)
	{
		p -= 2;
		memcpy(p, &pairs[(u % 100) * 2], 2);
		u /= 100;
	}
	if (u >= 10)
	{
		p -= 2;
		memcpy(p, &pairs[u * 2], 2);
	}
	else
		*--p = (char) ('0' + u);
	if (v < 0)
		*--p = '-';
	return n;
}

/*
 * v as snprintf's "%" PRId64 would write it into buf (truncated to len - 1
 * bytes and NUL-terminated when len > 0), returning its length.
 */
static int
format_int(int64_t v, char *buf, size_t len)
{
	char		digits[24];
	int			n = format_int_to(v, digits);

	return format_text(digits, (size_t) n, buf, len);
}

/*
 * "%.15g" (DBL_DIG).  A whole number below 10^15 in magnitude has at most
 * 15 digits, so %.15g writes it as an integer, exactly: those (the
 * doubles a script's arithmetic most often binds) skip stdio, whose
 * conversion costs several hundred instructions; -0 is written "-0".
 */
int
var_format_double(double d, char *buf, size_t len)
{
	const char *special = var_nonfinite_name(d);

	if (special != NULL)
		return format_text(special, strlen(special), buf, len);
	if (d > -1e15 && d < 1e15 && d == (double) (int64_t) d)
	{
		if (d == 0 && signbit(d))
			return format_text("-0", 2, buf, len);
		return format_int((int64_t) d, buf, len);
	}
	return snprintf(buf, len, "%.*g", DBL_DIG, d);
}

int
var_format_double_fixed(double d, char *buf, size_t len)
{
	const char *special = var_nonfinite_name(d);

	if (special != NULL)
		return format_text(special, strlen(special), buf, len);
	return snprintf(buf, len, "%f", d);
}

int
var_format_value(const pgb_value *value, char *buf, size_t len)
{
	switch (value->type)
	{
		case PGBT_NULL:
			return format_text("NULL", 4, buf, len);
		case PGBT_BOOLEAN:
			return value->u.bval ? format_text("true", 4, buf, len)
				: format_text("false", 5, buf, len);
		case PGBT_INT:
			return format_int(value->u.ival, buf, len);
		case PGBT_DOUBLE:
			return var_format_double(value->u.dval, buf, len);
		case PGBT_NO_VALUE:
			break;
	}
	if (len > 0)
		buf[0] = '\0';
	return 0;
}

/* ---- the store ----------------------------------------------------------- */

void
var_store_init(var_store *store, const var_symtab *symtab)
{
	store->symtab = symtab;
	store->nslots = 0;
	store->slots = NULL;
	var_store_grow(store);
}

void
var_store_grow(var_store *store)
{
	int			want = var_symtab_count(store->symtab);

	if (want <= store->nslots && store->slots != NULL)
		return;
	store->slots = pgb_realloc(store->slots,
								(size_t) (want > 0 ? want : 1) * sizeof(var_slot));
	for (int i = store->nslots; i < want; i++)
	{
		var_slot   *s = &store->slots[i];

		s->has_string = false;
		s->value.type = PGBT_NO_VALUE;
		s->str = pgb_malloc(VAR_VALUE_TEXT_MAX);
		s->str_cap = VAR_VALUE_TEXT_MAX;
	}
	if (want > store->nslots)
		store->nslots = want;
}

void
var_store_free(var_store *store)
{
	for (int i = 0; i < store->nslots; i++)
		free(store->slots[i].str);
	free(store->slots);
	store->slots = NULL;
	store->nslots = 0;
}

/*
 * Make room for len bytes plus the terminator, keeping the contents.
 * May run in a worker thread (\gset): false when out of memory, the slot
 * unchanged.
 */
static bool
var_slot_reserve(var_slot *s, size_t len)
{
	size_t		cap;
	char	   *grown;

	if (len < s->str_cap)
		return true;
	cap = s->str_cap ? s->str_cap : 16;
	while (cap <= len)
		cap *= 2;
	grown = realloc(s->str, cap);
	if (grown == NULL)
		return false;
	s->str = grown;
	s->str_cap = cap;
	return true;
}

static bool
var_slot_store_string(var_slot *s, const char *value, size_t len)
{
	/* value may point into the slot's own buffer: move, never realloc then */
	if (s->str != NULL && value >= s->str && value < s->str + s->str_cap)
		memmove(s->str, value, len);
	else
	{
		if (!var_slot_reserve(s, len))
			return false;
		memcpy(s->str, value, len);
	}
	s->str[len] = '\0';
	s->has_string = true;
	return true;
}

void
var_store_copy(var_store *dst, const var_store *src)
{
	if (dst->slots == NULL)
		dst->nslots = 0;
	dst->symtab = src->symtab;
	var_store_grow(dst);
	for (int i = 0; i < src->nslots; i++)
	{
		const var_slot *from = &src->slots[i];
		var_slot   *to = &dst->slots[i];

		to->value = from->value;
		to->has_string = false;
		if (from->has_string)
			(void) var_slot_store_string(to, from->str, strlen(from->str));
	}
	for (int i = src->nslots; i < dst->nslots; i++)
	{
		dst->slots[i].has_string = false;
		dst->slots[i].value.type = PGBT_NO_VALUE;
	}
}

bool
var_set_string(var_store *store, int slot, const char *value, size_t len)
{
	var_slot   *s;

	if (PGB_UNLIKELY(slot >= store->nslots))
		var_store_grow(store);
	s = &store->slots[slot];
	if (!var_slot_store_string(s, value, len))
		return false;
	s->value.type = PGBT_NO_VALUE;
	return true;
}

void
var_set_value(var_store *store, int slot, pgb_value value)
{
	var_slot   *s;

	if (PGB_UNLIKELY(slot >= store->nslots))
		var_store_grow(store);
	s = &store->slots[slot];
	s->value = value;
	s->has_string = false;
}

const char *
var_get_string(var_store *store, int slot)
{
	var_slot   *s;
	char		text[64];
	int			n;

	if (slot < 0 || slot >= store->nslots)
		return NULL;
	s = &store->slots[slot];
	if (s->has_string)
		return s->str;
	if (PGB_LIKELY(s->value.type == PGBT_INT))
	{
		/* every slot has VAR_VALUE_TEXT_MAX bytes: the digits go in place */
		(void) format_int_to(s->value.u.ival, s->str);
		s->has_string = true;
		return s->str;
	}
	if (s->value.type == PGBT_NO_VALUE)
		return NULL;
	n = var_format_value(&s->value, text, sizeof(text));
	/* every slot has VAR_VALUE_TEXT_MAX bytes: this never allocates */
	if (!var_slot_store_string(s, text, (size_t) n))
		return NULL;
	return s->str;
}

/* ---- lazy parsing of the string form ------------------------------------- */

/* Whitespace as isspace() in the C locale. */
static bool
var_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' ||
		c == '\f' || c == '\r';
}

static bool
var_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Case-insensitive: is text a non-empty prefix of word?  ("t", "tr" ...
 * "true" all mean true.)
 */
static bool
var_is_prefix_of(const char *text, size_t len, const char *word)
{
	return len <= strlen(word) && strncasecmp(text, word, len) == 0;
}

/*
 * pgbench decides "integer" before converting: optional leading spaces,
 * an optional sign, then digits only up to the end.  A sign or spaces
 * with no digit at all still count, and then fail as bad bigint syntax.
 */
static bool
var_looks_like_int(const char *str)
{
	while (var_is_space(*str))
		str++;
	if (*str == '+' || *str == '-')
		str++;
	while (var_is_digit(*str))
		str++;
	return *str == '\0';
}

/* Convert with bigint's messages; accumulates negatively to reach INT64_MIN. */
static bool
var_parse_int64(const char *str, int64_t *out, char *errbuf, size_t errlen)
{
	const char *p = str;
	bool		negative = false;
	int64_t		acc = 0;

	while (var_is_space(*p))
		p++;
	if (*p == '-' || *p == '+')
		negative = (*p++ == '-');
	if (!var_is_digit(*p))
		goto bad_syntax;
	for (; var_is_digit(*p); p++)
	{
		int			digit = *p - '0';

		if (acc < (INT64_MIN + digit) / 10)
			goto out_of_range;
		acc = acc * 10 - digit;
	}
	while (var_is_space(*p))
		p++;
	if (*p != '\0')
		goto bad_syntax;
	if (!negative)
	{
		if (acc == INT64_MIN)
			goto out_of_range;
		acc = -acc;
	}
	*out = acc;
	return true;

out_of_range:
	snprintf(errbuf, errlen, "value \"%s\" is out of range for type bigint", str);
	return false;
bad_syntax:
	snprintf(errbuf, errlen, "invalid input syntax for type bigint: \"%s\"", str);
	return false;
}

static bool
var_parse_string(const char *name, const char *str, pgb_value *out,
				 char *errbuf, size_t errlen)
{
	size_t		len = strlen(str);
	char	   *end;
	double		d;

	/* pgbench refuses an empty string without saying anything */
	if (len == 0)
	{
		if (errlen > 0)
			errbuf[0] = '\0';
		return false;
	}
	if (strcasecmp(str, "null") == 0)
		*out = pgb_value_null();
	else if (var_is_prefix_of(str, len, "true") ||
			 var_is_prefix_of(str, len, "yes") ||
			 strcasecmp(str, "on") == 0)
		*out = pgb_value_bool(true);
	else if (var_is_prefix_of(str, len, "false") ||
			 var_is_prefix_of(str, len, "no") ||
			 strcasecmp(str, "off") == 0 || strcasecmp(str, "of") == 0)
		*out = pgb_value_bool(false);
	else if (var_looks_like_int(str))
	{
		int64_t		i;

		if (!var_parse_int64(str, &i, errbuf, errlen))
			return false;
		*out = pgb_value_int(i);
	}
	else
	{
		errno = 0;
		d = strtod(str, &end);
		if (errno != 0 || end == str || *end != '\0')
		{
			snprintf(errbuf, errlen, "malformed variable \"%s\" value: \"%s\"",
					 name, str);
			return false;
		}
		*out = pgb_value_double(d);
	}
	return true;
}

bool
var_get_value(var_store *store, int slot, pgb_value *out,
			  char *errbuf, size_t errlen)
{
	var_slot   *s = NULL;
	const char *name;

	if (PGB_LIKELY(slot >= 0 && slot < store->nslots))
		s = &store->slots[slot];
	if (PGB_LIKELY(s != NULL && s->value.type != PGBT_NO_VALUE))
	{
		*out = s->value;
		return true;
	}
	name = var_symtab_name(store->symtab, slot);
	if (s == NULL || !s->has_string)
	{
		snprintf(errbuf, errlen, "undefined variable \"%s\"", name ? name : "");
		return false;
	}
	if (!var_parse_string(name, s->str, &s->value, errbuf, errlen))
		return false;
	*out = s->value;
	return true;
}
