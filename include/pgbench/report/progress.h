/*
 * progress.h — the -P progress line, which the ticker (ticker.h) prints
 * on stderr every N seconds from the interval's record:
 *
 *   progress: 5.0 s, 1234.5 tps, lat 0.808 ms stddev 0.123, 0 failed
 *
 * followed, as pgbench adds them, by ", lag L ms" (-R), ", N skipped" (-R
 * with -L) and ", N retried, N retries" (--max-tries other than 1); with
 * --progress-timestamp the time is the epoch ("progress: 1690000000.123 s").
 * Our --percentiles appends ", p50/p90/p99 A/B/C ms" (latency percentiles
 * of the interval; see doc/report.md).
 *
 * This unit only formats.
 */
#ifndef PGBENCH_PROGRESS_H
#define PGBENCH_PROGRESS_H

#include <stddef.h>

#include "pgbench/base/common.h"
#include "pgbench/report/figures.h"
#include "pgbench/stats/histogram.h"
#include "pgbench/config/runconf.h"
#include "pgbench/stats/stats.h"

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

#endif
