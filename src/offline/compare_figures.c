/*
 * compare_figures.c — the figures --compare compares (compare_int.h):
 * their names as printed and as thresholds name them, units, which way
 * is better, and the verdict on a change.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

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
compare_verdict_name(cmp_verdict v)
{
	switch (v)
	{
		case CV_BETTER:
			return "better";
		case CV_WORSE:
			return "worse";
		case CV_SAME:
			return "no significant difference";
		case CV_CANNOT_TELL:
			return "cannot tell";
		case CV_NONE:
			break;
	}
	return "measured on one side only";
}

const char *
compare_reason_code(cmp_reason r)
{
	static const char *const codes[] = {
		[CR_NONE] = NULL,
		[CR_FEW_SAMPLES] = "too_few_samples",
		[CR_NOT_SETTLED] = "not_settled",
		[CR_NO_SPREAD] = "no_spread",
		[CR_EMPTY_BATCH] = "empty_batch",
		[CR_MAX_ONE_RUN] = "maximum_of_one_run",
		[CR_FEW_RUNS] = "too_few_runs",
		[CR_RUNS_ONE_SIDE] = "runs_on_one_side",
		[CR_RESOLUTION] = "below_resolution",
		[CR_NOT_FINITE] = "no_finite_interval",
		[CR_NO_FAILURES] = "no_failures",
		[CR_SPARSE] = "sparse",
	};

	return codes[r];
}

/* Why an estimate of side (named who) is missing, into buf. */
static void
estimate_reason(char *buf, size_t len, const cmp_estimate *e, const char *who, cmp_figure f)
{
	switch (e->reason)
	{
		case CR_FEW_SAMPLES:
			if (isnan(e->phi))
				snprintf(buf, len, "too few intervals on %s: %d; a run of about %d intervals or more "
						 "would do", who, e->n, e->needed);
			else if (e->needed > 100 * e->n)
				snprintf(buf, len, "not settled on %s: its level wanders (lag-1 autocorrelation %.2f "
						 "over %d intervals)", who, e->phi, e->n);
			else
				snprintf(buf, len, "too few effective samples on %s: %d intervals worth about %.0f "
						 "independent ones (lag-1 autocorrelation %.2f); a run of about %d intervals "
						 "would do", who, e->n, e->ess, e->phi, e->needed);
			return;
		case CR_NOT_SETTLED:
			snprintf(buf, len, "not settled on %s: a trend of %+.1f%s over the run (--warmup, or a "
					 "longer run)", who, f == CF_FAILED ? e->trend : 100.0 * e->trend,
					 f == CF_FAILED ? " pp" : "%");
			return;
		case CR_NO_SPREAD:
			snprintf(buf, len, "no spread on %s: its %s are all equal, no noise to measure", who,
					 e->runs ? "runs" : e->batches > 0 ? "batches" : "intervals");
			return;
		case CR_EMPTY_BATCH:
			snprintf(buf, len, "a %s on %s has no value of it", e->runs ? "run" : "batch", who);
			return;
		case CR_MAX_ONE_RUN:
			snprintf(buf, len, "a maximum from one run per side has no interval (repeat the runs: "
					 "%d or more per side)", CMP_MIN_RUNS);
			return;
		case CR_FEW_RUNS:
			snprintf(buf, len, "%d runs on %s: %d or more per side", e->n, who, CMP_MIN_RUNS);
			return;
		case CR_SPARSE:
			snprintf(buf, len, "0 in half the intervals of %s or more: bursts too few to estimate", who);
			return;
		default:
			snprintf(buf, len, "no finite interval on %s", who);
			return;
	}
}

const char *
compare_reason_text(char *buf, size_t len, const cmp_change *c, const cmp_side *base,
					const cmp_side *other, cmp_figure f)
{
	const cmp_estimate *e = c->reason_side == NULL ? NULL
		: strcmp(c->reason_side, "base") == 0 ? &c->base : &c->new;

	if (e != NULL)
		estimate_reason(buf, len, e, c->reason_side, f);
	else if (c->reason == CR_RUNS_ONE_SIDE)
		snprintf(buf, len, "repeated runs on one side only (base %d, new %d): the run-to-run "
				 "spread needs %d or more on each", base->nruns, other->nruns, CMP_MIN_RUNS);
	else if (c->reason == CR_RESOLUTION)
		snprintf(buf, len, "the change is below the data's resolution (%.1f%%)",
				 100.0 * expm1(c->base.resolution > c->new.resolution ?
							   c->base.resolution : c->new.resolution));
	else if (c->reason == CR_NO_FAILURES)
		snprintf(buf, len, "no failures on either side");
	else
		snprintf(buf, len, "no finite interval");
	return buf;
}
