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
#include "pgbench/report/threshold.h"
#include "report_json_int.h"

/* A string member, null when empty (not known). */
static void
put_known(json_writer *jw, report_member m, const char *v)
{
	jw_str(jw, m, v[0] != '\0' ? v : NULL);
}

void
report_json_meta(json_writer *jw, int compat, const figures_extra *e)
{
	static const figures_extra unknown;

	if (e == NULL)
		e = &unknown;
	jw_int(jw, RM_TOP_COMPAT, compat);
	jw_open(jw, RM_TOP_COMMAND_LINE);
	for (int i = 0; i < e->argc; i++)
		put_str(jw, NULL, e->argv[i]);
	close_block(jw, ']');
	put_known(jw, RM_TOP_START_TIME, e->start_iso);
	jw_num(jw, RM_TOP_START_EPOCH_S, e->start_iso[0] != '\0' ? e->start_epoch_s : NAN);
	put_known(jw, RM_TOP_END_TIME, e->end_iso);
	jw_num(jw, RM_TOP_END_EPOCH_S, e->end_iso[0] != '\0' ? e->end_epoch_s : NAN);
	if (e->target == NULL)
	{
		jw_null(jw, RM_TOP_CONNECTION);
		return;
	}
	jw_open(jw, RM_TOP_CONNECTION);
	put_known(jw, RM_CONNECTION_HOST, e->target->host);
	put_known(jw, RM_CONNECTION_PORT, e->target->port);
	put_known(jw, RM_CONNECTION_DATABASE, e->target->dbname);
	close_block(jw, '}');
}

/* A text without the newlines a server message ends with. */
static void
put_line(json_writer *jw, report_member m, char *text)
{
	size_t		len = strlen(text);

	while (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	jw_str(jw, m, text);
}

/* An index that may be "none" (negative): null. */
static void
put_index(json_writer *jw, report_member m, int v)
{
	if (v >= 0)
		jw_int(jw, m, v);
	else
		jw_null(jw, m);
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
	jw_int(jw, RM_ABORT_CLIENT, cf->client);
	jw_num(jw, RM_ABORT_AT_S, 0.000001 * (double) a->at);
	jw_str(jw, RM_ABORT_KIND, failure_kind_name(cf->kind));
	put_index(jw, RM_ABORT_SCRIPT, positioned ? cf->script : -1);
	put_index(jw, RM_ABORT_COMMAND, positioned ? cf->command : -1);
	put_index(jw, RM_ABORT_QUERY,
			  cf->kind == FAILURE_SQL || cf->kind == FAILURE_RESULT ? cf->query : -1);
	put_known(jw, RM_ABORT_SQLSTATE, cf->sqlstate);
	jw_open(jw, RM_ABORT_CAUSES);
	for (int i = 0; i < cf->ncauses; i++)
		put_str(jw, NULL, cf->causes[i]);
	close_block(jw, ']');
	put_line(jw, RM_ABORT_MESSAGE, message);
	put_line(jw, RM_ABORT_LINE, line);
	close_block(jw, '}');
}

void
report_json_aborts(json_writer *jw, const report_figures *f)
{
	jw_open(jw, RM_TOP_ABORTED_CLIENTS);
	for (int i = 0; i < f->extra.naborts; i++)
		put_abort(jw, f->extra.aborts[i]);
	close_block(jw, ']');
}

void
report_json_percentiles(json_writer *jw, const report_figures *f, const figures_latency *fl)
{
	jw_open(jw, RM_LATENCY_PERCENTILES);
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
		jw_null(jw, RM_POINT_HISTOGRAM);
		return;
	}
	jw_open(jw, RM_POINT_HISTOGRAM);
	jw_int(jw, RM_POINT_HIST_MIN_US, r->latency_min_us);
	jw_int(jw, RM_POINT_HIST_MAX_US, r->latency_max_us);
	jw_exact(jw, RM_POINT_HIST_LATENCY_SUM_US, r->delta.latency.sum);
	jw_exact(jw, RM_POINT_HIST_LATENCY_SUM_SQUARES_US, r->delta.latency.sum2);
	jw_exact(jw, RM_POINT_HIST_LAG_SUM_US, r->delta.lag.sum);
	jw_open(jw, RM_POINT_HIST_BUCKETS);
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
		jw_null(jw, RM_POINT_CLIENT);
		return;
	}
	jw_open(jw, RM_POINT_CLIENT);
	jw_num(jw, RM_POINT_CLIENT_CPU_USER_S, p->cpu_user_s);
	jw_num(jw, RM_POINT_CLIENT_CPU_SYSTEM_S, p->cpu_system_s);
	jw_num(jw, RM_POINT_CLIENT_BUSIEST_THREAD_CPU_PCT, p->busiest_thread_cpu_pct);
	if (p->rss_kb >= 0)
		jw_int(jw, RM_POINT_CLIENT_RSS_KB, p->rss_kb);
	else
		jw_null(jw, RM_POINT_CLIENT_RSS_KB);
	close_block(jw, '}');
}

