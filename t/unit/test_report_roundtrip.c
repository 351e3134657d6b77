/*
 * test_report_roundtrip.c — write → read → compute: each constructed run
 * of figures_cases.h, given a timeline of its transactions, is computed
 * (figures_compute), written (report_json_write), read back alone by the
 * merge (merge_text) and computed again (merge_report_input,
 * figures_compute).  The figures must come back identical: the text
 * report byte for byte, and every member of the JSON document the schema
 * (report_schema.h) says a merge reads or computes again, value for
 * value; only what belongs to one run and not to a merge (its identity,
 * command line, server, client and host readings) may differ, and the
 * test names those members from the schema too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/offline/json_read.h"
#include "pgbench/report/report.h"
#include "pgbench/report/report_schema.h"
#include "pgbench/stats/timeline.h"
#include "figures_cases.h"
#include "merge_int.h"
#include "tap.h"

#define NINTERVALS 3

static char *argv0[] = {(char *) "pgbench", NULL};

/* One case's world: scripts, configuration, statistics and timeline. */
typedef struct world
{
	script_set *set;
	run_config	cfg;
	stats_run	stats;
	timeline	tl;
	pg_time_usec_t origin;
	report_input in;
} world;

static void
config_of(world *w, const fc_case *c, int total)
{
	pg_time_usec_t interval = c->progress_sec > 0 ? c->progress_sec * 1000000 : 1000000;

	w->cfg = (run_config) {
		.compat = 16, .scripts = w->set, .query_mode = c->query_mode,
		.total_commands = total, .nclients = c->nclients, .nthreads = c->nthreads,
		.connect_each = c->connect_each, .nxacts = c->nxacts, .duration = c->duration,
		.rate = c->rate, .throttle_delay = runconf_throttle_delay(c->rate, c->nthreads),
		.latency_limit = (int64_t) (c->latency_limit_ms * 1000.0),
		.latency_limit_ms = c->latency_limit_ms, .retry = {.max_tries = c->max_tries},
		.latency_measured = true, .per_script_stats = c->nscripts > 1,
		.per_command = c->per_command, .keep_hist = true,
		.failures_detailed = c->failures_detailed, .progress_sec = c->progress_sec,
		.npercentiles = c->npercentiles, .series_interval = interval, .argc = 1,
		.argv = argv0, .random_seed = 12345, .report_json = "report.json",
	};
	for (int i = 0, off = 0; i < c->nscripts; i++)
	{
		w->cfg.script_offset[i] = off;
		off += w->set->scripts[i].ncommands;
	}
	memcpy(w->cfg.percentiles, c->percentiles, sizeof(c->percentiles));
}

/*
 * Account case c's transactions as the engine and the ticker would: the
 * run's statistics (as fc_fill, and each command's histogram), and the
 * timeline record of the interval each one ends in.
 */
static void
fill(world *w, const fc_case *c)
{
	stats_run  *sr = &w->stats;
	int64_t		limit_us = (int64_t) (c->latency_limit_ms * 1000.0);
	timeline_record rec[NINTERVALS];
	hist		ival[NINTERVALS];
	pg_time_usec_t interval = w->cfg.series_interval;

	memset(rec, 0, sizeof(rec));
	for (int i = 0; i < NINTERVALS; i++)
	{
		hist_init(&ival[i], HIST_ONE_HOUR_US);
		rec[i].start_us = i * interval;
		rec[i].end_us = (i + 1) * interval;
		rec[i].sources = 1;
	}
	for (int k = 0; k < c->ntx; k++)
	{
		int			s = k % c->nscripts,
					iv = (int) ((int64_t) k * NINTERVALS / c->ntx);
		const script *sc = &w->set->scripts[s];
		uint32_t	tries;
		stats_outcome o = fc_outcome(c, k, &tries);
		double		latency = 500.0 + (double) ((k * 7919) % 4000);
		double		lag = c->rate > 0 ? (double) ((k * 31) % 200) : 0.0;

		stats_data_add(&sr->total, o, latency, lag, tries, c->rate > 0);
		stats_data_add(&sr->per_script[s], o, latency, lag, tries, c->rate > 0);
		stats_data_add(&rec[iv].delta, o, latency, lag, tries, c->rate > 0);
		if (o == STATS_SKIPPED)
			continue;
		if (o == STATS_SUCCESS)
		{
			stats_run_record_latency(sr, s, latency);
			hist_add(&ival[iv], (int64_t) latency);
			if (limit_us > 0 && latency > (double) limit_us)
				sr->latency_late++;
		}
		for (int j = 0; c->per_command && j < sc->ncommands; j++)
		{
			stats_command *cmd = &sr->per_command[w->cfg.script_offset[s] + j];
			double		cl = latency / sc->ncommands + j;

			stats_simple_add(&cmd->latency, cl);
			hist_add(&sr->command_hist[w->cfg.script_offset[s] + j], (int64_t) cl);
			if (j == 0)
				cmd->retries += tries - 1;
			if (o != STATS_SUCCESS && j == sc->ncommands - 1)
				cmd->failures++;
		}
	}
	sr->conn_duration = c->conn_duration;
	timeline_init(&w->tl, interval, false);
	for (int i = 0; i < NINTERVALS; i++)
	{
		timeline_record_latencies(&rec[i], &ival[i]);
		timeline_append(&w->tl, &rec[i]);
		hist_free(&ival[i]);
	}
}

