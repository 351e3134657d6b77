/*
 * test_client_more.c — more of the client state machine against a
 * scripted session (client_fixture.h): the -R schedule and the -L skips,
 * -T ending a wait, \sleep, sends the connection library refuses, COPY,
 * the pipeline meta-commands' errors, the identifier cache of dynamic
 * SQL under -M prepared (its eviction), weighted script choice, -r
 * counts of retries and failures, and -C's connect queue and backoff.
 */
#include <stdlib.h>
#include <string.h>

#include "client_fixture.h"
#include "pgbench/script/random.h"
#include "tap.h"

#define USEC_PER_SEC INT64_C(1000000)

/* More -C attempts under way than a thread has slots for (client_int.h: 2). */
#define ALL_SLOTS_TAKEN 1000

static const char *const nothing[] = {NULL};

/* One advance of the client (the clock read fresh). */
static void
step(fixture *fx)
{
	pg_time_usec_t now = 0;

	client_env_set_flow(&fx->env, &fx->cfg);
	client_advance(&fx->c, &fx->env, &now);
}

/* ---- -R and -L -------------------------------------------------------- */

/*
 * -L under -R: a schedule that is already later than the limit when the
 * client comes to it is skipped, counted, and never sent; the skipped
 * transactions count toward -t.
 */
static void
test_throttle_skips(void)
{
	fixture		fx;

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 3, nothing))
		return;
	fx.cfg.throttle_delay = 1000;
	fx.env.throttle_delay = fx.cfg.throttle_delay;
	fx.cfg.latency_limit = 1000;
	fx.env.throttle_trigger = 0;	/* the schedule starts long ago */
	expect_finished(&fx, "-R -L: late slots skipped", 0);
	tap_is_int(fx.stats.total.skipped, 3, "-L: three transactions skipped");
	tap_is_int(fx.c.cnt, 3, "-L: the skipped ones count toward -t");
	fixture_free(&fx);
}

/* -R: each start waits for its slot; the lag is measured from the slot. */
static void
test_throttle_runs(void)
{
	fixture		fx;
	static const char *const two[] = {
		"> Q SELECT 1;", "< ROWS a | 1", "< END", "> Q SELECT 1;", "< ROWS a | 1", "< END", NULL,
	};

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, two))
		return;
	fx.cfg.throttle_delay = 2000;
	fx.env.throttle_delay = fx.cfg.throttle_delay;
	fx.cfg.latency_measured = true;
	fx.env.throttle_trigger = pgb_time_now();
	step(&fx);
	tap_is_int(fx.c.state, CSTATE_THROTTLE, "-R: the client waits for its slot");
	tap_ok(fx.c.txn_scheduled == fx.env.throttle_trigger, "-R: the slot is the thread's schedule");
	expect_finished(&fx, "-R", 2);
	tap_is_int(fx.stats.total.latency.count, 2, "-R: both latencies measured");
	tap_ok(fx.stats.total.latency.min >= 0, "-R: latency counted from the slot");
	fixture_free(&fx);
}

/*
 * -T over: a client waiting for its -R slot ends there; a slot past the
 * -T deadline is not waited for at all.
 */
static void
test_throttle_endings(void)
{
	fixture		fx;

	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 0, nothing))
	{
		fx.cfg.duration = 60;
		fx.cfg.throttle_delay = 10 * USEC_PER_SEC;
		fx.env.throttle_delay = fx.cfg.throttle_delay;
		fx.env.throttle_trigger = pgb_time_now() + 60 * USEC_PER_SEC;
		step(&fx);
		tap_is_int(fx.c.state, CSTATE_THROTTLE, "-T: waiting for the slot");
		fx.env.timer_exceeded = true;
		expect_finished(&fx, "-T over while waiting for the -R slot", 0);
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 0, nothing))
	{
		fx.cfg.duration = 1;
		fx.cfg.throttle_delay = 10 * USEC_PER_SEC;
		fx.env.throttle_delay = fx.cfg.throttle_delay;
		fx.env.throttle_trigger = pgb_time_now();
		fx.env.end_time = fx.env.throttle_trigger;
		expect_finished(&fx, "-R slot past the -T deadline", 0);
		tap_is_int(fx.stats.total.skipped, 0, "-T: the slot is not a skip");
		fixture_free(&fx);
	}
}

