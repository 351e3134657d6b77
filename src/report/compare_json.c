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
		put_int(jw, "batches", run->batches);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_comparison(json_writer *jw, const cmp_side *base, const cmp_comparison *c)
{
	open_block(jw, NULL, '{');
	put_side(jw, "new", c->other);
	open_block(jw, "figures", '[');
	for (int f = 0; f < CF_COUNT; f++)
	{
		const cmp_interval *ci = &c->interval[f];
		bool		both = base->has_point[f] && c->other->has_point[f];

		if (!base->has_point[f] && !c->other->has_point[f])
			continue;
		open_block(jw, NULL, '{');
		put_str(jw, "figure", compare_figure_name((cmp_figure) f));
		put_str(jw, "unit", compare_figure_unit((cmp_figure) f));
		put_num(jw, "base", base->has_point[f] ? base->point[f] : NAN);
		put_num(jw, "new", c->other->has_point[f] ? c->other->point[f] : NAN);
		put_num(jw, "change", both ? ci->diff : NAN);
		put_num(jw, "low", both && ci->valid ? ci->lo : NAN);
		put_num(jw, "high", both && ci->valid ? ci->hi : NAN);
		put_num(jw, "degrees_of_freedom", both && ci->valid && ci->se > 0 ? ci->df : NAN);
		put_str(jw, "verdict", both ? compare_verdict((cmp_figure) f, ci) : "measured on one side only");
		close_block(jw, '}');
	}
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
			put_bool(jw, "passed", r->passed);
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
	put_int(jw, "compare_version", 1);
	put_str(jw, "pgbench_version", PGBENCH_VERSION);
	put_num(jw, "level", 0.95);
	put_str(jw, "method", "batch means, Welch");
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
