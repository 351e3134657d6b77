/*
 * fuzz_report_check.c — fr_check_report (fuzz_report.h): the document the
 * JSON writer wrote, read back with our reader, against the figures it
 * was written from, member by member in the order of doc/report-json.md.
 * Whether each member is there and of its type comes from its declaration
 * (report_schema.h: every object entered is held to it, chk_declared in
 * fuzz_report_values.c); the values are checked here, those of the
 * server's side, the points, a merged report's inputs and the thresholds
 * in fuzz_report_check_server.c.
 *
 * What each kind of value must read back as:
 * - a string: the C string with each ill-formed UTF-8 subpart replaced
 *   by U+FFFD (utf8_sanitize), byte for byte;
 * - an integer: exactly, int64 or (the random seed) uint64;
 * - a setting (put_setting) or an exact sum (put_exact): the same double,
 *   bit for bit but for the sign of zero;
 * - a measured figure (put_num, six decimals): within half a unit of the
 *   sixth decimal, plus the reading's own rounding;
 * - a non-finite double: null;
 * - a percentile's member name: "p" and a number that reads back as the
 *   percentile exactly (and so no two names alike).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report_check.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/threshold.h"

/* ---- the parts ------------------------------------------------------------ */

/* "percentiles": n members, "p<at[i]>": ms[i] (none unless has). */
static void
want_percentiles(const chk *c, bool has, int n, const double *at_pct, const double *ms)
{
	chk			p = chk_sub(c, "percentiles");

	if (p.v->n != (has ? n : 0))
		fr_fail("%s: %d members, expected %d", p.path, p.v->n, has ? n : 0);
	for (int i = 0; i < p.v->n; i++)
	{
		const char *name = json_member_name(p.v, i);
		char	   *end;

		if (name[0] != 'p' || strtod(name + 1, &end) != at_pct[i] || *end != '\0')
			fr_fail("%s: member %d is \"%s\" for percentile %.17g", p.path, i, name, at_pct[i]);
		want_num(&p, name, ms[i]);
	}
}

static void
want_series(const chk *c, const figures_series *s)
{
	static const char *const names[] = {"average", "stddev", "min", "max"};
	const double v[] = {s->average, s->stddev, s->min, s->max};

	want_int(c, "count", s->count);
	for (int i = 0; i < 4; i++)
		want_num(c, names[i], v[i]);
}

static void
want_latency(const chk *c, const report_figures *f, const figures_latency *fl)
{
	chk			l = chk_sub(c, "latency_ms");

	want_series(&l, &fl->series);
	want_percentiles(&l, fl->has_percentiles, f->nreport_percentiles, f->report_percentiles,
					 fl->report_ms);
}

static void
want_counts(const chk *c, const figures_counts *fc)
{
#define WANT_COUNTER(field, json_name, kind) want_int(c, json_name, fc->field);
	STATS_COUNTERS(WANT_COUNTER)
#undef WANT_COUNTER
	want_int(c, "failed", fc->failed);
	want_int(c, "total", fc->total);
}

/* "latency_histogram": h (null when NULL), its non-empty buckets. */
static void
want_hist(const chk *c, const hist *h, double sum, double sum2)
{
	chk			hc,
				b;
	int			n = 0,
				k = 0;

	if (!object_or_null(c, "latency_histogram", h != NULL, &hc))
		return;
	want_str(&hc, "layout", "log-linear");
	want_int(&hc, "sub_bucket_bits", HIST_SUB_BITS);
	want_int(&hc, "highest_us", h->highest);
	want_int(&hc, "count", h->count);
	want_int(&hc, "clamped", h->clamped);
	want_int(&hc, "min_us", h->min);
	want_int(&hc, "max_us", h->max);
	want_exact(&hc, "sum_us", h->sum);
	want_exact(&hc, "latency_sum_us", sum);
	want_exact(&hc, "latency_sum_squares_us", sum2);
	b = chk_sub(&hc, "buckets");
	for (int i = 0; i < h->nbuckets; i++)
		n += h->counts[i] != 0;
	for (int i = 0; i < h->nbuckets; i++)
	{
		chk			pair;

		if (h->counts[i] == 0)
			continue;
		pair = chk_item(&b, k++, n);
		want_int(&(chk) {.v = chk_item(&pair, 0, 2).v}, NULL, i);
		want_int(&(chk) {.v = chk_item(&pair, 1, 2).v}, NULL, h->counts[i]);
	}
	if (n == 0 && b.v->n != 0)
		fr_fail("%s: items of an empty histogram", b.path);
}

