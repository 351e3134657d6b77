/*
 * test_compare_json.c — the diagnosis in --compare's JSON document
 * (compare_json.c, doc/compare.md "The JSON document"): a diagnosis built
 * by hand (compare_diag.h) written through compare_json_put, read back
 * strictly (json_read.h), each object's members exactly and in order,
 * values where they are numbers, nulls where a side lacks them, texts as
 * given (quotes, markup and newlines included); null without a
 * diagnosis; the names of kinds, units and sources; and every member and
 * name documented in doc/compare.md's JSON section (argv[1]: the source
 * tree).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "compare_int.h"
#include "pgbench/report/json_writer.h"
#include "tap.h"

/* Each object of the diagnosis: where one is in the test's document, and its members in order. */
typedef struct member_list
{
	const char *what;			/* as the messages name it */
	const char *path;			/* one of them, from the comparison */
	const char *members[20];	/* NULL-ended */
} member_list;

static const member_list objects[] = {
	{"diagnosis", "diagnosis", {"differences", "differences_more", "warnings", "evidence",
	"breakdown", "host", "rule", "sentence", NULL}},
	{"differences[]", "diagnosis.differences[0]", {"kind", "what", "base", "new", "base_value",
	"new_value", NULL}},
	{"warnings[]", "diagnosis.warnings[0]", {"code", "text", NULL}},
	{"evidence[]", "diagnosis.evidence[0]", {"name", "source", "unit", "base", "new",
			"available_base", "available_new", "verdict", "reason_code", "change", "low", "high",
			"change_relative",
	"low_relative", "high_relative", "noise", "latency_share", "rank", NULL}},
	{"breakdown", "diagnosis.breakdown", {"available_base", "available_new", "latency_base_ms",
	"latency_new_ms", "parts", NULL}},
	{"breakdown.parts[]", "diagnosis.breakdown.parts[0]", {"name", "base_ms", "new_ms",
	"change_ms", "low_ms", "high_ms", "verdict", NULL}},
	{"host", "diagnosis.host", {"base", "new", NULL}},
	{"host.base", "diagnosis.host.base", {"available", "server_available", "cpus", "client_pct",
	"server_pct", "rest_pct", "idle_pct", "busiest_thread_cpu_pct", NULL}},
};

/* A value expected at a path: a string, a number, true/false, or null. */
typedef enum expect_kind
{
	X_STR,
	X_NUM,
	X_TRUE,
	X_FALSE,
	X_NULL
} expect_kind;

typedef struct expect
{
	const char *path;
	expect_kind kind;
	const char *str;
	double		num;
} expect;

#define HOSTILE "</script><b onclick=\"x\">\\ & \n<!--"

