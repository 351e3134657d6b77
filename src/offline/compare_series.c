/*
 * compare_series.c — each side's estimate of each figure, and the change
 * between two sides with its verdict (compare_int.h, doc/compare.md).
 *
 * One run per side: the run's whole intervals are a series; its lag-1
 * autocorrelation (of the residuals from a line) gives the batch length,
 * the batches' values give the mean and its variance, corrected for the
 * correlation left between neighbouring batches (compare_stats.h).
 * Repeated runs per side: the run is the unit, each run's own figure.
 * tps and the latencies are compared as logarithms (a change is a ratio:
 * its interval never reaches -100%), the failed share in percentage
 * points.  Where no method is calibrated the answer is "cannot tell",
 * with the reason.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "pgbench/base/xalloc.h"

#define CMP_LEVEL 0.95
/* the trend test's level: a run is "not settled" past it */
#define CMP_TREND_LEVEL 0.99

/* Whether figure f is compared as a ratio (on a log scale). */
static bool
ratio_figure(cmp_figure f)
{
	return f != CF_FAILED;
}

/* The latency (us) at percentile p of counts[], linearly within its bucket. */
static double
interpolated_percentile(const uint64_t *counts, uint64_t total, double p)
{
	double		rank = p / 100.0 * (double) total;
	uint64_t	seen = 0;

	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		if (counts[b] == 0)
			continue;
		if ((double) (seen + counts[b]) >= rank)
		{
			double		lo = (double) hist_layout_lowest(b, TIMELINE_SUB_BITS);
			double		width = (double) hist_layout_highest(b, TIMELINE_SUB_BITS) + 1.0 - lo;

			return lo + width * (rank - (double) seen) / (double) counts[b];
		}
		seen += counts[b];
	}
	return 0.0;
}

/*
 * The values that make a figure over one interval or a batch of them:
 * counts, time, latency sum, extremes and the coarse buckets.
 */
typedef struct span
{
	double		seconds;
	int64_t		cnt;
	int64_t		failed;
	double		latency_sum;
	int64_t		max_us;
	uint64_t	total;			/* bucketed successes */
	uint64_t	counts[TIMELINE_NBUCKETS];
	double		log_pct[3];		/* p50, p90, p99 of the points: their logs summed */
	int			npct[3];
	double		tps_divisor;	/* the run's (cmp_run) */
} span;

/* The figure of the points' percentile k (0: p50, 1: p90, 2: p99). */
#define PCT_INDEX(f) ((f) - CF_P50)

static void
span_add(span *s, const timeline_record *r)
{
	s->seconds += 0.000001 * (double) (r->end_us - r->start_us);
	s->cnt += r->delta.cnt;
	s->failed += stats_data_failures(&r->delta);
	s->latency_sum += r->delta.latency.sum;
	if (r->latency_max_us > s->max_us)
		s->max_us = r->latency_max_us;
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		s->counts[b] += r->buckets[b];
		s->total += r->buckets[b];
	}
	for (int k = 0; k < 3; k++)
		if (r->latency_pct_us[k] > 0)
		{
			s->log_pct[k] += log(r->latency_pct_us[k]);
			s->npct[k]++;
		}
}

/*
 * Figure f of span s in its unit; false when s has none.  fine: a
 * percentile is the geometric mean of its points' own (else it is read
 * off the span's coarse buckets).
 */
static bool
span_value(const span *s, cmp_figure f, bool fine, double *v)
{
	if (fine && f >= CF_P50 && f <= CF_P99)
	{
		*v = s->npct[PCT_INDEX(f)] > 0 ? 0.001 * exp(s->log_pct[PCT_INDEX(f)] / s->npct[PCT_INDEX(f)]) : 0.0;
		return s->npct[PCT_INDEX(f)] > 0;
	}
	switch (f)
	{
		case CF_TPS:
			*v = s->seconds > 0 ? (double) s->cnt / s->seconds / s->tps_divisor : 0.0;
			return s->seconds > 0;
		case CF_LATENCY_AVERAGE:
			*v = s->cnt > 0 ? 0.001 * s->latency_sum / (double) s->cnt : 0.0;
			return s->cnt > 0;
		case CF_P50:
		case CF_P90:
		case CF_P99:
			*v = 0.001 * interpolated_percentile(s->counts, s->total, compare_figures[f].percentile);
			return s->total > 0;
		case CF_MAX:
			*v = 0.001 * (double) s->max_us;
			return s->cnt > 0;
		case CF_FAILED:
			*v = s->cnt + s->failed > 0 ? 100.0 * (double) s->failed / (double) (s->cnt + s->failed) : 0.0;
			return s->cnt + s->failed > 0;
		case CF_COUNT:
			break;
	}
	return false;
}

