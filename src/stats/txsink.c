/*
 * txsink.c — accounting one finished transaction in every target its
 * thread keeps: counters, histograms, the -l log, and the snapshot the
 * ticker (-P, the report files' timeline) reads.
 */
#include "pgbench/stats/stats_slot.h"
#include "pgbench/stats/txsink.h"

void
tx_sink_add(tx_sink *sink, const txlog_txn *tx, pg_time_usec_t now)
{
	stats_run  *stats = sink->stats;

	/* the totals and the histogram change together for the ticker */
	if (sink->progress != NULL)
		stats_slot_write_begin(sink->progress);
	stats_data_add(&stats->total, tx->outcome, tx->latency, tx->lag, tx->tries,
				   sink->keep_lag);
	if (sink->latency_limit > 0 && tx->latency > (double) sink->latency_limit)
		stats->latency_late++;
	if (tx->outcome == STATS_SUCCESS)
		stats_run_record_latency(stats, tx->script_no, tx->latency);
	if (sink->progress != NULL)
		stats_slot_write_end(sink->progress, &stats->total);
	if (sink->log != NULL)
		txlog_add(sink->log, tx, pgb_time_to_epoch(now), sink->sample_rs);	/* an error is kept in the log */
	if (sink->per_script)
		stats_data_add(&stats->per_script[tx->script_no], tx->outcome, tx->latency,
					   tx->lag, tx->tries, sink->keep_lag);
}
