/*
 * test_thread.c — the worker thread's loop (thread.h) over scripted
 * sessions (client_fixture.h): a refused connection before the run and
 * the lines it prints, a launch called off, -T passing while a client is
 * inside a transaction, --exit-on-abort stopping the thread's other
 * clients, a signal cancelling the statements in flight, the log's
 * periodic flush and close, and the histograms and progress gate.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "client_fixture.h"
#include "pgbench/base/interrupt.h"
#include "tap.h"

#define USEC_PER_SEC INT64_C(1000000)

static const char *const one_select[] = {"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL};

/* ---- before the run --------------------------------------------------- */

/*
 * A refused connection: pgbench's two lines, printed once, the run marked
 * failed, and no client run.
 */
static void
test_refused(void)
{
	fixture		fx;
	worker_run	wr;
	char		err[1024];
	pgb_session *first = ss_new(one_select);

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one_select))
		return;
	ss_queue_connect(first, 1);
	ss_queue_connect(NULL, 0);
	if (tap_ok(worker_run_prepare(&fx, 2, &wr), "refused: prepared"))
	{
		tap_stderr_catch();
		worker_main(&wr.w);
		tap_stderr_release(err, sizeof(err));
		tap_is_str(err, "pgbench: error: connection to server failed: scripted refusal\n"
				   "pgbench: error: could not create connection for client 1\n",
				   "refused: pgbench's lines, naming the client");
		tap_ok(atomic_load(&wr.sh.setup_failed), "refused: the run is marked failed");
		tap_is_int(wr.w.stats.total.cnt, 0, "refused: nothing ran");
		tap_is_int(ss_remaining(first), 3, "refused: the first client sent nothing");
		tap_ok(ss_closed(first), "refused: the first client's connection closed");
	}
	worker_run_finish(&wr);
	ss_free(first);
	fixture_free(&fx);
}

/* A launch called off (a thread could not be created): nothing happens. */
static void
test_launch_off(void)
{
	fixture		fx;
	worker_run	wr;
	pgb_session *s = ss_new(one_select);

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one_select))
		return;
	ss_queue_connect(s, 0);
	if (worker_run_prepare(&fx, 1, &wr))
	{
		wr.sh.launch = -1;
		tap_ok(worker_main(&wr.w) == NULL, "launch off: the worker returns");
		tap_is_int(ss_connects_left(), 1, "launch off: no connection attempted");
	}
	worker_run_finish(&wr);
	/* the attempt the worker left, taken here so that the next test starts afresh */
	{
		conn_attempt a;

		memset(&a, 0, sizeof(a));
		pgb_connect_start(&a, NULL, 0);
		pgb_session_take(&a);
	}
	ss_free(s);
	fixture_free(&fx);
}

/* ---- endings ---------------------------------------------------------- */

/*
 * -T passes while the client sleeps inside a transaction: the loop wakes
 * at the deadline, the sleep runs to its end, the transaction finishes
 * and is counted, and no other begins.
 */
static void
test_deadline_in_transaction(void)
{
	fixture		fx;
	worker_run	wr;
	pgb_session *s = ss_new(one_select);
	client	   *c = &wr.clients[0];

	if (!fixture_init(&fx, "\\sleep 50 ms\nSELECT 1;\n", QUERY_SIMPLE, 0, one_select))
		return;
	fx.cfg.duration = 1;
	ss_queue_connect(s, 0);
	if (worker_run_prepare(&fx, 1, &wr))
	{
		pg_time_usec_t now = pgb_time_now();

		/* inside its transaction, asleep in command 0, when the run starts */
		c->state = CSTATE_SLEEP;
		c->tries = 1;
		c->txn_begin = c->txn_scheduled = now;
		c->next_command = 1;
		c->sleep_until = now + 50000;
		wr.sh.end_time = now + 10000;
		worker_main(&wr.w);
		tap_ok(wr.w.env.timer_exceeded, "-T: the loop saw the deadline");
		tap_is_int(wr.w.stats.total.cnt, 1, "-T: the transaction under way finished");
		played(s, "-T inside a transaction");
		tap_is_int(c->state, CSTATE_FINISHED, "-T: the client finished");
	}
	worker_run_finish(&wr);
	ss_free(s);
	fixture_free(&fx);
}

/*
 * --exit-on-abort: client 0 aborts on an SQL error; the thread says so,
 * raises the stop for every thread (its eventfd too) and leaves client 1
 * where it was.
 */
