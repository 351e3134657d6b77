/*
 * merge_read.c — one JSON report added into the merge accumulator: its
 * workload checked against the first report's (merge_workload.c), its
 * counts, sums, histograms and series checked and added, every sum
 * guarded against overflow (doc/report-json.md says which members carry
 * what; doc/fleet.md how they add up).
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "pgbench/report/report.h"
#include "pgbench/stats/timeline.h"
#include "merge_int.h"

/* The largest time in milliseconds a report may give (MERGE_MAX_SPAN_US). */
#define MAX_SPAN_MS ((double) MERGE_MAX_SPAN_US / 1000.0)

/* ---- counts and latencies -------------------------------------------------- */

/*
 * One counter of a "transactions" object (STATS_COUNTERS names it).
 * added: connection_failures, which came with --reconnect, after the
 * first reports of schema 3: a report without it lost no connection.
 */
static bool
read_counter(const merge_reading *rd, const json_ref *tx, const char *name, bool added,
			 int64_t *out)
{
	if (added && json_ref_member(tx, name).v == NULL)
	{
		*out = 0;
		return true;
	}
	return merge_int_key(rd, tx, name, 0, INT64_MAX, out);
}

/*
 * A "transactions" object (member m of obj): the STATS_COUNTERS, each a
 * count, and "failed" and "total" their sums; *out the counters.
 */
static bool
read_counts(const merge_reading *rd, const json_ref *obj, report_member m, stats_data *out)
{
	json_ref	tx;
	int64_t		failed = 0,
				total = 0,
				v;

	memset(out, 0, sizeof(*out));
	if (!merge_container(rd, obj, m, JSON_OBJECT, &tx))
		return false;
#define READ_COUNTER(field, json_name, kind) \
	if (!read_counter(rd, &tx, json_name, &out->field == &out->connection_failures, \
					  &out->field)) \
		return false;
	STATS_COUNTERS(READ_COUNTER)
#undef READ_COUNTER
	if (!merge_int(rd, &tx, RM_TRANSACTIONS_FAILED, 0, INT64_MAX, &failed) ||
		!merge_int(rd, &tx, RM_TRANSACTIONS_TOTAL, 0, INT64_MAX, &total))
		return false;
	v = 0;
#define SUM_FAILURES(field, json_name, kind) \
	if ((kind) == STATS_COUNT_FAILURE && __builtin_add_overflow(v, out->field, &v)) \
		v = -1;
	STATS_COUNTERS(SUM_FAILURES)
#undef SUM_FAILURES
	if (v != failed)
	{
		json_ref	r = merge_at(&tx, RM_TRANSACTIONS_FAILED);

		return merge_bad(rd, &r, "%" PRId64 ", but the kinds of failure add up to %" PRId64,
						 failed, v);
	}
	if (__builtin_add_overflow(out->cnt, failed, &v) || __builtin_add_overflow(v, out->skipped, &v) ||
		v != total)
	{
		json_ref	r = merge_at(&tx, RM_TRANSACTIONS_TOTAL);

		return merge_bad(rd, &r, "%" PRId64 ", not processed + failed + skipped", total);
	}
	return true;
}

/* sd's counters into acc's, each sum checked (at names them). */
static bool
add_counts(const merge_reading *rd, const json_ref *at, stats_data *acc, const stats_data *sd)
{
#define ADD_COUNTER(field, json_name, kind) \
	if (!merge_sum(rd, at, &acc->field, sd->field)) \
		return false;
	STATS_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
	return true;
}

/*
 * A latency_ms object (member m of obj: count, min and max in ms) and the
 * exact sums of its histogram block (us), into *out; count must be
 * expect.
 */
