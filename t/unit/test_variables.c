/*
 * test_variables.c — unit tests of the variable store: name rules, the
 * symbol table, string ↔ typed round trips with pgbench's lazy parsing
 * rules and messages (checked against pgbench 15), buffer reuse, copies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/script/variables.h"
#include "tap.h"

/* "int 12", "boolean true", "double 1.5", "null" — like debug()'s output. */
static void
describe_value(const pgb_value *v, char *buf, size_t len)
{
	char		text[64];

	var_format_value(v, text, sizeof(text));
	switch (v->type)
	{
		case PGBT_NULL:
			snprintf(buf, len, "null");
			break;
		case PGBT_BOOLEAN:
			snprintf(buf, len, "boolean %s", text);
			break;
		case PGBT_INT:
			snprintf(buf, len, "int %s", text);
			break;
		case PGBT_DOUBLE:
			snprintf(buf, len, "double %s", text);
			break;
		case PGBT_NO_VALUE:
			snprintf(buf, len, "none");
			break;
	}
}

static void
test_names(void)
{
	static const struct
	{
		const char *name;
		bool		valid;
	}			cases[] = {
		{"x", true}, {"_a", true}, {"a1", true}, {"A_Z9", true},
		{"_", true}, {"\xc3\xa9t\xc3\xa9", true}, {"a\xc3\xa9", true},
		{"", false}, {"1a", false}, {"9", false}, {"a-b", false},
		{"a b", false}, {"a.b", false}, {"a:", false}, {"$x", false},
	};

	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
		tap_ok(var_name_is_valid(cases[i].name, strlen(cases[i].name)) == cases[i].valid,
			   "name \"%s\" is %s", cases[i].name, cases[i].valid ? "valid" : "invalid");
}

static void
test_name_span(void)
{
	static const struct
	{
		const char *text;
		size_t		span;
	}			cases[] = {
		{"abc def", 3}, {"a:b", 1}, {"x1_y2;", 5}, {"_", 1},
		{"\xc3\xa9" "1,", 3}, {"1abc", 0}, {"", 0}, {" a", 0}, {"::x", 0},
	};

	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
		tap_is_int((int64_t) var_name_span(cases[i].text), (int64_t) cases[i].span,
				   cases[i].text);
}

static void
test_symtab(void)
{
	var_symtab *st = var_symtab_create();
	int			a = var_symtab_intern(st, "alpha", 5);
	int			b = var_symtab_intern(st, "beta_and_more", 4);
	char		name[32];
	bool		all_found = true;

	tap_is_int(a, 0, "first name gets slot 0");
	tap_is_int(b, 1, "second name gets slot 1");
	tap_is_int(var_symtab_intern(st, "alphabet", 5), a, "interning again gives the same slot");
	tap_is_int(var_symtab_find(st, "beta", 4), b, "find by length-delimited name");
	tap_is_int(var_symtab_find(st, "bet", 3), -1, "unknown prefix is not found");
	tap_is_int(var_symtab_find(st, "gamma", 5), -1, "unknown name is not found");
	tap_is_str(var_symtab_name(st, b), "beta", "name of a slot is NUL-terminated");
	tap_ok(var_symtab_name(st, 99) == NULL, "name of a bad slot is NULL");

	/* force several rehashes */
	for (int i = 0; i < 2000; i++)
	{
		snprintf(name, sizeof(name), "v%d", i);
		if (var_symtab_intern(st, name, strlen(name)) != i + 2)
			all_found = false;
	}
	for (int i = 0; i < 2000; i++)
	{
		snprintf(name, sizeof(name), "v%d", i);
		if (var_symtab_find(st, name, strlen(name)) != i + 2)
			all_found = false;
	}
	tap_ok(all_found, "2000 names keep their slots across rehashes");
	tap_is_int(var_symtab_count(st), 2002, "count");
	tap_is_int(var_symtab_find(st, "alpha", 5), a, "early names survive rehashing");
	var_symtab_free(st);
}

