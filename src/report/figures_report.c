/*
 * figures_report.c — the figures only the report files show
 * (--report-json, --report-html): the percentile list they always carry,
 * when and against what the run went (the command line, its secrets
 * already masked by options: conninfo_mask.h), the series of intervals
 * and the aborted clients.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgbench/report/figures.h"

void
report_target_read(report_target *t, PGconn *conn)
{
	const char *host = PQhost(conn);
	const char *port = PQport(conn);
	const char *db = PQdb(conn);

	snprintf(t->host, sizeof(t->host), "%s", host != NULL ? host : "");
	snprintf(t->port, sizeof(t->port), "%s", port != NULL ? port : "");
	snprintf(t->dbname, sizeof(t->dbname), "%s", db != NULL ? db : "");
}

static int
compare_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

void
figures_report_percentiles(report_figures *f, const run_config *cfg)
{
	static const double defaults[] = FIGURES_DEFAULT_PERCENTILES;
	double		all[FIGURES_MAX_PERCENTILES];
	int			n = 0;

	for (int i = 0; i < (int) PGB_LENGTHOF(defaults); i++)
		all[n++] = defaults[i];
	for (int i = 0; i < cfg->npercentiles && n < FIGURES_MAX_PERCENTILES; i++)
		all[n++] = cfg->percentiles[i];
	qsort(all, (size_t) n, sizeof(double), compare_double);
	f->nreport_percentiles = 0;
	for (int i = 0; i < n; i++)
		if (i == 0 || all[i] != all[i - 1])
			f->report_percentiles[f->nreport_percentiles++] = all[i];
}

/* ---- time -------------------------------------------------------------- */

/* mono (pgb_time_now clock) as Unix seconds and ISO 8601 UTC with ms. */
static void
epoch_and_iso(pg_time_usec_t mono, double *epoch_s, char *iso, size_t len)
{
	pg_time_usec_t us = pgb_time_to_epoch(mono);
	time_t		secs = (time_t) (us / 1000000);
	struct tm	tm;
	char		date[24];

	*epoch_s = 0.000001 * (double) us;
	gmtime_r(&secs, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso, len, "%s.%03dZ", date, (int) (us % 1000000 / 1000));
}

/* ---- the series ---------------------------------------------------------- */

static void
point(figures_point *fp, const series_point *sp, hist *scratch, bool throttled)
{
	static const double at[FIGURES_POINT_NPERCENTILES] = FIGURES_POINT_PERCENTILES;

	fp->raw = sp->processed + sp->failures + sp->skipped > 0 ? sp : NULL;
	fp->processed = sp->processed;
	fp->failures = sp->failures;
	fp->retries = sp->retries;
	fp->skipped = sp->skipped;
	fp->tps = (double) sp->processed / fp->interval_s;
	hist_reset(scratch);
	hist_import(scratch, sp->buckets, sp->nbuckets, sp->latency_min, sp->latency_max,
				sp->latency_sum);
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
		fp->latency_ms[k] = scratch->count > 0
			? 0.001 * (double) hist_value_at_percentile(scratch, at[k]) : NAN;
	fp->latency_avg_ms = sp->processed > 0 ? 0.001 * sp->latency_sum / (double) sp->processed : NAN;
	fp->latency_max_ms = sp->processed > 0 ? 0.001 * (double) sp->latency_max : NAN;
	fp->lag_avg_ms = throttled && sp->processed > 0 ? 0.001 * sp->lag_sum / (double) sp->processed : NAN;
	fp->lag_max_ms = throttled && sp->processed > 0 ? 0.001 * sp->lag_max : NAN;
}

/*
 * One point per interval from the start to the end of the run (end: us
 * since the start), empty intervals included.
 */
