/*
 * ticker.c — the main thread's clock (ticker.h): each tick sums the
 * workers' published totals and histograms, makes the interval's timeline
 * record, and prints the -P line from it.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/base/interrupt.h"
#include "pgbench/host/hoststat.h"
#include "pgbench/host/procstat.h"
#include "pgbench/report/figures.h"
#include "pgbench/report/metrics.h"
#include "pgbench/report/progress.h"
#include "pgbench/report/ticker.h"
#include "pgbench/stats/stats_slot.h"

#define USEC_PER_SEC INT64_C(1000000)

/* What the ticker keeps from one tick to the next. */
typedef struct ticker_state
{
	const run_config *cfg;
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
	server_monitor *mon;		/* --server-stats; NULL: none */
	metrics_server *metrics;	/* --metrics-listen; NULL: none */
	bool		throttled;		/* -R */
	bool		have_pending;	/* a record waits for the server's counters */
	pg_time_usec_t warm_end_us; /* --warmup's end after origin; INT64_MAX:
								 * none, or the server's totals restarted */
	timeline_record pending;
	host_sample host_last;		/* the client host at the last tick */
	pid_t		postmaster;		/* a local server's; -1: none */
	proc_tree_sample srv_last;	/* its processes at the last tick */
	bool		srv_ok;
} ticker_state;

static bool
state_init(ticker_state *ts, const run_config *cfg, const ticker_source *sources,
		   int nsources, pg_time_usec_t origin, timeline *tl, server_monitor *mon)
{
	const hist *first = nsources > 0 ? sources[0].latency_hist : NULL;

	memset(ts, 0, sizeof(*ts));
	ts->mon = mon;
	ts->cfg = cfg;
	ts->postmaster = -1;
	ts->sources = sources;
	ts->nsources = nsources;
	ts->origin = origin;
	ts->last_tick = origin;
	ts->warm_end_us = cfg->warmup > 0 ? USEC_PER_SEC * cfg->warmup : INT64_MAX;
	ts->fmt = progress_format_of(cfg);
	ts->print = cfg->progress_sec > 0;
	ts->tl = tl;
	ts->proc_ok = proc_sample_self(&ts->proc_last);
	if (tl != NULL)
	{
		(void) host_sample_read(&ts->host_last);
		ts->postmaster = monitor_postmaster(ts->mon);
		ts->srv_ok = ts->postmaster > 0 && proc_tree_read(ts->postmaster, &ts->srv_last);
	}
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

/* Growth of a counter that may be unknown (-1). */
static int64_t
grown(int64_t now, int64_t last)
{
	return now < 0 || last < 0 ? -1 : now - last;
}

/* The client host over the interval, from /proc. */
static void
host_figures(ticker_state *ts, timeline_record *r)
{
	host_sample now;
	timeline_host *h = &r->host;

	if (!host_sample_read(&now) || !ts->host_last.ok)
	{
		ts->host_last = now;
		return;
	}
	h->ok = true;
	h->ncpus = now.ncpus;
	for (int i = 0; i < TIMELINE_HOST_NCPU_STATES && i < HOST_CPU_NSTATES; i++)
		h->cpu_s[i] = now.cpu_s[i] - ts->host_last.cpu_s[i];
	h->mem_total_kb = now.mem_total_kb;
	h->mem_available_kb = now.mem_available_kb;
	h->net_rx_bytes = grown(now.net_rx_bytes, ts->host_last.net_rx_bytes);
	h->net_tx_bytes = grown(now.net_tx_bytes, ts->host_last.net_tx_bytes);
	h->disk_read_bytes = grown(now.disk_read_bytes, ts->host_last.disk_read_bytes);
	h->disk_write_bytes = grown(now.disk_write_bytes, ts->host_last.disk_write_bytes);
	ts->host_last = now;
}

/* A local server's processes over the interval. */
static void
server_process_figures(ticker_state *ts, timeline_server *srv)
{
	proc_tree_sample now;

	if (ts->postmaster <= 0 || !proc_tree_read(ts->postmaster, &now))
	{
		ts->srv_ok = false;
		return;
	}
	if (ts->srv_ok)
	{
		srv->has_proc = true;
		srv->nprocs = now.nprocs;
		srv->cpu_user_s = now.user_s - ts->srv_last.user_s;
		srv->cpu_system_s = now.system_s - ts->srv_last.system_s;
		srv->read_bytes = grown(now.read_bytes, ts->srv_last.read_bytes);
		srv->write_bytes = grown(now.write_bytes, ts->srv_last.write_bytes);
		/* a reaped process's switches leave the sums: never below 0 */
		srv->ctxsw_voluntary = now.ctxsw_voluntary > ts->srv_last.ctxsw_voluntary
			? now.ctxsw_voluntary - ts->srv_last.ctxsw_voluntary : 0;
		srv->ctxsw_involuntary = now.ctxsw_involuntary > ts->srv_last.ctxsw_involuntary
			? now.ctxsw_involuntary - ts->srv_last.ctxsw_involuntary : 0;
	}
	ts->srv_last = now;
	ts->srv_ok = true;
}

/* A record is complete: into the timeline, and onto the metrics page. */
static void
append_record(ticker_state *ts, const timeline_record *r)
{
	(void) timeline_append(ts->tl, r);	/* a loss sets tl->oom */
	metrics_record(ts->metrics, r, &ts->last, ts->throttled);
}

/*
 * The record waiting for the server's counters goes into the timeline,
 * with them when they came (else the next record's cover both).
 */
static void
flush_pending(ticker_state *ts)
{
	if (!ts->have_pending)
		return;
	monitor_take_interval(ts->mon, &ts->pending.server);
	/* the server's totals leave the warm-up out, from a record with counters */
	if (ts->pending.end_us >= ts->warm_end_us && ts->pending.server.has_counters)
	{
		monitor_restart_totals(ts->mon);
		ts->warm_end_us = INT64_MAX;
	}
	append_record(ts, &ts->pending);
	ts->have_pending = false;
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
		r.staged = ts->cfg->nstages > 0;
		r.stage_target = r.staged ? runconf_stage_applied(ts->cfg, now - ts->origin) : 0;
		timeline_record_latencies(&r, ival);
		client_figures(ts, &r, now - ts->last_tick);
		host_figures(ts, &r);
		server_process_figures(ts, &r.server);
		if (ts->mon == NULL)
			append_record(ts, &r);
		else
		{
			/* the last interval's server counters, if late, are lost to it */
			flush_pending(ts);
			monitor_close_interval(ts->mon, now);
			ts->pending = r;
			ts->have_pending = true;
		}
	}
	ts->last = cur;
	ts->last_tick = now;
}

