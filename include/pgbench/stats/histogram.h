/*
 * histogram.h — a log-linear latency histogram (in the spirit of
 * HdrHistogram): integer microseconds, bounded relative error, fixed
 * memory, O(1) add, mergeable, percentile queries.
 *
 * Layout.  Values 0 .. 255 each have their own bucket (exact).  Above that,
 * every power of two [2^e, 2^(e+1)) is cut into HIST_SUB_COUNT (128) equal
 * buckets of width 2^(e-7).  A bucket's width is therefore at most 1/128 of
 * its lowest value, and its midpoint is within 1/256 (0.39%) of any value
 * it holds.  The index of a value is one clz, one subtraction, one shift:
 *
 *     shift = max(0, floor(log2 v) - 7)
 *     index = shift * 128 + (v >> shift)
 *
 * Memory is one int64 counter per bucket up to the bucket of the highest
 * trackable value, allocated by hist_init and never again: for one hour
 * (3.6e9 us) that is 3287 buckets, 26 KiB.
 *
 * Thread-safety: none inside.  One histogram belongs to one thread, which
 * is its only writer; merge after joining the threads (or from a snapshot
 * the owner published, e.g. a copy made with hist_merge into a reset
 * histogram).
 */
#ifndef PGBENCH_HISTOGRAM_H
#define PGBENCH_HISTOGRAM_H

#include "pgbench/base/common.h"

/* log2 of the number of linear sub-buckets per power of two */
#define HIST_SUB_BITS 7
#define HIST_SUB_COUNT (1 << HIST_SUB_BITS)

/* A good default top for latencies: one hour in microseconds. */
#define HIST_ONE_HOUR_US INT64_C(3600000000)

/* Largest highest trackable value hist_init accepts (2^62). */
#define HIST_MAX_HIGHEST (INT64_C(1) << 62)

typedef struct hist
{
	int64_t		highest;		/* largest value counted without clamping */
	int			nbuckets;		/* entries in counts[]: index(highest) + 1 */
	int64_t		count;			/* values added, clamped ones included */
	int64_t		clamped;		/* values above highest (kept in the last bucket) */
	int64_t		min;			/* smallest value added (after negative -> 0); 0 if empty */
	int64_t		max;			/* largest value added, even when clamped; 0 if empty */
	double		sum;			/* sum of the values added, for the mean */
	int64_t    *counts;			/* per bucket; owned, nbuckets long */
} hist;

/*
 * Bucket index of a value (value >= 0), without any clamping.  Exposed for
 * hist_add and the tests.
 */
static inline int
hist_index_of(int64_t value)
{
	uint64_t	v = (uint64_t) value;
	int			magnitude = 63 - __builtin_clzll(v | 1);
	int			shift = magnitude - HIST_SUB_BITS;

	if (shift < 0)
		shift = 0;
	return (shift << HIST_SUB_BITS) + (int) (v >> shift);
}

/*
 * The same layout with bits sub-bucket bits instead of HIST_SUB_BITS
 * (coarser histograms: timeline.h): the index of a value (>= 0), and the
 * smallest and largest value of a bucket.
 */
static inline int
hist_layout_index_of(int64_t value, int bits)
{
	uint64_t	v = (uint64_t) value;
	int			shift = 63 - __builtin_clzll(v | 1) - bits;

	if (shift < 0)
		shift = 0;
	return (shift << bits) + (int) (v >> shift);
}

static inline int64_t
hist_layout_lowest(int index, int bits)
{
	int			shift = index < (2 << bits) ? 0 : (index >> bits) - 1;

	/* index >= 0: the top is in [0, 2 << bits) */
	return (int64_t) ((uint64_t) (index - (shift << bits)) << shift);
}

static inline int64_t
hist_layout_highest(int index, int bits)
{
	int			shift = index < (2 << bits) ? 0 : (index >> bits) - 1;

	return hist_layout_lowest(index, bits) + (INT64_C(1) << shift) - 1;
}

/* Smallest and largest value that fall into bucket index (index >= 0). */
int64_t		hist_bucket_lowest(int index);
int64_t		hist_bucket_highest(int index);

/*
 * Prepare an empty histogram that tracks 0 .. highest with the error bound
 * above.  highest is raised to 255 if smaller; it must not exceed
 * HIST_MAX_HIGHEST.  Allocates the counters (the only allocation this unit
 * makes).  Returns false, leaving h freeable, when highest is out of range
 * or memory is short.
 */
bool		hist_init(hist *h, int64_t highest);

/* Release the counters; h may then be initialized again.  NULL-safe. */
void		hist_free(hist *h);

/* Forget every value, keep the layout and the memory. */
void		hist_reset(hist *h);