static bool
points(figures_extra *e, const run_series *rs, pg_time_usec_t end, bool throttled)
{
	static const series_point empty;
	int64_t		n = (end + rs->interval - 1) / rs->interval;
	hist		scratch;

	if (n < rs->npoints)
		n = rs->npoints;
	e->interval_s = 0.000001 * (double) rs->interval;
	e->series_incomplete = rs->oom;
	e->points = calloc((size_t) (n > 0 ? n : 1), sizeof(figures_point));
	if (e->points == NULL || !hist_init(&scratch, HIST_ONE_HOUR_US))
		return false;
	e->npoints = (int) n;
	for (int i = 0; i < e->npoints; i++)
	{
		figures_point *fp = &e->points[i];
		pg_time_usec_t from = (pg_time_usec_t) i * rs->interval;
		pg_time_usec_t to = from + rs->interval;

		if (i == e->npoints - 1 && end > from && end < to)
			to = end;
		fp->t_s = 0.000001 * (double) to;
		fp->interval_s = 0.000001 * (double) (to - from);
		point(fp, i < rs->npoints ? &rs->points[i] : &empty, &scratch, throttled);
	}
	hist_free(&scratch);
	return true;
}

static int
compare_abort(const void *a, const void *b)
{
	const series_abort *x = *(const series_abort *const *) a;
	const series_abort *y = *(const series_abort *const *) b;

	return (x->failure.client > y->failure.client) - (x->failure.client < y->failure.client);
}

static bool
aborts(figures_extra *e, const run_series *rs)
{
	e->aborts = calloc((size_t) (rs->naborts > 0 ? rs->naborts : 1), sizeof(series_abort *));
	if (e->aborts == NULL)
		return false;
	for (int i = 0; i < rs->naborts; i++)
		e->aborts[i] = &rs->aborts[i];
	e->naborts = rs->naborts;
	qsort(e->aborts, (size_t) e->naborts, sizeof(series_abort *), compare_abort);
	return true;
}

/* ---- all of it ------------------------------------------------------------ */

bool
figures_meta_compute(figures_extra *e, const run_config *cfg, pg_time_usec_t start,
					 pg_time_usec_t length)
{
	if (start != 0)
	{
		e->start_epoch_us = pgb_time_to_epoch(start);
		epoch_and_iso(start, &e->start_epoch_s, e->start_iso, sizeof(e->start_iso));
		epoch_and_iso(start + length, &e->end_epoch_s, e->end_iso, sizeof(e->end_iso));
	}
	e->argv = calloc((size_t) (cfg->argc > 0 ? cfg->argc : 1), sizeof(char *));
	if (e->argv == NULL)
		return false;
	for (int i = 0; i < cfg->argc; i++, e->argc++)
		if ((e->argv[i] = strdup(cfg->argv[i])) == NULL)
			return false;
	return true;
}

bool
figures_extra_compute(const report_input *in, report_figures *f)
{
	figures_extra *e = &f->extra;
	const stats_run *sr = in->stats;
	pg_time_usec_t end = in->conn_elapsed + in->bench_duration;

	memset(e, 0, sizeof(*e));
	e->target = in->target;
	e->random_seed = in->cfg->random_seed;
	e->latency_hist = sr->latency_hist;
	e->latency_sum_us = sr->total.latency.sum;
	e->latency_sum2_us = sr->total.latency.sum2;
	e->rendezvous = in->rendezvous;
	e->instances = in->instances > 1 ? in->instances : 1;
	e->run_id = in->run_id != NULL && in->run_id[0] != '\0' ? in->run_id : NULL;
	e->sources = in->sources;
	e->nsources = in->nsources;
	e->progress_s = in->cfg->progress_sec;
	e->conn_elapsed_us = in->conn_elapsed;
	e->bench_duration_us = in->bench_duration;
	e->conn_duration_us = sr->conn_duration;
	e->lag_sum_us = sr->total.lag.sum;
	if (!figures_meta_compute(e, in->cfg, in->start_time == 0 ? 0
							  : in->start_is_epoch ? in->start_time - pgb_time_to_epoch(0)
							  : in->start_time, end))
		return false;
	if (sr->series == NULL)
		return true;
	return points(e, sr->series, end, in->cfg->throttle_delay > 0) && aborts(e, sr->series);
}

void
figures_extra_free(figures_extra *e)
{
	for (int i = 0; e->argv != NULL && i < e->argc; i++)
		free(e->argv[i]);
	free(e->argv);
	free(e->points);
	free(e->aborts);
	memset(e, 0, sizeof(*e));
}
