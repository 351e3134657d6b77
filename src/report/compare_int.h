/*
 * compare_int.h — what compare.c and compare_evidence.c share: a side of
 * --compare, its runs and its figures (compare.h).
 */
#ifndef PGBENCH_COMPARE_INT_H
#define PGBENCH_COMPARE_INT_H

#include "merge_int.h"
#include "pgbench/report/compare_stats.h"

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

/* One report of a side. */
typedef struct cmp_run
{
	const char *file;			/* as given */
	json_doc	doc;			/* the report, parsed (the evidence reads it) */
	merge_acc	acc;			/* read and checked by the merge: its series */
	int			intervals;		/* the series' whole intervals used */
	int			batches;		/* the batches made of them */
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
	cmp_summary batches[CF_COUNT];	/* its batch values, over every run */
	double		transactions;	/* processed + failed, over the runs */
} cmp_side;

/* The comparison of one side with the base. */
typedef struct cmp_comparison
{
	const cmp_side *other;
	cmp_interval interval[CF_COUNT];	/* each figure's change */
	struct threshold_result *thresholds;	/* the change thresholds checked
											 * (owned); NULL: none */
	int			nthresholds;
} cmp_comparison;

/* A figure as a threshold names it ("tps", "latency.p99", "failed.ratio"), and its unit. */
const char *compare_figure_name(cmp_figure f);
const char *compare_figure_unit(cmp_figure f);

/* "better", "worse", "no significant difference" or why there is no verdict. */
const char *compare_verdict(cmp_figure f, const cmp_interval *ci);

/*
 * The comparisons c[0 .. n - 1] with base as a JSON document at path
 * (compare_json.c); false with the error printed (no file left).
 */
bool		compare_json_write(const char *path, const cmp_side *base, const cmp_comparison *c,
							   int n);


/*
 * The same document as a value of jw (report_json_int.h's writer), under
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

/* The side named by arg read into *side; false with err filled. */
bool		compare_side_read(cmp_side *side, const char *arg, merge_error *err);
void		compare_side_free(cmp_side *side);

/*
 * What differs between base and other (settings, server, workload,
 * host): lines to out; warnings (to stderr) for what breaks the
 * comparison; then the server's and the client's evidence per transaction
 * that changed most.
 */
void		compare_evidence(FILE *out, const cmp_side *base, const cmp_side *other);

#endif
