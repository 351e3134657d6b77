/*
 * report_json_extra.c — the members of the JSON document that the text
 * report has no line for: when, how and against what the run went, the
 * aborted clients' failure records, the series of intervals and the
 * latency histogram in a form another run's merges with exactly.  Formats
 * report_figures.extra (figures_report.c); doc/report-json.md documents
 * each member.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report.h"
#include "report_json_int.h"

/* A string member, null when empty (not known). */
static void
put_known(json_writer *jw, const char *key, const char *v)
{
	put_str(jw, key, v[0] != '\0' ? v : NULL);
}

void
report_json_meta(json_writer *jw, int compat, const figures_extra *e)
{
	static const figures_extra unknown;

	if (e == NULL)
		e = &unknown;
	put_int(jw, "compat", compat);
	open_block(jw, "command_line", '[');
	for (int i = 0; i < e->argc; i++)
		put_str(jw, NULL, e->argv[i]);
	close_block(jw, ']');
	put_known(jw, "start_time", e->start_iso);
	put_num(jw, "start_epoch_s", e->start_iso[0] != '\0' ? e->start_epoch_s : NAN);
	put_known(jw, "end_time", e->end_iso);
	put_num(jw, "end_epoch_s", e->end_iso[0] != '\0' ? e->end_epoch_s : NAN);
	if (e->target == NULL)
	{
		put_null(jw, "connection");
		return;
	}
	open_block(jw, "connection", '{');
	put_known(jw, "host", e->target->host);
	put_known(jw, "port", e->target->port);
	put_known(jw, "database", e->target->dbname);
	close_block(jw, '}');
}

