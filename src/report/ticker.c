/*
 * ticker.c — the main thread's clock (ticker.h): each tick sums the
 * workers' published totals and histograms, makes the interval's timeline
 * record, and prints the -P line from it.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgbench/base/procstat.h"
#include "pgbench/report/figures.h"
#include "pgbench/report/progress.h"
#include "pgbench/report/ticker.h"

#define USEC_PER_SEC INT64_C(1000000)

/* What the ticker keeps from one tick to the next. */
typedef struct ticker_state
{
	const ticker_source *sources;
	int			nsources;
	progress_format fmt;
	bool		print;			/* -P */
	timeline   *tl;				/* NULL: no report file */
	pg_time_usec_t origin;		/* "0.0 s" */
	pg_time_usec_t last_tick;
	stats_data	last;			/* totals at the last tick */
	bool		with_hist;		/* interval latencies are read */
	hist		hist_now;		/* all sources' counters at this tick */
	hist		hist_last;		/* ... at the previous one */
	hist		hist_interval;	/* the difference */
	int64_t    *one;			/* one source's counters, read with its totals */
	proc_sample proc_last;		/* the process at the last tick */
	bool		proc_ok;
	double	   *thread_last;	/* each source's thread CPU at the last tick */
} ticker_state;

static bool
state_init(ticker_state *ts, const run_config *cfg, const ticker_source *sources,
		   int nsources, pg_time_usec_t origin, timeline *tl)
{
	const hist *first = nsources > 0 ? sources[0].latency_hist : NULL;

	memset(ts, 0, sizeof(*ts));
	ts->sources = sources;
	ts->nsources = nsources;
	ts->origin = origin;
	ts->last_tick = origin;
	ts->fmt = progress_format_of(cfg);
	ts->print = cfg->progress_sec > 0;
	ts->tl = tl;
	ts->proc_ok = proc_sample_self(&ts->proc_last);
	ts->thread_last = calloc((size_t) (nsources > 0 ? nsources : 1), sizeof(double));
	if (ts->thread_last == NULL)
		return false;
	for (int i = 0; i < nsources; i++)
		ts->thread_last[i] = proc_thread_cpu_s(sources[i].thread);
	ts->with_hist = first != NULL && (tl != NULL || cfg->npercentiles > 0);
	if (ts->with_hist &&
		!(hist_init(&ts->hist_now, first->highest) &&
		  hist_init(&ts->hist_last, first->highest) &&
		  hist_init(&ts->hist_interval, first->highest) &&
		  (ts->one = calloc((size_t) ts->hist_now.nbuckets, sizeof(int64_t))) != NULL))
		return false;
	return true;
}

static void
state_free(ticker_state *ts)
{
	hist_free(&ts->hist_now);
	hist_free(&ts->hist_last);
	hist_free(&ts->hist_interval);
	free(ts->one);
	ts->one = NULL;
	free(ts->thread_last);
	ts->thread_last = NULL;
}

/*
 * Every source's totals into cur, and with the histograms their bucket
 * counters, each source's read together with its totals (a worker changes
 * both in one seqlock write), summed into hist_now.
 */
static void
collect(ticker_state *ts, stats_data *cur)
{
	hist	   *now = &ts->hist_now;

	memset(cur, 0, sizeof(*cur));
	if (ts->with_hist)
		hist_reset(now);
	for (int t = 0; t < ts->nsources; t++)
	{
		const hist *h = ts->sources[t].latency_hist;

		if (!ts->with_hist || h == NULL || h->nbuckets != now->nbuckets)
		{
			stats_slot_collect(ts->sources[t].slot, cur);
			continue;
		}
		stats_slot_collect_hist(ts->sources[t].slot, cur, h, ts->one);
		for (int b = 0; b < now->nbuckets; b++)
			now->counts[b] += ts->one[b];
	}
}

