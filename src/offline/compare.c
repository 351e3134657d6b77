/*
 * compare.c — --compare (compare.h): each side's reports read by the
 * merge's reader (every member checked) and held to their own totals,
 * the figures of each side, then per figure the change with its interval
 * and a verdict (compare_series.c), printed, and as JSON and a page.
 *
 * The figure of a side is its reports' own (the latency figures of
 * several reports from their pooled histograms; tps the mean of their
 * tps).  The intervals used are a report's whole ones after its warm-up
 * (those at least half as long as the series' interval: the short last
 * one is left out).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/offline/compare.h"
#include "pgbench/report/threshold.h"



/* ---- reading ---------------------------------------------------------- */

/* Report file into run (parsed, and checked by the merge reader). */
static bool
read_run(cmp_run *run, const char *file, merge_error *err)
{
	char		why[256];
	size_t		len;
	char	   *text = merge_read_file(file, &len, err);
	bool		ok;
	const json_value *version,
			   *merge,
			   *instances;

	run->file = file;
	if (text == NULL)
		return false;
	ok = json_parse(text, len, &run->doc, why, sizeof(why));
	free(text);
	if (!ok)
		return merge_fail(err, "%s: %s", file, why);
	run->acc.partial = true;
	if (!merge_add(&run->acc, &run->doc.root, file, err))
		return false;
	merge = json_get(&run->doc.root, "merge");
	instances = merge != NULL ? json_get(merge, "instances") : NULL;
	run->instances = instances != NULL && instances->kind == JSON_NUMBER &&
		instances->number == JSON_INT64 && instances->u.integer > 1 &&
		instances->u.integer < INT32_MAX ? (int) instances->u.integer : 1;
	run->tps_divisor = 1.0;
	version = json_get(&run->doc.root, "schema_version");
	/* a merge's points have percentiles of merged coarse buckets */
	run->own_percentiles = run->acc.nsources == 1 && version != NULL &&
		version->kind == JSON_NUMBER && version->number == JSON_INT64 && version->u.integer >= 4;
	return true;
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
 * Whether the points of run add up to its totals: the successes, the
 * failures and the latency sum (to a millionth) of the points after its
 * warm-up are the report's, give or take one interval's worth with a
 * warm-up (its end falls inside an interval: doc/report.md).  A series
 * the report says is incomplete is not checked.  false with err filled.
 */
static bool
points_match_totals(const cmp_run *run, merge_error *err)
{
	const timeline *tl = &run->acc.tl;
	const stats_data *total = &run->acc.stats.total;
	const json_value *series = json_get(&run->doc.root, "series");
	const json_value *incomplete = series != NULL ? json_get(series, "incomplete") : NULL;
	int			warmup = run->acc.settings.warmup;
	double		cnt = 0.0,
				failed = 0.0,
				sum = 0.0,
				slack_cnt = 0.0,
				slack_sum = 0.0;
	timeline_record r;

	if (incomplete != NULL && incomplete->kind == JSON_BOOL && incomplete->boolean)
		return true;
	for (int i = 0; i < tl->n; i++)
	{
		if (!timeline_get(tl, i, &r))
			return true;		/* unreadable: nothing to hold it to */
		if (warmup > 0 && r.end_us > INT64_C(1000000) * warmup - tl->interval &&
			r.start_us < INT64_C(1000000) * warmup + tl->interval)
		{
			/* about the warm-up's end: either side of it */
			slack_cnt += (double) (r.delta.cnt + stats_data_failures(&r.delta));
			slack_sum += r.delta.latency.sum;
		}
		if (warmup > 0 && r.start_us < INT64_C(1000000) * warmup)
			continue;
		cnt += (double) r.delta.cnt;
		failed += (double) stats_data_failures(&r.delta);
		sum += r.delta.latency.sum;
	}
	if (fabs(cnt - (double) total->cnt) > slack_cnt ||
		fabs(failed - (double) stats_data_failures(total)) > slack_cnt)
		return merge_fail(err, "%s: its series' points count %.0f transactions (%.0f failed), its totals "
						  "%" PRId64 " (%" PRId64 " failed): the report contradicts itself", run->file,
						  cnt + failed, failed, total->cnt + stats_data_failures(total),
						  stats_data_failures(total));
	if (!(fabs(sum - total->latency.sum) <= 1e-6 * fabs(total->latency.sum) + 1.0 + slack_sum))
		return merge_fail(err, "%s: its series' points sum the latencies to %.17g us, its totals to "
						  "%.17g: the report contradicts itself", run->file, sum, total->latency.sum);
	return true;
}

/* The run's whole intervals after the warm-up: run->first, run->intervals. */
static void
used_intervals(cmp_run *run)
{
	const timeline *tl = &run->acc.tl;
	int			first = 0,
				n;

	/* from the first to the last, the short ones at the ends left out */
	while (first < tl->n && (!whole_interval(tl, first) ||
							 in_warmup(tl, first, run->acc.settings.warmup)))
		first++;
	n = tl->n;
	while (n > first && !whole_interval(tl, n - 1))
		n--;
	run->first = first;
	run->intervals = n - first;
}

/*
 * The figures of acc as its report gives them into point[] (has[]: the
 * figure is there); false when out of memory.
 */
static bool
acc_points(merge_acc *acc, double *point, bool *has, double *transactions)
{
	report_input in;
	report_figures f;

	(void) merge_report_input(acc, &in);
	if (!figures_compute(&in, &f))
		return false;
	*transactions = (double) (f.counts.cnt + f.counts.failed);
	has[CF_LATENCY_AVERAGE] = has[CF_MAX] = f.latency.series.count > 0;
	point[CF_LATENCY_AVERAGE] = f.latency.series.average;
	point[CF_MAX] = f.latency.series.max;
	for (int p = CF_P50; p <= CF_P99; p++)
		for (int i = 0; i < f.nreport_percentiles; i++)
			if (f.report_percentiles[i] == compare_figures[p].percentile && f.latency.has_percentiles)
			{
				has[p] = true;
				point[p] = f.latency.report_ms[i];
			}
	point[CF_TPS] = f.tps;
	has[CF_TPS] = isfinite(f.tps);
	has[CF_FAILED] = f.counts.total > 0;
	point[CF_FAILED] = f.counts.total > 0 ? f.counts.failed_pct : 0.0;
	figures_free(&f);
	return true;
}

/*
 * The side's figures: one run's own, or for repeated runs the latency
 * and failure figures of their pooled reports and the mean of their tps
 * (pooling sums clients, not runs).
 */
static bool
side_points(cmp_side *side, merge_error *err)
{
	double		ignored;

	for (int k = 0; k < side->nruns; k++)
	{
		if (!acc_points(&side->runs[k].acc, side->runs[k].point, side->runs[k].has_point, &ignored))
			return merge_fail(err, "out of memory");
		side->runs[k].point[CF_TPS] /= side->runs[k].tps_divisor;
	}
	if (!acc_points(&side->pooled, side->point, side->has_point, &side->transactions))
		return merge_fail(err, "out of memory");
	side->point[CF_TPS] = 0.0;
	for (int k = 0; k < side->nruns; k++)
		side->point[CF_TPS] += side->runs[k].point[CF_TPS] / side->nruns;
	side->has_point[CF_TPS] = isfinite(side->point[CF_TPS]);
	return true;
}

bool
compare_side_read(cmp_side *side, const char *arg, bool per_instance, merge_error *err)
{
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

		if (!read_run(run, file, err) || !points_match_totals(run, err) ||
			!merge_add(&side->pooled, &run->doc.root, file, err))
			return false;
		if (per_instance)
			run->tps_divisor = run->instances;
		used_intervals(run);
	}
	if (side->nruns == 0)
		return merge_fail(err, "\"%s\": no report named", arg);
	if (!side_points(side, err))
		return false;
	compare_side_series(side);
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
	for (int f = 0; f < CF_COUNT; f++)
		free(side->series[f]);
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
 * The change and its interval: relative to the base's figure (a ratio,
 * in %), in percentage points for the failed share.
 */
