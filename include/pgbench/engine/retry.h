/*
 * retry.h — serialization and deadlock failures: which SQL errors pgbench
 * retries and which abort a client, whether a failed try may run again
 * (--max-tries, -L, -T), what a retry goes back to, and the
 * --verbose-errors messages.
 *
 * The unit knows nothing of clients or threads: the state machine
 * (client.c) hands it plain values at its ERROR, RETRY and FAILURE states,
 * which keeps every rule here testable with a table.  Everything is
 * reentrant; the message functions write one line each through diag.
 */
#ifndef PGBENCH_RETRY_H
#define PGBENCH_RETRY_H

#include <stddef.h>

#include "pgbench/base/common.h"
#include "pgbench/config/runconf.h"
#include "pgbench/script/random.h"
#include "pgbench/stats/stats.h"

/* Why the current try of a transaction is going wrong, if it is. */
typedef enum retry_error
{
	RETRY_ERROR_NONE,
	RETRY_ERROR_META,			/* a meta-command failed: the client aborts */
	RETRY_ERROR_SERIALIZATION,	/* SQLSTATE 40001: retriable */
	RETRY_ERROR_DEADLOCK,		/* SQLSTATE 40P01: retriable */
	RETRY_ERROR_OTHER_SQL,		/* any other SQL error: the client aborts,
								 * or under --continue-on-error the
								 * transaction fails */
	RETRY_ERROR_CONNECTION,		/* --reconnect: the connection was lost; the
								 * transaction fails, the client reconnects */
} retry_error;

/*
 * Classify an SQL error by its SQLSTATE (PG_DIAG_SQLSTATE; NULL when the
 * server sent none, e.g. a lost connection).  Only the two exact codes
 * count: the rest of class 40 (40002, 40003, ...) aborts like any error.
 */
retry_error retry_classify_sqlstate(const char *sqlstate);

/* Serialization and deadlock failures are the only ones ever retried. */
static inline bool
retry_error_is_retriable(retry_error error)
{
	return error == RETRY_ERROR_SERIALIZATION || error == RETRY_ERROR_DEADLOCK;
}

/*
 * Whether an SQL error sends the transaction down the error path (roll
 * back, then retry or count it as failed) instead of aborting the client:
 * serialization and deadlock failures always; any other SQL error under
 * --continue-on-error (PostgreSQL 19, in every mode here).  A lost
 * connection aborts the client whatever the error: the caller checks that
 * once the command's results are drained, as pgbench 19 does.
 */
static inline bool
retry_error_is_handled(retry_error error, bool continue_on_error)
{
	return retry_error_is_retriable(error)
		|| (continue_on_error && error == RETRY_ERROR_OTHER_SQL);
}

/*
 * How a transaction whose last try ended with error is accounted.
 * RETRY_ERROR_NONE is a success; the other kinds map to
 * STATS_OTHER_FAILURE: an SQL error under --continue-on-error (an aborted
 * client accounts nothing).
 */
stats_outcome retry_outcome(retry_error error);

/* retry_policy, the limits on tries: config/runconf.h. */

/* What the client does once the failed try is rolled back. */
typedef enum retry_decision
{
	RETRY_AGAIN,				/* run the transaction again: next try */
	RETRY_GIVE_UP,				/* account it as failed and go on */
	RETRY_FINISH,				/* -T is over: the client stops, nothing accounted */
} retry_decision;

/*
 * Decide after a failed try, in pgbench's order: -T over finishes the
 * client whatever the error; a non-retriable error, max_tries tries used
 * up, or more than latency_limit spent since the transaction's scheduled
 * start (elapsed, in usec; only read when a limit is set) gives up; else
 * the transaction runs again.  tries counts the try that just failed.
 */
retry_decision retry_decide(const retry_policy *policy, retry_error error,
							uint32_t tries, int64_t elapsed, bool timer_exceeded);

/*
 * What a retry goes back to, taken at the start of every transaction: the
 * client's random state, so that a retry draws the same random values.
 * Variables are deliberately not saved: pgbench 15/16 keep whatever the
 * failed try set (\set x :x + 1 counts tries), although the reference page
 * says they are restored; the program is the reference.
 */
typedef struct retry_snapshot
{
	prng_state	rs;				/* the client's script random state */
} retry_snapshot;

/* Save rs at the start of a transaction; restore it before each retry. */
static inline void
retry_snapshot_take(retry_snapshot *snap, const prng_state *rs)
{
	snap->rs = *rs;
}

static inline void
retry_snapshot_restore(const retry_snapshot *snap, prng_state *rs)
{
	*rs = snap->rs;
}

/*
 * --verbose-errors, when a retriable error arrives:
 * "client N got an error in command M (SQL) of script S; <message>".
 */
void		retry_report_error(int client_id, int command_index, int script_index,
							   const char *message);

/*
 * Format the decision line into buf (always terminated, truncated to len):
 *   client N repeats the transaction after the error (try T/M)
 *   client N ends the failed transaction (try T/M)
 * "/M" only with a finite max_tries; under -L the share of the limit used
 * so far is added: ", P.PPP% of the maximum time of tries was used".
 * tries is the try that failed.  Returns the length it wanted, as snprintf.
 */
int			retry_format_try(char *buf, size_t len, const retry_policy *policy,
							 int client_id, bool retrying, uint32_t tries,
							 int64_t elapsed);

/* Print the line retry_format_try makes, as pgbench's info message. */
void		retry_report_try(const retry_policy *policy, int client_id,
							 bool retrying, uint32_t tries, int64_t elapsed);

#endif