/* v on f's scale: its logarithm for a ratio; false when not finite there. */
static bool
to_scale(cmp_figure f, double v, double *out)
{
	*out = ratio_figure(f) ? log(v) : v;
	return isfinite(*out);
}

/* The span of records [from, to) of run's series. */
static void
read_span(const cmp_run *run, int from, int to, span *s)
{
	timeline_record r;

	memset(s, 0, sizeof(*s));
	s->tps_divisor = run->tps_divisor;
	for (int i = from; i < to; i++)
		if (timeline_get(&run->acc.tl, i, &r))
			span_add(s, &r);
}

/*
 * Whether a point's own percentile at p (us) is where its coarse buckets
 * put that rank, give or take two buckets.
 */
static bool
point_percentile_fits(const span *s, double p, double us)
{
	double		rank = p / 100.0 * (double) s->total;
	uint64_t	seen = 0;

	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		seen += s->counts[b];
		if ((double) seen >= rank && s->counts[b] > 0)
		{
			int			lo = b > 1 ? b - 2 : 0,
						hi = b + 2 < TIMELINE_NBUCKETS ? b + 2 : TIMELINE_NBUCKETS - 1;

			return us >= (double) hist_layout_lowest(lo, TIMELINE_SUB_BITS) &&
				us <= (double) hist_layout_highest(hi, TIMELINE_SUB_BITS) + 1.0;
		}
	}
	return false;
}

/*
 * The per-interval values of every figure of run (its used intervals),
 * in their unit: x[f][0 .. nx[f] - 1], intervals without the figure left
 * out; fine[f]: a percentile's batches can be made of the points' own
 * percentiles (19 of 20 where their buckets put them, and enough
 * transactions in most intervals for it: 10 beyond its rank).
 */
static void
interval_values(const cmp_run *run, double **x, int *nx, bool *fine)
{
	span	   *s = pgb_malloc(sizeof(span));
	int			enough[3] = {0},
				misfit[3] = {0};

	for (int f = CF_P50; f <= CF_P99; f++)
		fine[f] = run->own_percentiles;
	for (int i = run->first; i < run->first + run->intervals; i++)
	{
		timeline_record r;

		memset(s, 0, sizeof(*s));
		s->tps_divisor = run->tps_divisor;
		if (!timeline_get(&run->acc.tl, i, &r))
			continue;
		span_add(s, &r);
		for (int f = CF_P50; f <= CF_P99; f++)
		{
			double		p = compare_figures[f].percentile;
			double		us = r.latency_pct_us[PCT_INDEX(f)];

			if (s->total == 0)
				continue;
			if (us <= 0)
				fine[f] = false;
			else
				misfit[PCT_INDEX(f)] += !point_percentile_fits(s, p, us);
			enough[PCT_INDEX(f)] += (double) s->total * (1.0 - p / 100.0) >= 10.0;
		}
		for (int f = 0; f < CF_COUNT; f++)
		{
			double		v;

			if (span_value(s, (cmp_figure) f, fine[f], &v))
				x[f][nx[f]++] = v;
		}
	}
	for (int f = CF_P50; f <= CF_P99; f++)
		fine[f] = fine[f] && 2 * enough[PCT_INDEX(f)] >= nx[f] && 20 * misfit[PCT_INDEX(f)] <= nx[f];
	free(s);
}