/* ---- \sleep ----------------------------------------------------------- */

static void
test_sleep(void)
{
	fixture		fx;
	static const char *const after[] = {"> Q SELECT 2;", "< ROWS a | 2", "< END", NULL};

	/* -T during a \sleep: the sleep and the transaction run to their end */
	if (fixture_init(&fx, "\\set d 1\n\\sleep :d ms\nSELECT 2;\n", QUERY_SIMPLE, 1, after))
	{
		fx.cfg.duration = 60;
		fx.cfg.per_command = true;
		step(&fx);
		tap_is_int(fx.c.state, CSTATE_SLEEP, "\\sleep: the client sleeps");
		tap_ok(fx.c.sleep_until > 0, "\\sleep: until a time");
		fx.env.timer_exceeded = true;
		expect_finished(&fx, "-T during \\sleep", 1);
		tap_is_int(fx.stats.per_command[1].latency.count, 1, "-r: the \\sleep timed");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\sleep :nosuch ms\nSELECT 2;\n", QUERY_SIMPLE, 1, nothing))
	{
		expect_aborted(&fx, "\\sleep of an unset variable", "execution of meta-command failed");
		tap_is_str(fx.env.failure.causes[0], "sleep: undefined variable \"nosuch\"",
				   "\\sleep: the cause");
		fixture_free(&fx);
	}
}

/* ---- sends the connection refuses ------------------------------------- */

/* A client of text in mode whose session plays lines must abort with message. */
static void
expect_send_abort(const char *name, const char *text, query_mode mode,
				  const char *const *lines, const char *message)
{
	fixture		fx;

	if (!fixture_init(&fx, text, mode, 1, lines))
		return;
	fx.cfg.retry.max_tries = 2;
	expect_aborted(&fx, name, message);
	fixture_free(&fx);
}

static void
test_failed_sends(void)
{
	static const char *const first[] = {"~ NOSEND", NULL};
	static const char *const exec[] = {"> PREPARE P_0 SELECT 1;", "< OK", "< END", "~ NOSEND", NULL};
	static const char *const rollback[] = {
		"> Q BEGIN;", "< OK", "< END", "~ TX T",
		"> Q UPDATE t SET v = 1;", "< ERROR 40001 could not serialize access", "< END",
		"~ TX E", "~ NOSEND", NULL,
	};
	static const char *const sync_after_error[] = {
		"> X SELECT 1; |", "~ NOSEND", NULL,
	};
	static const char *const psync[] = {"> X SELECT 1; |", "~ NOSEND", NULL};
	static const char *const ident[] = {"~ NOSEND", NULL};
	const char *const send_failed = "SQL command send failed";

	expect_send_abort("simple send refused", "SELECT 1;\n", QUERY_SIMPLE, first, send_failed);
	expect_send_abort("extended send refused", "SELECT 1;\n", QUERY_EXTENDED, first, send_failed);
	expect_send_abort("PREPARE refused", "SELECT 1;\n", QUERY_PREPARED, first, send_failed);
	expect_send_abort("execution after PREPARE refused", "SELECT 1;\n", QUERY_PREPARED, exec,
					  send_failed);
	expect_send_abort("dynamic SQL send refused", "\\set n 3\nSELECT * FROM :\"n\";\n",
					  QUERY_SIMPLE, ident, send_failed);
	expect_send_abort("dynamic SQL PREPARE refused", "\\set n 3\nSELECT * FROM :\"n\";\n",
					  QUERY_PREPARED, ident, send_failed);
	expect_send_abort("ROLLBACK refused", "BEGIN;\nUPDATE t SET v = 1;\nEND;\n", QUERY_SIMPLE,
					  rollback,
					  "failed to send sql command for rolling back the failed transaction");
	expect_send_abort("\\syncpipeline refused", "\\startpipeline\nSELECT 1;\n\\syncpipeline\n"
					  "\\endpipeline\n", QUERY_EXTENDED, psync, "failed to send a pipeline sync");
	expect_send_abort("\\endpipeline's sync refused", "\\startpipeline\nSELECT 1;\n"
					  "\\endpipeline\n", QUERY_EXTENDED, sync_after_error,
					  "failed to send a pipeline sync");
}

/* The sync that leaves a pipeline after an error is refused. */
static void
test_failed_discard_sync(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> X SELECT 1; |", "> SYNC",
		"< ERROR 40001 could not serialize access", "< END", "< SYNC", "~ NOEXIT",
		"~ NOSEND", NULL,
	};

	if (!fixture_init(&fx, "\\startpipeline\nSELECT 1;\n\\endpipeline\n", QUERY_EXTENDED, 1,
					  lines))
		return;
	expect_aborted(&fx, "error in a pipeline, its sync refused", "failed to send a pipeline sync");
	tap_is_int(fx.env.failure.kind, FAILURE_CLIENT, "a client failure");
	fixture_free(&fx);
}

