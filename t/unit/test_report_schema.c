/*
 * test_report_schema.c — the members of the --report-json document,
 * declared once (REPORT_OBJECTS, REPORT_MEMBERS, REPORT_CHILDREN in
 * report_schema.h), against what is said of them and what is written:
 *
 *   - doc/report-json.md: a section per object, headed by the object's
 *     heading, whose table has a row per member (key, type as
 *     report_type_text gives it), in the declaration's order, and no
 *     other row; `transactions` with the counters of STATS_COUNTERS in
 *     the writer's order (put_counts).  The `settings` table is
 *     test_settings's, the server's counters test_counters_doc's;
 *   - the declaration itself: a unit per key suffix, children held by
 *     objects and arrays only, every object reachable from the top;
 *   - written reports (the .json files of t/unit/golden, and any file
 *     named after argv[1]): every member of an object with a declared
 *     table declared there, at its type, null only where it may be;
 *   - doc/report-json.schema.json, walked from its top along
 *     REPORT_CHILDREN: each object's properties exactly the declared keys
 *     (where it is first found; elsewhere a subset, as a script's
 *     `transactions` without `expected`), at the declared types, and
 *     $defs/unstarted's top-level members among the declared ones.
 *
 * argv[1] is the source directory; further arguments are report files
 * to check as the goldens are (e.g. real runs' documents).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/offline/json_read.h"
#include "pgbench/report/report_schema.h"
#include "pgbench/stats/stats.h"
#include "tap.h"

#define MAX_ROWS 64

static const char *srcdir = ".";

/* A row of a member table: its key and its type column. */
typedef struct row
{
	char		key[64];
	char		type[64];
} row;

/* ---- the rows the declaration wants ----------------------------------------- */

static int
add_row(row *rows, int n, const char *key, const char *type)
{
	if (n >= MAX_ROWS)
		return n;
	snprintf(rows[n].key, sizeof(rows[n].key), "%s", key);
	snprintf(rows[n].type, sizeof(rows[n].type), "%s", type);
	return n + 1;
}

static int
add_counters(row *rows, int n, stats_counter_kind want)
{
#define COUNTER_ROW(field, json_name, kind) \
	if ((kind) == want) \
		n = add_row(rows, n, json_name, "int");
	STATS_COUNTERS(COUNTER_ROW)
#undef COUNTER_ROW
	return n;
}

/* A transaction counter of STATS_COUNTERS by its JSON name. */
static bool
is_counter(const char *key)
{
#define COUNTER_IS(field, json_name, kind) \
	if (strcmp(key, json_name) == 0) \
		return true;
	STATS_COUNTERS(COUNTER_IS)
#undef COUNTER_IS
	return false;
}

/*
 * The members of o in the writer's order.  `transactions`: put_counts
 * and put_transactions (report_json.c): the counters of kind SUCCESS,
 * `failed`, the FAILURE, SKIPPED and RETRY kinds, then the declared
 * members after `failed`.
 */
static int
want_rows(report_object o, row *rows)
{
	int			n = 0;

	if (o == RO_TRANSACTIONS)
	{
		const report_member_def *failed = &report_members[RM_TRANSACTIONS_FAILED];

		n = add_counters(rows, n, STATS_COUNT_SUCCESS);
		n = add_row(rows, n, failed->key, report_type_text(failed->type, failed->nullable));
		n = add_counters(rows, n, STATS_COUNT_FAILURE);
		n = add_counters(rows, n, STATS_COUNT_SKIPPED);
		n = add_counters(rows, n, STATS_COUNT_RETRY);
	}
	for (int m = 0; m < RM_COUNT; m++)
	{
		const report_member_def *d = &report_members[m];

		if (d->object != o || m == RM_TRANSACTIONS_FAILED)
			continue;
		n = add_row(rows, n, d->key, report_type_text(d->type, d->nullable));
	}
	return n;
}

static int
find_row(const row *rows, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].key, key) == 0)
			return i;
	return -1;
}

/* ---- doc/report-json.md ----------------------------------------------------- */

