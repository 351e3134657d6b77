/*
 * test_run_fixture.h — what the orchestrator's unit tests (test_run_*.c)
 * share: a whole run (bench_run, or sweep_run under --sweep) from a
 * command line, in a child process of its own, against
 *
 *  - a scripted server for the connections the orchestrator opens itself
 *    with libpq (the set-up connection, its cancel requests, the
 *    rendezvous's): a thread of the child speaking the protocol on a
 *    Unix socket in the case's directory, answering each query from the
 *    case's rules; libpq itself is the real one, untouched;
 *  - scripted sessions (session_script.h) for the workers' connections,
 *    which go through the session port as in the engine's tests.
 *
 * A child per case: each run starts with a fresh process (the first
 * error diag keeps, the signal caught, the descriptor limit), and what a
 * case leaves (its exit code, stdout, stderr, report files, the queries
 * the server got, the sessions' verdicts) is read back by the parent,
 * which makes the assertions.
 *
 * Server rules are pairs of strings, NULL-ended: a query's start and the
 * reply to a query that starts so (the first pair that matches):
 *   "ROWS a,b | 1,2 | 3,4"   rows, every value text ("NULL": an SQL
 *                            null; "@NOW" the server clock's epoch
 *                            microseconds, "@NOW+N" N later)
 *   "OK TAG"                 a command's completion
 *   "ERROR 42P01 text"       an error with that SQLSTATE
 *   "HANG"                   no answer until a cancel request comes, then
 *                            the cancel's error (57014)
 *   "SIGNAL"                 the child is sent SIGINT, then as HANG
 * A query no rule matches gets "ERROR 42601 unscripted query".  Both the
 * simple and the extended protocol are answered (PQexec, PQexecParams).
 */
#ifndef TEST_RUN_FIXTURE_H
#define TEST_RUN_FIXTURE_H

#include <stdbool.h>

#include "session_script.h"

#define RUN_MAX_ARGS 32
#define RUN_MAX_SESSIONS 12

/* A worker connection refused (session_script.h's failing attempt). */
extern const char *const run_refused[];

/* One run. */
typedef struct run_case
{
	const char *name;			/* for the assertions' names */
	const char *args[RUN_MAX_ARGS]; /* after "pgbench -h DIR -p PORT
									 * --random-seed=1"; NULL-ended */
	const char *script;			/* s.sql's text, given as "-f s.sql"; NULL: none */
	const char *const *rules;	/* the server's answers (above) */
	const char *version;		/* its server_version; NULL: "15.4"; "": none sent */
	bool		no_server;		/* nobody listens: the set-up cannot connect */
	/* the workers' connections in the order made; run_refused: refused */
	const char *const *sessions[RUN_MAX_SESSIONS];
	int			signal_after_ms;	/* SIGINT that long after the start; 0: none */
	bool		sweep;			/* run sweep_run (the command line has --sweep) */
	const char *tmpdir;			/* TMPDIR for the run; NULL: the case's directory */
} run_case;

/* What a run left. */
typedef struct run_result
{
	int			rc;				/* the exit code; -1: the child died */
	char	   *out;			/* its stdout */
	char	   *err;			/* its stderr */
	char	   *queries;		/* the server's queries, one a line, in order */
	char	   *sessions;		/* "played" per session, one a line, or what
								 * went wrong; then "connects left: N" */
	char		dir[64];		/* where it ran (its files) */
} run_result;

/*
 * Run c into *r (run_result_free releases it); false, with a failed
 * assertion made and nothing left to release, when the child could not
 * run.
 */
bool		run_case_run(const run_case *c, run_result *r);

/* The text of file name that the run left in its directory; NULL: none. */
char	   *run_file(const run_result *r, const char *name);

/* Release r and remove its directory. */
void		run_result_free(run_result *r);

/*
 * The standard checks: exit code rc, and every session played to its end
 * with no connection left unmade.
 */
void		run_expect(const run_result *r, const char *name, int rc);

/*
 * The exit code rc, no session sent what its script did not expect, and
 * every connection was made; sessions may have lines left (a -T deadline
 * or a stop came before them).
 */
void		run_expect_sent(const run_result *r, const char *name, int rc);

/* Whether text contains want; else a diagnostic with text and false. */
bool		run_has(const char *text, const char *want, const char *name);
bool		run_lacks(const char *text, const char *unwanted, const char *name);

/*
 * The value at a path ("settings.warmup_s", "steps.2.value": members and
 * array items separated by ".") of a JSON file the run left, as text
 * ("null", a number, a string); NULL when the file or the member is
 * missing.  Static storage.
 */
const char *run_json(const run_result *r, const char *file, const char *path);

#endif
