/*
 * test_figures.c — the figures unit without a server: constructed runs
 * (figures_cases.h) go through figures_compute and then both printers,
 * and a -P interval through figures_interval and the progress line, in
 * every compatibility mode; the output must equal, byte for byte, the
 * golden files (t/unit/golden/README): for mode 16 what the program
 * printed for the same statistics before the figures existed, for the
 * later modes what that pgbench prints.  argv[1] is the golden directory;
 * with argv[2] "--write" the goldens are written instead of compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/progress.h"
#include "pgbench/report/report.h"
#include "figures_cases.h"
#include "tap.h"

static const char *golden_dir = "t/unit/golden";
static bool write_mode = false;	/* --write: produce the goldens */

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

static bool
golden_exists(const char *name)
{
	char		path[1024];
	FILE	   *in;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	in = fopen(path, "r");
	if (in != NULL)
		fclose(in);
	return in != NULL;
}

/* --write: replace a golden file (empty text: remove it). */
static void
write_golden(const char *name, const char *text)
{
	char		path[1024];
	FILE	   *out;

	snprintf(path, sizeof(path), "%s/%s", golden_dir, name);
	if (text[0] == '\0')
	{
		remove(path);
		return;
	}
	out = fopen(path, "w");
	if (out == NULL || fputs(text, out) < 0 || fclose(out) != 0)
		tap_diag("cannot write %s", path);
}

/*
 * The text golden of case stem in mode compat: <stem>.<mode>.txt for the
 * latest mode not after compat that has one (a mode's file exists only
 * where its report differs from the mode before), else <stem>.txt (16).
 */
static void
text_golden_name(char *name, size_t len, const char *stem, int compat)
{
	for (int m = compat; m > PGB_COMPAT_MIN; m--)
	{
		snprintf(name, len, "%s.%d.txt", stem, m);
		if (golden_exists(name))
			return;
	}
	snprintf(name, len, "%s.txt", stem);
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
world_build(world *w, const fc_case *c, int compat)
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
		.compat = compat,
		.scripts = w->set,
		.query_mode = c->query_mode,
		.total_commands = total,
		.nclients = c->nclients,
		.nthreads = c->nthreads,
		.connect_each = c->connect_each,
		.nxacts = c->nxacts,
		.duration = c->duration,
		.rate = c->rate,
		.throttle_delay = runconf_throttle_delay(c->rate, c->nthreads),
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

/*
 * --write: the text of mode compat goes to <stem>.<mode>.txt when it
 * differs from the previous mode's golden (16: <stem>.txt, always).
 */
static void
write_text_golden(const fc_case *c, int compat, const char *text)
{
	char		name[256];
	char	   *before = NULL;

	if (compat == PGB_COMPAT_MIN)
	{
		snprintf(name, sizeof(name), "%s.txt", c->name);
		write_golden(name, text);
		return;
	}
	snprintf(name, sizeof(name), "%s.%d.txt", c->name, compat);
	write_golden(name, "");
	text_golden_name(name, sizeof(name), c->name, compat - 1);
	before = read_golden(name);
	snprintf(name, sizeof(name), "%s.%d.txt", c->name, compat);
	if (before == NULL || strcmp(before, text) != 0)
		write_golden(name, text);
	free(before);
}

/* One output against its golden file (or, with --write, into it). */
static void
check_golden(const fc_case *c, const char *name, const char *text, int compat)
{
	char	   *golden;
	char		test_name[320];

	snprintf(test_name, sizeof(test_name), "%s (mode %d)", name, compat);
	golden = read_golden(name);
	tap_ok(golden != NULL, "%s: golden %s", c->name, name);
	tap_is_str(text, golden != NULL ? golden : "", test_name);
	free(golden);
}

/*
 * The text report and the JSON document of one case in mode compat
 * against the goldens.  The JSON document is the same in every mode.
 */
/*
 * The JSON document is the same in every mode but for its "compat" member,
 * masked as "NN" in the goldens.
 */
static void
mask_compat(char *text)
{
	char	   *at = strstr(text, "\n  \"compat\": ");

	if (at != NULL)
		memcpy(at + strlen("\n  \"compat\": "), "NN", 2);
}

/*
 * The document just written kept to report_schema.h: each member at its
 * declared type, null only where it may be.
 */
static void
check_schema(const fc_case *c)
{
	report_member bad = report_json_schema_violation();

	if (!tap_ok(bad == RM_NONE, "%s: the JSON document keeps to the schema", c->name))
		tap_diag("%s: %s \"%s\" written against its declaration", c->name,
				 report_object_headings[report_members[bad].object], report_key(bad));
}

static void
test_report(const fc_case *c, const report_figures *f, int compat)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *out = open_memstream(&text, &len);
	char		name[256];

	report_print(out, f);
	fclose(out);
	if (write_mode)
		write_text_golden(c, compat, text);
	text_golden_name(name, sizeof(name), c->name, compat);
	check_golden(c, name, text, compat);
	free(text);

	out = open_memstream(&text, &len);
	tap_ok(report_json_write(out, f), "%s: report_json_write succeeds", c->name);
	fclose(out);
	check_schema(c);
	mask_compat(text);
	snprintf(name, sizeof(name), "%s.json", c->name);
	if (write_mode && compat == PGB_COMPAT_MIN)
		write_golden(name, text);
	check_golden(c, name, text, compat);
	free(text);
}

