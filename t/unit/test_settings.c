/*
 * test_settings.c — the report's settings, listed once (REPORT_SETTINGS,
 * figures.h), against what is done with them (doc/report-json.md's
 * "settings" table and the schema's settings are generated from the list
 * by tools/report_format.c): a round trip, figures of constructed runs
 * written by the JSON writer, read back by the merge (merge_text) and
 * computed again (merge_report_input, figures_compute) give every setting
 * of the list back identical; two reports merge by each setting's policy;
 * a report from before a setting was added still merges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report.h"
#include "pgbench/script/script.h"
#include "merge_int.h"
#include "tap.h"

/* ---- the round trip -------------------------------------------------------- */

/* A run's settings, as a command line would give them. */
typedef struct run_spec
{
	const char *name;
	const char *run_id;
	int			nclients,
				nthreads,
				duration,
				warmup,
				progress_sec,
				npercentiles,
				scale,
				partitions;
	int64_t		nxacts;
	double		rate,
				latency_limit_ms;
	uint32_t	max_tries;
	bool		connect_each,
				failures_detailed;
	query_mode	query_mode;
	partition_method partition_method;
	double		percentiles[2];
	uint64_t	seed;
} run_spec;

/* Every setting off its default (-L 2.01: 2009 us, not 2010), then none. */
static const run_spec full = {
	.name = "full", .run_id = "0123456789abcdef0123456789abcdef", .nclients = 6, .nthreads = 3,
	.duration = 7, .warmup = 3, .progress_sec = 2, .npercentiles = 2, .scale = 7, .partitions = 3,
	.rate = 250.5, .latency_limit_ms = 2.01, .max_tries = 3, .connect_each = true,
	.failures_detailed = true, .query_mode = QUERY_PREPARED, .partition_method = PART_HASH,
	.percentiles = {12.5, 99.99}, .seed = UINT64_MAX,
};
static const run_spec plain = {
	.name = "plain", .run_id = "fedcba9876543210fedcba9876543210", .nclients = 1,
	.nthreads = 1, .nxacts = 10, .max_tries = 1, .scale = 1, .seed = 42,
};

/* One run's world: its script, configuration and statistics. */
typedef struct world
{
	script_set *set;
	run_config	cfg;
	stats_run	stats;
	timeline	tl;
	pg_time_usec_t origin;
	report_input in;
} world;

static char *argv0[] = {(char *) "pgbench", NULL};

/* Run r's world: five successful transactions in its first two intervals. */
static void
world_build(world *w, const run_spec *r)
{
	script_error err = {0};
	pg_time_usec_t interval = 1000000 * (r->progress_sec > 0 ? r->progress_sec : 1);
	stats_run	part;
	timeline_record rec[2];
	hist		ival[2];

	memset(w, 0, sizeof(*w));
	w->set = script_set_create();
	if (!script_compile(w->set, "t.sql", "select 1;\n", 1, &err))
		tap_diag("t.sql does not compile");
	w->cfg = (run_config) {
		.compat = 18, .scripts = w->set, .query_mode = r->query_mode, .total_commands = 1,
		.nclients = r->nclients, .nthreads = r->nthreads, .connect_each = r->connect_each,
		.nxacts = r->nxacts, .duration = r->duration, .warmup = r->warmup, .rate = r->rate,
		.throttle_delay = runconf_throttle_delay(r->rate, r->nthreads),
		.latency_limit = r->latency_limit_ms > 0 ? pgb_usec_from_msec(r->latency_limit_ms) : 0,
		.latency_limit_ms = r->latency_limit_ms, .retry = {.max_tries = r->max_tries},
		.latency_measured = true, .keep_hist = true, .failures_detailed = r->failures_detailed,
		.progress_sec = r->progress_sec, .npercentiles = r->npercentiles,
		.series_interval = interval, .argc = 1, .argv = argv0, .random_seed = r->seed,
	};
	memcpy(w->cfg.percentiles, r->percentiles, sizeof(r->percentiles));
	w->origin = 1000000000;
	/* a thread's statistics, merged into the run's as after the join */
	stats_run_init(&part, 1, 1);
	stats_run_enable_hist(&part, false);
	stats_run_enable_report(&part, &w->origin, false);
	memset(rec, 0, sizeof(rec));
	for (int i = 0; i < 2; i++)
	{
		hist_init(&ival[i], HIST_ONE_HOUR_US);
		rec[i].start_us = i * interval;
		rec[i].end_us = (i + 1) * interval;
		rec[i].sources = 1;
	}
	for (int k = 0; k < 5; k++)
	{
		double		latency = 100.0 + 10 * k;

		stats_data_add(&part.total, STATS_SUCCESS, latency, 0, 1, r->rate > 0);
		stats_run_record_latency(&part, 0, latency);
		/* the ticker's record of its interval: the counters' growth */
		stats_data_add(&rec[k % 2].delta, STATS_SUCCESS, latency, 0, 1, r->rate > 0);
		hist_add(&ival[k % 2], (int64_t) latency);
	}
	timeline_init(&w->tl, interval, false);
	for (int i = 0; i < 2; i++)
	{
		rec[i].delta.latency.count = 0;
		timeline_record_latencies(&rec[i], &ival[i]);
		timeline_append(&w->tl, &rec[i]);
		hist_free(&ival[i]);
	}
	stats_run_init(&w->stats, 1, 1);
	stats_run_enable_hist(&w->stats, false);
	stats_run_enable_report(&w->stats, NULL, false);
	stats_run_merge(&w->stats, &part);
	stats_run_free(&part);
	w->in = (report_input) {
		.cfg = &w->cfg, .scale = r->scale, .partition_method = r->partition_method,
		.partitions = r->partitions, .stats = &w->stats, .bench_duration = 2 * interval,
		.conn_elapsed = 1000, .server_version = "18.0", .start_time = w->origin,
		.run_id = r->run_id, .timeline = &w->tl,
	};
}