static void
world_build(world *w, const fc_case *c)
{
	script_error err;
	int			total = 0;

	memset(w, 0, sizeof(*w));
	memset(&err, 0, sizeof(err));
	w->set = script_set_create();
	for (int i = 0; i < c->nscripts; i++)
	{
		if (!script_compile(w->set, c->scripts[i].name, c->scripts[i].text,
							c->scripts[i].weight, &err))
			tap_diag("%s: script %s does not compile", c->name, c->scripts[i].name);
		total += w->set->scripts[i].ncommands;
	}
	config_of(w, c, total);
	w->origin = 1000000000;
	stats_run_init(&w->stats, c->nscripts, total);
	stats_run_enable_hist(&w->stats, w->cfg.per_script_stats);
	stats_run_enable_report(&w->stats, &w->origin, c->per_command);
	fill(w, c);
	w->in = (report_input) {
		.cfg = &w->cfg, .scale = c->scale, .partition_method = c->partition_method,
		.partitions = c->partitions, .stats = &w->stats,
		.bench_duration = NINTERVALS * w->cfg.series_interval, .conn_elapsed = c->conn_elapsed,
		.server_version = "16.4", .aborted = c->aborted, .start_time = w->origin,
		.run_id = "0123456789abcdef0123456789abcdef", .timeline = &w->tl,
	};
}

static void
world_free(world *w)
{
	stats_run_free(&w->stats);
	timeline_free(&w->tl);
	script_set_free(w->set);
}

/* f's text report and JSON document (malloc'd). */
static void
print_both(const report_figures *f, char **text, char **json)
{
	size_t		len = 0;
	FILE	   *out = open_memstream(text, &len);

	report_print(out, f);
	fclose(out);
	out = open_memstream(json, &len);
	tap_ok(report_json_write(out, f), "report_json_write succeeds");
	fclose(out);
	tap_ok(report_json_schema_violation() == RM_NONE, "the document keeps to the schema%s%s",
		   report_json_schema_violation() == RM_NONE ? "" : ": not ",
		   report_json_schema_violation() == RM_NONE ? ""
		   : report_key(report_json_schema_violation()));
}

/*
 * Members that belong to one run and that a merge does not carry over
 * (a merged report is a new run with its own id; it says which runs it
 * holds and where they went; the server, client and host readings are
 * per run and null in it).  The command line and the times come back
 * here because the test gives both the same.
 */
static bool
per_run(report_member m)
{
	static const report_member members[] = {
		RM_TOP_RUN_ID, RM_TOP_CONNECTION, RM_TOP_SERVER, RM_TOP_CLIENT,
		RM_TOP_SERVER_STATS, RM_TOP_INPUTS, RM_TOP_SERVERS, RM_POINT_CLIENT,
		RM_POINT_SERVER, RM_POINT_HOST,
	};

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		if (members[i] == m)
			return true;
	return false;
}

