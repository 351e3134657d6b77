/*
 * threshold.c — --threshold=EXPR parsed and checked (threshold.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/threshold.h"

/* The figures by name: latencies, ratios and counts (THK_TPS and server.* aside). */
enum
{
	LAT_AVERAGE, LAT_STDDEV, LAT_MIN, LAT_MAX, LAT_PERCENTILE,
};
enum
{
	CNT_PROCESSED, CNT_FAILED, CNT_SKIPPED, CNT_RETRIED, CNT_RETRIES,
};

static const struct
{
	const char *name;
	threshold_kind kind;
	int			which;
}			names[] = {
	{"tps", THK_TPS, 0},
	{"latency.average", THK_LATENCY, LAT_AVERAGE},
	{"latency.stddev", THK_LATENCY, LAT_STDDEV},
	{"latency.min", THK_LATENCY, LAT_MIN},
	{"latency.max", THK_LATENCY, LAT_MAX},
	{"failed.ratio", THK_RATIO, CNT_FAILED},
	{"skipped.ratio", THK_RATIO, CNT_SKIPPED},
	{"retried.ratio", THK_RATIO, CNT_RETRIED},
	{"processed", THK_COUNT, CNT_PROCESSED},
	{"failed", THK_COUNT, CNT_FAILED},
	{"skipped", THK_COUNT, CNT_SKIPPED},
	{"retried", THK_COUNT, CNT_RETRIED},
	{"retries", THK_COUNT, CNT_RETRIES},
};

/* The figure called name into t (kind, which, percentile); false if none. */
static bool
find_figure(const char *name, threshold *t)
{
	char	   *end;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0)
		{
			t->kind = names[i].kind;
			t->which = names[i].which;
			return true;
		}
	if (strncmp(name, "latency.p", 9) == 0 && isdigit((unsigned char) name[9]))
	{
		t->percentile = strtod(name + 9, &end);
		t->kind = THK_LATENCY;
		t->which = LAT_PERCENTILE;
		return *end == '\0' && t->percentile >= 0 && t->percentile <= 100;
	}
	if (strncmp(name, "server.", 7) == 0)
		for (int i = 0; i < SRV_NCOUNTERS; i++)
		{
			const timeline_counter_def *d = &timeline_server_counters[i];
			char		full[64];

			snprintf(full, sizeof(full), "%s.%s", d->group, d->key);
			if (strcmp(name + 7, d->key) == 0 || strcmp(name + 7, full) == 0)
			{
				t->kind = THK_SERVER;
				t->which = i;
				return true;
			}
		}
	return false;
}

/* The operator at *p (advanced past it); false if none. */
static bool
parse_op(const char **p, threshold_op *op)
{
	static const struct
	{
		const char *text;
		threshold_op op;
	}			ops[] = {
		{">=", THR_GE}, {"<=", THR_LE}, {"==", THR_EQ}, {"!=", THR_NE}, {">", THR_GT}, {"<", THR_LT},
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strncmp(*p, ops[i].text, strlen(ops[i].text)) == 0)
		{
			*op = ops[i].op;
			*p += strlen(ops[i].text);
			return true;
		}
	return false;
}

/* The bound's unit (after the number) into t->bound and t->relative; false with err. */
static bool
apply_unit(threshold *t, const char *unit, char *err, size_t errlen)
{
	bool		time_unit = strcmp(unit, "us") == 0 || strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0;
	bool		pct = strcmp(unit, "%") == 0;

	if (*unit == '\0')
		return true;
	if (t->kind == THK_LATENCY && time_unit)
	{
		t->bound *= strcmp(unit, "us") == 0 ? 0.001 : strcmp(unit, "s") == 0 ? 1000.0 : 1.0;
		return true;
	}
	if (t->kind == THK_RATIO && (pct || (t->change && strcmp(unit, "pp") == 0)))
		return true;			/* a ratio's change is in percentage points */
	if (t->change && pct)
	{
		t->relative = true;
		return true;
	}
	snprintf(err, errlen, "unit \"%s\" does not fit %s%s", unit, t->name,
			 t->change ? ".change" : "");
	return false;
}

