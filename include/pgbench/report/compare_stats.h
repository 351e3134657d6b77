/*
 * compare_stats.h — the statistics of --compare (doc/compare.md): a
 * figure's change between two sides with a confidence interval from
 * batch means, and the Student t quantiles it needs.
 *
 * Consecutive intervals of a benchmark are correlated (a checkpoint, a
 * vacuum, the cache warming up last several seconds), so the intervals
 * are not independent samples.  Batch means group them into a few long
 * batches whose values are close to independent; the spread of those
 * values, not of the intervals, gives the standard error.  Pure
 * functions: no I/O, no allocation, thread-safe.
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

/* The change of a figure, new minus base, and its interval. */
typedef struct cmp_interval
{
	bool		valid;			/* both sides have 2 batches or more */
	double		diff;			/* point_new - point_base */
	double		lo;				/* the interval: diff -/+ t * se */
	double		hi;
	double		se;				/* standard error of diff */
	double		df;				/* Welch-Satterthwaite degrees of freedom */
} cmp_interval;

/*
 * The Student t distribution's quantile: the t with P(T <= t) = p, for
 * p in (0, 1) and df > 0 (not necessarily an integer).  NAN outside.
 */
double		cmp_t_quantile(double p, double df);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double		cmp_t_cdf(double t, double df);

/*
 * How many batches n consecutive intervals make: floor(sqrt(n)) (batches
 * as long as they are many, so both grow with the run), at least 2 when
 * n >= 4, n itself below that.
 */
int			cmp_batch_count(int n);

/* The mean and sample variance of x[0 .. n - 1] into *out. */
void		cmp_summarize(const double *x, int n, cmp_summary *out);

/*
 * The change point_new - point_base with a two-sided interval at level
 * (0.95: 95%), its standard error from the two sides' batch variances
 * (Welch: unequal variances and batch counts).  Not valid when a side
 * has fewer than 2 batches; an interval of width 0 when both variances
 * are 0.
 */
void		cmp_welch(const cmp_summary *base, const cmp_summary *new_side, double point_base,
					  double point_new, double level, cmp_interval *out);

#endif
