/*
 * test_figures.c — the figures unit without a server: constructed runs
 * (figures_cases.h) go through figures_compute and then both printers,
 * and a -P interval through figures_interval and the progress line; the
 * output must equal, byte for byte, what the program printed for the same
 * statistics before the figures existed (t/unit/golden/).  argv[1] is the
 * golden directory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/figures.h"
#include "pgbench/progress.h"
#include "pgbench/report.h"
#include "figures_cases.h"
#include "tap.h"

static const char *golden_dir = "t/unit/golden";

/* A whole golden file, NUL-terminated (malloc'd); NULL if unreadable. */
static char *
read_golden(const char *name)
{
	char		path[1024];
	FILE	   *in;
	char	   *text = NULL;
	size_t		len = 0;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	in = fopen(path, "r");
	if (in == NULL)
		return NULL;
	text = malloc(1 << 20);
	if (text != NULL)
	{
		len = fread(text, 1, (1 << 20) - 1, in);
		text[len] = '\0';
	}
	fclose(in);
	return text;
}

/* One case's world: its scripts, configuration and merged statistics. */
typedef struct world
{
	script_set *set;
	run_config	cfg;
	stats_run	stats;
	report_input in;
} world;

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
	w->cfg = (run_config) {
		.scripts = w->set,
		.query_mode = c->query_mode,
		.total_commands = total,
		.nclients = c->nclients,
		.nthreads = c->nthreads,
		.connect_each = c->connect_each,
		.nxacts = c->nxacts,
		.duration = c->duration,
		.rate = c->rate,
		.throttle_delay = c->rate > 0 ? 1000000.0 / c->rate * c->nthreads : 0.0,
		.latency_limit = (int64_t) (c->latency_limit_ms * 1000.0),
		.latency_limit_ms = c->latency_limit_ms,
		.retry = {.max_tries = c->max_tries},
		.latency_measured = true,	/* --report-json keeps histograms */
		.per_script_stats = c->nscripts > 1,
		.per_command = c->per_command,
		.keep_hist = true,
		.failures_detailed = c->failures_detailed,
		.progress_sec = c->progress_sec,
		.npercentiles = c->npercentiles,
		.report_json = "report.json",
	};
	for (int i = 0, off = 0; i < c->nscripts; i++)
	{
		w->cfg.script_offset[i] = off;
		off += w->set->scripts[i].ncommands;
	}
	memcpy(w->cfg.percentiles, c->percentiles, sizeof(c->percentiles));

	stats_run_init(&w->stats, c->nscripts, total);
	stats_run_enable_hist(&w->stats, w->cfg.per_script_stats);
	fc_fill(&w->stats, c, w->set, w->cfg.script_offset);

	w->in = (report_input) {
		.cfg = &w->cfg,
		.scale = c->scale,
		.partition_method = c->partition_method,
		.partitions = c->partitions,
		.stats = &w->stats,
		.bench_duration = c->bench_duration,
		.conn_elapsed = c->conn_elapsed,
		.server_version = "15.99",
		.aborted = c->aborted,
	};
}

static void
world_free(world *w)
{
	stats_run_free(&w->stats);
	script_set_free(w->set);
}

/* The text report and the JSON document of one case against the goldens. */
static void
test_report(const fc_case *c, const report_figures *f)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *out = open_memstream(&text, &len);
	char		name[256];
	char	   *golden;

	report_print(out, f);
	fclose(out);
	snprintf(name, sizeof(name), "%s.txt", c->name);
	golden = read_golden(name);
	tap_ok(golden != NULL, "%s: golden %s", c->name, name);
	tap_is_str(text, golden != NULL ? golden : "", name);
	free(golden);
	free(text);

	out = open_memstream(&text, &len);
	tap_ok(report_json_write(out, f), "%s: report_json_write succeeds", c->name);
	fclose(out);
	snprintf(name, sizeof(name), "%s.json", c->name);
	golden = read_golden(name);
	tap_ok(golden != NULL, "%s: golden %s", c->name, name);
	tap_is_str(text, golden != NULL ? golden : "", name);
	free(golden);
	free(text);
}