bool
threshold_parse(const char *text, threshold *t, char *err, size_t errlen)
{
	const char *p = text;
	char	   *end;
	size_t		n = 0;

	memset(t, 0, sizeof(*t));
	if (strlen(text) >= sizeof(t->text))
	{
		snprintf(err, errlen, "longer than %d bytes", THRESHOLD_TEXT_LEN - 1);
		return false;
	}
	memcpy(t->text, text, strlen(text) + 1);
	while (*p == ' ')
		p++;
	while (n < sizeof(t->name) - 1 && (islower((unsigned char) p[n]) || isdigit((unsigned char) p[n]) ||
									   p[n] == '.' || p[n] == '_'))
		n++;
	memcpy(t->name, p, n);
	t->name[n] = '\0';
	p += n;
	if (n > 7 && strcmp(t->name + n - 7, ".change") == 0)
	{
		t->change = true;
		t->name[n - 7] = '\0';
	}
	if (n == 0 || !find_figure(t->name, t))
	{
		snprintf(err, errlen, "unknown figure \"%.*s\"", (int) (n > 0 ? n : strcspn(p, "<>=!")), n > 0 ? t->name : p);
		return false;
	}
	while (*p == ' ')
		p++;
	if (!parse_op(&p, &t->op))
	{
		snprintf(err, errlen, "expected >=, <=, >, <, == or != after %s", t->name);
		return false;
	}
	if (t->change && (t->op == THR_EQ || t->op == THR_NE))
	{
		snprintf(err, errlen, "a change is bounded with >=, <=, > or <");
		return false;
	}
	t->bound = strtod(p, &end);
	if (end == p || !isfinite(t->bound))
	{
		snprintf(err, errlen, "expected a number after the operator");
		return false;
	}
	while (*end == ' ')
		end++;
	n = strlen(end);
	while (n > 0 && end[n - 1] == ' ')
		n--;
	{
		char		unit[8];

		if (n >= sizeof(unit))
		{
			snprintf(err, errlen, "unknown unit \"%.*s\"", (int) n, end);
			return false;
		}
		memcpy(unit, end, n);
		unit[n] = '\0';
		return apply_unit(t, unit, err, errlen);
	}
}

/* A latency figure of f (ms); false when f has none. */
static bool
latency_value(const threshold *t, const report_figures *f, double *v)
{
	const figures_latency *l = &f->latency;

	switch (t->which)
	{
		case LAT_AVERAGE:
			*v = f->latency_average_ms;
			break;
		case LAT_STDDEV:
			*v = l->series.stddev;
			break;
		case LAT_MIN:
			*v = l->series.min;
			break;
		case LAT_MAX:
			*v = l->series.max;
			break;
		default:
			*v = NAN;
			for (int i = 0; l->has_percentiles && i < f->nreport_percentiles; i++)
				if (f->report_percentiles[i] == t->percentile)
					*v = l->report_ms[i];
			for (int i = 0; l->has_percentiles && i < f->npercentiles; i++)
				if (f->percentiles[i] == t->percentile)
					*v = l->percentile_ms[i];
			break;
	}
	return isfinite(*v);
}