/*
 * The section headed by heading ("## heading" or "### heading", then the
 * end of the line, a space or a parenthesis): its body up to the next
 * heading in *end.  NULL when there is none.
 */
static const char *
find_section(const char *text, const char *heading, const char **end)
{
	size_t		hlen = strlen(heading);

	for (const char *p = text; p != NULL; p = strchr(p + 1, '\n'))
	{
		const char *h = p == text ? p : p + 1;
		const char *after;

		if (h[0] != '#')
			continue;
		h += strspn(h, "#");
		if (h[0] != ' ' || strncmp(h + 1, heading, hlen) != 0)
			continue;
		after = h + 1 + hlen;
		if (*after != '\n' && *after != ' ' && *after != '(' && *after != '\0')
			continue;
		for (*end = strchr(after, '\n'); *end != NULL && (*end)[1] != '#'; *end = strchr(*end + 1, '\n'))
			;
		if (*end == NULL)
			*end = after + strlen(after);
		return after;
	}
	return NULL;
}

/* One cell of a table row at p ("| ..."): trimmed into buf; after it. */
static const char *
cell(const char *p, char *buf, size_t len)
{
	const char *bar = strchr(p + 1, '|');
	const char *s = p + 1;
	size_t		n;

	if (bar == NULL)
		return NULL;
	while (*s == ' ')
		s++;
	n = (size_t) (bar - s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int) n, s);
	return bar;
}

/*
 * The rows of the first "| field | type | meaning |" table between p and
 * end.  A row whose field is not one `key` (two keys in one row) is kept
 * with its whole field text as the key, so that it shows as undeclared.
 * -1 when the section has no such table.
 */
static int
doc_rows(const char *p, const char *end, row *rows)
{
	int			n = 0;

	p = strstr(p, "\n| field | type | meaning |");
	if (p == NULL || p > end)
		return -1;
	p = strchr(p + 1, '\n');	/* the header */
	p = p != NULL ? strchr(p + 1, '\n') : NULL;	/* "| --- |" */
	for (; p != NULL && p < end && p[1] == '|' && n < MAX_ROWS; p = strchr(p + 1, '\n'))
	{
		char		field[256];
		const char *q = cell(p + 1, field, sizeof(field));
		size_t		flen = strlen(field);

		if (q == NULL || cell(q, rows[n].type, sizeof(rows[n].type)) == NULL)
			break;
		if (flen >= 2 && field[0] == '`' && field[flen - 1] == '`' &&
			memchr(field + 1, '`', flen - 2) == NULL)
			snprintf(rows[n].key, sizeof(rows[n].key), "%.*s", (int) flen - 2, field + 1);
		else
			snprintf(rows[n].key, sizeof(rows[n].key), "%s", field);
		n++;
	}
	return n;
}

/* An object's doc rows against its declaration: declared, complete, in order, typed. */
static void
check_rows(const char *heading, const row *got, int ngot, const row *want, int nwant)
{
	int			undeclared = 0,
				missing = 0,
				misplaced = 0,
				mistyped = 0;

	for (int i = 0; i < ngot; i++)
	{
		int			w = find_row(want, nwant, got[i].key);

		if (w < 0)
		{
			tap_diag("%s: row `%s` is not declared", heading, got[i].key);
			undeclared++;
			continue;
		}
		if (w != i)
		{
			tap_diag("%s: row %d is `%s`, declared as member %d", heading, i + 1, got[i].key, w + 1);
			misplaced++;
		}
		if (strcmp(got[i].type, want[w].type) != 0)
		{
			tap_diag("%s: `%s` is \"%s\" in the doc, \"%s\" declared", heading, got[i].key,
					 got[i].type, want[w].type);
			mistyped++;
		}
	}
	for (int w = 0; w < nwant; w++)
		if (find_row(got, ngot, want[w].key) < 0)
		{
			tap_diag("%s: declared `%s` has no row", heading, want[w].key);
			missing++;
		}
	tap_ok(undeclared == 0, "doc %s: every row declared", heading);
	tap_ok(missing == 0, "doc %s: a row for every member", heading);
	tap_ok(misplaced == 0, "doc %s: rows in the declaration's order", heading);
	tap_ok(mistyped == 0, "doc %s: types as declared", heading);
}

