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

#include "pgbench/common.h"
#include "pgbench/histogram.h"

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
} stats_outcome;

/*
 * Transaction counters.  The invariants, as in pgbench:
 *   all transactions  = skipped + cnt + failures
 *   failures          = serialization_failures + deadlock_failures
 *                       + other_failures
 *   retried          <= cnt + failures (transactions needing > 1 try)
 *   retries           = sum over retried transactions of (tries - 1)
 * latency and lag hold successful transactions only (lag under -R only).
 */
typedef struct stats_data
{
	int64_t		cnt;			/* successful transactions */
	int64_t		skipped;		/* skipped under -R with -L */
	int64_t		retries;		/* retries over all transactions */
	int64_t		retried;		/* transactions retried at least once */
	int64_t		serialization_failures;
	int64_t		deadlock_failures;
	int64_t		other_failures;
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
	int			nscripts;
	stats_data *per_script;
	int			ncommands;
	stats_command *per_command;
	hist	   *latency_hist;	/* all scripts; NULL unless enabled */
	hist	   *script_hist;	/* one per script; NULL unless enabled per script */
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
void		stats_data_add(stats_data *sd, stats_outcome outcome, double latency,
						   double lag, uint32_t tries, bool keep_lag);

/* Add every counter and summary of sd into acc.  Not thread-safe: after the join. */
void		stats_data_merge(stats_data *acc, const stats_data *sd);

/* Failed transactions of all kinds. */
static inline int64_t
stats_data_failures(const stats_data *sd)
{
	return sd->serialization_failures + sd->deadlock_failures + sd->other_failures;
}

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
 * Add sr into acc (same sizes).  Histograms are merged when both keep
 * them.  Not thread-safe: after the join.
 */
void		stats_run_merge(stats_run *acc, const stats_run *sr);

#endif
