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

/* Is the client the bottleneck?  Over the run, and interval by interval. */
static void
client_figures(figures_extra *e, const report_input *in)
{
	timeline_record r;

	e->busiest_thread_cpu_pct = in->busiest_thread_cpu_pct >= 0 ? in->busiest_thread_cpu_pct : NAN;
	e->busiest_thread = in->busiest_thread;
	e->client_bound = in->busiest_thread_cpu_pct > FIGURES_CLIENT_BOUND_PCT &&
		in->bench_duration >= 1000000;
	for (int i = 0; in->timeline != NULL && i < in->timeline->n; i++)
		if (timeline_get(in->timeline, i, &r) &&
			100 * r.busiest_thread_cpu > FIGURES_CLIENT_BOUND_PCT &&
			r.end_us - r.start_us >= 500000)
			e->intervals_client_bound++;
}

static int
compare_abort(const void *a, const void *b)
{
	const run_abort *x = *(const run_abort *const *) a;
	const run_abort *y = *(const run_abort *const *) b;

	return (x->failure.client > y->failure.client) - (x->failure.client < y->failure.client);
}

static bool
aborts(figures_extra *e, const run_aborts *ra)
{
	e->aborts = calloc((size_t) (ra->n > 0 ? ra->n : 1), sizeof(run_abort *));
	if (e->aborts == NULL)
		return false;
	for (int i = 0; i < ra->n; i++)
		e->aborts[i] = &ra->items[i];
	e->naborts = ra->n;
	qsort(e->aborts, (size_t) e->naborts, sizeof(run_abort *), compare_abort);
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
	e->labels = cfg->labels;
	e->nlabels = cfg->nlabels;
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
	pg_time_usec_t end = in->conn_elapsed + in->warmup_elapsed + in->bench_duration;

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
	client_figures(e, in);
	e->server = in->server;
	e->server_run = in->server_run;
	figures_commits_compute(&e->commits, in);
	if (in->timeline != NULL)
	{
		e->timeline = in->timeline;
		e->interval_s = 0.000001 * (double) in->timeline->interval;
		e->series_incomplete = in->timeline->oom || (sr->aborts != NULL && sr->aborts->oom);
	}
	return sr->aborts == NULL || aborts(e, sr->aborts);
}

void
figures_extra_free(figures_extra *e)
{
	for (int i = 0; e->argv != NULL && i < e->argc; i++)
		free(e->argv[i]);
	free(e->argv);
	free(e->aborts);
	memset(e, 0, sizeof(*e));
}
