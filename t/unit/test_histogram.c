/*
 * test_histogram.c — unit tests of the log-linear latency histogram:
 * bucket layout, percentiles against exact nearest-rank percentiles of a
 * sorted copy on synthetic distributions, merge == histogram of the union,
 * and the edge cases (empty, one value, zero, negative, clamping).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/histogram.h"
#include "pgbench/script/random.h"
#include "tap.h"

#define NVALUES 200000
#define TEN_SECONDS INT64_C(10000000)

static const double percentiles[] = {
	0.0, 0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0,
};

typedef int64_t (*draw_fn) (prng_state *rs);

static int64_t
draw_uniform(prng_state *rs)
{
	return 1 + (int64_t) prng_uint64_range(rs, 0, TEN_SECONDS - 1);
}

/* mean 2 ms, cut at 10 s */
static int64_t
draw_exponential(prng_state *rs)
{
	double		v = -log(1.0 - prng_double(rs)) * 2000.0;

	return v > (double) TEN_SECONDS ? TEN_SECONDS : 1 + (int64_t) v;
}

/* 70% near 500 us, 30% near 2 s */
static int64_t
draw_bimodal(prng_state *rs)
{
	if (prng_double(rs) < 0.7)
		return 400 + (int64_t) prng_uint64_range(rs, 0, 200);
	return 1800000 + (int64_t) prng_uint64_range(rs, 0, 400000);
}

static int64_t
draw_constant(prng_state *rs)
{
	(void) rs;
	return 12345;
}

/* uniform in log space from 1 us to 10 s: every magnitude is exercised */
static int64_t
draw_log_uniform(prng_state *rs)
{
	return (int64_t) exp(prng_double(rs) * log((double) TEN_SECONDS));
}

/* the exact region only */
static int64_t
draw_small(prng_state *rs)
{
	return (int64_t) prng_uint64_range(rs, 0, 300);
}

typedef struct dist_case
{
	const char *name;
	draw_fn		draw;
} dist_case;

static const dist_case dist_cases[] = {
	{"uniform 1 us .. 10 s", draw_uniform},
	{"exponential, mean 2 ms", draw_exponential},
	{"bimodal 500 us / 2 s", draw_bimodal},
	{"constant 12345", draw_constant},
	{"log-uniform 1 us .. 10 s", draw_log_uniform},
	{"small 0 .. 300", draw_small},
};

