/*
 * figures.c — the one place that does arithmetic on the statistics: the
 * final report's figures and a -P interval's, with pgbench's formulas.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"

/* ---- the pieces ---------------------------------------------------------- */

static void
series(figures_series *fs, const stats_simple *ss)
{
	double		mean = ss->count > 0 ? ss->sum / (double) ss->count : NAN;

	fs->count = ss->count;
	fs->average = 0.001 * mean;
	fs->stddev = ss->count > 0 ? 0.001 * sqrt(ss->sum2 / (double) ss->count - mean * mean) : NAN;
	fs->min = ss->count > 0 ? 0.001 * ss->min : NAN;
	fs->max = ss->count > 0 ? 0.001 * ss->max : NAN;
}

/*
 * Percentiles of h (NULL when none was kept): the text's and the report
 * files'.
 */
static void
percentiles(figures_latency *fl, const hist *h, const report_figures *f)
{
	fl->has_percentiles = h != NULL && hist_count(h) > 0;
	for (int i = 0; fl->has_percentiles && i < f->npercentiles; i++)
		fl->percentile_ms[i] = 0.001 * (double) hist_value_at_percentile(h, f->percentiles[i]);
	for (int i = 0; fl->has_percentiles && i < f->nreport_percentiles; i++)
		fl->report_ms[i] = 0.001 * (double) hist_value_at_percentile(h, f->report_percentiles[i]);
}

/* h: the histogram of the series, or NULL when none was kept */
static void
latency(figures_latency *fl, const stats_simple *ss, const hist *h,
		const report_figures *f)
{
	series(&fl->series, ss);
	percentiles(fl, h, f);
}

static double
pct(int64_t count, int64_t of)
{
	return 100.0 * (double) count / (double) of;
}

static void
counts(figures_counts *fc, const stats_data *sd)
{
#define COPY_COUNTER(field, json_name, kind) fc->field = sd->field;
	STATS_COUNTERS(COPY_COUNTER)
#undef COPY_COUNTER
	fc->failed = stats_data_failures(sd);
	fc->total = stats_data_transactions(sd);
	fc->failed_pct = pct(fc->failed, fc->total);
	fc->serialization_failures_pct = pct(sd->serialization_failures, fc->total);
	fc->deadlock_failures_pct = pct(sd->deadlock_failures, fc->total);
	fc->other_failures_pct = pct(sd->other_failures, fc->total);
	fc->connection_failures_pct = pct(sd->connection_failures, fc->total);
	fc->skipped_pct = pct(sd->skipped, fc->total);
	fc->retried_pct = pct(sd->retried, fc->total);
}

/* ---- the report ---------------------------------------------------------- */

static void
settings(report_figures *f, const report_input *in)
{
	const run_config *cfg = in->cfg;

	f->compat = cfg->compat;
	f->transaction_type = cfg->scripts->nscripts == 1 ? cfg->scripts->scripts[0].desc
		: "multiple scripts";
	f->scale = in->scale;
	f->partition_method = in->partition_method != PART_NONE
		? report_partition_methods[in->partition_method] : NULL;
	f->partitions = in->partition_method != PART_NONE ? in->partitions : 0;
	f->query_mode = report_query_modes[cfg->query_mode];
	f->nclients = cfg->nclients;
	f->nthreads = cfg->nthreads;
	f->max_tries = cfg->retry.max_tries;
	f->retries_shown = cfg->retry.max_tries != 1;
	f->nxacts = cfg->nxacts;
	f->duration = cfg->duration;
	f->warmup = cfg->warmup;
	f->stages = cfg->stages_text;
	f->rate = cfg->rate;
	f->throttled = cfg->throttle_delay > 0;
	f->latency_limit_ms = cfg->latency_limit_ms;
	f->late_threshold_ms = (double) cfg->latency_limit / 1000.0;
	f->latency_limited = cfg->latency_limit > 0;
	f->connect_each = cfg->connect_each;
	f->failures_detailed = cfg->failures_detailed;
	f->server_stats = cfg->server_stats;
	f->server_sample_ms = (int) (cfg->server_sample_us / 1000);
	f->per_script = cfg->per_script_stats;
	f->per_command = cfg->per_command;
	f->npercentiles = cfg->npercentiles;
	memcpy(f->percentiles, cfg->percentiles, sizeof(f->percentiles));
	figures_report_percentiles(f, cfg);
	f->server_version = in->server_version;
	f->aborted = in->aborted;
}