static void
test_doc(void)
{
	size_t		len;
	char	   *text = tap_read_source(srcdir, "doc/report-json.md", &len);

	if (!tap_ok(text != NULL, "doc/report-json.md reads"))
		return;
	for (int o = 0; o < RO_COUNT; o++)
	{
		const char *heading = report_object_headings[o];
		const char *end = NULL;
		const char *body = find_section(text, heading, &end);
		row			got[MAX_ROWS],
					want[MAX_ROWS];
		int			ngot = body != NULL ? doc_rows(body, end, got) : -1;

		if (!tap_ok(body != NULL, "doc: a section headed %s", heading) ||
			!tap_ok(ngot >= 0, "doc %s: a | field | type | meaning | table", heading))
			continue;
		check_rows(heading, got, ngot, want, want_rows((report_object) o, want));
	}
	free(text);
}

/* ---- the declaration itself --------------------------------------------------- */

/* The unit a key's suffix names ("_ms": "ms", ...); NULL when none. */
static const char *
suffix_unit(const char *key)
{
	static const struct
	{
		const char *suffix;
		const char *unit;
	}			units[] = {
		{"_ms", "ms"}, {"_s", "s"}, {"_us", "us"}, {"_pct", "%"}, {"_kb", "kB"},
		{"_bytes", "bytes"},
	};
	size_t		klen = strlen(key);

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
	{
		size_t		slen = strlen(units[i].suffix);

		if (klen > slen && strcmp(key + klen - slen, units[i].suffix) == 0)
			return units[i].unit;
	}
	return NULL;
}

/*
 * Every member's unit agrees with its key's suffix; a key without one
 * has no unit, or its holder's (latency_ms.average: "ms", host.cpu_s.user:
 * "s"), the same for every member that holds its object.
 */
static void
test_units(void)
{
	int			bad = 0;

	for (int m = 0; m < RM_COUNT; m++)
	{
		const report_member_def *d = &report_members[m];
		const char *want = suffix_unit(d->key);

		if (want == NULL && d->unit[0] != '\0')
		{
			for (int h = 0; h < RM_COUNT; h++)
			{
				const char *held = suffix_unit(report_members[h].key);

				if (report_member_child((report_member) h) != d->object)
					continue;
				if (held == NULL || strcmp(held, d->unit) != 0)
				{
					tap_diag("%s `%s`: unit \"%s\", but its holder `%s` says \"%s\"",
							 report_object_headings[d->object], d->key, d->unit,
							 report_members[h].key, held != NULL ? held : "");
					bad++;
				}
				want = d->unit;
			}
		}
		if (strcmp(d->unit, want != NULL ? want : "") != 0)
		{
			tap_diag("%s `%s`: unit \"%s\", its key says \"%s\"", report_object_headings[d->object],
					 d->key, d->unit, want != NULL ? want : "");
			bad++;
		}
	}
	tap_ok(bad == 0, "every member's unit agrees with its key's suffix");
}

/* Children are held by objects and arrays; every object is reached from TOP. */
static void
test_children(void)
{
	bool		reached[RO_COUNT] = {[RO_TOP] = true};
	int			bad = 0;
	bool		more = true;

	for (int m = 0; m < RM_COUNT; m++)
	{
		const report_member_def *d = &report_members[m];

		if (report_member_child((report_member) m) != RO_NONE &&
			d->type != RT_OBJECT && d->type != RT_ARRAY)
		{
			tap_diag("%s `%s` holds an object but is a %s", report_object_headings[d->object],
					 d->key, report_type_text(d->type, false));
			bad++;
		}
	}
	tap_ok(bad == 0, "every REPORT_CHILDREN member is an object or an array");
	while (more)
	{
		more = false;
		for (int m = 0; m < RM_COUNT; m++)
		{
			report_object c = report_member_child((report_member) m);

			if (c != RO_NONE && reached[report_members[m].object] && !reached[c])
				reached[c] = more = true;
		}
	}
	bad = 0;
	for (int o = 0; o < RO_COUNT; o++)
		if (!reached[o])
		{
			tap_diag("%s is no member's child, from the top", report_object_headings[o]);
			bad++;
		}
	tap_ok(bad == 0, "every object is reached from the top level through REPORT_CHILDREN");
}

