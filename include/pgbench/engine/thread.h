/*
 * thread.h — benchmark worker threads: what they share, the state each one
 * owns, and the per-thread event loop.
 *
 * A worker runs its clients' state machines from one loop with one wait per
 * pass (waitset.h) over their sockets and timers: \sleep ends, the -R
 * schedule and the -T deadline.  Two barriers line the threads up like
 * pgbench's: READY (all threads exist, then each opens its clients'
 * connections, all at once and without blocking) and GO (every connection
 * is up; each thread records when it starts benchmarking).
 *
 * Calls go down only: the thread advances its clients (client.h), lends
 * them its statistics, log and progress slot through a sink (txsink.h),
 * and reports a client's failure record when the client stops.  The loop's
 * bookkeeping (which client waits for what) is the thread's own.
 *
 * Sharing: the run_config is read-only.  run_shared holds the only state
 * threads share: the barriers, two atomic flags, the stop eventfd and the
 * progress gate.  Everything in a worker is written by its own thread
 * only; the orchestrator reads it after joining, and the progress timer
 * reads only the worker's published slot and latency histogram counters,
 * both made for concurrent reads (stats.h, histogram.h).
 */
#ifndef PGBENCH_THREAD_H
#define PGBENCH_THREAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "pgbench/config/runconf.h"
#include "pgbench/engine/client.h"
#include "pgbench/engine/waitset.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/stats_slot.h"
#include "pgbench/stats/txlog.h"

/* What the threads of one run share; set up by the orchestrator. */
typedef struct run_shared
{
	pthread_barrier_t barrier;	/* READY and GO */
	atomic_bool setup_failed;	/* a thread could not connect a client */
	atomic_bool stop;			/* --exit-on-abort fired, or a signal came
								 * (interrupt.h): every thread stops */
	atomic_bool abort_stop;		/* the stop came from --exit-on-abort */
	int			stop_fd;		/* eventfd made readable with stop; -1 if unused */
	pg_time_usec_t origin;		/* the run's start, as -P counts from it; the
								 * logs flush on its whole seconds */
	pg_time_usec_t end_time;	/* -T deadline; 0: none; set before threads start */
	_Atomic pg_time_usec_t cancel_by;	/* after a signal, when every thread
										 * stops waiting for its cancel
										 * requests; 0 (as zeroed): not yet
										 * fixed, the first to cancel does */

	/*
	 * The launch gate every worker passes before READY, opened once every
	 * thread exists, so that a failed pthread_create can call the run off
	 * without a barrier that never fills.
	 */
	pthread_mutex_t launch_lock;
	pthread_cond_t launch_cond;
	int			launch;			/* under launch_lock: 0 wait, 1 go, -1 the run is off */

	stats_gate *gate;			/* -P: each worker leaves it when done; else NULL */
	struct rendezvous *rendezvous;	/* --rendezvous: every worker passes it
									 * after GO; else NULL */
} run_shared;

/* The loop's view of one client, refreshed only after the client ran. */
typedef struct loop_entry
{
	int			ws_index;		/* the client's entry in the waitset */
	client_wait_kind wait_kind; /* as client_wait said after the last run */
	int			wait_fd;		/* socket in the entry; -1: none */
	waitset_event wait_event;	/* direction in the entry */
	pg_time_usec_t wake_at;		/* CWAIT_TIMER: when it is due */
} loop_entry;

/* One worker thread and everything it owns. */
typedef struct worker
{
	/* aligned so that neighbouring workers never share a cache line */
	_Alignas(64) int tid;		/* 0 names the log without a suffix */
	pthread_t	handle;
	const run_config *cfg;
	run_shared *shared;
	client	   *clients;		/* this thread's slice of the client array */
	int			nclients;

	/*
	 * What the clients borrow: the random streams for script choice and
	 * the -R schedule (seeded in pgbench's order with sample_rs), the -T
	 * state, the sink and the failure record.
	 */
	client_env	env;
	prng_state	sample_rs;		/* --sampling-rate (logs) */

	pg_time_usec_t create_time; /* when the thread was started */
	pg_time_usec_t bench_start; /* after GO: benchmarking starts */
	pg_time_usec_t bench_end;	/* its clients are done (or stopped) */
	pg_time_usec_t warm_end;	/* --warmup: when its counts are forgotten;
								 * INT64_MAX: no warm-up, or it is over */
	pg_time_usec_t measure_start;	/* what its figures count from */
	pg_time_usec_t stage_due;	/* --stages: when to look at the plan again;
								 * INT64_MAX: no stages */
	pg_time_usec_t due_at;		/* the earliest of log_flush_at, warm_end and
								 * stage_due: a pass compares only this */
	double		bench_busy_s;	/* the thread's time on a CPU or waiting for
								 * one between the two; -1: unknown */
	stats_run	stats;			/* this thread's counts; merged after join */
	stats_slot	progress;		/* -P: totals published for the timer */
	txlog		log;			/* -l: opened by the orchestrator, closed here */
	pg_time_usec_t log_flush_at;	/* the log's next flush; INT64_MAX: no log */
	char		log_error[TXLOG_PATH_MAX + 128];	/* a log write error; "" if none */

	waitset    *ws;				/* sized for its clients plus the stop fd */
	loop_entry *entries;		/* one per client */
} worker;

/*
 * Allocate the worker's own resources (waitset, stats, loop entries) and
 * lend its clients the sink.  false when out of memory (what was made is
 * released by worker_cleanup, which also closes a log the thread never
 * got to close; connections are closed by the loop itself).
 */
bool		worker_prepare(worker *w);
void		worker_cleanup(worker *w);

/*
 * The thread body: barriers, connections, then the event loop until every
 * client is finished or aborted, or the run stops; after a signal the
 * statements in flight are cancelled; then the log is closed (a write
 * error kept in log_error) and the progress gate left.  arg is a worker.
 * On a failed initial connection it prints pgbench's messages (once per
 * run) and sets shared->setup_failed.
 */
void	   *worker_main(void *arg);

/* What a worker's run came to (src/engine/thread_summary.c). */
typedef struct worker_summary
{
	int			nclients;		/* the worker's clients */
	int			finished;		/* ran to their end (-t reached, -T over) */
	int			aborted;		/* stopped by an error, their failure printed;
								 * the rest were stopped by a signal */
	const stats_run *stats;		/* the worker's counts, to merge */
	pg_time_usec_t bench_start; /* when it started benchmarking, after GO */
	pg_time_usec_t measure_start;	/* when its figures begin: bench_start, or
									 * the end of a warm-up */
	double		busy_share;		/* its time on a CPU or waiting for one, over
								 * its benchmarking time (1.0: it never
								 * waited for the server); -1: unknown */
} worker_summary;

/*
 * The summary of w's run.  After the join only (it reads the clients'
 * states, which the worker writes while it runs); the orchestrator asks
 * this instead of reading the clients.
 */
worker_summary worker_summarize(const worker *w);

#endif