/*
 * The batch values of figure f (b batches of m intervals, the earliest
 * leftover intervals dropped) on its scale into y; false when a batch has
 * no value.
 */
static bool
batch_values(const cmp_run *run, cmp_figure f, bool fine, int m, int b, double *y)
{
	span	   *s = pgb_malloc(sizeof(span));
	int			from = run->first + run->intervals - m * b;
	bool		ok = true;

	for (int j = 0; j < b && ok; j++)
	{
		double		v;

		read_span(run, from + j * m, from + (j + 1) * m, s);
		ok = span_value(s, f, fine, &v) && to_scale(f, v, &y[j]);
	}
	free(s);
	return ok;
}

/*
 * Whether the batches' variance var (of b batches of m intervals) is more
 * than the AR(1) model of phi allows the intervals' variance xvar, at
 * CMP_TREND_LEVEL: the intervals are not a settled process (a level that
 * wanders, a correlation longer than AR(1)'s).
 */
static bool
wanders(double xvar, double phi, int m, int b, double var)
{
	return var > xvar * cmp_ar1_mean_var(phi, m) * cmp_chi2_quantile(CMP_TREND_LEVEL, b - 1) / (b - 1);
}

/*
 * The intervals a run of autocorrelation phi needs for an estimate: the
 * cautious effective samples and the batches enough (from n on, 10% a
 * step; INT32_MAX beyond a million).
 */
static int
intervals_needed(double phi, int n)
{
	for (int k = n > 10 ? n : 10; k < 1000000; k += k / 10)
	{
		double		c = cmp_phi_cautious(phi, k);

		if (k * (1.0 - c) / (1.0 + c) >= CMP_MIN_ESS &&
			k / cmp_batch_length(cmp_phi_upper(phi, k)) >= CMP_MIN_BATCHES)
			return k;
	}
	return INT32_MAX;
}

/*
 * The estimate of e->batches batches of e->batch_len intervals of run
 * (values y, on f's scale), the intervals' variance xvar: the mean, its
 * variance corrected for the correlation left at the cautious
 * autocorrelation, or why there is none (no spread, a level that wanders,
 * a trend).
 */
void
cmp_batches_estimate(const double *y, bool ratio, double phi, double cautious, double xvar,
					 cmp_estimate *e)
{
	int			m = e->batch_len,
				b = e->batches;
	double		slope,
				t,
				factor = cmp_ar1_batch_factor(cautious, m, b);
	cmp_summary sum;

	cmp_summarize(y, b, &sum);
	t = cmp_trend_t(y, b, &slope);
	e->mean = sum.mean;
	e->var = sum.var / b * factor;
	e->df = b - 1;
	if (sum.var <= 0.0)
		e->reason = CR_NO_SPREAD;
	else if (wanders(xvar, phi, m, b, sum.var))
	{
		e->reason = CR_FEW_SAMPLES;
		e->needed = INT32_MAX;
	}
	else if (b >= 4 && fabs(t) / sqrt(factor) > cmp_t_quantile(0.5 + 0.5 * CMP_TREND_LEVEL, b - 2))
	{
		e->reason = CR_NOT_SETTLED;
		e->trend = ratio ? expm1(slope * b) : slope * b;
	}
	else
		e->ok = isfinite(e->var);
	if (!e->ok && e->reason == CR_NONE)
		e->reason = CR_NOT_FINITE;
}

/*
 * The estimate of figure f from one run's batches, with phi the pair's
 * autocorrelation (pair_phi).
 */
