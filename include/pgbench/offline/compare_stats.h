/*
 * compare_stats.h — the statistics of --compare (doc/compare.md): Student
 * t and chi-square quantiles, summaries and Welch's degrees of freedom,
 * and the autocorrelation of a run's intervals with what batch means
 * need of it.
 *
 * Consecutive intervals of a benchmark are correlated (a checkpoint, a
 * vacuum, the cache warming up last several seconds), so the intervals
 * are not independent samples.  Batch means group them into batches long
 * enough to be close to independent; the spread of those values, not of
 * the intervals, gives the standard error.  Pure functions: no I/O, no
 * allocation, thread-safe.
 */
#ifndef PGBENCH_COMPARE_STATS_H
#define PGBENCH_COMPARE_STATS_H

#include <stdbool.h>

/* The batch values of one figure on one side. */
typedef struct cmp_summary
{
	int			n;				/* batches */
	double		mean;			/* their mean */
	double		var;			/* their sample variance (n - 1); 0 when n < 2 */
} cmp_summary;

/*
 * The Student t distribution's quantile: the t with P(T <= t) = p, for
 * p in (0, 1) and df > 0 (not necessarily an integer).  NAN outside.
 */
double		cmp_t_quantile(double p, double df);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double		cmp_t_cdf(double t, double df);

/* The mean and sample variance of x[0 .. n - 1] into *out. */
void		cmp_summarize(const double *x, int n, cmp_summary *out);

/*
 * The median of x[0 .. n - 1] and its median absolute deviation times
 * 1.4826 (the standard deviation of a normal sample, but deaf to a few
 * outliers), n > 0; x is sorted in place.
 */
void		cmp_median_spread(double *x, int n, double *median, double *spread);

/* The median of x[0 .. n - 1] (sorted in place); NAN when n is 0. */
double		cmp_median(double *x, int n);

/* The q-quantile of x[0 .. n - 1] (sorted in place), the nearest rank; NAN when n is 0. */
double		cmp_quantile(double *x, int n, double q);

/*
 * Welch-Satterthwaite's degrees of freedom of the sum of two variances
 * of means, va and vb, estimated with dfa and dfb degrees of freedom;
 * NAN when both are 0.
 */
double		cmp_welch_df(double va, double dfa, double vb, double dfb);

/* ---- autocorrelation (one run's intervals) --------------------------------
 *
 * A run's intervals are modelled as a first-order autoregressive process
 * (AR(1): each interval's deviation is phi times the previous one's plus
 * fresh noise) around a level, possibly with a linear trend.  phi is
 * estimated from the residuals of a least-squares line; the batch length
 * is chosen from it so that neighbouring batches are nearly independent,
 * and the variance of the mean is corrected for what correlation is left
 * (doc/compare.md, "How the interval is computed").
 */

/*
 * The autocorrelations r[1 .. lags] of x[0 .. n - 1]'s residuals from
 * their least-squares line; false (all NAN) when n < 4, lags >= n or the
 * residuals have no spread.
 */
bool		cmp_autocorr_detrended(const double *x, int n, double *r, int lags);

/* The lags the decay rate of the autocorrelation is fitted over. */
#define CMP_DECAY_LAGS 3

/*
 * phi of x[0 .. n - 1]: cmp_phi_unbiased of the lag-1 autocorrelation,
 * or when r1 is clearly there and it is slower, the rate the
 * autocorrelation decays at (r[k + 1] / r[k], fitted over the first
 * CMP_DECAY_LAGS lags): an AR(1) process seen through noise, a count's
 * own noise over a slower wander.  CMP_PHI_MAX without spread.
 */
double		cmp_phi_estimate(const double *x, int n);

/*
 * phi from a lag-1 autocorrelation r of n detrended values, its
 * downward bias removed (about (2 + 4 phi) / n for a line fitted first),
 * clamped into [0, CMP_PHI_MAX].
 */
#define CMP_PHI_MAX 0.995
double		cmp_phi_unbiased(double r, int n);

/* phi plus one standard error of its estimate from n values. */
double		cmp_phi_upper(double phi, int n);

/*
 * phi plus z standard errors, z from 3 for 30 values or fewer down to 1
 * for 270 or more (3 * sqrt(30 / n)): what the variance of the mean is
 * corrected with, and the effective samples counted with.  A short run's autocorrelation is too uncertain to
 * trust its estimate (and a short run whose estimate is low is just
 * the one whose batches vary least).
 */
double		cmp_phi_cautious(double phi, int n);

/*
 * The variance of the mean of m consecutive values of an AR(1) process of
 * unit variance.
 */
double		cmp_ar1_mean_var(double phi, int m);

/* The correlation of two neighbouring means of m values each, AR(1) phi. */
double		cmp_ar1_batch_corr(double phi, int m);

/*
 * How much the variance of the mean of b batches of m values is larger
 * than the batch variance over b says, when the values are AR(1) with
 * phi: 1 for independent values, more when neighbouring batches are
 * still correlated.
 */
double		cmp_ar1_batch_factor(double phi, int m, int b);

/*
 * The batch length for n values of AR(1) phi: the shortest with a
 * neighbouring batches' correlation at most CMP_BATCH_CORR.
 */
#define CMP_BATCH_CORR 0.15
int			cmp_batch_length(double phi);

/*
 * The least-squares slope of y[0 .. n - 1] against 0 .. n - 1 and its t
 * statistic (0 when n < 3 or without spread).
 */
double		cmp_trend_t(const double *y, int n, double *slope);

/* P(X <= x) for the chi-square distribution with k > 0 degrees of freedom. */
double		cmp_chi2_cdf(double x, double k);

/*
 * The chi-square distribution's quantile: the x with P(X <= x) = p, for
 * p in (0, 1) and k > 0 degrees of freedom.  NAN outside.
 */
double		cmp_chi2_quantile(double p, double k);

#endif
