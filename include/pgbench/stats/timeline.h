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

/*
 * The server's cumulative counters the monitor reads (server/monitor.h),
 * declared once: X(id, group, key, unit).  A record keeps each one's
 * growth over its interval; the report files write them under their group
 * by key, and the documentation lists them from here (each one's source
 * is REPORT_SERVER_COUNTER_SOURCES, report/report_members.h: the build
 * fails without it).  group: the view
 * they come from ("database": pg_stat_database, "wal": pg_stat_wal,
 * "checkpointer": pg_stat_checkpointer or before 17 pg_stat_bgwriter,
 * "io": pg_stat_io totals); unit: "" for counts, "bytes" or "ms".
 */
#define TIMELINE_SERVER_COUNTERS(X) \
	X(SRV_XACT_COMMIT, "database", "xact_commit", "") \
	X(SRV_XACT_ROLLBACK, "database", "xact_rollback", "") \
	X(SRV_BLKS_READ, "database", "blks_read", "") \
	X(SRV_BLKS_HIT, "database", "blks_hit", "") \
	X(SRV_TUP_RETURNED, "database", "tup_returned", "") \
	X(SRV_TUP_FETCHED, "database", "tup_fetched", "") \
	X(SRV_TUP_INSERTED, "database", "tup_inserted", "") \
	X(SRV_TUP_UPDATED, "database", "tup_updated", "") \
	X(SRV_TUP_DELETED, "database", "tup_deleted", "") \
	X(SRV_TEMP_FILES, "database", "temp_files", "") \
	X(SRV_TEMP_BYTES, "database", "temp_bytes", "bytes") \
	X(SRV_DEADLOCKS, "database", "deadlocks", "") \
	X(SRV_CONFLICTS, "database", "conflicts", "") \
	X(SRV_WAL_RECORDS, "wal", "wal_records", "") \
	X(SRV_WAL_FPI, "wal", "wal_fpi", "") \
	X(SRV_WAL_BYTES, "wal", "wal_bytes", "bytes") \
	X(SRV_WAL_BUFFERS_FULL, "wal", "wal_buffers_full", "") \
	X(SRV_CKPT_TIMED, "checkpointer", "timed", "") \
	X(SRV_CKPT_REQUESTED, "checkpointer", "requested", "") \
	X(SRV_CKPT_DONE, "checkpointer", "done", "") \
	X(SRV_CKPT_WRITE_TIME, "checkpointer", "write_time", "ms") \
	X(SRV_CKPT_SYNC_TIME, "checkpointer", "sync_time", "ms") \
	X(SRV_CKPT_BUFFERS, "checkpointer", "buffers_written", "") \
	X(SRV_IO_READS, "io", "reads", "") \
	X(SRV_IO_WRITES, "io", "writes", "") \
	X(SRV_IO_EXTENDS, "io", "extends", "") \
	X(SRV_IO_HITS, "io", "hits", "") \
	X(SRV_IO_EVICTIONS, "io", "evictions", "") \
	X(SRV_IO_FSYNCS, "io", "fsyncs", "")

typedef enum timeline_server_counter
{
#define TIMELINE_COUNTER_ENUM(id, group, key, unit) id,
	TIMELINE_SERVER_COUNTERS(TIMELINE_COUNTER_ENUM)
#undef TIMELINE_COUNTER_ENUM
	SRV_NCOUNTERS
} timeline_server_counter;

/* One counter's place in the schema (timeline_server_counters). */
typedef struct timeline_counter_def
{
	const char *group;
	const char *key;
	const char *unit;
} timeline_counter_def;

/* The schema of the counters, indexed by timeline_server_counter. */
extern const timeline_counter_def timeline_server_counters[SRV_NCOUNTERS];

/* Wait events kept per interval (the most sampled; the rest are "other"). */
#define TIMELINE_NWAITS 12
#define TIMELINE_WAIT_NAME 64

/* "No such time" for the record's times that may be unknown. */
#define TIMELINE_NO_TIME INT64_MIN

typedef struct timeline_wait
{
	char		name[TIMELINE_WAIT_NAME];	/* "Lock:transactionid", "CPU" */
	int32_t		count;			/* backends seen in it, summed over samples */
} timeline_wait;

/*
 * The server's side of one interval (server/monitor.h): its counters'
 * growth, the run's backends' wait events, a checkpoint that ended, and,
 * when the server runs on this host, its processes' figures.
 */
typedef struct timeline_server
{
	bool		has_counters;	/* counter[] was read for this interval */
	uint64_t	present;		/* bit per counter the server has */
	double		counter[SRV_NCOUNTERS];	/* growth since the previous record
										 * with counters */
	pg_time_usec_t checkpoint_start_us;	/* a checkpoint that completed in
										 * the interval began then (us
										 * since the run's start; may be
										 * negative); TIMELINE_NO_TIME:
										 * none, or its start unknown */
	int32_t		wait_samples;	/* pg_stat_activity samples in the interval */
	int32_t		nwaits;
	timeline_wait waits[TIMELINE_NWAITS];	/* most sampled first */
	int32_t		waits_other;	/* backends seen in the events not kept */
	bool		has_proc;		/* the local server's processes were read */
	int32_t		nprocs;			/* its processes at the end */
	double		cpu_user_s;		/* their CPU in the interval */
	double		cpu_system_s;
	int64_t		read_bytes;		/* storage I/O in the interval; -1: unreadable */
	int64_t		write_bytes;
	int64_t		ctxsw_voluntary;	/* context switches of its live processes */
	int64_t		ctxsw_involuntary;
} timeline_server;

/* The client host over one interval, from /proc (host/hoststat.h). */
#define TIMELINE_HOST_CPU_STATES {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"}
#define TIMELINE_HOST_NCPU_STATES 8
typedef struct timeline_host
{
	bool		ok;				/* read */
	int32_t		ncpus;
	double		cpu_s[TIMELINE_HOST_NCPU_STATES];	/* CPU seconds of all CPUs in
													 * the interval, by state */
	int64_t		mem_total_kb;	/* at the end; -1: unknown */
	int64_t		mem_available_kb;
	int64_t		net_rx_bytes;	/* in the interval, every interface but lo;
								 * -1: unknown */
	int64_t		net_tx_bytes;
	int64_t		disk_read_bytes;	/* in the interval; -1: unknown */
	int64_t		disk_write_bytes;
} timeline_host;

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
	bool		staged;			/* --stages: stage_target is set */
	double		stage_target;	/* the plan's clients (or tps) at the end,
								 * summed over merged runs */
	uint32_t	buckets[TIMELINE_NBUCKETS];	/* coarse latency histogram of
											 * the successful transactions */
	timeline_server server;		/* --server-stats; zero when off */
	timeline_host host;			/* the client host; ok false when unread */
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
