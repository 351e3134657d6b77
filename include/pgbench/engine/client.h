/*
 * client.h — one simulated database client and its state machine, which
 * runs scripts against its connection without ever blocking on the server:
 * it sends, returns to its thread's loop, and is advanced again when its
 * socket is readable or its timer is due.
 *
 * Calls go one way: the thread advances its clients; a client runs its
 * meta-commands through metacmd.h and hands finished transactions to the
 * sink its thread lent it (txsink.h).  A client never calls up into its
 * thread: what it needs from there is in its client_env.  Everything it
 * asks of the server goes through the session port (session.h).  The state
 * machine is split by concern: client.c (set-up, connections, dispatch),
 * client_tx.c (transactions), client_send.c (sending SQL),
 * client_result.c (reading results), client_retry.c (the error path).
 * A client is owned by one worker thread; nothing here locks.
 */
#ifndef PGBENCH_CLIENT_H
#define PGBENCH_CLIENT_H

#include "pgbench/engine/session.h"

#include "pgbench/script/eval.h"
#include "pgbench/failure/failure.h"
#include "pgbench/engine/retry.h"
#include "pgbench/config/runconf.h"
#include "pgbench/stats/txsink.h"
#include "pgbench/script/variables.h"
#include "pgbench/engine/waitset.h"

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
	 * --stages: the client is beyond the plan's clients for now; it looks
	 * again every CLIENT_STAGE_POLL_US.  Next: CHOOSE_SCRIPT once the plan
	 * has room for it, FINISHED on -T.
	 */
	CSTATE_STAGE_IDLE,

	/*
	 * Begin a transaction: connect first under -C (next CONNECTING), then
	 * take the start time and the snapshot a retry goes back to (random
	 * state).  Next: START_COMMAND at the script's first command.
	 */
	CSTATE_START_TX,

	/*
	 * A -C connection is being opened without blocking (conn.h),
	 * within its connect_timeout; first the client may queue for one of
	 * its thread's few connect slots, and wait a little before trying
	 * again when the server's listen queue was full.  Next: START_TX once
	 * up, ABORTED if it fails, FINISHED when -T runs out meanwhile.
	 */
	CSTATE_CONNECTING,

	/*
	 * Run the current command: send SQL (next WAIT_RESULT, WAIT_PREPARE for
	 * the first use of a prepared statement, END_COMMAND inside a
	 * pipeline), or execute a meta-command (END_COMMAND, SLEEP, WAIT_RESULT
	 * for \endpipeline, WAIT_PREPARE for a \startpipeline that prepares
	 * its commands, ABORTED on error).  Past the last command: END_TX, or
	 * ABORTED if a pipeline is still open.
	 */
	CSTATE_START_COMMAND,

	/*
	 * Wait for a PREPARE's result, then send the execution (next
	 * WAIT_RESULT); or, for \startpipeline under -M prepared, the next of
	 * its PREPAREs (staying here) or into the pipeline (END_COMMAND).
	 */
	CSTATE_WAIT_PREPARE,

	/*
	 * Read the results of the SQL command (or, after \endpipeline, of the
	 * whole pipeline up to its sync), storing \gset / \aset variables.
	 * Next: END_COMMAND; ERROR on a serialization or deadlock failure, or
	 * under --continue-on-error on any SQL error while the connection
	 * lives; ABORTED on any other error.
	 */
	CSTATE_WAIT_RESULT,

	/* \sleep in progress, -T or not.  Next: END_COMMAND. */
	CSTATE_SLEEP,

	/*
	 * Command done: record its latency (-r) and move to the next command,
	 * or where an \if chain sends us.  Next: START_COMMAND.
	 */
	CSTATE_END_COMMAND,

	/*
	 * A serialization or deadlock failure (or, under --continue-on-error,
	 * another SQL error): leave any pipeline and roll an open transaction
	 * block back.  Next: DISCARD_PIPELINE, WAIT_ROLLBACK, RETRY or FAILURE
	 * (or FINISHED on -T, ABORTED if the connection is gone).
	 */
	CSTATE_ERROR,

	/*
	 * Leave a pipeline after such a failure: the sync ERROR sent is on its
	 * way; drop every result up to it, without waiting for the server but
	 * in the thread's loop, then leave pipeline mode.  Next: as ERROR's
	 * (WAIT_ROLLBACK, RETRY, FAILURE, FINISHED), ABORTED if the connection
	 * is lost.
	 */
	CSTATE_DISCARD_PIPELINE,

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
	 * open, close the connection under -C.  Next: CHOOSE_SCRIPT (the
	 * thread's other clients run first, as in pgbench, except where that
	 * cannot be seen: client_advance says when), FINISHED once -t or -T
	 * is done, ABORTED on an open block.
	 */
	CSTATE_END_TX,

	/*
	 * --reconnect: the connection was lost (the transaction in flight was
	 * accounted as failed, the connection closed); wait out the backoff
	 * (c->reconnect_at).  Next: c->reconnect_next (CHOOSE_SCRIPT after a
	 * failed transaction, START_TX after a failed attempt), which
	 * connects as -C does (CONNECTING); FINISHED when -T is over.
	 */
	CSTATE_RECONNECT_WAIT,

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
	CWAIT_CONNECT,				/* a -C connection: its socket in direction
								 * *event, or (fd -1) a connect slot of its
								 * thread (client_connect_admissible); due
								 * too at *wake_at if > 0 (connect_timeout)
								 * and when -T is over */
} client_wait_kind;

