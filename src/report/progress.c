/*
 * progress.c — the -P reports: the line format, and the main thread's
 * timer that sums the workers' published totals (stats_slot, stats.h) on
 * an absolute schedule.  It reads and prints; nothing of the engine calls
 * it but the orchestrator that starts the timer.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pgbench/report/progress.h"
#include "pgbench/report/report.h"

#define USEC_PER_SEC INT64_C(1000000)

/* ---- the line ----------------------------------------------------------- */

/* snprintf that keeps appending at *pos, never past len */
static void
append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list		ap;
	int			n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t) n < len ? *pos + (size_t) n : len - 1;
}

/* ", p50/p90/p99 A/B/C ms" */
static void
append_percentiles(char *buf, size_t len, size_t *pos, const progress_format *fmt,
				   const interval_figures *iv)
{
	char		num[64];

	append(buf, len, pos, ", ");
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%sp%g", i > 0 ? "/" : "", fmt->percentiles[i]);
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%c%s", i > 0 ? '/' : ' ',
			   report_num(num, sizeof(num), "%.3f", iv->percentile_ms[i]));
	append(buf, len, pos, " ms");
}

progress_format
progress_format_of(const run_config *cfg)
{
	return (progress_format) {
		.timestamp = cfg->progress_timestamp,
		.throttled = cfg->throttle_delay > 0,
		.latency_limit = cfg->latency_limit > 0,
		.retries = cfg->retry.max_tries != 1,
		.npercentiles = cfg->npercentiles,
		.percentiles = cfg->percentiles,
	};
}

size_t
progress_format_line(char *buf, size_t len, const progress_format *fmt,
					 const interval_figures *iv, double when)
{
	char		n1[64],
				n2[64],
				n3[64],
				n4[64];
	size_t		pos = 0;

	buf[0] = '\0';
	append(buf, len, &pos, "progress: %s s, %s tps, lat %s ms stddev %s, %" PRId64 " failed",
		   report_num(n1, sizeof(n1), fmt->timestamp ? "%.3f" : "%.1f", when),
		   report_num(n2, sizeof(n2), "%.1f", iv->tps),
		   report_num(n3, sizeof(n3), "%.3f", iv->latency_ms),
		   report_num(n4, sizeof(n4), "%.3f", iv->stddev_ms),
		   iv->failed);
	if (fmt->throttled)
	{
		append(buf, len, &pos, ", lag %s ms", report_num(n1, sizeof(n1), "%.3f", iv->lag_ms));
		if (fmt->latency_limit)
			append(buf, len, &pos, ", %" PRId64 " skipped", iv->delta.skipped);
	}
	if (fmt->retries)
		append(buf, len, &pos, ", %" PRId64 " retried, %" PRId64 " retries",
			   iv->delta.retried, iv->delta.retries);
	if (fmt->npercentiles > 0 && iv->has_percentiles)
		append_percentiles(buf, len, &pos, fmt, iv);
	append(buf, len, &pos, "\n");
	return pos;
}

/* ---- the timer ---------------------------------------------------------- */

/* What the timer keeps from one report to the next. */
typedef struct progress_state
{
	const progress_source *sources;
	int			nsources;
	progress_format fmt;
	pg_time_usec_t origin;		/* "0.0 s" */
	pg_time_usec_t last_report;
	stats_data	last;			/* totals at the last report */
	bool		with_hist;		/* interval percentiles */
	hist		hist_now;		/* all sources' counters at this report */
	hist		hist_last;		/* ... at the previous one */
	hist		hist_interval;	/* the difference */
} progress_state;

static bool
state_init(progress_state *ps, const run_config *cfg, const progress_source *sources,
		   int nsources, pg_time_usec_t origin)
{
	const hist *first = nsources > 0 ? sources[0].latency_hist : NULL;

	memset(ps, 0, sizeof(*ps));
	ps->sources = sources;
	ps->nsources = nsources;
	ps->origin = origin;
	ps->last_report = origin;
	ps->fmt = progress_format_of(cfg);
	ps->with_hist = cfg->npercentiles > 0 && first != NULL;
	if (ps->with_hist &&
		!(hist_init(&ps->hist_now, first->highest) &&
		  hist_init(&ps->hist_last, first->highest) &&
		  hist_init(&ps->hist_interval, first->highest)))
		return false;
	return true;
}

