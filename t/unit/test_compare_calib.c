/*
 * test_compare_calib.c — --compare's verdicts calibrated on synthetic runs
 * with a known truth (doc/compare.md, "Calibration").
 *
 * A run is a series of 1-second intervals whose log tps deviates from its
 * level by a known process (i.i.d. noise, AR(1) with phi 0.5 and 0.9, a
 * linear drift, a random walk; 3% per interval), its latencies a
 * lognormal whose median moves inversely to the tps, drawn into the
 * timeline's coarse buckets; a side is one run, or several runs with a
 * run-to-run spread of 2%.  The truth: tps changes by the shift s, every
 * latency figure by 1 / (1 + s) - 1.  Pairs go through the comparison's
 * own estimation and verdict (compare_series.c), as a report's timeline.
 *
 * The test asserts the bounds of doc/compare.md on fixed seeds:
 * wherever a figure gets a verdict, A/A false positives at most 7%,
 * the interval covering the true change 90-97% of the time; power for a
 * 5% tps shift at AR(1) 0.5 and 120 intervals at least 80%, for 2% at 600
 * at least 60%.  With an argument N it prints the whole table from N
 * trials per cell instead (the table of doc/compare.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "sim_rng.h"
#include "tap.h"

typedef enum process
{
	P_IID,
	P_AR5,
	P_AR9,
	P_DRIFT,
	P_WALK,
	P_COUNT
} process;

static const char *const process_name[P_COUNT] = {"i.i.d.", "AR(1) 0.5", "AR(1) 0.9", "drift", "walk"};

#define NOISE 0.03				/* per interval, on log tps */
#define RUN_SPREAD 0.02			/* repeated runs: each run's own level */
#define DRIFT_TOTAL 0.06		/* drift: the level's change over the run */
#define WALK_STEP 0.01			/* walk: each interval's step */
#define BASE_TPS 2000.0
#define BASE_LATENCY_US 2000.0	/* the lognormal's median at BASE_TPS */
#define LATENCY_SIGMA 0.5


/* A binomial draw: exact by inversion for small means, else normal. */
static int64_t
binomial(int64_t n, double p)
{
	double		mean = (double) n * p,
				var = mean * (1.0 - p);
	int64_t		k;

	if (p <= 0.0 || n <= 0)
		return 0;
	if (p >= 1.0)
		return n;
	if (var > 9.0)
		k = llround(mean + sqrt(var) * normal());
	else
	{
		/* inversion over the Poisson-like lower tail */
		double		u = uniform(),
					q = pow(1.0 - p, (double) n),
					cdf = q;

		k = 0;
		while (u > cdf && k < n)
		{
			q *= (double) (n - k) / (double) (k + 1) * p / (1.0 - p);
			k++;
			cdf += q;
		}
	}
	return k < 0 ? 0 : k > n ? n : k;
}

/* ---- synthetic runs ------------------------------------------------------- */

/* The process's deviations d[0 .. n - 1] of log tps. */
static void
deviations(process p, int n, double *d)
{
	double		phi = p == P_AR5 ? 0.5 : p == P_AR9 ? 0.9 : 0.0;
	double		prev = NOISE * normal();

	for (int i = 0; i < n; i++)
	{
		switch (p)
		{
			case P_AR5:
			case P_AR9:
				if (i > 0)
					prev = phi * prev + sqrt(1.0 - phi * phi) * NOISE * normal();
				d[i] = prev;
				break;
			case P_DRIFT:
				d[i] = DRIFT_TOTAL * ((double) i / (n - 1) - 0.5) + NOISE * normal();
				break;
			case P_WALK:
				prev = i == 0 ? 0.0 : prev + WALK_STEP * normal();
				d[i] = prev;
				break;
			default:
				d[i] = NOISE * normal();
				break;
		}
	}
}

static double
phi_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * The interval's own percentiles, as the run's fine histogram reads them:
 * the lognormal's quantile with a sample quantile's noise, brought to its
 * fine bucket's middle.
 */
static void
point_percentiles(timeline_record *r, double mu, int64_t cnt)
{
	static const double p[3] = {0.5, 0.9, 0.99},
				z[3] = {0.0, 1.2815516, 2.3263479};

	for (int k = 0; k < 3; k++)
	{
		double		density = exp(-0.5 * z[k] * z[k]) / sqrt(2.0 * M_PI);
		double		sd = LATENCY_SIGMA * sqrt(p[k] * (1.0 - p[k]) / (double) cnt) / density;
		int64_t		us = llround(exp(mu + LATENCY_SIGMA * z[k] + sd * normal()));
		int			b = hist_layout_index_of(us, HIST_SUB_BITS);

		r->latency_pct_us[k] = (double) (hist_layout_lowest(b, HIST_SUB_BITS) +
										 (hist_layout_highest(b, HIST_SUB_BITS) -
										  hist_layout_lowest(b, HIST_SUB_BITS)) / 2);
	}
}