static bool
read_latency(const merge_reading *rd, const json_ref *obj, report_member m, const json_ref *block,
			 int64_t expect, stats_simple *out)
{
	json_ref	lat;
	bool		has_min,
				has_max;

	memset(out, 0, sizeof(*out));
	if (!merge_container(rd, obj, m, JSON_OBJECT, &lat) ||
		!merge_int(rd, &lat, RM_LATENCY_COUNT, 0, INT64_MAX, &out->count) ||
		!merge_num_null(rd, &lat, RM_LATENCY_MIN, 0, MAX_SPAN_MS, &out->min, &has_min) ||
		!merge_num_null(rd, &lat, RM_LATENCY_MAX, 0, MAX_SPAN_MS, &out->max, &has_max) ||
		!merge_num(rd, block, RM_HISTOGRAM_LATENCY_SUM_US, 0, INFINITY, &out->sum) ||
		!merge_num(rd, block, RM_HISTOGRAM_LATENCY_SUM_SQUARES_US, 0, INFINITY, &out->sum2))
		return false;
	if (out->count != expect)
	{
		json_ref	r = merge_at(&lat, RM_LATENCY_COUNT);

		return merge_bad(rd, &r, "%" PRId64 ", not %" PRId64, out->count, expect);
	}
	if (out->count > 0 && (!has_min || !has_max))
	{
		json_ref	r = merge_at(&lat, has_min ? RM_LATENCY_MAX : RM_LATENCY_MIN);

		return merge_bad(rd, &r, "expected a number, found null");
	}
	if (out->min > out->max)
	{
		json_ref	r = merge_at(&lat, RM_LATENCY_MIN);

		return merge_bad(rd, &r, "%g is above max (%g)", out->min, out->max);
	}
	out->min *= 1000.0;
	out->max *= 1000.0;
	return true;
}

/* stats_simple_merge, with its sums checked (at names them). */
static bool
add_simple(const merge_reading *rd, const json_ref *at, stats_simple *acc, const stats_simple *ss)
{
	int64_t		count = acc->count;
	double		sum = acc->sum,
				sum2 = acc->sum2;

	if (ss->count == 0)
		return true;
	if (!merge_sum(rd, at, &count, ss->count) || !merge_sum_real(rd, at, &sum, ss->sum) ||
		!merge_sum_real(rd, at, &sum2, ss->sum2))
		return false;
	stats_simple_merge(acc, ss);
	return true;
}

/* ---- histograms ------------------------------------------------------------ */

/*
 * The histogram block m of obj, of our layout, counting expect values,
 * into h.  *block is set for read_latency.
 */
static bool
add_hist(const merge_reading *rd, const json_ref *obj, report_member m, int64_t expect, hist *h,
		 json_ref *block)
{
	const char *layout;
	int64_t		bits,
				highest,
				count,
				clamped;
	double		sum;
	merge_hist	mh;
	bool		ok;

	if (!merge_container(rd, obj, m, JSON_OBJECT, block) ||
		!merge_str(rd, block, RM_HISTOGRAM_LAYOUT, &layout) ||
		!merge_int(rd, block, RM_HISTOGRAM_SUB_BUCKET_BITS, 0, 62, &bits) ||
		!merge_int(rd, block, RM_HISTOGRAM_HIGHEST_US, 0, INT64_MAX, &highest))
		return false;
	if (strcmp(layout, "log-linear") != 0 || bits != HIST_SUB_BITS || highest != h->highest)
	{
		json_ref	r = merge_at(block, strcmp(layout, "log-linear") != 0 ? RM_HISTOGRAM_LAYOUT
								 : bits != HIST_SUB_BITS ? RM_HISTOGRAM_SUB_BUCKET_BITS
								 : RM_HISTOGRAM_HIGHEST_US);

		return merge_bad(rd, &r, "another layout than this pgbench's (\"log-linear\", %d sub-bucket bits, highest %" PRId64 " us)",
						 HIST_SUB_BITS, h->highest);
	}
	if (!merge_int(rd, block, RM_HISTOGRAM_COUNT, 0, INT64_MAX, &count) ||
		!merge_int(rd, block, RM_HISTOGRAM_CLAMPED, 0, count, &clamped) ||
		!merge_num(rd, block, RM_HISTOGRAM_SUM_US, 0, INFINITY, &sum))
		return false;
	if (count != expect)
	{
		json_ref	r = merge_at(block, RM_HISTOGRAM_COUNT);

		return merge_bad(rd, &r, "%" PRId64 ", not %" PRId64, count, expect);
	}
	ok = merge_read_buckets(rd, block, count, &mh) && merge_import(rd, block, h, &mh, sum);
	free(mh.b);
	return ok;
}

/* ---- totals ---------------------------------------------------------------- */