static void
series_estimate(const cmp_run *run, cmp_figure f, const double *x, int nx, double phi, bool fine,
				cmp_estimate *e)
{
	double		cautious = cmp_phi_cautious(phi, nx);
	double	   *y;
	cmp_summary level;
	int			m,
				b;
	bool		planned;

	e->n = run->intervals;
	/*
	 * a percentile: the points' own are read off a fine histogram (1/128);
	 * coarse buckets hide a change within half a bucket
	 */
	if (f >= CF_P50 && f <= CF_P99)
		e->resolution = fine ? log1p(1.0 / (double) (1 << HIST_SUB_BITS))
			: log1p(1.0 / (double) (1 << (TIMELINE_SUB_BITS + 1)));
	if (f == CF_MAX)
	{
		e->reason = CR_MAX_ONE_RUN;
		return;
	}
	y = pgb_malloc(((size_t) nx + 1) * sizeof(double));
	b = 0;
	for (int i = 0; i < nx; i++)
		b += to_scale(f, x[i], &y[b]);
	cmp_summarize(y, b, &level);
	e->level_n = level.n;
	e->level_sd = sqrt(level.var);
	if (b > 0)
		cmp_median_spread(y, b, &e->level_median, &e->level_spread);
	planned = cmp_plan_batches(nx, run->intervals, phi, e);
	if (level.n >= 2 && level.var <= 0.0)
	{
		/*
		 * every interval the same: no noise to measure, whatever the
		 * length (a percentile's may all be in one bucket: judge_bound)
		 */
		e->phi = phi;
		e->reason = CR_NO_SPREAD;
		e->needed = 0;
		planned = false;
	}
	if (!planned)
	{
		free(y);
		return;
	}
	m = e->batch_len;
	b = e->batches;
	if (!batch_values(run, f, fine, m, b, y))
		e->reason = CR_EMPTY_BATCH;
	else
		cmp_batches_estimate(y, ratio_figure(f), phi, cautious, level.var, e);
	free(y);
	/*
	 * Points' own percentiles that spread over several buckets average
	 * to a mean finer than one (the spread dithers the buckets' edges):
	 * the resolution is then no limit.
	 */
	if (fine && e->level_sd >= 2.0 * e->resolution)
		e->resolution = 0.0;
}

bool
cmp_plan_batches(int nx, int intervals, double phi, cmp_estimate *e)
{
	double		cautious = cmp_phi_cautious(phi, nx);
	int			m = cmp_batch_length(cmp_phi_upper(phi, nx));

	e->phi = phi;
	/*
	 * Batches of a few intervals even when they look independent: the
	 * correction for what correlation is left depends on phi the least
	 * then (an i.i.d. run's phi, estimated a little above 0, would
	 * otherwise widen its interval for nothing)
	 */
	if (m < CMP_MIN_BATCH_LEN && intervals / CMP_MIN_BATCH_LEN >= 2 * CMP_MIN_BATCHES)
		m = CMP_MIN_BATCH_LEN;
	e->batch_len = m;
	e->batches = intervals / m;
	e->ess = nx * (1.0 - phi) / (1.0 + phi);
	if (nx < CMP_MIN_INTERVALS || e->batches < CMP_MIN_BATCHES ||
		nx * (1.0 - cautious) / (1.0 + cautious) < CMP_MIN_ESS)
	{
		/* below CMP_MIN_INTERVALS phi means nothing: what independent ones need */
		e->phi = nx < CMP_MIN_INTERVALS ? NAN : phi;
		e->reason = CR_FEW_SAMPLES;
		e->needed = intervals_needed(nx < CMP_MIN_INTERVALS ? 0.0 : phi, nx);
		return false;
	}
	return true;
}

void
cmp_runs_estimate(const double *y, int n, int nruns, bool ratio, cmp_estimate *e)
{
	cmp_summary sum;

	e->runs = true;
	e->batches = e->n = nruns;
	cmp_summarize(y, n, &sum);
	e->mean = sum.mean;
	e->var = n > 0 ? sum.var / n : 0.0;
	e->df = n - 1;
	e->spread = ratio ? expm1(sqrt(sum.var)) : sqrt(sum.var);
	e->ess = n;
	if (n < nruns)
		e->reason = CR_EMPTY_BATCH;
	else if (n < CMP_MIN_RUNS)
	{
		e->reason = CR_FEW_RUNS;
		e->needed = CMP_MIN_RUNS;
	}
	else if (sum.var <= 0.0)
		e->reason = CR_NO_SPREAD;
	else
		e->ok = true;
}