static void
change_text(char *change, char *interval, size_t len, cmp_figure f, const cmp_change *c)
{
	double		scale = 100.0;
	const char *unit = f == CF_FAILED ? " pp" : "%";

	if (f == CF_FAILED)
		scale = 1.0;
	if (isfinite(c->change))
		snprintf(change, len, "%+.1f%s", c->change * scale, unit);
	else
		snprintf(change, len, "-");
	if (!c->has_interval)
		snprintf(interval, len, "-");
	else
		snprintf(interval, len, "[%+.1f%s, %+.1f%s]", c->lo * scale, unit, c->hi * scale, unit);
}

/* The reports of a side, and the intervals each gave. */
static void
print_runs(FILE *out, const char *what, const cmp_side *side)
{
	fprintf(out, "%s:", what);
	for (int k = 0; k < side->nruns; k++)
	{
		fprintf(out, "%s %s (%d intervals", k > 0 ? "," : "", side->runs[k].file,
				side->runs[k].intervals);
		if (side->runs[k].tps_divisor > 1.0)
			fprintf(out, "; tps per instance, of %d", side->runs[k].instances);
		fputc(')', out);
	}
	fputc('\n', out);
}

/*
 * What the estimates rest on, a line: one run per side, each figure's
 * effective samples (independent intervals' worth) on both sides;
 * repeated runs, each figure's run-to-run spread.
 */
