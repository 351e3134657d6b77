/*
 * threshold.h — --threshold=EXPR (doc/report.md, "Thresholds"): a bound
 * on one of the report's figures, checked when the report is made, for
 * jobs that must fail when performance regresses.
 *
 * An expression is NAME OP NUMBER[UNIT]: OP one of >= <= > < == !=; NAME a
 * figure of the run (tps, latency.average, latency.p99, failed.ratio,
 * server.deadlocks, ...; threshold_names lists them) or, under --compare,
 * a figure's change (tps.change, latency.p99.change, ...), judged on its
 * confidence interval: it fails only when the whole interval is on the
 * wrong side of the bound, so noise alone does not fail a job.  UNIT: us,
 * ms or s for latencies (ms by default), % for ratios and for a relative
 * change; a change of failed.ratio is in percentage points (pp or %).
 *
 * Parsing allocates nothing; checking is pure; thread-safe.
 */
#ifndef PGBENCH_THRESHOLD_H
#define PGBENCH_THRESHOLD_H

#include <stdbool.h>
#include <stdio.h>

#include "pgbench/report/figures.h"

/* The exit status of a run or a comparison whose thresholds did not all pass. */
#define THRESHOLD_EXIT_FAILED 3
/*
 * The exit status of a comparison none of whose thresholds failed but
 * some of which could not be told (the change's figure has no verdict:
 * too few samples, not settled, ...): neither a pass nor a failure.
 */
#define THRESHOLD_EXIT_UNDECIDED 4

#define THRESHOLD_TEXT_LEN 128

typedef enum threshold_op
{
	THR_GE,
	THR_LE,
	THR_GT,
	THR_LT,
	THR_EQ,
	THR_NE,
} threshold_op;

/* What a threshold bounds. */
typedef enum threshold_kind
{
	THK_TPS,
	THK_LATENCY,				/* latency.average, .stddev, .min, .max, .pNN */
	THK_RATIO,					/* failed/skipped/retried.ratio: % of all transactions */
	THK_COUNT,					/* processed, failed, skipped, retried, retries */
	THK_SERVER,					/* server.KEY: a counter of --server-stats over the run */
} threshold_kind;

typedef struct threshold
{
	char		text[THRESHOLD_TEXT_LEN];	/* as given */
	char		name[64];		/* the figure, without ".change" */
	threshold_kind kind;
	int			which;			/* the latency figure, count, ratio or counter */
	double		percentile;		/* latency.pNN: NN */
	bool		change;			/* NAME.change: a --compare threshold */
	bool		relative;		/* a change bound in % of the base figure */
	threshold_op op;
	double		bound;			/* in the figure's unit (ms, %, tps, count) */
} threshold;

/* A threshold checked. */
typedef struct threshold_result
{
	const threshold *t;
	bool		measured;		/* the figure exists in this report */
	bool		passed;			/* measured and within the bound */
	double		value;			/* the figure, or the change */
	bool		has_interval;	/* a change: its interval */
	double		lo;
	double		hi;
	bool		undecided;		/* a change that cannot be told (neither
								 * passed nor failed) */
} threshold_result;

/*
 * Parse text into *t.  false with a message in err ("unknown figure
 * \"x\"", ...) when it is not a threshold.
 */
bool		threshold_parse(const char *text, threshold *t, char *err, size_t errlen);

/*
 * Check a figure threshold (not a change) against a report's figures.  A
 * figure the report does not have (latency.p99.9 without it, server.X
 * without --server-stats) is not measured, and fails.
 */
void		threshold_check_figures(const threshold *t, const report_figures *f,
									threshold_result *r);

/*
 * Check a change threshold: change (new - base) with its interval [lo,
 * hi] (has_interval false: the change alone), base the base's figure.
 */
void		threshold_check_change(const threshold *t, double base, double change, bool has_interval,
								   double lo, double hi, threshold_result *r);

/* Check the n figure thresholds ts against f into results[0 .. n - 1]; how many failed. */
int			threshold_check_all(const threshold *ts, int n, const report_figures *f,
								threshold_result *results);

/* "threshold EXPR: passed (NAME = VALUE)" or "... FAILED (...)", a line to out. */
void		threshold_print(FILE *out, const threshold_result *r);

#endif