/* "lag_ms" (under -R) and "merge.lag_sum_us" into the total lag. */
static bool
add_lag(merge_acc *acc, const merge_reading *rd, const json_ref *doc, const json_ref *m,
		int64_t processed)
{
	json_ref	lag_ms;
	bool		present,
				has_max,
				has_sum;
	stats_simple lag = {.count = processed};

	if (!merge_container_null(rd, doc, RM_TOP_LAG_MS, JSON_OBJECT, &lag_ms, &present) ||
		(present && !merge_num_null(rd, &lag_ms, RM_LAG_MAX, 0, MAX_SPAN_MS, &lag.max, &has_max)) ||
		!merge_num_null(rd, m, RM_MERGE_LAG_SUM_US, 0, INFINITY, &lag.sum, &has_sum))
		return false;
	if (!present || !has_max || !has_sum)
		return true;
	lag.max *= 1000.0;
	return add_simple(rd, &lag_ms, &acc->stats.total.lag, &lag);
}

/* The whole-run figures: counts, latency, lag, late, connections, the summed settings. */
static bool
add_totals(merge_acc *acc, const merge_reading *rd, const json_ref *doc, const json_ref *m)
{
	stats_run  *sr = &acc->stats;
	json_ref	tx = merge_at(doc, RM_TOP_TRANSACTIONS);
	json_ref	block;
	stats_data	counts;
	stats_simple latency;
	int64_t		late = 0,
				conn,
				bench;
	bool		has_late;

	if (!merge_int(rd, m, RM_MERGE_BENCH_DURATION_US, 0, MERGE_MAX_SPAN_US, &bench) ||
		!read_counts(rd, doc, RM_TOP_TRANSACTIONS, &counts))
		return false;
	/* a run that measured transactions lasted: a tps of n / 0 is no figure */
	if (bench == 0 && (counts.cnt > 0 || stats_data_failures(&counts) > 0))
	{
		json_ref	b = merge_at(m, RM_MERGE_BENCH_DURATION_US);

		return merge_bad(rd, &b, "0, but transactions ended in the run");
	}
	return add_hist(rd, doc, RM_TOP_LATENCY_HISTOGRAM, counts.cnt, sr->latency_hist, &block) &&
		read_latency(rd, doc, RM_TOP_LATENCY_MS, &block, counts.cnt, &latency) &&
		add_counts(rd, &tx, &sr->total, &counts) &&
		add_simple(rd, &block, &sr->total.latency, &latency) &&
		add_lag(acc, rd, doc, m, counts.cnt) &&
		merge_int_null(rd, &tx, RM_TRANSACTIONS_LATE, 0, counts.cnt, &late, &has_late) &&
		merge_sum(rd, &tx, &sr->latency_late, late) &&
		merge_int(rd, m, RM_MERGE_CONN_DURATION_US, 0, INT64_MAX, &conn) &&
		merge_sum(rd, m, &sr->conn_duration, conn) &&
		merge_settings_sum(acc, rd, doc);
}

/* ---- scripts and commands ---------------------------------------------------- */

/* Command j of a script ("commands": commands) into flattened command k. */
static bool
add_command(merge_acc *acc, const merge_reading *rd, const json_ref *commands, int j, int k)
{
	stats_run  *sr = &acc->stats;
	json_ref	c = json_ref_item(commands, j);
	json_ref	lat,
				block;
	json_ref	failures_at = merge_at(&c, RM_COMMAND_FAILURES);
	json_ref	retries_at = merge_at(&c, RM_COMMAND_RETRIES);
	stats_simple latency;
	int64_t		count,
				failures,
				retries;

	return merge_container(rd, &c, RM_COMMAND_LATENCY_MS, JSON_OBJECT, &lat) &&
		merge_int(rd, &lat, RM_LATENCY_COUNT, 0, INT64_MAX, &count) &&
		add_hist(rd, &c, RM_COMMAND_LATENCY_HISTOGRAM, count, &sr->command_hist[k], &block) &&
		read_latency(rd, &c, RM_COMMAND_LATENCY_MS, &block, count, &latency) &&
		add_simple(rd, &block, &sr->per_command[k].latency, &latency) &&
		merge_int(rd, &c, RM_COMMAND_FAILURES, 0, INT64_MAX, &failures) &&
		merge_int(rd, &c, RM_COMMAND_RETRIES, 0, INT64_MAX, &retries) &&
		merge_sum(rd, &failures_at, &sr->per_command[k].failures, failures) &&
		merge_sum(rd, &retries_at, &sr->per_command[k].retries, retries);
}