/*
 * Sleep until deadline, the end of a worker (gate), the monitor's socket
 * or a metrics connection, whichever first; a signal wakes it too.  The
 * metrics connections are served here.
 */
static void
wait_until(ticker_state *ts, stats_gate *gate, pg_time_usec_t deadline)
{
	struct pollfd pfd[2 + METRICS_NFDS] = {{.fd = gate->fd, .events = POLLIN}, {.fd = -1}};
	pg_time_usec_t now = pgb_time_now();
	pg_time_usec_t wait = deadline > now ? deadline - now : 0;
	struct timespec ts_wait;
	uint64_t	drained;
	int			nmetrics;

	/* an idle metrics connection is let go within a second */
	if (ts->metrics != NULL && wait > USEC_PER_SEC)
		wait = USEC_PER_SEC;
	ts_wait = (struct timespec) {
		.tv_sec = (time_t) (wait / USEC_PER_SEC),
		.tv_nsec = (long) (wait % USEC_PER_SEC) * 1000,
	};
	pfd[1].fd = monitor_socket(ts->mon, &pfd[1].events);
	nmetrics = metrics_pollfds(ts->metrics, &pfd[2]);
	if (ppoll(pfd, (nfds_t) 2 + (nfds_t) nmetrics, &ts_wait, NULL) < 0)
		return;					/* a signal: the caller looks */
	if (pfd[0].revents & POLLIN)
	{
		/* the count does not matter: stats_gate_running says who is left */
		(void) !read(gate->fd, &drained, sizeof(drained));
	}
	metrics_service(ts->metrics, &pfd[2], nmetrics, pgb_time_now());
}

/* After the last tick: the pending record, once its counters came. */
static void
finish_pending(ticker_state *ts, stats_gate *gate)
{
	pg_time_usec_t deadline = pgb_time_now() + MONITOR_WAIT_US;

	while (ts->have_pending && !monitor_interval_ready(ts->mon) &&
		   pgb_time_now() < deadline && interrupt_signal() == 0)
	{
		pg_time_usec_t due = monitor_due(ts->mon);

		wait_until(ts, gate, due < deadline ? due : deadline);
		monitor_service(ts->mon, pgb_time_now());
	}
	flush_pending(ts);
}

void
ticker_run(const run_config *cfg, const ticker_source *sources, int nsources,
		   stats_gate *gate, pg_time_usec_t origin, timeline *tl, server_monitor *mon,
		   metrics_server *metrics)
{
	ticker_state ts;
	pg_time_usec_t period = runconf_tick_interval(cfg);
	pg_time_usec_t next = origin + period;
	pg_time_usec_t now;

	if (!state_init(&ts, cfg, sources, nsources, origin, tl, tl != NULL ? mon : NULL))
	{
		/* no memory for the latencies: tick without them */
		hist_free(&ts.hist_now);
		hist_free(&ts.hist_last);
		hist_free(&ts.hist_interval);
		free(ts.one);
		ts.one = NULL;
		ts.with_hist = false;
	}
	ts.metrics = tl != NULL ? metrics : NULL;
	ts.throttled = cfg->rate > 0;
	monitor_begin(ts.mon, origin);

	while (stats_gate_running(gate) > 0)
	{
		pg_time_usec_t due = monitor_due(ts.mon);

		wait_until(&ts, gate, due < next ? due : next);
		now = pgb_time_now();
		monitor_service(ts.mon, now);
		if (ts.have_pending && monitor_interval_ready(ts.mon))
			flush_pending(&ts);
		if (now < next)
			continue;			/* a worker ended, the monitor, or a signal */

		/*
		 * Due, even if the workers have just ended: under -T they end at
		 * the same instant as the last report, which pgbench prints.
		 */
		tick(&ts, now, ts.print);
		/* late (a stopped process): the next tick is still on the grid */
		do
			next += period;
		while (now >= next);
	}

	/* the rest of the run, which no -P line shows */
	now = pgb_time_now();
	if (tl != NULL && now > ts.last_tick)
		tick(&ts, now, false);
	finish_pending(&ts, gate);
	state_free(&ts);
}