static const expect expects[] = {
	{"diagnosis.differences[0].kind", X_STR, "setting", 0},
	{"diagnosis.differences[0].what", X_STR, "shared_buffers", 0},
	{"diagnosis.differences[0].base", X_STR, "128MB", 0},
	{"diagnosis.differences[0].base_value", X_NUM, NULL, 134217728},
	{"diagnosis.differences[0].new_value", X_NUM, NULL, 1073741824},
	{"diagnosis.differences[1].kind", X_STR, "script_line", 0},
	{"diagnosis.differences[1].new", X_STR, HOSTILE, 0},
	{"diagnosis.differences[1].base_value", X_NULL, NULL, 0},
	{"diagnosis.differences_more", X_NUM, NULL, 3},
	{"diagnosis.warnings[0].code", X_STR, "different_scripts", 0},
	{"diagnosis.evidence[0].name", X_STR, "IO:DataFileRead", 0},
	{"diagnosis.evidence[0].source", X_STR, "wait", 0},
	{"diagnosis.evidence[0].unit", X_STR, "ms", 0},
	{"diagnosis.evidence[0].base", X_NUM, NULL, 0.25},
	{"diagnosis.evidence[0].verdict", X_STR, "worse", 0},
	{"diagnosis.evidence[0].reason_code", X_NULL, NULL, 0},
	{"diagnosis.evidence[0].change", X_NUM, NULL, 0.75},
	{"diagnosis.evidence[0].high", X_NUM, NULL, 1},
	{"diagnosis.evidence[1].change_relative", X_NUM, NULL, 10},
	{"diagnosis.evidence[0].change_relative", X_NUM, NULL, 300},
	{"diagnosis.evidence[0].low_relative", X_NUM, NULL, 200},
	{"diagnosis.evidence[0].high_relative", X_NUM, NULL, 400},
	{"diagnosis.evidence[0].latency_share", X_NUM, NULL, 62.5},
	{"diagnosis.evidence[0].rank", X_NUM, NULL, 1},
	{"diagnosis.evidence[0].available_new", X_TRUE, NULL, 0},
	{"diagnosis.evidence[1].verdict", X_STR, "cannot tell", 0},
	{"diagnosis.evidence[1].reason_code", X_STR, "too_few_samples", 0},
	{"diagnosis.evidence[1].low_relative", X_NULL, NULL, 0},
	{"diagnosis.evidence[1].latency_share", X_NULL, NULL, 0},
	{"diagnosis.evidence[1].source", X_STR, "counter", 0},
	{"diagnosis.evidence[1].unit", X_STR, "bytes", 0},
	{"diagnosis.evidence[1].rank", X_NUM, NULL, 0},
	{"diagnosis.evidence[2].new", X_NULL, NULL, 0},
	{"diagnosis.evidence[2].available_new", X_FALSE, NULL, 0},
	{"diagnosis.evidence[2].verdict", X_NULL, NULL, 0},
	{"diagnosis.evidence[2].change_relative", X_NULL, NULL, 0},
	{"diagnosis.evidence[2].source", X_STR, "host", 0},
	{"diagnosis.breakdown.available_new", X_TRUE, NULL, 0},
	{"diagnosis.breakdown.latency_new_ms", X_NUM, NULL, 2.5},
	{"diagnosis.breakdown.parts[0].name", X_STR, "server CPU", 0},
	{"diagnosis.breakdown.parts[1].change_ms", X_NUM, NULL, 0.75},
	{"diagnosis.breakdown.parts[1].low_ms", X_NUM, NULL, 0.5},
	{"diagnosis.breakdown.parts[1].verdict", X_STR, "worse", 0},
	{"diagnosis.breakdown.parts[2].low_ms", X_NULL, NULL, 0},
	{"diagnosis.breakdown.parts[2].verdict", X_STR, "no significant difference", 0},
	{"diagnosis.host.base.cpus", X_NUM, NULL, 8},
	{"diagnosis.host.base.client_pct", X_NUM, NULL, 12.5},
	{"diagnosis.host.base.server_pct", X_NUM, NULL, 25},
	{"diagnosis.host.base.busiest_thread_cpu_pct", X_NUM, NULL, 40},
	{"diagnosis.host.new.available", X_FALSE, NULL, 0},
	{"diagnosis.host.new.cpus", X_NULL, NULL, 0},
	{"diagnosis.host.new.idle_pct", X_NULL, NULL, 0},
	{"diagnosis.rule", X_NULL, NULL, 0},
	{"diagnosis.sentence", X_STR, "new is slower: it reads from disk " HOSTILE, 0},
};

/* The value at a path of a.b[2].c under v; NULL when absent. */
static const json_value *
at_path(const json_value *v, const char *path)
{
	char		key[64];

	while (v != NULL && *path != '\0')
	{
		size_t		n = strcspn(path, ".[");

		if (n > 0)
		{
			if (n >= sizeof(key) || v->kind != JSON_OBJECT)
				return NULL;
			memcpy(key, path, n);
			key[n] = '\0';
			v = json_get(v, key);
			path += n;
		}
		else if (*path == '[')
		{
			char	   *end;
			long		i = strtol(path + 1, &end, 10);

			if (v->kind != JSON_ARRAY || *end != ']' || i < 0 || i >= v->n)
				return NULL;
			v = json_at(v, (int) i);
			path = end + 1;
		}
		else
			path++;				/* '.' */
	}
	return v;
}

