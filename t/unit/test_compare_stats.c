/*
 * test_compare_stats.c — unit tests of --compare's statistics
 * (compare_stats.h) against values found independently: Student t
 * quantiles from printed tables and from the closed forms of 1, 2 and 4
 * degrees of freedom; the mean, variance, standard error and Welch
 * degrees of freedom of a known pair of samples as Python's statistics
 * module computes them; an interval whose degrees of freedom are a whole
 * number, checked against the table; and the batch counts.
 */
#include <math.h>
#include <stdio.h>

#include "pgbench/report/compare_stats.h"
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
				sb,
				s6 = {.n = 6, .mean = 10.0, .var = 4.0},
				one = {.n = 1, .mean = 3.0, .var = 0.0},
				zero = {.n = 5, .mean = 2.0, .var = 0.0};
	cmp_interval ci;
	double		t;

	cmp_summarize(a, 15, &sa);
	cmp_summarize(b, 16, &sb);
	tap_is_double(sa.mean, 20.82, 1e-12, "mean of a");
	tap_is_double(sa.var, 7.867428571428573, 1e-12, "sample variance of a");
	tap_is_double(sb.mean, 22.9875, 1e-12, "mean of b");
	tap_is_double(sb.var, 3.558500000000001, 1e-12, "sample variance of b");
	cmp_welch(&sa, &sb, sa.mean, sb.mean, 0.95, &ci);
	tap_ok(ci.valid, "a and b: an interval");
	tap_is_double(ci.diff, 2.1675000000000004, 1e-12, "the change b - a");
	tap_is_double(ci.se, 0.8642346256053609, 1e-12, "its standard error");
	tap_is_double(ci.df, 24.31056832066855, 1e-9, "Welch's degrees of freedom");
	t = cmp_t_quantile(0.975, ci.df);
	tap_ok(t > 2.0595 && t < 2.0639, "t(0.975, 24.31) between the table's t(0.975, 25) and t(0.975, 24)");
	tap_is_double(ci.lo, ci.diff - t * ci.se, 1e-12, "the interval's low end");
	tap_is_double(ci.hi, ci.diff + t * ci.se, 1e-12, "the interval's high end");
	tap_ok(ci.lo > 0, "it excludes 0: b is larger");

	/* equal batch counts and variances: df = 2 (n - 1) = 10, t = 2.228139 */
	cmp_welch(&s6, &s6, 100.0, 103.0, 0.95, &ci);
	tap_is_double(ci.df, 10.0, 1e-12, "equal sides of 6: 10 degrees of freedom");
	tap_is_double(ci.se, sqrt(4.0 / 6.0 * 2.0), 1e-12, "their standard error");
	tap_is_double(ci.lo, 3.0 - 2.228139 * sqrt(4.0 / 3.0), 1e-5, "low end with the table's t");
	tap_is_double(ci.hi, 3.0 + 2.228139 * sqrt(4.0 / 3.0), 1e-5, "high end with the table's t");

	cmp_welch(&one, &s6, 1.0, 2.0, 0.95, &ci);
	tap_ok(!ci.valid && ci.diff == 1.0, "one batch on a side: the change, no interval");
	cmp_welch(&zero, &zero, 2.0, 2.0, 0.95, &ci);
	tap_ok(ci.valid && ci.lo == 0.0 && ci.hi == 0.0, "no spread and no change: [0, 0]");
	cmp_summarize(a, 1, &sa);
	tap_ok(sa.n == 1 && sa.mean == 27.5 && sa.var == 0.0, "one value: its mean, variance 0");
	cmp_summarize(a, 0, &sa);
	tap_ok(sa.n == 0 && sa.mean == 0.0, "no value: mean 0");
}

static void
test_batches(void)
{
	static const int n[] = {0, 1, 3, 4, 8, 9, 10, 16, 60, 300, 1000000};
	static const int want[] = {0, 1, 3, 2, 2, 3, 3, 4, 7, 17, 1000};

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
	{
		char		name[64];

		snprintf(name, sizeof(name), "%d intervals: %d batches", n[i], want[i]);
		tap_is_int(cmp_batch_count(n[i]), want[i], name);
	}
}

int
main(void)
{
	test_quantiles();
	test_welch();
	test_batches();
	return tap_done();
}