static void
put_point(json_writer *jw, const figures_point *p, bool throttled, const server_run *run)
{
	/*
	 * FIGURES_POINT_PERCENTILES: a fixed list, so the schema declares each
	 * as a member ("p50" ... "p99.9"), in its order
	 */
	static const report_member pct[] = {
		RM_POINT_LATENCY_P50, RM_POINT_LATENCY_P90, RM_POINT_LATENCY_P99, RM_POINT_LATENCY_P99_9,
	};

	_Static_assert(PGB_LENGTHOF(pct) == FIGURES_POINT_NPERCENTILES,
				   "a member per point percentile");

	open_block(jw, NULL, '{');
	jw_num(jw, RM_POINT_T_S, p->t_s);
	jw_num(jw, RM_POINT_INTERVAL_S, p->interval_s);
	jw_num(jw, RM_POINT_TPS, p->tps);
	jw_int(jw, RM_POINT_PROCESSED, p->processed);
	jw_int(jw, RM_POINT_FAILURES, p->failures);
	jw_int(jw, RM_POINT_RETRIED, p->retried);
	jw_int(jw, RM_POINT_RETRIES, p->retries);
	jw_int(jw, RM_POINT_SKIPPED, p->skipped);
	jw_open(jw, RM_POINT_LATENCY_MS);
	jw_num(jw, RM_POINT_LATENCY_AVERAGE, p->latency_avg_ms);
	jw_num(jw, RM_POINT_LATENCY_STDDEV, p->latency_stddev_ms);
	jw_num(jw, RM_POINT_LATENCY_MIN, p->latency_min_ms);
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
		jw_num(jw, pct[k], p->latency_ms[k]);
	jw_num(jw, RM_POINT_LATENCY_MAX, p->latency_max_ms);
	close_block(jw, '}');
	if (throttled)
	{
		jw_open(jw, RM_POINT_LAG_MS);
		jw_num(jw, RM_POINT_LAG_AVERAGE, p->lag_avg_ms);
		close_block(jw, '}');
	}
	else
		jw_null(jw, RM_POINT_LAG_MS);
	put_client(jw, p);
	report_json_point_server(jw, p->raw, run);
	put_point_hist(jw, p->raw);
	jw_num(jw, RM_POINT_STAGE_TARGET, p->stage_target);
	close_block(jw, '}');
}

/*
 * A server setting: under its own name in "settings" (the key, from the
 * server), or an item of "non_default" (key NULL), which names it.
 */
static void
put_server_setting(json_writer *jw, const char *key, const server_setting *s, bool with_name)
{
	open_block(jw, key, '{');
	if (with_name)
		jw_str(jw, RM_SERVER_SETTING_NAME, s->name);
	jw_str(jw, RM_SERVER_SETTING_VALUE, s->value);
	jw_str(jw, RM_SERVER_SETTING_UNIT, s->unit[0] != '\0' ? s->unit : NULL);
	jw_str(jw, RM_SERVER_SETTING_SOURCE, s->source);
	close_block(jw, '}');
}

