/*
 * test_report_schema.c — the members of the --report-json document,
 * declared once (REPORT_OBJECTS, REPORT_MEMBERS, REPORT_CHILDREN in
 * report_schema.h and report_members.h), against what is written (the
 * doc's member tables and the JSON Schema are generated from the
 * declaration by tools/report_format.c, and the test report_format keeps
 * the committed copies so):
 *
 *   - the declaration itself: a unit per key suffix, children held by
 *     objects and arrays only, every object reachable from the top;
 *   - written reports (the .json files of t/unit/golden, and any file
 *     named after argv[1]): every member of an object with a declared
 *     table declared there, at its type, null only where it may be, and
 *     every declared member there but those that may be absent (RF_OPTIONAL,
 *     and RF_FIRST_HOLDER members in the objects of other holders).
 *
 * argv[1] is the source directory; further arguments are report files
 * to check as the goldens are (e.g. real runs' documents).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/offline/json_read.h"
#include "pgbench/offline/report_check.h"
#include "pgbench/report/report_schema.h"
#include "tap.h"

static const char *srcdir = ".";

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

/*
 * The object o at r (held by holder, RM_NONE at the top) against its
 * declaration (report_object_check), and the objects its members hold;
 * offences counted.
 */
static int
walk_report(report_object o, report_member holder, const json_ref *r, const char *file)
{
	static const char *const what[] = {
		[RX_UNDECLARED] = "not declared in", [RX_MISTYPED] = "not at its type declared in",
		[RX_MISSING] = "missing, declared in",
	};
	const char *key = NULL;
	report_offence offence = report_object_check(o, holder, false, r->v, &key);
	int			bad = offence != RX_NONE;
	char		path[256];

	json_ref_path(r, path, sizeof(path));
	if (offence != RX_NONE)
		tap_diag("%s: %s.%s: %s %s", file, path, key, what[offence], report_object_headings[o]);
	for (int i = 0; i < r->v->n; i++)
	{
		json_ref	mr = json_ref_member(r, json_member_name(r->v, i));
		report_member m = report_member_of(o, json_member_name(r->v, i));
		report_object child = m != RM_NONE ? report_member_child(m) : RO_NONE;

		if (child == RO_NONE || !report_value_fits(m, mr.v) || mr.v->kind == JSON_NULL)
			continue;
		if (mr.v->kind == JSON_OBJECT)
			bad += walk_report(child, m, &mr, file);
		else
			for (int k = 0; k < mr.v->n; k++)
			{
				json_ref	item = json_ref_item(&mr, k);

				if (item.v->kind == JSON_OBJECT)
					bad += walk_report(child, m, &item, file);
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

		tap_ok(walk_report(RO_TOP, RM_NONE, &root, name) == 0,
			   "report %s: every member declared, at its declared type, and written", name);
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

int
main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_units();
	test_children();
	test_goldens();
	for (int i = 2; i < argc; i++)
		check_report(argv[i], argv[i]);
	return tap_done();
}