/* The hand-made diagnosis: two differences, three evidences, three parts, a host read on base. */
static cmp_diagnosis *
made_diagnosis(void)
{
	cmp_diagnosis *d = calloc(1, sizeof(*d));

	d->ndiffs = 2;
	d->diff[0] = (cmp_difference) {DK_SETTING, "shared_buffers", "128MB", "1GB", 134217728, 1073741824};
	d->diff[1] = (cmp_difference) {DK_SCRIPT_LINE, "line 3", "(none)", HOSTILE, NAN, NAN};
	d->ndiffs_more = 3;
	d->nwarnings = 1;
	d->warning[0] = (cmp_warning) {"different_scripts", "the runs ran different scripts"};
	d->nevidence = 3;
	d->evidence[0] = (cmp_evidence) {"IO:DataFileRead", ES_WAIT, EU_MS, true, true, 0.25, 1.0,
		{.verdict = CV_WORSE, .has_interval = true, .change = 0.75, .lo = 0.5, .hi = 1}, 9.5, 0.625, 1};
	d->evidence[1] = (cmp_evidence) {"wal.wal_bytes", ES_COUNTER, EU_BYTES, true, true, 100, 110,
		{.verdict = CV_CANNOT_TELL, .reason = CR_FEW_SAMPLES, .change = 10}, 0, NAN, 0};
	d->evidence[2] = (cmp_evidence) {"host CPU", ES_HOST, EU_MS, true, false, 0.5, NAN,
		{.verdict = CV_NONE}, 0, NAN, 0};
	d->breakdown = (cmp_breakdown) {true, true, 1.5, 2.5, 3, {
			{"server CPU", 0.5, 0.5, {.verdict = CV_SAME, .has_interval = true, .change = 0, .lo = -0.1, .hi = 0.1}},
			{"IO:DataFileRead", 0.25, 1.0, {.verdict = CV_WORSE, .has_interval = true, .change = 0.75, .lo = 0.5, .hi = 1}},
			{"outside the server (network and client)", 0.75, 1.0, {.verdict = CV_SAME, .change = 0.25}}}};
	d->host[0] = (cmp_host_split) {true, true, 0.125, 0.25, 0.125, 0.5, 40, 8};
	d->host[1] = (cmp_host_split) {false};
	snprintf(d->sentence, sizeof(d->sentence), "new is slower: it reads from disk %s", HOSTILE);
	return d;
}

/* The document of base against one other side (both without reports), parsed into doc. */
static bool
write_and_read(cmp_diagnosis *d, json_doc *doc)
{
	cmp_side	base = {0}, other = {0};
	cmp_comparison c = {.other = &other, .diag = d};
	json_writer jw = {0};
	char	   *text = NULL;
	size_t		len = 0;
	char		err[256];
	bool		ok;

	jw.out = open_memstream(&text, &len);
	if (jw.out == NULL)
		return false;
	jw.schema_bad = RM_NONE;
	compare_json_put(&jw, NULL, &base, &c, 1);
	ok = fclose(jw.out) == 0 && json_parse(text, len, doc, err, sizeof(err));
	if (!ok)
		tap_diag("the document does not parse: %s\n%s", err, text != NULL ? text : "");
	free(text);
	return ok;
}

static void
check_members(const json_value *cmp)
{
	for (size_t k = 0; k < sizeof(objects) / sizeof(objects[0]); k++)
	{
		const member_list *o = &objects[k];
		const json_value *v = at_path(cmp, o->path);
		int			n = 0;
		bool		same = v != NULL && v->kind == JSON_OBJECT;

		while (o->members[n] != NULL)
			n++;
		same = same && v->n == n;
		for (int i = 0; same && i < n; i++)
			same = strcmp(json_member_name(v, i), o->members[i]) == 0;
		tap_ok(same, "%s: its %d members, in order", o->what, n);
	}
}

static void
check_values(const json_value *cmp)
{
	for (size_t k = 0; k < sizeof(expects) / sizeof(expects[0]); k++)
	{
		const expect *x = &expects[k];
		const json_value *v = at_path(cmp, x->path);
		bool		ok = v != NULL;

		if (ok && x->kind == X_STR)
			ok = v->kind == JSON_STRING && strcmp(v->u.string, x->str) == 0;
		else if (ok && x->kind == X_NUM)
			ok = v->kind == JSON_NUMBER && fabs(json_num(v) - x->num) <= 1e-6 * fmax(1, fabs(x->num));
		else if (ok && (x->kind == X_TRUE || x->kind == X_FALSE))
			ok = v->kind == JSON_BOOL && v->boolean == (x->kind == X_TRUE);
		else if (ok)
			ok = v->kind == JSON_NULL;
		tap_ok(ok, "%s", x->path);
	}
}

