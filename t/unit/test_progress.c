/*
 * test_progress.c — the progress unit: the exact -P line for each
 * combination of options (pgbench 16's format plus our percentiles), the
 * seqlock slot it reads (stats_slot, stats.h: a reader racing a writer
 * only ever sees whole transactions), and the shared histogram add (same buckets as hist_add)
 * with the per-run histograms merged after join.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/progress.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/stats_slot.h"
#include "tap.h"

/* Totals after n successful transactions of 1000 us, lag 100 us each. */
static stats_data
totals(int64_t n, int64_t skipped, int64_t failed, int64_t retried, int64_t retries)
{
	stats_data	sd;

	memset(&sd, 0, sizeof(sd));
	sd.cnt = n;
	sd.skipped = skipped;
	sd.serialization_failures = failed;
	sd.retried = retried;
	sd.retries = retries;
	sd.latency.count = n;
	sd.latency.sum = 1000.0 * (double) n;
	sd.latency.sum2 = 1000000.0 * (double) n;
	sd.lag.sum = 100.0 * (double) n;
	return sd;
}

typedef struct line_case
{
	const char *name;
	progress_format fmt;
	int64_t		cnt,
				skipped,
				failed,
				retried,
				retries;
	pg_time_usec_t run_us;
	double		when;
	const char *expected;
} line_case;

static const double PCT[] = {50, 99.9};
static const int64_t PCT_US[] = {812, 4271};

static const line_case LINES[] = {
	{"plain", {0}, 1234, 0, 0, 0, 0, 1000000, 5.0,
	"progress: 5.0 s, 1234.0 tps, lat 1.000 ms stddev 0.000, 0 failed\n"},
	{"late report", {0}, 10, 0, 2, 0, 0, 2000000, 7.04,
	"progress: 7.0 s, 5.0 tps, lat 1.000 ms stddev 0.000, 2 failed\n"},
	{"timestamp", {.timestamp = true}, 1, 0, 0, 0, 0, 1000000, 1690000000.1234,
	"progress: 1690000000.123 s, 1.0 tps, lat 1.000 ms stddev 0.000, 0 failed\n"},
	{"-R", {.throttled = true}, 100, 3, 0, 0, 0, 1000000, 1.0,
	"progress: 1.0 s, 100.0 tps, lat 1.000 ms stddev 0.000, 0 failed, lag 0.100 ms\n"},
	{"-R -L", {.throttled = true, .latency_limit = true}, 100, 3, 0, 0, 0, 1000000, 1.0,
	"progress: 1.0 s, 100.0 tps, lat 1.000 ms stddev 0.000, 0 failed, lag 0.100 ms, 3 skipped\n"},
	{"-L alone", {.latency_limit = true}, 100, 3, 0, 0, 0, 1000000, 1.0,
	"progress: 1.0 s, 100.0 tps, lat 1.000 ms stddev 0.000, 0 failed\n"},
	{"--max-tries", {.retries = true}, 100, 0, 1, 4, 9, 1000000, 1.0,
	"progress: 1.0 s, 100.0 tps, lat 1.000 ms stddev 0.000, 1 failed, 4 retried, 9 retries\n"},
	{"no transaction", {.throttled = true, .retries = true}, 0, 0, 0, 0, 0, 1000000, 3.0,
	"progress: 3.0 s, 0.0 tps, lat 0.000 ms stddev 0.000, 0 failed, lag 0.000 ms, 0 retried, 0 retries\n"},
	{"percentiles", {.retries = true, .npercentiles = 2, .percentiles = PCT}, 10, 0, 0, 0, 0, 1000000, 1.0,
	"progress: 1.0 s, 10.0 tps, lat 1.000 ms stddev 0.000, 0 failed, 0 retried, 0 retries, p50/p99.9 0.812/4.271 ms\n"},
};

