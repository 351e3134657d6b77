/*
 * compare.c — --compare (compare.h): each side's reports read by the
 * merge's reader (every member checked), their series cut into batches,
 * and per figure the change with its interval and a verdict.
 *
 * The figure of a side is its reports' own (the latency figures of
 * several reports from their pooled histograms); tps is the side's
 * transactions over its measured intervals.  The interval's width comes
 * from batch means: each report's whole intervals (those at least half
 * as long as the series' interval; the short last one is left out) are
 * cut into cmp_batch_count() batches of equal length, the earliest
 * leftover intervals dropped, and each batch gives one value per figure
 * (compare_stats.h says why batches).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/report/compare.h"
#include "pgbench/report/threshold.h"

#define CMP_LEVEL 0.95


/* ---- reading ---------------------------------------------------------- */

/* Report file into run (parsed, and checked by the merge reader). */
static bool
read_run(cmp_run *run, const char *file, merge_error *err)
{
	char		why[256];
	size_t		len;
	char	   *text = merge_read_file(file, &len, err);
	bool		ok;

	run->file = file;
	if (text == NULL)
		return false;
	ok = json_parse(text, len, &run->doc, why, sizeof(why));
	free(text);
	if (!ok)
		return merge_fail(err, "%s: %s", file, why);
	run->acc.partial = true;
	return merge_add(&run->acc, &run->doc.root, file, err);
}

/* The values of one batch: records [from, to) of tl. */
static void
batch_values(const timeline *tl, int from, int to, double *v, bool *has)
{
	timeline_record sum,
				r;
	double		seconds = 0.0;
	int64_t		failed;

	memset(&sum, 0, sizeof(sum));
	for (int i = from; i < to; i++)
	{
		if (!timeline_get(tl, i, &r) || !timeline_record_merge(&sum, &r))
			continue;
		seconds += 0.000001 * (double) (r.end_us - r.start_us);
	}
	failed = stats_data_failures(&sum.delta);
	v[CF_TPS] = seconds > 0 ? (double) sum.delta.cnt / seconds : 0.0;
	has[CF_TPS] = seconds > 0;
	for (int f = CF_LATENCY_AVERAGE; f <= CF_MAX; f++)
		has[f] = sum.delta.cnt > 0 && timeline_bucket_count(&sum) > 0;
	if (has[CF_LATENCY_AVERAGE])
	{
		v[CF_LATENCY_AVERAGE] = 0.001 * sum.delta.latency.sum / (double) sum.delta.cnt;
		for (int f = CF_P50; f <= CF_P99; f++)
			v[f] = 0.001 * timeline_bucket_percentile(&sum, compare_figures[f].percentile);
		v[CF_MAX] = 0.001 * (double) sum.latency_max_us;
	}
	has[CF_FAILED] = sum.delta.cnt + failed > 0;
	v[CF_FAILED] = has[CF_FAILED] ? 100.0 * (double) failed / (double) (sum.delta.cnt + failed) : 0;
}

/* Whether record i is a whole interval of tl that a run reached. */
static bool
whole_interval(const timeline *tl, int i)
{
	timeline_record r;

	return timeline_get(tl, i, &r) && r.sources > 0 && 2 * (r.end_us - r.start_us) >= tl->interval;
}

/* Whether record i began before the end of a warm-up of warmup_s seconds. */
static bool
in_warmup(const timeline *tl, int i, int warmup_s)
{
	timeline_record r;

	return warmup_s > 0 && timeline_get(tl, i, &r) && r.start_us < INT64_C(1000000) * warmup_s;
}

/*
 * The batches of every run of side: values[f] gets one value per batch
 * (those with the figure).
 */
