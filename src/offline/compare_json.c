/*
 * compare_json.c — --compare with --report-json=FILE: the comparison as
 * one JSON document (doc/compare.md, "The JSON document"), what the text
 * prints, with every number at full precision, and each comparison's
 * diagnosis (compare_diag.h) as it was filled: this file only formats it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_diag.h"
#include "compare_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/report/json_writer.h"
#include "pgbench/report/threshold.h"

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

/*
 * The code of why a change cannot be told (NULL when it can): the side's
 * estimate's reason when the change names a side, else the change's own.
 */
static const char *
change_reason_code(const cmp_change *ch)
{
	if (ch->verdict != CV_CANNOT_TELL)
		return NULL;
	if (ch->reason_side != NULL)
		return compare_reason_code(strcmp(ch->reason_side, "base") == 0 ?
								   ch->base.reason : ch->new.reason);
	return compare_reason_code(ch->reason);
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
	put_str(jw, "reason_code", change_reason_code(ch));
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

/* The names of compare_diag.h's kinds, units and sources, as the document has them. */
static const char *const diff_kind_names[] = {
	[DK_OPTION] = "option", [DK_VARIABLE] = "variable", [DK_SCRIPT] = "script",
	[DK_SCRIPT_LINE] = "script_line", [DK_SETTING] = "setting", [DK_SERVER] = "server",
	[DK_HOST] = "host", [DK_LABEL] = "label", [DK_CONNECTION] = "connection",
};
static const char *const ev_unit_names[] = {
	[EU_COUNT] = "count", [EU_BYTES] = "bytes", [EU_MS] = "ms", [EU_PERCENT] = "percent",
};
static const char *const ev_source_names[] = {
	[ES_COUNTER] = "counter", [ES_WAIT] = "wait", [ES_OUTSIDE] = "outside",
	[ES_PROCESS] = "process", [ES_CLIENT] = "client", [ES_HOST] = "host",
};

#define NAME_OF(table, i) \
	((unsigned) (i) < sizeof(table) / sizeof((table)[0]) && (table)[i] != NULL ? (table)[i] : "unknown")

const char *
cmp_diff_kind_name(cmp_diff_kind k)
{
	return NAME_OF(diff_kind_names, k);
}

const char *
cmp_ev_unit_name(cmp_ev_unit u)
{
	return NAME_OF(ev_unit_names, u);
}

const char *
cmp_ev_source_name(cmp_ev_source s)
{
	return NAME_OF(ev_source_names, s);
}

/* n, kept within 0 .. max: a count of a diagnosis' fixed array */
static int
clamp_count(int n, int max)
{
	return n < 0 ? 0 : n > max ? max : n;
}

/* v * 100 (a share or a ratio as a percentage); NAN stays NAN */
static double
pct(double v)
{
	return v * 100.0;
}

/* What differs, and the warnings. */
static void
put_differences(json_writer *jw, const cmp_diagnosis *d)
{
	open_block(jw, "differences", '[');
	for (int i = 0; i < clamp_count(d->ndiffs, CMP_DIAG_MAX_DIFFS); i++)
	{
		const cmp_difference *x = &d->diff[i];

		open_block(jw, NULL, '{');
		put_str(jw, "kind", cmp_diff_kind_name(x->kind));
		put_str(jw, "what", x->what);
		put_str(jw, "base", x->base);
		put_str(jw, "new", x->new);
		put_num(jw, "base_value", x->base_num);
		put_num(jw, "new_value", x->new_num);
		close_block(jw, '}');
	}
	close_block(jw, ']');
	put_int(jw, "differences_more", d->ndiffs_more);
	open_block(jw, "warnings", '[');
	for (int i = 0; i < clamp_count(d->nwarnings, CMP_DIAG_MAX_WARNINGS); i++)
	{
		open_block(jw, NULL, '{');
		put_str(jw, "code", d->warning[i].code);
		put_str(jw, "text", d->warning[i].text);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

/* x, a change of e in its unit, relative to e's base (%); NAN from a base of 0 */
static double
relative_to_base(const cmp_evidence *e, double x)
{
	return e->base > 0.0 ? 100.0 * x / e->base : NAN;
}

/*
 * One evidence: per transaction on each side, its change in the unit
 * (compare_ratio.c) and relative to the base (%).
 */
static void
put_evidence(json_writer *jw, const cmp_evidence *e)
{
	const cmp_change *ch = &e->change;
	bool		both = ch->verdict != CV_NONE;
	bool		interval = both && ch->has_interval;

	open_block(jw, NULL, '{');
	put_str(jw, "name", e->name);
	put_str(jw, "source", cmp_ev_source_name(e->source));
	put_str(jw, "unit", cmp_ev_unit_name(e->unit));
	put_num(jw, "base", e->has_base ? e->base : NAN);
	put_num(jw, "new", e->has_new ? e->new : NAN);
	put_bool(jw, "available_base", e->has_base);
	put_bool(jw, "available_new", e->has_new);
	put_str(jw, "verdict", both ? compare_verdict_name(ch->verdict) : NULL);
	put_str(jw, "reason_code", change_reason_code(ch));
	put_num(jw, "change", both ? ch->change : NAN);
	put_num(jw, "low", interval ? ch->lo : NAN);
	put_num(jw, "high", interval ? ch->hi : NAN);
	put_num(jw, "change_relative", both ? relative_to_base(e, ch->change) : NAN);
	put_num(jw, "low_relative", interval ? relative_to_base(e, ch->lo) : NAN);
	put_num(jw, "high_relative", interval ? relative_to_base(e, ch->hi) : NAN);
	put_num(jw, "noise", e->noise);
	put_num(jw, "latency_share", pct(e->share));
	put_int(jw, "rank", e->rank);
	close_block(jw, '}');
}

/* The latency per transaction taken apart: each part's change in ms. */
static void
put_breakdown(json_writer *jw, const cmp_breakdown *b)
{
	open_block(jw, "breakdown", '{');
	put_bool(jw, "available_base", b->has_base);
	put_bool(jw, "available_new", b->has_new);
	put_num(jw, "latency_base_ms", b->latency_base_ms);
	put_num(jw, "latency_new_ms", b->latency_new_ms);
	open_block(jw, "parts", '[');
	for (int i = 0; i < clamp_count(b->nparts, CMP_DIAG_MAX_PARTS); i++)
	{
		const cmp_part *p = &b->part[i];
		bool		both = p->change.verdict != CV_NONE;
		bool		interval = both && p->change.has_interval;

		open_block(jw, NULL, '{');
		put_str(jw, "name", p->name);
		put_num(jw, "base_ms", b->has_base ? p->base_ms : NAN);
		put_num(jw, "new_ms", b->has_new ? p->new_ms : NAN);
		put_num(jw, "change_ms", both ? p->change.change : NAN);
		put_num(jw, "low_ms", interval ? p->change.lo : NAN);
		put_num(jw, "high_ms", interval ? p->change.hi : NAN);
		put_str(jw, "verdict", both ? compare_verdict_name(p->change.verdict) : NULL);
		close_block(jw, '}');
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

/* A side's host CPU split, in % of the host's CPUs (null where not read). */
static void
put_host_split(json_writer *jw, const char *key, const cmp_host_split *h)
{
	open_block(jw, key, '{');
	put_bool(jw, "available", h->has);
	put_bool(jw, "server_available", h->has && h->has_server);
	if (h->has)
		put_int(jw, "cpus", h->cpus);
	else
		put_null(jw, "cpus");
	put_num(jw, "client_pct", h->has ? pct(h->client) : NAN);
	put_num(jw, "server_pct", h->has && h->has_server ? pct(h->server) : NAN);
	put_num(jw, "rest_pct", h->has ? pct(h->rest) : NAN);
	put_num(jw, "idle_pct", h->has ? pct(h->idle) : NAN);
	put_num(jw, "busiest_thread_cpu_pct", h->has ? h->busiest_thread_cpu_pct : NAN);
	close_block(jw, '}');
}

/* "diagnosis": why new differs from base (null when not computed). */
static void
put_diagnosis(json_writer *jw, const cmp_diagnosis *d)
{
	if (d == NULL)
	{
		put_null(jw, "diagnosis");
		return;
	}
	open_block(jw, "diagnosis", '{');
	put_differences(jw, d);
	open_block(jw, "evidence", '[');
	for (int i = 0; i < clamp_count(d->nevidence, CMP_DIAG_MAX_EVIDENCE); i++)
		put_evidence(jw, &d->evidence[i]);
	close_block(jw, ']');
	put_breakdown(jw, &d->breakdown);
	open_block(jw, "host", '{');
	put_host_split(jw, "base", &d->host[0]);
	put_host_split(jw, "new", &d->host[1]);
	close_block(jw, '}');
	put_str(jw, "rule", d->rule[0] != '\0' ? d->rule : NULL);
	put_str(jw, "sentence", d->sentence);
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
	put_diagnosis(jw, c->diag);
	close_block(jw, '}');
}

void
compare_json_put(json_writer *jw, const char *key, const cmp_side *base, const cmp_comparison *c,
				 int n)
{
	open_block(jw, key, '{');
	put_int(jw, "compare_version", 3);
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
