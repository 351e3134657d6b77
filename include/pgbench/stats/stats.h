/*
 * stats.h — what a benchmark run counts: transactions by outcome, latency
 * and schedule lag summaries, per script and per command.
 *
 * Every worker thread owns one stats_run and is its only writer while the
 * run lasts; the orchestrator merges them after joining the threads, so the
 * hot path never shares a cache line or takes a lock.  Units are
 * microseconds throughout.
 */
#ifndef PGBENCH_STATS_H
#define PGBENCH_STATS_H


#include "pgbench/base/common.h"
#include "pgbench/stats/histogram.h"
#include "pgbench/failure/reconnect.h"

/* Count, extremes and moments of a series of values (microseconds). */
typedef struct stats_simple
{
	int64_t		count;			/* how many values were added */
	double		min;			/* smallest value; meaningless when count = 0 */
	double		max;			/* largest value; meaningless when count = 0 */
	double		sum;			/* sum of the values */
	double		sum2;			/* sum of their squares, for the stddev */
} stats_simple;

/* How a transaction ended. */
typedef enum stats_outcome
{
	STATS_SUCCESS,				/* ran to the end of its script */
	STATS_SKIPPED,				/* never started: too late under -R and -L */
	STATS_SERIALIZATION_FAILURE,	/* failed for good on a 40001 */
	STATS_DEADLOCK_FAILURE,		/* failed for good on a 40P01 */
	STATS_OTHER_FAILURE,		/* failed for good on another SQL error */
	STATS_CONNECTION_FAILURE,	/* in flight when its connection was lost
								 * (--reconnect) */
} stats_outcome;

/* What a transaction counter counts, for the sums below. */
typedef enum stats_counter_kind
{
	STATS_COUNT_SUCCESS,		/* transactions that ran to their end */
	STATS_COUNT_FAILURE,		/* transactions that failed for good, one
								 * counter per kind of failure */
	STATS_COUNT_SKIPPED,		/* transactions that never started */
	STATS_COUNT_RETRY,			/* retry counts: not transactions of their own */
} stats_counter_kind;

/*
 * The int64 transaction counters of stats_data, listed once, in the order
 * --report-json prints them within each kind: X(field, json_name, kind).
 * The struct, its merge, the published slots (fields, publish, collect),
 * the failure and transaction sums and the JSON counts all loop over this
 * list, so a new counter is one line here plus the places that print it
 * in a format of their own (the text report, -P lines, -l aggregates).
 *
 *   cnt                     successful transactions ("processed")
 *   serialization_failures  failed for good on a 40001
 *   deadlock_failures       failed for good on a 40P01
 *   other_failures          failed for good on another SQL error
 *   connection_failures     in flight when the connection was lost
 *                           (--reconnect; 0 otherwise)
 *   skipped                 never started: too late under -R with -L
 *   retried                 transactions retried at least once
 *   retries                 retries over all transactions
 */
#define STATS_COUNTERS(X) \
	X(cnt, "processed", STATS_COUNT_SUCCESS) \
	X(serialization_failures, "serialization_failures", STATS_COUNT_FAILURE) \
	X(deadlock_failures, "deadlock_failures", STATS_COUNT_FAILURE) \
	X(other_failures, "other_failures", STATS_COUNT_FAILURE) \
	X(connection_failures, "connection_failures", STATS_COUNT_FAILURE) \
	X(skipped, "skipped", STATS_COUNT_SKIPPED) \
	X(retried, "retried", STATS_COUNT_RETRY) \
	X(retries, "retries", STATS_COUNT_RETRY)

/*
 * The summed doubles of stats_data that a -P report needs (its min and
 * max are not published): X(name, member of stats_data).
 */
#define STATS_SUMS(X) \
	X(latency_sum, latency.sum) \
	X(latency_sum2, latency.sum2) \
	X(lag_sum, lag.sum)

/*
 * Transaction counters.  The invariants, as in pgbench:
 *   all transactions  = skipped + cnt + failures
 *   failures          = serialization_failures + deadlock_failures
 *                       + other_failures + connection_failures
 *   retried          <= cnt + failures (transactions needing > 1 try)
 *   retries           = sum over retried transactions of (tries - 1)
 * latency and lag hold successful transactions only (lag under -R only).
 */
