/*
 * merge_read.c — one JSON report added into the merge accumulator: its
 * workload checked against the first report's, its counts, sums,
 * histograms and series added (doc/report-json.md says which members
 * carry what; doc/fleet.md how they add up).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/diag.h"
#include "pgbench/series.h"
#include "pgbench/xalloc.h"
#include "merge_int.h"

/* Settings every report must share, as written in "settings". */
static const char *const same_settings[] = {
	"transaction_type", "scaling_factor", "partition_method", "partitions", "query_mode",
	"max_tries", "transactions_per_client", "duration_s", "latency_limit_ms", "connect_each",
	"failures_detailed", "percentiles",
};

/* ---- comparing --------------------------------------------------------- */

static bool
json_equal(const json_value *a, const json_value *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	if (a->kind != b->kind)
		return false;
	switch (a->kind)
	{
		case JSON_NULL:
			return true;
		case JSON_BOOL:
			return a->boolean == b->boolean;
		case JSON_NUMBER:
			return a->number == b->number;
		case JSON_STRING:
			return strcmp(a->string, b->string) == 0;
		case JSON_ARRAY:
		case JSON_OBJECT:
			if (a->n != b->n)
				return false;
			for (int i = 0; i < a->n; i++)
				if ((a->keys != NULL && strcmp(a->keys[i], b->keys[i]) != 0) ||
					!json_equal(&a->items[i], &b->items[i]))
					return false;
			return true;
	}
	return false;
}

/* A value as the difference message shows it. */
static const char *
show(const json_value *v, char *buf, size_t len)
{
	if (v == NULL)
		return "(none)";
	switch (v->kind)
	{
		case JSON_NULL:
			return "null";
		case JSON_BOOL:
			return v->boolean ? "true" : "false";
		case JSON_NUMBER:
			snprintf(buf, len, "%g", v->number);
			return buf;
		case JSON_STRING:
			snprintf(buf, len, "\"%s\"", v->string);
			return buf;
		case JSON_ARRAY:
			snprintf(buf, len, "an array of %d", v->n);
			return buf;
		case JSON_OBJECT:
			return "an object";
	}
	return "?";
}

/* a (first report) and b (file) must be equal; what names the member. */
static bool
same(const merge_acc *acc, const char *file, const char *what, const json_value *a,
	 const json_value *b)
{
	char		b1[256],
				b2[256];

	if (json_equal(a, b))
		return true;
	diag_error("reports \"%s\" and \"%s\" differ in %s: %s and %s", acc->first_file, file,
			   what, show(a, b1, sizeof(b1)), show(b, b2, sizeof(b2)));
	diag_detail("Only reports of the same workload and mode can be merged.");
	return false;
}

/* The scripts: names, weights, -r and each command's line. */
static bool
same_scripts(const merge_acc *acc, const char *file, const json_value *a, const json_value *b)
{
	char		what[64];

	if (a->n != b->n)
	{
		diag_error("reports \"%s\" and \"%s\" differ in scripts: %d and %d scripts",
				   acc->first_file, file, a->n, b->n);
		return false;
	}
	for (int i = 0; i < a->n; i++)
	{
		static const char *const members[] = {"name", "weight"};
		const json_value *ca = json_get(&a->items[i], "commands");
		const json_value *cb = json_get(&b->items[i], "commands");

		for (int m = 0; m < 2; m++)
		{
			snprintf(what, sizeof(what), "script %d's %s", i + 1, members[m]);
			if (!same(acc, file, what, json_get(&a->items[i], members[m]),
					  json_get(&b->items[i], members[m])))
				return false;
		}
		if (json_is_null(ca) != json_is_null(cb))
		{
			diag_error("reports \"%s\" and \"%s\" differ in the per-command report (-r): %s and %s",
					   acc->first_file, file, json_is_null(ca) ? "off" : "on",
					   json_is_null(cb) ? "off" : "on");
			diag_detail("Only reports of the same workload and mode can be merged.");
			return false;
		}
		for (int j = 0; !json_is_null(ca) && j < ca->n && j < cb->n; j++)
		{
			snprintf(what, sizeof(what), "script %d's command %d", i + 1, j);
			if (!same(acc, file, what, json_get(&ca->items[j], "line"),
					  json_get(&cb->items[j], "line")))
				return false;
		}
		snprintf(what, sizeof(what), "script %d's number of commands", i + 1);
		if (!json_is_null(ca) && ca->n != cb->n)
			return same(acc, file, what, ca, cb);
	}
	return true;
}

