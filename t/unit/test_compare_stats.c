/*
 * test_compare_stats.c — unit tests of --compare's statistics
 * (compare_stats.h) against values found independently: Student t
 * quantiles from printed tables and from the closed forms of 1, 2 and 4
 * degrees of freedom; the mean, variance, standard error and Welch
 * degrees of freedom of a known pair of samples as Python's statistics
 * module computes them; chi-square quantiles from printed tables and the
 * closed form of 2 degrees of freedom; the AR(1) variance of a mean, the
 * correlation of neighbouring batches and the batch correction against
 * the same sums taken term by term; and phi estimated from long seeded
 * series (noise on top of an AR(1) process included).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pgbench/offline/compare_stats.h"
#include "tap.h"

/* t(p, df) as printed in tables of Student's t (six decimals or more) */
static const struct
{
	double		p,
				df,
				t;
}			table[] = {
	{0.975, 1, 12.706205}, {0.975, 2, 4.302653}, {0.975, 3, 3.182446},
	{0.975, 5, 2.570582}, {0.975, 10, 2.228139}, {0.975, 30, 2.042272},
	{0.975, 100, 1.983972}, {0.975, 1e7, 1.959964}, {0.95, 10, 1.812461},
	{0.995, 4, 4.604095}, {0.9, 20, 1.325341}, {0.025, 5, -2.570582},
};

/* t for df = 1 (Cauchy), 2 and 4 in closed form */
static double
closed_form(double p, int df)
{
	double		a = 4.0 * p * (1.0 - p);

	if (df == 1)
		return tan(M_PI * (p - 0.5));
	if (df == 2)
		return (2.0 * p - 1.0) * sqrt(2.0 / a);
	/* df 4: t = sign * sqrt(4 / sqrt(a) * cos(acos(sqrt(a)) / 3) - 4) */
	return (p < 0.5 ? -1.0 : 1.0) * sqrt(4.0 / sqrt(a) * cos(acos(sqrt(a)) / 3.0) - 4.0);
}

static void
test_quantiles(void)
{
	static const double ps[] = {0.001, 0.01, 0.1, 0.3, 0.6, 0.8, 0.95, 0.975, 0.999};
	static const int dfs[] = {1, 2, 4};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
	{
		char		name[80];

		snprintf(name, sizeof(name), "t(%g, %g) as the table gives", table[i].p, table[i].df);
		tap_is_double(cmp_t_quantile(table[i].p, table[i].df), table[i].t, 1e-6, name);
	}
	for (size_t d = 0; d < sizeof(dfs) / sizeof(dfs[0]); d++)
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		{
			double		want = closed_form(ps[i], dfs[d]);
			char		name[80];

			snprintf(name, sizeof(name), "t(%g, %d) in closed form", ps[i], dfs[d]);
			tap_is_double(cmp_t_quantile(ps[i], dfs[d]), want, 1e-9 * fmax(1.0, fabs(want)), name);
			snprintf(name, sizeof(name), "cdf(t(%g, %d)) = %g", ps[i], dfs[d], ps[i]);
			tap_is_double(cmp_t_cdf(want, dfs[d]), ps[i], 1e-12, name);
		}
	tap_is_double(cmp_t_quantile(0.5, 3), 0.0, 0.0, "the median is 0");
	tap_ok(isnan(cmp_t_quantile(1.0, 3)) && isnan(cmp_t_quantile(0.0, 3)) &&
		   isnan(cmp_t_quantile(0.9, 0)) && isnan(cmp_t_quantile(NAN, 3)),
		   "p outside (0, 1) or df <= 0: NAN");
	tap_is_double(cmp_t_cdf(INFINITY, 3), 1.0, 0.0, "cdf(+inf) = 1");
	tap_is_double(cmp_t_cdf(-INFINITY, 3), 0.0, 0.0, "cdf(-inf) = 0");
}

