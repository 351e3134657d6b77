/*
 * client.h — one simulated database client and its state machine, which
 * runs scripts against its connection without ever blocking on the server:
 * it sends, returns to its thread's loop, and is advanced again when its
 * socket is readable or its timer is due.
 *
 * The state machine lives in client.c; the run-time meta-commands it calls
 * (\set, \sleep, \shell, \if ..., pipelines) in metacmd.c.  A client is
 * owned by one worker thread; nothing here locks.
 */
#ifndef PGBENCH_CLIENT_H
#define PGBENCH_CLIENT_H

#include <libpq-fe.h>

#include "pgbench/eval.h"
#include "pgbench/retry.h"
#include "pgbench/thread.h"
#include "pgbench/variables.h"

/*
 * The states.  One idiom: client_advance loops over
 * "for (;;) switch (state)"; a case that breaks moves on at once, a case
 * that returns waits for its socket or timer (client_wait says which).
 */
typedef enum client_state
{
	/*
	 * Pick a script by weight.  Next: FINISHED when -T is over,
	 * PREPARE_THROTTLE under -R, else START_TX.
	 */
	CSTATE_CHOOSE_SCRIPT,

	/*
	 * Schedule the transaction on the thread's Poisson timeline (-R).  Under
	 * -L a slot already too late is counted as skipped and the next one is
	 * drawn (staying here).  Next: THROTTLE, or FINISHED when the slot lies
	 * beyond -T or -t is used up by skips.
	 */
	CSTATE_PREPARE_THROTTLE,

	/* Wait for the scheduled start.  Next: START_TX, or FINISHED on -T. */
	CSTATE_THROTTLE,

	/*
	 * Begin a transaction: connect first under -C (next CONNECTING), then
	 * take the start time and the snapshot a retry goes back to (random
	 * state).  Next: START_COMMAND at the script's first command.
	 */
	CSTATE_START_TX,

	/*
	 * A -C connection is being opened without blocking (PQconnectPoll).
	 * Next: START_TX once up, ABORTED if it fails.
	 */
	CSTATE_CONNECTING,

	/*
	 * Run the current command: send SQL (next WAIT_RESULT, WAIT_PREPARE for
	 * the first use of a prepared statement, END_COMMAND inside a
	 * pipeline), or execute a meta-command (END_COMMAND, SLEEP, WAIT_RESULT
	 * for \endpipeline, ABORTED on error).  Past the last command: END_TX,
	 * or ABORTED if a pipeline is still open.
	 */
	CSTATE_START_COMMAND,

	/* Wait for the PQsendPrepare result, then send.  Next: WAIT_RESULT. */
	CSTATE_WAIT_PREPARE,

	/*
	 * Read the results of the SQL command (or, after \endpipeline, of the
	 * whole pipeline up to its sync), storing \gset / \aset variables.
	 * Next: END_COMMAND; ERROR on a serialization or deadlock failure;
	 * ABORTED on any other error.
	 */
	CSTATE_WAIT_RESULT,

	/* \sleep in progress.  Next: END_COMMAND, or FINISHED on -T. */
	CSTATE_SLEEP,

	/*
	 * Command done: record its latency (-r) and move to the next command,
	 * or where an \if chain sends us.  Next: START_COMMAND.
	 */
	CSTATE_END_COMMAND,

	/*
	 * A serialization or deadlock failure: leave any pipeline and roll an
	 * open transaction block back.  Next: WAIT_ROLLBACK, RETRY or FAILURE
	 * (or FINISHED on -T, ABORTED if the connection is gone).
	 */
	CSTATE_ERROR,

	/* Wait for the ROLLBACK.  Next: RETRY or FAILURE (ABORTED on error). */
	CSTATE_WAIT_ROLLBACK,

	/*
	 * Run the transaction again from its first command with the random
	 * state it started with.  Next: START_COMMAND.
	 */
	CSTATE_RETRY,

	/* Give the transaction up as failed.  Next: END_TX. */
	CSTATE_FAILURE,

	/*
	 * Account the transaction, check that no transaction block is left
	 * open, close the connection under -C.  Next: CHOOSE_SCRIPT (always
	 * yielding first, so a script of meta-commands cannot starve the
	 * thread), FINISHED once -t or -T is done, ABORTED on an open block.
	 */
	CSTATE_END_TX,

	/* Final: a command failed; the connection is closed. */
	CSTATE_ABORTED,

	/* Final: all transactions done; the connection is closed. */
	CSTATE_FINISHED,
} client_state;

/* What the thread loop must wait for before advancing a client again. */
typedef enum client_wait_kind
{
	CWAIT_NONE,					/* runnable now */
	CWAIT_SOCKET,				/* its socket, in direction *event */
	CWAIT_TIMER,				/* until *wake_at */
	CWAIT_DONE,					/* finished or aborted: never again */
} client_wait_kind;