/*
 * What a client needs from the thread that owns it, lent for the whole
 * run: the configuration, the thread's random streams and -R timeline,
 * whether -T is over, where finished transactions go, and the record a
 * failing client fills.  The thread writes timer_exceeded and reports
 * (then clears) failure after each client_advance; clients write the
 * rest.  Owner thread only.
 */
typedef struct client_env
{
	const run_config *cfg;
	prng_state	choose_rs;		/* weighted script choice */
	prng_state	throttle_rs;	/* Poisson schedule under -R */
	pg_time_usec_t throttle_trigger;	/* last scheduled start under -R */
	bool		staged;			/* --stages: the two below follow the plan */
	double		throttle_delay; /* -R's mean delay between this thread's
								 * starts: cfg's, or what the rate form of
								 * --stages plans now */
	int			active_limit;	/* its clients form: clients with a smaller
								 * id run */
	pg_time_usec_t end_time;	/* -T deadline; 0: none */
	bool		timer_exceeded; /* -T deadline passed, as the thread saw it */
	bool		straight_on;	/* client_env_set_flow */
	bool		fuse_steps;		/* client_env_set_flow */
	bool		counts_only;	/* client_env_set_flow: a transaction's
								 * latency is not taken and the sink only
								 * counts it (tx_sink_counts_only) */
	bool		general_only;	/* client_env_set_flow: engine_general_only,
								 * every fast path left for the general one */
	tx_sink		sink;			/* the thread's stats, log, progress */
	int			connects_in_flight; /* -C attempts under way (client.c) */
	uint32_t	connect_queue_tail; /* -C: ticket of the next client to queue */
	uint32_t	connect_queue_head; /* -C: ticket admitted next */
	client_failure failure;		/* why the client just advanced aborted */
} client_env;

/* How often a client idle under --stages looks at the plan again. */
#define CLIENT_STAGE_POLL_US INT64_C(20000)

/* Clients of different threads never share a cache line: 64-byte aligned. */
#define CLIENT_ALIGN 64

typedef struct client
{
	_Alignas(CLIENT_ALIGN) int id;	/* client number, 0-based over the run */
	client_state state;
	pgb_session *conn;			/* NULL between -C transactions and at the end */
	int			sock;			/* conn's socket, read once when it came up
								 * (client_wait runs after every step) */
	conn_attempt connecting;	/* while connecting (connecting.plan non-NULL) */
	pg_time_usec_t connect_start;	/* when the pending connect began */
	pg_time_usec_t connect_retry_at;	/* listen queue full: try again
										 * then (c->conn holds the failed
										 * try); 0: not waiting */
	pg_time_usec_t connect_backoff; /* the last such wait */
	uint32_t	connect_ticket; /* -C: place in the thread's slot queue */
	bool		connect_queued; /* -C: waiting for a connect slot */

	int			script;			/* index of the running script */
	const script *cur_script;	/* cfg's scripts[script], set with it */
	int			flat_base;		/* cfg's script_offset[script], set with it */
	int			command;		/* index of the current command in it */
	int			next_command;	/* where END_COMMAND goes (\if jumps) */
	bool		elif_pending;	/* reached an \elif by a false branch: evaluate it */
	bool		pipelines;		/* some script has \startpipeline: else the
								 * session is never in pipeline mode and
								 * the hot path need not ask it */
	int			num_syncs;		/* pipeline syncs sent, results not yet read */
	bool		discard_synced; /* DISCARD_PIPELINE: the last result read
								 * was a sync */
	int			qrynum;			/* results read so far for the current command */
	pgb_result *gset_last;		/* \gset: latest result, kept until known last */

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
	pgb_result *error_res;		/* --continue-on-error: the other SQL error
								 * of the current try, held until the
								 * command's results are drained (then the
								 * client goes on, or aborts with it if the
								 * connection is lost) */
	int			error_query;	/* query number of error_res in its command */

	bool	   *prepared;		/* per flattened command: prepared on conn */
	struct ident_cache *ident;	/* -M prepared, dynamic SQL: the texts
								 * prepared on conn (client_ident.c); NULL
								 * when no script needs it */
	char	   *sql_buf;		/* simple-mode text, reused */
	size_t		sql_cap;

	/* --reconnect (client_reconnect.c) */
	pg_time_usec_t down_since;	/* when the current outage began; 0: none */
	pg_time_usec_t downtime;	/* the client's outages summed */
	pg_time_usec_t reconnect_backoff;	/* the last wait of this outage */
	pg_time_usec_t reconnect_at;	/* RECONNECT_WAIT: when to try again */
	client_state reconnect_next;	/* RECONNECT_WAIT: where it goes then */
} client;