typedef struct stats_data
{
#define STATS_COUNTER_FIELD(field, json_name, kind) int64_t field;
	STATS_COUNTERS(STATS_COUNTER_FIELD)
#undef STATS_COUNTER_FIELD
	stats_simple latency;		/* end - scheduled start, successful only */
	stats_simple lag;			/* actual - scheduled start, under -R */
} stats_data;

/* Per-command counters, for -r. */
typedef struct stats_command
{
	stats_simple latency;		/* time from sending to done (or sleep end) */
	int64_t		failures;		/* transactions that failed at this command */
	int64_t		retries;		/* retries started from an error here */
} stats_command;

/*
 * Everything one thread counts.  per_script[] has one entry per script,
 * per_command[] one per command of every script, flattened in script
 * order (the caller keeps each script's offset).
 *
 * The latency histograms (successful transactions, whole microseconds)
 * exist only after stats_run_enable_hist: they feed --percentiles and
 * --report-json.  The owner adds with hist_add_shared, so a progress
 * report may read the overall one's counters while the run goes on.
 */
typedef struct stats_run
{
	stats_data	total;
	int64_t		latency_late;	/* successful but over the -L limit */
	pg_time_usec_t conn_duration;	/* summed connect (and -C disconnect) time */
	reconnect_stats reconnect;	/* --reconnect: the clients' outages */
	int			nscripts;
	stats_data *per_script;
	int			ncommands;
	stats_command *per_command;
	hist	   *latency_hist;	/* all scripts; NULL unless enabled */
	hist	   *script_hist;	/* one per script; NULL unless enabled per script */

	/*
	 * --report-json / --report-html (stats_run_enable_report): the
	 * aborted clients' records (aborts.h), and with -r one latency
	 * histogram per command.  NULL unless enabled.
	 */
	struct run_aborts *aborts;
	hist	   *command_hist;	/* ncommands long */
} stats_run;

/* Add one value.  The owner thread only; never allocates. */
static inline void
stats_simple_add(stats_simple *ss, double value)
{
	if (ss->count == 0 || value < ss->min)
		ss->min = value;
	if (ss->count == 0 || value > ss->max)
		ss->max = value;
	ss->count++;
	ss->sum += value;
	ss->sum2 += value * value;
}

/* Add the values summed in ss into acc (extremes, count, sums). */
void		stats_simple_merge(stats_simple *acc, const stats_simple *ss);

/*
 * Account one transaction.  latency and lag are only kept for successful
 * transactions; lag only when keep_lag (the run is throttled).  tries is
 * the number of tries the transaction took (1 without retries).
 */
void		stats_data_add_any(stats_data *sd, stats_outcome outcome, double latency,
							   double lag, uint32_t tries, bool keep_lag);

/* A successful transaction's count, latency and (when kept) lag. */
static inline void
stats_data_add_success(stats_data *sd, double latency, double lag, bool keep_lag)
{
	sd->cnt++;
	stats_simple_add(&sd->latency, latency);
	if (keep_lag)
		stats_simple_add(&sd->lag, lag);
}

/*
 * A successful transaction whose latency was not taken, in a run that
 * takes none (every latency added is 0): what stats_data_add_success(sd,
 * 0, 0, false) adds, since after the first zero the extremes and sums stay
 * at zero and only the counts move.
 */
static inline void
stats_data_add_untimed_success(stats_data *sd)
{
	sd->cnt++;
	if (PGB_UNLIKELY(sd->latency.count == 0))
		stats_simple_add(&sd->latency, 0.0);
	else
		sd->latency.count++;
}

/* stats_data_add_any, with a success at the first try (nearly every
 * transaction) added in line */
static inline void
stats_data_add(stats_data *sd, stats_outcome outcome, double latency,
			   double lag, uint32_t tries, bool keep_lag)
{
	if (PGB_LIKELY(outcome == STATS_SUCCESS && tries == 1))
		stats_data_add_success(sd, latency, lag, keep_lag);
	else
		stats_data_add_any(sd, outcome, latency, lag, tries, keep_lag);
}