/* The run's totals: counts, tps, latency, lag, connection times. */
static void
totals(report_figures *f, const report_input *in)
{
	const run_config *cfg = in->cfg;
	const stats_run *sr = in->stats;
	const stats_data *total = &sr->total;
	int64_t		all = stats_data_transactions(total);

	counts(&f->counts, total);
	/* 18 stops the report only when nothing at all was accounted */
	f->failures_shown = cfg->compat < 18 || all > 0;
	f->ran = cfg->compat < 18 ? total->cnt + total->skipped > 0 : all > 0;
	f->duration_s = 0.000001 * (double) in->bench_duration;
	f->tps = (double) total->cnt / f->duration_s;
	f->expected = cfg->nxacts * cfg->nclients;
	f->late = sr->latency_late;
	f->late_pct = total->cnt > 0 ? 100.0 * (double) sr->latency_late / (double) total->cnt : 0.0;

	f->latency_from_series = runconf_latency_from_series(cfg);
	if (f->latency_from_series || all <= 0)
		f->latency_average_ms = total->latency.count > 0
			? 0.001 * total->latency.sum / (double) total->latency.count : NAN;
	else
	{
		f->latency_average_ms = 0.001 * (double) in->bench_duration * cfg->nclients / (double) all;
		f->latency_average_derived = true;
	}
	latency(&f->latency, &total->latency, sr->latency_hist, f);

	f->lag_average_ms = 0.001 * total->lag.sum / (double) total->cnt;
	f->lag_max_ms = 0.001 * total->lag.max;
	f->lag_count = total->lag.count;

	f->initial_connection_ms = 0.001 * (double) in->conn_elapsed;
	f->average_connection_ms = 0.001 * (double) sr->conn_duration /
		(double) (total->cnt + stats_data_failures(total));
}

/* --reconnect's outages; times since the run's start when it is known. */
static void
reconnect_figures(figures_reconnect *fr, const report_input *in)
{
	const reconnect_stats *rs = &in->stats->reconnect;
	bool		since = in->start_time > 0 && !in->start_is_epoch;

	fr->enabled = in->cfg->reconnect;
	fr->losses = rs->losses;
	fr->reconnects = rs->reconnects;
	fr->failed = in->stats->total.connection_failures;
	fr->down_at_end = rs->down_at_end;
	fr->window_ms = rs->losses > 0 && rs->last_back > rs->first_loss
		? 0.001 * (double) (rs->last_back - rs->first_loss) : 0.0;
	fr->first_loss_s = rs->losses > 0 && since
		? 0.000001 * (double) (rs->first_loss - in->start_time) : NAN;
	fr->last_back_s = rs->last_back > 0 && since
		? 0.000001 * (double) (rs->last_back - in->start_time) : NAN;
	fr->downtime_max_ms = 0.001 * (double) rs->downtime_max;
	fr->downtime_total_ms = 0.001 * (double) rs->downtime_total;
}

static bool
commands(figures_script *fs, const report_input *in, const report_figures *f, int i)
{
	const script *s = &in->cfg->scripts->scripts[i];

	fs->ncommands = s->ncommands;
	fs->commands = calloc((size_t) (s->ncommands > 0 ? s->ncommands : 1), sizeof(figures_command));
	if (fs->commands == NULL)
		return false;
	for (int j = 0; j < s->ncommands; j++)
	{
		const stats_command *sc = &in->stats->per_command[in->cfg->script_offset[i] + j];
		figures_command *fc = &fs->commands[j];

		fc->line = s->commands[j]->first_line;
		series(&fc->latency, &sc->latency);
		fc->column_ms = sc->latency.count > 0
			? 0.001 * sc->latency.sum / (double) sc->latency.count : 0.0;
		fc->failures = sc->failures;
		fc->retries = sc->retries;
		fc->latency_sum_us = sc->latency.sum;
		fc->latency_sum2_us = sc->latency.sum2;
		if (in->stats->command_hist != NULL)
		{
			fc->hist = &in->stats->command_hist[in->cfg->script_offset[i] + j];
			percentiles(&fc->percentiles, fc->hist, f);
		}
	}
	return true;
}

static bool
scripts(report_figures *f, const report_input *in)
{
	const run_config *cfg = in->cfg;
	const stats_run *sr = in->stats;

	f->nscripts = cfg->scripts->nscripts;
	f->scripts = calloc((size_t) (f->nscripts > 0 ? f->nscripts : 1), sizeof(figures_script));
	if (f->scripts == NULL)
		return false;
	for (int i = 0; i < f->nscripts; i++)
	{
		const script *s = &cfg->scripts->scripts[i];
		const stats_data *sd = cfg->per_script_stats ? &sr->per_script[i] : &sr->total;
		figures_script *fs = &f->scripts[i];
		const hist *h = sr->script_hist != NULL ? &sr->script_hist[i]
			: cfg->per_script_stats ? NULL : sr->latency_hist;

		fs->name = s->desc;
		fs->sha256 = s->sha256[0] != '\0' ? s->sha256 : NULL;
		fs->weight = s->weight;
		fs->weight_pct = 100.0 * s->weight / (double) cfg->scripts->total_weight;
		counts(&fs->counts, sd);
		fs->processed_pct = 100.0 * (double) sd->cnt / (double) sr->total.cnt;
		fs->total_pct = 100.0 * (double) fs->counts.total / (double) f->counts.total;
		fs->tps = (double) sd->cnt / f->duration_s;
		latency(&fs->latency, &sd->latency, h, f);
		fs->hist = sr->script_hist != NULL ? &sr->script_hist[i] : NULL;
		fs->latency_sum_us = sd->latency.sum;
		fs->latency_sum2_us = sd->latency.sum2;
		if (cfg->per_command && !commands(fs, in, f, i))
			return false;
	}
	return true;
}

