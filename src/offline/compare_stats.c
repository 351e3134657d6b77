/*
 * compare_stats.c — batch means, Welch's interval and Student's t
 * (compare_stats.h).
 */
#include <math.h>
#include <stdlib.h>

#include "pgbench/offline/compare_stats.h"

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

/*
 * The x >= 0 with cdf(x, k) = q, for a cdf increasing on [0, inf) from
 * at most q: by bisection from [0, hi], hi doubled until it is past q;
 * 200 halvings reach the double's precision.
 */
static double
invert_cdf(double (*cdf) (double, double), double q, double k, double hi)
{
	double		lo = 0.0;

	while (cdf(hi, k) < q && hi < 1e300)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++)
	{
		double		mid = 0.5 * (lo + hi);

		if (cdf(mid, k) < q)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double
cmp_t_quantile(double p, double df)
{
	double		t;

	if (!(p > 0.0 && p < 1.0) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	t = invert_cdf(cmp_t_cdf, p < 0.5 ? 1.0 - p : p, df, 1.0);
	return p < 0.5 ? -t : t;
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

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The median of sorted x[0 .. n - 1]. */
static double
sorted_median(const double *x, int n)
{
	return n % 2 == 1 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double
cmp_median(double *x, int n)
{
	if (n <= 0)
		return NAN;
	qsort(x, (size_t) n, sizeof(double), cmp_double);
	return sorted_median(x, n);
}

double
cmp_quantile(double *x, int n, double q)
{
	int			k;

	if (n <= 0)
		return NAN;
	qsort(x, (size_t) n, sizeof(double), cmp_double);
	k = (int) floor(q * (n - 1) + 0.5);
	return x[k < 0 ? 0 : k >= n ? n - 1 : k];
}

void
cmp_median_spread(double *x, int n, double *median, double *spread)
{
	qsort(x, (size_t) n, sizeof(double), cmp_double);
	*median = sorted_median(x, n);
	for (int i = 0; i < n; i++)
		x[i] = fabs(x[i] - *median);
	qsort(x, (size_t) n, sizeof(double), cmp_double);
	*spread = 1.482602218505602 * sorted_median(x, n);
}

double
cmp_welch_df(double va, double dfa, double vb, double dfb)
{
	if (!(va + vb > 0.0))
		return NAN;
	return (va + vb) * (va + vb) / (va * va / dfa + vb * vb / dfb);
}

/* ---- autocorrelation ------------------------------------------------------ */

bool
cmp_autocorr_detrended(const double *x, int n, double *r, int lags)
{
	double		mx = 0.5 * (n - 1),
				my = 0.0,
				sxy = 0.0,
				sxx = 0.0,
				slope,
				den = 0.0;

	for (int k = 1; k <= lags; k++)
		r[k] = NAN;
	if (n < 4 || lags >= n)
		return false;
	for (int i = 0; i < n; i++)
		my += x[i] / n;
	for (int i = 0; i < n; i++)
	{
		sxy += (i - mx) * (x[i] - my);
		sxx += (i - mx) * (i - mx);
	}
	slope = sxy / sxx;
	/* the residual of i, computed again where needed (no copy of x) */
#define RESIDUAL(i) (x[i] - my - slope * ((i) - mx))
	for (int i = 0; i < n; i++)
		den += RESIDUAL(i) * RESIDUAL(i);
	if (!(den > 0.0))
		return false;
	for (int k = 1; k <= lags; k++)
	{
		double		num = 0.0;

		for (int i = k; i < n; i++)
			num += RESIDUAL(i) * RESIDUAL(i - k);
		r[k] = num / den;
	}
#undef RESIDUAL
	return true;
}

double
cmp_phi_estimate(const double *x, int n)
{
	double		r[CMP_DECAY_LAGS + 2],
				phi,
				num = 0.0,
				den = 0.0;

	if (!cmp_autocorr_detrended(x, n, r, n > CMP_DECAY_LAGS + 1 ? CMP_DECAY_LAGS + 1 : 1))
		return CMP_PHI_MAX;
	phi = cmp_phi_unbiased(r[1], n);
	if (n <= CMP_DECAY_LAGS + 1 || !(r[1] > 2.0 / sqrt((double) n)))
		return phi;
	/*
	 * Noise on top of an AR(1) process (a count's own noise over a
	 * slower wander) lowers r1 but not the rate its correlation decays
	 * at: r[k + 1] = phi r[k], fitted by least squares over the first
	 * lags; the slower of the two.
	 */
	for (int k = 1; k <= CMP_DECAY_LAGS; k++)
	{
		num += r[k + 1] * r[k];
		den += r[k] * r[k];
	}
	if (den > 0.0 && num / den > phi)
		phi = num / den > CMP_PHI_MAX ? CMP_PHI_MAX : num / den;
	return phi;
}

double
cmp_phi_unbiased(double r, int n)
{
	double		phi;

	if (isnan(r) || n < 4)
		return CMP_PHI_MAX;
	phi = r + (2.0 + 4.0 * r) / n;
	return phi < 0.0 ? 0.0 : phi > CMP_PHI_MAX ? CMP_PHI_MAX : phi;
}

/* The standard error of an estimate phi of n values. */
static double
phi_sd(double phi, int n)
{
	return sqrt((1.0 - phi * phi + 1.0 / n) / n);
}

double
cmp_phi_upper(double phi, int n)
{
	double		up = phi + phi_sd(phi, n);

	return up > CMP_PHI_MAX ? CMP_PHI_MAX : up;
}

double
cmp_phi_cautious(double phi, int n)
{
	double		z = 3.0 * sqrt(30.0 / (n > 1 ? n : 1)),
				up;

	z = z > 3.0 ? 3.0 : z < 1.0 ? 1.0 : z;
	up = phi + z * phi_sd(phi, n);
	return up > CMP_PHI_MAX ? CMP_PHI_MAX : up;
}

double
cmp_ar1_mean_var(double phi, int m)
{
	double		pm;

	if (phi <= 0.0)
		return 1.0 / m;
	pm = pow(phi, m);
	return (m * (1.0 + phi) / (1.0 - phi) - 2.0 * phi * (1.0 - pm) / ((1.0 - phi) * (1.0 - phi))) /
		((double) m * m);
}

double
cmp_ar1_batch_corr(double phi, int m)
{
	double		pm,
				cov;

	if (phi <= 0.0)
		return 0.0;
	pm = pow(phi, m);
	cov = phi * (1.0 - pm) * (1.0 - pm) / ((1.0 - phi) * (1.0 - phi) * (double) m * m);
	return cov / cmp_ar1_mean_var(phi, m);
}

double
cmp_ar1_batch_factor(double phi, int m, int b)
{
	double		whole,
				one;

	if (b < 2 || phi <= 0.0)
		return 1.0;
	whole = cmp_ar1_mean_var(phi, m * b);
	one = cmp_ar1_mean_var(phi, m);
	return one > whole ? whole * (b - 1) / (one - whole) : INFINITY;
}

int
cmp_batch_length(double phi)
{
	int			m = 1;

	while (m < (1 << 20) && cmp_ar1_batch_corr(phi, m) > CMP_BATCH_CORR)
		m++;
	return m;
}

double
cmp_trend_t(const double *y, int n, double *slope)
{
	double		mx = 0.5 * (n - 1),
				my = 0.0,
				sxy = 0.0,
				sxx = 0.0,
				sse = 0.0;

	*slope = 0.0;
	if (n < 3)
		return 0.0;
	for (int i = 0; i < n; i++)
		my += y[i] / n;
	for (int i = 0; i < n; i++)
	{
		sxy += (i - mx) * (y[i] - my);
		sxx += (i - mx) * (i - mx);
	}
	*slope = sxy / sxx;
	for (int i = 0; i < n; i++)
	{
		double		e = y[i] - my - *slope * (i - mx);

		sse += e * e;
	}
	if (sse <= 0.0)
		return 0.0;
	return *slope / sqrt(sse / (n - 2) / sxx);
}

/*
 * The regularized lower incomplete gamma function P(a, x): its series
 * below a + 1, else one minus its continued fraction (modified Lentz).
 */
static double
incomplete_gamma(double a, double x)
{
	double		front;

	if (x <= 0.0)
		return 0.0;
	front = exp(a * log(x) - x - lgamma(a));
	if (x < a + 1.0)
	{
		double		term = 1.0 / a,
					sum = term;

		for (int n = 1; n < 1000 && fabs(term) > 1e-16 * fabs(sum); n++)
		{
			term *= x / (a + n);
			sum += term;
		}
		return front * sum;
	}
	else
	{
		const double tiny = 1e-300;
		double		b = x + 1.0 - a,
					c = 1.0 / tiny,
					d = 1.0 / b,
					h = d;

		for (int n = 1; n < 1000; n++)
		{
			double		an = -n * (n - a),
						step;

			b += 2.0;
			d = an * d + b;
			d = fabs(d) < tiny ? tiny : d;
			c = b + an / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1.0 / d;
			step = d * c;
			h *= step;
			if (fabs(step - 1.0) < 1e-15)
				break;
		}
		return 1.0 - front * h;
	}
}

double
cmp_chi2_cdf(double x, double k)
{
	if (!(k > 0) || isnan(x))
		return NAN;
	return incomplete_gamma(0.5 * k, 0.5 * x);
}

double
cmp_chi2_quantile(double p, double k)
{
	if (!(p > 0.0 && p < 1.0) || !(k > 0))
		return NAN;
	return invert_cdf(cmp_chi2_cdf, p, k, k + 10.0);
}