/* The lazy parse of a string value; expectations taken from pgbench 15. */
static void
test_parse(void)
{
	static const struct
	{
		const char *text;
		const char *expect;		/* description, or "ERR:<message>" */
	}			cases[] = {
		{"null", "null"}, {"NULL", "null"}, {"Null", "null"},
		{"nul", "ERR:malformed variable \"x\" value: \"nul\""},
		{"t", "boolean true"}, {"tr", "boolean true"}, {"TRUE", "boolean true"},
		{"truex", "ERR:malformed variable \"x\" value: \"truex\""},
		{"y", "boolean true"}, {"ye", "boolean true"}, {"yes", "boolean true"},
		{"yess", "ERR:malformed variable \"x\" value: \"yess\""},
		{"on", "boolean true"}, {"ON", "boolean true"},
		{"o", "ERR:malformed variable \"x\" value: \"o\""},
		{"of", "boolean false"}, {"OF", "boolean false"}, {"off", "boolean false"},
		{"offf", "ERR:malformed variable \"x\" value: \"offf\""},
		{"f", "boolean false"}, {"fa", "boolean false"}, {"FALSE", "boolean false"},
		{"n", "boolean false"}, {"no", "boolean false"}, {"NO", "boolean false"},
		{"nu", "ERR:malformed variable \"x\" value: \"nu\""},
		{"", "ERR:"},
		{"12", "int 12"}, {" 12", "int 12"}, {"\t7", "int 7"}, {"+5", "int 5"},
		{"-0", "int 0"}, {"-9223372036854775808", "int -9223372036854775808"},
		{"9223372036854775807", "int 9223372036854775807"},
		{"9223372036854775808", "ERR:value \"9223372036854775808\" is out of range for type bigint"},
		{"99999999999999999999", "ERR:value \"99999999999999999999\" is out of range for type bigint"},
		{"-9223372036854775809", "ERR:value \"-9223372036854775809\" is out of range for type bigint"},
		{"-", "ERR:invalid input syntax for type bigint: \"-\""},
		{"+", "ERR:invalid input syntax for type bigint: \"+\""},
		{"  ", "ERR:invalid input syntax for type bigint: \"  \""},
		{"12 ", "ERR:malformed variable \"x\" value: \"12 \""},
		{"7\t", "ERR:malformed variable \"x\" value: \"7\t\""},
		{" +7 ", "ERR:malformed variable \"x\" value: \" +7 \""},
		{"+-1", "ERR:malformed variable \"x\" value: \"+-1\""},
		{"1_000", "ERR:malformed variable \"x\" value: \"1_000\""},
		{"1.5", "double 1.5"}, {" 1.5", "double 1.5"}, {".5", "double 0.5"},
		{"5.", "double 5"}, {"1e5", "double 100000"}, {"0x10", "double 16"},
		{"inf", "double Infinity"}, {"-inf", "double -Infinity"},
		{"Infinity", "double Infinity"}, {"nan", "double NaN"},
		{"1.5 ", "ERR:malformed variable \"x\" value: \"1.5 \""},
		{"1e400", "ERR:malformed variable \"x\" value: \"1e400\""},
		{"1e-400", "ERR:malformed variable \"x\" value: \"1e-400\""},
		{"1e", "ERR:malformed variable \"x\" value: \"1e\""},
		{"0x", "ERR:malformed variable \"x\" value: \"0x\""},
		{"abc", "ERR:malformed variable \"x\" value: \"abc\""},
	};
	var_symtab *st = var_symtab_create();
	int			x = var_symtab_intern(st, "x", 1);
	var_store	vs;

	var_store_init(&vs, st);
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		char		got[300];
		char		err[256] = "untouched";
		pgb_value	v;

		var_set_string(&vs, x, cases[i].text, strlen(cases[i].text));
		if (var_get_value(&vs, x, &v, err, sizeof(err)))
			describe_value(&v, got, sizeof(got));
		else
			snprintf(got, sizeof(got), "ERR:%s", err);
		tap_is_str(got, cases[i].expect, cases[i].text);
	}
	var_store_free(&vs);
	var_symtab_free(st);
}

