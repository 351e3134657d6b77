/*
 * compare_int.h — what compare.c and the other compare*.c share: a side of
 * --compare, its runs and its figures (compare.h).
 */
#ifndef PGBENCH_COMPARE_INT_H
#define PGBENCH_COMPARE_INT_H

#include "merge_int.h"
#include "pgbench/offline/compare_stats.h"

/* The figures compared, in the order printed. */
typedef enum cmp_figure
{
	CF_TPS,
	CF_LATENCY_AVERAGE,
	CF_P50,
	CF_P90,
	CF_P99,
	CF_MAX,
	CF_FAILED,
	CF_COUNT
} cmp_figure;

/* What --compare knows of a figure (compare_figures.c). */
typedef struct cmp_figure_def
{
	const char *name;			/* as printed */
	const char *threshold;		/* as a threshold names it (NAME.change) */
	const char *unit;			/* after the value */
	bool		higher_is_better;
	double		percentile;		/* CF_P50..CF_P99: the percentile; else 0 */
} cmp_figure_def;

extern const cmp_figure_def compare_figures[CF_COUNT];

/*
 * Why a figure gets no verdict (doc/compare.md, "Cannot tell"): on one
 * side (cmp_estimate) or for the change itself (cmp_change).
 */
typedef enum cmp_reason
{
	CR_NONE = 0,
	CR_FEW_SAMPLES,				/* too few effective samples */
	CR_NOT_SETTLED,				/* a trend within the run */
	CR_NO_SPREAD,				/* batches (or runs) all equal: no noise to measure */
	CR_EMPTY_BATCH,				/* a batch without the figure (nothing succeeded) */
	CR_MAX_ONE_RUN,				/* a maximum from one run per side */
	CR_FEW_RUNS,				/* repeated runs: fewer than CMP_MIN_RUNS on a side */
	CR_RUNS_ONE_SIDE,			/* repeated runs on one side only */
	CR_RESOLUTION,				/* the change is below the data's resolution */
	CR_NOT_FINITE,				/* the interval is not finite */
	CR_NO_FAILURES,				/* failed: none on either side */
	CR_SPARSE					/* an evidence at 0 in half the intervals or
								 * more: bursts, too few to estimate */
} cmp_reason;

/*
 * Fewer batches of one run, or effective samples (with the cautious
 * autocorrelation, compare_stats.h), or runs of a side, give no verdict.
 */
#define CMP_MIN_BATCHES 5
/* The shortest batch, when the run has 2 * CMP_MIN_BATCHES of them. */
#define CMP_MIN_BATCH_LEN 4
#define CMP_MIN_ESS 10
/* Fewer intervals tell nothing of their autocorrelation. */
#define CMP_MIN_INTERVALS 10
#define CMP_MIN_RUNS 3

/*
 * A change beyond this many times the intervals' spread is told even
 * without an estimate (compare_series.c, judge_bound).
 */
#define CMP_BOUND_SDS 4

/*
 * One side's estimate of a figure (compare_series.c): the mean of its
 * batch values (one run) or of its runs' figures (repeated runs), on the
 * figure's scale (the logarithm for tps and latencies, the unit for the
 * failed share), the variance of that mean and its degrees of freedom.
 */
typedef struct cmp_estimate
{
	bool		ok;				/* mean, var and df hold an estimate */
	cmp_reason	reason;			/* else why not */
	bool		runs;			/* from repeated runs, else one run's batches */
	double		mean;
	double		var;			/* of the mean */
	double		df;
	int			n;				/* intervals used (runs) */
	int			batch_len;		/* intervals per batch (runs: 0) */
	int			batches;		/* batches (runs) */
	double		phi;			/* lag-1 autocorrelation (bias removed) */
	double		ess;			/* effective samples: independent intervals' worth */
	int			needed;			/* intervals (runs) that would give an estimate */
	double		trend;			/* CR_NOT_SETTLED: relative change over the run */
	double		spread;			/* runs: their standard deviation, relative */
	double		resolution;		/* the smallest change the data can show,
								 * on the figure's scale (0: exact) */
	int			level_n;		/* one run: its intervals with the figure, */
	double		level_sd;		/* their values' standard deviation, */
	double		level_median;	/* median and robust spread (1.4826 times */
	double		level_spread;	/* the median absolute deviation), on the
								 * figure's scale */
} cmp_estimate;

/* The verdict on a change. */
typedef enum cmp_verdict
{
	CV_NONE = 0,				/* the figure is on one side only */
	CV_BETTER,
	CV_WORSE,
	CV_SAME,					/* the interval holds no change */
	CV_CANNOT_TELL				/* reason says why */
} cmp_verdict;

/* The change of a figure from base to new (compare_series.c). */
typedef struct cmp_change
{
	cmp_verdict verdict;
	cmp_reason	reason;			/* CV_CANNOT_TELL: why */
	const char *reason_side;	/* "base", "new" or NULL: whose estimate */
	bool		has_interval;	/* lo and hi hold the 95% interval */
	bool		bound;			/* told by the bound: no estimate, a change
								 * beyond any noise (lo and hi: the bound) */
	double		change;			/* relative (0.05: +5%); failed: percentage points */
	double		lo;
	double		hi;
	double		df;				/* Welch-Satterthwaite */
	cmp_estimate base;			/* the sides' estimates of the figure */
	cmp_estimate new;
} cmp_change;

