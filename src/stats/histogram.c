/*
 * histogram.c — the log-linear latency histogram of histogram.h: bucket
 * bounds, set-up, merge and percentile queries.  hist_add lives inline in
 * the header so the per-transaction path is a few instructions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/histogram.h"

/* Below this every value has a bucket of its own. */
#define HIST_EXACT_LIMIT (2 * HIST_SUB_COUNT)

/*
 * Index i encodes (shift, top) with i = shift * 128 + top; top is in
 * [128, 256) when shift > 0, and the bucket is [top << shift, (top + 1) << shift).
 * For i < 256, shift = 0 and top = i.
 */
static int
bucket_shift(int index)
{
	if (index < HIST_EXACT_LIMIT)
		return 0;
	return (index >> HIST_SUB_BITS) - 1;
}

int64_t
hist_bucket_lowest(int index)
{
	int			shift = bucket_shift(index);
	int64_t		top = index - (shift << HIST_SUB_BITS);

	return top << shift;
}

int64_t
hist_bucket_highest(int index)
{
	int			shift = bucket_shift(index);

	return hist_bucket_lowest(index) + (INT64_C(1) << shift) - 1;
}

bool
hist_init(hist *h, int64_t highest)
{
	memset(h, 0, sizeof(*h));
	if (highest > HIST_MAX_HIGHEST)
		return false;
	if (highest < HIST_EXACT_LIMIT - 1)
		highest = HIST_EXACT_LIMIT - 1;
	h->highest = highest;
	h->nbuckets = hist_index_of(highest) + 1;
	h->counts = calloc((size_t) h->nbuckets, sizeof(int64_t));
	if (h->counts == NULL)
	{
		h->nbuckets = 0;
		return false;
	}
	return true;
}

void
hist_free(hist *h)
{
	if (h == NULL)
		return;
	free(h->counts);
	h->counts = NULL;
	h->nbuckets = 0;
}

void
hist_reset(hist *h)
{
	if (h->counts != NULL)
		memset(h->counts, 0, (size_t) h->nbuckets * sizeof(int64_t));
	h->count = 0;
	h->clamped = 0;
	h->min = 0;
	h->max = 0;
	h->sum = 0.0;
}

void
hist_reset_shared(hist *h)
{
	for (int b = 0; h->counts != NULL && b < h->nbuckets; b++)
		__atomic_store_n(&h->counts[b], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, 0, __ATOMIC_RELAXED);
	h->clamped = 0;
	h->min = 0;
	h->max = 0;
	h->sum = 0.0;
}

bool
hist_merge(hist *acc, const hist *h)
{
	if (acc->highest != h->highest || acc->nbuckets != h->nbuckets)
		return false;
	if (h->count == 0)
		return true;

	for (int i = 0; i < h->nbuckets; i++)
		acc->counts[i] += h->counts[i];
	if (acc->count == 0 || h->min < acc->min)
		acc->min = h->min;
	if (acc->count == 0 || h->max > acc->max)
		acc->max = h->max;
	acc->count += h->count;
	acc->clamped += h->clamped;
	acc->sum += h->sum;
	return true;
}

/* Rank (1-based) of the value at percentile p under nearest-rank. */
static int64_t
percentile_rank(int64_t count, double p)
{
	double		r;

	if (!(p > 0.0))				/* also catches NaN */
		return 1;
	if (p >= 100.0)
		return count;
	/* multiply first: 99.9 * 1000 / 100 is 999, 99.9 / 100 * 1000 is not */
	r = ceil(p * (double) count / 100.0);
	if (r < 1.0)
		return 1;
	if (r > (double) count)
		return count;
	return (int64_t) r;
}

int64_t
hist_value_at_percentile(const hist *h, double p)
{
	int64_t		rank;
	int64_t		seen = 0;

	if (h->count == 0)
		return 0;
	/* the ends are known exactly, the midpoint of their bucket is not */
	if (!(p > 0.0))
		return h->min;
	if (p >= 100.0)
		return h->max;
	rank = percentile_rank(h->count, p);

	for (int i = 0; i < h->nbuckets; i++)
	{
		seen += h->counts[i];
		if (seen >= rank)
		{
			int64_t		lowest = hist_bucket_lowest(i);
			int64_t		width = hist_bucket_highest(i) - lowest + 1;
			int64_t		value = lowest + (width - 1) / 2;

			/* the true value lies in [min, max]: clamping only gets closer */
			if (value < h->min)
				value = h->min;
			if (value > h->max)
				value = h->max;
			return value;
		}
	}
	return h->max;				/* not reached: counts sum to count */
}

int
hist_nonzero(const hist *h)
{
	int			n = 0;

	for (int i = 0; h->count > 0 && i < h->nbuckets; i++)
		n += h->counts[i] != 0;
	return n;
}

int
hist_export(const hist *h, hist_bucket *out, int max)
{
	int			n = 0;

	for (int i = 0; h->count > 0 && i < h->nbuckets && n < max; i++)
		if (h->counts[i] != 0)
			out[n++] = (hist_bucket) {.index = i, .count = h->counts[i]};
	return n;
}

bool
hist_import(hist *h, const hist_bucket *b, int n, int64_t min, int64_t max, double sum)
{
	int64_t		added = 0,
				total;

	/* every count fits when the total does: check that first */
	for (int i = 0; i < n; i++)
		if (b[i].count < 0 || __builtin_add_overflow(added, b[i].count, &added))
			return false;
	if (__builtin_add_overflow(h->count, added, &total))
		return false;
	for (int i = 0; i < n; i++)
	{
		int			index = b[i].index;

		if (index < 0)
			index = 0;
		if (index >= h->nbuckets)
		{
			index = h->nbuckets - 1;
			h->clamped += b[i].count;
		}
		h->counts[index] += b[i].count;
	}
	if (added == 0)
		return true;
	if (h->count == 0 || min < h->min)
		h->min = min;
	if (h->count == 0 || max > h->max)
		h->max = max;
	h->count = total;
	h->sum += sum;
	return true;
}

double
hist_mean(const hist *h)
{
	if (h->count == 0)
		return 0.0;
	return h->sum / (double) h->count;
}