static void
state_free(progress_state *ps)
{
	hist_free(&ps->hist_now);
	hist_free(&ps->hist_last);
	hist_free(&ps->hist_interval);
}

/*
 * The interval's latencies: every source's bucket counters (relaxed
 * loads, see hist_add_shared) summed, minus the sums at the last report,
 * into hist_interval.
 */
static const hist *
interval_hist(progress_state *ps)
{
	hist	   *now = &ps->hist_now;
	hist	   *ival = &ps->hist_interval;
	hist		swap;
	int			first = -1,
				last = -1;

	hist_reset(now);
	for (int t = 0; t < ps->nsources; t++)
	{
		const hist *h = ps->sources[t].latency_hist;

		for (int b = 0; h != NULL && b < now->nbuckets; b++)
			now->counts[b] += __atomic_load_n(&h->counts[b], __ATOMIC_RELAXED);
	}

	hist_reset(ival);
	for (int b = 0; b < ival->nbuckets; b++)
	{
		int64_t		n = now->counts[b] - ps->hist_last.counts[b];

		if (n <= 0)
			continue;
		ival->counts[b] = n;
		ival->count += n;
		if (first < 0)
			first = b;
		last = b;
	}
	if (first >= 0)
	{
		/* the exact extremes are not shared: the buckets bound them */
		ival->min = hist_bucket_lowest(first);
		ival->max = hist_bucket_highest(last);
	}

	swap = ps->hist_last;
	ps->hist_last = *now;
	*now = swap;
	return ival;
}

static void
print_report(progress_state *ps, pg_time_usec_t now)
{
	stats_data	cur;
	interval_figures iv;
	char		line[1024];
	double		when;

	memset(&cur, 0, sizeof(cur));
	for (int t = 0; t < ps->nsources; t++)
		stats_slot_collect(ps->sources[t].slot, &cur);
	figures_interval(&cur, &ps->last, now - ps->last_report, &iv);
	if (ps->with_hist)
		figures_interval_percentiles(&iv, interval_hist(ps), ps->fmt.npercentiles,
									 ps->fmt.percentiles);

	when = ps->fmt.timestamp ? (double) pgb_time_to_epoch(now) / USEC_PER_SEC
		: (double) (now - ps->origin) / USEC_PER_SEC;
	progress_format_line(line, sizeof(line), &ps->fmt, &iv, when);
	/* one write per line: workers' messages cannot cut into it */
	fputs(line, stderr);

	ps->last = cur;
	ps->last_report = now;
}

void
progress_run(const run_config *cfg, const progress_source *sources, int nsources,
			 stats_gate *gate, pg_time_usec_t origin)
{
	progress_state ps;
	pg_time_usec_t period = USEC_PER_SEC * cfg->progress_sec;
	pg_time_usec_t next = origin + period;

	if (!state_init(&ps, cfg, sources, nsources, origin))
	{
		/* no memory for the percentiles: report without them */
		state_free(&ps);
		ps.with_hist = false;
	}

	pthread_mutex_lock(&gate->lock);
	while (gate->running > 0)
	{
		/* the condition variable runs on CLOCK_MONOTONIC, as pgb_time_now */
		struct timespec at = {
			.tv_sec = (time_t) (next / USEC_PER_SEC),
			.tv_nsec = (long) (next % USEC_PER_SEC) * 1000,
		};
		pg_time_usec_t now;

		pthread_cond_timedwait(&gate->cond, &gate->lock, &at);
		now = pgb_time_now();
		if (now < next)
			continue;			/* the last worker ended, or a spurious wake-up */

		/*
		 * Due, even if the workers have just ended: under -T they end at
		 * the same instant as the last report, which pgbench prints.
		 */
		pthread_mutex_unlock(&gate->lock);
		print_report(&ps, now);
		/* late (a stopped process): the next report is still on the grid */
		do
			next += period;
		while (now >= next);
		pthread_mutex_lock(&gate->lock);
	}
	pthread_mutex_unlock(&gate->lock);
	state_free(&ps);
}
