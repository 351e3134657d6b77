/*
 * bench_decide.c — the orchestrator's decisions, kept apart from its
 * effects (bench_int.h): how the clients are dealt to the threads, how
 * long the workers run and when -T ends, what the workers' summaries say
 * of the run as a whole (when its figures start, whether it was aborted,
 * its busiest thread) and the exit code.  Pure: no clock, no I/O;
 * t/unit/test_run_decide.c holds them to their contracts.
 */
#include "bench_int.h"

int
bench_deal(int nclients, int nthreads, int tid, int dealt)
{
	/* the rest spread over the threads left, the larger shares first */
	return (nclients - dealt + nthreads - tid - 1) / (nthreads - tid);
}

int
bench_run_seconds(const run_config *cfg)
{
	/* -T counts after the warm-up */
	return cfg->duration > 0 ? cfg->duration + cfg->warmup : 0;
}

pg_time_usec_t
bench_deadline(const run_config *cfg, pg_time_usec_t start)
{
	int			seconds = bench_run_seconds(cfg);

	return seconds > 0 ? start + (pg_time_usec_t) 1000000 * seconds : 0;
}

void
bench_window_init(bench_window *win)
{
	win->aborted = false;
	win->busiest_thread = 0;
	win->busiest_pct = -1;
	win->bench_start = 0;
	win->measure_start = 0;
}

void
bench_window_add(bench_window *win, const worker_summary *ws, int tid, int signo)
{
	/* a client that did not finish aborted, unless a signal stopped it */
	if (ws->aborted > 0 || (signo == 0 && ws->finished < ws->nclients))
		win->aborted = true;
	if (ws->busy_share >= 0 && 100 * ws->busy_share > win->busiest_pct)
	{
		win->busiest_pct = 100 * ws->busy_share;
		win->busiest_thread = tid;
	}
	if (win->bench_start == 0 || ws->bench_start < win->bench_start)
		win->bench_start = ws->bench_start;
	if (win->measure_start == 0 || ws->measure_start < win->measure_start)
		win->measure_start = ws->measure_start;
}

void
bench_window_report(const bench_window *win, pg_time_usec_t origin, pg_time_usec_t joined_at,
					report_input *in)
{
	in->aborted = win->aborted;
	in->busiest_thread_cpu_pct = win->busiest_pct;
	in->busiest_thread = win->busiest_thread;
	/* the figures run from the warm-up's end (or the start) to the join */
	in->bench_duration = joined_at - win->measure_start;
	in->conn_elapsed = win->bench_start - origin;
	in->warmup_elapsed = win->measure_start - win->bench_start;
	in->start_time = origin;
}

int
bench_exit_code(int signo, bool aborted, bool files_failed, bool logs_failed,
				int thresholds_failed)
{
	if (signo != 0)
		return 128 + signo;
	if (aborted || files_failed || logs_failed)
		return 2;
	if (thresholds_failed > 0)
		return THRESHOLD_EXIT_FAILED;
	return 0;
}
