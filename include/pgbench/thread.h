/*
 * thread.h — benchmark worker threads: the read-only run context they
 * share, the state each one owns, and the per-thread event loop.
 *
 * A worker runs its clients' state machines from one loop with one wait per
 * pass (waitset.h) over their sockets and timers: \sleep ends, the -R
 * schedule and the -T deadline.  Two barriers line the threads up like
 * pgbench's: READY (all threads exist, then each opens its clients'
 * connections, all at once and without blocking) and GO (every connection
 * is up; each thread records when it starts benchmarking).
 *
 * Sharing: the run_context is written before the threads start and only
 * read afterwards, except its two atomic flags and the count of running
 * workers (under done_lock).  Everything in a worker is written by its own
 * thread only; the orchestrator reads it after joining, and the progress
 * timer reads only the worker's progress slot and latency histogram
 * counters, both made for concurrent reads (progress.h, histogram.h).
 */
#ifndef PGBENCH_THREAD_H
#define PGBENCH_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "pgbench/conn.h"
#include "pgbench/options.h"
#include "pgbench/progress.h"
#include "pgbench/random.h"
#include "pgbench/retry.h"
#include "pgbench/script.h"
#include "pgbench/stats.h"
#include "pgbench/txlog.h"
#include "pgbench/waitset.h"

struct client;

/* What every thread and client of a run reads; fixed before threads start. */
typedef struct run_context
{
	const pgb_options *opts;
	const script_set *scripts;
	conn_params params;			/* libpq keywords for every connection */
	int			nclients;		/* -c */
	int			nthreads;		/* -j, at most nclients */

	/* flattened command index of each script's first command */
	int			script_offset[PGB_MAX_SCRIPTS];
	int			total_commands; /* over all scripts */
	char	  **prepared_names; /* per flattened command: "P_n" or NULL */

	double		throttle_delay; /* mean usec between one thread's starts; 0: -R off */
	int64_t		latency_limit;	/* -L in usec; 0: none */
	pg_time_usec_t end_time;	/* -T deadline; 0: none */
	retry_policy retry;			/* --max-tries, -L, --verbose-errors */
	bool		detailed;		/* measure each transaction's latency */
	bool		per_script_stats;	/* several scripts: report each */
	bool		per_command;	/* -r */
	bool		debug;			/* -d: trace on stderr */
	bool		keep_hist;		/* --percentiles or --report-json: histograms */
	bool		publish_progress;	/* -P: workers publish progress slots */
	bool		after_transaction;	/* -l, -P or histograms: call
									 * worker_after_transaction */
	txlog_config log_cfg;		/* -l: names and formats of the logs */

	pthread_barrier_t barrier;	/* READY and GO */
	atomic_bool setup_failed;	/* a thread could not connect a client */
	atomic_bool stop;			/* --exit-on-abort fired: every thread stops */
	int			stop_fd;		/* eventfd made readable with stop; -1 if unused */

	/* the progress timer sleeps on done_cond until workers_running is 0 */
	pthread_mutex_t done_lock;
	pthread_cond_t done_cond;
	int			workers_running;	/* started and not yet at their end */
} run_context;

/* One worker thread and everything it owns. */
typedef struct worker
{
	/* aligned so that neighbouring workers never share a cache line */
	_Alignas(64) int tid;		/* 0 names the log without a suffix */
	pthread_t	handle;
	run_context *ctx;
	struct client *clients;		/* this thread's slice of the client array */
	int			nclients;

	/* independent random streams, seeded in pgbench's order */
	prng_state	choose_rs;		/* weighted script choice */
	prng_state	throttle_rs;	/* Poisson schedule under -R */
	prng_state	sample_rs;		/* --sampling-rate (logs) */

	pg_time_usec_t throttle_trigger;	/* last scheduled start under -R */
	bool		timer_exceeded; /* -T deadline passed, seen by this thread */

	pg_time_usec_t create_time; /* when the thread was started */
	pg_time_usec_t bench_start; /* after GO: benchmarking starts */
	stats_run	stats;			/* this thread's counts; merged after join */
	progress_slot progress;		/* -P: totals published for the timer */
	txlog		log;			/* -l: opened by the orchestrator, closed here */
	char		log_error[TXLOG_PATH_MAX + 128];	/* a log write error; "" if none */

	waitset    *ws;				/* sized for its clients plus the stop fd */
} worker;

/*
 * Allocate the worker's own resources (waitset, stats).  false when out of
 * memory.  worker_cleanup releases them (connections are closed by the
 * loop itself).
 */
bool		worker_prepare(worker *w);
void		worker_cleanup(worker *w);

/*
 * The thread body: barriers, connections, then the event loop until every
 * client is finished or aborted; then the log is closed (a write error
 * kept in log_error) and workers_running decremented.  arg is a worker.
 * On a failed initial connection it prints pgbench's messages (once per
 * run) and sets ctx->setup_failed.
 */
void	   *worker_main(void *arg);

/*
 * What a transaction that was just accounted in w->stats (or a skipped
 * slot) feeds besides the counters, when ctx->after_transaction: the
 * latency histograms, the -l log and the -P slot.  now is the time of its
 * end (epoch us).  Owner thread only; no lock, no allocation.
 */
void		worker_after_transaction(worker *w, const txlog_txn *tx, pg_time_usec_t now);

#endif
