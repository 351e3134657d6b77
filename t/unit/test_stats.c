/*
 * test_stats.c — the statistics unit: accounting by outcome, the counting
 * invariants, simple-stats extremes and moments, and the merge after join
 * (merging per-thread halves must equal accounting everything in one),
 * and the helpers that loop over the counter list (sums, delta, zero).
 */
#include <math.h>
#include <stdio.h>

#include "pgbench/stats/stats.h"
#include "tap.h"

/* One accounted transaction: outcome, latency, lag, tries. */
typedef struct xact
{
	stats_outcome outcome;
	double		latency;
	double		lag;
	uint32_t	tries;
} xact;

static const xact XACTS[] = {
	{STATS_SUCCESS, 100, 5, 1},
	{STATS_SUCCESS, 300, 0, 2},
	{STATS_SKIPPED, 0, 0, 1},
	{STATS_SERIALIZATION_FAILURE, 0, 0, 3},
	{STATS_SUCCESS, 200, 15, 1},
	{STATS_DEADLOCK_FAILURE, 0, 0, 1},
	{STATS_OTHER_FAILURE, 0, 0, 1},
	{STATS_SKIPPED, 0, 0, 1},
	{STATS_SUCCESS, 50, 1, 4},
	{STATS_CONNECTION_FAILURE, 0, 0, 1},
};

static void
account(stats_data *sd, int from, int to, bool keep_lag)
{
	for (int i = from; i < to; i++)
		stats_data_add(sd, XACTS[i].outcome, XACTS[i].latency, XACTS[i].lag,
					   XACTS[i].tries, keep_lag);
}

static void
check_counts(const stats_data *sd, const char *what)
{
	char		name[128];
	int			n = (int) PGB_LENGTHOF(XACTS);

#define CHECK(field, value) \
	(snprintf(name, sizeof(name), "%s: " #field, what), tap_is_int(sd->field, value, name))
	CHECK(cnt, 4);
	CHECK(skipped, 2);
	CHECK(serialization_failures, 1);
	CHECK(deadlock_failures, 1);
	CHECK(other_failures, 1);
	CHECK(connection_failures, 1);
	/* tries 2, 3 and 4: three retried transactions, 1 + 2 + 3 retries */
	CHECK(retried, 3);
	CHECK(retries, 6);
	CHECK(latency.count, 4);
	CHECK(lag.count, 4);
#undef CHECK
	tap_is_int(sd->cnt + sd->skipped + stats_data_failures(sd), n,
			   "all transactions = skipped + cnt + failures");
	tap_is_double(sd->latency.min, 50, 0, "latency min");
	tap_is_double(sd->latency.max, 300, 0, "latency max");
	tap_is_double(sd->latency.sum, 650, 0, "latency sum");
	tap_is_double(sd->latency.sum2, 100 * 100 + 300 * 300 + 200 * 200 + 50 * 50, 0,
				  "latency sum of squares");
	tap_is_double(sd->lag.max, 15, 0, "lag max");
}

/* The helpers generated from STATS_COUNTERS and STATS_SUMS. */
static void
test_counter_list(const stats_data *whole, const stats_data *half1)
{
	stats_data	delta;
	stats_data	zero = {0};
	int			listed = 0;

#define COUNT_ONE(field, json_name, kind) listed++;
	STATS_COUNTERS(COUNT_ONE)
#undef COUNT_ONE
	tap_is_int(listed, 8, "eight counters listed");
	tap_is_int(stats_data_failures(whole), 4, "failures: the four failure kinds");
	tap_is_int(stats_data_transactions(whole), (int64_t) PGB_LENGTHOF(XACTS),
			   "transactions: successes, failures and skips, not retries");
	tap_ok(stats_data_counters_zero(&zero), "zeroed data: every counter zero");
	tap_ok(!stats_data_counters_zero(half1), "accounted data: not zero");
	zero.retries = 1;
	tap_ok(!stats_data_counters_zero(&zero), "a retry count alone is not zero");

	stats_data_delta(&delta, whole, half1);
	tap_is_int(delta.cnt, whole->cnt - half1->cnt, "delta: successes");
	tap_is_int(delta.skipped, whole->skipped - half1->skipped, "delta: skipped");
	tap_is_int(delta.retries, whole->retries - half1->retries, "delta: retries");
	tap_is_int(stats_data_failures(&delta), stats_data_failures(whole) - stats_data_failures(half1),
			   "delta: failures");
	tap_is_double(delta.latency.sum, whole->latency.sum - half1->latency.sum, 0, "delta: latency sum");
	tap_is_double(delta.latency.sum2, whole->latency.sum2 - half1->latency.sum2, 0,
				  "delta: latency sum of squares");
	tap_is_double(delta.lag.sum, whole->lag.sum - half1->lag.sum, 0, "delta: lag sum");
	tap_is_int(delta.latency.count, 0, "delta: no extremes or counts of the series");
}

int
main(void)
{
	stats_data	whole = {0};
	stats_data	half1 = {0};
	stats_data	half2 = {0};
	stats_data	merged = {0};
	stats_data	nolag = {0};
	stats_simple empty = {0};
	stats_simple one = {0};
	stats_run	a,
				b;

	account(&whole, 0, (int) PGB_LENGTHOF(XACTS), true);
	check_counts(&whole, "one thread");

	/* two threads, merged after join */
	account(&half1, 0, 4, true);
	account(&half2, 4, (int) PGB_LENGTHOF(XACTS), true);
	stats_data_merge(&merged, &half1);
	stats_data_merge(&merged, &half2);
	check_counts(&merged, "two threads merged");
	test_counter_list(&whole, &half1);

	/* without -R no lag is kept */
	account(&nolag, 0, (int) PGB_LENGTHOF(XACTS), false);
	tap_is_int(nolag.lag.count, 0, "no lag without throttling");

	/* merging an empty summary changes nothing, not even the minimum */
	stats_simple_add(&one, 7);
	stats_simple_merge(&one, &empty);
	tap_is_double(one.min, 7, 0, "merge with empty keeps min");
	tap_is_int(one.count, 1, "merge with empty keeps count");
	stats_simple_merge(&empty, &one);
	tap_is_double(empty.max, 7, 0, "merge into empty takes max");

	/* stats_run: per-script and per-command arrays merge too */
	tap_ok(stats_run_init(&a, 2, 3) && stats_run_init(&b, 2, 3), "stats_run_init");
	a.per_command[2].failures = 1;
	b.per_command[2].failures = 2;
	b.per_command[0].retries = 5;
	stats_simple_add(&b.per_command[1].latency, 12);
	stats_data_add(&b.per_script[1], STATS_SUCCESS, 10, 0, 1, false);
	b.latency_late = 4;
	b.conn_duration = 1000;
	stats_run_merge(&a, &b);
	tap_is_int(a.per_command[2].failures, 3, "per-command failures merged");
	tap_is_int(a.per_command[0].retries, 5, "per-command retries merged");
	tap_is_int(a.per_command[1].latency.count, 1, "per-command latency merged");
	tap_is_int(a.per_script[1].cnt, 1, "per-script counts merged");
	tap_is_int(a.latency_late, 4, "late count merged");
	tap_is_int(a.conn_duration, 1000, "connection time merged");
	tap_ok(((uintptr_t) a.per_command % 64) == 0, "per-command array on its own cache lines");
	stats_run_free(&a);
	stats_run_free(&b);

	return tap_done();
}
