/*
 * merge_workload.c — what makes the reports of a merge one workload: the
 * settings, the compatibility mode, -P, the series' interval and the
 * scripts (names, weights, -r and each command's line).  Each report's
 * are checked; the first report's set the merge up (the run_config the
 * printers read, the accumulator's statistics), every other's must equal
 * them (doc/fleet.md).
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "merge_int.h"

/* ---- comparing ----------------------------------------------------------- */

/* A value as the difference message shows it. */
static const char *
show(const json_value *v, char *buf, size_t len)
{
	if (v == NULL)
		return "(none)";
	switch ((json_kind) v->kind)
	{
		case JSON_NULL:
			return "null";
		case JSON_BOOL:
			return v->boolean ? "true" : "false";
		case JSON_NUMBER:
			snprintf(buf, len, "%g", json_num(v));
			return buf;
		case JSON_STRING:
			snprintf(buf, len, "\"%s\"", v->u.string);
			return buf;
		case JSON_ARRAY:
			snprintf(buf, len, "an array of %d", v->n);
			return buf;
		case JSON_OBJECT:
			return "an object";
	}
	return "?";
}

/* The first report and rd's differ in what: a (the first's) and b. */
static bool
differ(const merge_acc *acc, const merge_reading *rd, const char *what, const char *a,
	   const char *b)
{
	merge_fail(rd->err, "reports \"%s\" and \"%s\" differ in %s: %s and %s", acc->first_file,
			   rd->file, what, a, b);
	rd->err->detail = "Only reports of the same workload and mode can be merged.";
	return false;
}

/* a (the first report's) and b (file's) must be equal; what names them. */
static bool
same(const merge_acc *acc, const merge_reading *rd, const char *what, const json_value *a,
	 const json_value *b)
{
	char		b1[256],
				b2[256];

	if (json_equal(a, b))
		return true;
	return differ(acc, rd, what, show(a, b1, sizeof(b1)), show(b, b2, sizeof(b2)));
}

/* ---- the settings -------------------------------------------------------- */

/*
 * A string member naming one of names[from ..] (NULL-terminated) into
 * *out; nullable: null too (*out NULL).
 */
static bool
read_name(const merge_reading *rd, const json_ref *st, const char *key, const char *const *names,
		  int from, bool nullable, const char **out)
{
	json_ref	r = json_ref_member(st, key);
	char		list[128] = "";
	int			n = 0;

	if (!(nullable ? merge_str_null_key(rd, st, key, out) : merge_str_key(rd, st, key, out)))
		return false;
	if (*out == NULL)
		return true;
	while (names[n] != NULL)
		n++;
	for (int i = from; i < n; i++)
		if (strcmp(names[i], *out) == 0)
			return true;
	for (int i = from; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s\"%s\"",
				 i == from ? "" : i == n - 1 ? " or " : ", ", names[i]);
	return merge_bad(rd, &r, "\"%s\" is not %s", *out, list);
}

/* An integer member in lo .. hi; nullable: null too (*out 0). */
static bool
read_int(const merge_reading *rd, const json_ref *st, const char *key, bool nullable, int64_t lo,
		 int64_t hi, int64_t *out)
{
	bool		present = true;

	*out = 0;
	if (!merge_int_null_key(rd, st, key, lo, hi, out, nullable ? &present : NULL))
		return false;
	if (!present)
		*out = 0;
	return true;
}

/* A number member in lo .. hi; nullable: null too (*out 0). */
static bool
read_number(const merge_reading *rd, const json_ref *st, const char *key, bool nullable,
			double lo, double hi, double *out)
{
	bool		present;

	*out = 0;
	return merge_num_null_key(rd, st, key, lo, hi, out, nullable ? &present : NULL);
}

