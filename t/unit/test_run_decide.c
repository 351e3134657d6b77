/*
 * test_run_decide.c — the orchestrator's decisions alone:
 * how the clients are dealt to the threads, how long the workers run and
 * when -T ends, what the workers' summaries make of the run's window
 * (when the warm-up ends and the figures start, whether it was aborted,
 * the busiest thread), the exit code (bench_int.h), and the sweep's:
 * which status is worse and what follows a step (sweep_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "bench_int.h"
#include "sweep_int.h"
#include "tap.h"

#define SEC INT64_C(1000000)

/* ---- dealing the clients ---------------------------------------------- */

static const struct
{
	int			nclients;
	int			nthreads;
	int			shares[8];
}			deals[] = {
	{10, 4, {3, 3, 2, 2}},
	{4, 4, {1, 1, 1, 1}},
	{5, 2, {3, 2}},
	{7, 3, {3, 2, 2}},
	{1, 1, {1}},
	{100, 8, {13, 13, 13, 13, 12, 12, 12, 12}},
};

static void
test_deal(void)
{
	for (int d = 0; d < (int) PGB_LENGTHOF(deals); d++)
	{
		int			dealt = 0;
		char		got[64] = "",
					want[64] = "",
					name[64];

		for (int i = 0; i < deals[d].nthreads; i++)
		{
			int			n = bench_deal(deals[d].nclients, deals[d].nthreads, i, dealt);

			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d", i ? "," : "", n);
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%d", i ? "," : "",
					 deals[d].shares[i]);
			dealt += n;
		}
		snprintf(name, sizeof(name), "deal: -c %d -j %d", deals[d].nclients, deals[d].nthreads);
		tap_is_str(got, want, name);
		tap_is_int(dealt, deals[d].nclients, "deal: every client dealt, once");
	}
}

/* ---- how long the workers run ------------------------------------------- */

static void
test_deadline(void)
{
	run_config	cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nxacts = 10;
	tap_is_int(bench_run_seconds(&cfg), 0, "-t: no run time");
	tap_is_int(bench_deadline(&cfg, 5 * SEC), 0, "-t: no deadline");
	cfg.duration = 30;
	tap_is_int(bench_run_seconds(&cfg), 30, "-T 30: 30 s");
	tap_is_int(bench_deadline(&cfg, 5 * SEC), 35 * SEC, "-T 30: the deadline 30 s after the start");
	cfg.warmup = 10;
	tap_is_int(bench_run_seconds(&cfg), 40, "-T 30 --warmup=10: the warm-up comes first");
	tap_is_int(bench_deadline(&cfg, 5 * SEC), 45 * SEC,
			   "-T 30 --warmup=10: -T counts after the warm-up");
}

/* ---- the run's window --------------------------------------------------- */

/* A worker's summary: its clients, how they ended, when it started. */
static worker_summary
summary(int nclients, int finished, int aborted, pg_time_usec_t start, pg_time_usec_t measure,
		double busy)
{
	worker_summary ws;

	memset(&ws, 0, sizeof(ws));
	ws.nclients = nclients;
	ws.finished = finished;
	ws.aborted = aborted;
	ws.bench_start = start;
	ws.measure_start = measure;
	ws.busy_share = busy;
	return ws;
}

/*
 * Two workers after a 2 s warm-up: the figures start at the first
 * worker's end of the warm-up and run to the join; the connections take
 * from the start to the first worker's GO.
 */
