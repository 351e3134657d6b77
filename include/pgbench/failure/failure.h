/*
 * failure.h — why a client stopped: one record, filled where the failure
 * happens (client, meta-command, connection code), printed by one
 * reporter in pgbench's exact words, and kept for the JSON report.
 *
 * A record holds what pgbench prints around an abort: an optional cause
 * (one or more complete lines, e.g. an evaluator message or libpq's
 * connection error) and the abort line itself, whose wording depends on
 * the kind.  Filling a record never prints; failure_report prints it.
 * Nothing here allocates: the texts are fixed buffers (long messages are
 * cut), so a record can be filled on any path, out of memory included.
 * A worker thread keeps one record for the client it is advancing and
 * reports it as soon as that client stops, as pgbench prints at once.
 */
#ifndef PGBENCH_FAILURE_H
#define PGBENCH_FAILURE_H

#include <stdarg.h>

#include "pgbench/base/common.h"

/* Longest text kept for a cause or a message (cut beyond). */
#define FAILURE_TEXT_MAX 1024

/* Most cause lines one failure prints before its abort line. */
#define FAILURE_MAX_CAUSES 2

/* The kinds, each with the abort line pgbench prints for it. */
typedef enum failure_kind
{
	FAILURE_NONE,				/* no failure */

	/* "client C aborted in command N (WHAT) of script S; MESSAGE" */
	FAILURE_COMMAND,

	/* "client C script S aborted in command N query Q: MESSAGE" (SQL error) */
	FAILURE_SQL,

	/* "client C script S command N query Q: MESSAGE" (\gset, \aset storing) */
	FAILURE_RESULT,

	/* "client C command N: no results" */
	FAILURE_NO_RESULTS,

	/* "client C aborted: MESSAGE" (end of script, pipeline trouble) */
	FAILURE_CLIENT,

	/* "client C aborted while MESSAGE" (transaction status, rolling back) */
	FAILURE_WHILE,

	/* cause, then "client C aborted while establishing connection" */
	FAILURE_CONNECT,

	/* the message alone (e.g. "COPY is not supported in pgbench, aborting") */
	FAILURE_PLAIN,
} failure_kind;

/* One client's failure. */
typedef struct client_failure
{
	failure_kind kind;
	int			client;			/* client id */
	int			script;			/* script index; -1 when not in a script */
	int			command;		/* command index in the script */
	int			query;			/* query number within the command (SQL) */
	char		what[32];		/* FAILURE_COMMAND: "set", "SQL", "sleep", ... */
	char		sqlstate[6];	/* FAILURE_SQL: the SQLSTATE; "" if unknown */
	int			ncauses;		/* cause lines printed before the abort line */
	char		causes[FAILURE_MAX_CAUSES][FAILURE_TEXT_MAX];
	char		message[FAILURE_TEXT_MAX];	/* the abort line's message */
} client_failure;

/* Fill f: kind and position; cause and message empty. */
void		failure_set(client_failure *f, failure_kind kind, int client,
						int script, int command);

/* Set the message (printf format; cut at FAILURE_TEXT_MAX - 1 bytes). */
void		failure_message(client_failure *f, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/*
 * Add one cause (printf format), printed as "pgbench: error: TEXT" before
 * the abort line; TEXT may hold several lines (libpq's messages do).
 * Beyond FAILURE_MAX_CAUSES causes, further ones are dropped.
 */
void		failure_cause(client_failure *f, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/*
 * Print the record on stderr as pgbench does: each cause line, then the
 * abort line of its kind, all as "pgbench: error: ..." lines.  No-op for
 * FAILURE_NONE.
 */
void		failure_report(const client_failure *f);

/*
 * The abort line (without "pgbench: error: " and without a trailing
 * newline of a server message kept as is) into buf; returns its length as
 * snprintf does.  For the JSON report and the tests.
 */
int			failure_format(const client_failure *f, char *buf, size_t len);

/* A short stable name of the kind ("command", "sql", ...), for JSON. */
const char *failure_kind_name(failure_kind kind);

#endif