static void
make_batches(cmp_side *side, double **values, int *nvalues)
{
	for (int k = 0; k < side->nruns; k++)
	{
		cmp_run    *run = &side->runs[k];
		const timeline *tl = &run->acc.tl;
		int			first = 0,
					n,
					len;

		/*
		 * the whole intervals after the warm-up: from the first to the
		 * last, the short ones at the ends left out
		 */
		while (first < tl->n && (!whole_interval(tl, first) ||
								 in_warmup(tl, first, run->acc.settings.warmup)))
			first++;
		n = tl->n;
		while (n > first && !whole_interval(tl, n - 1))
			n--;
		run->intervals = n - first;
		run->batches = cmp_batch_count(run->intervals);
		if (run->batches == 0)
			continue;
		len = run->intervals / run->batches;
		first = n - run->batches * len;
		for (int b = 0; b < run->batches; b++)
		{
			double		v[CF_COUNT];
			bool		has[CF_COUNT];

			batch_values(tl, first + b * len, first + (b + 1) * len, v, has);
			for (int f = 0; f < CF_COUNT; f++)
				if (has[f])
					values[f][nvalues[f]++] = v[f];
		}
	}
}

/* The tps of a run, as its report gives it; false when out of memory. */
static bool
run_tps(cmp_run *run, double *tps)
{
	report_input in;
	report_figures f;

	(void) merge_report_input(&run->acc, &in);
	if (!figures_compute(&in, &f))
		return false;
	*tps = f.tps;
	figures_free(&f);
	return true;
}

/* The latency and failure figures of the pooled reports. */
static bool
pooled_points(cmp_side *side, merge_error *err)
{
	report_input in;
	report_figures f;

	(void) merge_report_input(&side->pooled, &in);
	if (!figures_compute(&in, &f))
		return merge_fail(err, "out of memory");
	side->transactions = (double) (f.counts.cnt + f.counts.failed);
	side->has_point[CF_LATENCY_AVERAGE] = side->has_point[CF_MAX] =
		f.latency.series.count > 0;
	side->point[CF_LATENCY_AVERAGE] = f.latency.series.average;
	side->point[CF_MAX] = f.latency.series.max;
	for (int p = CF_P50; p <= CF_P99; p++)
		for (int i = 0; i < f.nreport_percentiles; i++)
			if (f.report_percentiles[i] == compare_figures[p].percentile && f.latency.has_percentiles)
			{
				side->has_point[p] = true;
				side->point[p] = f.latency.report_ms[i];
			}
	/* tps: the runs' own, averaged (pooling sums clients, not runs) */
	side->has_point[CF_TPS] = true;
	side->point[CF_TPS] = 0.0;
	for (int k = 0; k < side->nruns; k++)
	{
		double		tps;

		if (!run_tps(&side->runs[k], &tps))
		{
			figures_free(&f);
			return merge_fail(err, "out of memory");
		}
		side->point[CF_TPS] += tps / side->nruns;
	}
	side->has_point[CF_TPS] = isfinite(side->point[CF_TPS]);
	side->has_point[CF_FAILED] = f.counts.total > 0;
	side->point[CF_FAILED] = f.counts.total > 0 ? f.counts.failed_pct : 0.0;
	figures_free(&f);
	return true;
}

bool
compare_side_read(cmp_side *side, const char *arg, merge_error *err)
{
	double	   *values[CF_COUNT];
	int			nvalues[CF_COUNT] = {0},
				total = 0;
	char	   *save = NULL;

	memset(side, 0, sizeof(*side));
	side->arg = pgb_strdup(arg);
	for (const char *p = arg; *p != '\0'; p++)
		side->nruns += *p == ',';
	side->nruns++;
	side->runs = pgb_calloc((size_t) side->nruns, sizeof(cmp_run));
	side->pooled.partial = true;
	side->nruns = 0;
	for (char *file = strtok_r(side->arg, ",", &save); file != NULL; file = strtok_r(NULL, ",", &save))
	{
		cmp_run    *run = &side->runs[side->nruns++];

		if (!read_run(run, file, err) || !merge_add(&side->pooled, &run->doc.root, file, err))
			return false;
		total += run->acc.tl.n;
	}
	if (side->nruns == 0)
		return merge_fail(err, "\"%s\": no report named", arg);
	if (!pooled_points(side, err))
		return false;
	for (int f = 0; f < CF_COUNT; f++)
		values[f] = pgb_calloc((size_t) total + 1, sizeof(double));
	make_batches(side, values, nvalues);
	for (int f = 0; f < CF_COUNT; f++)
	{
		cmp_summarize(values[f], nvalues[f], &side->batches[f]);
		free(values[f]);
	}
	return true;
}

