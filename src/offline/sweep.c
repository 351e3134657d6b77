/*
 * sweep.c — the report of a --sweep (sweep.h): a row per step read back
 * from its JSON report, the knee, the text table, the sweep's JSON
 * document and page (doc/sweep.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/offline/sweep.h"
#include "pgbench/report/html_assets.h"
#include "pgbench/report/json_writer.h"
#include "pgbench/report/report.h"
#include "pgbench/stats/timeline.h"

#define SWEEP_NPCT 3
static const char *const sweep_pct_keys[SWEEP_NPCT] = {"p50", "p90", "p99"};

/* One step. */
typedef struct sweep_row
{
	char		value[64];		/* as given */
	double		v;				/* its number; NAN: text */
	int			rc;				/* the step's exit status */
	bool		read;			/* its report was read */
	char	   *text;			/* the report, whole (NULL: not read) */
	char		outcome[32];
	double		tps;
	double		offered;		/* -R, tps; NAN: none */
	double		pct_ms[SWEEP_NPCT];
	int64_t		processed;
	int64_t		failed;
	double		failed_pct;
	double		client_busy_pct;	/* the busiest thread's; NAN: unknown */
	char		wait[TIMELINE_WAIT_NAME];	/* the most sampled wait event; "" */
	double		wait_backends;	/* the run's backends in it, on average */
} sweep_row;

struct sweep_table
{
	char		param[64];
	bool		numeric;
	double		slo_ms;
	int			n;
	sweep_row	rows[PGB_SWEEP_ROWS];
};

sweep_table *
sweep_table_new(const char *param, bool numeric, double slo_ms)
{
	sweep_table *t = pgb_calloc(1, sizeof(sweep_table));

	snprintf(t->param, sizeof(t->param), "%s", param);
	t->numeric = numeric;
	t->slo_ms = slo_ms;
	return t;
}

void
sweep_table_free(sweep_table *t)
{
	if (t == NULL)
		return;
	for (int i = 0; i < t->n; i++)
		free(t->rows[i].text);
	free(t);
}

/* A number member of obj (a path of keys), or NAN */
static double
num_at(const json_value *obj, const char *k1, const char *k2, const char *k3)
{
	const char *keys[3] = {k1, k2, k3};
	const json_value *v = obj;

	for (int i = 0; i < 3 && keys[i] != NULL && v != NULL; i++)
		v = v->kind == JSON_OBJECT ? json_get(v, keys[i]) : NULL;
	return v != NULL && v->kind == JSON_NUMBER ? json_num(v) : NAN;
}

/*
 * The wait event the run's backends were seen in most in the server
 * (server_stats.wait_events): a report that sampled idle sessions too
 * (all_states) counts them waiting for their client, which is not the
 * server's wait.
 */
static void
top_wait(const json_value *root, sweep_row *r)
{
	const json_value *we = json_get(root, "server_stats");
	const json_value *counts,
			   *all;
	double		samples = num_at(root, "server_stats", "wait_events", "samples");
	double		best = 0;
	bool		idle;

	we = we != NULL && we->kind == JSON_OBJECT ? json_get(we, "wait_events") : NULL;
	counts = we != NULL && we->kind == JSON_OBJECT ? json_get(we, "counts") : NULL;
	all = we != NULL && we->kind == JSON_OBJECT ? json_get(we, "all_states") : NULL;
	idle = all != NULL && all->kind == JSON_BOOL && all->boolean;
	for (int i = 0; counts != NULL && counts->kind == JSON_OBJECT && i < counts->n; i++)
	{
		const json_value *c = json_member_value(counts, i);
		double		n = c->kind == JSON_NUMBER ? json_num(c) : 0;

		if (idle && strcmp(json_member_name(counts, i), "Client:ClientRead") == 0)
			continue;
		if (n > best)
		{
			best = n;
			snprintf(r->wait, sizeof(r->wait), "%s", json_member_name(counts, i));
		}
	}
	utf8_mask_controls(r->wait);
	r->wait_backends = best > 0 && samples > 0 ? best / samples : NAN;
}

/*
 * transactions.key of a report as a count: 0 when it is missing or no
 * count (a step that failed to start writes none; a hostile report may
 * write anything)
 */
static int64_t
count_at(const json_value *root, const char *key)
{
	double		v = num_at(root, "transactions", key, NULL);

	return v >= 0 && v <= (double) INT64_MAX / 4 ? (int64_t) v : 0;
}

/* The row's figures from its report's document. */
static void
read_row(const json_value *root, sweep_row *r)
{
	const json_value *outcome = json_get(root, "outcome");

	snprintf(r->outcome, sizeof(r->outcome), "%s",
			 outcome != NULL && outcome->kind == JSON_STRING ? json_str(outcome) : "?");
	utf8_mask_controls(r->outcome);
	r->tps = num_at(root, "tps", NULL, NULL);
	r->offered = num_at(root, "settings", "rate_tps", NULL);
	for (int p = 0; p < SWEEP_NPCT; p++)
		r->pct_ms[p] = num_at(root, "latency_ms", "percentiles", sweep_pct_keys[p]);
	r->processed = count_at(root, "processed");
	r->failed = count_at(root, "failed");
	r->failed_pct = r->processed + r->failed > 0
		? 100.0 * (double) r->failed / (double) (r->processed + r->failed) : NAN;
	r->client_busy_pct = num_at(root, "client", "busiest_thread_busy_pct", NULL);
	top_wait(root, r);
}