/* Per script (several) and per command (-r): counts, sums, histograms. */
static bool
add_scripts(merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	stats_run  *sr = &acc->stats;
	json_ref	list = merge_at(doc, RM_TOP_SCRIPTS);

	for (int i = 0; i < list.v->n; i++)
	{
		json_ref	s = json_ref_item(&list, i);
		json_ref	commands = merge_at(&s, RM_SCRIPT_COMMANDS);
		json_ref	tx = merge_at(&s, RM_SCRIPT_TRANSACTIONS);
		json_ref	block;
		stats_data	counts;
		stats_simple latency;
		bool		present;

		/* with one script, its figures are the totals' (checked there) */
		if (!read_counts(rd, &s, RM_SCRIPT_TRANSACTIONS, &counts))
			return false;
		if (acc->cfg.per_script_stats &&
			(!add_hist(rd, &s, RM_SCRIPT_LATENCY_HISTOGRAM, counts.cnt, &sr->script_hist[i],
					   &block) ||
			 !read_latency(rd, &s, RM_SCRIPT_LATENCY_MS, &block, counts.cnt, &latency) ||
			 !add_counts(rd, &tx, &sr->per_script[i], &counts) ||
			 !add_simple(rd, &block, &sr->per_script[i].latency, &latency)))
			return false;
		if (!acc->cfg.per_script_stats &&
			!merge_container_null(rd, &s, RM_SCRIPT_LATENCY_HISTOGRAM, JSON_OBJECT, &block,
								  &present))
			return false;
		for (int j = 0; acc->cfg.per_command && j < commands.v->n; j++)
			if (!add_command(acc, rd, &commands, j, acc->cfg.script_offset[i] + j))
				return false;
	}
	return true;
}

/* ---- the series ------------------------------------------------------------ */

/* A point's times (t_s, interval_s) into r, checked. */
static bool
read_point_times(const merge_reading *rd, const json_ref *p, timeline_record *r)
{
	double		t_s,
				len_s;
	json_ref	at;

	if (!merge_num(rd, p, RM_POINT_T_S, 0, 0.000001 * (double) MERGE_MAX_SPAN_US, &t_s) ||
		!merge_num(rd, p, RM_POINT_INTERVAL_S, 0, 0.000001 * (double) MERGE_MAX_SPAN_US, &len_s))
		return false;
	at = merge_at(p, RM_POINT_INTERVAL_S);
	if (len_s > t_s)
		return merge_bad(rd, &at, "%g s is longer than the run up to its end (%g s)", len_s, t_s);
	r->end_us = (pg_time_usec_t) (t_s * 1000000.0 + 0.5);
	r->start_us = r->end_us - (pg_time_usec_t) (len_s * 1000000.0 + 0.5);
	return true;
}

/* declared one by one in report_schema.h: a point shows these four */
const report_member merge_point_percentiles[TIMELINE_NPERCENTILES] = {
	RM_POINT_LATENCY_P50, RM_POINT_LATENCY_P90, RM_POINT_LATENCY_P99, RM_POINT_LATENCY_P99_9,
};

/*
 * The percentiles and client figures a point shows: kept as they are for
 * a merge of one report (a merge of more computes them again).
 */