static int
cmp_int64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* Nearest rank, written independently of the unit: ceil(p * n / 100), >= 1. */
static int64_t
exact_percentile(const int64_t *sorted, int64_t n, double p)
{
	int64_t		rank = (int64_t) ceil(p * (double) n / 100.0);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static void
test_layout(void)
{
	bool		ok = true;
	hist		h;

	/* contiguous buckets, each no wider than 1/128 of its lowest value */
	for (int i = 0; i < 7000 && ok; i++)
	{
		int64_t		lo = hist_bucket_lowest(i);
		int64_t		hi = hist_bucket_highest(i);

		if (hist_index_of(lo) != i || hist_index_of(hi) != i ||
			hist_bucket_lowest(i + 1) != hi + 1 ||
			(i >= 256 && (hi - lo + 1) * 128 > lo))
		{
			tap_diag("bucket %d: [%" PRId64 ", %" PRId64 "]", i, lo, hi);
			ok = false;
		}
	}
	tap_ok(ok, "buckets 0..6999 are contiguous, width <= lowest/128");

	ok = true;
	for (int k = 0; k < 63 && ok; k++)
	{
		int64_t		p = INT64_C(1) << k;
		int64_t		probes[] = {p - 1, p, p + 1, p + p / 3};

		for (size_t j = 0; j < PGB_LENGTHOF(probes); j++)
		{
			int64_t		v = probes[j];
			int			i = hist_index_of(v);

			if (v < 0)
				continue;
			if (hist_bucket_lowest(i) > v || hist_bucket_highest(i) < v)
			{
				tap_diag("value %" PRId64 " not inside its bucket %d", v, i);
				ok = false;
			}
		}
	}
	tap_ok(ok, "every probed value 0 .. 2^62 lies inside its bucket");
	tap_is_int(hist_index_of(INT64_MAX), 55 * 128 + 255, "index of INT64_MAX is the last possible");

	tap_ok(hist_init(&h, HIST_ONE_HOUR_US), "init for one hour");
	tap_is_int(h.nbuckets, 3287, "one hour needs 3287 buckets");
	hist_free(&h);
	tap_ok(hist_init(&h, 10), "init with a tiny top");
	tap_is_int(h.highest, 255, "tiny top raised to 255");
	hist_free(&h);
	tap_ok(hist_init(&h, HIST_MAX_HIGHEST), "init with the largest top");
	hist_free(&h);
	tap_ok(!hist_init(&h, HIST_MAX_HIGHEST + 1), "init refuses a top above 2^62");
	hist_free(&h);
}

static void
test_distribution(const dist_case *dc, int64_t *values, int64_t *sorted)
{
	prng_state	rs;
	hist		h;
	double		sum = 0.0;
	double		worst = 0.0;
	bool		within = true;
	char		name[128];

	prng_seed(&rs, 42);
	hist_init(&h, HIST_ONE_HOUR_US);
	for (int64_t i = 0; i < NVALUES; i++)
	{
		values[i] = dc->draw(&rs);
		hist_add(&h, values[i]);
		sum += (double) values[i];
	}
	memcpy(sorted, values, NVALUES * sizeof(int64_t));
	qsort(sorted, NVALUES, sizeof(int64_t), cmp_int64);

	for (size_t i = 0; i < PGB_LENGTHOF(percentiles); i++)
	{
		double		p = percentiles[i];
		int64_t		exact = exact_percentile(sorted, NVALUES, p);
		int64_t		got = hist_value_at_percentile(&h, p);
		double		err = fabs((double) (got - exact));

		/* the documented bound, and the 1% asked for */
		if (err * 256.0 > (double) exact || err > 0.01 * (double) exact)
		{
			tap_diag("%s: p%g exact %" PRId64 " got %" PRId64, dc->name, p, exact, got);
			within = false;
		}
		if (exact > 0 && err / (double) exact > worst)
			worst = err / (double) exact;
	}
	tap_ok(within, "%s: %zu percentiles within 1/256 (worst %.4f%%)",
		   dc->name, PGB_LENGTHOF(percentiles), worst * 100.0);
	tap_ok(hist_count(&h) == NVALUES && hist_min(&h) == sorted[0] &&
		   hist_max(&h) == sorted[NVALUES - 1] && h.clamped == 0,
		   "%s: count, min, max exact", dc->name);
	snprintf(name, sizeof(name), "%s: mean", dc->name);
	tap_is_double(hist_mean(&h), sum / NVALUES, 1e-9 * (sum / NVALUES), name);
	hist_free(&h);
}

static bool
same_histogram(const hist *a, const hist *b)
{
	return a->nbuckets == b->nbuckets &&
		memcmp(a->counts, b->counts, (size_t) a->nbuckets * sizeof(int64_t)) == 0 &&
		a->count == b->count && a->clamped == b->clamped &&
		a->min == b->min && a->max == b->max && a->sum == b->sum;
}

static void
test_merge(void)
{
	prng_state	rs;
	hist		left,
				right,
				all,
				acc,
				other;

	prng_seed(&rs, 7);
	hist_init(&left, 1000000);
	hist_init(&right, 1000000);
	hist_init(&all, 1000000);
	hist_init(&acc, 1000000);
	for (int i = 0; i < 50000; i++)
	{
		/* integral values keep the double sums exact whatever the order */
		int64_t		v = draw_log_uniform(&rs) / 4;	/* some above the 1 s top */

		hist_add(i % 3 == 0 ? &left : &right, v);
		hist_add(&all, v);
	}
	tap_ok(all.clamped > 0, "some values clamped in the merge data");
	tap_ok(hist_merge(&acc, &left), "merge left into empty");
	tap_ok(same_histogram(&acc, &left), "merge into empty is a copy");
	tap_ok(hist_merge(&acc, &right), "merge right");
	tap_ok(same_histogram(&acc, &all), "merge equals the histogram of the union, bucket by bucket");

	hist_reset(&left);
	tap_ok(hist_merge(&acc, &left) && same_histogram(&acc, &all), "merging an empty histogram changes nothing");

	hist_init(&other, 2000000);
	hist_add(&other, 5);
	tap_ok(!hist_merge(&acc, &other), "merge refuses another layout");
	tap_ok(same_histogram(&acc, &all), "refused merge leaves acc untouched");

	hist_free(&left);
	hist_free(&right);
	hist_free(&all);
	hist_free(&acc);
	hist_free(&other);
}

static void
test_edges(void)
{
	hist		h;

	hist_init(&h, 1000000);
	tap_is_int(hist_count(&h), 0, "empty: count 0");
	tap_is_int(hist_value_at_percentile(&h, 50), 0, "empty: p50 is 0");
	tap_is_int(hist_value_at_percentile(&h, 100), 0, "empty: p100 is 0");
	tap_is_double(hist_mean(&h), 0.0, 0.0, "empty: mean 0");
	tap_ok(hist_min(&h) == 0 && hist_max(&h) == 0, "empty: min and max 0");

	hist_add(&h, 777777);
	tap_ok(hist_value_at_percentile(&h, 0) == 777777 &&
		   hist_value_at_percentile(&h, 50) == 777777 &&
		   hist_value_at_percentile(&h, 100) == 777777,
		   "single value: every percentile is that value (brought into [min, max])");
	tap_is_double(hist_mean(&h), 777777.0, 0.0, "single value: mean");

	hist_reset(&h);
	tap_is_int(hist_count(&h), 0, "reset empties");
	hist_add(&h, 0);
	hist_add(&h, 0);
	tap_ok(hist_value_at_percentile(&h, 99) == 0 && hist_min(&h) == 0 &&
		   h.counts[0] == 2, "zero is recorded in bucket 0");
	hist_add(&h, -5);
	tap_ok(h.counts[0] == 3 && hist_min(&h) == 0 && hist_count(&h) == 3,
		   "a negative value is recorded as 0");

	hist_reset(&h);
	hist_add(&h, 10);
	hist_add(&h, 5000000);		/* 5 s, above the 1 s top */
	tap_is_int(h.clamped, 1, "clamp: counted");
	tap_is_int(hist_count(&h), 2, "clamp: still in count");
	tap_is_int(hist_max(&h), 5000000, "clamp: max keeps the true value");
	tap_ok(h.counts[h.nbuckets - 1] == 1, "clamp: lands in the last bucket");
	tap_is_int(hist_value_at_percentile(&h, 50), 10, "clamp: p50 is the small value");
	tap_ok(hist_value_at_percentile(&h, 100) >= hist_bucket_lowest(h.nbuckets - 1) &&
		   hist_value_at_percentile(&h, 100) <= 5000000,
		   "clamp: p100 answers from the last bucket");
	tap_is_double(hist_mean(&h), 2500005.0, 0.0, "clamp: mean uses the true value");

	tap_is_int(hist_value_at_percentile(&h, -3), 10, "p < 0 acts as p = 0");
	tap_is_int(hist_value_at_percentile(&h, NAN), 10, "p = NaN acts as p = 0");
	/* a second hist_free is harmless only if the first left nothing to free */
	hist_free(&h);
	tap_ok(h.counts == NULL && h.nbuckets == 0, "hist_free leaves no buckets to free again");
	hist_free(&h);
	tap_ok(h.counts == NULL && h.nbuckets == 0 && hist_nonzero(&h) == 0,
		   "hist_free twice: still empty");
}

/* Export, import and the exact ends: what --report-json relies on. */
static void
test_export(void)
{
	hist		h,
				back;
	hist_bucket b[64];
	int			n;
	bool		same = true;

	hist_init(&h, HIST_ONE_HOUR_US);
	hist_init(&back, HIST_ONE_HOUR_US);
	tap_is_int(hist_nonzero(&h), 0, "export: an empty histogram has no bucket");
	for (int64_t v = 1000; v <= 1003; v++)
		hist_add(&h, v);
	hist_add(&h, 70000);
	hist_add(&h, 70000);
	tap_is_int(hist_value_at_percentile(&h, 100), 70000, "p100 is the exact maximum");
	tap_is_int(hist_value_at_percentile(&h, 0), 1000, "p0 is the exact minimum");
	hist_add(&h, 1002);
	tap_is_int(hist_value_at_percentile(&h, 100), 70000, "p100 after more values");
	hist_reset(&h);
	hist_add(&h, 1002);
	hist_add(&h, 1000);
	tap_is_int(hist_value_at_percentile(&h, 100), 1002,
			   "p100 is 1002, not its bucket's midpoint 1001");
	hist_add(&h, 5);
	hist_add(&h, 123456789);
	n = hist_export(&h, b, 64);
	tap_is_int(n, hist_nonzero(&h), "export: every non-empty bucket");
	tap_ok(n == 3 && b[0].index < b[1].index && b[1].index < b[2].index,
		   "export: three buckets, ascending");
	tap_is_int(b[1].count, 2, "export: 1000 and 1002 share a bucket");
	tap_is_int(hist_export(&h, b, 2), 2, "export: stops at max");
	n = hist_export(&h, b, 64);
	hist_import(&back, b, n, h.min, h.max, h.sum);
	for (int i = 0; i < h.nbuckets; i++)
		same = same && h.counts[i] == back.counts[i];
	tap_ok(same && back.count == h.count && back.min == h.min && back.max == h.max &&
		   back.sum == h.sum, "import of an export gives the same histogram");
	hist_import(&back, b, n, h.min, h.max, h.sum);
	hist_merge(&h, &h);
	tap_is_int(back.count, h.count, "import twice == merge with itself: count");
	tap_is_int(hist_value_at_percentile(&back, 50), hist_value_at_percentile(&h, 50),
			   "import twice == merge with itself: p50");
	hist_free(&h);
	hist_free(&back);
}

int
main(void)
{
	int64_t    *values = malloc(NVALUES * sizeof(int64_t));
	int64_t    *sorted = malloc(NVALUES * sizeof(int64_t));

	test_layout();
	for (size_t i = 0; i < PGB_LENGTHOF(dist_cases); i++)
		test_distribution(&dist_cases[i], values, sorted);
	test_merge();
	test_edges();
	test_export();
	free(values);
	free(sorted);
	return tap_done();
}