/* ---- results the engine refuses --------------------------------------- */

static void
test_refused_results(void)
{
	fixture		fx;
	static const char *const copy[] = {"> Q COPY t TO STDOUT;", "< COPY", NULL};
	static const char *const rollback_error[] = {
		"> Q BEGIN;", "< OK", "< END", "~ TX T",
		"> Q UPDATE t SET v = 1;", "< ERROR 40001 could not serialize access", "< END",
		"~ TX E", "> Q ROLLBACK", "< ERROR 57P01 terminating connection", NULL,
	};

	if (fixture_init(&fx, "COPY t TO STDOUT;\n", QUERY_SIMPLE, 1, copy))
	{
		expect_aborted(&fx, "COPY", "COPY is not supported in pgbench, aborting");
		tap_is_int(fx.env.failure.kind, FAILURE_PLAIN, "COPY: a plain failure");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "BEGIN;\nUPDATE t SET v = 1;\nEND;\n", QUERY_SIMPLE, 1, rollback_error))
	{
		fx.cfg.retry.max_tries = 2;
		expect_aborted(&fx, "ROLLBACK failed",
					   "rolling back the transaction after an error; ERROR:  terminating connection\n");
		tap_is_int(fx.env.failure.kind, FAILURE_WHILE, "ROLLBACK failed: a failure while");
		fixture_free(&fx);
	}
}

/* ---- pipeline meta-commands out of place ------------------------------ */

static void
test_pipeline_misuse(void)
{
	fixture		fx;
	static const char *const aset[] = {NULL};

	if (fixture_init(&fx, "\\startpipeline\nSELECT 1;\n\\endpipeline\n", QUERY_SIMPLE, 1, nothing))
	{
		expect_aborted(&fx, "\\startpipeline, simple protocol",
					   "cannot use pipeline mode with the simple query protocol");
		tap_is_str(fx.env.failure.what, "startpipeline", "the command named");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\startpipeline\nSELECT 1 AS a \\aset\n\\endpipeline\n",
					 QUERY_EXTENDED, 1, aset))
	{
		expect_aborted(&fx, "\\aset in a pipeline", "\\aset is not allowed in pipeline mode");
		fixture_free(&fx);
	}
}

/* ---- the identifier cache --------------------------------------------- */

#define CACHE_TEXTS 33			/* one more than the cache holds */
#define CACHE_LINES (CACHE_TEXTS * 6 + 3 + 1)

/*
 * Dynamic SQL under -M prepared with more distinct texts than the cache
 * holds: the least recently used statement is deallocated, its text
 * prepared under a new name, and the cache goes on.
 */
static void
test_ident_eviction(void)
{
	fixture		fx;
	char	   *texts[2 * CACHE_TEXTS];
	const char *lines[CACHE_LINES];
	int			ntexts = 0;
	int			n = 0;

	for (int k = 1; k <= CACHE_TEXTS; k++)
	{
		if (k == CACHE_TEXTS)
		{
			/* the least recently used, PI_0, makes room */
			lines[n++] = "> Q DEALLOCATE \"PI_0\"";
			lines[n++] = "< OK";
			lines[n++] = "< END";
		}
		if (asprintf(&texts[ntexts++], "> PREPARE PI_%d SELECT * FROM \"%d\";", k - 1, k) < 0 ||
			asprintf(&texts[ntexts++], "> EXEC PI_%d |", k - 1) < 0)
			return;
		lines[n++] = texts[ntexts - 2];
		lines[n++] = "< OK";
		lines[n++] = "< END";
		lines[n++] = texts[ntexts - 1];
		lines[n++] = "< ROWS a | 1";
		lines[n++] = "< END";
	}
	lines[n] = NULL;
	if (fixture_init(&fx, "\\set n :n + 1\nSELECT * FROM :\"n\";\n", QUERY_PREPARED,
					 CACHE_TEXTS, lines))
	{
		var_set_value(&fx.c.vars, var_symtab_find(fx.set->symtab, "n", 1), pgb_value_int(0));
		expect_finished(&fx, "identifier cache, one text evicted", CACHE_TEXTS);
		fixture_free(&fx);
	}
	for (int i = 0; i < ntexts; i++)
		free(texts[i]);
}