static bool
read_point_shown(const merge_reading *rd, const json_ref *p, timeline_record *r)
{
	json_ref	lat,
				client;
	bool		present;

	if (rd->version < 4)
		return true;			/* from the buckets (read_point_hist) */
	if (!merge_container(rd, p, RM_POINT_LATENCY_MS, JSON_OBJECT, &lat))
		return false;
	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
	{
		double		ms = 0;

		if (!merge_num_null(rd, &lat, merge_point_percentiles[k], 0,
							0.001 * (double) HIST_MAX_HIGHEST, &ms, &present))
			return false;
		r->latency_pct_us[k] = present ? ms * 1000.0 : 0;
	}
	if (!merge_container_null(rd, p, RM_POINT_CLIENT, JSON_OBJECT, &client, &present))
		return false;
	r->has_client = present;
	if (present)
	{
		double		busiest_pct;
		bool		rss;

		if (!merge_num(rd, &client, RM_POINT_CLIENT_CPU_USER_S, 0, INFINITY, &r->cpu_user_s) ||
			!merge_num(rd, &client, RM_POINT_CLIENT_CPU_SYSTEM_S, 0, INFINITY, &r->cpu_system_s) ||
			!merge_num(rd, &client, RM_POINT_CLIENT_BUSIEST_THREAD_CPU_PCT, 0, INFINITY,
					   &busiest_pct) ||
			!merge_int_null(rd, &client, RM_POINT_CLIENT_RSS_KB, 0, INT64_MAX / 1024, &r->rss_kb,
							&rss))
			return false;
		r->busiest_thread_cpu = busiest_pct / 100.0;
		if (!rss)
			r->rss_kb = -1;
	}
	return true;
}

/*
 * A point's histogram into r: its sums, extremes and buckets, the fine
 * ones of schema versions 2 and 3 counted into the coarse layout.
 */
static bool
read_point_hist(const merge_reading *rd, const json_ref *h, int bits, timeline_record *r)
{
	merge_hist	mh;

	if (!merge_num(rd, h, RM_POINT_HIST_LATENCY_SUM_US, 0, INFINITY, &r->delta.latency.sum) ||
		!merge_num(rd, h, RM_POINT_HIST_LAG_SUM_US, 0, INFINITY, &r->delta.lag.sum) ||
		(rd->version >= 4 &&
		 !merge_num(rd, h, RM_POINT_HIST_LATENCY_SUM_SQUARES_US, 0, INFINITY,
					&r->delta.latency.sum2)) ||
		!merge_read_point_buckets(rd, h, r->delta.cnt, bits, &mh))
		return false;
	for (int i = 0; i < mh.n; i++)
	{
		int			b = bits == TIMELINE_SUB_BITS ? mh.b[i].index
			: timeline_bucket_of(hist_bucket_lowest(mh.b[i].index));

		if (mh.b[i].count > (int64_t) (UINT32_MAX - r->buckets[b]))
		{
			json_ref	at = merge_at(h, RM_POINT_HIST_BUCKETS);

			free(mh.b);
			return merge_bad(rd, &at, "more than %" PRIu32 " transactions in one bucket",
							 UINT32_MAX);
		}
		r->buckets[b] += (uint32_t) mh.b[i].count;
	}
	r->latency_min_us = mh.min_us;
	r->latency_max_us = mh.max_us;
	free(mh.b);
	if (rd->version < 4)
	{
		static const double at[TIMELINE_NPERCENTILES] = TIMELINE_PERCENTILES;

		for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
			r->latency_pct_us[k] = timeline_bucket_percentile(r, at[k]);
	}
	return true;
}

/* Point i of "series.points" into r, checked. */
static bool
read_point(const merge_reading *rd, const json_ref *points, int i, bool incomplete, int bits,
		   pg_time_usec_t interval, timeline_record *r)
{
	json_ref	p = json_ref_item(points, i);
	json_ref	h;
	int64_t		failures;
	bool		present;

	memset(r, 0, sizeof(*r));
	r->sources = 1;
	r->start_us = (pg_time_usec_t) i * interval;	/* versions 2 and 3 */
	r->end_us = r->start_us + interval;
	if (p.v->kind != JSON_OBJECT)
		return merge_bad(rd, &p, "expected an object, found %s", json_kind_name(p.v));
	/* failures are not kept by kind per point: counted as "other" */
	if (!merge_int(rd, &p, RM_POINT_PROCESSED, 0, INT64_MAX, &r->delta.cnt) ||
		!merge_int(rd, &p, RM_POINT_FAILURES, 0, INT64_MAX, &failures) ||
		!merge_int(rd, &p, RM_POINT_RETRIES, 0, INT64_MAX, &r->delta.retries) ||
		!merge_int(rd, &p, RM_POINT_SKIPPED, 0, INT64_MAX, &r->delta.skipped) ||
		(rd->version >= 4 &&
		 !merge_int(rd, &p, RM_POINT_RETRIED, 0, INT64_MAX, &r->delta.retried)) ||
		(rd->version >= 4 && !read_point_times(rd, &p, r)) || !read_point_shown(rd, &p, r) ||
		!merge_container_null(rd, &p, RM_POINT_HISTOGRAM, JSON_OBJECT, &h, &present))
		return false;
	r->delta.other_failures = failures;
	/* --stages' target: absent from the reports written before it */
	if (json_ref_member(&p, "stage_target").v != NULL &&
		!merge_num_null(rd, &p, RM_POINT_STAGE_TARGET, 0, 1e15, &r->stage_target, &r->staged))
		return false;
	if (!present)
	{
		if (r->delta.cnt > 0 && !incomplete)
			return merge_bad(rd, &h, "null, but %" PRId64 " transactions ended in this interval",
							 r->delta.cnt);
		return true;
	}
	return read_point_hist(rd, &h, bits, r);
}

