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
 *
 * This unit knows nothing of threads or workers: the timer reads what
 * each worker shares through a progress_source, and learns that the run
 * is over through a progress_gate that every worker leaves when done.
 */
#ifndef PGBENCH_PROGRESS_H
#define PGBENCH_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "pgbench/common.h"
#include "pgbench/figures.h"
#include "pgbench/histogram.h"
#include "pgbench/runconf.h"
#include "pgbench/stats.h"

/*
 * One worker's published totals: every counter of STATS_COUNTERS and
 * every sum of STATS_SUMS (stats.h), the subset of stats_data -P shows.
 */
typedef struct progress_slot
{
	_Alignas(64) atomic_uint seq;	/* odd while the owner is writing */
#define PROGRESS_COUNTER_FIELD(field, json_name, kind) _Atomic int64_t field;
	STATS_COUNTERS(PROGRESS_COUNTER_FIELD)
#undef PROGRESS_COUNTER_FIELD
/* a member name cannot be parenthesized */
#define PROGRESS_SUM_FIELD(name, member) _Atomic double name;	/* NOLINT(bugprone-macro-parentheses) */
	STATS_SUMS(PROGRESS_SUM_FIELD)
#undef PROGRESS_SUM_FIELD
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

/* The line's shape for a run of cfg. */
progress_format progress_format_of(const run_config *cfg);

/*
 * Format one progress line (with its newline) into buf from the figures
 * of the interval since the previous report (figures_interval; the
 * percentile part only when fmt asks for it and iv has them).  when is
 * the seconds shown (since the start, or the epoch with timestamp).
 * Returns the length (truncated to len - 1 like snprintf).
 */
size_t		progress_format_line(char *buf, size_t len, const progress_format *fmt,
								 const interval_figures *iv, double when);

/*
 * What the timer reads of one worker while it runs: its slot, and its
 * overall latency histogram (written with hist_add_shared) or NULL when
 * it keeps none.  Both stay valid until progress_run returns.
 */
typedef struct progress_source
{
	progress_slot *slot;
	const hist *latency_hist;
} progress_source;

/*
 * The end of the run, as the timer waits for it: the count of workers
 * still running, under a mutex, with a condition variable whose timed
 * waits use pgb_time_now's clock (CLOCK_MONOTONIC).
 */
typedef struct progress_gate
{
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int			running;		/* workers not yet done; under lock */
} progress_gate;

/*
 * Set up gate for nworkers workers.  Returns false when the mutex or the
 * condition variable cannot be made (then nothing needs destroying).
 * Main thread, before the workers start.
 */
bool		progress_gate_init(progress_gate *gate, int nworkers);

/*
 * A worker is done (after its last publish and its log): one fewer runs,
 * and the timer wakes up.  Each worker calls it exactly once; any thread.
 */
void		progress_gate_leave(progress_gate *gate);

/* Release the gate's mutex and condition variable, after the joins. */
void		progress_gate_destroy(progress_gate *gate);

/*
 * The timer: from origin, every cfg->progress_sec seconds, sum the
 * sources' slots (and, for --percentiles, their histograms' counters,
 * when the sources keep histograms) and print a line on stderr, until no
 * worker runs any more (gate).  Run by the main thread while the workers
 * run.
 */
void		progress_run(const run_config *cfg, const progress_source *sources,
						 int nsources, progress_gate *gate, pg_time_usec_t origin);

#endif
