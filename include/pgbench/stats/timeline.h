/*
 * timeline.h — the run over time: one record per interval, closed by the
 * ticker (report/ticker.h) on a schedule fixed once (origin + k * interval),
 * whether or not a transaction ended in it.  -P prints the last record
 * closed; the report files write all of them; --merge-reports adds the
 * records of several reports index by index.
 *
 * A record has a fixed size whatever the run does: the counters' growth
 * over the interval (the same stats_data delta a -P line is computed
 * from), the interval's latency percentiles and extremes read off the
 * workers' shared fine histograms (histogram.h) when the record was made,
 * a coarse latency histogram (TIMELINE_SUB_BITS: 8 buckets per power of
 * two, so a bucket is at most 1/8 of its lowest value wide) that merges
 * exactly with other records', and the client process's CPU and memory.
 *
 * Memory stays flat however long the run: records are kept in chunks of
 * TIMELINE_CHUNK, and every full chunk goes to an unlinked temporary file
 * ($TMPDIR, else /tmp).  When that file cannot be made or written, the
 * chunks stay in memory (timeline.in_memory says so) and nothing is lost.
 *
 * Thread-safety: none inside.  The ticker (one thread) appends; readers
 * come after it is done.
 */
#ifndef PGBENCH_TIMELINE_H
#define PGBENCH_TIMELINE_H

#include "pgbench/base/common.h"
#include "pgbench/stats/histogram.h"
#include "pgbench/stats/stats.h"

/* The coarse histogram's layout: histogram.h's with 3 sub-bucket bits. */
#define TIMELINE_SUB_BITS 3
/* hist_layout_index_of(HIST_ONE_HOUR_US, 3) + 1 (checked by the unit test) */
#define TIMELINE_NBUCKETS 238

/* The percentiles of each record: p50, p90, p99, p99.9. */
#define TIMELINE_PERCENTILES {50, 90, 99, 99.9}
#define TIMELINE_NPERCENTILES 4

/* Records per chunk: one chunk in memory while the ticker fills it. */
#define TIMELINE_CHUNK 64

typedef struct timeline_record
{
	pg_time_usec_t start_us;	/* the interval, us since the run's start */
	pg_time_usec_t end_us;
	int32_t		sources;		/* runs whose record this is (a merge adds
								 * them); 0: an interval no run reached */
	bool		has_client;		/* the client figures below were read */
	stats_data	delta;			/* counters and sums grown in the interval
								 * (min, max and counts of the stats_simple
								 * members are not kept: zero) */
	int64_t		latency_min_us; /* lowest and highest latency, to the */
	int64_t		latency_max_us; /* fine histogram's resolution; 0: none */
	double		latency_pct_us[TIMELINE_NPERCENTILES];	/* at TIMELINE_PERCENTILES;
														 * 0 when none */
	double		cpu_user_s;		/* client process CPU in the interval */
	double		cpu_system_s;
	double		busiest_thread_cpu;	/* the highest share of one CPU a
									 * worker thread used (1.0: all of it) */
	int64_t		rss_kb;			/* the client's resident memory at the end */
	uint32_t	buckets[TIMELINE_NBUCKETS];	/* coarse latency histogram of
											 * the successful transactions */
} timeline_record;

typedef struct timeline_chunk
{
	timeline_record *mem;		/* NULL: in the file, at its index's offset */
} timeline_chunk;

typedef struct timeline
{
	pg_time_usec_t interval;	/* us, > 0 */
	int			n;				/* records 0 .. n - 1 */
	int			nchunks;
	int			chunk_capacity;
	timeline_chunk *chunks;
	int			fd;				/* the spill file, when fd_open */
	bool		fd_open;
	bool		spill;			/* full chunks go to the file */
	bool		in_memory;		/* the file could not be made or written */
	bool		oom;			/* a record was lost: memory ran short */
} timeline;

/*
 * An empty timeline of intervals interval us long.  spill: full chunks
 * go to a temporary file (a run); false keeps them in memory (tests).
 */
void		timeline_init(timeline *tl, pg_time_usec_t interval, bool spill);

/* Release everything; a zeroed timeline may be freed too. */
void		timeline_free(timeline *tl);

/* Append a record.  false when memory ran short (tl->oom is set). */
bool		timeline_append(timeline *tl, const timeline_record *r);

/* Record i (0 .. n - 1) into *r.  false when it cannot be read back. */
bool		timeline_get(const timeline *tl, int i, timeline_record *r);

/*
 * Replace record i; i == n appends, i > n appends empty records first.
 * false when memory ran short or the file failed.
 */
bool		timeline_put(timeline *tl, int i, const timeline_record *r);

/* Coarse bucket of a latency (us, clamped into the layout). */
static inline int
timeline_bucket_of(int64_t us)
{
	int			i;

	if (us < 0)
		us = 0;
	if (us > HIST_ONE_HOUR_US)
		return TIMELINE_NBUCKETS - 1;
	i = hist_layout_index_of(us, TIMELINE_SUB_BITS);
	return i < TIMELINE_NBUCKETS ? i : TIMELINE_NBUCKETS - 1;
}

/*
 * Fill r's coarse buckets, extremes and percentiles from h, a fine
 * histogram of the interval's latencies alone (its min and max are taken
 * as bucket bounds).
 */
void		timeline_record_latencies(timeline_record *r, const hist *h);

/*
 * Add r into acc (same interval index): counters, sums, buckets, extremes,
 * client figures; the percentiles then come from the merged buckets.
 * false when a count would overflow (acc unchanged).
 */
bool		timeline_record_merge(timeline_record *acc, const timeline_record *r);

/*
 * The value at percentile p of r's coarse buckets (nearest rank, the
 * bucket's midpoint brought into [min, max], as hist_value_at_percentile);
 * 0 when empty.
 */
double		timeline_bucket_percentile(const timeline_record *r, double p);

/* Successful latencies counted in r's buckets. */
int64_t		timeline_bucket_count(const timeline_record *r);

#endif