/* Clients of different threads never share a cache line: 64-byte aligned. */
#define CLIENT_ALIGN 64

typedef struct client
{
	_Alignas(CLIENT_ALIGN) int id;	/* client number, 0-based over the run */
	client_state state;
	PGconn	   *conn;			/* NULL between -C transactions and at the end */
	PostgresPollingStatusType connect_poll; /* while connecting */
	pg_time_usec_t connect_start;	/* when the pending connect began */

	int			script;			/* index of the running script */
	int			command;		/* index of the current command in it */
	int			next_command;	/* where END_COMMAND goes (\if jumps) */
	bool		elif_pending;	/* reached an \elif by a false branch: evaluate it */
	int			num_syncs;		/* pipeline syncs sent, results not yet read */
	int			qrynum;			/* results read so far for the current command */
	PGresult   *gset_last;		/* \gset: latest result, kept until known last */

	var_store	vars;			/* this client's variables */
	prng_state	rs;				/* random state of random*() in scripts */
	retry_snapshot tx_snap;		/* rs at the start of the transaction (retries) */
	eval_context ectx;			/* evaluator context bound to vars and rs */

	pg_time_usec_t txn_scheduled;	/* scheduled start (= actual without -R) */
	pg_time_usec_t txn_begin;	/* actual start, for the schedule lag */
	pg_time_usec_t stmt_begin;	/* current command's start, for -r */
	pg_time_usec_t sleep_until; /* end of the current \sleep */

	int64_t		cnt;			/* transactions accounted (any outcome), for -t */
	uint32_t	tries;			/* tries of the current transaction */
	retry_error error;			/* error of the current try (retry.h) */

	bool	   *prepared;		/* per flattened command: prepared on conn */
	char	   *sql_buf;		/* simple-mode text, reused */
	size_t		sql_cap;

	/*
	 * The thread loop's view of the client, refreshed only after the client
	 * ran: what it waits for, and what its waitset entry (fixed index)
	 * holds, so that a pass touches neither idle clients nor their entries.
	 */
	int			ws_index;		/* its entry in the thread's waitset */
	client_wait_kind wait_kind; /* as client_wait said after the last run */
	int			wait_fd;		/* socket in the entry; -1: none */
	waitset_event wait_event;	/* direction in the entry */
	pg_time_usec_t wake_at;		/* CWAIT_TIMER: when it is due */
} client;

/*
 * Set a client up: variables copied from the -D defines (sized for the
 * whole symbol table), buffers for the hot path.  The caller seeds c->rs.
 * false when out of memory.  client_free closes and frees everything.
 */
bool		client_init(client *c, int id, const run_context *ctx);
void		client_free(client *c);

/*
 * Start a non-blocking connection (c->conn, c->connect_poll).  false:
 * libpq refused at once; its message is in errbuf.
 */
bool		client_connect_start(client *c, const run_context *ctx,
								 char *errbuf, size_t errlen);

/*
 * Move a pending connection on after its socket was ready.  Returns 1 when
 * it is up, 0 while it needs more waiting, -1 on failure (message in errbuf).
 */
int			client_connect_continue(client *c, char *errbuf, size_t errlen);

/*
 * What the client waits for; fills *fd and *event for CWAIT_SOCKET and
 * *wake_at for CWAIT_TIMER.
 */
client_wait_kind client_wait(const client *c, int *fd, waitset_event *event,
							 pg_time_usec_t *wake_at);

/*
 * Run the state machine until the client must wait.  *now is the time of
 * this pass (0: not read yet); it is read lazily and kept up to date.
 * A client waiting for its socket is only advanced once the socket is
 * readable (its first read goes straight to PQconsumeInput).
 */
void		client_advance(client *c, worker *w, pg_time_usec_t *now);

/* Close the connection, if any. */
void		client_disconnect(client *c);

/* ---- run-time meta-commands (metacmd.c), called by the state machine ---- */

/*
 * Execute the meta-command cmd for client c.  Returns the next state:
 * END_COMMAND, SLEEP, WAIT_RESULT (\endpipeline) or ABORTED after printing
 * pgbench's messages.  May set c->next_command (\if chains) and reset *now
 * when time passed.
 */
client_state metacmd_execute(client *c, worker *w, const command *cmd,
							 pg_time_usec_t *now);

/*
 * Under -M prepared, prepare every SQL command between the \startpipeline
 * at c->command and its \endpipeline (blocking, once per connection), as
 * pgbench does so that the pipeline holds no Parse messages.
 */
void		metacmd_prepare_pipeline(client *c, const run_context *ctx);

/* Print "client N aborted in command M (what) of script S; message". */
void		client_command_failed(const client *c, const char *what, const char *message);

/* The time now, read once per pass. */
static inline pg_time_usec_t
client_now(pg_time_usec_t *now)
{
	if (*now == 0)
		*now = pgb_time_now();
	return *now;
}

#endif