/* two samples of 15 and 16 values: Python's statistics module gives these */
static void
test_welch(void)
{
	static const double a[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
		23.1, 19.6, 19.0, 21.7, 21.4};
	static const double b[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
		21.9, 22.1, 22.9, 20.5, 24.4, 23.0};
	cmp_summary sa,
				sb;
	double		va,
				vb,
				df,
				t;

	cmp_summarize(a, 15, &sa);
	cmp_summarize(b, 16, &sb);
	tap_is_double(sa.mean, 20.82, 1e-12, "mean of a");
	tap_is_double(sa.var, 7.867428571428573, 1e-12, "sample variance of a");
	tap_is_double(sb.mean, 22.9875, 1e-12, "mean of b");
	tap_is_double(sb.var, 3.558500000000001, 1e-12, "sample variance of b");
	va = sa.var / sa.n;
	vb = sb.var / sb.n;
	tap_is_double(sqrt(va + vb), 0.8642346256053609, 1e-12, "the standard error of b - a");
	df = cmp_welch_df(va, sa.n - 1, vb, sb.n - 1);
	tap_is_double(df, 24.31056832066855, 1e-9, "Welch's degrees of freedom");
	t = cmp_t_quantile(0.975, df);
	tap_ok(t > 2.0595 && t < 2.0639, "t(0.975, 24.31) between the table's t(0.975, 25) and t(0.975, 24)");
	/* equal sides: df = 2 (n - 1) */
	tap_is_double(cmp_welch_df(4.0 / 6, 5, 4.0 / 6, 5), 10.0, 1e-12, "equal sides of 6: 10 degrees of freedom");
	tap_ok(isnan(cmp_welch_df(0.0, 5, 0.0, 5)), "no spread on either side: no degrees of freedom");
	cmp_summarize(a, 1, &sa);
	tap_ok(sa.n == 1 && sa.mean == 27.5 && sa.var == 0.0, "one value: its mean, variance 0");
	cmp_summarize(a, 0, &sa);
	tap_ok(sa.n == 0 && sa.mean == 0.0, "no value: mean 0");
}

/* the median and the median absolute deviation, worked by hand */
static void
test_median(void)
{
	/* sorted 1 2 3 4 100: median 3; deviations 2 1 0 1 97, their median 1 */
	double		odd[] = {100, 3, 1, 4, 2},
				even[] = {4, 1, 3, 2},
				m,
				s;

	cmp_median_spread(odd, 5, &m, &s);
	tap_is_double(m, 3.0, 0, "median of 1 2 3 4 100: 3");
	tap_is_double(s, 1.482602218505602, 1e-15, "... its spread 1.4826 times 1, deaf to the 100");
	/* 1 2 3 4: median 2.5; deviations 1.5 0.5 0.5 1.5, their median 1 */
	cmp_median_spread(even, 4, &m, &s);
	tap_is_double(m, 2.5, 0, "median of 1 2 3 4: 2.5");
	tap_is_double(s, 1.482602218505602, 1e-15, "... its spread 1.4826 times 1");
}

/* chi-square quantiles as printed in tables (four decimals or more) */
static void
test_chi2(void)
{
	static const struct
	{
		double		p,
					k,
					x;
	}			chi2_table[] = {
		{0.01, 2, 0.020101}, {0.99, 2, 9.210340}, {0.01, 4, 0.297110}, {0.99, 4, 13.276704},
		{0.5, 10, 9.341818}, {0.995, 10, 25.188180}, {0.01, 29, 14.256455}, {0.99, 29, 49.587884},
		{0.95, 100, 124.342113}, {0.05, 1, 0.003932},
	};

	for (size_t i = 0; i < sizeof(chi2_table) / sizeof(chi2_table[0]); i++)
	{
		char		name[80];

		snprintf(name, sizeof(name), "chi2(%g, %g) as the table gives", chi2_table[i].p, chi2_table[i].k);
		tap_is_double(cmp_chi2_quantile(chi2_table[i].p, chi2_table[i].k), chi2_table[i].x,
					  2e-6 * chi2_table[i].x + 1e-6, name);
	}
	/* k = 2 is the exponential of mean 2: x = -2 ln(1 - p) */
	tap_is_double(cmp_chi2_quantile(0.3, 2), -2.0 * log(0.7), 1e-12, "chi2(0.3, 2) in closed form");
	tap_ok(isnan(cmp_chi2_quantile(0.0, 3)) && isnan(cmp_chi2_quantile(0.5, 0)), "outside: NAN");
}

/* The variance of a mean of m AR(1) values, summed term by term. */
static double
brute_mean_var(double phi, int m)
{
	double		sum = 0.0;

	for (int i = 0; i < m; i++)
		for (int j = 0; j < m; j++)
			sum += pow(phi, abs(i - j));
	return sum / ((double) m * m);
}

/* Their neighbouring batches' covariance over the variance, term by term. */
static double
brute_batch_corr(double phi, int m)
{
	double		cov = 0.0;

	for (int i = 0; i < m; i++)
		for (int j = m; j < 2 * m; j++)
			cov += pow(phi, j - i);
	return cov / ((double) m * m) / brute_mean_var(phi, m);
}