static void
world_free(world *w)
{
	stats_run_free(&w->stats);
	timeline_free(&w->tl);
	script_set_free(w->set);
}

/* r's report as the JSON writer writes it (malloc'd); its figures into f. */
static char *
report_of(const run_spec *r, report_figures *f)
{
	world		w;
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *out = open_memstream(&text, &len);
	figures_extra extra;

	world_build(&w, r);
	if (!figures_compute(&w.in, f))
		tap_diag("%s: figures_compute failed", r->name);
	report_json_write(out, f);
	fclose(out);
	/* f's strings point into the run's configuration: keep what the checks read */
	f->transaction_type = "t.sql";
	free(f->scripts);			/* no -r: no commands */
	f->scripts = NULL;
	f->nscripts = 0;
	extra = f->extra;
	figures_extra_free(&f->extra);
	f->extra = extra;			/* its values; nothing it points to */
	f->extra.argv = NULL;
	f->extra.timeline = NULL;
	f->extra.aborts = NULL;
	f->extra.latency_hist = NULL;
	world_free(&w);
	return text;
}

/*
 * Merge the n reports texts (named by their index) into acc and compute
 * the merged figures into back; err holds the refusal.  Whether merged.
 */
static bool
merge_back(merge_acc *acc, char *const *texts, int n, merge_error *err, report_figures *back)
{
	report_input in;

	memset(acc, 0, sizeof(*acc));
	memset(err, 0, sizeof(*err));
	for (int i = 0; i < n; i++)
		if (!merge_text(acc, texts[i], strlen(texts[i]), i == 0 ? "a.json" : "b.json", err))
			return false;
	acc->cfg.argc = 1;
	acc->cfg.argv = argv0;
	(void) merge_report_input(acc, &in);
	return figures_compute(&in, back);
}

/* Each kind of setting: a's and b's field equal. */
#define SAME_SETTING_STRING(a, b, field) \
	((a)->field == NULL ? (b)->field == NULL \
	 : (b)->field != NULL && strcmp((a)->field, (b)->field) == 0)
