/*
 * test_client.c — the client state machine against a scripted session
 * (session_script.h): what it sends in each query mode, how it reads
 * results, pipelines and their syncs, \gset, the error path (retries,
 * failures, --continue-on-error, lost connections) and -t endings, each
 * checked line by line against the script, with no server.
 */
#include <stdlib.h>
#include <string.h>

#include "client_fixture.h"
#include "tap.h"

/* ---- query modes ------------------------------------------------------ */

static void
test_modes(void)
{
	fixture		fx;
	static const char *const simple[] = {
		"> Q SELECT 1;", "< ROWS ?column? | 1", "< END",
		"> Q SELECT 1;", "~ BUSY 2", "< ROWS ?column? | 1", "< END", NULL,
	};
	static const char *const extended[] = {
		"> X SELECT $1; | 5", "< ROWS x | 5", "< END", NULL,
	};
	static const char *const prepared[] = {
		"> PREPARE P_0 SELECT $1;", "< OK", "< END",
		"> EXEC P_0 | 5", "< ROWS x | 5", "< END",
		"> EXEC P_0 | 5", "~ BUSY 1", "< ROWS x | 5", "< END", NULL,
	};

	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, simple))
	{
		expect_finished(&fx, "simple", 2);
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\set x 5\nSELECT :x;\n", QUERY_EXTENDED, 1, extended))
	{
		expect_finished(&fx, "extended", 1);
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\set x 5\nSELECT :x;\n", QUERY_PREPARED, 2, prepared))
	{
		expect_finished(&fx, "prepared", 2);
		fixture_free(&fx);
	}
}

/* ---- pipelines -------------------------------------------------------- */

static void
test_pipelines(void)
{
	fixture		fx;
	static const char *const two_syncs[] = {
		"> X SELECT 1; |", "> SYNC", "> X SELECT 2; |", "> SYNC",
		"< ROWS a | 1", "< END", "< SYNC", "~ BUSY 1", "< ROWS a | 2", "< END", "< SYNC",
		NULL,
	};
	static const char *const prepared[] = {
		"> PREPARE P_0 SELECT 1;", "~ BUSY 1", "< OK", "< END",
		"> PREPARE P_1 SELECT 2;", "< ERROR 42601 syntax error", "< END",
		"> EXEC P_0 |", "> EXEC P_1 |", "> SYNC",
		"< ROWS a | 1", "< END", "< ROWS a | 2", "< END", "< SYNC",
		"> EXEC P_0 |", "> EXEC P_1 |", "> SYNC",
		"< ROWS a | 1", "< END", "< ROWS a | 2", "< END", "< SYNC", NULL,
	};

	if (fixture_init(&fx, "\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n",
					 QUERY_EXTENDED, 1, two_syncs))
	{
		expect_finished(&fx, "pipeline with two syncs", 1);
		tap_is_int(fx.c.num_syncs, 0, "every sync read");
		fixture_free(&fx);
	}
	/* the PREPAREs go one by one without blocking; a failed one is reported */
	if (fixture_init(&fx, "\\startpipeline\nSELECT 1;\nSELECT 2;\n\\endpipeline\n",
					 QUERY_PREPARED, 2, prepared))
	{
		expect_finished(&fx, "pipeline, prepared", 2);
		fixture_free(&fx);
	}
}

/* ---- \gset ------------------------------------------------------------ */

static void
test_gset(void)
{
	fixture		fx;
	static const char *const one[] = {"> Q SELECT 1 AS a ", "< ROWS a | 42", "< END", NULL};
	static const char *const none[] = {"> Q SELECT 1 AS a ", "< ROWS a", "< END", NULL};
	static const char *const two[] = {"> Q SELECT 1 AS a ", "< ROWS a | 1 | 2", "< END", NULL};
	const char *text = "SELECT 1 AS a \\gset\n\\set b :a + 1\n";

	if (fixture_init(&fx, text, QUERY_SIMPLE, 1, one))
	{
		expect_finished(&fx, "gset, one row", 1);
		tap_is_str(fixture_var(&fx, "b"), "43", "gset: the value stored and used");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, text, QUERY_SIMPLE, 1, none))
	{
		expect_aborted(&fx, "gset, no row", "expected one row, got 0");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, text, QUERY_SIMPLE, 1, two))
	{
		expect_aborted(&fx, "gset, two rows", "expected one row, got 2");
		fixture_free(&fx);
	}
}