/* ---- written reports ---------------------------------------------------------- */

/* v (not null) is of type t. */
static bool
is_type(const json_value *v, report_type t)
{
	switch (t)
	{
		case RT_INT:
			return v->kind == JSON_NUMBER && (v->number == JSON_INT64 || v->number == JSON_UINT64);
		case RT_NUMBER:
			return v->kind == JSON_NUMBER;
		case RT_STRING:
			return v->kind == JSON_STRING;
		case RT_BOOL:
			return v->kind == JSON_BOOL;
		case RT_OBJECT:
			return v->kind == JSON_OBJECT;
		case RT_ARRAY:
			return v->kind == JSON_ARRAY;
	}
	return false;
}

/* The members of object o at r, and of the objects they hold; offences counted. */
static int
walk_report(report_object o, const json_ref *r, const char *file)
{
	int			bad = 0;
	char		path[256];

	for (int i = 0; i < r->v->n; i++)
	{
		const char *key = json_member_name(r->v, i);
		json_ref	mr = json_ref_member(r, key);
		report_member m = report_member_of(o, key);
		report_type type = m != RM_NONE ? report_members[m].type : RT_INT;
		bool		nullable = m != RM_NONE && report_members[m].nullable;
		report_object child = m != RM_NONE ? report_member_child(m) : RO_NONE;

		json_ref_path(&mr, path, sizeof(path));
		if (m == RM_NONE && !(o == RO_TRANSACTIONS && is_counter(key)))
		{
			tap_diag("%s: %s: not declared in %s", file, path, report_object_headings[o]);
			bad++;
			continue;
		}
		if (mr.v->kind == JSON_NULL ? !nullable : !is_type(mr.v, type))
		{
			tap_diag("%s: %s: %s, declared %s", file, path, json_kind_name(mr.v),
					 report_type_text(type, nullable));
			bad++;
			continue;
		}
		if (child == RO_NONE || mr.v->kind == JSON_NULL)
			continue;
		if (mr.v->kind == JSON_OBJECT)
			bad += walk_report(child, &mr, file);
		else
			for (int k = 0; k < mr.v->n; k++)
			{
				json_ref	item = json_ref_item(&mr, k);

				if (item.v->kind == JSON_OBJECT)
					bad += walk_report(child, &item, file);
				else
				{
					json_ref_path(&item, path, sizeof(path));
					tap_diag("%s: %s: %s, not an object", file, path, json_kind_name(item.v));
					bad++;
				}
			}
	}
	return bad;
}