/* String forms of typed values, as pgbench substitutes them. */
static void
test_string_forms(void)
{
	static const struct
	{
		pgb_value	value;
		const char *expect;
	}			cases[] = {
		{{.type = PGBT_INT, .u.ival = 3}, "3"},
		{{.type = PGBT_INT, .u.ival = INT64_MIN}, "-9223372036854775808"},
		{{.type = PGBT_DOUBLE, .u.dval = 3.0}, "3"},
		{{.type = PGBT_DOUBLE, .u.dval = 0.1 + 0.2}, "0.3"},
		{{.type = PGBT_DOUBLE, .u.dval = 1.0 / 3}, "0.333333333333333"},
		{{.type = PGBT_DOUBLE, .u.dval = 1e20}, "1e+20"},
		{{.type = PGBT_DOUBLE, .u.dval = 123456789012345678.0}, "1.23456789012346e+17"},
		{{.type = PGBT_DOUBLE, .u.dval = 1e-5}, "1e-05"},
		{{.type = PGBT_DOUBLE, .u.dval = -0.0}, "-0"},
		{{.type = PGBT_DOUBLE, .u.dval = 1e308 * 10}, "Infinity"},
		{{.type = PGBT_DOUBLE, .u.dval = -1e308 * 10}, "-Infinity"},
		{{.type = PGBT_DOUBLE, .u.dval = NAN}, "NaN"},
		{{.type = PGBT_BOOLEAN, .u.bval = true}, "true"},
		{{.type = PGBT_BOOLEAN, .u.bval = false}, "false"},
		{{.type = PGBT_NULL}, "NULL"},
	};
	var_symtab *st = var_symtab_create();
	int			x = var_symtab_intern(st, "x", 1);
	var_store	vs;

	var_store_init(&vs, st);
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		const char *s;

		var_set_value(&vs, x, cases[i].value);
		s = var_get_string(&vs, x);
		tap_is_str(s ? s : "(null)", cases[i].expect, cases[i].expect);
	}
	var_store_free(&vs);
	var_symtab_free(st);
}

static void
test_store_behaviour(void)
{
	var_symtab *st = var_symtab_create();
	int			x = var_symtab_intern(st, "x", 1);
	int			y = var_symtab_intern(st, "y", 1);
	var_store	vs;
	char		err[256];
	pgb_value	v;
	const char *p1;
	const char *p2;
	char		fixed[64];
	int			late;

	var_store_init(&vs, st);
	tap_ok(!var_is_set(&vs, x), "new slot is unset");
	tap_ok(var_get_string(&vs, x) == NULL, "unset slot has no string");
	tap_ok(!var_get_value(&vs, y, &v, err, sizeof(err)), "unset slot has no value");
	tap_is_str(err, "undefined variable \"y\"", "undefined variable message");

	/* round trip string → value → string keeps the original text */
	var_set_string(&vs, x, " 42", 3);
	tap_ok(var_is_set(&vs, x), "slot set from a string");
	tap_ok(var_get_value(&vs, x, &v, err, sizeof(err)) && v.type == PGBT_INT &&
		   v.u.ival == 42, "string parsed to int lazily");
	tap_is_str(var_get_string(&vs, x), " 42", "string form stays as given");
	tap_is_int(vs.slots[x].value.type, PGBT_INT, "parsed value is cached");

	/* value → string is cached in the slot's buffer */
	var_set_value(&vs, x, pgb_value_double(2.5));
	tap_ok(!vs.slots[x].has_string, "typed set drops the string form");
	p1 = var_get_string(&vs, x);
	tap_is_str(p1, "2.5", "double formatted on demand");
	tap_ok(var_get_string(&vs, x) == p1, "formatted string is cached");

	/* buffer reuse: no reallocation once large enough */
	var_set_string(&vs, x, "a fairly long string value, longer than sixteen", 47);
	p1 = vs.slots[x].str;
	var_set_string(&vs, x, "short", 5);
	var_set_value(&vs, x, pgb_value_int(-7));
	p2 = var_get_string(&vs, x);
	tap_ok(p1 == p2, "slot buffer is reused for shorter strings and formatting");
	tap_is_str(p2, "-7", "formatted into the reused buffer");
	tap_ok(var_get_value(&vs, x, &v, err, sizeof(err)) && v.u.ival == -7,
		   "typed value kept after formatting");

	/* setting a slot from its own buffer */
	var_set_string(&vs, x, "hello world", 11);
	var_set_string(&vs, x, vs.slots[x].str + 6, 5);
	tap_is_str(var_get_string(&vs, x), "world", "set from its own buffer");

	/* string set resets a cached typed value */
	var_set_string(&vs, x, "1.25", 4);
	var_get_value(&vs, x, &v, err, sizeof(err));
	var_set_string(&vs, x, "yes", 3);
	tap_ok(var_get_value(&vs, x, &v, err, sizeof(err)) && v.type == PGBT_BOOLEAN &&
		   v.u.bval, "new string replaces the cached value");

	/* a failed parse leaves the variable as it was */
	var_set_string(&vs, y, "bad", 3);
	tap_ok(!var_get_value(&vs, y, &v, err, sizeof(err)), "malformed fails");
	tap_ok(!var_get_value(&vs, y, &v, err, sizeof(err)), "and fails again");
	tap_is_str(var_get_string(&vs, y), "bad", "malformed string kept");

	/* names interned after the store was made */
	late = var_symtab_intern(st, "late", 4);
	var_set_value(&vs, late, pgb_value_bool(false));
	tap_is_str(var_get_string(&vs, late), "false", "store grows for late names");

	var_format_double_fixed(1.0 / 0.0 * -1, fixed, sizeof(fixed));
	tap_is_str(fixed, "-Infinity", "%f form of -Infinity");
	var_format_double_fixed(2.0, fixed, sizeof(fixed));
	tap_is_str(fixed, "2.000000", "%f form");

	var_store_free(&vs);
	var_symtab_free(st);
}

