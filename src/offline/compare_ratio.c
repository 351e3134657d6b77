/*
 * compare_ratio.c — the change of an evidence per transaction between two
 * runs, told as --compare tells its figures (compare_series.c): an
 * evidence's amount in each interval (blocks read, milliseconds in a wait)
 * over the interval's transactions is a series; batches of it, as long as
 * its autocorrelation needs, give a mean and its variance, Welch's
 * interval gives the change; a run too short or not settled is told only
 * when the change of the intervals' medians is beyond three robust spreads
 * (cmp_judge_estimates, CMP_EVIDENCE_BOUND_SDS), or when it is absent from
 * every interval of one run and present in the other's (judge_presence).
 * The values are compared as logarithms when every interval of both runs
 * has some (the noise of an amount per transaction is a share of it),
 * else on their own scale: an evidence is often 0 in every interval.
 *
 * A batch's value is its amount over its transactions (a ratio of sums,
 * not a mean of ratios): an interval of few transactions weighs less.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/xalloc.h"

/*
 * The bound on an evidence's intervals' medians, in their robust spreads
 * (the figures' is CMP_BOUND_SDS); a variable so that the calibration
 * can try others.
 */
double		cmp_evidence_bound_sds = CMP_EVIDENCE_BOUND_SDS;

/* the fewest intervals on each side that tell an evidence absent from present */
#define CMP_PRESENCE_MIN 5

/* The intervals with transactions: their values (amount / transactions). */
static int
ratio_values(const cmp_ratio_series *s, double *x, double *quantum)
{
	int			n = 0;

	for (int i = 0; i < s->n; i++)
		if (s->den[i] > 0.0 && isfinite(s->num[i]))
		{
			quantum[n] = s->quantum / s->den[i];
			x[n++] = s->num[i] / s->den[i];
		}
	return n;
}

/* Whether x[0 .. n - 1] are all above 0 (and there are some). */
static bool
all_positive(const double *x, int n)
{
	for (int i = 0; i < n; i++)
		if (!(x[i] > 0.0))
			return false;
	return n > 0;
}

/* The values and their quanta on a log scale. */
static void
to_log(double *x, double *quantum, int n)
{
	for (int i = 0; i < n; i++)
	{
		quantum[i] = log1p(quantum[i] / x[i]);
		x[i] = log(x[i]);
	}
}

/*
 * The values of b batches of m intervals (with transactions), the
 * earliest leftovers dropped, into y (lg: their logarithms).
 */
static void
ratio_batches(const cmp_ratio_series *s, int m, int b, bool lg, double *y)
{
	int			skip = 0,
				used = 0,
				with = 0;
	double		num = 0.0,
				den = 0.0;

	for (int i = 0; i < s->n; i++)
		with += s->den[i] > 0.0 && isfinite(s->num[i]);
	skip = with - m * b;
	for (int i = 0, k = 0; i < s->n; i++)
	{
		if (!(s->den[i] > 0.0 && isfinite(s->num[i])) || k++ < skip)
			continue;
		num += s->num[i];
		den += s->den[i];
		if (++used % m == 0)
		{
			y[used / m - 1] = lg ? log(num / den) : num / den;
			num = den = 0.0;
		}
	}
}

/* How many of x[0 .. n - 1] are 0. */
static int
zeros(const double *x, int n)
{
	int			z = 0;

	for (int i = 0; i < n; i++)
		z += x[i] == 0.0;
	return z;
}

/* One run's estimate of the evidence s, at the pair's autocorrelation phi. */
static void
ratio_estimate(const cmp_ratio_series *s, const double *x, const double *quantum, int nx,
			   double phi, bool lg, cmp_estimate *e)
{
	double	   *tmp = pgb_malloc(((size_t) nx + 1) * sizeof(double));
	cmp_summary level;
	double		spread;
	bool		planned;

	memset(e, 0, sizeof(*e));
	e->n = s->n;
	cmp_summarize(x, nx, &level);
	e->level_n = level.n;
	e->level_sd = sqrt(level.var);
	memcpy(tmp, quantum, (size_t) nx * sizeof(double));
	if (nx > 0)
		cmp_median_spread(tmp, nx, &e->resolution, &spread);
	memcpy(tmp, x, (size_t) nx * sizeof(double));
	if (nx > 0)
		cmp_median_spread(tmp, nx, &e->level_median, &e->level_spread);
	planned = cmp_plan_batches(nx, nx, phi, e);
	if (nx >= 2 && level.var <= 0.0)
	{
		e->reason = CR_NO_SPREAD;
		e->needed = 0;
		planned = false;
	}
	else if (planned && 2 * zeros(x, nx) >= nx)
	{
		/*
		 * bursts (a checkpoint's writes) in a few intervals: their batch
		 * means are far from normal, and a slow change of how often they
		 * come is not seen as a trend
		 */
		e->reason = CR_SPARSE;
		planned = false;
	}
	if (planned)
	{
		ratio_batches(s, e->batch_len, e->batches, lg, tmp);
		cmp_batches_estimate(tmp, lg, phi, cmp_phi_cautious(phi, nx), level.var, e);
	}
	free(tmp);
}