static void
print_samples(FILE *out, const cmp_side *base, const cmp_comparison *c)
{
	const cmp_side *other = c->other;
	bool		runs = base->nruns > 1 && other->nruns > 1;
	bool		any = false;

	if ((base->nruns > 1) != (other->nruns > 1))
		return;
	fprintf(out, "%s (base | new):", runs ? "run-to-run spread" : "effective samples");
	for (int f = 0; f < CF_COUNT; f++)
	{
		const cmp_estimate *a = &c->change[f].base,
				   *b = &c->change[f].new;

		if (!base->has_point[f] || !other->has_point[f] || (!runs && f == CF_MAX) ||
			c->change[f].reason == CR_NO_FAILURES)
			continue;
		if (runs)
			fprintf(out, "%s %s %.1f%s | %.1f%s", any ? "," : "", compare_figures[f].threshold,
					f == CF_FAILED ? a->spread : 100.0 * a->spread, f == CF_FAILED ? " pp" : "%",
					f == CF_FAILED ? b->spread : 100.0 * b->spread, f == CF_FAILED ? " pp" : "%");
		else
			fprintf(out, "%s %s %.0f | %.0f", any ? "," : "", compare_figures[f].threshold,
					a->ess, b->ess);
		any = true;
	}
	fputc('\n', out);
}

/*
 * The change thresholds on comparison c, each a line to out, its result
 * kept in c; how many failed (a figure --compare does not compare, or
 * one a side lacks, fails) into *failed, how many cannot be told into
 * *undecided.
 */
static void
check_thresholds(FILE *out, const cmp_side *base, cmp_comparison *c, const threshold *ts, int n,
				 int *failed, int *undecided)
{
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
			const cmp_change *ch = &c->change[f];
			/* the change in the figure's unit: a ratio times the base figure */
			double		scale = f == CF_FAILED ? 1.0 : base->point[f];
			bool		told = ch->verdict != CV_CANNOT_TELL || ch->reason == CR_NO_FAILURES;

			threshold_check_change(&ts[i], base->point[f], ch->change * scale, ch->has_interval,
								   ch->lo * scale, ch->hi * scale, r);
			r->undecided = !told;
		}
		threshold_print(out, r);
		*failed += !r->passed && !r->undecided;
		*undecided += r->undecided;
	}
}