/*
 * hist_reset for a histogram written with hist_add_shared: the counters
 * a reader loads are zeroed with relaxed atomic stores.  Owner only.
 */
void		hist_reset_shared(hist *h);

/*
 * The one body of hist_add and hist_add_shared below.  shared is a
 * constant at both call sites, so each compiles to straight-line code.
 */
static inline void
hist_record(hist *h, int64_t value, bool shared)
{
	int			index;

	if (PGB_UNLIKELY(value < 0))
		value = 0;
	if (PGB_UNLIKELY(value > h->highest))
	{
		h->clamped++;
		index = h->nbuckets - 1;
	}
	else
		index = hist_index_of(value);
	if (shared)
		__atomic_store_n(&h->counts[index], h->counts[index] + 1, __ATOMIC_RELAXED);
	else
		h->counts[index]++;
	if (h->count == 0 || value < h->min)
		h->min = value;
	if (h->count == 0 || value > h->max)
		h->max = value;
	if (shared)
		__atomic_store_n(&h->count, h->count + 1, __ATOMIC_RELAXED);
	else
		h->count++;
	h->sum += (double) value;
}

/*
 * Record one value (microseconds).  Negative values are recorded as 0
 * (a clock step, never a real latency).  Values above h->highest go into
 * the last bucket and are counted in h->clamped; min, max and the mean
 * still see their true value.  Never allocates, never fails.  Owner
 * thread only, with no concurrent reader.
 */
static inline void
hist_add(hist *h, int64_t value)
{
	hist_record(h, value, false);
}

/*
 * hist_add for a histogram that another thread reads while it is written
 * (progress reports): the bucket counter and the total count are stored
 * with relaxed atomic stores, which cost the same plain moves as hist_add
 * on the usual 64-bit targets but make the concurrent reads well defined.
 * The owner stays the only writer; readers load counts[] and count with
 * __atomic_load_n(..., __ATOMIC_RELAXED) and must not trust min, max, sum.
 */
static inline void
hist_add_shared(hist *h, int64_t value)
{
	hist_record(h, value, true);
}

/*
 * Add every value of h into acc, bucket by bucket.  Both must have been
 * initialized with the same highest; returns false (acc untouched)
 * otherwise.  The result is exactly the histogram of the union.
 */
bool		hist_merge(hist *acc, const hist *h);

/*
 * The value at percentile p (0 .. 100; clamped into that range), with the
 * nearest-rank definition: the smallest recorded value v such that at
 * least p% of the values are <= v, i.e. the value of rank
 * max(1, ceil(p / 100 * count)) in sorted order.  p = 0 gives the minimum,
 * p = 100 the maximum.
 *
 * The histogram answers with the midpoint of the bucket holding that rank
 * (lowest + (width - 1) / 2), brought into [min, max].  Hence, for values
 * not clamped, |answer - exact| <= exact / 256, and answer == exact below
 * 256.  The ends are exact: p <= 0 is the true minimum, p >= 100 the true
 * maximum.
 * Returns 0 when the histogram is empty.
 */
int64_t		hist_value_at_percentile(const hist *h, double p);

/*
 * One non-empty bucket, for exporting a histogram (--report-json) and
 * loading it back: its index in the layout above and its count.
 */
typedef struct hist_bucket
{
	int32_t		index;			/* 0 .. nbuckets - 1 */
	int64_t		count;			/* > 0 */
} hist_bucket;

/* Number of non-empty buckets (what hist_export writes). */
int			hist_nonzero(const hist *h);

/*
 * Write the non-empty buckets of h, ascending by index, into out (room
 * for max entries); returns how many were written (at most max).  With
 * min, max, sum, count and clamped this is the whole histogram: loading
 * it with hist_import gives back an equal one.
 */
int			hist_export(const hist *h, hist_bucket *out, int max);

/*
 * Add n exported buckets into h, as if their values had been added: the
 * counts go to their buckets (an index beyond h's last goes to the last,
 * counted clamped), and min, max and sum are those of the values (pass
 * the exporter's; min and max are ignored when n is 0).  The result is
 * exactly the histogram of the union, as hist_merge.  Returns false,
 * h untouched, when a count is negative or the counts would pass
 * INT64_MAX (buckets read from a file: --merge-reports).
 */
bool		hist_import(hist *h, const hist_bucket *b, int n, int64_t min, int64_t max,
						double sum);

/* Mean of the recorded values; 0.0 when empty. */
double		hist_mean(const hist *h);

/* Values recorded, clamped ones included. */
static inline int64_t
hist_count(const hist *h)
{
	return h->count;
}

/* Smallest / largest recorded value (exact); 0 when empty. */
static inline int64_t
hist_min(const hist *h)
{
	return h->min;
}

static inline int64_t
hist_max(const hist *h)
{
	return h->max;
}

#endif