static void
test_window_warmup(void)
{
	bench_window win;
	report_input in;
	worker_summary a = summary(2, 2, 0, 100 * SEC + 30000, 102 * SEC + 30000, 0.25);
	worker_summary b = summary(2, 2, 0, 100 * SEC + 10000, 102 * SEC + 20000, 0.75);

	memset(&in, 0, sizeof(in));
	bench_window_init(&win);
	bench_window_add(&win, &a, 0, 0);
	bench_window_add(&win, &b, 1, 0);
	bench_window_report(&win, 100 * SEC, 112 * SEC, &in);
	tap_is_int(in.conn_elapsed, 10000, "window: connections until the first worker's GO");
	tap_is_int(in.warmup_elapsed, 2 * SEC + 10000,
			   "window: the warm-up from the first GO to the first figures");
	tap_is_int(in.bench_duration, 10 * SEC - 20000,
			   "window: the figures from the warm-up's end to the join");
	tap_is_int(in.start_time, 100 * SEC, "window: the run's start");
	tap_ok(!in.aborted, "window: every client finished: not aborted");
	tap_is_int(in.busiest_thread, 1, "window: the busiest thread");
	tap_is_double(in.busiest_thread_cpu_pct, 75, 1e-9, "window: its share in percent");
}

/* No warm-up: the figures start at the first GO. */
static void
test_window_plain(void)
{
	bench_window win;
	report_input in;
	worker_summary a = summary(1, 1, 0, 7 * SEC, 7 * SEC, -1);

	memset(&in, 0, sizeof(in));
	bench_window_init(&win);
	bench_window_add(&win, &a, 0, 0);
	bench_window_report(&win, 6 * SEC, 9 * SEC, &in);
	tap_is_int(in.warmup_elapsed, 0, "no warm-up: none reported");
	tap_is_int(in.bench_duration, 2 * SEC, "no warm-up: the figures from GO to the join");
	tap_is_double(in.busiest_thread_cpu_pct, -1, 0, "busy share unknown: unknown");
	tap_is_int(in.busiest_thread, 0, "busy share unknown: thread 0");
}

/* Whether a run was aborted: a client aborted, or one did not finish without a signal. */
static void
test_window_aborted(void)
{
	static const struct
	{
		int			finished;
		int			aborted;
		int			signo;
		bool		want;
		const char *name;
	}			cases[] = {
		{3, 0, 0, false, "every client finished"},
		{2, 1, 0, true, "a client aborted"},
		{2, 0, 0, true, "a client did not finish"},
		{2, 0, 2, false, "a client stopped by a signal"},
		{1, 1, 15, true, "a client aborted before the signal"},
	};

	for (int i = 0; i < (int) PGB_LENGTHOF(cases); i++)
	{
		bench_window win;
		worker_summary ok = summary(3, 3, 0, SEC, SEC, 0.1);
		worker_summary ws = summary(3, cases[i].finished, cases[i].aborted, SEC, SEC, 0.1);

		bench_window_init(&win);
		bench_window_add(&win, &ok, 0, cases[i].signo);
		bench_window_add(&win, &ws, 1, cases[i].signo);
		tap_ok(win.aborted == cases[i].want, "aborted: %s: %s", cases[i].name,
			   cases[i].want ? "yes" : "no");
	}
}

/* ---- the exit code ------------------------------------------------------- */

static void
test_exit_code(void)
{
	static const struct
	{
		int			signo;
		bool		aborted;
		bool		files;
		bool		logs;
		int			thresholds;
		int			want;
		const char *name;
	}			cases[] = {
		{0, false, false, false, 0, 0, "a run that completed"},
		{0, true, false, false, 0, 2, "a client aborted"},
		{0, false, true, false, 0, 2, "a report file not written"},
		{0, false, false, true, 0, 2, "a log not written"},
		{0, false, false, false, 2, 3, "a threshold failed"},
		{0, true, false, false, 1, 2, "aborted and a threshold failed"},
		{0, false, false, true, 1, 2, "a log not written and a threshold failed"},
		{2, true, true, true, 1, 130, "SIGINT, whatever else"},
		{15, false, false, false, 0, 143, "SIGTERM"},
	};

	for (int i = 0; i < (int) PGB_LENGTHOF(cases); i++)
		tap_is_int(bench_exit_code(cases[i].signo, cases[i].aborted, cases[i].files,
								   cases[i].logs, cases[i].thresholds),
				   cases[i].want, cases[i].name);
}

/* ---- the sweep ------------------------------------------------------------ */

