/*
 * ticker.h — the run's clock: run by the main thread while the workers
 * run, whenever -P or a report file asks for it (runconf_tick_interval).
 * On an absolute schedule (origin + k * period, fixed once; a late wake-up
 * stays on the grid) it sums the totals each worker publishes
 * (stats_slot.h) and their shared latency histograms, closes one
 * timeline record (timeline.h) for the interval since the last tick,
 * whether or not a transaction ended in it, and under -P prints pgbench's
 * progress line from that same record.  When the last worker is done it
 * closes a final record, from the last tick to the end, that no line
 * shows: the records then add up to the run's totals.
 *
 * It only reads: the engine publishes through stats and never calls it.
 * It knows nothing of threads' work, only what each worker shares
 * through a ticker_source, and it learns that the run is over through a
 * stats_gate that every worker leaves when done.
 */
#ifndef PGBENCH_TICKER_H
#define PGBENCH_TICKER_H

#include <pthread.h>

#include "pgbench/base/common.h"
#include "pgbench/config/runconf.h"
#include "pgbench/report/metrics.h"
#include "pgbench/server/monitor.h"
#include "pgbench/stats/histogram.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/stats_slot.h"
#include "pgbench/stats/timeline.h"

/*
 * What the ticker reads of one worker while it runs: its published totals
 * (stats_slot.h), its overall latency histogram (written with
 * hist_add_shared) or NULL when it keeps none, and its thread (for its
 * CPU time).  All stay valid until ticker_run returns.
 */
typedef struct ticker_source
{
	stats_slot *slot;
	const hist *latency_hist;
	pthread_t	thread;
} ticker_source;

/*
 * Tick from origin every runconf_tick_interval(cfg) us until no worker
 * runs any more (gate): under -P print each interval's line on stderr,
 * and with tl (NULL: none) append each interval's record to it, with the
 * client host's figures, and with mon (NULL: none) the server's (its
 * queries are served between ticks: a record waits for its interval's
 * counters until they come or the next tick).  The last record waits at
 * most MONITOR_WAIT_US for them.  With metrics (NULL: none), each record
 * also goes onto its page, and its connections are served between ticks.
 */
void		ticker_run(const run_config *cfg, const ticker_source *sources, int nsources,
					   stats_gate *gate, pg_time_usec_t origin, timeline *tl,
					   server_monitor *mon, metrics_server *metrics);

#endif