static void
test_ar1(void)
{
	static const double phis[] = {0.0, 0.3, 0.5, 0.9, 0.99};
	static const int ms[] = {1, 2, 7, 40};

	for (size_t i = 0; i < sizeof(phis) / sizeof(phis[0]); i++)
		for (size_t j = 0; j < sizeof(ms) / sizeof(ms[0]); j++)
		{
			char		name[96];

			snprintf(name, sizeof(name), "AR(1) %g, mean of %d: its variance, summed", phis[i], ms[j]);
			tap_is_double(cmp_ar1_mean_var(phis[i], ms[j]), brute_mean_var(phis[i], ms[j]), 1e-12, name);
			snprintf(name, sizeof(name), "AR(1) %g, batches of %d: their correlation, summed", phis[i], ms[j]);
			tap_is_double(cmp_ar1_batch_corr(phis[i], ms[j]), brute_batch_corr(phis[i], ms[j]), 1e-12, name);
		}
	tap_is_double(cmp_ar1_batch_factor(0.0, 5, 10), 1.0, 1e-12, "independent values: no correction");
	/* the factor: true variance of the grand mean over E[s^2] / b, from the sums */
	{
		double		whole = brute_mean_var(0.5, 40),
					one = brute_mean_var(0.5, 4);

		tap_is_double(cmp_ar1_batch_factor(0.5, 4, 10), whole * 9 / (one - whole), 1e-12,
					  "AR(1) 0.5, 10 batches of 4: the correction, from the sums");
	}
	tap_ok(cmp_ar1_batch_factor(0.9, 4, 10) > cmp_ar1_batch_factor(0.5, 4, 10),
		   "a longer correlation needs more correction");
	for (size_t i = 0; i < sizeof(phis) / sizeof(phis[0]) - 1; i++)
	{
		int			m = cmp_batch_length(phis[i]);

		tap_ok(cmp_ar1_batch_corr(phis[i], m) <= CMP_BATCH_CORR &&
			   (m == 1 || cmp_ar1_batch_corr(phis[i], m - 1) > CMP_BATCH_CORR),
			   "AR(1) %g: batches of %d, the shortest within the correlation allowed", phis[i], m);
	}
}

/* A seeded AR(1) series with noise, to see its phi estimated. */
static void
ar1_series(double phi, double noise, int n, uint64_t seed, double *x)
{
	uint64_t	s = seed;
	double		prev = 0.0;

	for (int i = 0; i < n; i++)
	{
		double		u[2];

		for (int k = 0; k < 2; k++)
		{
			s = s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
			u[k] = ((double) (s >> 11) + 0.5) / 9007199254740992.0;
		}
		/* Box-Muller: the one normal of the two kept for the process, the noise from the other */
		prev = phi * prev + sqrt(1.0 - phi * phi) * sqrt(-2.0 * log(u[0])) * cos(2.0 * M_PI * u[1]);
		x[i] = prev + noise * sqrt(-2.0 * log(u[0])) * sin(2.0 * M_PI * u[1]) + 0.001 * i;
	}
}

static void
test_phi(void)
{
	static double x[20000];
	double		r[4];

	ar1_series(0.0, 0.0, 20000, 1, x);
	tap_ok(fabs(cmp_phi_estimate(x, 20000)) < 0.03, "independent values with a trend: phi about 0 (%.3f)",
		   cmp_phi_estimate(x, 20000));
	ar1_series(0.5, 0.0, 20000, 2, x);
	tap_ok(fabs(cmp_phi_estimate(x, 20000) - 0.5) < 0.03, "AR(1) 0.5: phi about 0.5 (%.3f)",
		   cmp_phi_estimate(x, 20000));
	ar1_series(0.9, 1.0, 20000, 3, x);
	tap_ok(cmp_autocorr_detrended(x, 20000, r, 3) && r[1] < 0.6,
		   "AR(1) 0.9 under as much noise: its lag-1 autocorrelation halved (%.3f)", r[1]);
	tap_ok(fabs(cmp_phi_estimate(x, 20000) - 0.9) < 0.05, "... but its decay rate is seen: phi about 0.9 (%.3f)",
		   cmp_phi_estimate(x, 20000));
	for (int i = 0; i < 10; i++)
		x[i] = 3.0;
	tap_is_double(cmp_phi_estimate(x, 10), CMP_PHI_MAX, 0, "no spread: phi unknown, the highest");
	tap_ok(!cmp_autocorr_detrended(x, 3, r, 1), "three values: no autocorrelation");
	tap_ok(cmp_phi_upper(0.5, 100) > 0.5 && cmp_phi_cautious(0.5, 30) > cmp_phi_cautious(0.5, 300),
		   "the bounds above phi: higher for a shorter series");
}

int
main(void)
{
	test_quantiles();
	test_welch();
	test_median();
	test_chi2();
	test_ar1();
	test_phi();
	return tap_done();
}
