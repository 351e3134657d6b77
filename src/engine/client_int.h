/*
 * client_int.h — what the files of the client unit offer each other; not
 * part of the unit's contract, which is client.h.  The files are cut in
 * layers, and calls between them run one way, down
 * (scripts/check-file-loops.pl reads them from the objects):
 *
 *   dispatcher    client.c: set-up and the state machine's switch
 *   transaction   client_tx.c, client_retry.c, client_reconnect.c:
 *                 start/end, -R, accounting, retry decisions, --reconnect;
 *                 no session call
 *   protocol      client_send.c -> client_ident.c -> client_wire.c,
 *                 client_result.c, client_rollback.c, client_connect.c:
 *                 sends, results, pipelines, the identifier cache, the
 *                 transaction block, connections; the only users of the
 *                 session port
 *   primitives    client_fail.c: failure records, held results, disconnect
 *
 * A lower file returns what happened (a state, or true for "done, the
 * caller goes on") and never calls up.
 */
#ifndef PGBENCH_CLIENT_INT_H
#define PGBENCH_CLIENT_INT_H

#include "pgbench/engine/client.h"
#include "pgbench/base/diag.h"

/* Trace for -d, as pgbench's debug lines ("pgbench: client 0 ..."). */
#define client_trace(env, ...) \
	do { if (PGB_UNLIKELY((env)->cfg->debug)) diag_log(DIAG_DEBUG, __VA_ARGS__); } while (0)

/* The current command of the running script; NULL past its end. */
static inline const command *
client_current_command(const client *c)
{
	const script *s = c->cur_script;

	return c->command < s->ncommands ? s->commands[c->command] : NULL;
}

/* The current command's index over all scripts (prepared names, -r). */
static inline int
client_flat_command(const client *c)
{
	return c->flat_base + c->command;
}

/* Make script the running one (client_tx.c, client_init). */
static inline void
client_set_script(client *c, const run_config *cfg, int index)
{
	c->script = index;
	c->cur_script = &cfg->scripts->scripts[index];
	c->flat_base = cfg->script_offset[index];
}

/* ==== primitives (client_fail.c) ========================================= */

/*
 * Failing: fill env->failure (failure.h says where it goes) and return
 * ABORTED for the caller to go to.
 * "client C aborted in command N (what) of script S; message"
 */
client_state client_abort_command(const client *c, client_env *env,
								  const char *what, const char *message);

/* Any other kind; fmt gives the message. */
client_state client_abort(const client *c, client_env *env, failure_kind kind,
						  const char *fmt,...)
			__attribute__((format(printf, 4, 5)));

/* A send of the current SQL command failed (client_abort_command). */
client_state client_send_failed(const client *c, client_env *env, const command *cmd);

/* Free the results a client holds (\gset's last, --continue-on-error's). */
void		client_clear_results(client *c);

/* ==== protocol layer ====================================================== */

/* ---- the shared sends (client_wire.c) ---- */

/* The values of an SQL command's $1..$n, NULL for an unset variable. */
static inline void
client_fill_params(client *c, const sql_command *sql, const char **params)
{
	for (int i = 0; i < sql->nparams; i++)
		params[i] = var_get_string(&c->vars, sql->param_slots[i]);
}

/*
 * Buffer for the text of an SQL command, grown to need bytes; false when
 * out of memory.
 */
bool		client_sql_reserve(client *c, size_t need);

/* Send cmd's prepared statement with its parameters (in line: the hot path). */
static inline __attribute__((always_inline)) bool
client_send_prepared(client *c, const client_env *env, const command *cmd)
{
	const char *params[PGB_MAX_ARGS];
	const char *name = env->cfg->prepared_names[client_flat_command(c)];

	client_fill_params(c, &cmd->sql, params);
	client_trace(env, "client %d sending %s", c->id, name);
	return pgb_session_send_prepared(c->conn, name, cmd->sql.nparams, params) != 0;
}

int			client_send_text(client *c, const client_env *env, const sql_command *sql,
							 const char *text);

/* ---- dynamic SQL: variables in identifiers (client_ident.c) ---- */

typedef struct ident_cache ident_cache;

/* Start-up: c->ident when -M prepared meets a dynamic command (xalloc.h). */
void		client_ident_init(client *c, const run_config *cfg);
void		client_ident_free(client *c);

/* A new session: nothing is prepared on it. */
void		client_ident_reset(client *c);

/* Send a dynamic command (sql.dynamic) in the run's query mode. */
client_state client_ident_send(client *c, client_env *env, const command *cmd,
							   bool in_pipeline);

/*
 * WAIT_PREPARE of a dynamic command has read every result of its step:
 * the Parse after a DEALLOCATE, or the execution, goes next.
 */
client_state client_ident_prepared(client *c, client_env *env, const command *cmd);

/* An error result in that WAIT_PREPARE: a failed Parse is not kept. */
void		client_ident_prepare_failed(client *c);