static void
test_exit_on_abort(void)
{
	fixture		fx;
	worker_run	wr;
	char		err[1024];
	static const char *const failing[] = {
		"> Q SELECT 1;", "< ERROR 42703 column does not exist", NULL,
	};
	static const char *const slow[] = {
		"> Q SELECT 1;", "~ BUSY 5", "< ROWS a | 1", "< END", NULL,
	};
	pgb_session *s0 = ss_new(failing);
	pgb_session *s1 = ss_new(slow);
	int			stop_fd = eventfd(0, 0);
	uint64_t	stops = 0;

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one_select))
		return;
	fx.cfg.exit_on_abort = true;
	ss_queue_connect(s0, 0);
	ss_queue_connect(s1, 0);
	if (worker_run_prepare(&fx, 2, &wr))
	{
		wr.sh.stop_fd = stop_fd;
		tap_stderr_catch();
		worker_main(&wr.w);
		tap_stderr_release(err, sizeof(err));
		tap_ok(strstr(err, "pgbench: error: client 0 script 0 aborted in command 0 query 0: "
					  "ERROR:  column does not exist\n") != NULL,
			   "--exit-on-abort: the client's abort reported");
		tap_ok(strstr(err, "pgbench: error: Run was aborted due to an error in thread 0\n") != NULL,
			   "--exit-on-abort: the run's stop reported");
		if (!tap_ok(atomic_load(&wr.sh.stop) && atomic_load(&wr.sh.abort_stop),
					"--exit-on-abort: every thread told to stop"))
			tap_diag("%s", err);
		tap_ok(read(stop_fd, &stops, sizeof(stops)) == sizeof(stops) && stops == 1,
			   "--exit-on-abort: the stop eventfd written");
		tap_ok(ss_remaining(s1) > 0, "--exit-on-abort: the other client stopped where it was");
		tap_ok(ss_closed(s1), "--exit-on-abort: its connection closed");
		tap_is_int(wr.w.stats.total.cnt, 0, "--exit-on-abort: nothing counted");
	}
	worker_run_finish(&wr);
	close(stop_fd);
	ss_free(s0);
	ss_free(s1);
	fixture_free(&fx);
}

/*
 * A signal (here SIGTERM from a \shell child) while a pipeline's
 * statement is in flight: the loop stops at its next pass and cancels
 * that statement.
 */
static void
test_signal_cancels(void)
{
	fixture		fx;
	worker_run	wr;
	static const char *const lines[] = {"> X SELECT 1; |", "> SYNC", "~ BUSY 100", NULL};
	pgb_session *s = ss_new(lines);

	if (!fixture_init(&fx, "\\startpipeline\nSELECT 1;\n\\shell kill -TERM $PPID\n"
					  "\\endpipeline\n", QUERY_EXTENDED, 1, lines))
		return;
	ss_queue_connect(s, 0);
	if (worker_run_prepare(&fx, 1, &wr))
	{
		interrupt_arm(&wr.sh.stop, -1);
		worker_main(&wr.w);
		interrupt_disarm();
		tap_is_int(interrupt_signal(), SIGTERM, "signal: caught");
		tap_is_int(ss_cancels(s), 1, "signal: the statement in flight cancelled");
		tap_ok(ss_closed(s), "signal: the connection closed");
		tap_is_int(wr.w.stats.total.cnt, 0, "signal: nothing counted");
	}
	worker_run_finish(&wr);
	ss_free(s);
	fixture_free(&fx);
}

/* ---- the log, histograms and the progress gate ------------------------ */

/*
 * -l: the log's flush is due at the run's whole seconds (here at once:
 * the run's origin a second ago), and the log is closed at the end with
 * a line per transaction; the histograms and the -P gate are kept.
 */
static void
test_log_and_gate(void)
{
	fixture		fx;
	worker_run	wr;
	static const char *const two[] = {
		"> Q SELECT 1;", "< ROWS a | 1", "< END", "> Q SELECT 1;", "< ROWS a | 1", "< END", NULL,
	};
	pgb_session *s = ss_new(two);
	char		dir[] = "/tmp/pgb_thread_XXXXXX";
	char		prefix[64];
	char		path[128];
	char		err[256];
	char		text[256] = "";
	stats_gate	gate;
	FILE	   *f;

	if (mkdtemp(dir) == NULL || !fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, two))
		return;
	snprintf(prefix, sizeof(prefix), "%s/log", dir);
	fx.cfg.log_enabled = true;
	fx.cfg.log_cfg.prefix = prefix;
	fx.cfg.log_cfg.pid = 42;
	fx.cfg.keep_hist = true;
	fx.cfg.series_interval = USEC_PER_SEC;
	fx.cfg.progress_sec = 1;
	ss_queue_connect(s, 0);
	stats_gate_init(&gate, 1);
	if (worker_run_prepare(&fx, 1, &wr) &&
		tap_ok(txlog_open(&wr.w.log, &fx.cfg.log_cfg, 0, err, sizeof(err)), "log: opened"))
	{
		wr.sh.gate = &gate;
		wr.sh.origin = pgb_time_now() - USEC_PER_SEC;
		worker_main(&wr.w);
		tap_is_str(wr.w.log_error, "", "log: no write error");
		tap_ok(!wr.w.log.is_open, "log: closed by the thread");
		tap_ok(wr.w.log_flush_at == INT64_MAX, "log: no flush due after the end");
		tap_is_int(gate.running, 0, "-P: the worker left the gate");
		tap_ok(wr.w.stats.latency_hist != NULL, "histograms kept");
		snprintf(path, sizeof(path), "%s.42", prefix);
		if ((f = fopen(path, "r")) != NULL)
		{
			size_t		n = fread(text, 1, sizeof(text) - 1, f);

			text[n] = '\0';
			fclose(f);
		}
		tap_ok(strncmp(text, "0 1 ", 4) == 0 && strstr(text, "\n0 2 ") != NULL,
			   "log: a line per transaction");
		unlink(path);
	}
	worker_run_finish(&wr);
	stats_gate_destroy(&gate);
	rmdir(dir);
	played(s, "log");
	ss_free(s);
	fixture_free(&fx);
}

int
main(void)
{
	test_refused();
	test_launch_off();
	test_deadline_in_transaction();
	test_exit_on_abort();
	test_log_and_gate();
	test_signal_cancels();
	return tap_done();
}