/* The interval's latencies: hist_now minus the counters at the last tick. */
static const hist *
interval_hist(ticker_state *ts)
{
	hist	   *now = &ts->hist_now;
	hist	   *ival = &ts->hist_interval;
	hist		swap;
	int			first = -1,
				last = -1;

	hist_reset(ival);
	for (int b = 0; b < ival->nbuckets; b++)
	{
		int64_t		n = now->counts[b] - ts->hist_last.counts[b];

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

	swap = ts->hist_last;
	ts->hist_last = *now;
	*now = swap;
	return ival;
}

/* The client's CPU and memory over the interval elapsed us long. */
static void
client_figures(ticker_state *ts, timeline_record *r, pg_time_usec_t elapsed)
{
	proc_sample now;
	double		secs = (double) elapsed / USEC_PER_SEC;

	r->busiest_thread_cpu = 0;
	for (int i = 0; ts->thread_last != NULL && i < ts->nsources; i++)
	{
		double		cpu = proc_thread_cpu_s(ts->sources[i].thread);

		if (cpu < 0 || ts->thread_last[i] < 0)
			continue;			/* a worker that is done: its clock is gone */
		if (secs > 0 && (cpu - ts->thread_last[i]) / secs > r->busiest_thread_cpu)
			r->busiest_thread_cpu = (cpu - ts->thread_last[i]) / secs;
		ts->thread_last[i] = cpu;
	}
	if (!proc_sample_self(&now) || !ts->proc_ok)
		return;
	r->has_client = true;
	r->cpu_user_s = now.user_s - ts->proc_last.user_s;
	r->cpu_system_s = now.system_s - ts->proc_last.system_s;
	r->rss_kb = now.rss_kb;
	ts->proc_last = now;
}

/* Close the interval that ends now: its record, and under print its line. */
static void
tick(ticker_state *ts, pg_time_usec_t now, bool print)
{
	stats_data	cur;
	interval_figures iv;
	const hist *ival = NULL;

	collect(ts, &cur);
	figures_interval(&cur, &ts->last, now - ts->last_tick, &iv);
	if (ts->with_hist)
		ival = interval_hist(ts);

	if (print)
	{
		char		line[1024];
		double		when = ts->fmt.timestamp ? (double) pgb_time_to_epoch(now) / USEC_PER_SEC
			: (double) (now - ts->origin) / USEC_PER_SEC;

		if (ival != NULL && ts->fmt.npercentiles > 0)
			figures_interval_percentiles(&iv, ival, ts->fmt.npercentiles, ts->fmt.percentiles);
		progress_format_line(line, sizeof(line), &ts->fmt, &iv, when);
		/* one write per line: workers' messages cannot cut into it */
		fputs(line, stderr);
	}
	if (ts->tl != NULL)
	{
		timeline_record r;

		memset(&r, 0, sizeof(r));
		r.start_us = ts->last_tick - ts->origin;
		r.end_us = now - ts->origin;
		r.sources = 1;
		r.delta = iv.delta;
		timeline_record_latencies(&r, ival);
		client_figures(ts, &r, now - ts->last_tick);
		(void) timeline_append(ts->tl, &r);	/* a loss sets tl->oom */
	}
	ts->last = cur;
	ts->last_tick = now;
}

void
ticker_run(const run_config *cfg, const ticker_source *sources, int nsources,
		   stats_gate *gate, pg_time_usec_t origin, timeline *tl)
{
	ticker_state ts;
	pg_time_usec_t period = runconf_tick_interval(cfg);
	pg_time_usec_t next = origin + period;
	pg_time_usec_t now;

	if (!state_init(&ts, cfg, sources, nsources, origin, tl))
	{
		/* no memory for the latencies: tick without them */
		hist_free(&ts.hist_now);
		hist_free(&ts.hist_last);
		hist_free(&ts.hist_interval);
		free(ts.one);
		ts.one = NULL;
		ts.with_hist = false;
	}

	pthread_mutex_lock(&gate->lock);
	while (gate->running > 0)
	{
		/* the condition variable runs on CLOCK_MONOTONIC, as pgb_time_now */
		struct timespec at = {
			.tv_sec = (time_t) (next / USEC_PER_SEC),
			.tv_nsec = (long) (next % USEC_PER_SEC) * 1000,
		};

		pthread_cond_timedwait(&gate->cond, &gate->lock, &at);
		now = pgb_time_now();
		if (now < next)
			continue;			/* the last worker ended, or a spurious wake-up */

		/*
		 * Due, even if the workers have just ended: under -T they end at
		 * the same instant as the last report, which pgbench prints.
		 */
		pthread_mutex_unlock(&gate->lock);
		tick(&ts, now, ts.print);
		/* late (a stopped process): the next tick is still on the grid */
		do
			next += period;
		while (now >= next);
		pthread_mutex_lock(&gate->lock);
	}
	pthread_mutex_unlock(&gate->lock);

	/* the rest of the run, which no -P line shows */
	now = pgb_time_now();
	if (tl != NULL && now > ts.last_tick)
		tick(&ts, now, false);
	state_free(&ts);
}