void
report_json_server(json_writer *jw, const report_figures *f)
{
	const server_info *si = f->extra.server;

	if (si == NULL)
	{
		jw_null(jw, RM_TOP_SERVER);
		return;
	}
	jw_open(jw, RM_TOP_SERVER);
	jw_int(jw, RM_SERVER_VERSION_NUM, si->version_num);
	put_known(jw, RM_SERVER_VERSION, si->version);
	put_known(jw, RM_SERVER_SYSTEM_IDENTIFIER, si->system_identifier);
	jw_open(jw, RM_SERVER_SETTINGS);
	for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
	{
		if (si->key_seen[k])
			put_server_setting(jw, si->key[k].name, &si->key[k], false);
		else
			put_null(jw, si->key[k].name);
	}
	close_block(jw, '}');
	jw_open(jw, RM_SERVER_NON_DEFAULT);
	for (int i = 0; i < si->nnondefault; i++)
		put_server_setting(jw, NULL, &si->nondefault[i], true);
	close_block(jw, ']');
	jw_bool(jw, RM_SERVER_NON_DEFAULT_TRUNCATED, si->truncated);
	jw_open(jw, RM_SERVER_UNREADABLE);
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
		jw_null(jw, RM_TOP_CLIENT);
		return;
	}
	jw_open(jw, RM_TOP_CLIENT);
	jw_int(jw, RM_CLIENT_BUSIEST_THREAD, e->busiest_thread);
	jw_num(jw, RM_CLIENT_BUSIEST_THREAD_BUSY_PCT, e->busiest_thread_cpu_pct);
	jw_bool(jw, RM_CLIENT_BOUND, e->client_bound);
	jw_int(jw, RM_CLIENT_INTERVALS_BOUND, e->intervals_client_bound);
	close_block(jw, '}');
}