/* The estimate of figure f from the runs of side, each run's own figure. */
static void
runs_estimate(const cmp_side *side, cmp_figure f, cmp_estimate *e)
{
	double	   *y = pgb_malloc((size_t) side->nruns * sizeof(double));
	int			n = 0;

	for (int k = 0; k < side->nruns; k++)
		if (side->runs[k].has_point[f] && to_scale(f, side->runs[k].point[f], &y[n]))
			n++;
	cmp_runs_estimate(y, n, side->nruns, ratio_figure(f), e);
	free(y);
	/* a run's percentile is read off its fine histogram (1/128) */
	if (f >= CF_P50 && f <= CF_P99)
		e->resolution = log1p(1.0 / (double) (1 << HIST_SUB_BITS));
}

void
compare_side_series(cmp_side *side)
{
	if (side->nruns > 1)
		return;
	for (int f = 0; f < CF_COUNT; f++)
	{
		side->series[f] = pgb_malloc(((size_t) side->runs[0].intervals + 1) * sizeof(double));
		side->nseries[f] = 0;
	}
	interval_values(&side->runs[0], side->series, side->nseries, side->fine);
	for (int f = 0; f < CF_COUNT; f++)
		side->phi[f] = cmp_phi_estimate(side->series[f], side->nseries[f]);
}

/*
 * The estimate of figure f on side, phi the pair's and fine whether both
 * sides' percentiles come from their points' own (one run per side).
 */
static void
side_estimate(const cmp_side *side, cmp_figure f, double phi, bool fine, cmp_estimate *e)
{
	memset(e, 0, sizeof(*e));
	if (side->nruns > 1)
		runs_estimate(side, f, e);
	else
		series_estimate(&side->runs[0], f, side->series[f], side->nseries[f], phi, fine, e);
}

/* The change when the interval is known: the verdict from it. */
static void
judge(const cmp_estimate *a, const cmp_estimate *b, bool ratio, bool higher_is_better,
	  cmp_change *out)
{
	double		se = sqrt(a->var + b->var),
				diff = b->mean - a->mean,
				df,
				t,
				res = a->resolution > b->resolution ? a->resolution : b->resolution;

	df = cmp_welch_df(a->var, a->df, b->var, b->df);
	t = cmp_t_quantile(0.5 + 0.5 * CMP_LEVEL, df);
	out->df = df;
	out->change = ratio ? expm1(diff) : diff;
	out->lo = ratio ? expm1(diff - t * se) : diff - t * se;
	out->hi = ratio ? expm1(diff + t * se) : diff + t * se;
	out->has_interval = isfinite(out->lo) && isfinite(out->hi) && out->hi > out->lo;
	if (!out->has_interval)
	{
		out->verdict = CV_CANNOT_TELL;
		out->reason = CR_NOT_FINITE;
	}
	else if (out->lo <= 0.0 && out->hi >= 0.0)
		out->verdict = CV_SAME;
	else if (fabs(diff) <= res)
	{
		out->verdict = CV_CANNOT_TELL;
		out->reason = CR_RESOLUTION;
	}
	else
		out->verdict = (out->lo > 0.0) == higher_is_better ? CV_BETTER : CV_WORSE;
}

/*
 * The intervals' robust spread of e, at the upper end of a standard
 * deviation's one-sided 95% interval (a few intervals can show a spread
 * much smaller than theirs), and at least the resolution (values read off
 * a histogram can all fall in one bucket).
 */
static double
sd_upper(const cmp_estimate *e)
{
	double		df = e->level_n - 1,
				sd = e->level_spread > e->resolution ? e->level_spread : e->resolution;

	return sd * sqrt(df / cmp_chi2_quantile(0.05, df));
}

/*
 * The autocorrelation both sides' estimates of figure f use: the higher
 * of the two runs' (a short run's estimate is noisy, and low just when
 * its batches vary least); for a percentile, the latency average's too
 * when higher: the run's slow changes move every latency figure, and a
 * percentile's own intervals are noisier (fewer transactions say what it
 * is), which hides how slowly it moves.
 */
