/*
 * series.h — what a run records over time for --report-json and
 * --report-html: per interval of the run (the -P interval, or 1 s), the
 * transactions that ended in it (counts, latency sum and histogram,
 * schedule lag), and the failure record of every client that aborted.
 *
 * Intervals are numbered from the run's start (the moment -P counts from,
 * the same for every thread), so the series of several threads merge
 * exactly, point by point.  A point's latency histogram uses the layout
 * of histogram.h; closed points keep only their non-empty buckets.
 *
 * Hot path: series_add_* is one comparison with the end of the open
 * interval and a few additions; when the interval is over (at most once
 * per interval) series_roll closes it: the open histogram is copied out
 * sparsely (an allocation) and cleared.  A failed allocation never
 * stops the run: the points of the interval stay counted but lose their
 * histogram, and the series is marked incomplete (oom).
 *
 * Thread-safety: none inside.  A run_series belongs to one worker thread,
 * its only writer; series_merge runs after the join.
 */
#ifndef PGBENCH_SERIES_H
#define PGBENCH_SERIES_H

#include "pgbench/base/common.h"
#include "pgbench/failure/failure.h"
#include "pgbench/stats/histogram.h"

/* What ended in one interval.  Times in microseconds. */
typedef struct series_point
{
	int64_t		processed;		/* successful transactions */
	int64_t		failures;		/* failed for good, every kind */
	int64_t		retries;		/* retries of the transactions that ended */
	int64_t		skipped;		/* -R -L: never started */
	double		latency_sum;	/* of the successful ones */
	int64_t		latency_min;	/* exact extremes (whole us); 0 when none */
	int64_t		latency_max;
	double		lag_sum;		/* -R: schedule lag of the successful ones */
	double		lag_max;
	int			nbuckets;		/* closed points: entries in buckets */
	hist_bucket *buckets;		/* closed points: the latency histogram's
								 * non-empty buckets, ascending; owned */
} series_point;

/* A client that aborted: when, and its failure record. */
typedef struct series_abort
{
	pg_time_usec_t at;			/* us since the run's start */
	client_failure failure;
} series_abort;

typedef struct run_series
{
	pg_time_usec_t interval;	/* us, > 0 */
	const pg_time_usec_t *origin;	/* the run's start; set by the orchestrator
									 * before the threads start; NULL in a
									 * merged series */
	pg_time_usec_t next_at;		/* end of the open interval; 0 before the first */
	int			current;		/* index of the open point; -1 none */
	int			npoints;		/* points[0 .. npoints): closed + open */
	int			capacity;
	series_point *points;
	hist		open_hist;		/* latencies of the open point */
	int			naborts;
	int			abort_capacity;
	series_abort *aborts;
	bool		oom;			/* an allocation failed: something is missing */
} run_series;

/*
 * Prepare an empty series of intervals interval us long, counted from
 * *origin (read at the first transaction; NULL for a series that only
 * receives merges).  false when out of memory (s stays freeable).
 */
bool		series_init(run_series *s, pg_time_usec_t interval, const pg_time_usec_t *origin);
void		series_free(run_series *s);

/* Close the open interval and open the one holding now.  Out of line. */
void		series_roll(run_series *s, pg_time_usec_t now);

/* The point of the interval holding now (opening it if needed). */
static inline series_point *
series_point_at(run_series *s, pg_time_usec_t now)
{
	if (PGB_UNLIKELY(now >= s->next_at))
		series_roll(s, now);
	return &s->points[s->current];
}

/* A successful transaction that ended at now (pgb_time_now() clock). */
static inline void
series_add_success(run_series *s, pg_time_usec_t now, double latency, double lag,
				   uint32_t tries)
{
	series_point *p = series_point_at(s, now);
	int64_t		us = latency < 0 ? 0 : (int64_t) latency;

	p->processed++;
	p->retries += tries - 1;
	p->latency_sum += latency;
	if (s->open_hist.count == 0 || us < p->latency_min)
		p->latency_min = us;
	if (s->open_hist.count == 0 || us > p->latency_max)
		p->latency_max = us;
	hist_add(&s->open_hist, us);
	p->lag_sum += lag;
	if (lag > p->lag_max)
		p->lag_max = lag;
}

/* A transaction that failed for good after tries tries. */
static inline void
series_add_failure(run_series *s, pg_time_usec_t now, uint32_t tries)
{
	series_point *p = series_point_at(s, now);

	p->failures++;
	p->retries += tries - 1;
}

/* A -R slot skipped under -L. */
static inline void
series_add_skipped(run_series *s, pg_time_usec_t now)
{
	series_point_at(s, now)->skipped++;
}

/*
 * Keep a copy of an aborted client's failure record, stamped now.  Not
 * on the hot path (allocates); a failed allocation only sets oom.
 */
void		series_add_abort(run_series *s, const client_failure *f, pg_time_usec_t now);

/*
 * Add sr's points (its open one included) into acc by index, and its
 * aborts.  acc must have sr's interval and no open point (a series made
 * with a NULL origin).  Exact: a merged point's histogram is that of the
 * union.  Allocates; on failure acc->oom is set.  After the join.
 */
void		series_merge(run_series *acc, const run_series *sr);

#endif