static void
test_sweep_status(void)
{
	static const struct
	{
		int			so_far;
		int			rc;
		int			want;
	}			cases[] = {
		{0, 0, 0}, {0, 3, 3}, {3, 0, 3}, {3, 2, 2}, {2, 3, 2}, {2, 1, 1}, {1, 2, 1},
		{1, 0, 1}, {0, 130, 130}, {2, 143, 143}, {130, 1, 130}, {130, 143, 130},
	};

	for (int i = 0; i < (int) PGB_LENGTHOF(cases); i++)
	{
		char		name[64];

		snprintf(name, sizeof(name), "sweep status: %d then %d", cases[i].so_far, cases[i].rc);
		tap_is_int(sweep_worse_status(cases[i].so_far, cases[i].rc), cases[i].want, name);
	}
}

static void
test_sweep_next(void)
{
	pgb_sweep	sw;
	sweep_knee	none = {.step = -1};
	sweep_knee	gain = {.step = 1, .decided = true};
	sweep_knee	slo = {.step = 0, .decided = true, .by_slo = true};
	sweep_knee	undecided = {.step = 2, .by_slo = true};

	memset(&sw, 0, sizeof(sw));
	sw.nsteps = 4;
	tap_is_int(sweep_after_step(&sw, 0, 0, 0, &none), SWEEP_NEXT_STEP, "next: a step that ran");
	tap_is_int(sweep_after_step(&sw, 0, 2, 0, &none), SWEEP_NEXT_STEP,
			   "next: after a step that aborted (2)");
	tap_is_int(sweep_after_step(&sw, 0, 3, 0, &none), SWEEP_NEXT_STEP,
			   "next: after a failed threshold (3)");
	tap_is_int(sweep_after_step(&sw, 1, 1, 0, &none), SWEEP_END_FAILED,
			   "end: a step that could not start");
	tap_is_int(sweep_after_step(&sw, 1, 130, 2, &none), SWEEP_END_FAILED,
			   "end: a step a signal stopped");
	tap_is_int(sweep_after_step(&sw, 1, 0, 15, &none), SWEEP_END_SIGNAL,
			   "end: a signal after the step ended");
	tap_is_int(sweep_after_step(&sw, 1, 0, 0, &gain), SWEEP_NEXT_STEP,
			   "next: a knee without --sweep-stop-on");
	sw.stop_on = SWEEP_STOP_KNEE;
	tap_is_int(sweep_after_step(&sw, 1, 0, 0, &gain), SWEEP_END_STOP_ON,
			   "stop-on=knee: the knee decided by the gain");
	tap_is_int(sweep_after_step(&sw, 1, 0, 0, &slo), SWEEP_END_STOP_ON,
			   "stop-on=knee: the knee decided by the SLO");
	tap_is_int(sweep_after_step(&sw, 2, 0, 0, &undecided), SWEEP_NEXT_STEP,
			   "stop-on=knee: not decided yet");
	tap_is_int(sweep_after_step(&sw, 3, 0, 0, &gain), SWEEP_NEXT_STEP,
			   "stop-on=knee: the last step ends the sweep anyway");
	sw.stop_on = SWEEP_STOP_SLO;
	tap_is_int(sweep_after_step(&sw, 1, 0, 0, &gain), SWEEP_NEXT_STEP,
			   "stop-on=slo: a knee by the gain does not stop");
	tap_is_int(sweep_after_step(&sw, 0, 0, 0, &slo), SWEEP_END_STOP_ON,
			   "stop-on=slo: the first step beyond the SLO stops");
	tap_is_int(sweep_after_step(&sw, 0, 1, 0, &slo), SWEEP_END_FAILED,
			   "a step that could not start comes before the knee");
}

int
main(void)
{
	test_deal();
	test_deadline();
	test_window_warmup();
	test_window_plain();
	test_window_aborted();
	test_exit_code();
	test_sweep_status();
	test_sweep_next();
	return tap_done();
}
