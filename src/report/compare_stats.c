/*
 * compare_stats.c — batch means, Welch's interval and Student's t
 * (compare_stats.h).
 */
#include <math.h>

#include "pgbench/report/compare_stats.h"

/*
 * The continued fraction of the incomplete beta function at x (modified
 * Lentz's method), valid for x < (a + 1) / (a + b + 2).
 */
static double
beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double		c = 1.0,
				d = 1.0 - (a + b) * x / (a + 1.0),
				h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 1000; m++)
	{
		double		m2 = 2.0 * m;
		double		even = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		double		odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		double		step;

		d = 1.0 + even * d;
		c = 1.0 + even / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		d = 1.0 + odd * d;
		c = 1.0 + odd / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		c = fabs(c) < tiny ? tiny : c;
		step = d * c;
		h *= step;
		if (fabs(step - 1.0) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double
incomplete_beta(double a, double b, double x)
{
	double		front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double
cmp_t_cdf(double t, double df)
{
	double		tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = 0.5 * incomplete_beta(0.5 * df, 0.5, df / (df + t * t));
	return t >= 0 ? 1.0 - tail : tail;
}

double
cmp_t_quantile(double p, double df)
{
	double		lo = 0.0,
				hi = 1.0;
	double		q = p < 0.5 ? 1.0 - p : p;

	if (!(p > 0.0 && p < 1.0) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	while (cmp_t_cdf(hi, df) < q && hi < 1e300)
		hi *= 2.0;
	/* bisection: the cdf is increasing; 200 halvings reach the double's precision */
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++)
	{
		double		mid = 0.5 * (lo + hi);

		if (cmp_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return p < 0.5 ? -0.5 * (lo + hi) : 0.5 * (lo + hi);
}

int
cmp_batch_count(int n)
{
	int			b;

	if (n < 4)
		return n;
	b = (int) floor(sqrt((double) n));
	while ((b + 1) * (b + 1) <= n)
		b++;
	while (b * b > n)
		b--;
	return b < 2 ? 2 : b;
}

void
cmp_summarize(const double *x, int n, cmp_summary *out)
{
	double		sum = 0.0,
				sq = 0.0;

	out->n = n;
	out->mean = 0.0;
	out->var = 0.0;
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / n;
	if (n < 2)
		return;
	for (int i = 0; i < n; i++)
		sq += (x[i] - out->mean) * (x[i] - out->mean);
	out->var = sq / (n - 1);
}

void
cmp_welch(const cmp_summary *base, const cmp_summary *new_side, double point_base,
		  double point_new, double level, cmp_interval *out)
{
	double		vb,
				vn,
				t;

	out->diff = point_new - point_base;
	out->valid = base->n >= 2 && new_side->n >= 2;
	out->lo = out->hi = out->diff;
	out->se = 0.0;
	out->df = 0.0;
	if (!out->valid)
		return;
	vb = base->var / base->n;
	vn = new_side->var / new_side->n;
	out->se = sqrt(vb + vn);
	if (out->se == 0.0)
		return;
	out->df = (vb + vn) * (vb + vn) /
		(vb * vb / (base->n - 1) + vn * vn / (new_side->n - 1));
	t = cmp_t_quantile(0.5 + 0.5 * level, out->df);
	out->lo = out->diff - t * out->se;
	out->hi = out->diff + t * out->se;
}