/* An array of at most PGB_MAX_PERCENTILES numbers lo .. hi into p, *n of them. */
static bool
read_percentiles(const merge_reading *rd, const json_ref *st, const char *key, double lo,
				 double hi, double *p, int *n)
{
	json_ref	pct;

	if (!merge_container_key(rd, st, key, JSON_ARRAY, &pct))
		return false;
	if (pct.v->n > PGB_MAX_PERCENTILES)
		return merge_bad(rd, &pct, "more than %d percentiles", PGB_MAX_PERCENTILES);
	*n = pct.v->n;
	for (int i = 0; i < pct.v->n; i++)
	{
		json_ref	item = json_ref_item(&pct, i);
		double		v = json_num(item.v);

		if (item.v->kind != JSON_NUMBER)
			return merge_bad(rd, &item, "expected a number, found %s", json_kind_name(item.v));
		if (!(v >= lo && v <= hi))
			return merge_bad(rd, &item, "%g is out of range (%g to %g)", v, lo, hi);
		p[i] = v;
	}
	return true;
}

/*
 * The key of the setting held at offset in report_figures: a setting
 * named by its field, which is its identity in REPORT_SETTINGS.
 */
static const char *
setting_key(size_t offset)
{
#define SETTING_AT(key, kind, field, null, merge, lo, hi) \
	if (offset == offsetof(report_figures, field)) \
		return key;
	REPORT_SETTINGS(SETTING_AT)
#undef SETTING_AT
	return NULL;
}

/* Each kind of setting read into rf->field (list: REPORT_SETTINGS). */
#define READ_SETTING_STRING(key, nullable, lo, hi, field) \
	((nullable) ? merge_str_null_key(rd, st, key, &rf->field) : \
	 merge_str_key(rd, st, key, &rf->field))
#define READ_SETTING_NAME(key, nullable, lo, hi, field) \
	read_name(rd, st, key, lo, hi, nullable, &rf->field)
#define READ_SETTING_INT(key, nullable, lo, hi, field) \
	(read_int(rd, st, key, nullable, lo, hi, &integer) && \
	 (rf->field = (__typeof__(rf->field)) integer, true))
#define READ_SETTING_NUMBER(key, nullable, lo, hi, field) \
	read_number(rd, st, key, nullable, lo, hi, &rf->field)