/* Figures the goldens imply, checked against the counting invariants. */
static void
test_invariants(const fc_case *c, const world *w, const report_figures *f)
{
	const stats_data *t = &w->stats.total;
	bool		pg18 = w->cfg.compat >= 18;

	tap_is_int(f->counts.total, c->ntx, "total = every accounted transaction");
	tap_is_int(f->counts.failed, t->serialization_failures + t->deadlock_failures + t->other_failures,
			   "failed = the failure kinds");
	tap_is_int(f->counts.cnt + f->counts.failed + f->counts.skipped, f->counts.total,
			   "total = processed + failed + skipped");
	/* up to 17 the report stops unless a transaction succeeded or was skipped */
	tap_ok(f->ran == (pg18 ? c->ntx > 0 : t->cnt + t->skipped > 0), "%s: ran (mode %d)",
		   c->name, w->cfg.compat);
	tap_ok(f->failures_shown == (!pg18 || c->ntx > 0), "%s: failure lines shown (mode %d)",
		   c->name, w->cfg.compat);
	tap_ok(f->compat == w->cfg.compat, "%s: the mode reaches the printers", c->name);
	tap_ok(f->latency_from_series == (c->rate > 0 || c->progress_sec > 0 || c->latency_limit_ms > 0),
		   "%s: the latency line is measured under -R, -P or -L only", c->name);
	tap_is_int(f->nscripts, c->nscripts, "one figures_script per script");
}

/*
 * The last two thirds of the case's transactions as one -P interval, as
 * the timer would see it, plain and with --progress-timestamp; the lines
 * are the same in every mode.  Each line printed is also appended to
 * written (the --write output) unless it is NULL.
 */
static void
test_progress(const fc_case *c, const world *w, int ci, char **golden_line, FILE *written)
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
		snprintf(name, sizeof(name), "%s: progress line%s (mode %d)", c->name,
				 ts ? " with timestamp" : "", w->cfg.compat);
		tap_is_str(line, expected, name);
		if (written != NULL)
			fputs(line, written);
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

/* One case in one mode: report, JSON, invariants, progress lines. */
static void
test_case(size_t ci, int compat, char **progress_line, FILE *written)
{
	const fc_case *c = &FC_CASES[ci];
	world		w;
	report_figures f;

	world_build(&w, c, compat);
	tap_ok(figures_compute(&w.in, &f), "%s: figures_compute (mode %d)", c->name, compat);
	test_report(c, &f, compat);
	test_invariants(c, &w, &f);
	test_progress(c, &w, (int) ci, progress_line, written);
	if (c->npercentiles > 0 && compat == PGB_COMPAT_MIN)
		test_interval_percentiles(&w, &f);
	figures_free(&f);
	tap_ok(f.scripts == NULL, "%s: figures_free releases the arrays", c->name);
	world_free(&w);
}

int
main(int argc, char **argv)
{
	char	   *progress_golden;
	char	   *progress_line;
	char	   *progress_written = NULL;
	size_t		progress_len = 0;
	FILE	   *written = open_memstream(&progress_written, &progress_len);

	if (argc > 1)
		golden_dir = argv[1];
	write_mode = argc > 2 && strcmp(argv[2], "--write") == 0;
	progress_golden = read_golden("progress.txt");
	tap_ok(progress_golden != NULL, "golden progress.txt");
	progress_line = progress_golden;

	for (size_t ci = 0; ci < PGB_LENGTHOF(FC_CASES); ci++)
	{
		char	   *case_lines = progress_line;

		for (int compat = PGB_COMPAT_MIN; compat <= PGB_COMPAT_MAX; compat++)
		{
			/* every mode reads the case's lines from the same place */
			progress_line = case_lines;
			test_case(ci, compat, &progress_line,
					  compat == PGB_COMPAT_MIN ? written : NULL);
		}
	}
	fclose(written);
	if (write_mode)
		write_golden("progress.txt", progress_written);
	free(progress_written);
	free(progress_golden);
	return tap_done();
}