/* One interval of log level lvl (deviation and shift) as record r. */
static void
make_interval(timeline_record *r, int i, double lvl)
{
	double		tps = BASE_TPS * exp(lvl),
				mu = log(BASE_LATENCY_US) - lvl,
				rest_p = 1.0,
				prev_cdf = 0.0;
	/* the count's own noise: about Poisson's */
	int64_t		cnt = llround(tps + sqrt(tps) * normal()),
				rest;

	memset(r, 0, sizeof(*r));
	r->start_us = (int64_t) i * 1000000;
	r->end_us = r->start_us + 1000000;
	r->sources = 1;
	r->delta.cnt = rest = cnt;
	for (int b = 0; b < TIMELINE_NBUCKETS && rest > 0; b++)
	{
		double		hi = (double) hist_layout_highest(b, TIMELINE_SUB_BITS) + 1.0;
		double		cdf = b == TIMELINE_NBUCKETS - 1 ? 1.0 : phi_cdf((log(hi) - mu) / LATENCY_SIGMA);
		double		p = cdf - prev_cdf;
		int64_t		k = rest_p > 0 ? binomial(rest, p / rest_p) : rest;
		double		mid = 0.5 * ((double) hist_layout_lowest(b, TIMELINE_SUB_BITS) + hi);

		if (b == TIMELINE_NBUCKETS - 1)
			k = rest;
		r->buckets[b] = (uint32_t) k;
		r->delta.latency.sum += (double) k * mid;
		if (k > 0)
		{
			if (r->latency_min_us == 0)
				r->latency_min_us = hist_layout_lowest(b, TIMELINE_SUB_BITS);
			r->latency_max_us = (int64_t) hi - 1;
		}
		rest -= k;
		rest_p -= p;
		prev_cdf = cdf;
	}
	point_percentiles(r, mu, cnt);
}

/* The latency (us) at percentile p of tl's buckets merged, linearly within a bucket. */
static double
bucket_percentile(const timeline *tl, double p)
{
	uint64_t	counts[TIMELINE_NBUCKETS] = {0},
				total = 0,
				seen = 0;
	timeline_record r;
	double		rank;

	for (int i = 0; i < tl->n; i++)
		if (timeline_get(tl, i, &r))
			for (int b = 0; b < TIMELINE_NBUCKETS; b++)
			{
				counts[b] += r.buckets[b];
				total += r.buckets[b];
			}
	rank = p / 100.0 * (double) total;
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		double		lo = (double) hist_layout_lowest(b, TIMELINE_SUB_BITS);

		if (counts[b] > 0 && (double) (seen + counts[b]) >= rank)
			return lo + ((double) hist_layout_highest(b, TIMELINE_SUB_BITS) + 1.0 - lo) *
				(rank - (double) seen) / (double) counts[b];
		seen += counts[b];
	}
	return 0.0;
}

/* A run of n intervals into run (its timeline and figures). */
static void
make_run(cmp_run *run, process p, int n, double shift, double level)
{
	double	   *d = malloc((size_t) n * sizeof(double));
	timeline_record r;
	int64_t		cnt = 0,
				max = 0;
	double		sum = 0.0;

	memset(run, 0, sizeof(*run));
	timeline_init(&run->acc.tl, 1000000, false);
	deviations(p, n, d);
	for (int i = 0; i < n; i++)
	{
		make_interval(&r, i, d[i] + log1p(shift) + level);
		cnt += r.delta.cnt;
		sum += r.delta.latency.sum;
		max = r.latency_max_us > max ? r.latency_max_us : max;
		timeline_append(&run->acc.tl, &r);
	}
	free(d);
	run->first = 0;
	run->intervals = n;
	run->own_percentiles = true;
	run->instances = 1;
	run->tps_divisor = 1.0;
	for (int f = 0; f < CF_COUNT; f++)
		run->has_point[f] = true;
	run->point[CF_TPS] = (double) cnt / n;
	run->point[CF_LATENCY_AVERAGE] = 0.001 * sum / (double) cnt;
	run->point[CF_MAX] = 0.001 * (double) max;
	run->point[CF_FAILED] = 0.0;
	/* the run's percentiles: its buckets merged, read as compare_series.c reads a batch */
	for (int f = CF_P50; f <= CF_P99; f++)
		run->point[f] = 0.001 * bucket_percentile(&run->acc.tl, compare_figures[f].percentile);
}