/* ---- errors ----------------------------------------------------------- */

static const char *const tx_text = "BEGIN;\nUPDATE t SET v = 1;\nEND;\n";

#define FAIL_THEN_PASS_LINES 24

/*
 * The session of tx_text whose UPDATE fails with error (a "< ERROR" line),
 * rolled back, and then passes when run again, into lines.
 */
static void
fail_then_pass(const char **lines, const char *error)
{
	const char *const played[FAIL_THEN_PASS_LINES] = {
		"> Q BEGIN;", "< OK", "< END", "~ TX T",
		"> Q UPDATE t SET v = 1;", error, "< END",
		"~ TX E", "> Q ROLLBACK", "< OK", "< END", "~ TX I",
		"> Q BEGIN;", "< OK", "< END", "~ TX T",
		"> Q UPDATE t SET v = 1;", "< OK", "< END",
		"> Q END;", "< OK", "< END", "~ TX I", NULL,
	};

	memcpy(lines, played, sizeof(played));
}

static void
test_retry(void)
{
	fixture		fx;
	const char *retried[FAIL_THEN_PASS_LINES];
	static const char *const deadlock[] = {
		"> Q BEGIN;", "< OK", "< END", "~ TX T",
		"> Q UPDATE t SET v = 1;", "< ERROR 40P01 deadlock detected", "< END",
		"~ TX E", "> Q ROLLBACK", "< OK", "< END", "~ TX I", NULL,
	};

	fail_then_pass(retried, "< ERROR 40001 could not serialize access");
	if (fixture_init(&fx, tx_text, QUERY_SIMPLE, 1, retried))
	{
		fx.cfg.retry.max_tries = 2;
		expect_finished(&fx, "serialization failure retried", 1);
		tap_is_int(fx.stats.total.retried, 1, "one transaction retried");
		tap_is_int(fx.stats.total.retries, 1, "once");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, tx_text, QUERY_SIMPLE, 1, deadlock))
	{
		expect_finished(&fx, "deadlock failure, --max-tries 1", 0);
		tap_is_int(fx.stats.total.deadlock_failures, 1, "counted as a deadlock failure");
		tap_is_int(fx.stats.total.retries, 0, "not retried");
		fixture_free(&fx);
	}
}

static void
test_other_errors(void)
{
	fixture		fx;
	const char *duplicate[FAIL_THEN_PASS_LINES];
	static const char *const plain[] = {
		"> Q SELECT nosuch;", "< ERROR 42703 column \"nosuch\" does not exist", NULL,
	};
	static const char *const lost[] = {"> Q SELECT nosuch;", "~ BREAK", NULL};

	fail_then_pass(duplicate, "< ERROR 23505 duplicate key value");
	if (fixture_init(&fx, tx_text, QUERY_SIMPLE, 2, duplicate))
	{
		fx.cfg.continue_on_error = true;
		expect_finished(&fx, "--continue-on-error", 1);
		tap_is_int(fx.stats.total.other_failures, 1, "the other failure counted");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "SELECT nosuch;\n", QUERY_SIMPLE, 1, plain))
	{
		expect_aborted(&fx, "SQL error", "ERROR:  column \"nosuch\" does not exist\n");
		tap_is_str(fx.env.failure.sqlstate, "42703", "its SQLSTATE kept");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "SELECT nosuch;\n", QUERY_SIMPLE, 1, lost))
	{
		expect_aborted(&fx, "connection lost", "perhaps the backend died while processing");
		fixture_free(&fx);
	}
}

/*
 * An error met while the session is still in a pipeline (here: leaving it
 * fails, as libpq's exit does with results pending: "~ NOEXIT"): the client syncs and
 * drops everything up to that sync without blocking, then rolls back.
 */
static void
test_pipeline_discard(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> X SELECT 1; |", "> SYNC",
		"< ERROR 40001 could not serialize access", "< END", "< SYNC", "~ NOEXIT",
		"> SYNC", "~ BUSY 1", "< OK", "< END", "< SYNC", "< END", "~ TX I", NULL,
	};

	if (fixture_init(&fx, "\\startpipeline\nSELECT 1;\n\\endpipeline\n",
					 QUERY_EXTENDED, 1, lines))
	{
		expect_finished(&fx, "error while in a pipeline", 0);
		tap_is_int(fx.stats.total.serialization_failures, 1, "a serialization failure");
		tap_is_int(pgb_session_pipeline(fx.s), PGB_PIPELINE_OFF, "out of the pipeline");
		fixture_free(&fx);
	}
}