/* Every name the document gives a kind, a unit or a source, into names; their count. */
static int
all_names(const char **names)
{
	int			n = 0;

	for (int k = DK_OPTION; k <= DK_CONNECTION; k++)
		names[n++] = cmp_diff_kind_name((cmp_diff_kind) k);
	for (int u = EU_COUNT; u <= EU_PERCENT; u++)
		names[n++] = cmp_ev_unit_name((cmp_ev_unit) u);
	for (int s = ES_COUNTER; s <= ES_HOST; s++)
		names[n++] = cmp_ev_source_name((cmp_ev_source) s);
	return n;
}

/* Every name: given, never "unknown" but out of range. */
static void
check_names(void)
{
	const char *names[32];
	int			n = all_names(names);
	bool		ok = n == 19;

	for (int i = 0; i < n; i++)
		ok = ok && names[i] != NULL && strcmp(names[i], "unknown") != 0;
	tap_ok(ok, "every kind, unit and source has a name");
	tap_is_str(cmp_diff_kind_name((cmp_diff_kind) 99), "unknown", "a kind out of range: unknown");
	tap_is_str(cmp_ev_source_name((cmp_ev_source) -1), "unknown", "a source out of range: unknown");
}

/* Every member and name of the diagnosis, as `name` in doc/compare.md's JSON section. */
static void
check_doc(const char *srcdir)
{
	size_t		len;
	char	   *text = tap_read_source(srcdir, "doc/compare.md", &len);
	char		quoted[80];
	const char *names[32];
	int			names_n;
	int			missing = 0;

	char	   *section = text != NULL ? strstr(text, "\n## The JSON document") : NULL;
	char	   *end = section != NULL ? strstr(section + 1, "\n## ") : NULL;

	if (!tap_ok(section != NULL, "doc/compare.md has its JSON section"))
	{
		free(text);
		return;
	}
	if (end != NULL)
		*end = '\0';			/* the names are looked for in that section only */
	text = memmove(text, section, strlen(section) + 1);
	for (size_t k = 0; k < sizeof(objects) / sizeof(objects[0]); k++)
		for (int i = 0; objects[k].members[i] != NULL; i++)
		{
			char		array[80];

			/* an array is documented as `name[]` */
			snprintf(quoted, sizeof(quoted), "`%s`", objects[k].members[i]);
			snprintf(array, sizeof(array), "`%s[]`", objects[k].members[i]);
			if (strstr(text, quoted) == NULL && strstr(text, array) == NULL && ++missing)
				tap_diag("doc/compare.md lacks %s (%s)", quoted, objects[k].what);
		}
	names_n = all_names(names);
	for (int i = 0; i < names_n; i++)
	{
		snprintf(quoted, sizeof(quoted), "`%s`", names[i]);
		if (strstr(text, quoted) == NULL && ++missing)
			tap_diag("doc/compare.md lacks the name %s", quoted);
	}
	tap_ok(missing == 0, "doc/compare.md documents every member and name of the diagnosis");
	tap_ok(strstr(text, "`compare_version` | 3") != NULL, "doc/compare.md: compare_version 3");
	free(text);
}

int
main(int argc, char **argv)
{
	cmp_diagnosis *d = made_diagnosis();
	json_doc	doc;

	if (tap_ok(write_and_read(d, &doc), "the document with a diagnosis parses"))
	{
		const json_value *cmp = at_path(&doc.root, "comparisons[0]");

		tap_is_int(json_int(json_get(&doc.root, "compare_version"), 0), 3, "compare_version 3");
		check_members(cmp);
		check_values(cmp);
		json_doc_free(&doc);
	}
	if (tap_ok(write_and_read(NULL, &doc), "the document without a diagnosis parses"))
	{
		const json_value *v = at_path(&doc.root, "comparisons[0].diagnosis");

		tap_ok(v != NULL && v->kind == JSON_NULL, "no diagnosis: \"diagnosis\": null");
		json_doc_free(&doc);
	}
	check_names();
	if (argc > 1)
		check_doc(argv[1]);
	free(d);
	return tap_done();
}