/*
 * Set a client up: variables copied from the -D defines (sized for the
 * whole symbol table), buffers for the hot path.  The caller seeds c->rs.
 * Start-up only: out of memory stops the process (xalloc.h).
 * client_free closes and frees everything.
 */
void		client_init(client *c, int id, const run_config *cfg);
void		client_free(client *c);

/*
 * Start a non-blocking connection at time now (c->connecting, made from
 * cfg->plan: connect_timeout per host, conn_attempt.h).  false: every host
 * refused at once; the message is in errbuf.  A full listen queue is no
 * refusal: the client tries again a little later (c->connect_retry_at).
 */
bool		client_connect_start(client *c, const run_config *cfg, pg_time_usec_t now,
								 char *errbuf, size_t errlen);

/*
 * Move a pending connection on: at its retry time, when its socket is
 * ready (ready), or at its host's deadline (the next host is tried then).
 * Returns 1 when it is up (c->conn), 0 while it needs more waiting, -1
 * when every host failed (message in errbuf, in libpq's words; the
 * attempt is closed).
 */
int			client_connect_continue(client *c, const run_config *cfg, pg_time_usec_t now,
									bool ready, char *errbuf, size_t errlen);

/*
 * When a pending connection wants to be looked at again regardless of its
 * socket: its retry time, else its host's deadline; 0 for never.
 */
pg_time_usec_t client_connect_wake(const client *c);

/* Whether a connection was started and is neither up nor failed. */
bool		client_connect_pending(const client *c);

/* -C: whether a client queued for a connect slot may take one now. */
bool		client_connect_admissible(const client *c, const client_env *env);

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
 * readable (its first read goes straight to pgb_session_consume).  When
 * the client ends in ABORTED, env->failure says why (unless it was already
 * reported, e.g. a -T ending); the caller reports and clears it.
 */
void		client_advance(client *c, client_env *env, pg_time_usec_t *now);

/*
 * Set how clients move on between transactions, once per thread:
 * env->straight_on, whether a client may begin its next transaction at
 * once, in the same call, instead of letting the thread's other clients
 * run first as pgbench does (only where nothing observable can tell:
 * client.c says why), and env->fuse_steps, whether one step may then run
 * a transaction's end into the next one's first send; and
 * env->counts_only (after env->sink is set); under engine_general_only
 * all three are false and env->general_only is set.
 */
void		client_env_set_flow(client_env *env, const run_config *cfg);

/*
 * The test switch of the fast paths (doc/engine.md, "Fast paths"): when
 * true, every second route the engine keeps for speed is left, and the
 * general route it shortens runs instead, so that a test can run the same
 * session both ways and compare what is sent, counted and recorded
 * (t/unit/test_matrix.c, test_fastpath.c).  false in the program: no
 * option sets it.  Set only by the engine's unit tests, before the
 * clients are made: client_init reads it once (c->pipelines),
 * client_env_set_flow once per thread (env->general_only and the flags
 * it clears); the hot path reads only env->general_only, a byte beside
 * the flags it already reads.
 */
extern bool engine_general_only;

/* Close the connection, if any. */
void		client_disconnect(client *c);

/* The time now, read once per pass. */
static inline pg_time_usec_t
client_now(pg_time_usec_t *now)
{
	if (*now == 0)
		*now = pgb_time_now();
	return *now;
}

#endif
