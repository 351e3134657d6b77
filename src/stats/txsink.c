/*
 * txsink.c — accounting one finished transaction in every target its
 * thread keeps: counters, histograms, the -l log, the -P snapshot, the
 * report files' series.
 */
#include "pgbench/stats/txsink.h"

/* The series' share of tx_sink_add: which point, which counter. */
static void
add_to_series(run_series *series, const txlog_txn *tx, pg_time_usec_t now, bool keep_lag)
{
	switch (tx->outcome)
	{
		case STATS_SUCCESS:
			series_add_success(series, now, tx->latency, keep_lag ? tx->lag : 0.0, tx->tries);
			break;
		case STATS_SKIPPED:
			series_add_skipped(series, now);
			break;
		case STATS_SERIALIZATION_FAILURE:
		case STATS_DEADLOCK_FAILURE:
		case STATS_OTHER_FAILURE:
		case STATS_CONNECTION_FAILURE:
			series_add_failure(series, now, tx->tries);
			break;
	}
}

void
tx_sink_add(tx_sink *sink, const txlog_txn *tx, pg_time_usec_t now)
{
	stats_run  *stats = sink->stats;

	stats_data_add(&stats->total, tx->outcome, tx->latency, tx->lag, tx->tries,
				   sink->keep_lag);
	if (sink->latency_limit > 0 && tx->latency > (double) sink->latency_limit)
		stats->latency_late++;
	if (tx->outcome == STATS_SUCCESS)
		stats_run_record_latency(stats, tx->script_no, tx->latency);
	if (sink->log != NULL)
		txlog_add(sink->log, tx, pgb_time_to_epoch(now), sink->sample_rs);	/* an error is kept in the log */
	if (sink->progress != NULL)
		stats_slot_publish(sink->progress, &stats->total);
	if (sink->per_script)
		stats_data_add(&stats->per_script[tx->script_no], tx->outcome, tx->latency,
					   tx->lag, tx->tries, sink->keep_lag);
	if (stats->series != NULL)
		add_to_series(stats->series, tx, now, sink->keep_lag);
}