static void
test_copy(void)
{
	var_symtab *st = var_symtab_create();
	int			a = var_symtab_intern(st, "a", 1);
	int			b = var_symtab_intern(st, "b", 1);
	int			c = var_symtab_intern(st, "c", 1);
	var_store	src;
	var_store	dst = {0};
	var_store	reused;
	char		err[256];
	pgb_value	v;
	const char *buf_before;

	var_store_init(&src, st);
	var_set_string(&src, a, "text", 4);
	var_set_value(&src, b, pgb_value_int(5));

	var_store_copy(&dst, &src);
	tap_is_int(dst.nslots, 3, "copy into zeroed store sizes it");
	tap_is_str(var_get_string(&dst, a), "text", "copied string");
	tap_ok(dst.slots[a].str != src.slots[a].str, "copy owns its buffer");
	tap_ok(var_get_value(&dst, b, &v, err, sizeof(err)) && v.u.ival == 5, "copied value");
	tap_ok(!var_is_set(&dst, c), "unset stays unset");

	var_set_string(&dst, a, "changed", 7);
	tap_is_str(var_get_string(&src, a), "text", "source unaffected by writes to copy");

	/* copying over an initialised store reuses its buffers and clears extras */
	var_store_init(&reused, st);
	var_set_string(&reused, a, "a longer previous value", 23);
	var_set_string(&reused, c, "stale", 5);
	buf_before = reused.slots[a].str;
	var_store_copy(&reused, &src);
	tap_ok(reused.slots[a].str == buf_before, "copy reuses destination buffers");
	tap_is_str(var_get_string(&reused, a), "text", "copied over old value");
	tap_ok(!var_is_set(&reused, c), "copy unsets what the source lacks");

	var_store_free(&src);
	var_store_free(&dst);
	var_store_free(&reused);
	var_symtab_free(st);
}

/* psql's :'name' and :"name" quoting, as PQescapeLiteral / Identifier. */
static void
test_quote(void)
{
	static const struct
	{
		const char *value;
		bool		literal;
		const char *expected;
	}			cases[] = {
		{"it's", true, "'it''s'"},
		{"a\\b'c", true, " E'a\\\\b''c'"},
		{"", true, "''"},
		{"x\"y", true, "'x\"y'"},
		{"x\"y", false, "\"x\"\"y\""},
		{"a'b\\c", false, "\"a'b\\c\""},
		{"", false, "\"\""},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		buf[64];
		size_t		len = var_quoted_len(cases[i].value, cases[i].literal);
		size_t		written;

		memset(buf, '#', sizeof(buf));
		written = var_quote(buf, cases[i].value, cases[i].literal);
		tap_is_int((int64_t) written, (int64_t) len, "quote: length as announced");
		tap_ok(buf[written] == '#', "quote: nothing written past it");
		buf[written] = '\0';
		tap_is_str(buf, cases[i].expected, "quote: psql's text");
	}
}

