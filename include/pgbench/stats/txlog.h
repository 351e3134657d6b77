/*
 * txlog.h — the -l transaction logs: one file per worker thread, written
 * in exactly the formats of pgbench 15/16, through a large per-thread
 * buffer so the hot path never waits on the disk.  The buffer is written
 * out when full and by txlog_tick, which the thread calls once a second:
 * unlike pgbench's stdio buffer, the file follows the run (tail -f) and a
 * killed process loses at most the last second.
 *
 * File name: "<prefix>.<pid>" for thread 0, "<prefix>.<pid>.<tid>" for the
 * others; prefix "pgbench_log" unless --log-prefix.  Like pgbench, a name
 * longer than 1023 bytes is cut to 1023.
 *
 * Per-transaction line (no --aggregate-interval), fields separated by one
 * space:
 *
 *   client_id transaction_no time script_no time_epoch time_us [lag] [retries]
 *
 *   time      latency in us ("%.0f") for a successful transaction, else
 *             "skipped" (-R with -L), "failed", or with --failures-detailed
 *             "serialization" / "deadlock", and "other" with other_failures
 *             set (pgbench 19; such failures need --continue-on-error),
 *             "connection" with connection_failures set (--reconnect)
 *   time_epoch, time_us   seconds and microseconds of the logging moment
 *   lag       (only with -R) schedule lag in us ("%.0f"); 0 unless success
 *   retries   (only when --max-tries != 1) tries - 1 ("%u"); 0 if skipped
 *
 *   e.g. "0 1 4659 0 1795322804 71312"                  (plain)
 *        "0 18 969 0 1795322920 530067 591 0"         (-R, --max-tries=3)
 *        "0 17 deadlock 0 1795322920 529032 0 2"      (same, --failures-detailed)
 *
 * Aggregate line (--aggregate-interval=N): always 15 fields, whatever the
 * options (pgbench 15/16 print the groups that do not apply as zeros);
 * 16 with other_failures set (pgbench 19); one more, the last, with
 * connection_failures set (--reconnect, beyond pgbench):
 *
 *   interval_start num_transactions sum_latency sum_latency_2 min_latency
 *   max_latency sum_lag sum_lag_2 min_lag max_lag skipped retried retries
 *   serialization_failures deadlock_failures [other_failures]
 *   [connection_failures]
 *
 *   interval_start   epoch seconds; the first interval starts at the bench
 *                    start rounded down to the second, each next one N s
 *                    later (boundaries never drift)
 *   num_transactions successful transactions only
 *   sum/min/max latency and lag: "%.0f" of doubles, successful transactions
 *                    only (an interval without one shows 0 for min and max)
 *   lag group        zeros unless -R; skipped zeros unless -L;
 *                    retried/retries zeros when --max-tries = 1;
 *                    the failure counts zeros unless --failures-detailed
 *
 *   e.g. "1795322826 52 26321 44502005 96 3691 12361 16974239 69 3479 5 39 76 18 24"
 *
 * An interval is written when the first transaction after its end is
 * logged or at the first txlog_tick after its end (so idle intervals in
 * the middle of a run appear as lines of zeros) and at txlog_close.  Unlike pgbench, which drops it, close also
 * writes the last, partial interval when it counted anything.
 *
 * --sampling-rate=R: for every transaction one prng_double() is drawn from
 * the thread's sampling state and the transaction is dropped when the draw
 * is > R — the same draws as pgbench, so a fixed --random-seed logs the
 * same transactions.  No draw when sample_rate is 0 (option not given).
 *
 * Doubles print as pgbench's "%.0f": integral values within int64 go
 * through a hand-rolled integer formatter (the usual case: latencies are
 * whole microseconds); anything else falls back to snprintf; NaN and
 * infinities print "NaN", "Infinity", "-Infinity" as PostgreSQL's printf.
 *
 * Errors.  pgbench does not check its log writes; we do.  The first write
 * error (e.g. ENOSPC) is recorded; the call that hit it returns false,
 * later output is discarded, and txlog_close returns false too.  The
 * message, in pgbench style, comes from txlog_error_message:
 *     could not write to log file "pgbench_log.123": No space left on device
 *
 * Thread-safety: a txlog belongs to one worker thread; nothing is shared,
 * nothing locks.  Only txlog_open allocates (the buffer).
 */
#ifndef PGBENCH_TXLOG_H
#define PGBENCH_TXLOG_H

#include "pgbench/base/common.h"
#include "pgbench/script/random.h"
#include "pgbench/stats/stats.h"

/* Bytes buffered before a write(2); a line never straddles a flush. */
#define TXLOG_BUFFER_SIZE (64 * 1024)

/* Room kept for one line, doubles in their longest "%.0f" form included. */
#define TXLOG_LINE_MAX 4096

