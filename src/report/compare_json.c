/*
 * compare_json.c — --compare with --report-json=FILE: the comparison as
 * one JSON document (doc/compare.md, "The JSON document"), what the text
 * prints, with every number at full precision.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/report/threshold.h"
#include "report_json_int.h"

/* A side: its reports, each with the intervals and batches it gave. */
static void
put_side(json_writer *jw, const char *key, const cmp_side *side)
{
	open_block(jw, key, '[');
	for (int k = 0; k < side->nruns; k++)
	{
		const cmp_run *run = &side->runs[k];
		const json_value *id = json_get(&run->doc.root, "run_id");

		open_block(jw, NULL, '{');
		put_str(jw, "file", run->file);
		put_str(jw, "run_id", id != NULL && id->kind == JSON_STRING ? id->u.string : NULL);
		put_int(jw, "intervals", run->intervals);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

/* One side's estimate of a figure. */
static void
put_estimate(json_writer *jw, const char *key, const cmp_estimate *e, cmp_figure f)
{
	double		scale = f == CF_FAILED ? 1.0 : 100.0;

	open_block(jw, key, '{');
	put_str(jw, "method", e->runs ? "runs" : "batch means");
	put_int(jw, "samples", e->n);
	put_num(jw, "batch_intervals", e->runs || e->batch_len == 0 ? NAN : e->batch_len);
	put_num(jw, "batches", e->runs || e->batch_len == 0 ? NAN : e->batches);
	put_num(jw, "autocorrelation", e->runs || e->batch_len == 0 ? NAN : e->phi);
	put_num(jw, "effective_samples", e->batch_len == 0 && !e->runs ? NAN : e->ess);
	put_num(jw, "spread", e->runs ? e->spread * scale : NAN);
	put_num(jw, "standard_error", e->ok ? sqrt(e->var) : NAN);
	put_num(jw, "degrees_of_freedom", e->ok ? e->df : NAN);
	put_str(jw, "unusable", compare_reason_code(e->reason));
	put_num(jw, "needed", e->needed > 0 ? e->needed : NAN);
	put_num(jw, "trend", e->reason == CR_NOT_SETTLED ? e->trend * scale : NAN);
	close_block(jw, '}');
}

static void
put_figure(json_writer *jw, const cmp_side *base, const cmp_comparison *c, cmp_figure f)
{
	const cmp_change *ch = &c->change[f];
	bool		both = ch->verdict != CV_NONE;
	/* the change in the unit: a ratio times the base figure */
	double		scale = f == CF_FAILED ? 1.0 : base->point[f];
	double		pct = f == CF_FAILED ? 1.0 : 100.0;
	char		why[512];

	open_block(jw, NULL, '{');
	put_str(jw, "figure", compare_figure_name(f));
	put_str(jw, "unit", compare_figure_unit(f));
	put_num(jw, "base", base->has_point[f] ? base->point[f] : NAN);
	put_num(jw, "new", c->other->has_point[f] ? c->other->point[f] : NAN);
	put_num(jw, "change", both ? ch->change * scale : NAN);
	put_num(jw, "low", both && ch->has_interval ? ch->lo * scale : NAN);
	put_num(jw, "high", both && ch->has_interval ? ch->hi * scale : NAN);
	put_str(jw, "relative_unit", f == CF_FAILED ? "pp" : "%");
	put_num(jw, "change_relative", both ? ch->change * pct : NAN);
	put_num(jw, "low_relative", both && ch->has_interval ? ch->lo * pct : NAN);
	put_num(jw, "high_relative", both && ch->has_interval ? ch->hi * pct : NAN);
	put_num(jw, "degrees_of_freedom", both && ch->has_interval ? ch->df : NAN);
	put_str(jw, "verdict", compare_verdict_name(ch->verdict));
	put_str(jw, "reason_code", ch->verdict == CV_CANNOT_TELL ? compare_reason_code(
				ch->reason_side != NULL ? (strcmp(ch->reason_side, "base") == 0 ?
											ch->base.reason : ch->new.reason)
				: ch->reason) : NULL);
	put_str(jw, "reason", ch->verdict == CV_CANNOT_TELL ?
			compare_reason_text(why, sizeof(why), ch, base, c->other, f) : NULL);
	put_str(jw, "reason_side", ch->verdict == CV_CANNOT_TELL ? ch->reason_side : NULL);
	if (both)
	{
		put_estimate(jw, "base_estimate", &ch->base, f);
		put_estimate(jw, "new_estimate", &ch->new, f);
	}
	close_block(jw, '}');
}

static void
put_comparison(json_writer *jw, const cmp_side *base, const cmp_comparison *c)
{
	open_block(jw, NULL, '{');
	put_side(jw, "new", c->other);
	open_block(jw, "figures", '[');
	for (int f = 0; f < CF_COUNT; f++)
		if (base->has_point[f] || c->other->has_point[f])
			put_figure(jw, base, c, (cmp_figure) f);
	close_block(jw, ']');
	if (c->nthresholds == 0)
		put_null(jw, "thresholds");
	else
	{
		open_block(jw, "thresholds", '[');
		for (int i = 0; i < c->nthresholds; i++)
		{
			const threshold_result *r = &c->thresholds[i];

			open_block(jw, NULL, '{');
			put_str(jw, "expression", r->t->text);
			put_bool(jw, "passed", r->passed && !r->undecided);
			put_str(jw, "outcome", r->undecided ? "cannot tell" : r->passed ? "passed" : "failed");
			put_num(jw, "value", r->measured ? r->value : NAN);
			put_num(jw, "low", r->measured && r->has_interval ? r->lo : NAN);
			put_num(jw, "high", r->measured && r->has_interval ? r->hi : NAN);
			close_block(jw, '}');
		}
		close_block(jw, ']');
	}
	close_block(jw, '}');
}

void
compare_json_put(json_writer *jw, const char *key, const cmp_side *base, const cmp_comparison *c,
				 int n)
{
	open_block(jw, key, '{');
	put_int(jw, "compare_version", 2);
	put_str(jw, "pgbench_version", PGBENCH_VERSION);
	put_num(jw, "level", 0.95);
	put_str(jw, "method", "batch means with the batch length from the lag-1 autocorrelation "
			"(one run per side), or the runs' figures (repeated runs); Welch");
	put_side(jw, "base", base);
	open_block(jw, "comparisons", '[');
	for (int i = 0; i < n; i++)
		put_comparison(jw, base, &c[i]);
	close_block(jw, ']');
	close_block(jw, '}');
}

bool
compare_json_write(const char *path, const cmp_side *base, const cmp_comparison *c, int n)
{
	bool		to_stdout = strcmp(path, "-") == 0;
	FILE	   *out = to_stdout ? stdout : fopen(path, "w");
	json_writer jw;

	if (out == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		return false;
	}
	memset(&jw, 0, sizeof(jw));
	jw.out = out;
	jw.schema_bad = RM_NONE;
	compare_json_put(&jw, NULL, base, c, n);
	fputc('\n', out);
	if (to_stdout)
	{
		if (fflush(out) == 0 && !ferror(out))
			return true;
		diag_error("could not write the comparison to standard output: %s", strerror(errno));
		return false;
	}
	return report_file_close(out, path);
}