/* Everything that makes two runs one workload. */
static bool
same_workload(const merge_acc *acc, const json_value *doc, const char *file)
{
	const json_value *sa = json_get(&acc->first, "settings");
	const json_value *sb = json_get(doc, "settings");
	const json_value *ra = json_get(sa, "rate_tps");
	const json_value *rb = json_get(sb, "rate_tps");
	const json_value *ia = json_get(json_get(&acc->first, "series"), "interval_s");
	const json_value *ib = json_get(json_get(doc, "series"), "interval_s");

	if (!same(acc, file, "compat", json_get(&acc->first, "compat"), json_get(doc, "compat")))
		return false;
	for (int i = 0; i < (int) PGB_LENGTHOF(same_settings); i++)
		if (!same(acc, file, same_settings[i], json_get(sa, same_settings[i]),
				  json_get(sb, same_settings[i])))
			return false;
	if (json_is_null(ra) != json_is_null(rb) &&
		!same(acc, file, "rate_tps", ra, rb))
		return false;
	if (!same(acc, file, "progress (-P)", json_get(json_get(&acc->first, "merge"), "progress_s"),
			  json_get(json_get(doc, "merge"), "progress_s")) ||
		!same(acc, file, "series interval", ia, ib))
		return false;
	return same_scripts(acc, file, json_get(&acc->first, "scripts"), json_get(doc, "scripts"));
}

/* ---- adding ------------------------------------------------------------ */

/*
 * A histogram block (doc/report-json.md) into h.  false when it is not of
 * our layout.
 */
static bool
add_hist(hist *h, const json_value *block, const char *file)
{
	const json_value *buckets = json_get(block, "buckets");
	hist_bucket *b;
	int			n = 0;

	if (json_is_null(block))
		return true;
	if (json_int(json_get(block, "sub_bucket_bits"), -1) != HIST_SUB_BITS ||
		json_int(json_get(block, "highest_us"), -1) != h->highest ||
		buckets == NULL || buckets->kind != JSON_ARRAY)
	{
		diag_error("report \"%s\" has a latency histogram of another layout", file);
		return false;
	}
	b = pgb_calloc((size_t) (buckets->n > 0 ? buckets->n : 1), sizeof(hist_bucket));
	for (int i = 0; i < buckets->n; i++)
	{
		int64_t		index = json_int(json_at(&buckets->items[i], 0), -1);
		int64_t		count = json_int(json_at(&buckets->items[i], 1), 0);

		if (index >= 0 && index < h->nbuckets && count > 0)
			b[n++] = (hist_bucket) {.index = (int32_t) index, .count = count};
	}
	hist_import(h, b, n, json_int(json_get(block, "min_us"), 0),
				json_int(json_get(block, "max_us"), 0), json_num(json_get(block, "sum_us")));
	free(b);
	return true;
}

/* A latency_ms object and its histogram block's exact sums into ss (us). */
static void
add_simple(stats_simple *ss, const json_value *latency, const json_value *block)
{
	stats_simple one = {
		.count = json_int(json_get(latency, "count"), 0),
		.min = 1000.0 * json_num(json_get(latency, "min")),
		.max = 1000.0 * json_num(json_get(latency, "max")),
		.sum = json_num(json_get(block, "latency_sum_us")),
		.sum2 = json_num(json_get(block, "latency_sum_squares_us")),
	};

	if (one.count > 0 && !isnan(one.sum))
		stats_simple_merge(ss, &one);
}