/*
 * An evidence absent from one run and present in the other: 0 in nine of
 * ten intervals of one run (za of them, at least CMP_PRESENCE_MIN), the
 * few others below every interval of the other run but a tenth, and above
 * 0 in nine of ten of the other's (x, nx).  A change no noise makes,
 * whatever the runs' correlation: a rate that gives an interval the event
 * half the time leaves ten intervals of twelve without it once in three
 * hundred runs, and fills eleven of the other's twelve as rarely.  Its
 * interval: the present side's 10th to 90th percentile of its intervals.
 * false when it is not that.
 */
static bool
judge_presence(const double *zero, int nz, double *x, int nx, bool gone, double change,
			   cmp_change *out)
{
	int			present = 0,
				strays = 0;
	double		lo,
				hi,
				stray = 0.0;

	if (nz < CMP_PRESENCE_MIN || nx < CMP_PRESENCE_MIN)
		return false;
	for (int i = 0; i < nz; i++)
		if (zero[i] != 0.0)
		{
			strays++;
			stray = fmax(stray, fabs(zero[i]));
		}
	if (10 * strays > nz)
		return false;
	for (int i = 0; i < nx; i++)
		present += x[i] > 0.0;
	if (10 * present < 9 * nx)
		return false;
	lo = cmp_quantile(x, nx, 0.1);
	hi = cmp_quantile(x, nx, 0.9);
	if (!(lo > 0.0) || !(hi > lo) || !(stray < lo))
		return false;
	out->bound = true;
	out->has_interval = true;
	out->df = NAN;
	out->change = change;
	out->lo = gone ? -hi : lo;
	out->hi = gone ? -lo : hi;
	out->verdict = gone ? CV_BETTER : CV_WORSE;
	out->reason = CR_NONE;
	out->reason_side = NULL;
	return true;
}

/*
 * The change from one run to another.  Values above 0 in every interval
 * of both runs are compared as logarithms (an evidence's noise is mostly
 * a share of it: a wait's time per transaction moves with the
 * transactions), the interval then converted back to the unit; an
 * evidence at 0 anywhere on its own scale.
 */
static void
series_change(const cmp_ratio_side *a, const cmp_ratio_side *b, cmp_change *out)
{
	size_t		cap = (size_t) (a->series.n > b->series.n ? a->series.n : b->series.n) + 1;
	double	   *xa = pgb_malloc(cap * sizeof(double)),
			   *xb = pgb_malloc(cap * sizeof(double)),
			   *qa = pgb_malloc(cap * sizeof(double)),
			   *qb = pgb_malloc(cap * sizeof(double));
	int			na = ratio_values(&a->series, xa, qa),
				nb = ratio_values(&b->series, xb, qb);
	bool		lg = all_positive(xa, na) && all_positive(xb, nb) && a->level > 0.0;
	double		pa,
				pb,
				phi;

	if (lg)
	{
		to_log(xa, qa, na);
		to_log(xb, qb, nb);
	}
	pa = cmp_phi_estimate(xa, na);
	pb = cmp_phi_estimate(xb, nb);
	/* both sides at the higher autocorrelation, as the figures */
	phi = pa > pb ? pa : pb;
	if (!isfinite(phi))
		phi = isfinite(pa) ? pa : isfinite(pb) ? pb : 0.0;
	ratio_estimate(&a->series, xa, qa, na, phi, lg, &out->base);
	ratio_estimate(&b->series, xb, qb, nb, phi, lg, &out->new);
	out->change = b->level - a->level;
	/* less of an evidence is better: fewer reads, shorter waits */
	cmp_judge_estimates(out, lg, false, cmp_evidence_bound_sds);
	if (lg && out->has_interval)
	{
		/* a ratio: in the unit, from the base's level */
		out->change *= a->level;
		out->lo *= a->level;
		out->hi *= a->level;
	}
	else if (!lg && out->verdict == CV_CANNOT_TELL &&
			 !judge_presence(xa, na, xb, nb, false, b->level - a->level, out))
		(void) judge_presence(xb, nb, xa, na, true, b->level - a->level, out);
	free(xa);
	free(xb);
	free(qa);
	free(qb);
}

void
cmp_ratio_change(const cmp_ratio_side *a, const cmp_ratio_side *b, cmp_change *out)
{
	memset(out, 0, sizeof(*out));
	if (a->nruns <= 1 && b->nruns <= 1)
	{
		series_change(a, b, out);
		return;
	}
	/* a side of one run has its level only (runs on one side: cannot tell) */
	cmp_runs_estimate(a->nruns > 1 ? a->run_level : &a->level, a->nruns, a->nruns, false, &out->base);
	cmp_runs_estimate(b->nruns > 1 ? b->run_level : &b->level, b->nruns, b->nruns, false, &out->new);
	out->change = b->level - a->level;
	cmp_judge_estimates(out, false, false, cmp_evidence_bound_sds);
}

double
cmp_ratio_noise(const cmp_change *c)
{
	if (!c->has_interval || !(c->hi > c->lo) ||
		(c->verdict != CV_BETTER && c->verdict != CV_WORSE))
		return 0.0;
	return fabs(c->lo + c->hi) / (c->hi - c->lo);
}
