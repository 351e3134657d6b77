/*
 * test_failure.c — failure records: the abort line of every kind in
 * pgbench's words, causes kept in order and bounded, long texts cut.
 */
#include <string.h>

#include "pgbench/failure/failure.h"
#include "tap.h"

static void
expect_line(const client_failure *f, const char *want, const char *name)
{
	char		buf[FAILURE_TEXT_MAX + 128];

	failure_format(f, buf, sizeof(buf));
	tap_is_str(buf, want, name);
}

static void
test_kinds(void)
{
	client_failure f;

	failure_set(&f, FAILURE_COMMAND, 3, 1, 4);
	strcpy(f.what, "set");
	failure_message(&f, "%s", "evaluation of meta-command failed");
	expect_line(&f, "client 3 aborted in command 4 (set) of script 1; evaluation of meta-command failed",
				"command");

	failure_set(&f, FAILURE_SQL, 0, 0, 2);
	f.query = 1;
	failure_message(&f, "ERROR:  boom\n");
	expect_line(&f, "client 0 script 0 aborted in command 2 query 1: ERROR:  boom\n", "sql");

	failure_set(&f, FAILURE_RESULT, 5, 2, 7);
	f.query = 0;
	failure_message(&f, "expected one row, got %d", 0);
	expect_line(&f, "client 5 script 2 command 7 query 0: expected one row, got 0", "result");

	failure_set(&f, FAILURE_NO_RESULTS, 1, 0, 3);
	expect_line(&f, "client 1 command 3: no results", "no results");

	failure_set(&f, FAILURE_CLIENT, 2, 0, 0);
	failure_message(&f, "end of script reached with pipeline open");
	expect_line(&f, "client 2 aborted: end of script reached with pipeline open", "client");

	failure_set(&f, FAILURE_WHILE, 2, 0, 0);
	failure_message(&f, "receiving the transaction status");
	expect_line(&f, "client 2 aborted while receiving the transaction status", "while");

	failure_set(&f, FAILURE_CONNECT, 9, 0, 0);
	failure_cause(&f, "connection to server failed");
	expect_line(&f, "client 9 aborted while establishing connection", "connect");
	tap_is_str(f.causes[0], "connection to server failed", "connect: libpq's message as cause");

	failure_set(&f, FAILURE_PLAIN, 0, 0, 0);
	failure_message(&f, "COPY is not supported in pgbench, aborting");
	expect_line(&f, "COPY is not supported in pgbench, aborting", "plain");

	failure_set(&f, FAILURE_NONE, 0, 0, 0);
	expect_line(&f, "", "none formats as nothing");
	tap_is_str(failure_kind_name(FAILURE_SQL), "sql", "kind name for JSON");
}

static void
test_causes(void)
{
	client_failure f;
	char		longtext[3 * FAILURE_TEXT_MAX];

	failure_set(&f, FAILURE_COMMAND, 0, 0, 0);
	failure_cause(&f, "first %d", 1);
	failure_cause(&f, "second");
	failure_cause(&f, "third, dropped");
	tap_is_int(f.ncauses, FAILURE_MAX_CAUSES, "causes are bounded");
	tap_is_str(f.causes[0], "first 1", "first cause kept");
	tap_is_str(f.causes[1], "second", "second cause kept, in order");

	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	failure_message(&f, "%s", longtext);
	tap_is_int((int64_t) strlen(f.message), FAILURE_TEXT_MAX - 1, "a long message is cut");

	failure_set(&f, FAILURE_SQL, 0, 0, 0);
	tap_is_int(f.ncauses, 0, "failure_set clears the causes");
	tap_is_str(f.message, "", "failure_set clears the message");
}

int
main(void)
{
	test_kinds();
	test_causes();
	return tap_done();
}