/* The "transactions" counters into sd. */
static void
add_counts(stats_data *sd, const json_value *tx)
{
#define ADD_COUNTER(field, json_name, kind) \
	sd->field += json_int(json_get(tx, json_name), 0);
	STATS_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
}

/* Per script (several) and per command (-r): counts, sums, histograms. */
static bool
add_scripts(merge_acc *acc, const json_value *scripts, const char *file)
{
	stats_run  *sr = &acc->stats;

	for (int i = 0; i < scripts->n; i++)
	{
		const json_value *s = &scripts->items[i];
		const json_value *commands = json_get(s, "commands");

		if (acc->cfg.per_script_stats)
		{
			add_counts(&sr->per_script[i], json_get(s, "transactions"));
			add_simple(&sr->per_script[i].latency, json_get(s, "latency_ms"),
					   json_get(s, "latency_histogram"));
			if (!add_hist(&sr->script_hist[i], json_get(s, "latency_histogram"), file))
				return false;
		}
		for (int j = 0; acc->cfg.per_command && j < commands->n; j++)
		{
			const json_value *c = &commands->items[j];
			stats_command *sc = &sr->per_command[acc->cfg.script_offset[i] + j];

			add_simple(&sc->latency, json_get(c, "latency_ms"), json_get(c, "latency_histogram"));
			sc->failures += json_int(json_get(c, "failures"), 0);
			sc->retries += json_int(json_get(c, "retries"), 0);
			if (!add_hist(&sr->command_hist[acc->cfg.script_offset[i] + j],
						  json_get(c, "latency_histogram"), file))
				return false;
		}
	}
	return true;
}

/* One point of "series.points" into sp (its buckets allocated). */
static void
read_point(series_point *sp, const json_value *p)
{
	const json_value *h = json_get(p, "histogram");
	const json_value *b = json_get(h, "buckets");

	sp->processed = json_int(json_get(p, "processed"), 0);
	sp->failures = json_int(json_get(p, "failures"), 0);
	sp->retries = json_int(json_get(p, "retries"), 0);
	sp->skipped = json_int(json_get(p, "skipped"), 0);
	if (json_is_null(h))
		return;
	sp->latency_min = json_int(json_get(h, "min_us"), 0);
	sp->latency_max = json_int(json_get(h, "max_us"), 0);
	sp->latency_sum = json_num(json_get(h, "latency_sum_us"));
	sp->lag_sum = json_num(json_get(h, "lag_sum_us"));
	sp->lag_max = json_num(json_get(h, "lag_max_us"));
	if (b == NULL || b->kind != JSON_ARRAY || b->n == 0)
		return;
	sp->buckets = pgb_calloc((size_t) b->n, sizeof(hist_bucket));
	for (int k = 0; k < b->n; k++)
	{
		int64_t		index = json_int(json_at(&b->items[k], 0), -1);
		int64_t		count = json_int(json_at(&b->items[k], 1), 0);

		if (index >= 0 && index <= hist_index_of(HIST_ONE_HOUR_US) && count > 0)
			sp->buckets[sp->nbuckets++] = (hist_bucket) {.index = (int32_t) index, .count = count};
	}
}

/* "series" into the accumulated series, point by point. */
static void
add_series(merge_acc *acc, const json_value *series)
{
	const json_value *points = json_get(series, "points");
	run_series	one;

	if (acc->stats.series == NULL || points == NULL || points->kind != JSON_ARRAY)
		return;
	memset(&one, 0, sizeof(one));
	one.interval = acc->stats.series->interval;
	one.current = -1;
	one.oom = json_bool(json_get(series, "incomplete"));
	one.npoints = one.capacity = points->n;
	one.points = pgb_calloc((size_t) (points->n > 0 ? points->n : 1), sizeof(series_point));
	for (int i = 0; i < points->n; i++)
		read_point(&one.points[i], &points->items[i]);
	series_merge(acc->stats.series, &one);
	for (int i = 0; i < points->n; i++)
		free(one.points[i].buckets);
	free(one.points);
}