/* One report of a side. */
typedef struct cmp_run
{
	const char *file;			/* as given */
	json_doc	doc;			/* the report, parsed (the evidence reads it) */
	merge_acc	acc;			/* read and checked by the merge: its series */
	int			first;			/* the first of the series' intervals used */
	int			intervals;		/* the whole intervals used from there */
	int			instances;		/* the instances its report merged (1: a run) */
	double		tps_divisor;	/* its tps is divided by it: 1, or with
								 * --compare-per-instance its instances */
	bool		own_percentiles;	/* its points carry their own percentiles
									 * (one run's report, schema 4 on) */
	bool		has_point[CF_COUNT];	/* the run's own figures */
	double		point[CF_COUNT];
} cmp_run;

/* One side: a report, or reports of repeated runs pooled. */
typedef struct cmp_side
{
	char	   *arg;			/* the argument (its own copy, split at commas) */
	int			nruns;
	cmp_run    *runs;
	merge_acc	pooled;			/* every run merged: the latency figures */
	bool		has_point[CF_COUNT];	/* a figure to compare */
	double		point[CF_COUNT];	/* the side's figure */
	double	   *series[CF_COUNT];	/* one run: each figure's value per
									 * interval used (those that have it) */
	int			nseries[CF_COUNT];
	double		phi[CF_COUNT];	/* one run: its autocorrelation (cmp_phi_estimate) */
	bool		fine[CF_COUNT];	/* one run: its percentiles' batches from the
								 * points' own (else the coarse buckets) */
	double		transactions;	/* processed + failed, over the runs */
} cmp_side;

/* The comparison of one side with the base. */
typedef struct cmp_comparison
{
	const cmp_side *other;
	cmp_change	change[CF_COUNT];	/* each figure's change */
	struct threshold_result *thresholds;	/* the change thresholds checked
											 * (owned); NULL: none */
	int			nthresholds;
	struct cmp_diagnosis *diag;	/* why (compare_diag.h; owned) */
} cmp_comparison;

/* A figure as a threshold names it ("tps", "latency.p99", "failed.ratio"), and its unit. */
const char *compare_figure_name(cmp_figure f);
const char *compare_figure_unit(cmp_figure f);

/* "better", "worse", "no significant difference", "cannot tell" */
const char *compare_verdict_name(cmp_verdict v);

/* The reason as the JSON document names it ("too_few_samples"); NULL for none. */
const char *compare_reason_code(cmp_reason r);

/* Why a figure cannot be told, in words (text into buf). */
const char *compare_reason_text(char *buf, size_t len, const cmp_change *c, const cmp_side *base,
								const cmp_side *other, cmp_figure f);

/*
 * What the estimates of side need, once (compare_series.c): one run's
 * series and autocorrelation per figure.  compare_side_free frees it.
 */
void		compare_side_series(cmp_side *side);

/*
 * The batches of a run of intervals (nx of them with a value) and
 * autocorrelation phi into e (batch_len, batches, phi, ess); false with
 * e->reason and e->needed when too few for an estimate.
 */
bool		cmp_plan_batches(int nx, int intervals, double phi, cmp_estimate *e);

/*
 * The estimate from the b batch values y of a run (compare_series.c): the
 * mean, its variance corrected at the cautious autocorrelation, or why
 * there is none; xvar the intervals' variance, ratio: y are logarithms.
 * e->batch_len and e->batches are set.
 */
void		cmp_batches_estimate(const double *y, bool ratio, double phi, double cautious,
								 double xvar, cmp_estimate *e);

/*
 * The estimate from repeated runs (compare_series.c): n of nruns runs'
 * values y (logarithms when ratio), the run the unit.
 */
void		cmp_runs_estimate(const double *y, int n, int nruns, bool ratio, cmp_estimate *e);

/*
 * The verdict on out->base and out->new (filled): the interval when both
 * estimate, else the bound on the intervals' medians (bound_sds of
 * their spreads), else why not.  ratio: the estimates are logarithms and
 * the change a ratio.
 */
void		cmp_judge_estimates(cmp_change *out, bool ratio, bool higher_is_better,
								double bound_sds);

/* The change of figure f from base to other, with its verdict. */
void		compare_change(const cmp_side *base, const cmp_side *other, cmp_figure f,
						   cmp_change *out);

/*
 * The comparisons c[0 .. n - 1] with base as a JSON document at path
 * (compare_json.c); false with the error printed (no file left).
 */
bool		compare_json_write(const char *path, const cmp_side *base, const cmp_comparison *c,
							   int n);


/*
 * The same document as a value of jw (json_writer.h's writer), under
 * key (NULL: the document itself).
 */
struct json_writer;
void		compare_json_put(struct json_writer *jw, const char *key, const cmp_side *base,
							 const cmp_comparison *c, int n);

/*
 * The comparisons as an HTML page at path (compare_html.c): the JSON
 * document and each report's series and latency histogram embedded,
 * drawn by compare_html.js; false with the error printed (no file left).
 */
bool		compare_html_write(const char *path, const cmp_side *base, const cmp_comparison *c,
							   int n);

/*
 * The side named by arg read into *side; false with err filled.
 * per_instance: a merged report's tps is divided by its instances.
 */
bool		compare_side_read(cmp_side *side, const char *arg, bool per_instance, merge_error *err);
void		compare_side_free(cmp_side *side);


#endif
