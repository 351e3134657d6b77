/*
 * compare_figures.c — the figures --compare compares (compare_int.h):
 * their names as printed and as thresholds name them, units, which way
 * is better, and the verdict on a change.
 */
#include "compare_int.h"

const cmp_figure_def compare_figures[CF_COUNT] = {
	[CF_TPS] = {"tps", "tps", "", true, 0},
	[CF_LATENCY_AVERAGE] = {"latency average", "latency.average", " ms", false, 0},
	[CF_P50] = {"latency p50", "latency.p50", " ms", false, 50},
	[CF_P90] = {"latency p90", "latency.p90", " ms", false, 90},
	[CF_P99] = {"latency p99", "latency.p99", " ms", false, 99},
	[CF_MAX] = {"latency max", "latency.max", " ms", false, 0},
	[CF_FAILED] = {"failed", "failed.ratio", "%", false, 0},
};

const char *
compare_figure_name(cmp_figure f)
{
	return compare_figures[f].threshold;
}

const char *
compare_figure_unit(cmp_figure f)
{
	return f == CF_TPS ? "tps" : f == CF_FAILED ? "%" : "ms";
}

const char *
compare_verdict(cmp_figure f, const cmp_interval *ci)
{
	bool		up;

	if (!ci->valid)
		return "too few intervals for a verdict";
	if (ci->lo <= 0.0 && ci->hi >= 0.0)
		return "no significant difference";
	up = ci->lo > 0.0;
	return up == compare_figures[f].higher_is_better ? "better" : "worse";
}