/* A side: nruns runs (one: no run level). */
static void
make_side(cmp_side *side, process p, int n, double shift, int nruns)
{
	memset(side, 0, sizeof(*side));
	side->nruns = nruns;
	side->runs = calloc((size_t) nruns, sizeof(cmp_run));
	for (int k = 0; k < nruns; k++)
		make_run(&side->runs[k], p, n, shift, nruns > 1 ? RUN_SPREAD * normal() : 0.0);
	for (int f = 0; f < CF_COUNT; f++)
	{
		side->has_point[f] = true;
		side->point[f] = 0.0;
		for (int k = 0; k < nruns; k++)
			side->point[f] += side->runs[k].point[f] / nruns;
	}
	compare_side_series(side);
}

static void
free_side(cmp_side *side)
{
	for (int k = 0; k < side->nruns; k++)
		timeline_free(&side->runs[k].acc.tl);
	for (int f = 0; f < CF_COUNT; f++)
		free(side->series[f]);
	free(side->runs);
}

/* ---- a cell: trials of one process, length, shift and runs --------------- */

typedef struct tally
{
	int			trials;
	int			told;			/* better, worse or no significant difference */
	int			wrong_way;		/* shift 0: better or worse; else the wrong direction */
	int			right_way;		/* the right direction (power) */
	int			covered;		/* the interval holds the truth */
	int			cannot;			/* cannot tell */
} tally;

static void
run_cell(process p, int n, double shift, int nruns, int trials, uint64_t seed, tally *t)
{
	memset(t, 0, CF_COUNT * sizeof(tally));
	rng_state = seed;
	for (int k = 0; k < trials; k++)
	{
		cmp_side	a,
					b;

		make_side(&a, p, n, 0.0, nruns);
		make_side(&b, p, n, shift, nruns);
		for (int f = 0; f < CF_COUNT; f++)
		{
			cmp_change c;
			double		truth = f == CF_TPS ? shift : f == CF_FAILED ? 0.0 : 1.0 / (1.0 + shift) - 1.0;
			bool		up_good = compare_figures[f].higher_is_better;
			cmp_verdict right = shift == 0 ? CV_NONE : (truth > 0) == up_good ? CV_BETTER : CV_WORSE;

			compare_change(&a, &b, (cmp_figure) f, &c);
			t[f].trials++;
			if (c.verdict == CV_CANNOT_TELL)
			{
				t[f].cannot++;
				continue;
			}
			t[f].told++;
			if (c.has_interval && c.lo <= truth && truth <= c.hi)
				t[f].covered++;
			if (c.verdict == CV_BETTER || c.verdict == CV_WORSE)
			{
				if (c.verdict == right)
					t[f].right_way++;
				else
					t[f].wrong_way++;
			}
		}
		free_side(&a);
		free_side(&b);
	}
}

static double
share(int k, int n)
{
	return n > 0 ? (double) k / n : 0.0;
}

/* ---- the table (an argument: trials per cell) ----------------------------- */

static const int lengths[] = {10, 30, 120, 600};
static const double shifts[] = {0.0, -0.02, -0.05};

static void
print_row(const char *what, int n, double shift, const tally *t)
{
	printf("| %s | %d | %+.0f%% |", what, n, 100.0 * shift);
	for (int f = 0; f < CF_COUNT; f++)
	{
		if (f == CF_FAILED)
			continue;
		if (t[f].told == 0)
			printf(" - (%.0f%%) |", 100.0 * share(t[f].cannot, t[f].trials));
		else if (shift == 0)
			printf(" %.1f / %.0f (%.0f%%) |", 100.0 * share(t[f].wrong_way, t[f].told),
				   100.0 * share(t[f].covered, t[f].told), 100.0 * share(t[f].cannot, t[f].trials));
		else
			printf(" %.0f / %.0f (%.0f%%) |", 100.0 * share(t[f].right_way, t[f].trials),
				   100.0 * share(t[f].covered, t[f].told), 100.0 * share(t[f].cannot, t[f].trials));
	}
	printf("\n");
}