/* A dynamic statement whose PREPARE fails is prepared again next time. */
static void
test_ident_prepare_failed(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> PREPARE PI_0 SELECT * FROM \"3\";", "< ERROR 42P01 relation \"3\" does not exist",
		"< END", "> EXEC PI_0 |", "< ERROR 26000 prepared statement \"PI_0\" does not exist",
		NULL,
	};

	if (!fixture_init(&fx, "\\set n 3\nSELECT * FROM :\"n\";\n", QUERY_PREPARED, 1, lines))
		return;
	expect_aborted(&fx, "dynamic PREPARE failed", "ERROR:  prepared statement \"PI_0\" does not exist\n");
	tap_is_str(fx.env.failure.sqlstate, "26000", "the execution's SQLSTATE");
	fixture_free(&fx);
}

/* ---- several scripts, -r counts --------------------------------------- */

/*
 * Two scripts of weight 1: each transaction runs the script the thread's
 * choice stream picks, and is counted for that script.
 */
static void
test_script_choice(void)
{
	fixture		fx;
	prng_state	rs;
	const char *lines[4 * 3 + 1];
	int64_t		picked[2] = {0, 0};

	prng_seed(&rs, 1);
	for (int t = 0; t < 4; t++)
	{
		int			pick = (int) random_uniform(&rs, 0, 1);

		picked[pick]++;
		lines[t * 3] = pick == 0 ? "> Q SELECT 1;" : "> Q SELECT 2;";
		lines[t * 3 + 1] = "< ROWS a | 1";
		lines[t * 3 + 2] = "< END";
	}
	lines[12] = NULL;
	if (!fixture_init(&fx, "SELECT 1;\n--next--\nSELECT 2;\n", QUERY_SIMPLE, 4, lines))
		return;
	fx.env.sink.per_script = true;
	expect_finished(&fx, "two scripts", 4);
	tap_is_int(fx.stats.per_script[0].cnt, picked[0], "first script's count");
	tap_is_int(fx.stats.per_script[1].cnt, picked[1], "second script's count");
	fixture_free(&fx);
}

/* -r: a retry and a failure are counted against the command that failed. */
static void
test_per_command_errors(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> Q SELECT 1;", "< ROWS a | 1", "< END",
		"> Q SELECT 2;", "< ERROR 40001 could not serialize access", "< END",
		"> Q SELECT 1;", "< ROWS a | 1", "< END",
		"> Q SELECT 2;", "< ERROR 40001 could not serialize access", "< END", NULL,
	};

	if (!fixture_init(&fx, "SELECT 1;\nSELECT 2;\n", QUERY_SIMPLE, 1, lines))
		return;
	fx.cfg.per_command = true;
	fx.cfg.retry.max_tries = 2;
	fx.cfg.retry.verbose_errors = true;
	expect_finished(&fx, "-r with a retry and a failure", 0);
	tap_is_int(fx.stats.per_command[1].retries, 1, "-r: the retry counted at the second command");
	tap_is_int(fx.stats.per_command[1].failures, 1, "-r: the failure counted there too");
	tap_is_int(fx.stats.per_command[0].retries, 0, "-r: none at the first");
	fixture_free(&fx);
}

/* ---- -C: the connect queue and a full listen queue -------------------- */