/* Integers formatted without stdio: as snprintf's "%" PRId64, truncation included. */
static void
test_int_format(void)
{
	static const int64_t values[] = {0, 1, -1, 9, 10, -10, 99999, 100000, 4294967296LL,
		INT64_MAX, INT64_MIN, INT64_MIN + 1, -1234567890123LL};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		for (size_t len = 0; len <= 24; len += (len < 4 ? 1 : 10))
		{
			pgb_value	v = {.type = PGBT_INT, .u.ival = values[i]};
			char		got[32],
						want[32];
			int			ngot,
						nwant;

			memset(got, 'x', sizeof(got));
			memset(want, 'x', sizeof(want));
			ngot = var_format_value(&v, got, len);
			nwant = snprintf(want, len, "%" PRId64, values[i]);
			tap_ok(ngot == nwant && memcmp(got, want, sizeof(got)) == 0,
				   "%" PRId64 " into %zu bytes: as snprintf (\"%.*s\", %d)", values[i], len,
				   (int) (len > 0 ? len - 1 : 0), want, nwant);
		}
	/* a variable's string form: the digits written in its slot */
	{
		var_symtab *st = var_symtab_create();
		int			x = var_symtab_intern(st, "x", 1);
		var_store	vs;

		var_store_init(&vs, st);
		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		{
			char		want[32];

			snprintf(want, sizeof(want), "%" PRId64, values[i]);
			var_set_value(&vs, x, pgb_value_int(values[i]));
			tap_is_str(var_get_string(&vs, x), want, "the string form of an integer variable");
		}
		/* each digit count's first and last numbers, both signs */
		{
			bool		all = true;

			for (int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
			{
				const int64_t edges[] = {p - 1, p, p * 10 - 1, -(p - 1), -p, 1 - p * 10};

				for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
				{
					char		want[32];

					snprintf(want, sizeof(want), "%" PRId64, edges[i]);
					var_set_value(&vs, x, pgb_value_int(edges[i]));
					all &= strcmp(var_get_string(&vs, x), want) == 0;
				}
			}
			tap_ok(all, "the string forms of 10^k - 1 and 10^k, k up to 18, both signs");
		}
		var_store_free(&vs);
		var_symtab_free(st);
	}
}

/*
 * Doubles, booleans and NULL formatted without stdio where they can be:
 * as snprintf's "%.15g" (whole numbers below 1e15, -0; the rest goes to
 * snprintf itself) and "%s", truncation included.
 */
static void
test_other_format(void)
{
	static const double doubles[] = {0.0, -0.0, 1.0, -1.0, 42.0, 1e14, 999999999999999.0,
		-999999999999999.0, 1e15, -1e15, 1e16, 123456789012345.0, 0.5, -2.5, 1.0 / 3,
		4503599627370496.0, 9007199254740993.0, 1e300, 5e-324, 1e100};
	static const char *const names[] = {"double", "true", "false", "NULL"};

	for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]) + 3; i++)
		for (size_t len = 0; len <= 24; len += (len < 4 ? 1 : 10))
		{
			bool		is_double = i < sizeof(doubles) / sizeof(doubles[0]);
			size_t		other = is_double ? 0 : i - sizeof(doubles) / sizeof(doubles[0]) + 1;
			pgb_value	v = {.type = PGBT_DOUBLE};
			char		got[32],
						want[32];
			int			ngot,
						nwant;

			if (is_double)
				v.u.dval = doubles[i];
			else if (other < 3)
				v = (pgb_value) {.type = PGBT_BOOLEAN, .u.bval = other == 1};
			else
				v = (pgb_value) {.type = PGBT_NULL};
			memset(got, 'x', sizeof(got));
			memset(want, 'x', sizeof(want));
			ngot = var_format_value(&v, got, len);
			nwant = is_double ? snprintf(want, len, "%.15g", doubles[i])
				: snprintf(want, len, "%s", names[other]);
			tap_ok(ngot == nwant && memcmp(got, want, sizeof(got)) == 0,
				   "%s #%zu into %zu bytes: as snprintf (\"%.*s\", %d)", names[other], i, len,
				   (int) (len > 0 ? len - 1 : 0), want, nwant);
		}
}

int
main(void)
{
	test_int_format();
	test_other_format();
	test_names();
	test_name_span();
	test_symtab();
	test_parse();
	test_string_forms();
	test_store_behaviour();
	test_copy();
	test_quote();
	return tap_done();
}