static void
print_table(int trials)
{
	tally		t[CF_COUNT];

	printf("| process | intervals | shift | tps | latency average | p50 | p90 | p99 | max |\n");
	printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (int p = 0; p < P_COUNT; p++)
		for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
			for (size_t s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++)
			{
				run_cell((process) p, lengths[i], shifts[s], 1, trials, 1000 + 97 * p + 13 * i + s, t);
				print_row(process_name[p], lengths[i], shifts[s], t);
			}
	for (size_t s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++)
	{
		run_cell(P_AR5, 60, shifts[s], 5, trials, 7000 + s, t);
		print_row("5 v 5 runs, AR(1) 0.5", 60, shifts[s], t);
	}
}

/* ---- the assertions ------------------------------------------------------- */

/*
 * The simulation's own noise: two standard errors of a share near p
 * estimated from n trials.  The assertions allow it, so that a bound is
 * missed by the method, not by the draw.
 */
static double
slack(double p, int n)
{
	return n > 0 ? 2.0 * sqrt(p * (1.0 - p) / n) : 1.0;
}

/*
 * A/A: for every figure, false positives (better or worse) in at most 7%
 * of the trials; where a figure gets a verdict in a quarter of the trials
 * or more, also at most 7% of its verdicts, and its interval covering the
 * truth (no change) in 90-97% of them.
 */
static void
check_null(process p, int n, int nruns, int trials, uint64_t seed)
{
	tally		t[CF_COUNT];

	run_cell(p, n, 0.0, nruns, trials, seed, t);
	for (int f = 0; f < CF_COUNT; f++)
	{
		double		fp_all = share(t[f].wrong_way, t[f].trials),
					fp = share(t[f].wrong_way, t[f].told),
					cover = share(t[f].covered, t[f].told);
		const char *what = compare_figures[f].name;

		tap_ok(fp_all <= 0.07 + slack(0.07, t[f].trials),
			   "%s, %d intervals, %d run(s), %s: false positives in %.1f%% of %d trials (%d cannot tell)",
			   process_name[p], n, nruns, what, 100 * fp_all, t[f].trials, t[f].cannot);
		if (4 * t[f].told < t[f].trials)
			continue;
		tap_ok(fp <= 0.07 + slack(0.07, t[f].told),
			   "%s, %d intervals, %d run(s), %s: false positives %.1f%% of %d verdicts", process_name[p],
			   n, nruns, what, 100 * fp, t[f].told);
		tap_ok(cover >= 0.90 - slack(0.90, t[f].told) && cover <= 0.97 + slack(0.97, t[f].told),
			   "%s, %d intervals, %d run(s), %s: coverage %.1f%%", process_name[p], n, nruns, what,
			   100 * cover);
	}
}

static void
check_power(process p, int n, double shift, double want, int trials, uint64_t seed)
{
	tally		t[CF_COUNT];

	run_cell(p, n, shift, 1, trials, seed, t);
	tap_ok(share(t[CF_TPS].right_way, t[CF_TPS].trials) >= want,
		   "%s, %d intervals, tps %+.0f%%: power %.1f%% (at least %.0f%%)", process_name[p], n,
		   100 * shift, 100 * share(t[CF_TPS].right_way, t[CF_TPS].trials), 100 * want);
	tap_ok(share(t[CF_TPS].covered, t[CF_TPS].told) >= 0.90 - slack(0.90, t[CF_TPS].told) &&
		   share(t[CF_TPS].covered, t[CF_TPS].told) <= 0.97 + slack(0.97, t[CF_TPS].told),
		   "%s, %d intervals, tps %+.0f%%: coverage %.1f%%", process_name[p], n, 100 * shift,
		   100 * share(t[CF_TPS].covered, t[CF_TPS].told));
}

int
main(int argc, char **argv)
{
	if (argc == 6)
	{
		tally		t[CF_COUNT];

		/* one cell: PROCESS INTERVALS SHIFT RUNS TRIALS */
		run_cell((process) atoi(argv[1]), atoi(argv[2]), atof(argv[3]), atoi(argv[4]),
				 atoi(argv[5]), 99, t);
		print_row(process_name[atoi(argv[1])], atoi(argv[2]), atof(argv[3]), t);
		return 0;
	}
	if (argc > 1)
	{
		print_table(atoi(argv[1]));
		return 0;
	}
	for (int p = 0; p < P_COUNT; p++)
	{
		check_null((process) p, 30, 1, 300, 11 + p);
		check_null((process) p, 120, 1, 300, 21 + p);
		check_null((process) p, 600, 1, 150, 31 + p);
	}
	check_null(P_AR5, 60, 5, 200, 41);
	check_power(P_AR5, 120, -0.05, 0.80, 200, 51);
	check_power(P_IID, 600, -0.02, 0.60, 100, 52);
	check_power(P_AR5, 600, -0.02, 0.60, 100, 53);
	return tap_done();
}