bool
sweep_table_add(sweep_table *t, const char *value, double v, int rc, const char *path)
{
	sweep_row  *r;
	merge_error err = {0};
	json_doc	doc;
	char		why[256];
	size_t		len;
	char	   *text;
	bool		parsed;

	if (t->n >= PGB_SWEEP_ROWS)
		return false;
	r = &t->rows[t->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->value, sizeof(r->value), "%s", value);
	r->v = v;
	r->rc = rc;
	r->tps = r->offered = r->failed_pct = r->client_busy_pct = r->wait_backends = NAN;
	for (int p = 0; p < SWEEP_NPCT; p++)
		r->pct_ms[p] = NAN;
	snprintf(r->outcome, sizeof(r->outcome), "not run");
	if (access(path, F_OK) != 0)
		return true;			/* the step wrote no report (it could not start) */
	if ((text = merge_read_file(path, &len, &err)) == NULL)
	{
		diag_error("%s", err.message);
		merge_error_free(&err);
		return false;
	}
	/* the file's bytes end with no NUL: the text kept is a string */
	r->text = pgb_malloc(len + 1);
	memcpy(r->text, text, len);
	r->text[len] = '\0';
	free(text);
	parsed = json_parse(r->text, len, &doc, why, sizeof(why));
	if (!parsed || doc.root.kind != JSON_OBJECT || memchr(r->text, '\0', len) != NULL)
	{
		diag_error("%s: %s", path, !parsed ? why : "not a report");
		if (parsed)
			json_doc_free(&doc);
		free(r->text);
		r->text = NULL;
		return false;
	}
	read_row(&doc.root, r);
	r->read = true;
	json_doc_free(&doc);
	return true;
}

/* A step whose figures count for the knee: it ran to its end. */
static bool
row_counts(const sweep_row *r)
{
	return r->read && strcmp(r->outcome, "completed") == 0 && isfinite(r->tps);
}

sweep_knee
sweep_table_knee(const sweep_table *t)
{
	sweep_knee	k = {.step = -1, .by_slo = t->slo_ms > 0};

	for (int i = 0; i < t->n && row_counts(&t->rows[i]); i++)
	{
		const sweep_row *r = &t->rows[i];

		if ((k.by_slo && !(r->pct_ms[2] <= t->slo_ms)) ||
			(!k.by_slo && i > 0 && r->tps < (1 + SWEEP_KNEE_GAIN) * t->rows[i - 1].tps))
		{
			k.decided = true;
			k.reached = k.step >= 0;
			return k;
		}
		k.step = i;
	}
	return k;
}

/* A number for the table: "-" when unknown. */
static const char *
cell(char *buf, size_t len, const char *fmt, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, fmt, v);
	return buf;
}

/* The knee in words, for the table's heading. */
static void
knee_words(const sweep_table *t, sweep_knee k, char *buf, size_t len)
{
	if (k.step < 0)
		snprintf(buf, len, t->slo_ms > 0 ? "no knee: no step kept latency p99 within %g ms"
				 : "no knee: no step ran to its end", t->slo_ms);
	else if (!k.reached)
		snprintf(buf, len, "no knee within the sweep: %s up to its last step", k.by_slo
				 ? "latency p99 stayed within the SLO" : "tps still grew by 5% or more");
	else if (k.by_slo)
		snprintf(buf, len, "knee at %s = %s: the last step with latency p99 within %g ms",
				 t->param, t->rows[k.step].value, t->slo_ms);
	else
		snprintf(buf, len, "knee at %s = %s: the next step gained less than 5%% tps",
				 t->param, t->rows[k.step].value);
}

static void
print_table(const sweep_table *t, FILE *out, int nplanned)
{
	sweep_knee	k = sweep_table_knee(t);
	char		words[256],
				b[6][32];

	knee_words(t, k, words, sizeof(words));
	fprintf(out, "\nsweep of %s: %d of %d steps run; %s\n", t->param, t->n, nplanned, words);
	fprintf(out, "%4s %12s %12s %10s %10s %10s %8s %10s  %s\n", "step", t->param, "tps",
			"p50 ms", "p90 ms", "p99 ms", "failed", "client %", "top wait event");
	for (int i = 0; i < t->n; i++)
	{
		const sweep_row *r = &t->rows[i];
		char		wait[TIMELINE_WAIT_NAME + 32];

		if (r->wait[0] != '\0')
			snprintf(wait, sizeof(wait), "%s (%.1f)", r->wait, r->wait_backends);
		else
			snprintf(wait, sizeof(wait), "-");
		fprintf(out, "%4d %12s %12s %10s %10s %10s %8s %10s  %s%s%s", i + 1, r->value,
				cell(b[0], sizeof(b[0]), "%.1f", r->tps), cell(b[1], sizeof(b[1]), "%.3f", r->pct_ms[0]),
				cell(b[2], sizeof(b[2]), "%.3f", r->pct_ms[1]), cell(b[3], sizeof(b[3]), "%.3f", r->pct_ms[2]),
				r->read ? cell(b[4], sizeof(b[4]), "%.0f", (double) r->failed) : "-",
				cell(b[5], sizeof(b[5]), "%.1f", r->client_busy_pct), wait,
				row_counts(r) ? "" : "  (", row_counts(r) ? "" : r->outcome);
		if (!row_counts(r))
			fputc(')', out);
		if (i == k.step && k.reached)
			fputs("  <- knee", out);
		fputc('\n', out);
	}
}

