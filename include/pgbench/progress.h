/*
 * progress.h — the -P progress reports: the snapshot of its running totals
 * that each worker publishes, and the timer, run by the main thread, that
 * sums the snapshots every N seconds and prints pgbench's line on stderr:
 *
 *   progress: 5.0 s, 1234.5 tps, lat 0.808 ms stddev 0.123, 0 failed
 *
 * followed, as pgbench adds them, by ", lag L ms" (-R), ", N skipped" (-R
 * with -L) and ", N retried, N retries" (--max-tries other than 1); with
 * --progress-timestamp the time is the epoch ("progress: 1690000000.123 s").
 * Our --percentiles appends ", p50/p90/p99 A/B/C ms" (latency percentiles
 * of the interval; see doc/report.md).
 *
 * Sharing.  A slot is a seqlock: its owner (one worker) is the only writer
 * and never waits; a reader retries while a write is under way, so it
 * always sums totals of whole transactions.  Every field is an atomic
 * accessed with relaxed ordering plus the two fences of the seqlock: no
 * lock, no read-modify-write, and no data race for the compiler or TSan.
 * The timer waits on an absolute schedule (origin + k * N) and does not
 * depend on any worker being on time.
 */
#ifndef PGBENCH_PROGRESS_H
#define PGBENCH_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>

#include "pgbench/common.h"
#include "pgbench/stats.h"

/* One worker's published totals (the subset of stats_data -P shows). */
typedef struct progress_slot
{
	_Alignas(64) atomic_uint seq;	/* odd while the owner is writing */
	_Atomic int64_t cnt;
	_Atomic int64_t skipped;
	_Atomic int64_t retried;
	_Atomic int64_t retries;
	_Atomic int64_t serialization_failures;
	_Atomic int64_t deadlock_failures;
	_Atomic int64_t other_failures;
	_Atomic double latency_sum;
	_Atomic double latency_sum2;
	_Atomic double lag_sum;
} progress_slot;

/* Zero a slot before its worker starts. */
void		progress_slot_init(progress_slot *slot);

/* Publish the owner's current totals.  Owner thread only; never blocks. */
void		progress_publish(progress_slot *slot, const stats_data *total);

/*
 * Add a consistent copy of the slot's totals into acc (counts, sums of
 * latency, latency squared and lag; min and max are not published).  Any
 * thread.
 */
void		progress_collect(progress_slot *slot, stats_data *acc);

/* What decides the shape of a progress line; fixed for a run. */
typedef struct progress_format
{
	bool		timestamp;		/* --progress-timestamp */
	bool		throttled;		/* -R: lag part */
	bool		latency_limit;	/* -L (with -R): skipped part */
	bool		retries;		/* --max-tries != 1: retried part */
	int			npercentiles;	/* --percentiles; 0: none */
	const double *percentiles;
} progress_format;

/*
 * Format one progress line (with its newline) into buf from the totals at
 * this report (cur) and at the previous one (last).  run_us is the time
 * since the previous report; when is the seconds shown (since the start,
 * or the epoch with timestamp).  pct_us holds the interval's latency
 * percentiles in us (npercentiles values) or is NULL.  Returns the length
 * (truncated to len - 1 like snprintf).
 */
size_t		progress_format_line(char *buf, size_t len, const progress_format *fmt,
								 const stats_data *cur, const stats_data *last,
								 pg_time_usec_t run_us, double when,
								 const int64_t *pct_us);

struct run_config;
struct run_shared;
struct worker;

/*
 * The timer: from origin, every ctx->opts->progress_sec seconds, sum the
 * workers' slots (and, for --percentiles, their latency histograms) and
 * print a line on stderr, until no worker runs any more (see
 * run_context.workers_running).  Run by the main thread while the workers
 * run.
 */
void		progress_run(const struct run_config *cfg, struct run_shared *sh,
						 struct worker *workers, pg_time_usec_t origin);

#endif