/*
 * "series" into the accumulated timeline, point by point.  Its points
 * must cover the run (as the writer makes them, give or take the last)
 * and stay within MERGE_MAX_SPAN_US, so that the merged window is bounded.
 */
static bool
add_series(merge_acc *acc, const merge_reading *rd, const json_ref *doc, const json_ref *m)
{
	timeline   *tl = &acc->tl;
	json_ref	series = merge_at(doc, RM_TOP_SERIES);
	json_ref	points;
	int64_t		interval = tl->interval,
				conn,
				bench,
				bits = HIST_SUB_BITS;
	bool		incomplete;

	if (!merge_bool(rd, &series, RM_SERIES_INCOMPLETE, &incomplete) ||
		(rd->version >= 4 && !merge_int(rd, &series, RM_SERIES_SUB_BUCKET_BITS, TIMELINE_SUB_BITS,
										TIMELINE_SUB_BITS, &bits)) ||
		!merge_container(rd, &series, RM_SERIES_POINTS, JSON_ARRAY, &points) ||
		!merge_int(rd, m, RM_MERGE_CONN_ELAPSED_US, 0, MERGE_MAX_SPAN_US, &conn) ||
		!merge_int(rd, m, RM_MERGE_BENCH_DURATION_US, 0, MERGE_MAX_SPAN_US, &bench))
		return false;
	if (points.v->n > MERGE_MAX_SPAN_US / interval)
		return merge_bad(rd, &points, "%d points of %g s span more than %" PRId64 " us",
						 points.v->n, 0.000001 * (double) interval, MERGE_MAX_SPAN_US);
	if ((conn + bench + interval - 1) / interval > points.v->n + 1)
		return merge_bad(rd, &points, "too few (%d) for the run's %" PRId64 " us",
						 points.v->n, conn + bench);
	tl->oom = tl->oom || incomplete;
	for (int i = 0; i < points.v->n; i++)
	{
		timeline_record r,
					sum;

		memset(&sum, 0, sizeof(sum));
		if (!read_point(rd, &points, i, incomplete, (int) bits, interval, &r))
			return false;
		if (i < tl->n && !timeline_get(tl, i, &sum))
			return merge_bad(rd, &points, "could not read the merged series back");
		if (!timeline_record_merge(&sum, &r))
		{
			json_ref	p = json_ref_item(&points, i);

			return merge_bad(rd, &p, "the sum over the reports overflows");
		}
		if (!timeline_put(tl, i, &sum))
			return merge_bad(rd, &points, "out of memory");
	}
	return true;
}

/* ---- the rest -------------------------------------------------------------- */

/*
 * Where this instance was in time (*w: its rendezvous set by
 * merge_identify); whether it aborted.
 */
static bool
add_window(merge_acc *acc, const merge_reading *rd, const json_ref *doc, const json_ref *m,
		   merge_window *w)
{
	bool		aborted;

	if (!merge_int(rd, m, RM_MERGE_START_EPOCH_US, 0, MERGE_MAX_EPOCH_US, &w->start_epoch_us) ||
		!merge_int(rd, m, RM_MERGE_CONN_ELAPSED_US, 0, MERGE_MAX_SPAN_US, &w->conn_elapsed_us) ||
		!merge_int(rd, m, RM_MERGE_BENCH_DURATION_US, 0, MERGE_MAX_SPAN_US,
				   &w->bench_duration_us) ||
		!merge_bool(rd, doc, RM_TOP_ABORTED, &aborted))
		return false;
	acc->windows = pgb_realloc(acc->windows, (size_t) (acc->ninstances + 1) * sizeof(merge_window));
	acc->windows[acc->ninstances] = *w;
	acc->aborted = acc->aborted || aborted;
	return true;
}