/* ---- sending (client_send.c) ---- */

client_state client_start_command(client *c, client_env *env, pg_time_usec_t *now);

/*
 * WAIT_PREPARE has read every result of a PREPARE step: what the command
 * sends next (its execution, the next PREPARE, a pipeline's entry).
 */
client_state client_prepared_next(client *c, client_env *env);

/* ---- results (client_result.c) ---- */

client_state client_wait_result(client *c, client_env *env);

/* WAIT_PREPARE: true when read (then client_prepared_next), else *next. */
bool		client_read_prepare(client *c, client_env *env, client_state *next);

/*
 * Next result without blocking (see client_result.c).  waiting is the
 * state to stay in while the session lacks a whole result.
 */
bool		client_next_result(client *c, client_env *env, client_state waiting,
							   bool *fresh, pgb_result **res, client_state *next);

/*
 * ---- the transaction block (client_rollback.c) ----
 * The error path's session side: each returns true once no transaction
 * block is left (the caller then decides: client_after_rollback), false
 * with the state to go to in *next.
 */
bool		client_leave_error(client *c, client_env *env, client_state *next);	/* ERROR */
bool		client_discard_pipeline(client *c, client_env *env, client_state *next);
bool		client_read_rollback(client *c, client_env *env, client_state *next);	/* WAIT_ROLLBACK */

/* At a transaction's end: END_TX if no block is left open, else ABORTED. */
client_state client_check_tx_closed(const client *c, client_env *env);

/* ---- connections (client_connect.c) ---- */

/*
 * Connect attempts one thread runs at once under -C.  pgbench's blocking
 * connect runs one, and its thread waits meanwhile, so that its "average
 * connection time" is the time of one connection, not of a queue of them
 * at the server: with 25 at once per thread on two busy cores each took
 * 2.5 s where pgbench reported 0.1 s.  Two, while the thread's other
 * clients go on: -c 50 -j 2 -T 5 gave 0.26 to 0.31 s against pgbench's
 * 0.18 to 0.24 s (one: 0.17 to 0.26 s), at 1.3 to 1.8 times its tps; and
 * as under pgbench a connection can meet the others' still open (a role's
 * connection limit shows it).
 */
#define CLIENT_CONNECT_EACH_SLOTS 2

/* START_TX without a connection: queue for a slot or start connecting. */
client_state client_begin_connect(client *c, client_env *env, pg_time_usec_t *now);
client_state client_continue_connect(client *c, client_env *env, pg_time_usec_t *now);

/* CONNECTING's wait (client_wait). */
client_wait_kind client_connect_wait(const client *c, int *fd, waitset_event *event,
									 pg_time_usec_t *wake_at);

/* Whether the client's session is there but broken. */
bool		client_connection_broken(const client *c);

/* ==== transaction layer =================================================== */

/* ---- transactions (client_tx.c) ---- */

client_state client_choose_transaction(client *c, client_env *env);

/* Account one transaction (or one skipped slot) through the thread's sink. */
void		client_account_transaction(client *c, client_env *env, pg_time_usec_t *now,
									   bool skipped);

/* -T is over, or the client has accounted its -t transactions. */
bool		client_transactions_done(const client *c, const client_env *env);

client_state client_prepare_throttle(client *c, client_env *env, pg_time_usec_t *now);
client_state client_start_transaction(client *c, client_env *env, pg_time_usec_t *now);
client_state client_end_transaction(client *c, client_env *env, pg_time_usec_t *now);
/* --stages: an idle client's turn (CSTATE_STAGE_IDLE). */
client_state client_stage_idle(client *c, client_env *env, pg_time_usec_t *now);
client_state client_timed_wait(const client_env *env, pg_time_usec_t until,
							   pg_time_usec_t *now, client_state waiting,
							   client_state due);
void		client_end_command(client *c, client_env *env, pg_time_usec_t *now);

/* ---- the error path's decisions (client_retry.c) ---- */

/* No transaction block is left: RETRY, FAILURE (give up) or FINISHED (-T). */
client_state client_after_rollback(client *c, client_env *env, pg_time_usec_t *now);
client_state client_retry(client *c, client_env *env, pg_time_usec_t *now);
client_state client_fail_transaction(client *c, client_env *env, pg_time_usec_t *now);

/* ---- --reconnect (client_reconnect.c) ---- */

/*
 * After a step from state from: under --reconnect, a client that just
 * aborted because its connection was lost fails its transaction in
 * flight and waits to reconnect (the state it goes to is returned); one
 * that got its new connection, or ends while down, closes its outage.
 * Any other state is returned as it is.
 */
client_state client_reconnect_after(client *c, client_env *env, client_state from,
									pg_time_usec_t *now);

/* RECONNECT_WAIT: the backoff is over (next attempt) or -T is. */
client_state client_reconnect_wait(client *c, client_env *env, pg_time_usec_t *now);

#endif