static void
test_lines(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(LINES); i++)
	{
		const line_case *lc = &LINES[i];
		stats_data	last = totals(50, 1, 1, 1, 1);
		stats_data	cur = totals(50 + lc->cnt, 1 + lc->skipped, 1 + lc->failed,
								 1 + lc->retried, 1 + lc->retries);
		char		buf[512];
		size_t		len;
		interval_figures iv;

		figures_interval(&cur, &last, lc->run_us, &iv);
		if (lc->fmt.npercentiles > 0)
		{
			/* what figures_interval_percentiles leaves: the values in ms */
			iv.has_percentiles = true;
			for (int p = 0; p < lc->fmt.npercentiles; p++)
				iv.percentile_ms[p] = 0.001 * (double) PCT_US[p];
		}
		len = progress_format_line(buf, sizeof(buf), &lc->fmt, &iv, lc->when);
		tap_is_str(buf, lc->expected, lc->name);
		tap_is_int((int64_t) len, (int64_t) strlen(lc->expected), "returned length");
	}
}

/* ---- the seqlock under a racing writer ------------------------------------ */

#define RACE_ROUNDS 2000000

typedef struct race
{
	stats_slot slot;
	atomic_bool done;
} race;

static void *
writer(void *arg)
{
	race	   *r = arg;
	stats_data	sd;

	for (int64_t n = 1; n <= RACE_ROUNDS; n++)
	{
		sd = totals(n, n, n, n, 2 * n);
		stats_slot_publish(&r->slot, &sd);
	}
	atomic_store(&r->done, true);
	return NULL;
}

static void
test_seqlock(void)
{
	static race r;
	pthread_t	th;
	int64_t		reads = 0,
				torn = 0,
				last_cnt = 0,
				backwards = 0;

	stats_slot_init(&r.slot);
	atomic_init(&r.done, false);
	pthread_create(&th, NULL, writer, &r);
	while (!atomic_load(&r.done) || reads == 0)
	{
		stats_data	sd;

		memset(&sd, 0, sizeof(sd));
		stats_slot_collect(&r.slot, &sd);
		/* every field of one snapshot comes from the same publish */
		if (sd.skipped != sd.cnt || sd.serialization_failures != sd.cnt ||
			sd.retried != sd.cnt || sd.retries != 2 * sd.cnt ||
			sd.latency.sum != 1000.0 * (double) sd.cnt ||
			sd.latency.sum2 != 1000000.0 * (double) sd.cnt ||
			sd.lag.sum != 100.0 * (double) sd.cnt)
			torn++;
		if (sd.cnt < last_cnt)
			backwards++;
		last_cnt = sd.cnt;
		reads++;
	}
	pthread_join(th, NULL);
	tap_ok(reads > 0, "reader ran %" PRId64 " times against the writer", reads);
	tap_is_int(torn, 0, "no torn snapshot");
	tap_is_int(backwards, 0, "totals never go backwards");
	{
		stats_data	sd;

		memset(&sd, 0, sizeof(sd));
		stats_slot_collect(&r.slot, &sd);
		stats_slot_collect(&r.slot, &sd);
		tap_is_int(sd.cnt, 2 * RACE_ROUNDS, "collect adds into the accumulator");
	}
}

/* ---- histograms ------------------------------------------------------------ */

static void
test_histograms(void)
{
	static const int64_t values[] = {0, 1, 255, 256, 1000, 4271, 999999, 12345678, -5};
	hist		plain,
				shared;
	stats_run	a,
				b,
				total;
	bool		same = true;

	hist_init(&plain, HIST_ONE_HOUR_US);
	hist_init(&shared, HIST_ONE_HOUR_US);
	for (size_t i = 0; i < PGB_LENGTHOF(values); i++)
	{
		hist_add(&plain, values[i]);
		hist_add_shared(&shared, values[i]);
	}
	for (int i = 0; i < plain.nbuckets; i++)
		same = same && plain.counts[i] == shared.counts[i];
	tap_ok(same && plain.count == shared.count && plain.min == shared.min &&
		   plain.max == shared.max && plain.sum == shared.sum,
		   "hist_add_shared counts exactly as hist_add");
	hist_free(&plain);
	hist_free(&shared);

	tap_ok(stats_run_init(&a, 2, 1) && stats_run_init(&b, 2, 1) && stats_run_init(&total, 2, 1),
		   "stats_run_init");
	tap_ok(a.latency_hist == NULL, "no histogram unless enabled");
	stats_run_record_latency(&a, 0, 10);	/* a no-op without histograms */
	tap_ok(stats_run_enable_hist(&a, true) && stats_run_enable_hist(&b, true) &&
		   stats_run_enable_hist(&total, true), "stats_run_enable_hist");
	for (int i = 1; i <= 100; i++)
		stats_run_record_latency(i % 2 ? &a : &b, i <= 50 ? 0 : 1, (double) i);
	stats_run_merge(&total, &a);
	stats_run_merge(&total, &b);
	tap_is_int(hist_count(total.latency_hist), 100, "merged: every latency once");
	tap_is_int(hist_value_at_percentile(total.latency_hist, 50), 50, "merged: exact median below 256");
	tap_is_int(hist_value_at_percentile(&total.script_hist[0], 100), 50, "per script: script 0 holds 1..50");
	tap_is_int(hist_value_at_percentile(&total.script_hist[1], 0), 51, "per script: script 1 holds 51..100");
	stats_run_free(&a);
	stats_run_free(&b);
	stats_run_free(&total);
	tap_ok(total.latency_hist == NULL && total.script_hist == NULL, "stats_run_free releases them");
}