static double
pair_phi(const cmp_side *base, const cmp_side *other, cmp_figure f)
{
	double		phi = base->phi[f] > other->phi[f] ? base->phi[f] : other->phi[f];

	if (f >= CF_P50 && f <= CF_P99)
	{
		double		avg = pair_phi(base, other, CF_LATENCY_AVERAGE);

		phi = avg > phi ? avg : phi;
	}
	return phi;
}

/*
 * A change beyond any noise the runs show: when an estimate is missing
 * for want of samples or because a run is not settled, a change of the
 * intervals' median larger than CMP_BOUND_SDS times their spread (and
 * than the resolution) is still told, with that bound as its interval.
 * The spread is robust (a few seconds of a loaded machine, ten times
 * slower than the rest, do not hide a hundredfold change) and taken at
 * the upper end of its 95% interval (sd_upper).  Whatever the
 * correlation, even a random walk's, two runs differ by about twice the
 * spread within one (doc/compare.md): four times, with each spread at
 * its 95% upper bound, is more than 2.8 standard deviations of that
 * difference at the very worst.
 */
static bool
judge_bound(const cmp_estimate *a, const cmp_estimate *b, bool ratio, bool higher_is_better,
			double sds, cmp_change *out)
{
	double		diff = b->level_median - a->level_median,
				res = a->resolution > b->resolution ? a->resolution : b->resolution,
				bound;

	/* no spread on a side (but the resolution's): no noise measured, no bound */
	if (a->level_n < 3 || b->level_n < 3 || !(sd_upper(a) > 0.0) || !(sd_upper(b) > 0.0))
		return false;
	bound = sds * sqrt(sd_upper(a) * sd_upper(a) + sd_upper(b) * sd_upper(b)) + res;
	if (!isfinite(diff) || !(fabs(diff) > bound))
		return false;
	out->bound = true;
	out->change = ratio ? expm1(diff) : diff;
	out->lo = ratio ? expm1(diff - bound) : diff - bound;
	out->hi = ratio ? expm1(diff + bound) : diff + bound;
	out->has_interval = true;
	out->df = NAN;
	out->verdict = (diff > 0.0) == higher_is_better ? CV_BETTER : CV_WORSE;
	return true;
}

void
compare_change(const cmp_side *base, const cmp_side *other, cmp_figure f, cmp_change *out)
{
	double		phi = pair_phi(base, other, f);

	memset(out, 0, sizeof(*out));
	if (!base->has_point[f] || !other->has_point[f])
		return;
	side_estimate(base, f, phi, base->fine[f] && other->fine[f], &out->base);
	side_estimate(other, f, phi, base->fine[f] && other->fine[f], &out->new);
	/* the figures' own change, until an interval says otherwise */
	out->change = f == CF_FAILED ? other->point[f] - base->point[f]
		: base->point[f] != 0.0 ? other->point[f] / base->point[f] - 1.0 : NAN;
	if (f == CF_FAILED && base->point[f] == 0.0 && other->point[f] == 0.0)
	{
		out->verdict = CV_CANNOT_TELL;
		out->reason = CR_NO_FAILURES;
	}
	else
		cmp_judge_estimates(out, ratio_figure(f), compare_figures[f].higher_is_better, CMP_BOUND_SDS);
}

void
cmp_judge_estimates(cmp_change *out, bool ratio, bool higher_is_better, double bound_sds)
{
	const cmp_estimate *a = &out->base,
			   *b = &out->new;

	out->verdict = CV_CANNOT_TELL;
	if (a->runs != b->runs)
		out->reason = CR_RUNS_ONE_SIDE;
	else if (!a->ok || !b->ok)
	{
		const cmp_estimate *why = !a->ok ? a : b;

		if ((why->reason == CR_FEW_SAMPLES || why->reason == CR_NOT_SETTLED ||
			 why->reason == CR_NO_SPREAD || why->reason == CR_SPARSE) &&
			judge_bound(a, b, ratio, higher_is_better, bound_sds, out))
			return;
		out->reason = why->reason;
		out->reason_side = !a->ok ? "base" : "new";
	}
	else
		judge(a, b, ratio, higher_is_better, out);
}
