/*
 * test_init_error.c — initialization's error record (init_int.h), checked
 * without a server: the lines a failed statement, a failed -j batch and a
 * connection that cannot be opened leave in the caller's init_error, and
 * that nothing below init_run prints them.  A connection that never opened
 * (libpq's "no connection to the server") stands for a failing one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "init_int.h"
#include "tap.h"

/* A connection that never opened: every statement on it fails. */
static PGconn *
dead_conn(void)
{
	PGconn	   *conn = PQconnectdb("pgbench_no_such_option=1");

	if (PQstatus(conn) != CONNECTION_BAD)
	{
		tap_diag("a bad conninfo gave a good connection");
		exit(1);
	}
	return conn;
}

static void
check_lines(const init_error *err, const char *line0, const char *line1, const char *what)
{
	char		name[256];

	snprintf(name, sizeof(name), "%s: two lines", what);
	if (!tap_is_int(err->nlines, 2, name))
		return;
	snprintf(name, sizeof(name), "%s: an error first", what);
	tap_is_int(err->level[0], DIAG_ERROR, name);
	snprintf(name, sizeof(name), "%s: its text", what);
	tap_is_str(err->text[0], line0, name);
	snprintf(name, sizeof(name), "%s: then a detail", what);
	tap_is_int(err->level[1], DIAG_DETAIL, name);
	snprintf(name, sizeof(name), "%s: the detail's text", what);
	tap_is_str(err->text[1], line1, name);
}

static void
check_record(void)
{
	init_error	err = {0};

	init_error_add(&err, DIAG_ERROR, "one %d", 1);
	init_error_add(&err, DIAG_DETAIL, "two");
	init_error_add(&err, DIAG_HINT, "three");
	tap_is_int(err.nlines, INIT_ERROR_MAX_LINES, "the record keeps its first lines");
	tap_is_str(err.text[0], "one 1", "formatted");
	init_error_free(&err);
	tap_is_int(err.nlines, 0, "init_error_free empties it");
}

static void
check_statement(void)
{
	PGconn	   *conn = dead_conn();
	init_error	err = {0};
	bool		ok;
	long		printed;

	tap_stderr_catch();
	ok = init_exec_on(conn, "vacuum analyze pgbench_branches", &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(!ok, "a failed statement: false");
	tap_is_int(printed, 0, "a failed statement: nothing printed");
	check_lines(&err, "query failed: no connection to the server",
				"Query was: vacuum analyze pgbench_branches", "a failed statement");
	init_error_free(&err);
	PQfinish(conn);
}

/* -j 1: the batch runs on this thread, through the workers' code. */
static void
check_batch(void)
{
	pgb_options opts = {.nthreads = 1, .scale = 1};
	init_ctx	ctx = {.conn = dead_conn(), .opts = &opts};
	char		sql0[] = "create index a on pgbench_accounts (aid)";
	char		sql1[] = "create index b on pgbench_accounts (bid)";
	init_item	items[2] = {
		{.kind = INIT_ITEM_SQL, .text = sql0, .batch = 1},
		{.kind = INIT_ITEM_SQL, .text = sql1, .batch = 1},
	};
	init_error	err = {0};
	bool		ok;
	long		printed;

	tap_stderr_catch();
	ok = ipar_run_batch(&ctx, items, 2, &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(!ok, "a failed batch: false");
	tap_is_int(printed, 0, "a failed batch: nothing printed");
	check_lines(&err, "query failed: no connection to the server",
				"Query was: create index a on pgbench_accounts (aid)",
				"a failed batch, its first statement only");
	init_error_free(&err);
	ipar_close(&ctx);
	PQfinish(ctx.conn);
}

/* -j 2: the second connection cannot be opened. */
static void
check_pool(void)
{
	pgb_options opts = {.nthreads = 2, .scale = 1,
	.host = "/nonexistent-pgbench-dir", .port = "1"};
	init_ctx	ctx = {.conn = dead_conn(), .opts = &opts};
	init_error	err = {0};
	bool		ok;
	long		printed;

	tap_stderr_catch();
	ok = ipar_open(&ctx, &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(!ok, "a connection not opened: false");
	tap_is_int(printed, 0, "a connection not opened: nothing printed");
	if (tap_is_int(err.nlines, 2, "a connection not opened: two lines"))
	{
		tap_is_int(err.level[0], DIAG_ERROR, "libpq's message, an error");
		tap_ok(strstr(err.text[0], "/nonexistent-pgbench-dir/.s.PGSQL.1") != NULL,
			   "libpq's message names the socket");
		tap_is_int(err.level[1], DIAG_ERROR, "then ours, an error");
		tap_is_str(err.text[1], "could not create connection for initialization",
				   "ours");
	}
	init_error_free(&err);
	ipar_close(&ctx);
	PQfinish(ctx.conn);
}

int
main(void)
{
	check_record();
	check_statement();
	check_batch();
	check_pool();
	return tap_done();
}