/*
 * --warmup's cut (stats_slot_cut): the owner forgets its counts and its
 * histogram, and the slot's readers go on seeing totals and histogram
 * counters that only grow (the base it keeps plus what comes after).
 */
static void
test_cut(void)
{
	stats_run	sr;
	stats_slot	slot;
	stats_data	seen;
	hist		h;
	int64_t    *counts;

	if (!stats_run_init(&sr, 1, 1) || !stats_run_enable_hist(&sr, false) ||
		!hist_init(&h, HIST_ONE_HOUR_US))
	{
		tap_ok(false, "cut: set up");
		return;
	}
	counts = calloc((size_t) h.nbuckets, sizeof(int64_t));
	stats_slot_init(&slot);
	tap_ok(stats_slot_enable_cut(&slot, sr.latency_hist->nbuckets), "cut: room for the base");
	for (int i = 0; i < 3; i++)
	{
		stats_slot_write_begin(&slot);
		stats_data_add(&sr.total, STATS_SUCCESS, 100.0 * (i + 1), 0, 1, false);
		stats_run_record_latency(&sr, 0, 100.0 * (i + 1));
		stats_slot_write_end(&slot, &sr.total);
	}
	sr.latency_late = 2;
	sr.conn_duration = 77;
	sr.per_command[0].latency.count = 5;
	stats_slot_cut(&slot, &sr);
	tap_is_int(sr.total.cnt, 0, "cut: the owner's totals are forgotten");
	tap_is_int(hist_count(sr.latency_hist), 0, "cut: and its histogram");
	tap_is_int(sr.latency_late, 0, "cut: and the late count");
	tap_is_int(sr.per_command[0].latency.count, 0, "cut: and the commands' figures");
	tap_is_int(sr.conn_duration, 77, "cut: the connection time is kept");
	memset(&seen, 0, sizeof(seen));
	stats_slot_collect_hist(&slot, &seen, sr.latency_hist, counts);
	tap_is_int(seen.cnt, 3, "cut: a reader still sees the 3 transactions");
	tap_is_double(seen.latency.sum, 600.0, 1e-9, "cut: and their latency sum");
	{
		int64_t		n = 0;

		for (int b = 0; b < h.nbuckets; b++)
			n += counts[b];
		tap_is_int(n, 3, "cut: and their histogram counters");
	}
	stats_slot_write_begin(&slot);
	stats_data_add(&sr.total, STATS_SUCCESS, 400.0, 0, 1, false);
	stats_run_record_latency(&sr, 0, 400.0);
	stats_slot_write_end(&slot, &sr.total);
	memset(&seen, 0, sizeof(seen));
	stats_slot_collect_hist(&slot, &seen, sr.latency_hist, counts);
	tap_is_int(seen.cnt, 4, "cut: then the base plus what came after");
	tap_is_double(seen.latency.sum, 1000.0, 1e-9, "cut: sums too");
	tap_is_int(sr.total.cnt, 1, "cut: the owner counts only what came after");
	free(counts);
	hist_free(&h);
	stats_slot_release(&slot);
	stats_run_free(&sr);
}

int
main(void)
{
	test_lines();
	test_seqlock();
	test_histograms();
	test_cut();
	return tap_done();
}