static void
want_commands(const chk *c, const report_figures *f, const figures_script *fs)
{
	chk			list;

	if (!f->per_command)
	{
		want_null(c, "commands");
		return;
	}
	list = chk_sub(c, "commands");
	if (list.v->n != fs->ncommands)
		fr_fail("%s: %d items, expected %d", list.path, list.v->n, fs->ncommands);
	for (int j = 0; j < fs->ncommands; j++)
	{
		const figures_command *fc = &fs->commands[j];
		chk			cc = chk_item(&list, j, fs->ncommands),
					lat = chk_sub(&cc, "latency_ms");

		want_int(&cc, "number", j);
		want_str(&cc, "line", fc->line);
		want_series(&lat, &fc->latency);
		want_percentiles(&lat, fc->percentiles.has_percentiles, f->nreport_percentiles,
						 f->report_percentiles, fc->percentiles.report_ms);
		want_int(&cc, "failures", fc->failures);
		want_int(&cc, "retries", fc->retries);
		want_hist(&cc, fc->hist, fc->latency_sum_us, fc->latency_sum2_us);
	}
}

static void
want_scripts(const chk *c, const report_figures *f)
{
	chk			list = chk_sub(c, "scripts");

	for (int i = 0; i < f->nscripts; i++)
	{
		const figures_script *fs = &f->scripts[i];
		chk			s = chk_item(&list, i, f->nscripts),
					tx = chk_sub(&s, "transactions");

		want_int(&s, "number", i + 1);
		want_str(&s, "name", fs->name);
		want_str(&s, "sha256", fs->sha256);
		want_int(&s, "weight", fs->weight);
		want_num(&s, "weight_pct", fs->weight_pct);
		want_counts(&tx, &fs->counts);
		want_num(&s, "processed_pct", fs->processed_pct);
		want_num(&s, "tps", fs->tps);
		want_latency(&s, f, &fs->latency);
		want_commands(&s, f, fs);
		want_hist(&s, fs->hist, fs->latency_sum_us, fs->latency_sum2_us);
	}
}

static void
want_settings(const chk *c, const report_figures *f)
{
	chk			s = chk_sub(c, "settings"),
				pct = chk_named(&s, "percentiles", JSON_ARRAY);

	want_str(&s, "transaction_type", f->transaction_type);
	want_int(&s, "scaling_factor", f->scale);
	want_str(&s, "partition_method", f->partition_method);
	want_int(&s, "partitions", f->partitions);
	want_str(&s, "query_mode", f->query_mode);
	want_int(&s, "clients", f->nclients);
	want_int(&s, "threads", f->nthreads);
	want_int(&s, "max_tries", f->max_tries);
	want_int(&s, f->duration <= 0 ? "transactions_per_client" : "duration_s",
			 f->duration <= 0 ? f->nxacts : f->duration);
	want_null(&s, f->duration <= 0 ? "duration_s" : "transactions_per_client");
	want_exact(&s, "rate_tps", f->rate > 0 ? f->rate : NAN);
	want_exact(&s, "latency_limit_ms", f->latency_limited ? f->latency_limit_ms : NAN);
	want_bool(&s, "connect_each", f->connect_each);
	want_bool(&s, "failures_detailed", f->failures_detailed);
	for (int i = 0; i < f->npercentiles; i++)
		want_exact(&(chk) {.v = chk_item(&pct, i, f->npercentiles).v}, NULL, f->percentiles[i]);
	want_uint(&s, "random_seed", f->extra.random_seed);
	if (f->warmup > 0)
		want_int(&s, "warmup_s", f->warmup);
	else
		want_null(&s, "warmup_s");
	want_bool(&s, "server_stats", f->server_stats);
	if (f->server_stats)
		want_int(&s, "server_sample_interval_ms", f->server_sample_ms);
	else
		want_null(&s, "server_sample_interval_ms");
}