void
report_json_series(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	if (e->timeline == NULL)
	{
		jw_null(jw, RM_TOP_SERIES);
		return;
	}
	jw_open(jw, RM_TOP_SERIES);
	jw_setting(jw, RM_SERIES_INTERVAL_S, e->interval_s);
	jw_bool(jw, RM_SERIES_INCOMPLETE, e->series_incomplete);
	jw_int(jw, RM_SERIES_SUB_BUCKET_BITS, TIMELINE_SUB_BITS);
	jw_open(jw, RM_SERIES_POINTS);
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
		put_point(jw, &p, f->throttled, e->server_run);
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

void
report_json_histogram(json_writer *jw, const report_figures *f)
{
	report_json_hist(jw, RM_TOP_LATENCY_HISTOGRAM, f->extra.latency_hist,
					 f->extra.latency_sum_us, f->extra.latency_sum2_us);
}

void
report_json_hist(json_writer *jw, report_member m, const hist *h, double sum, double sum2)
{
	if (h == NULL)
	{
		jw_null(jw, m);
		return;
	}
	jw_open(jw, m);
	jw_str(jw, RM_HISTOGRAM_LAYOUT, "log-linear");
	jw_int(jw, RM_HISTOGRAM_SUB_BUCKET_BITS, HIST_SUB_BITS);
	jw_int(jw, RM_HISTOGRAM_HIGHEST_US, h->highest);
	jw_int(jw, RM_HISTOGRAM_COUNT, h->count);
	jw_int(jw, RM_HISTOGRAM_CLAMPED, h->clamped);
	jw_int(jw, RM_HISTOGRAM_MIN_US, h->min);
	jw_int(jw, RM_HISTOGRAM_MAX_US, h->max);
	jw_exact(jw, RM_HISTOGRAM_SUM_US, h->sum);
	jw_exact(jw, RM_HISTOGRAM_LATENCY_SUM_US, sum);
	jw_exact(jw, RM_HISTOGRAM_LATENCY_SUM_SQUARES_US, sum2);
	jw_open(jw, RM_HISTOGRAM_BUCKETS);
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
 * --rendezvous as member m: the top level's (RM_TOP_RENDEZVOUS) has the
 * group, this member, the agreed start and the clock measurement; a
 * merged report's input's (RM_INPUT_RENDEZVOUS), an object of its own in
 * the schema, has no clock fields.
 */
static void
put_rendezvous(json_writer *jw, report_member m, const rendezvous_info *rv)
{
	bool		input = m == RM_INPUT_RENDEZVOUS;

	if (rv == NULL)
	{
		jw_null(jw, m);
		return;
	}
	jw_open(jw, m);
	jw_str(jw, input ? RM_INPUT_RENDEZVOUS_GROUP : RM_RENDEZVOUS_GROUP, rv->group);
	jw_int(jw, input ? RM_INPUT_RENDEZVOUS_SIZE : RM_RENDEZVOUS_SIZE, rv->size);
	jw_int(jw, input ? RM_INPUT_RENDEZVOUS_MEMBER : RM_RENDEZVOUS_MEMBER, rv->member);
	jw_int(jw, input ? RM_INPUT_RENDEZVOUS_START_SERVER_EPOCH_US
		   : RM_RENDEZVOUS_START_SERVER_EPOCH_US, rv->start_server_us);
	if (!input)
	{
		jw_int(jw, RM_RENDEZVOUS_CLOCK_OFFSET_US, rv->clock_offset_us);
		jw_int(jw, RM_RENDEZVOUS_CLOCK_RTT_US, rv->clock_rtt_us);
	}
	close_block(jw, '}');
}

/* One run a merged report holds: where it was read, its identity. */
static void
put_source(json_writer *jw, const report_source *rs)
{
	open_block(jw, NULL, '{');
	jw_str(jw, RM_INPUT_FILE, rs->file);
	put_known(jw, RM_INPUT_RUN_ID, rs->run_id);
	put_rendezvous(jw, RM_INPUT_RENDEZVOUS, rs->in_group ? &rs->group : NULL);
	report_json_source_server(jw, rs);
	close_block(jw, '}');
}

/* --threshold: each expression, whether it held, the figure it bounded */
static void
put_thresholds(json_writer *jw, const figures_extra *e)
{
	if (e->thresholds == NULL)
	{
		jw_null(jw, RM_TOP_THRESHOLDS);
		return;
	}
	jw_open(jw, RM_TOP_THRESHOLDS);
	for (int i = 0; i < e->nthresholds; i++)
	{
		const threshold_result *r = &e->thresholds[i];

		open_block(jw, NULL, '{');
		jw_str(jw, RM_THRESHOLD_EXPRESSION, r->t->text);
		jw_bool(jw, RM_THRESHOLD_PASSED, r->passed);
		jw_num(jw, RM_THRESHOLD_VALUE, r->measured ? r->value : NAN);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

/* A merged report: the runs it holds; else null. */
static void
put_inputs(json_writer *jw, const figures_extra *e)
{
	if (e->nsources == 0)
	{
		jw_null(jw, RM_TOP_INPUTS);
		return;
	}
	jw_open(jw, RM_TOP_INPUTS);
	for (int i = 0; i < e->nsources; i++)
		put_source(jw, &e->sources[i]);
	close_block(jw, ']');
}

void
report_json_fleet(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	put_rendezvous(jw, RM_TOP_RENDEZVOUS, e->rendezvous);
	jw_open(jw, RM_TOP_MERGE);
	jw_int(jw, RM_MERGE_INSTANCES, e->instances);
	if (e->progress_s > 0)
		jw_int(jw, RM_MERGE_PROGRESS_S, e->progress_s);
	else
		jw_null(jw, RM_MERGE_PROGRESS_S);
	jw_int(jw, RM_MERGE_START_EPOCH_US, e->start_epoch_us);
	jw_int(jw, RM_MERGE_CONN_ELAPSED_US, e->conn_elapsed_us);
	jw_int(jw, RM_MERGE_BENCH_DURATION_US, e->bench_duration_us);
	jw_int(jw, RM_MERGE_CONN_DURATION_US, e->conn_duration_us);
	jw_exact(jw, RM_MERGE_LAG_SUM_US, e->lag_sum_us);
	close_block(jw, '}');
	put_inputs(jw, e);
	report_json_servers(jw, f);
	put_thresholds(jw, e);
}

void
report_json_reconnect(json_writer *jw, const report_figures *f)
{
	const figures_reconnect *fr = &f->reconnect;
	const struct
	{
		report_member member;
		double		value;
	}			times[] = {
		{RM_RECONNECT_WINDOW_MS, fr->window_ms},
		{RM_RECONNECT_FIRST_LOSS_S, fr->first_loss_s},
		{RM_RECONNECT_LAST_BACK_S, fr->last_back_s},
		{RM_RECONNECT_DOWNTIME_MAX_MS, fr->downtime_max_ms},
		{RM_RECONNECT_DOWNTIME_TOTAL_MS, fr->downtime_total_ms},
	};

	if (fr->enabled)
	{
		jw_open(jw, RM_TOP_RECONNECT);
		jw_int(jw, RM_RECONNECT_LOSSES, fr->losses);
		jw_int(jw, RM_RECONNECT_RECONNECTS, fr->reconnects);
		jw_int(jw, RM_RECONNECT_FAILED, fr->failed);
		for (size_t i = 0; i < PGB_LENGTHOF(times); i++)
			jw_num(jw, times[i].member, times[i].value);
		jw_int(jw, RM_RECONNECT_CLIENTS_DOWN_AT_END, fr->down_at_end);
		close_block(jw, '}');
	}
	else
		jw_null(jw, RM_TOP_RECONNECT);
}