#define READ_SETTING_BOOL(key, nullable, lo, hi, field) merge_bool_key(rd, st, key, &rf->field)
#define READ_SETTING_PERCENTILES(key, nullable, lo, hi, field) \
	read_percentiles(rd, st, key, lo, hi, rf->field, &rf->n##field)
#define READ_SETTING_SEED(key, nullable, lo, hi, field) \
	merge_uint64_key(rd, st, key, &rf->field)

/*
 * "settings" (st) into the settings of rf, zeroed first: every member of
 * REPORT_SETTINGS checked, in its order (a null one 0 or NULL; one added
 * since the first reports of a schema may be absent, then as null).  The
 * strings point into st's document.
 */
static bool
read_settings(const merge_reading *rd, const json_ref *st, report_figures *rf)
{
	int64_t		integer;

	memset(rf, 0, sizeof(*rf));
#define READ_SETTING(key, kind, field, null, merge, lo, hi) \
	if (!(SETTING_ADDED_##null && json_ref_member(st, key).v == NULL) && \
		!READ_##kind(key, SETTING_NULLABLE_##null, lo, hi, field)) \
		return false;
	REPORT_SETTINGS(READ_SETTING)
#undef READ_SETTING
	if (rf->nthreads > rf->nclients)
	{
		json_ref	r = json_ref_member(st, setting_key(offsetof(report_figures, nthreads)));

		return merge_bad(rd, &r, "%d is above the number of clients (%d)", rf->nthreads,
						 rf->nclients);
	}
	return true;
}

/*
 * A later report's settings (st) against the first's: those of policy
 * SETTING_SAME equal, in the list's order (one added since the first
 * reports compared only when both have it), then those summed null in
 * both or in neither.
 */
static bool
same_settings(const merge_acc *acc, const merge_reading *rd, const json_ref *st)
{
	const json_value *first = &acc->first_settings.root;

	for (int i = 0; i < report_nsettings; i++)
	{
		const report_setting *s = &report_settings[i];
		const json_value *a = json_get(first, s->key);
		const json_value *b = json_get(st->v, s->key);

		if (s->merge == SETTING_SAME && !(s->added && (a == NULL || b == NULL)) &&
			!same(acc, rd, s->key, a, b))
			return false;
	}
	for (int i = 0; i < report_nsettings; i++)
	{
		const report_setting *s = &report_settings[i];
		const json_value *a = json_get(first, s->key);
		const json_value *b = json_get(st->v, s->key);

		if (s->merge == SETTING_SUMMED && json_is_null(a) != json_is_null(b) &&
			!same(acc, rd, s->key, a, b))
			return false;
	}
	return true;
}

/* Each kind of summed setting added into acc's (at: where it is). */
#define SUM_SETTING_INT(at, st, lo, hi, field) \
	(merge_sum(rd, at, &integer, acc->settings.field) && merge_sum(rd, at, &integer, rf.field) && \
	 (integer <= (hi) || merge_bad(rd, at, "the sum over the reports is above %" PRId64, \
								   (int64_t) (hi))) && \
	 (acc->settings.field = (__typeof__(acc->settings.field)) integer, true))
/* a number's sum is named at "settings", as the histograms' at their block */
#define SUM_SETTING_NUMBER(at, st, lo, hi, field) \
	((void) (at), merge_sum_real(rd, st, &acc->settings.field, rf.field))

bool
merge_settings_sum(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	json_ref	st = merge_at(doc, RM_TOP_SETTINGS);
	report_figures rf;
	report_input ignored = {0};
	int64_t		integer;

	/* the first report's are acc's already; the others were checked */
	if (acc->ninstances == 0 || !read_settings(rd, &st, &rf))
		return acc->ninstances == 0;
#define SUM_IF_SETTING_SAME(kind, key, lo, hi, field)
#define SUM_IF_SETTING_FIRST(kind, key, lo, hi, field)
#define SUM_IF_SETTING_SUMMED(kind, key, lo, hi, field) \
	{ \
		json_ref	at = json_ref_member(&st, key); \
		\
		integer = 0; \
		if (!SUM_##kind(&at, &st, lo, hi, field)) \
			return false; \
	}
#define SUM_SETTING(key, kind, field, null, merge, lo, hi) \
	SUM_IF_##merge(kind, key, lo, hi, field)
	REPORT_SETTINGS(SUM_SETTING)
#undef SUM_SETTING
#undef SUM_IF_SETTING_SUMMED
#undef SUM_IF_SETTING_FIRST
#undef SUM_IF_SETTING_SAME
	figures_settings_restore(&acc->settings, &acc->cfg, &ignored);
	return true;
}

/* "connection" and "server_version", which the merged report repeats. */
static bool
read_target(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	json_ref	c;
	bool		present;
	const char *s[4] = {NULL};

	if (!merge_str_null(rd, doc, RM_TOP_SERVER_VERSION, &s[0]) ||
		!merge_container_null(rd, doc, RM_TOP_CONNECTION, JSON_OBJECT, &c, &present) ||
		(present && (!merge_str_null(rd, &c, RM_CONNECTION_HOST, &s[1]) ||
					 !merge_str_null(rd, &c, RM_CONNECTION_PORT, &s[2]) ||
					 !merge_str_null(rd, &c, RM_CONNECTION_DATABASE, &s[3]))))
		return false;
	snprintf(acc->server_version, sizeof(acc->server_version), "%s", s[0] ? s[0] : "");
	snprintf(acc->target.host, sizeof(acc->target.host), "%s", s[1] ? s[1] : "");
	snprintf(acc->target.port, sizeof(acc->target.port), "%s", s[2] ? s[2] : "");
	snprintf(acc->target.dbname, sizeof(acc->target.dbname), "%s", s[3] ? s[3] : "");
	return true;
}

/*
 * The first report's "settings" (st), copied into acc and read from the
 * copy (its strings live as long as acc), then set up in cfg.
 */
static bool
first_settings(merge_acc *acc, const merge_reading *rd, const json_ref *st)
{
	json_ref	kept;
	report_input ignored = {0};

	if (!json_clone(&acc->first_settings, st->v))
		return merge_bad(rd, st, "out of memory");
	kept = *st;
	kept.v = &acc->first_settings.root;
	if (!read_settings(rd, &kept, &acc->settings))
		return false;
	figures_settings_restore(&acc->settings, &acc->cfg, &ignored);
	return true;
}

/*
 * The first report sets acc up; the others are checked the same way
 * and compared member by member.
 */
static bool
settings(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	json_ref	st = merge_at(doc, RM_TOP_SETTINGS);
	json_ref	m = merge_at(doc, RM_TOP_MERGE);
	json_ref	series = merge_at(doc, RM_TOP_SERIES);
	json_ref	r[3];
	bool		first = acc->ninstances == 0;
	report_figures other_settings;
	merge_acc	other = {0};
	int64_t		compat,
				progress = 0;
	double		interval_s;
	bool		present;

	if (!merge_int(rd, doc, RM_TOP_COMPAT, PGB_COMPAT_MIN, PGB_COMPAT_MAX, &compat) ||
		!merge_container(rd, doc, RM_TOP_SETTINGS, JSON_OBJECT, &st) ||
		!(first ? first_settings(acc, rd, &st) : read_settings(rd, &st, &other_settings)) ||
		!merge_int_null(rd, &m, RM_MERGE_PROGRESS_S, 1, INT_MAX, &progress, &present) ||
		!merge_num(rd, &series, RM_SERIES_INTERVAL_S, 1e-6, INT_MAX, &interval_s) ||
		!read_target(first ? acc : &other, rd, doc))
		return false;
	r[0] = merge_at(doc, RM_TOP_COMPAT);
	r[1] = merge_at(&m, RM_MERGE_PROGRESS_S);
	r[2] = merge_at(&series, RM_SERIES_INTERVAL_S);
	if (first)
	{
		acc->cfg.compat = (int) compat;
		acc->cfg.progress_sec = (int) progress;
		acc->cfg.series_interval = (pg_time_usec_t) (interval_s * 1000000.0 + 0.5);
		acc->cfg.keep_hist = true;
		acc->cfg.latency_measured = true;
		acc->first_compat = *r[0].v;
		acc->first_progress = *r[1].v;
		acc->first_interval = *r[2].v;
		return true;
	}
	return same(acc, rd, report_key(RM_TOP_COMPAT), &acc->first_compat, r[0].v) &&
		same_settings(acc, rd, &st) &&
		same(acc, rd, "progress (-P)", &acc->first_progress, r[1].v) &&
		same(acc, rd, "series interval", &acc->first_interval, r[2].v);
}

/* ---- the scripts --------------------------------------------------------- */

/*
 * Script i's "commands": an array with -r (scripts[0] has one), else
 * null; each command's line checked.  *n: the number of commands.
 */
static bool
read_commands(const merge_reading *rd, const json_ref *s, bool per_command, json_ref *commands,
			  int *n)
{
	bool		present;

	*n = 0;
	if (!merge_container_null(rd, s, RM_SCRIPT_COMMANDS, JSON_ARRAY, commands, &present))
		return false;
	if (present != per_command)
		return merge_bad(rd, commands, per_command ? "expected an array, as scripts[0].commands"
						 : "expected null, as scripts[0].commands");
	for (int j = 0; present && j < commands->v->n; j++)
	{
		json_ref	c = json_ref_item(commands, j);
		const char *line;

		if (c.v->kind != JSON_OBJECT)
			return merge_bad(rd, &c, "expected an object, found %s", json_kind_name(c.v));
		if (!merge_str(rd, &c, RM_COMMAND_LINE, &line))
			return false;
	}
	*n = present ? commands->v->n : 0;
	return true;
}

/*
 * A script's "sha256" into *sha: 64 lowercase hexadecimal digits, or
 * NULL when null or absent (a merged report, or one written before).
 */
static bool
read_sha256(const merge_reading *rd, const json_ref *s, const char **sha)
{
	json_ref	r = merge_at(s, RM_SCRIPT_SHA256);

	*sha = NULL;
	if (r.v == NULL)
		return true;
	if (!merge_str_null(rd, s, RM_SCRIPT_SHA256, sha))
		return false;
	if (*sha != NULL && (strlen(*sha) != 64 || strspn(*sha, "0123456789abcdef") != 64))
		return merge_bad(rd, &r, "not a SHA-256 (64 lowercase hexadecimal digits)");
	return true;
}

/* The first report's scripts: names, weights, hashes and command lines copied. */
static void
setup_script(merge_acc *acc, int i, const json_ref *s, const json_ref *commands, int n,
			 const char *sha)
{
	script	   *sc = &acc->scripts.scripts[i];

	snprintf(sc->sha256, sizeof(sc->sha256), "%s", sha != NULL ? sha : "");
	sc->desc = pgb_strdup(json_str(merge_at(s, RM_SCRIPT_NAME).v));
	sc->weight = (int) json_int(merge_at(s, RM_SCRIPT_WEIGHT).v, 0);
	acc->scripts.total_weight += sc->weight;
	acc->cfg.script_offset[i] = acc->cfg.total_commands;
	sc->commands = pgb_calloc((size_t) (n > 0 ? n : 1), sizeof(command *));
	for (int j = 0; j < n; j++)
	{
		json_ref	c = json_ref_item(commands, j);

		sc->commands[j] = pgb_calloc(1, sizeof(command));
		sc->commands[j]->first_line = pgb_strdup(json_str(merge_at(&c, RM_COMMAND_LINE).v));
		sc->ncommands++;
	}
	acc->cfg.total_commands += n;
	acc->scripts.nscripts = i + 1;
}

/* Script i of a later report against the first's. */
static bool
same_script(const merge_acc *acc, const merge_reading *rd, int i, const json_ref *s,
			const json_ref *commands, int n, const char *sha)
{
	const script *sc = &acc->scripts.scripts[i];
	const char *name = json_str(merge_at(s, RM_SCRIPT_NAME).v);
	int64_t		weight = json_int(merge_at(s, RM_SCRIPT_WEIGHT).v, 0);
	char		what[64],
				a[256],
				b[256];

	if (strcmp(sc->desc, name) != 0)
	{
		snprintf(what, sizeof(what), "script %d's name", i + 1);
		snprintf(a, sizeof(a), "\"%s\"", sc->desc);
		snprintf(b, sizeof(b), "\"%s\"", name);
		return differ(acc, rd, what, a, b);
	}
	/* its text, when both reports have its hash (older ones do not) */
	if (sc->sha256[0] != '\0' && sha != NULL && strcmp(sc->sha256, sha) != 0)
	{
		snprintf(what, sizeof(what), "script %d's text (SHA-256)", i + 1);
		return differ(acc, rd, what, sc->sha256, sha);
	}
	if (sc->weight != weight)
	{
		snprintf(what, sizeof(what), "script %d's weight", i + 1);
		snprintf(a, sizeof(a), "%d", sc->weight);
		snprintf(b, sizeof(b), "%" PRId64, weight);
		return differ(acc, rd, what, a, b);
	}
	for (int j = 0; j < n && j < sc->ncommands; j++)
	{
		json_ref	c = json_ref_item(commands, j);
		const char *line = json_str(merge_at(&c, RM_COMMAND_LINE).v);

		if (strcmp(sc->commands[j]->first_line, line) != 0)
		{
			snprintf(what, sizeof(what), "script %d's command %d", i + 1, j);
			snprintf(a, sizeof(a), "\"%s\"", sc->commands[j]->first_line);
			snprintf(b, sizeof(b), "\"%s\"", line);
			return differ(acc, rd, what, a, b);
		}
	}
	if (n != sc->ncommands)
	{
		snprintf(what, sizeof(what), "script %d's number of commands", i + 1);
		snprintf(a, sizeof(a), "an array of %d", sc->ncommands);
		snprintf(b, sizeof(b), "an array of %d", n);
		return differ(acc, rd, what, a, b);
	}
	return true;
}

/* "scripts": checked; the first report's set up, the others compared. */
static bool
scripts(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	json_ref	list,
				first_script;
	bool		first = acc->ninstances == 0;
	bool		per_command;
	int64_t		total_weight = 0;
	int			total_commands = 0;

	if (!merge_container(rd, doc, RM_TOP_SCRIPTS, JSON_ARRAY, &list))
		return false;
	if (list.v->n < 1 || list.v->n > PGB_MAX_SCRIPTS)
		return merge_bad(rd, &list, "%d scripts (expected 1 to %d)", list.v->n, PGB_MAX_SCRIPTS);
	first_script = json_ref_item(&list, 0);
	per_command = !json_is_null(merge_at(&first_script, RM_SCRIPT_COMMANDS).v);
	if (!first && list.v->n != acc->scripts.nscripts)
	{
		return merge_fail(rd->err, "reports \"%s\" and \"%s\" differ in scripts: %d and %d scripts",
						  acc->first_file, rd->file, acc->scripts.nscripts, list.v->n);
	}
	if (!first && per_command != acc->cfg.per_command)
		return differ(acc, rd, "the per-command report (-r)", acc->cfg.per_command ? "on" : "off",
					  per_command ? "on" : "off");
	for (int i = 0; i < list.v->n; i++)
	{
		json_ref	s = json_ref_item(&list, i);
		json_ref	commands;
		const char *name,
				   *sha = NULL;
		int64_t		weight;
		int			n;

		if (s.v->kind != JSON_OBJECT)
			return merge_bad(rd, &s, "expected an object, found %s", json_kind_name(s.v));
		if (!merge_str(rd, &s, RM_SCRIPT_NAME, &name) ||
			!read_sha256(rd, &s, &sha) ||
			!merge_int(rd, &s, RM_SCRIPT_WEIGHT, 0, INT_MAX, &weight) ||
			!read_commands(rd, &s, per_command, &commands, &n))
			return false;
		total_weight += weight;
		if (n > MERGE_MAX_COMMANDS - total_commands)
			return merge_bad(rd, &list, "more than %d commands in all", MERGE_MAX_COMMANDS);
		total_commands += n;
		if (first)
			setup_script(acc, i, &s, &commands, n, sha);
		else if (!same_script(acc, rd, i, &s, &commands, n, sha))
			return false;
	}
	if (total_weight == 0)
		return merge_bad(rd, &list, "the weights add up to 0");
	acc->cfg.per_command = per_command;
	return true;
}

/* The accumulator's statistics, for the first report's layout. */
static bool
setup_stats(merge_acc *acc, const merge_reading *rd)
{
	json_ref	root = {0};

	acc->cfg.scripts = &acc->scripts;
	acc->cfg.per_script_stats = acc->scripts.nscripts > 1;
	if (!stats_run_init(&acc->stats, acc->scripts.nscripts, acc->cfg.total_commands) ||
		!stats_run_enable_hist(&acc->stats, acc->cfg.per_script_stats) ||
		!stats_run_enable_report(&acc->stats, NULL, acc->cfg.per_command))
		return merge_bad(rd, &root, "out of memory");
	timeline_init(&acc->tl, acc->cfg.series_interval, acc->spill);
	return true;
}

bool
merge_workload(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	if (!settings(acc, rd, doc) || !scripts(acc, rd, doc))
		return false;
	return acc->ninstances > 0 || setup_stats(acc, rd);
}

void
merge_workload_free(merge_acc *acc)
{
	for (int i = 0; i < acc->scripts.nscripts; i++)
	{
		script	   *sc = &acc->scripts.scripts[i];

		for (int j = 0; j < sc->ncommands; j++)
		{
			free(sc->commands[j]->first_line);
			free(sc->commands[j]);
		}
		free(sc->commands);
		free(sc->desc);
	}
	json_doc_free(&acc->first_settings);
}