/* ---- endings and script rules ----------------------------------------- */

static void
test_endings(void)
{
	fixture		fx;
	static const char *const nothing[] = {NULL};
	static const char *const open_block[] = {"> Q BEGIN;", "< OK", "< END", "~ TX T", NULL};
	static const char *const open_pipeline[] = {"> X SELECT 1; |", NULL};
	static const char *const gset_pipeline[] = {NULL};

	/* -T over before the first transaction: nothing is sent */
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 0, nothing))
	{
		fx.cfg.duration = 1;
		fx.env.timer_exceeded = true;
		expect_finished(&fx, "-T over", 0);
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "BEGIN;\n", QUERY_SIMPLE, 1, open_block))
	{
		expect_aborted(&fx, "transaction block left open",
					   "end of script reached without completing the last transaction");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\startpipeline\nSELECT 1;\n", QUERY_EXTENDED, 1, open_pipeline))
	{
		expect_aborted(&fx, "pipeline left open", "end of script reached with pipeline open");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "\\startpipeline\nSELECT 1 AS a \\gset\n\\endpipeline\n",
					 QUERY_EXTENDED, 1, gset_pipeline))
	{
		expect_aborted(&fx, "\\gset in a pipeline", "\\gset is not allowed in pipeline mode");
		fixture_free(&fx);
	}
}

/* \aset keeps the last row of each result; -r times each command. */
static void
test_aset_and_latencies(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> Q SELECT 1 AS a ", "< ROWS a,b | 1,2 | 3,NULL", "< END", NULL,
	};

	if (fixture_init(&fx, "SELECT 1 AS a \\aset\n\\set c :a + 1\n", QUERY_SIMPLE, 1, lines))
	{
		fx.cfg.per_command = true;
		expect_finished(&fx, "aset", 1);
		tap_is_str(fixture_var(&fx, "c"), "4", "aset: the last row's value stored and used");
		tap_is_int(fx.stats.per_command[0].latency.count, 1, "-r: the SQL command timed");
		tap_is_int(fx.stats.per_command[1].latency.count, 1, "-r: the \\set timed");
		fixture_free(&fx);
	}
}

/* Dynamic SQL under -M prepared: each text prepared once under PI_n. */
static void
test_dynamic(void)
{
	fixture		fx;
	static const char *const lines[] = {
		"> PREPARE PI_0 SELECT * FROM \"3\";", "< OK", "< END",
		"> EXEC PI_0 |", "< ROWS a | 1", "< END",
		"> EXEC PI_0 |", "< ROWS a | 1", "< END", NULL,
	};

	if (fixture_init(&fx, "\\set n 3\nSELECT * FROM :\"n\";\n", QUERY_PREPARED, 2, lines))
	{
		expect_finished(&fx, "dynamic SQL, prepared", 2);
		fixture_free(&fx);
	}
}

/*
 * --verbose-errors and a retried failure that keeps failing: given up
 * after --max-tries; a held --continue-on-error error whose connection is
 * lost aborts with it.
 */
static void
test_give_up(void)
{
	fixture		fx;
	static const char *const twice[] = {
		"> Q SELECT 1;", "< ERROR 40001 could not serialize access", "< END",
		"> Q SELECT 1;", "< ERROR 40001 could not serialize access", "< END", NULL,
	};
	static const char *const held_lost[] = {
		"> Q SELECT 1;", "< ERROR 23505 duplicate key value", "~ BREAK", NULL,
	};

	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, twice))
	{
		fx.cfg.retry.max_tries = 2;
		fx.cfg.retry.verbose_errors = true;
		expect_finished(&fx, "retried, then given up", 0);
		tap_is_int(fx.stats.total.serialization_failures, 1, "one serialization failure");
		tap_is_int(fx.stats.total.retries, 1, "after one retry");
		fixture_free(&fx);
	}
	if (fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, held_lost))
	{
		fx.cfg.continue_on_error = true;
		expect_aborted(&fx, "held error, connection lost", "ERROR:  duplicate key value\n");
		fixture_free(&fx);
	}
}