#define SAME_SETTING_NAME(a, b, field) SAME_SETTING_STRING(a, b, field)
#define SAME_SETTING_INT(a, b, field) ((a)->field == (b)->field)
#define SAME_SETTING_NUMBER(a, b, field) ((a)->field == (b)->field)
#define SAME_SETTING_BOOL(a, b, field) ((a)->field == (b)->field)
#define SAME_SETTING_SEED(a, b, field) ((a)->field == (b)->field)
#define SAME_SETTING_PERCENTILES(a, b, field) \
	((a)->n##field == (b)->n##field && \
	 memcmp((a)->field, (b)->field, sizeof((a)->field[0]) * (size_t) (a)->n##field) == 0)

/*
 * Every setting of the list: null in want and got alike, else the same
 * value; summed ones (policy SETTING_SUMMED) compared with sum instead
 * when it is not NULL.
 */
static void
check_settings(const char *what, const report_figures *want, const report_figures *sum,
			   const report_figures *got)
{
	const report_figures *f;
	bool		null_want,
				null_got;

#define CHECK_SETTING(key, kind, field, null, merge, lo, hi) \
	{ \
		const report_figures *w_ = (merge) == SETTING_SUMMED && sum != NULL ? sum : want; \
		\
		f = w_; \
		null_want = SETTING_NULL_IF_##null; \
		f = got; \
		null_got = SETTING_NULL_IF_##null; \
		tap_ok(null_want == null_got && (null_want || SAME_##kind(w_, got, field)), \
			   "%s: %s comes back %s", what, key, null_want ? "null" : "the same"); \
	}
	REPORT_SETTINGS(CHECK_SETTING)
#undef CHECK_SETTING
	(void) f;
}

/* One report read back alone, each of two runs. */
static void
test_round_trip(const run_spec *r)
{
	report_figures f,
				back;
	char	   *text = report_of(r, &f);
	merge_acc	acc;
	merge_error err;
	char		what[64];

	snprintf(what, sizeof(what), "%s, read back", r->name);
	if (tap_ok(merge_back(&acc, &text, 1, &err, &back), "%s: merged (%s)", what, err.message))
	{
		check_settings(what, &f, NULL, &back);
		tap_is_double(back.late_threshold_ms, f.late_threshold_ms, 0, "the -L threshold in us too");
		tap_ok(back.throttled == f.throttled && back.latency_from_series == f.latency_from_series,
			   "%s: -R and the series-latency rule derived the same", what);
		figures_free(&back);
	}
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(text);
}

/* Two reports of the same workload: same settings kept, summed ones summed, the first's seed. */
static void
test_two(void)
{
	run_spec	second = full;
	report_figures f,
				g,
				back,
				sum;
	char	   *texts[2];
	merge_acc	acc;
	merge_error err;

	second.run_id = plain.run_id;
	second.seed = 7;
	texts[0] = report_of(&full, &f);
	texts[1] = report_of(&second, &g);
	sum = f;
	sum.nclients = f.nclients + g.nclients;
	sum.nthreads = f.nthreads + g.nthreads;
	sum.rate = f.rate + g.rate;
	if (tap_ok(merge_back(&acc, texts, 2, &err, &back), "two reports merge (%s)", err.message))
	{
		check_settings("two merged", &f, &sum, &back);
		tap_ok(back.extra.random_seed == UINT64_MAX, "two merged: the first's seed");
		figures_free(&back);
	}
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(texts[0]);
	free(texts[1]);
}

/*
 * text with its settings' "progress_s" removed (edit NULL) or its value
 * replaced by edit: a report written before the member was added, or
 * one that differs in it.  In place.
 */
static void
edit_progress(char *text, const char *edit)
{
	char	   *p = strstr(strstr(text, "\"settings\": {"), ",\n    \"progress_s\": ");
	char	   *end = strchr(p + 2, '\n');	/* the end of its line */
	bool		last = end[-1] != ',';	/* the last setting: no comma after it */

	if (edit != NULL)
	{
		p = strchr(p, ':') + 2;
		end -= last ? 0 : 1;	/* the value, its comma kept */
		memmove(p + strlen(edit), end, strlen(end) + 1);
		memcpy(p, edit, strlen(edit));
		return;
	}
	/* the line, and the comma before it when it is the last */
	if (!last)
		p++;
	memmove(p, end, strlen(end) + 1);
}

/*
 * progress_s, added to schema 3 after its first reports: a report
 * without it merges alone and with one that has it (the value then
 * comes from "merge"); two that differ in it are refused.
 */
static void
test_progress_added(void)
{
	run_spec	second = full;
	report_figures f,
				g,
				back;
	char	   *texts[2];
	merge_acc	acc;
	merge_error err;

	second.run_id = plain.run_id;
	texts[0] = report_of(&full, &f);
	texts[1] = report_of(&second, &g);
	edit_progress(texts[0], NULL);
	tap_ok(strstr(texts[0], "\"progress_s\": 2\n  }") == NULL, "older report: no settings.progress_s");
	if (tap_ok(merge_back(&acc, texts, 1, &err, &back), "older report merges (%s)", err.message))
	{
		check_settings("older report, read back", &f, NULL, &back);
		figures_free(&back);
	}
	merge_error_free(&err);
	merge_acc_free(&acc);
	if (tap_ok(merge_back(&acc, texts, 2, &err, &back), "older and newer merge (%s)", err.message))
		figures_free(&back);
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(texts[0]);
	texts[0] = report_of(&full, &f);
	edit_progress(texts[1], "3");
	tap_ok(!merge_back(&acc, texts, 2, &err, &back), "settings.progress_s 2 and 3: refused");
	tap_is_str(err.message, "reports \"a.json\" and \"b.json\" differ in progress_s: 2 and 3",
			   "the message names it");
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(texts[0]);
	free(texts[1]);
}

int
main(void)
{
	test_round_trip(&full);
	test_round_trip(&plain);
	test_two();
	test_progress_added();
	return tap_done();
}