/* A text without the newlines a server message ends with. */
static void
put_line(json_writer *jw, const char *key, char *text)
{
	size_t		len = strlen(text);

	while (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	put_str(jw, key, text);
}

/* An index that may be "none" (negative): null. */
static void
put_index(json_writer *jw, const char *key, int v)
{
	if (v >= 0)
		put_int(jw, key, v);
	else
		put_null(jw, key);
}

static void
put_abort(json_writer *jw, const run_abort *a)
{
	const client_failure *cf = &a->failure;
	bool		positioned = cf->kind == FAILURE_COMMAND || cf->kind == FAILURE_SQL ||
		cf->kind == FAILURE_RESULT || cf->kind == FAILURE_NO_RESULTS;
	char		line[FAILURE_TEXT_MAX + 256];
	char		message[FAILURE_TEXT_MAX];

	failure_format(cf, line, sizeof(line));
	snprintf(message, sizeof(message), "%s", cf->message);
	open_block(jw, NULL, '{');
	put_int(jw, "client", cf->client);
	put_num(jw, "at_s", 0.000001 * (double) a->at);
	put_str(jw, "kind", failure_kind_name(cf->kind));
	put_index(jw, "script", positioned ? cf->script : -1);
	put_index(jw, "command", positioned ? cf->command : -1);
	put_index(jw, "query", cf->kind == FAILURE_SQL || cf->kind == FAILURE_RESULT ? cf->query : -1);
	put_known(jw, "sqlstate", cf->sqlstate);
	open_block(jw, "causes", '[');
	for (int i = 0; i < cf->ncauses; i++)
		put_str(jw, NULL, cf->causes[i]);
	close_block(jw, ']');
	put_line(jw, "message", message);
	put_line(jw, "line", line);
	close_block(jw, '}');
}

void
report_json_aborts(json_writer *jw, const report_figures *f)
{
	open_block(jw, "aborted_clients", '[');
	for (int i = 0; i < f->extra.naborts; i++)
		put_abort(jw, f->extra.aborts[i]);
	close_block(jw, ']');
}

void
report_json_percentiles(json_writer *jw, const report_figures *f, const figures_latency *fl)
{
	open_block(jw, "percentiles", '{');
	for (int i = 0; fl->has_percentiles && i < f->nreport_percentiles; i++)
	{
		char		key[32];

		/* not %g: 99.99999 and 99.999991 would both be "p100" */
		key[0] = 'p';
		json_shortest(key + 1, sizeof(key) - 1, f->report_percentiles[i]);
		put_num(jw, key, fl->report_ms[i]);
	}
	close_block(jw, '}');
}

/*
 * A point's coarse histogram and exact sums, so that the series of several
 * reports merge exactly; null for an interval with no success.
 */
static void
put_point_hist(json_writer *jw, const timeline_record *r)
{
	if (r->delta.cnt == 0)
	{
		put_null(jw, "histogram");
		return;
	}
	open_block(jw, "histogram", '{');
	put_int(jw, "min_us", r->latency_min_us);
	put_int(jw, "max_us", r->latency_max_us);
	put_exact(jw, "latency_sum_us", r->delta.latency.sum);
	put_exact(jw, "latency_sum_squares_us", r->delta.latency.sum2);
	put_exact(jw, "lag_sum_us", r->delta.lag.sum);
	open_block(jw, "buckets", '[');
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		if (r->buckets[b] == 0)
			continue;
		json_member(jw, NULL);
		fprintf(jw->out, "[%d, %" PRIu32 "]", b, r->buckets[b]);
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

/* The client's CPU and memory in the interval; null when not read. */
static void
put_client(json_writer *jw, const figures_point *p)
{
	if (!p->has_client)
	{
		put_null(jw, "client");
		return;
	}
	open_block(jw, "client", '{');
	put_num(jw, "cpu_user_s", p->cpu_user_s);
	put_num(jw, "cpu_system_s", p->cpu_system_s);
	put_num(jw, "busiest_thread_cpu_pct", p->busiest_thread_cpu_pct);
	if (p->rss_kb >= 0)
		put_int(jw, "rss_kb", p->rss_kb);
	else
		put_null(jw, "rss_kb");
	close_block(jw, '}');
}

static void
put_point(json_writer *jw, const figures_point *p, bool throttled, bool monitored)
{
	static const double at[FIGURES_POINT_NPERCENTILES] = FIGURES_POINT_PERCENTILES;

	open_block(jw, NULL, '{');
	put_num(jw, "t_s", p->t_s);
	put_num(jw, "interval_s", p->interval_s);
	put_num(jw, "tps", p->tps);
	put_int(jw, "processed", p->processed);
	put_int(jw, "failures", p->failures);
	put_int(jw, "retried", p->retried);
	put_int(jw, "retries", p->retries);
	put_int(jw, "skipped", p->skipped);
	open_block(jw, "latency_ms", '{');
	put_num(jw, "average", p->latency_avg_ms);
	put_num(jw, "stddev", p->latency_stddev_ms);
	put_num(jw, "min", p->latency_min_ms);
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
	{
		char		key[32];

		snprintf(key, sizeof(key), "p%g", at[k]);
		put_num(jw, key, p->latency_ms[k]);
	}
	put_num(jw, "max", p->latency_max_ms);
	close_block(jw, '}');
	if (throttled)
	{
		open_block(jw, "lag_ms", '{');
		put_num(jw, "average", p->lag_avg_ms);
		close_block(jw, '}');
	}
	else
		put_null(jw, "lag_ms");
	put_client(jw, p);
	report_json_point_server(jw, p->raw, monitored);
	put_point_hist(jw, p->raw);
	close_block(jw, '}');
}

static void
put_server_setting(json_writer *jw, const char *key, const server_setting *s, bool with_name)
{
	open_block(jw, key, '{');
	if (with_name)
		put_str(jw, "name", s->name);
	put_str(jw, "value", s->value);
	put_str(jw, "unit", s->unit[0] != '\0' ? s->unit : NULL);
	put_str(jw, "source", s->source);
	close_block(jw, '}');
}

void
report_json_server(json_writer *jw, const report_figures *f)
{
	const server_info *si = f->extra.server;

	if (si == NULL)
	{
		put_null(jw, "server");
		return;
	}
	open_block(jw, "server", '{');
	put_int(jw, "version_num", si->version_num);
	put_str(jw, "version", si->version[0] != '\0' ? si->version : NULL);
	put_str(jw, "system_identifier", si->system_identifier[0] != '\0' ? si->system_identifier : NULL);
	open_block(jw, "settings", '{');
	for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
	{
		if (si->key_seen[k])
			put_server_setting(jw, si->key[k].name, &si->key[k], false);
		else
			put_null(jw, si->key[k].name);
	}
	close_block(jw, '}');
	open_block(jw, "non_default", '[');
	for (int i = 0; i < si->nnondefault; i++)
		put_server_setting(jw, NULL, &si->nondefault[i], true);
	close_block(jw, ']');
	put_bool(jw, "non_default_truncated", si->truncated);
	open_block(jw, "unreadable", '[');
	for (int i = 0; i < si->nunreadable; i++)
		put_str(jw, NULL, si->unreadable[i]);
	close_block(jw, ']');
	close_block(jw, '}');
}

void
report_json_client(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	if (isnan(e->busiest_thread_cpu_pct))
	{
		put_null(jw, "client");
		return;
	}
	open_block(jw, "client", '{');
	put_int(jw, "busiest_thread", e->busiest_thread);
	put_num(jw, "busiest_thread_busy_pct", e->busiest_thread_cpu_pct);
	put_bool(jw, "bound", e->client_bound);
	put_int(jw, "intervals_bound", e->intervals_client_bound);
	close_block(jw, '}');
}

void
report_json_series(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	if (e->timeline == NULL)
	{
		put_null(jw, "series");
		return;
	}
	open_block(jw, "series", '{');
	put_setting(jw, "interval_s", e->interval_s);
	put_bool(jw, "incomplete", e->series_incomplete);
	put_int(jw, "sub_bucket_bits", TIMELINE_SUB_BITS);
	open_block(jw, "points", '[');
	for (int i = 0; i < e->timeline->n; i++)
	{
		timeline_record r;
		figures_point p;

		if (!timeline_get(e->timeline, i, &r))
		{
			jw->failed = true;	/* the spill file failed: say so */
			break;
		}
		figures_point_of(&p, &r, f->throttled);
		put_point(jw, &p, f->throttled,
				  e->server_run != NULL && e->server_run->connected);
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

void
report_json_histogram(json_writer *jw, const report_figures *f)
{
	report_json_hist(jw, f->extra.latency_hist, f->extra.latency_sum_us,
					 f->extra.latency_sum2_us);
}

void
report_json_hist(json_writer *jw, const hist *h, double sum, double sum2)
{
	if (h == NULL)
	{
		put_null(jw, "latency_histogram");
		return;
	}
	open_block(jw, "latency_histogram", '{');
	put_str(jw, "layout", "log-linear");
	put_int(jw, "sub_bucket_bits", HIST_SUB_BITS);
	put_int(jw, "highest_us", h->highest);
	put_int(jw, "count", h->count);
	put_int(jw, "clamped", h->clamped);
	put_int(jw, "min_us", h->min);
	put_int(jw, "max_us", h->max);
	put_exact(jw, "sum_us", h->sum);
	put_exact(jw, "latency_sum_us", sum);
	put_exact(jw, "latency_sum_squares_us", sum2);
	open_block(jw, "buckets", '[');
	for (int i = 0; i < h->nbuckets; i++)
	{
		if (h->counts[i] == 0)
			continue;
		json_member(jw, NULL);
		fprintf(jw->out, "[%d, %" PRId64 "]", i, h->counts[i]);
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

/*
 * --rendezvous: the group, this member, the agreed start, and (clock) the
 * clock measurement; a merged report's input has no clock fields.
 */
static void
put_rendezvous(json_writer *jw, const rendezvous_info *rv, bool clock)
{
	if (rv == NULL)
	{
		put_null(jw, "rendezvous");
		return;
	}
	open_block(jw, "rendezvous", '{');
	put_str(jw, "group", rv->group);
	put_int(jw, "size", rv->size);
	put_int(jw, "member", rv->member);
	put_int(jw, "start_server_epoch_us", rv->start_server_us);
	if (clock)
	{
		put_int(jw, "clock_offset_us", rv->clock_offset_us);
		put_int(jw, "clock_rtt_us", rv->clock_rtt_us);
	}
	close_block(jw, '}');
}

/* One run a merged report holds: where it was read, its identity. */
static void
put_source(json_writer *jw, const report_source *rs)
{
	open_block(jw, NULL, '{');
	put_str(jw, "file", rs->file);
	put_str(jw, "run_id", rs->run_id[0] != '\0' ? rs->run_id : NULL);
	put_rendezvous(jw, rs->in_group ? &rs->group : NULL, false);
	report_json_source_server(jw, rs);
	close_block(jw, '}');
}

/* A merged report: the runs it holds; else null. */
static void
put_inputs(json_writer *jw, const figures_extra *e)
{
	if (e->nsources == 0)
	{
		put_null(jw, "inputs");
		return;
	}
	open_block(jw, "inputs", '[');
	for (int i = 0; i < e->nsources; i++)
		put_source(jw, &e->sources[i]);
	close_block(jw, ']');
}

void
report_json_fleet(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	put_rendezvous(jw, e->rendezvous, true);
	open_block(jw, "merge", '{');
	put_int(jw, "instances", e->instances);
	if (e->progress_s > 0)
		put_int(jw, "progress_s", e->progress_s);
	else
		put_null(jw, "progress_s");
	put_int(jw, "start_epoch_us", e->start_epoch_us);
	put_int(jw, "conn_elapsed_us", e->conn_elapsed_us);
	put_int(jw, "bench_duration_us", e->bench_duration_us);
	put_int(jw, "conn_duration_us", e->conn_duration_us);
	put_exact(jw, "lag_sum_us", e->lag_sum_us);
	close_block(jw, '}');
	put_inputs(jw, e);
	report_json_servers(jw, f);
}

void
report_json_reconnect(json_writer *jw, const report_figures *f)
{
	const figures_reconnect *fr = &f->reconnect;
	const struct
	{
		const char *key;
		double		value;
	}			times[] = {
		{"window_ms", fr->window_ms},
		{"first_loss_s", fr->first_loss_s},
		{"last_back_s", fr->last_back_s},
		{"downtime_max_ms", fr->downtime_max_ms},
		{"downtime_total_ms", fr->downtime_total_ms},
	};

	if (fr->enabled)
	{
		open_block(jw, "reconnect", '{');
		put_int(jw, "losses", fr->losses);
		put_int(jw, "reconnects", fr->reconnects);
		put_int(jw, "failed", fr->failed);
		for (size_t i = 0; i < PGB_LENGTHOF(times); i++)
			put_num(jw, times[i].key, times[i].value);
		put_int(jw, "clients_down_at_end", fr->down_at_end);
		close_block(jw, '}');
	}
	else
		put_null(jw, "reconnect");
}