/* The run's figures, from "aborted" to "scripts". */
static void
want_figures(const chk *c, const report_figures *f)
{
	chk			tx = chk_sub(c, "transactions"),
				lag;

	want_bool(c, "aborted", f->aborted);
	want_num(c, "duration_s", f->duration_s);
	want_num(c, "tps", f->tps);
	want_num(c, "initial_connection_ms", f->connect_each ? NAN : f->initial_connection_ms);
	want_num(c, "average_connection_ms", f->connect_each ? f->average_connection_ms : NAN);
	want_counts(&tx, &f->counts);
	if (f->duration <= 0)
		want_int(&tx, "expected", f->expected);
	else
		want_null(&tx, "expected");
	if (f->latency_limited)
		want_int(&tx, "late", f->late);
	else
		want_null(&tx, "late");
	want_num(c, "text_latency_average_ms", f->latency_average_ms);
	want_bool(c, "text_latency_average_derived", f->latency_average_derived);
	want_latency(c, f, &f->latency);
	if (object_or_null(c, "lag_ms", f->throttled, &lag))
	{
		want_num(&lag, "average", f->lag_average_ms);
		want_num(&lag, "max", f->lag_count > 0 ? f->lag_max_ms : NAN);
	}
	want_scripts(c, f);
}

/* ---- the extras ----------------------------------------------------------- */

/* A text as the writer puts a server message: without its final newlines. */
static void
want_line(const chk *c, const char *key, const char *text)
{
	size_t		len = strlen(text);
	char	   *copy;

	while (len > 0 && text[len - 1] == '\n')
		len--;
	copy = strndup(text, len);
	if (copy == NULL)
		fr_fail("out of memory");
	want_str(c, key, copy);
	free(copy);
}

static void
want_index(const chk *c, const char *key, bool shown, int v)
{
	if (shown && v >= 0)
		want_int(c, key, v);
	else
		want_null(c, key);
}

static void
want_abort(const chk *c, const run_abort *a)
{
	const client_failure *cf = &a->failure;
	bool		positioned = cf->kind == FAILURE_COMMAND || cf->kind == FAILURE_SQL ||
		cf->kind == FAILURE_RESULT || cf->kind == FAILURE_NO_RESULTS;
	chk			causes = chk_sub(c, "causes");
	char		line[FAILURE_TEXT_MAX + 256];

	failure_format(cf, line, sizeof(line));
	want_int(c, "client", cf->client);
	want_num(c, "at_s", 0.000001 * (double) a->at);
	want_str(c, "kind", failure_kind_name(cf->kind));
	want_index(c, "script", positioned, cf->script);
	want_index(c, "command", positioned, cf->command);
	want_index(c, "query", cf->kind == FAILURE_SQL || cf->kind == FAILURE_RESULT, cf->query);
	want_str(c, "sqlstate", chk_known(cf->sqlstate));
	for (int i = 0; i < cf->ncauses; i++)
		want_str(&(chk) {.v = chk_item(&causes, i, cf->ncauses).v}, NULL, cf->causes[i]);
	if (cf->ncauses == 0 && causes.v->n != 0)
		fr_fail("%s: causes that were not given", causes.path);
	want_line(c, "message", cf->message);
	want_line(c, "line", line);
}

/* compat, command line, times, connection: of a run or of one that never began */
static void
want_run_meta(const chk *c, int compat, const figures_extra *e)
{
	chk			argv = chk_sub(c, "command_line"),
				t;

	want_int(c, "compat", compat);
	for (int i = 0; i < e->argc; i++)
		want_str(&(chk) {.v = chk_item(&argv, i, e->argc).v}, NULL, e->argv[i]);
	if (e->argc == 0 && argv.v->n != 0)
		fr_fail("%s: arguments that were not given", argv.path);
	want_str(c, "start_time", chk_known(e->start_iso));
	want_num(c, "start_epoch_s", e->start_iso[0] != '\0' ? e->start_epoch_s : NAN);
	want_str(c, "end_time", chk_known(e->end_iso));
	want_num(c, "end_epoch_s", e->end_iso[0] != '\0' ? e->end_epoch_s : NAN);
	if (object_or_null(c, "connection", e->target != NULL, &t))
	{
		want_str(&t, "host", chk_known(e->target->host));
		want_str(&t, "port", chk_known(e->target->port));
		want_str(&t, "database", chk_known(e->target->dbname));
	}
}

static void
want_meta(const chk *c, const report_figures *f)
{
	const figures_extra *e = &f->extra;
	chk			aborts = chk_sub(c, "aborted_clients");

	want_run_meta(c, f->compat, e);
	for (int i = 0; i < e->naborts; i++)
	{
		chk			a = chk_item(&aborts, i, e->naborts);

		want_abort(&a, e->aborts[i]);
	}
	if (e->naborts == 0 && aborts.v->n != 0)
		fr_fail("%s: aborts that were not given", aborts.path);
}