static void
test_connect_queue(void)
{
	fixture		fx;
	static const char *const one[] = {"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL};

	/* every connect slot taken: the client queues, and goes once admitted */
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one))
	{
		fx.cfg.connect_each = true;
		fx.c.conn = NULL;
		fx.env.connects_in_flight = ALL_SLOTS_TAKEN;
		ss_queue_connect(fx.s, 0);
		step(&fx);
		tap_ok(fx.c.state == CSTATE_CONNECTING && fx.c.connect_queued, "-C: queued for a slot");
		step(&fx);
		tap_ok(fx.c.connect_queued, "-C: still queued while the slots are taken");
		fx.env.connects_in_flight = 0;
		expect_finished(&fx, "-C, admitted from the queue", 1);
		tap_is_int(fx.env.connect_queue_head, 1, "-C: the queue moved on");
		fixture_free(&fx);
	}
	/* a full listen queue: the attempt waits its backoff and tries again */
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one))
	{
		fx.cfg.connect_each = true;
		fx.c.conn = NULL;
		ss_queue_connect_busy(fx.s, 2, 0);
		step(&fx);
		tap_ok(fx.c.connect_retry_at > 0, "-C, listen queue full: a retry scheduled");
		expect_finished(&fx, "-C after a full listen queue", 1);
		tap_ok(fx.c.connect_backoff >= 2000, "-C: the backoff doubled");
		tap_is_int(ss_connects_left(), 0, "-C: the attempt was used");
		fixture_free(&fx);
	}
}

/* -T over while a -C client queues or connects: it ends there. */
static void
test_connect_endings(void)
{
	fixture		fx;
	pgb_session *slow = ss_new(nothing);

	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 0, nothing))
	{
		fx.cfg.duration = 60;
		fx.cfg.connect_each = true;
		fx.c.conn = NULL;
		fx.env.connects_in_flight = ALL_SLOTS_TAKEN;
		step(&fx);
		fx.env.timer_exceeded = true;
		tap_is_int(fixture_run(&fx, "-T over, queued"), CSTATE_FINISHED, "-T: a queued client ends");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 0, nothing))
	{
		fx.cfg.duration = 60;
		fx.cfg.connect_each = true;
		fx.c.conn = NULL;
		ss_queue_connect(slow, 5);
		step(&fx);
		tap_ok(client_connect_pending(&fx.c), "-C: an attempt under way");
		fx.env.timer_exceeded = true;
		tap_is_int(fixture_run(&fx, "-T over, connecting"), CSTATE_FINISHED,
				   "-T: a connecting client ends");
		tap_is_int(fx.env.connects_in_flight, 0, "-T: its slot given back");
		tap_is_int(ss_connects_left(), 0, "-T: the attempt given up");
		fixture_free(&fx);
	}
	ss_free(slow);
}

/*
 * --stages: a client beyond the plan's clients waits on a timer, drawing
 * nothing, and runs once the plan has room for it; -T ends it waiting.
 */
static void
test_stage_idle(void)
{
	fixture		fx;
	int			fd;
	waitset_event ev;
	pg_time_usec_t wake = 0;
	static const char *const one[] = {"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL};

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, one))
		return;
	fx.env.staged = true;
	fx.env.active_limit = 0;
	step(&fx);
	tap_is_int(fx.c.state, CSTATE_STAGE_IDLE, "stages: a client beyond the plan waits");
	tap_is_int(client_wait(&fx.c, &fd, &ev, &wake), CWAIT_TIMER, "stages: on a timer");
	tap_ok(wake > pgb_time_now() - CLIENT_STAGE_POLL_US && wake <= pgb_time_now() + CLIENT_STAGE_POLL_US,
		   "stages: due within a poll");
	step(&fx);
	tap_is_int(fx.c.state, CSTATE_STAGE_IDLE, "stages: still waiting while the plan has no room");
	tap_is_int(fx.c.cnt, 0, "stages: no transaction meanwhile");
	fx.env.active_limit = 1;
	expect_finished(&fx, "stages: it runs once the plan has room", 1);
	fixture_free(&fx);

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, nothing))
		return;
	fx.env.staged = true;
	fx.env.active_limit = 0;
	step(&fx);
	fx.env.timer_exceeded = true;
	step(&fx);
	tap_is_int(fx.c.state, CSTATE_FINISHED, "stages: -T over while waiting: finished");
	fixture_free(&fx);
}

int
main(void)
{
	test_throttle_skips();
	test_stage_idle();
	test_throttle_runs();
	test_throttle_endings();
	test_sleep();
	test_failed_sends();
	test_failed_discard_sync();
	test_refused_results();
	test_pipeline_misuse();
	test_ident_eviction();
	test_ident_prepare_failed();
	test_script_choice();
	test_per_command_errors();
	test_connect_queue();
	test_connect_endings();
	return tap_done();
}