/* ---- connections ------------------------------------------------------ */

static const char *const one_select[] = {"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL};

/* -C: a connection per transaction, the first one slow to come up. */
static void
test_connect_each(void)
{
	static const char *const no_lines[] = {NULL};
	fixture		fx;
	pgb_session *second = ss_new(one_select);

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, one_select))
		return;
	fx.cfg.connect_each = true;
	fx.c.conn = NULL;
	ss_queue_connect(fx.s, 2);
	ss_queue_connect(second, 0);
	expect_finished(&fx, "-C", 2);
	played(second, "-C, second connection");
	tap_ok(ss_closed(second), "-C: each connection closed after its transaction");
	tap_is_int(ss_connects_left(), 0, "-C: one connection per transaction");
	ss_free(second);
	fixture_free(&fx);

	/*
	 * a refused connection aborts the client with the connection's message
	 * (its session plays nothing; a named array, since a compound literal
	 * in the if's condition would end with the if statement)
	 */
	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 1, no_lines))
		return;
	fx.cfg.connect_each = true;
	fx.c.conn = NULL;
	ss_queue_connect(NULL, 0);
	tap_is_int(fixture_run(&fx, "-C, refused"), CSTATE_ABORTED, "-C refused: aborted");
	tap_is_int(fx.env.failure.kind, FAILURE_CONNECT, "-C refused: a connection failure");
	tap_is_str(fx.env.failure.causes[0], "connection to server failed: scripted refusal",
			   "-C refused: the connection's message");
	fixture_free(&fx);
}

/*
 * The thread loop with two clients: connections made together before GO
 * (one waits for its socket), then each client's -t transactions through
 * the loop's waits, the sessions closed at the end.
 */
static void
test_thread_loop(void)
{
	fixture		fx;
	static const char *const two_selects[] = {
		"> Q SELECT 1;", "~ BUSY 1", "< ROWS a | 1", "< END",
		"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL,
	};
	pgb_session *sessions[2] = {ss_new(two_selects), ss_new(two_selects)};
	stats_data	total;
	reconnect_stats rs;

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, two_selects))
		return;
	ss_queue_connect(sessions[0], 0);
	ss_queue_connect(sessions[1], 1);
	if (tap_ok(run_worker(&fx, 2, &total, &rs), "thread: prepared"))
		tap_is_int(total.cnt, 4, "thread: every client's transactions counted");
	for (int i = 0; i < 2; i++)
	{
		played(sessions[i], "thread");
		tap_ok(ss_closed(sessions[i]), "thread: session closed at the end");
		ss_free(sessions[i]);
	}
	fixture_free(&fx);
}

/*
 * --reconnect: the connection breaks in the first transaction, which
 * fails; after the backoff the client connects again and goes on.
 */
static void
test_reconnect(void)
{
	fixture		fx;
	static const char *const lost[] = {"> Q SELECT 1;", "~ BREAK", NULL};
	pgb_session *first = ss_new(lost);
	pgb_session *second = ss_new(one_select);
	stats_data	total;
	reconnect_stats rs;

	if (!fixture_init(&fx, "SELECT 1;\n", QUERY_SIMPLE, 2, one_select))
		return;
	fx.cfg.reconnect = true;
	ss_queue_connect(first, 0);
	ss_queue_connect(second, 0);
	if (tap_ok(run_worker(&fx, 1, &total, &rs), "reconnect: prepared"))
	{
		tap_is_int(total.connection_failures, 1, "reconnect: the lost transaction failed");
		tap_is_int(total.cnt, 1, "reconnect: the next one passed");
		tap_is_int(rs.losses, 1, "reconnect: one loss");
		tap_is_int(rs.reconnects, 1, "reconnect: one reconnection");
	}
	played(first, "reconnect, first connection");
	played(second, "reconnect, second connection");
	ss_free(first);
	ss_free(second);
	fixture_free(&fx);
}

int
main(void)
{
	test_modes();
	test_pipelines();
	test_gset();
	test_retry();
	test_other_errors();
	test_pipeline_discard();
	test_endings();
	test_aset_and_latencies();
	test_dynamic();
	test_give_up();
	test_connect_each();
	test_thread_loop();
	test_reconnect();
	return tap_done();
}