/* v as text for a message and for comparing scalars. */
static void
describe(const json_value *v, char *buf, size_t len)
{
	if (v == NULL)
		snprintf(buf, len, "(absent)");
	else if (v->kind == JSON_NUMBER && v->number == JSON_INT64)
		snprintf(buf, len, "%lld", (long long) v->u.integer);
	else if (v->kind == JSON_NUMBER && v->number == JSON_UINT64)
		snprintf(buf, len, "%llu", (unsigned long long) v->u.uinteger);
	else if (v->kind == JSON_NUMBER && v->number == JSON_REAL)
		snprintf(buf, len, "%.17g", v->u.real);
	else if (v->kind == JSON_NUMBER || v->kind == JSON_STRING)
		snprintf(buf, len, "\"%.100s\"", v->u.string);
	else if (v->kind == JSON_BOOL)
		snprintf(buf, len, "%s", v->boolean ? "true" : "false");
	else
		snprintf(buf, len, "%s", json_kind_name(v));
}

static int	differences;

static void compare_value(const char *path, report_object child, const json_value *a,
						  const json_value *b);

/* Object a (of schema object o, RO_NONE: named by data) against b. */
static void
compare_object(const char *path, report_object o, const json_value *a, const json_value *b)
{
	for (int i = 0; i < a->n; i++)
	{
		const char *key = a->u.items[2 * i].u.string;
		report_member m = o == RO_NONE ? RM_NONE : report_member_of(o, key);
		char		sub[512];

		if (m != RM_NONE && per_run(m))
			continue;
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		compare_value(sub, m != RM_NONE ? report_member_child(m) : RO_NONE,
					  &a->u.items[2 * i + 1], json_get(b, key));
	}
	if (a->n != b->n && differences++ < 10)
		tap_diag("%s: %d members, %d read back", path, a->n, b->n);
}

static void
compare_value(const char *path, report_object child, const json_value *a, const json_value *b)
{
	char		want[160],
				got[160];

	if (b != NULL && a->kind == b->kind && a->kind == JSON_OBJECT)
		return compare_object(path, child, a, b);
	if (b != NULL && a->kind == b->kind && a->kind == JSON_ARRAY && a->n == b->n)
	{
		for (int i = 0; i < a->n; i++)
		{
			char		sub[512];

			snprintf(sub, sizeof(sub), "%s[%d]", path, i);
			compare_value(sub, child, &a->u.items[i], &b->u.items[i]);
		}
		return;
	}
	describe(a, want, sizeof(want));
	describe(b, got, sizeof(got));
	if (b != NULL && a->kind == b->kind && a->kind != JSON_ARRAY && strcmp(want, got) == 0)
		return;
	if (differences++ < 10)
		tap_diag("%s: written %s, read back and computed %s", path, want, got);
}

static void
test_case(const fc_case *c)
{
	world		w;
	report_figures f,
				back;
	char	   *text,
			   *json,
			   *text_back = NULL,
			   *json_back = NULL;
	merge_acc	acc;
	merge_error err;
	report_input in;
	json_doc	da,
				db;

	world_build(&w, c);
	if (!tap_ok(figures_compute(&w.in, &f), "%s: figures computed", c->name))
		return world_free(&w);
	print_both(&f, &text, &json);
	memset(&acc, 0, sizeof(acc));
	memset(&err, 0, sizeof(err));
	if (tap_ok(merge_text(&acc, json, strlen(json), "a.json", &err), "%s: read back (%s)",
			   c->name, err.message))
	{
		acc.cfg.argc = 1;
		acc.cfg.argv = argv0;
		(void) merge_report_input(&acc, &in);
		if (tap_ok(figures_compute(&in, &back), "%s: computed again", c->name))
		{
			print_both(&back, &text_back, &json_back);
			figures_free(&back);
		}
	}
	{
		char		name[128];

		snprintf(name, sizeof(name), "%s: the text report comes back the same", c->name);
		tap_is_str(text_back != NULL ? text_back : "", text, name);
	}
	differences = 0;
	if (json_back != NULL && json_parse(json, strlen(json), &da, NULL, 0) &&
		json_parse(json_back, strlen(json_back), &db, NULL, 0))
	{
		compare_object("", RO_TOP, &da.root, &db.root);
		json_doc_free(&da);
		json_doc_free(&db);
	}
	tap_ok(json_back != NULL && differences == 0,
		   "%s: every member a merge reads or computes comes back the same (%d differ)",
		   c->name, differences);
	merge_error_free(&err);
	merge_acc_free(&acc);
	figures_free(&f);
	free(text);
	free(json);
	free(text_back);
	free(json_back);
	world_free(&w);
}

int
main(void)
{
	for (size_t i = 0; i < sizeof(FC_CASES) / sizeof(FC_CASES[0]); i++)
		test_case(&FC_CASES[i]);
	return tap_done();
}