/* Where this instance was in time. */
static void
add_window(merge_acc *acc, const json_value *doc)
{
	const json_value *m = json_get(doc, "merge");
	const json_value *rv = json_get(doc, "rendezvous");
	merge_window *w;

	acc->windows = pgb_realloc(acc->windows, (size_t) (acc->ninstances + 1) * sizeof(merge_window));
	w = &acc->windows[acc->ninstances];
	memset(w, 0, sizeof(*w));
	w->start_epoch_us = json_int(json_get(m, "start_epoch_us"), 0);
	w->conn_elapsed_us = json_int(json_get(m, "conn_elapsed_us"), 0);
	w->bench_duration_us = json_int(json_get(m, "bench_duration_us"), 0);
	if (!json_is_null(rv) && json_str(json_get(rv, "group")) != NULL)
	{
		snprintf(w->group, sizeof(w->group), "%s", json_str(json_get(rv, "group")));
		w->server_start_us = json_int(json_get(rv, "start_server_epoch_us"), 0);
	}
}

/* The whole-run figures: counts, latency, lag, late, connections. */
static bool
add_totals(merge_acc *acc, const json_value *doc, const char *file)
{
	stats_run  *sr = &acc->stats;
	const json_value *tx = json_get(doc, "transactions");
	const json_value *settings = json_get(doc, "settings");
	const json_value *m = json_get(doc, "merge");
	stats_simple lag = {0};

	add_counts(&sr->total, tx);
	add_simple(&sr->total.latency, json_get(doc, "latency_ms"), json_get(doc, "latency_histogram"));
	if (!add_hist(sr->latency_hist, json_get(doc, "latency_histogram"), file))
		return false;
	if (!json_is_null(json_get(doc, "lag_ms")))
	{
		lag.count = json_int(json_get(tx, "processed"), 0);
		lag.max = 1000.0 * json_num(json_get(json_get(doc, "lag_ms"), "max"));
		lag.min = 0;
		lag.sum = json_num(json_get(m, "lag_sum_us"));
		if (!isnan(lag.max))
			stats_simple_merge(&sr->total.lag, &lag);
	}
	sr->latency_late += json_int(json_get(tx, "late"), 0);
	sr->conn_duration += json_int(json_get(m, "conn_duration_us"), 0);
	acc->cfg.nclients += (int) json_int(json_get(settings, "clients"), 0);
	acc->cfg.nthreads += (int) json_int(json_get(settings, "threads"), 0);
	if (!isnan(json_num(json_get(settings, "rate_tps"))))
		acc->cfg.rate += json_num(json_get(settings, "rate_tps"));
	acc->aborted = acc->aborted || json_bool(json_get(doc, "aborted"));
	return true;
}

/* A report of this pgbench, with what a merge needs. */
static bool
mergeable(const json_value *doc, const char *file)
{
	if (doc->kind != JSON_OBJECT || json_int(json_get(doc, "schema_version"), 0) != 2 ||
		json_get(doc, "settings") == NULL || json_get(doc, "scripts") == NULL)
	{
		diag_error("\"%s\" is not a JSON report of pgbench (schema version 2)", file);
		return false;
	}
	if (json_get(doc, "merge") == NULL || json_is_null(json_get(doc, "latency_histogram")))
	{
		diag_error("report \"%s\" lacks what a merge needs (\"merge\", \"latency_histogram\")", file);
		diag_detail("It was written by a pgbench without --merge-reports, or the run measured nothing.");
		return false;
	}
	return true;
}

bool
merge_add(merge_acc *acc, const json_value *doc, const char *file)
{
	if (!mergeable(doc, file))
		return false;
	if (acc->ninstances > 0 && !same_workload(acc, doc, file))
		return false;
	if (!add_totals(acc, doc, file) ||
		!add_scripts(acc, json_get(doc, "scripts"), file))
		return false;
	add_series(acc, json_get(doc, "series"));
	add_window(acc, doc);
	acc->ninstances++;
	return true;
}