/* Figures the goldens imply, checked against the counting invariants. */
static void
test_invariants(const fc_case *c, const world *w, const report_figures *f)
{
	const stats_data *t = &w->stats.total;

	tap_is_int(f->counts.total, c->ntx, "total = every accounted transaction");
	tap_is_int(f->counts.failed, t->serialization_failures + t->deadlock_failures + t->other_failures,
			   "failed = the failure kinds");
	tap_is_int(f->counts.cnt + f->counts.failed + f->counts.skipped, f->counts.total,
			   "total = processed + failed + skipped");
	tap_ok(f->ran == (t->cnt + t->skipped > 0), "%s: ran", c->name);
	tap_ok(f->latency_from_series == (c->rate > 0 || c->progress_sec > 0 || c->latency_limit_ms > 0),
		   "%s: the latency line is measured under -R, -P or -L only", c->name);
	tap_is_int(f->nscripts, c->nscripts, "one figures_script per script");
}

/*
 * The last two thirds of the case's transactions as one -P interval, as
 * the timer would see it, plain and with --progress-timestamp.
 */
static void
test_progress(const fc_case *c, const world *w, int ci, char **golden_line)
{
	fc_case		third = *c;
	stats_run	part;
	interval_figures iv;
	progress_format fmt = progress_format_of(&w->cfg);
	char		line[1024];
	char		name[128];

	third.ntx = c->ntx / 3;
	stats_run_init(&part, c->nscripts, w->cfg.total_commands);
	fc_fill(&part, &third, w->set, w->cfg.script_offset);
	figures_interval(&w->stats.total, &part.total, c->bench_duration * 2 / 3, &iv);

	for (int ts = 0; ts < 2; ts++)
	{
		char	   *end = *golden_line != NULL ? strchr(*golden_line, '\n') : NULL;
		char		expected[1024] = "";

		if (end != NULL)
		{
			snprintf(expected, sizeof(expected), "%.*s", (int) (end - *golden_line + 1), *golden_line);
			*golden_line = end + 1;
		}
		fmt.timestamp = ts == 1;
		progress_format_line(line, sizeof(line), &fmt, &iv,
							 ts == 0 ? 2.0 + (double) ci : 1690000000.0 + 0.0625 * (double) ci);
		snprintf(name, sizeof(name), "%s: progress line%s", c->name, ts ? " with timestamp" : "");
		tap_is_str(line, expected, name);
	}
	stats_run_free(&part);
}

/* Interval percentiles from a histogram equal the report's from the same one. */
static void
test_interval_percentiles(const world *w, const report_figures *f)
{
	interval_figures iv;
	progress_format fmt = progress_format_of(&w->cfg);
	char		line[1024];
	bool		same = true;

	figures_interval(&w->stats.total, &w->stats.total, 1000000, &iv);
	figures_interval_percentiles(&iv, w->stats.latency_hist, f->npercentiles, f->percentiles);
	for (int i = 0; i < f->npercentiles; i++)
		same = same && iv.percentile_ms[i] == f->latency.percentile_ms[i];
	tap_ok(iv.has_percentiles && same, "interval percentiles as the report's from one histogram");
	progress_format_line(line, sizeof(line), &fmt, &iv, 1.0);
	tap_is_str(strstr(line, ", p50"), ", p50/p90/p99/p99.9 2.519/4.111/4.463/4.495 ms\n",
			   "percentile part of the line (the report's latency pN lines)");
	tap_ok(iv.tps == 0.0 && iv.latency_ms == 0.0 && iv.failed == 0,
		   "an interval without transactions: zeros");
}

int
main(int argc, char **argv)
{
	char	   *progress_golden;
	char	   *progress_line;

	if (argc > 1)
		golden_dir = argv[1];
	progress_golden = read_golden("progress.txt");
	tap_ok(progress_golden != NULL, "golden progress.txt");
	progress_line = progress_golden;

	for (size_t ci = 0; ci < PGB_LENGTHOF(FC_CASES); ci++)
	{
		const fc_case *c = &FC_CASES[ci];
		world		w;
		report_figures f;

		world_build(&w, c);
		tap_ok(figures_compute(&w.in, &f), "%s: figures_compute", c->name);
		test_report(c, &f);
		test_invariants(c, &w, &f);
		test_progress(c, &w, (int) ci, &progress_line);
		if (c->npercentiles > 0)
			test_interval_percentiles(&w, &f);
		figures_free(&f);
		tap_ok(f.scripts == NULL, "%s: figures_free releases the arrays", c->name);
		world_free(&w);
	}
	free(progress_golden);
	return tap_done();
}