static void
print_comparison(FILE *out, const cmp_side *base, const cmp_comparison *c)
{
	const cmp_side *other = c->other;
	char		b1[64],
				b2[64],
				change[64],
				interval[96],
				why[512];

	print_runs(out, "base", base);
	print_runs(out, "new", other);
	fprintf(out, "%-16s %14s %14s %9s  %-22s %s\n", "figure", "base", "new", "change",
			"95% interval", "verdict");
	for (int f = 0; f < CF_COUNT; f++)
	{
		const cmp_change *ch = &c->change[f];

		if (!base->has_point[f] && !other->has_point[f])
			continue;
		if (ch->verdict == CV_NONE)
		{
			fprintf(out, "%-16s %14s %14s %9s  %-22s %s\n", compare_figures[f].name,
					value_text(b1, sizeof(b1), f, base->has_point[f], base->point[f]),
					value_text(b2, sizeof(b2), f, other->has_point[f], other->point[f]),
					"-", "-", "measured on one side only");
			continue;
		}
		change_text(change, interval, sizeof(change), f, ch);
		fprintf(out, "%-16s %14s %14s %9s  %-22s %s", compare_figures[f].name,
				value_text(b1, sizeof(b1), f, true, base->point[f]),
				value_text(b2, sizeof(b2), f, true, other->point[f]),
				change, interval, compare_verdict_name(ch->verdict));
		if (ch->verdict == CV_CANNOT_TELL)
			fprintf(out, ": %s", compare_reason_text(why, sizeof(why), ch, base, other, (cmp_figure) f));
		fputc('\n', out);
	}
	print_samples(out, base, c);
}

/*
 * Whether the runs of base and other merged as many instances each; false
 * with err filled (a fleet's merged tps against one instance's measures
 * the fleet's size; --compare-per-instance divides it).
 */
static bool
same_instances(const cmp_side *base, const cmp_side *other, merge_error *err)
{
	for (int a = 0; a < base->nruns; a++)
		for (int b = 0; b < other->nruns; b++)
		{
			const cmp_run *x = &base->runs[a],
					   *y = &other->runs[b];

			if (x->instances != y->instances)
			{
				merge_fail(err, "%s merges the reports of %d instances and %s of %d: their tps measure "
						   "fleets of different sizes", x->file, x->instances, y->file, y->instances);
				err->hint = "--compare-per-instance compares their tps per instance.";
				return false;
			}
		}
	return true;
}

int
compare_run(int nsides, char *const *sides, const char *json_path, const char *html_path,
			const threshold *thresholds, int nthresholds, bool per_instance)
{
	cmp_side   *side = pgb_calloc((size_t) nsides, sizeof(cmp_side));
	cmp_comparison *c = pgb_calloc((size_t) nsides, sizeof(cmp_comparison));
	merge_error err,
				shown;
	int			rc = 0,
				failed = 0,
				undecided = 0;
	/* --report-json=-: the document on stdout, the text on stderr (as a run's) */
	FILE	   *text = json_path != NULL && strcmp(json_path, "-") == 0 ? stderr : stdout;

	memset(&err, 0, sizeof(err));
	for (int i = 0; i < nsides && rc == 0; i++)
		if (!compare_side_read(&side[i], sides[i], per_instance, &err))
			rc = 1;
	for (int i = 1; i < nsides && rc == 0 && !per_instance; i++)
		if (!same_instances(&side[0], &side[i], &err))
			rc = 1;
	shown = err;
	shown.nwarnings = 0;		/* a merge's warnings are of a merge */
	merge_print_error(&shown);
	for (int i = 1; i < nsides && rc == 0; i++)
	{
		cmp_comparison *ci = &c[i - 1];

		ci->other = &side[i];
		for (int f = 0; f < CF_COUNT; f++)
			compare_change(&side[0], &side[i], (cmp_figure) f, &ci->change[f]);
		if (i > 1)
			fputc('\n', text);
		print_comparison(text, &side[0], ci);
		ci->diag = compare_diagnose(&side[0], &side[i], ci->change);
		cmp_diag_print(text, ci->diag);
		check_thresholds(text, &side[0], ci, thresholds, nthresholds, &failed, &undecided);
	}
	fflush(text);
	if (rc == 0 && json_path != NULL && !compare_json_write(json_path, &side[0], c, nsides - 1))
		rc = 1;
	if (rc == 0 && html_path != NULL && !compare_html_write(html_path, &side[0], c, nsides - 1))
		rc = 1;
	if (rc == 0 && failed > 0)
		rc = THRESHOLD_EXIT_FAILED;
	else if (rc == 0 && undecided > 0)
		rc = THRESHOLD_EXIT_UNDECIDED;
	for (int i = 0; i < nsides; i++)
	{
		compare_side_free(&side[i]);
		free(c[i].thresholds);
		free(c[i].diag);
	}
	free(side);
	free(c);
	merge_error_free(&err);
	return rc;
}