/* "aborted_clients": failure records naming clients and scripts that exist. */
static bool
check_aborts(const merge_acc *acc, const merge_reading *rd, const json_ref *doc)
{
	json_ref	list;

	if (!merge_container(rd, doc, RM_TOP_ABORTED_CLIENTS, JSON_ARRAY, &list))
		return false;
	for (int i = 0; i < list.v->n; i++)
	{
		json_ref	a = json_ref_item(&list, i);
		int64_t		client,
					script_index = 0,
					command_index = 0;
		bool		has_script,
					has_command;
		int			ncommands;

		if (a.v->kind != JSON_OBJECT)
			return merge_bad(rd, &a, "expected an object, found %s", json_kind_name(a.v));
		if (!merge_int(rd, &a, RM_ABORT_CLIENT, 0, INT_MAX, &client) ||
			!merge_int_null(rd, &a, RM_ABORT_SCRIPT, 0, acc->scripts.nscripts - 1, &script_index,
							&has_script))
			return false;
		ncommands = has_script && acc->cfg.per_command
			? acc->scripts.scripts[script_index].ncommands : INT_MAX;
		if (!merge_int_null(rd, &a, RM_ABORT_COMMAND, 0, ncommands - 1, &command_index,
							&has_command))
			return false;
	}
	return true;
}

/* A report of this pgbench (schema version 2 or 3) of a run that measured. */
static bool
check_report(merge_reading *rd, const json_ref *doc)
{
	int64_t		version;
	const char *outcome;
	json_ref	r;

	if (doc->v->kind != JSON_OBJECT)
		return merge_bad(rd, doc, "not a JSON report of pgbench (expected an object, found %s)",
						 json_kind_name(doc->v));
	if (!merge_int(rd, doc, RM_TOP_SCHEMA_VERSION, INT64_MIN, INT64_MAX, &version))
		return false;
	r = merge_at(doc, RM_TOP_SCHEMA_VERSION);
	if (version < REPORT_JSON_SCHEMA_OLDEST || version > REPORT_JSON_SCHEMA_VERSION)
		return merge_bad(rd, &r, "%" PRId64 ", but this pgbench reads versions %d to %d",
						 version, REPORT_JSON_SCHEMA_OLDEST, REPORT_JSON_SCHEMA_VERSION);
	rd->version = version;
	if (!merge_str(rd, doc, RM_TOP_OUTCOME, &outcome))
		return false;
	r = merge_at(doc, RM_TOP_OUTCOME);
	if (strcmp(outcome, "completed") != 0 && strcmp(outcome, "aborted") != 0 &&
		strcmp(outcome, "interrupted") != 0)
		return merge_bad(rd, &r, "\"%s\": the run measured nothing", outcome);
	return merge_container(rd, doc, RM_TOP_MERGE, JSON_OBJECT, &r) &&
		merge_container(rd, doc, RM_TOP_SERIES, JSON_OBJECT, &r);
}

bool
merge_add(merge_acc *acc, const json_value *root, const char *file, merge_error *err)
{
	merge_reading reading = {.file = file, .err = err};
	const merge_reading *rd = &reading;
	json_ref	doc = json_ref_root(root);
	json_ref	m = merge_at(&doc, RM_TOP_MERGE);
	merge_window w = {0};

	if (acc->ninstances == 0)
		acc->first_file = file;
	if (!check_report(&reading, &doc) || !merge_identify(acc, rd, &doc, &w) ||
		!merge_workload(acc, rd, &doc))
		return false;
	if (!add_totals(acc, rd, &doc, &m) || !add_scripts(acc, rd, &doc) ||
		!add_series(acc, rd, &doc, &m) || !add_window(acc, rd, &doc, &m, &w) ||
		!check_aborts(acc, rd, &doc))
		return false;
	acc->ninstances++;
	return true;
}