void
compare_side_free(cmp_side *side)
{
	for (int k = 0; k < side->nruns; k++)
	{
		json_doc_free(&side->runs[k].doc);
		merge_acc_free(&side->runs[k].acc);
	}
	merge_acc_free(&side->pooled);
	free(side->runs);
	free(side->arg);
}

/* ---- printing ------------------------------------------------------------ */

/* A figure's value with its unit, or "-" */
static const char *
value_text(char *buf, size_t len, cmp_figure f, bool has, double v)
{
	if (!has || !isfinite(v))
		return "-";
	snprintf(buf, len, f == CF_TPS ? "%.1f%s" : "%.3f%s", v, compare_figures[f].unit);
	return buf;
}

/*
 * The change and its interval: relative to the base's figure, or in the
 * figure's own unit when the base is 0 (failures, mostly).
 */
static void
change_text(char *change, char *interval, size_t len, cmp_figure f, double base,
			const cmp_interval *ci)
{
	bool		relative = base != 0.0 && isfinite(base) && f != CF_FAILED;
	double		scale = relative ? 100.0 / fabs(base) : 1.0;
	const char *unit = relative ? "%" : f == CF_FAILED ? " pp" : compare_figures[f].unit;

	snprintf(change, len, "%+.1f%s", ci->diff * scale, unit);
	if (!ci->valid)
		snprintf(interval, len, "-");
	else
		snprintf(interval, len, "[%+.1f%s, %+.1f%s]", ci->lo * scale, unit, ci->hi * scale, unit);
	if (!relative && f != CF_FAILED)
	{
		snprintf(change, len, "%+.3f%s", ci->diff, unit);
		if (ci->valid)
			snprintf(interval, len, "[%+.3f, %+.3f]%s", ci->lo, ci->hi, unit);
	}
}

/* How many intervals and batches the runs of a side gave. */
static void
print_batches(FILE *out, const char *what, const cmp_side *side)
{
	fprintf(out, "%s:", what);
	for (int k = 0; k < side->nruns; k++)
		fprintf(out, "%s %s (%d intervals, %d batches)", k > 0 ? "," : "", side->runs[k].file,
				side->runs[k].intervals, side->runs[k].batches);
	fputc('\n', out);
}

/* The change of figure f from base to other, with its interval. */
static void
figure_interval(const cmp_side *base, const cmp_side *other, cmp_figure f, cmp_interval *ci)
{
	cmp_welch(&base->batches[f], &other->batches[f], base->point[f], other->point[f], CMP_LEVEL, ci);
}

/*
 * The change thresholds on comparison c, each a line to out, its result
 * kept in c; how many failed (a figure --compare does not compare, or
 * one a side lacks, fails).
 */
static int
check_thresholds(FILE *out, const cmp_side *base, cmp_comparison *c, const threshold *ts, int n)
{
	int			failed = 0;

	c->nthresholds = n;
	c->thresholds = n > 0 ? pgb_calloc((size_t) n, sizeof(threshold_result)) : NULL;
	for (int i = 0; i < n; i++)
	{
		threshold_result *r = &c->thresholds[i];
		int			f = 0;

		r->t = &ts[i];
		while (f < CF_COUNT && strcmp(compare_figures[f].threshold, ts[i].name) != 0)
			f++;
		if (f < CF_COUNT && base->has_point[f] && c->other->has_point[f])
		{
			const cmp_interval *ci = &c->interval[f];

			threshold_check_change(&ts[i], base->point[f], ci->diff, ci->valid, ci->lo, ci->hi, r);
		}
		threshold_print(out, r);
		failed += !r->passed;
	}
	return failed;
}

