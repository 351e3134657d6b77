/*
 * fuzz_report_values.c — the checks of one value of the document
 * fr_check_report reads back (fuzz_report_check.h): a member there, of
 * the type and nullability its declaration gives (report_schema.h,
 * report_object_check for every object entered), reading back as the
 * writer must write it (fuzz_report_check.c says how each kind of value
 * must).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report_check.h"
#include "pgbench/base/utf8.h"

/* Member key of c (key NULL: c's value itself); missing: fail. */
const json_value *
chk_at(const chk *c, const char *key)
{
	const json_value *v = key != NULL ? json_get(c->v, key) : c->v;

	if (v == NULL)
		fr_fail("%s.%s: missing", c->path, key);
	return v;
}

chk
chk_sub(const chk *c, const char *key)
{
	report_member m = c->obj != RO_NONE ? report_member_of(c->obj, key) : RM_NONE;
	chk			s = {.v = chk_at(c, key), .holder = m};

	snprintf(s.path, sizeof(s.path), "%s.%s", c->path, key);
	if (m == RM_NONE)
		fr_fail("%s: not declared (report_schema.h)", s.path);
	if (s.v->kind == JSON_NULL || !report_value_fits(m, s.v))
		fr_fail("%s: found %s, declared %s", s.path, json_kind_name(s.v),
				report_type_text(report_members[m].type, false));
	s.obj = report_member_child(m);
	if (s.v->kind == JSON_OBJECT && s.obj != RO_NONE)
		chk_declared(&s, false);
	return s;
}

/* Member key of c, an object whose members are named by data: of kind. */
chk
chk_named(const chk *c, const char *key, json_kind kind)
{
	chk			s = {.v = chk_at(c, key), .obj = RO_NONE, .holder = RM_NONE};

	snprintf(s.path, sizeof(s.path), "%s.%s", c->path, key);
	if (c->obj != RO_NONE)
		fr_fail("%s: a declared member read as named by data", s.path);
	if (s.v->kind != kind)
		fr_fail("%s: found %s", s.path, json_kind_name(s.v));
	return s;
}

/*
 * The object c against its declaration (report_object_check): its
 * members declared, at their types, none missing that must be there.
 * unstarted: the top level of a run that never benchmarked.
 */
void
chk_declared(const chk *c, bool unstarted)
{
	static const char *const what[] = {
		[RX_UNDECLARED] = "not declared", [RX_MISTYPED] = "not of its declared type",
		[RX_MISSING] = "missing",
	};
	const char *key = NULL;
	report_offence offence = report_object_check(c->obj, c->holder, unstarted, c->v, &key);

	if (offence != RX_NONE)
		fr_fail("%s.%s: %s (%s, report_schema.h)", c->path, key, what[offence],
				report_object_headings[c->obj]);
}

/* Item i of the array c, which must have n items: an object of c's kind, checked. */
chk
chk_item(const chk *c, int i, int n)
{
	chk			s = {.v = json_at(c->v, i), .obj = c->obj, .holder = c->holder};

	if (c->v->kind != JSON_ARRAY || c->v->n != n)
		fr_fail("%s: expected %d items, found %s of %d", c->path, n, json_kind_name(c->v), c->v->n);
	snprintf(s.path, sizeof(s.path), "%s[%d]", c->path, i);
	if (s.obj != RO_NONE)
	{
		if (s.v->kind != JSON_OBJECT)
			fr_fail("%s: found %s, not an object", s.path, json_kind_name(s.v));
		chk_declared(&s, false);
	}
	return s;
}

void
want_null(const chk *c, const char *key)
{
	if (chk_at(c, key)->kind != JSON_NULL)
		fr_fail("%s.%s: expected null, found %s", c->path, key ? key : "", json_kind_name(chk_at(c, key)));
}

void
want_bool(const chk *c, const char *key, bool x)
{
	const json_value *v = chk_at(c, key);

	if (v->kind != JSON_BOOL || v->boolean != x)
		fr_fail("%s.%s: expected %s", c->path, key, x ? "true" : "false");
}

void
want_int(const chk *c, const char *key, int64_t x)
{
	const json_value *v = chk_at(c, key);

	if (v->kind != JSON_NUMBER || v->number != JSON_INT64 || v->u.integer != x)
		fr_fail("%s.%s: expected %" PRId64 ", found %s %.17g", c->path, key ? key : "", x,
				json_kind_name(v), json_num(v));
}

void
want_uint(const chk *c, const char *key, uint64_t x)
{
	const json_value *v = chk_at(c, key);

	if (x <= INT64_MAX)
		want_int(c, key, (int64_t) x);
	else if (v->kind != JSON_NUMBER || v->number != JSON_UINT64 || v->u.uinteger != x)
		fr_fail("%s.%s: expected %" PRIu64, c->path, key, x);
}

/* A double: null when x is not finite, else within tol of x. */
void
want_double(const chk *c, const char *key, double x, double tol)
{
	const json_value *v = chk_at(c, key);

	if (!isfinite(x))
		want_null(c, key);
	else if (v->kind != JSON_NUMBER || !(fabs(json_num(v) - x) <= tol))
		fr_fail("%s.%s: expected %.17g, found %s %.17g", c->path, key ? key : "", x,
				json_kind_name(v), json_num(v));
}

/* A setting or an exact sum: the same double. */
void
want_exact(const chk *c, const char *key, double x)
{
	want_double(c, key, x, 0.0);
}

/* A measured figure: six decimals. */
void
want_num(const chk *c, const char *key, double x)
{
	want_double(c, key, x, 5e-7 + fabs(x) * DBL_EPSILON);
}

/* A string as the writer must make it valid UTF-8; s NULL: null. */
void
want_str(const chk *c, const char *key, const char *s)
{
	const json_value *v = chk_at(c, key);
	size_t		n;
	char	   *clean;

	if (s == NULL)
	{
		want_null(c, key);
		return;
	}
	n = strlen(s);
	clean = malloc(UTF8_SANITIZED_SIZE(n));
	if (clean == NULL)
		fr_fail("out of memory");
	n = utf8_sanitize(clean, s, n);
	if (v->kind != JSON_STRING || (size_t) v->n != n || memcmp(v->u.string, clean, n) != 0)
		fr_fail("%s.%s: the string of %zu bytes (%zu sanitized) reads back as %s of %d bytes",
				c->path, key ? key : "", strlen(s), n, json_kind_name(v), v->n);
	free(clean);
}

/* A text that is written as null when empty (not known). */
const char *
chk_known(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

/* Member key: false when it must be null (!present), else its object in *s. */
bool
object_or_null(const chk *c, const char *key, bool present, chk *s)
{
	if (!present)
		want_null(c, key);
	else
		*s = chk_sub(c, key);
	return present;
}

/* Object c has exactly n members. */
void
want_members(const chk *c, int n)
{
	if (c->v->kind != JSON_OBJECT || c->v->n != n)
		fr_fail("%s: %d members, expected %d", c->path, c->v->n, n);
}