bool
figures_compute(const report_input *in, report_figures *f)
{
	memset(f, 0, sizeof(*f));
	settings(f, in);
	totals(f, in);
	reconnect_figures(&f->reconnect, in);
	if (!scripts(f, in) || !figures_extra_compute(in, f))
	{
		figures_free(f);
		return false;
	}
	return true;
}

void
figures_free(report_figures *f)
{
	for (int i = 0; f->scripts != NULL && i < f->nscripts; i++)
		free(f->scripts[i].commands);
	free(f->scripts);
	f->scripts = NULL;
	f->nscripts = 0;
	figures_extra_free(&f->extra);
}

/* ---- a progress interval ------------------------------------------------- */

void
figures_interval(const stats_data *cur, const stats_data *last, pg_time_usec_t elapsed,
				 interval_figures *iv)
{
	stats_data	delta;

	stats_data_delta(&delta, cur, last);
	figures_interval_delta(&delta, elapsed, iv);
}

void
figures_interval_delta(const stats_data *delta, pg_time_usec_t elapsed, interval_figures *iv)
{
	const stats_data *d = &iv->delta;
	int64_t		cnt;

	memset(iv, 0, sizeof(*iv));
	iv->delta = *delta;
	cnt = d->cnt;
	iv->tps = 1000000.0 * (double) cnt / (double) elapsed;
	iv->failed = stats_data_failures(d);

	/* as pgbench: means over the successful transactions of the interval */
	if (cnt > 0)
	{
		double		sqlat;

		iv->latency_ms = 0.001 * d->latency.sum / (double) cnt;
		sqlat = d->latency.sum2 / (double) cnt;
		iv->stddev_ms = 0.001 * sqrt(sqlat - 1000000.0 * iv->latency_ms * iv->latency_ms);
		iv->lag_ms = 0.001 * d->lag.sum / (double) cnt;
	}
}

void
figures_interval_percentiles(interval_figures *iv, const hist *h, int n, const double *p)
{
	iv->has_percentiles = true;
	for (int i = 0; i < n && i < PGB_MAX_PERCENTILES; i++)
		iv->percentile_ms[i] = 0.001 * (double) hist_value_at_percentile(h, p[i]);
}

/* A point of the report files' series: figures.h. */
void
figures_point_of(figures_point *fp, const timeline_record *r, bool throttled)
{
	pg_time_usec_t elapsed;
	interval_figures iv;
	bool		lat = r->delta.cnt > 0;
	bool		has_hist = timeline_bucket_count(r) > 0;

	if (__builtin_sub_overflow(r->end_us, r->start_us, &elapsed))
		elapsed = 0;

	memset(fp, 0, sizeof(*fp));
	fp->raw = r;
	fp->t_s = 0.000001 * (double) r->end_us;
	fp->interval_s = 0.000001 * (double) elapsed;
	/* the -P line's formulas, on the same counters */
	figures_interval_delta(&r->delta, elapsed > 0 ? elapsed : 1, &iv);
	fp->tps = iv.tps;
	fp->processed = r->delta.cnt;
	fp->failures = iv.failed;
	fp->retried = r->delta.retried;
	fp->retries = r->delta.retries;
	fp->skipped = r->delta.skipped;
	fp->latency_avg_ms = lat ? iv.latency_ms : NAN;
	fp->latency_stddev_ms = lat ? iv.stddev_ms : NAN;
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
		fp->latency_ms[k] = has_hist ? 0.001 * r->latency_pct_us[k] : NAN;
	fp->latency_min_ms = has_hist ? 0.001 * (double) r->latency_min_us : NAN;
	fp->latency_max_ms = has_hist ? 0.001 * (double) r->latency_max_us : NAN;
	fp->lag_avg_ms = throttled && lat ? iv.lag_ms : NAN;
	fp->has_client = r->has_client;
	fp->cpu_user_s = r->cpu_user_s;
	fp->cpu_system_s = r->cpu_system_s;
	fp->busiest_thread_cpu_pct = 100.0 * r->busiest_thread_cpu;
	fp->rss_kb = r->rss_kb;
	fp->stage_target = r->staged ? r->stage_target : NAN;
}