/* Add every counter and summary of sd into acc.  Not thread-safe: after the join. */
void		stats_data_merge(stats_data *acc, const stats_data *sd);

/* Failed transactions of all kinds (the STATS_COUNT_FAILURE counters). */
static inline int64_t
stats_data_failures(const stats_data *sd)
{
	int64_t		n = 0;

#define STATS_ADD_FAILURES(field, json_name, kind) \
	if ((kind) == STATS_COUNT_FAILURE) \
		n += sd->field;
	STATS_COUNTERS(STATS_ADD_FAILURES)
#undef STATS_ADD_FAILURES
	return n;
}

/* All transactions: successful, failed and skipped (retry counts aside). */
static inline int64_t
stats_data_transactions(const stats_data *sd)
{
	int64_t		n = 0;

#define STATS_ADD_TRANSACTIONS(field, json_name, kind) \
	if ((kind) != STATS_COUNT_RETRY) \
		n += sd->field;
	STATS_COUNTERS(STATS_ADD_TRANSACTIONS)
#undef STATS_ADD_TRANSACTIONS
	return n;
}

/* Every counter is zero: nothing was accounted (the sums aside). */
static inline bool
stats_data_counters_zero(const stats_data *sd)
{
	bool		zero = true;

#define STATS_CHECK_ZERO(field, json_name, kind) zero = zero && sd->field == 0;
	STATS_COUNTERS(STATS_CHECK_ZERO)
#undef STATS_CHECK_ZERO
	return zero;
}

/*
 * cur minus last, counter by counter and sum by sum (STATS_SUMS), into
 * delta: what happened between two snapshots of the same totals.  The
 * extremes and counts of the simple stats are not differences: zero.
 */
void		stats_data_delta(stats_data *delta, const stats_data *cur,
							 const stats_data *last);

/*
 * Zero a stats_run sized for nscripts scripts and ncommands commands.
 * Returns false when out of memory.  stats_run_free releases the arrays.
 */
bool		stats_run_init(stats_run *sr, int nscripts, int ncommands);
void		stats_run_free(stats_run *sr);

/*
 * Give sr its latency histograms (HIST_ONE_HOUR_US top): the overall one,
 * and one per script when per_script.  false when out of memory (sr stays
 * freeable).  stats_run_free releases them.
 */
bool		stats_run_enable_hist(stats_run *sr, bool per_script);

/*
 * Give sr what the report files need: a list of aborted clients stamped
 * from *origin (aborts.h; NULL: a list that only receives merges), and
 * with per_command one latency histogram per command.  false when out of
 * memory (sr stays freeable).
 */
bool		stats_run_enable_report(stats_run *sr, const pg_time_usec_t *origin,
									bool per_command);

/*
 * Record one successful transaction's latency in the histograms sr keeps
 * (none: no-op).  Owner thread only.
 */
static inline void
stats_run_record_latency(stats_run *sr, int script_index, double latency_us)
{
	if (sr->latency_hist == NULL)
		return;
	hist_add_shared(sr->latency_hist, (int64_t) latency_us);
	if (sr->script_hist != NULL)
		hist_add(&sr->script_hist[script_index], (int64_t) latency_us);
}

/*
 * The end of a warm-up (--warmup): forget the transactions counted so
 * far.  The totals, the per-script and per-command figures, the -L late
 * count and every latency histogram are zeroed (the shared one with
 * hist_reset_shared); the connection time, the outages and the aborted
 * clients are kept: they are about the connections, not the transactions
 * measured.  Owner thread only.
 */
void		stats_run_reset_measured(stats_run *sr);

/*
 * Add sr into acc (same sizes).  Histograms are merged when both keep
 * them; sr's aborts and command histograms are merged into acc's, which
 * are made on the first merge (allocation; out of memory leaves them
 * out, or marks the aborts incomplete).  Not thread-safe: after the join.
 */
void		stats_run_merge(stats_run *acc, const stats_run *sr);

/* A worker's published totals and the end-of-run gate: stats_slot.h. */

#endif