/* The rows' figures as JSON members (the document's and the page's). */
static void
put_rows(json_writer *jw, const sweep_table *t, bool reports)
{
	open_block(jw, "steps", '[');
	for (int i = 0; i < t->n; i++)
	{
		const sweep_row *r = &t->rows[i];

		open_block(jw, NULL, '{');
		put_int(jw, "step", i + 1);
		put_str(jw, "value", r->value);
		put_num(jw, "number", r->v);
		put_int(jw, "exit_status", r->rc);
		put_str(jw, "outcome", r->outcome);
		put_num(jw, "tps", r->tps);
		put_num(jw, "offered_tps", r->offered);
		open_block(jw, "latency_ms", '{');
		for (int p = 0; p < SWEEP_NPCT; p++)
			put_num(jw, sweep_pct_keys[p], r->pct_ms[p]);
		close_block(jw, '}');
		put_num(jw, "failed", r->read ? (double) r->failed : NAN);
		put_num(jw, "failed_pct", r->failed_pct);
		put_num(jw, "client_busy_pct", r->client_busy_pct);
		put_str(jw, "top_wait_event", r->wait[0] != '\0' ? r->wait : NULL);
		put_num(jw, "top_wait_backends", r->wait_backends);
		if (reports)
		{
			json_member(jw, "report");
			if (r->text != NULL)
			{
				size_t		len = strlen(r->text);

				while (len > 0 && r->text[len - 1] == '\n')
					len--;
				fwrite(r->text, 1, len, jw->out);
			}
			else
				fputs("null", jw->out);
		}
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

/* The document (reports: each step's whole report in it) to out. */
static void
put_document(FILE *out, const sweep_table *t, int nplanned, bool reports)
{
	json_writer jw;
	sweep_knee	k = sweep_table_knee(t);
	char		words[256];

	memset(&jw, 0, sizeof(jw));
	jw.out = out;
	jw.schema_bad = RM_NONE;
	knee_words(t, k, words, sizeof(words));
	open_block(&jw, NULL, '{');
	put_int(&jw, "sweep_schema_version", 1);
	put_str(&jw, "pgbench_version", PGBENCH_VERSION);
	put_str(&jw, "parameter", t->param);
	put_bool(&jw, "numeric", t->numeric);
	put_num(&jw, "slo_ms", t->slo_ms > 0 ? t->slo_ms : NAN);
	put_int(&jw, "steps_planned", nplanned);
	open_block(&jw, "knee", '{');
	if (k.step >= 0)
		put_int(&jw, "step", k.step + 1);
	else
		put_null(&jw, "step");
	put_str(&jw, "value", k.step >= 0 ? t->rows[k.step].value : NULL);
	put_bool(&jw, "reached", k.reached);
	put_str(&jw, "rule", k.by_slo ? "slo" : "gain");
	put_str(&jw, "text", words);
	close_block(&jw, '}');
	put_rows(&jw, t, reports);
	close_block(&jw, '}');
	fputc('\n', out);
}

static bool
write_page(const sweep_table *t, int nplanned, const char *path)
{
	char	   *json = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&json, &len);
	FILE	   *out;

	if (mem == NULL)
		return false;
	put_document(mem, t, nplanned, false);
	if (fclose(mem) != 0 || (out = fopen(path, "w")) == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		free(json);
		return false;
	}
	report_html_put_page(out, &(report_page) {"pgbench sweep", "sweep", "sweep-data",
						 report_asset_sweep_js, report_asset_sweep_js_len}, json, len);
	free(json);
	return report_file_close(out, path);
}

bool
sweep_table_finish(sweep_table *t, FILE *out, int nplanned, const char *json_path,
				   const char *html_path)
{
	bool		ok = true;
	FILE	   *f;

	print_table(t, out, nplanned);
	fflush(out);
	if (json_path != NULL)
	{
		if ((f = fopen(json_path, "w")) == NULL)
		{
			diag_error("could not open report file \"%s\": %s", json_path, strerror(errno));
			ok = false;
		}
		else
		{
			put_document(f, t, nplanned, true);
			ok = report_file_close(f, json_path) && ok;
		}
	}
	if (html_path != NULL)
		ok = write_page(t, nplanned, html_path) && ok;
	return ok;
}