/* Path length limit, as pgbench's MAXPGPATH (names are cut, not refused). */
#define TXLOG_PATH_MAX 1024

/* What decides the file names and formats; the same for every thread. */
typedef struct txlog_config
{
	const char *prefix;			/* --log-prefix; NULL means "pgbench_log" */
	int			pid;			/* main process id, part of every name */
	int			agg_interval;	/* --aggregate-interval seconds; 0: per transaction */
	double		sample_rate;	/* --sampling-rate in (0, 1]; 0: log all, no draws */
	bool		throttled;		/* -R given: lag field / lag group */
	bool		latency_limit;	/* -L given: skipped count in aggregates */
	bool		retries;		/* --max-tries != 1: retries field / group */
	bool		failures_detailed;	/* --failures-detailed */
	bool		other_failures; /* pgbench 19 (compat >= 19): "other" in the
								 * time field under --failures-detailed, and
								 * a 16th aggregate field */
	bool		connection_failures;	/* --reconnect: "connection" in the
										 * time field under
										 * --failures-detailed, and a last
										 * aggregate field */
} txlog_config;

/* One finished (or skipped) transaction, as the engine knows it. */
typedef struct txlog_txn
{
	int			client_id;		/* st->id */
	int64_t		txn_no;			/* the client's count, this one included (1 first) */
	int			script_no;		/* index of the script it ran */
	stats_outcome outcome;		/* success, skipped or which failure */
	double		latency;		/* us, end - scheduled start; used on success only */
	double		lag;			/* us, start - scheduled start; on success under -R only */
	uint32_t	tries;			/* tries made, >= 1; ignored when skipped */
} txlog_txn;

/*
 * One thread's log.  Embed it (e.g. in the worker) zeroed; the fields are
 * private to txlog.c.
 */
typedef struct txlog
{
	bool		is_open;		/* between a successful open and close */
	int			fd;
	int			error;			/* first errno of a write or close; 0: none */
	char		path[TXLOG_PATH_MAX];
	char	   *buf;			/* TXLOG_BUFFER_SIZE + TXLOG_LINE_MAX bytes, owned */
	size_t		len;			/* bytes waiting in buf */
	txlog_config cfg;			/* prefix not kept (NULL after open) */

	/* the open aggregation interval; agg_started false until the first one */
	bool		agg_started;
	pg_time_usec_t agg_start;	/* epoch us, a whole second */
	stats_data	agg;			/* its counts, as the run's totals count
								 * (other_failures shows nowhere in the line) */
} txlog;

/*
 * Create (truncate) the log file of thread tid and allocate its buffer.
 * tl must be zeroed or closed.  On failure returns false with pgbench's
 * message in errbuf, which the caller prints as "pgbench: error: %s" and
 * then exits with status 1, as pgbench does:
 *     could not open logfile "/nonexistent/x.1234": No such file or directory
 * tl is then closed (txlog_close on it is a harmless no-op).
 */
bool		txlog_open(txlog *tl, const txlog_config *cfg, int tid,
					   char *errbuf, size_t errlen);

/*
 * Aggregation only: the moment the thread starts benchmarking (epoch us,
 * after the start barrier).  The first interval starts at that second.
 * When never called, the first logged transaction's time is used.
 */
void		txlog_begin(txlog *tl, pg_time_usec_t bench_start);

/*
 * Log one transaction at time now (epoch us, when it ended or was
 * skipped).  sample_rs is the thread's sampling state (may be NULL when
 * cfg.sample_rate is 0).  Per-transaction mode appends one line;
 * aggregate mode first writes every interval that ended at or before now,
 * then counts the transaction in the open interval.  Returns false only
 * from the call whose flush hit a write error (see the top of this file).
 */
bool		txlog_add(txlog *tl, const txlog_txn *tx, pg_time_usec_t now,
					  prng_state *sample_rs);

/*
 * The periodic flush, at time now (epoch us): in aggregate mode first
 * write every interval that ended at or before now, then write out what
 * the buffer holds (no syscall when it is empty).  Returns false only
 * from the call that hit a write error.  No-op on a log that is not open.
 */
bool		txlog_tick(txlog *tl, pg_time_usec_t now);

/*
 * Finish the log on any exit path (normal end or aborted run): in
 * aggregate mode write the intervals ended by now and the last partial
 * one (if it counted anything), flush, close the file, free the buffer.
 * Returns false, with the message of the first error in errbuf, when any
 * write or the close failed during the life of the log.  No-op returning
 * true on a log that is not open.
 */
bool		txlog_close(txlog *tl, pg_time_usec_t now, char *errbuf, size_t errlen);

/* A write error has been recorded. */
static inline bool
txlog_failed(const txlog *tl)
{
	return tl->error != 0;
}

/* The message of the recorded error ("" when none). */
void		txlog_error_message(const txlog *tl, char *errbuf, size_t errlen);

#endif