static void
print_comparison(FILE *out, const cmp_side *base, const cmp_comparison *c)
{
	const cmp_side *other = c->other;
	char		b1[64],
				b2[64],
				change[64],
				interval[96];

	print_batches(out, "base", base);
	print_batches(out, "new", other);
	fprintf(out, "%-16s %14s %14s %9s  %-22s %s\n", "figure", "base", "new", "change",
			"95% interval", "verdict");
	for (int f = 0; f < CF_COUNT; f++)
	{
		const cmp_interval *ci = &c->interval[f];

		if (!base->has_point[f] && !other->has_point[f])
			continue;
		if (!base->has_point[f] || !other->has_point[f])
		{
			fprintf(out, "%-16s %14s %14s %9s  %-22s %s\n", compare_figures[f].name,
					value_text(b1, sizeof(b1), f, base->has_point[f], base->point[f]),
					value_text(b2, sizeof(b2), f, other->has_point[f], other->point[f]),
					"-", "-", "measured on one side only");
			continue;
		}
		change_text(change, interval, sizeof(change), f, base->point[f], ci);
		fprintf(out, "%-16s %14s %14s %9s  %-22s %s\n", compare_figures[f].name,
				value_text(b1, sizeof(b1), f, true, base->point[f]),
				value_text(b2, sizeof(b2), f, true, other->point[f]),
				change, interval, compare_verdict((cmp_figure) f, ci));
	}
}

int
compare_run(int nsides, char *const *sides, const char *json_path, const char *html_path,
			const threshold *thresholds, int nthresholds)
{
	cmp_side   *side = pgb_calloc((size_t) nsides, sizeof(cmp_side));
	cmp_comparison *c = pgb_calloc((size_t) nsides, sizeof(cmp_comparison));
	merge_error err,
				shown;
	int			rc = 0,
				failed = 0;
	/* --report-json=-: the document on stdout, the text on stderr (as a run's) */
	FILE	   *text = json_path != NULL && strcmp(json_path, "-") == 0 ? stderr : stdout;

	memset(&err, 0, sizeof(err));
	for (int i = 0; i < nsides && rc == 0; i++)
		if (!compare_side_read(&side[i], sides[i], &err))
			rc = 1;
	shown = err;
	shown.nwarnings = 0;		/* a merge's warnings are of a merge */
	merge_print_error(&shown);
	for (int i = 1; i < nsides && rc == 0; i++)
	{
		cmp_comparison *ci = &c[i - 1];

		ci->other = &side[i];
		for (int f = 0; f < CF_COUNT; f++)
			figure_interval(&side[0], &side[i], (cmp_figure) f, &ci->interval[f]);
		if (i > 1)
			fputc('\n', text);
		print_comparison(text, &side[0], ci);
		compare_evidence(text, &side[0], &side[i]);
		failed += check_thresholds(text, &side[0], ci, thresholds, nthresholds);
	}
	fflush(text);
	if (rc == 0 && json_path != NULL && !compare_json_write(json_path, &side[0], c, nsides - 1))
		rc = 1;
	if (rc == 0 && html_path != NULL && !compare_html_write(html_path, &side[0], c, nsides - 1))
		rc = 1;
	if (rc == 0 && failed > 0)
		rc = THRESHOLD_EXIT_FAILED;
	for (int i = 0; i < nsides; i++)
	{
		compare_side_free(&side[i]);
		free(c[i].thresholds);
	}
	free(side);
	free(c);
	merge_error_free(&err);
	return rc;
}