static void
want_extra(const chk *c, const report_figures *f)
{
	const figures_extra *e = &f->extra;
	chk			m = chk_sub(c, "merge"),
				s,
				rv;

	want_server_client(c, e);
	want_server_stats(c, e, f->warmup);
	if (object_or_null(c, "series", e->timeline != NULL, &s))
	{
		chk			points = chk_sub(&s, "points");
		int			n = e->timeline->n;

		want_exact(&s, "interval_s", e->interval_s);
		want_bool(&s, "incomplete", e->series_incomplete);
		want_int(&s, "sub_bucket_bits", TIMELINE_SUB_BITS);
		for (int i = 0; i < n; i++)
		{
			chk			p = chk_item(&points, i, n);
			timeline_record r;

			if (!timeline_get(e->timeline, i, &r))
				fr_fail("record %d cannot be read back", i);
			want_point(&p, &r, f->throttled, e->server_run);
		}
		if (n == 0 && points.v->n != 0)
			fr_fail("%s: points that were not given", points.path);
	}
	want_hist(c, e->latency_hist, e->latency_sum_us, e->latency_sum2_us);
	if (object_or_null(c, "rendezvous", e->rendezvous != NULL, &rv))
	{
		want_str(&rv, "group", e->rendezvous->group);
		want_int(&rv, "size", e->rendezvous->size);
		want_int(&rv, "member", e->rendezvous->member);
		want_int(&rv, "start_server_epoch_us", e->rendezvous->start_server_us);
		want_int(&rv, "clock_offset_us", e->rendezvous->clock_offset_us);
		want_int(&rv, "clock_rtt_us", e->rendezvous->clock_rtt_us);
	}
	want_int(&m, "instances", e->instances);
	if (e->progress_s > 0)
		want_int(&m, "progress_s", e->progress_s);
	else
		want_null(&m, "progress_s");
	want_int(&m, "start_epoch_us", e->start_epoch_us);
	want_int(&m, "conn_elapsed_us", e->conn_elapsed_us);
	want_int(&m, "bench_duration_us", e->bench_duration_us);
	want_int(&m, "conn_duration_us", e->conn_duration_us);
	want_exact(&m, "lag_sum_us", e->lag_sum_us);
	want_inputs_servers(c, e);
	want_thresholds(c, e);
}

/* --label: each key with its value, in order ({} without them) */
static void
want_labels(const chk *c, const figures_extra *e)
{
	chk			l = chk_sub(c, "labels");

	want_members(&l, e != NULL ? e->nlabels : 0);
	for (int i = 0; e != NULL && i < e->nlabels; i++)
	{
		if (strcmp(json_member_name(l.v, i), e->labels[i].key) != 0)
			fr_fail("%s: member %d is \"%s\", not \"%s\"", l.path, i, json_member_name(l.v, i),
					e->labels[i].key);
		want_str(&l, e->labels[i].key, e->labels[i].value);
	}
}

void
fr_check_report(const json_value *root, const report_figures *f, const report_ending *end)
{
	static const char *const outcomes[] = {
		[REPORT_COMPLETED] = "completed",
		[REPORT_ABORTED] = "aborted",
		[REPORT_INTERRUPTED] = "interrupted",
		[REPORT_FAILED_TO_START] = "failed-to-start",
	};
	chk			c = {.v = root, .path = "$", .obj = RO_TOP, .holder = RM_NONE};
	const char *run_id;

	if (root->kind != JSON_OBJECT)
		fr_fail("the document is %s", json_kind_name(root));
	/* every member declared, at its type, none missing (without figures: the unstarted ones) */
	chk_declared(&c, f == NULL);
	want_int(&c, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	want_str(&c, "pgbench_version", PGBENCH_VERSION);
	run_id = f != NULL ? f->extra.run_id : end->run_id;
	want_str(&c, "run_id", run_id != NULL && run_id[0] != '\0' ? run_id : NULL);
	want_labels(&c, f != NULL ? &f->extra : end->meta);
	want_str(&c, "server_version", f != NULL ? f->server_version : end->server_version);
	want_str(&c, "outcome", outcomes[end->outcome]);
	if (end->outcome == REPORT_INTERRUPTED)
		want_str(&c, "signal", end->signal);
	want_str(&c, "error", end->error);
	if (f == NULL)
	{
		static const figures_extra unknown;

		want_run_meta(&c, end->compat, end->meta != NULL ? end->meta : &unknown);
		return;
	}
	want_meta(&c, f);
	want_settings(&c, f);
	want_figures(&c, f);
	want_extra(&c, f);
}
