/*
 * txsink.h — where a client's finished transactions and command timings
 * go: the statistics, latency histograms, -l log and -P snapshot (a
 * stats_slot, which the -P timer reads) of the thread that owns the
 * client.  It writes to stats and logs only, never to a printer.
 *
 * The thread fills a tx_sink with pointers to targets it owns and hands it
 * to its clients; a client writes through it and never calls up into the
 * thread.  Owner thread only: no lock, no allocation, no system call
 * except the log's buffered write.
 */
#ifndef PGBENCH_TXSINK_H
#define PGBENCH_TXSINK_H

#include "pgbench/script/random.h"
#include "pgbench/stats/aborts.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/stats_slot.h"
#include "pgbench/stats/txlog.h"

typedef struct tx_sink
{
	stats_run  *stats;			/* the thread's counts */
	txlog	   *log;			/* -l: the thread's log; NULL without */
	prng_state *sample_rs;		/* --sampling-rate draws for the log */
	stats_slot *progress;		/* -P: the thread's published totals; NULL without */
	bool		keep_lag;		/* -R: schedule lag is counted */
	int64_t		latency_limit;	/* -L in us; 0: none */
	bool		per_script;		/* several scripts: count each */
} tx_sink;

/*
 * Account one finished transaction (or one skipped -R slot) that ended at
 * now (pgb_time_now() clock): counters, per-script counters, the -L late
 * count, histograms, the log line and the progress snapshot.
 */
void		tx_sink_add(tx_sink *sink, const txlog_txn *tx, pg_time_usec_t now);

/*
 * Whether a transaction only counts here (no log, progress, histogram, -L
 * or per-script figures): then tx_sink_add_success, for a first-try
 * success whose latency was not taken, adds what tx_sink_add would.
 */
static inline bool
tx_sink_counts_only(const tx_sink *sink)
{
	return sink->log == NULL && sink->progress == NULL && !sink->per_script &&
		sink->latency_limit == 0 && sink->stats->latency_hist == NULL;
}

static inline void
tx_sink_add_success(tx_sink *sink)
{
	stats_data_add_untimed_success(&sink->stats->total);
}

/* Whether tx_sink_add reads its now (the log's time stamp): else pass 0. */
static inline bool
tx_sink_needs_time(const tx_sink *sink)
{
	return sink->log != NULL;
}

/*
 * -r: the latency of one command (flattened index) that completed, also
 * in its histogram when the report files keep them.
 */
static inline void
tx_sink_command_latency(tx_sink *sink, int flat, double latency_us)
{
	stats_simple_add(&sink->stats->per_command[flat].latency, latency_us);
	if (sink->stats->command_hist != NULL)
		hist_add(&sink->stats->command_hist[flat], (int64_t) latency_us);
}

/*
 * A client of the thread aborted with failure record f: kept for the
 * report files, when they are written (copied; not on the hot path).
 */
static inline void
tx_sink_abort(tx_sink *sink, const client_failure *f)
{
	if (sink->stats->aborts != NULL)
		run_aborts_add(sink->stats->aborts, f, pgb_time_now());
}

/* -r: a retry, or a final failure, started from command flat. */
static inline void
tx_sink_command_retry(tx_sink *sink, int flat)
{
	sink->stats->per_command[flat].retries++;
}

static inline void
tx_sink_command_failure(tx_sink *sink, int flat)
{
	sink->stats->per_command[flat].failures++;
}

/* Time spent connecting (or disconnecting under -C), us. */
static inline void
tx_sink_connect_time(tx_sink *sink, pg_time_usec_t us)
{
	sink->stats->conn_duration += us;
}

#endif