/* One report file: parsed (the goldens' masked "compat": NN made a number), walked. */
static void
check_report(const char *path, const char *name)
{
	size_t		len;
	char	   *text = tap_read_source(path[0] == '/' ? "" : ".", path, &len);
	char	   *nn = text != NULL ? strstr(text, "\"compat\": NN") : NULL;
	char		why[256];
	json_doc	doc;

	if (nn != NULL)
		memcpy(nn + strlen("\"compat\": "), "16", 2);
	if (!tap_ok(text != NULL && json_parse(text, len, &doc, why, sizeof(why)),
				"report %s reads", name))
	{
		if (text != NULL)
			tap_diag("%s: %s", name, why);
		free(text);
		return;
	}
	if (tap_ok(doc.root.kind == JSON_OBJECT, "report %s is an object", name))
	{
		json_ref	root = json_ref_root(&doc.root);

		tap_ok(walk_report(RO_TOP, &root, name) == 0,
			   "report %s: every member declared, at its declared type", name);
	}
	json_doc_free(&doc);
	free(text);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The .json files of t/unit/golden, in name order. */
static void
test_goldens(void)
{
	char		dir[1024],
				path[2048];
	char	   *names[64];
	int			n = 0;
	DIR		   *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/t/unit/golden", srcdir);
	if (!tap_ok((d = opendir(dir)) != NULL, "t/unit/golden opens"))
		return;
	while ((e = readdir(d)) != NULL && n < 64)
	{
		size_t		l = strlen(e->d_name);

		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0)
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	tap_ok(n > 0, "t/unit/golden has reports");
	qsort(names, (size_t) n, sizeof(names[0]), compare_names);
	for (int i = 0; i < n; i++)
	{
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		check_report(path, names[i]);
		free(names[i]);
	}
}

/* ---- doc/report-json.schema.json ------------------------------------------- */

static const json_value *schema_defs;
static bool schema_found[RO_COUNT];

/*
 * node with its "$ref" (into $defs) followed and, of "oneOf"/"anyOf",
 * the alternative that is not just null.
 */
static const json_value *
schema_resolve(const json_value *node)
{
	for (int hops = 0; node != NULL && hops < 8; hops++)
	{
		const char *ref = json_str(json_get(node, "$ref"));
		const json_value *alts = json_get(node, "oneOf");

		if (alts == NULL)
			alts = json_get(node, "anyOf");
		if (ref != NULL && strncmp(ref, "#/$defs/", 8) == 0)
			node = json_get(schema_defs, ref + 8);
		else if (alts != NULL)
		{
			const json_value *pick = NULL;

			for (int i = 0; i < alts->n && pick == NULL; i++)
			{
				const char *t = json_str(json_get(json_at(alts, i), "type"));

				if (t == NULL || strcmp(t, "null") != 0)
					pick = json_at(alts, i);
			}
			node = pick;
		}
		else
			return node;
	}
	return node;
}

/* A "type" (a name or a list of names) names type name. */
static bool
type_names(const json_value *t, const char *name)
{
	if (json_str(t) != NULL)
		return strcmp(json_str(t), name) == 0;
	for (int i = 0; t != NULL && i < t->n; i++)
		if (json_str(json_at(t, i)) != NULL && strcmp(json_str(json_at(t, i)), name) == 0)
			return true;
	return false;
}

/*
 * Whether the schema's node allows JSON type name: its "type", or that
 * of its "$ref", or of one of its "oneOf" alternatives.  *known becomes
 * true when the node says any type at all (an enum or a const alone
 * does not).
 */
static bool
schema_allows(const json_value *node, const char *name, bool *known)
{
	const json_value *alts = json_get(node, "oneOf");
	bool		allows = false;

	if (json_get(node, "type") != NULL)
	{
		*known = true;
		return type_names(json_get(node, "type"), name);
	}
	if (json_str(json_get(node, "$ref")) != NULL)
		return schema_allows(schema_resolve(node), name, known);
	for (int i = 0; alts != NULL && i < alts->n; i++)
		allows = schema_allows(json_at(alts, i), name, known) || allows;
	return allows;
}

/*
 * A property's type against member m's declaration: the same (exact), or
 * (a variant of the document, $defs/unstarted) the declared type, and
 * null only where it may be.  Skipped when the schema gives no type (an
 * enum, a const).
 */
static int
schema_check_type(const json_value *prop, report_member m, const char *where, bool exact)
{
	static const char *const names[] = {
		[RT_INT] = "integer", [RT_NUMBER] = "number", [RT_STRING] = "string",
		[RT_BOOL] = "boolean", [RT_OBJECT] = "object", [RT_ARRAY] = "array",
	};
	const report_member_def *d = &report_members[m];
	bool		known = false;
	bool		type_ok = schema_allows(prop, names[d->type], &known);
	bool		null_ok = schema_allows(prop, "null", &known);

	if (!known || (type_ok && (exact ? null_ok == d->nullable : !null_ok || d->nullable)))
		return 0;
	tap_diag("schema %s: not %s", where, report_type_text(d->type, d->nullable));
	return 1;
}

static int	walk_schema(report_object o, const json_value *node, const char *where);

/* The object each property of o's node holds, walked in turn. */
static int
walk_schema_children(report_object o, const json_value *props, const char *where)
{
	int			bad = 0;

	for (int i = 0; i < props->n; i++)
	{
		const char *key = json_member_name(props, i);
		report_member m = report_member_of(o, key);
		report_object child = m != RM_NONE ? report_member_child(m) : RO_NONE;
		const json_value *node = schema_resolve(json_member_value(props, i));
		char		sub[512];

		if (child == RO_NONE)
			continue;
		if (report_members[m].type == RT_ARRAY)
			node = schema_resolve(json_get(node, "items"));
		snprintf(sub, sizeof(sub), "%s.%s%s", where, key,
				 report_members[m].type == RT_ARRAY ? "[]" : "");
		bad += walk_schema(child, node, sub);
	}
	return bad;
}

/*
 * The properties of o's node (at where, a path in the report): each
 * declared, at its type; at the first place o is found (the top level's,
 * since the walk goes in the writer's order) every declared member a
 * property, elsewhere a subset (a script's transactions have no
 * `expected`).
 */
static int
walk_schema(report_object o, const json_value *node, const char *where)
{
	const json_value *props = json_get(node, "properties");
	row			want[MAX_ROWS];
	int			nwant = want_rows(o, want),
				bad = 0;
	char		at[512];

	if (props == NULL || props->kind != JSON_OBJECT)
	{
		tap_diag("schema %s (%s): no properties", where, report_object_headings[o]);
		return 1;
	}
	for (int i = 0; i < props->n; i++)
	{
		const char *key = json_member_name(props, i);
		report_member m = report_member_of(o, key);

		snprintf(at, sizeof(at), "%s.%s", where, key);
		if (find_row(want, nwant, key) < 0)
		{
			tap_diag("schema %s: not declared in %s", at, report_object_headings[o]);
			bad++;
		}
		else if (m != RM_NONE)
			bad += schema_check_type(json_member_value(props, i), m, at, true);
	}
	for (int w = 0; !schema_found[o] && w < nwant; w++)
		if (json_get(props, want[w].key) == NULL)
		{
			tap_diag("schema %s: no property %s (declared in %s)", where, want[w].key,
					 report_object_headings[o]);
			bad++;
		}
	schema_found[o] = true;
	return bad + walk_schema_children(o, props, where);
}

static void
test_schema(void)
{
	size_t		len;
	char	   *text = tap_read_source(srcdir, "doc/report-json.schema.json", &len);
	char		why[256];
	json_doc	doc;
	const json_value *unstarted;
	int			bad = 0;

	if (!tap_ok(text != NULL && json_parse(text, len, &doc, why, sizeof(why)), "the schema reads"))
	{
		free(text);
		return;
	}
	schema_defs = json_get(&doc.root, "$defs");
	tap_ok(walk_schema(RO_TOP, &doc.root, "") == 0,
		   "schema: every object's properties are its declared members, at their types");
	for (int o = 0; o < RO_COUNT; o++)
		if (!schema_found[o])
		{
			tap_diag("schema: %s not found", report_object_headings[o]);
			bad++;
		}
	tap_ok(bad == 0, "schema: every declared object found");

	/* the document of a run that never started: top-level members only */
	bad = 0;
	unstarted = json_get(json_get(schema_defs, "unstarted"), "properties");
	for (int i = 0; unstarted != NULL && i < unstarted->n; i++)
	{
		const char *key = json_member_name(unstarted, i);
		report_member m = report_member_of(RO_TOP, key);

		if (m == RM_NONE)
			tap_diag("schema $defs/unstarted: %s not declared at the top level", key);
		bad += m == RM_NONE ? 1 : schema_check_type(json_member_value(unstarted, i), m, key, false);
	}
	tap_ok(unstarted != NULL && bad == 0,
		   "schema $defs/unstarted: top-level members, at their types (null only where declared)");
	json_doc_free(&doc);
	free(text);
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_doc();
	test_units();
	test_children();
	test_goldens();
	for (int i = 2; i < argc; i++)
		check_report(argv[i], argv[i]);
	test_schema();
	return tap_done();
}