/* The figure t bounds in f; false when f does not have it. */
static bool
figure_value(const threshold *t, const report_figures *f, double *v)
{
	const figures_counts *c = &f->counts;
	const server_run *sr = f->extra.server_run;
	switch (t->kind)
	{
		case THK_TPS:
			*v = f->tps;
			return isfinite(*v);
		case THK_LATENCY:
			return latency_value(t, f, v);
		case THK_RATIO:
			*v = t->which == CNT_FAILED ? c->failed_pct : t->which == CNT_SKIPPED ? c->skipped_pct
				: c->retried_pct;
			if (!isfinite(*v) && c->total == 0)
				*v = 0.0;		/* nothing ran: no failure either */
			return isfinite(*v);
		case THK_COUNT:
			*v = (double) (t->which == CNT_PROCESSED ? c->cnt : t->which == CNT_FAILED ? c->failed
						   : t->which == CNT_SKIPPED ? c->skipped : t->which == CNT_RETRIED ? c->retried
						   : c->retries);
			return true;
		case THK_SERVER:
			if (sr == NULL || !sr->totals_read || !(sr->present & (UINT64_C(1) << t->which)))
				return false;
			*v = sr->total[t->which];
			return true;
	}
	return false;
}

/* Whether value is within t's bound. */
static bool
within(threshold_op op, double value, double bound)
{
	switch (op)
	{
		case THR_GE:
			return value >= bound;
		case THR_LE:
			return value <= bound;
		case THR_GT:
			return value > bound;
		case THR_LT:
			return value < bound;
		case THR_EQ:
			return value == bound;
		case THR_NE:
			return value != bound;
	}
	return false;
}

void
threshold_check_figures(const threshold *t, const report_figures *f, threshold_result *r)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->measured = !t->change && figure_value(t, f, &r->value);
	r->passed = r->measured && within(t->op, r->value, t->bound);
}

void
threshold_check_change(const threshold *t, double base, double change, bool has_interval,
					   double lo, double hi, threshold_result *r)
{
	double		scale = 1.0;

	memset(r, 0, sizeof(*r));
	r->t = t;
	if (t->relative)
	{
		if (!(base != 0.0 && isfinite(base)))
			return;				/* no relative change from 0 */
		scale = 100.0 / fabs(base);
	}
	r->measured = isfinite(change);
	r->value = change * scale;
	r->has_interval = has_interval;
	r->lo = has_interval ? lo * scale : r->value;
	r->hi = has_interval ? hi * scale : r->value;
	/* only a change beyond the noise fails: the whole interval past the bound */
	if (t->op == THR_GE || t->op == THR_GT)
		r->passed = r->measured && within(t->op, r->hi, t->bound);
	else
		r->passed = r->measured && within(t->op, r->lo, t->bound);
}

int
threshold_check_all(const threshold *ts, int n, const report_figures *f, threshold_result *results)
{
	int			failed = 0;

	for (int i = 0; i < n; i++)
	{
		threshold_check_figures(&ts[i], f, &results[i]);
		failed += !results[i].passed;
	}
	return failed;
}

void
threshold_print(FILE *out, const threshold_result *r)
{
	const threshold *t = r->t;
	const char *unit = t->relative ? "%"
		: t->kind == THK_RATIO ? (t->change ? " pp" : "%")
		: t->kind == THK_LATENCY ? " ms" : "";

	fprintf(out, "threshold %s: %s (", t->text,
			r->undecided ? "CANNOT TELL" : r->passed ? "passed" : "FAILED");
	if (!r->measured)
		fprintf(out, "not measured: the report has no %s%s)\n", t->name,
				t->change ? " on both sides" : "");
	else if (t->change && r->undecided)
		fprintf(out, "%s.change = %+.3f%s, and the comparison cannot tell: see its verdict)\n",
				t->name, r->value, unit);
	else if (t->change && r->has_interval)
		fprintf(out, "%s.change = %+.3f%s, 95%% interval [%+.3f%s, %+.3f%s])\n", t->name, r->value,
				unit, r->lo, unit, r->hi, unit);
	else if (t->change)
		fprintf(out, "%s.change = %+.3f%s, no interval)\n", t->name, r->value, unit);
	else if ((t->kind == THK_COUNT || t->kind == THK_SERVER) && r->value == floor(r->value) &&
			 fabs(r->value) < 1e18)
		fprintf(out, "%s = %.0f)\n", t->name, r->value);
	else
		fprintf(out, "%s = %.3f%s)\n", t->name, r->value, unit);
}
