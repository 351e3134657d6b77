/*
 * client.c — the top of the client's layers (client_int.h draws them): a
 * client's set-up, and the state machine's dispatch, one switch over
 * every state, with no default, so the compiler names a state left out.
 * Where a lower file returns an outcome rather than a state (a PREPARE
 * read, a transaction rolled back), the switch makes the next call.
 *
 * Hot-path rules kept by the whole unit: no parsing (scripts are
 * compiled), no allocation in steady state (the SQL text buffer and the
 * prepared flags are reused), pgb_session_consume only when the socket
 * was readable and the session still lacks a whole result, and the clock
 * read at most once per pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_int.h"
#include "pgbench/base/xalloc.h"

bool		engine_general_only = false;

/* ---- set-up ----------------------------------------------------------- */

static void
copy_defines(var_store *dst, const var_store *defines)
{
	for (int slot = 0; slot < defines->nslots && slot < dst->nslots; slot++)
	{
		const var_slot *src = &defines->slots[slot];

		if (src->has_string)
			(void) var_set_string(dst, slot, src->str, strlen(src->str));
		else if (src->value.type != PGBT_NO_VALUE)
			var_set_value(dst, slot, src->value);
	}
}

/* Whether any script enters pipeline mode. */
static bool
uses_pipelines(const script_set *set)
{
	for (int i = 0; i < set->nscripts; i++)
		for (int j = 0; j < set->scripts[i].ncommands; j++)
			if (set->scripts[i].commands[j]->type == META_COMMAND &&
				set->scripts[i].commands[j]->meta == META_STARTPIPELINE)
				return true;
	return false;
}

void
client_init(client *c, int id, const run_config *cfg)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->state = CSTATE_CHOOSE_SCRIPT;
	client_set_script(c, cfg, 0);
	var_store_init(&c->vars, cfg->scripts->symtab);
	copy_defines(&c->vars, cfg->defines);
	c->prepared = pgb_calloc((size_t) cfg->total_commands, sizeof(bool));
	/* the general path asks the session whether it is in a pipeline */
	c->pipelines = engine_general_only || uses_pipelines(cfg->scripts);
	client_ident_init(c, cfg);
	/* sql_buf: made by the first text a command builds (client_sql_reserve) */
	c->ectx.vars = &c->vars;
	c->ectx.rs = &c->rs;
	c->ectx.debug_out = stderr;
}

void
client_free(client *c)
{
	client_disconnect(c);
	client_clear_results(c);
	var_store_free(&c->vars);
	free(c->prepared);
	client_ident_free(c);
	free(c->sql_buf);
	c->prepared = NULL;
	c->sql_buf = NULL;
}

client_wait_kind
client_wait(const client *c, int *fd, waitset_event *event, pg_time_usec_t *wake_at)
{
	switch (c->state)
	{
		case CSTATE_WAIT_RESULT:
		case CSTATE_WAIT_PREPARE:
		case CSTATE_DISCARD_PIPELINE:
		case CSTATE_WAIT_ROLLBACK:
			*fd = c->sock;
			*event = WAITSET_READ;
			return CWAIT_SOCKET;
		case CSTATE_CONNECTING:
			return client_connect_wait(c, fd, event, wake_at);
		case CSTATE_SLEEP:
		case CSTATE_STAGE_IDLE:
			*wake_at = c->sleep_until;
			return CWAIT_TIMER;
		case CSTATE_THROTTLE:
			*wake_at = c->txn_scheduled;
			return CWAIT_TIMER;
		case CSTATE_RECONNECT_WAIT:
			*wake_at = c->reconnect_at;
			return CWAIT_TIMER;
		case CSTATE_ABORTED:
		case CSTATE_FINISHED:
			return CWAIT_DONE;
		case CSTATE_CHOOSE_SCRIPT:
		case CSTATE_PREPARE_THROTTLE:
		case CSTATE_START_TX:
		case CSTATE_START_COMMAND:
		case CSTATE_END_COMMAND:
		case CSTATE_ERROR:
		case CSTATE_RETRY:
		case CSTATE_FAILURE:
		case CSTATE_END_TX:
			break;
	}
	return CWAIT_NONE;
}

/* ---- the state machine -------------------------------------------------- */

/*
 * The steps of a failed try and of a client's end (client_step's rare
 * states): the error's way out, the rollback, a retry or a failure, the
 * wait of --reconnect, and the end.
 */
static client_state
client_step_failing(client *c, client_env *env, pg_time_usec_t *now, bool *yield)
{
	client_state next;

	switch (c->state)
	{
		case CSTATE_ERROR:
			if (client_leave_error(c, env, &next))
				return client_after_rollback(c, env, now);
			return next;
		case CSTATE_DISCARD_PIPELINE:
			if (client_discard_pipeline(c, env, &next))
				return client_after_rollback(c, env, now);
			*yield = next == CSTATE_DISCARD_PIPELINE;
			return next;
		case CSTATE_WAIT_ROLLBACK:
			if (client_read_rollback(c, env, &next))
				return client_after_rollback(c, env, now);
			*yield = next == CSTATE_WAIT_ROLLBACK;
			return next;
		case CSTATE_RETRY:
			return client_retry(c, env, now);
		case CSTATE_FAILURE:
			return client_fail_transaction(c, env, now);
		case CSTATE_RECONNECT_WAIT:
			next = client_reconnect_wait(c, env, now);
			*yield = next == CSTATE_RECONNECT_WAIT;
			return next;
		case CSTATE_ABORTED:
		case CSTATE_FINISHED:
			client_clear_results(c);
			client_disconnect(c);
			*yield = true;
			return c->state;
		/* client_step's own: never passed here */
		case CSTATE_CHOOSE_SCRIPT:
		case CSTATE_PREPARE_THROTTLE:
		case CSTATE_THROTTLE:
		case CSTATE_STAGE_IDLE:
		case CSTATE_START_TX:
		case CSTATE_CONNECTING:
		case CSTATE_START_COMMAND:
		case CSTATE_WAIT_PREPARE:
		case CSTATE_WAIT_RESULT:
		case CSTATE_SLEEP:
		case CSTATE_END_COMMAND:
		case CSTATE_END_TX:
			break;
	}
	*yield = true;
	return c->state;
}

/*
 * One step from state: the next state, and in *yield whether the client
 * must now wait (for its socket or a timer) before it can go on.  The
 * steps every transaction takes run into each other where nothing can
 * come between them (the fall-throughs): a command's result into its end
 * and the next command's start; the choice of a script into the start of
 * its transaction; and where env->fuse_steps (client_env_set_flow), the
 * script's end into the transaction's and that into the next one's first
 * send.  The loop in client_advance would take them one after the other
 * to the same effect, at some 15 instructions a turn; under
 * env->general_only it does (one state a step).
 */
static client_state
client_step(client *c, client_env *env, pg_time_usec_t *now, bool *yield)
{
	client_state next;

	switch (c->state)
	{
		case CSTATE_END_TX:
	end_tx:
			next = client_end_transaction(c, env, now);
			if (next != CSTATE_CHOOSE_SCRIPT || !env->fuse_steps)
				return next;
			/* fall through */
		case CSTATE_CHOOSE_SCRIPT:
			next = client_choose_transaction(c, env);
			if (next != CSTATE_START_TX || env->general_only)
				return next;
			/* fall through */
		case CSTATE_START_TX:
			next = client_start_transaction(c, env, now);
			if (next != CSTATE_START_COMMAND || !env->fuse_steps)
			{
				*yield = next == CSTATE_CONNECTING;
				return next;
			}
			goto start_command;
		case CSTATE_PREPARE_THROTTLE:
			return client_prepare_throttle(c, env, now);
		case CSTATE_THROTTLE:
			next = client_timed_wait(env, c->txn_scheduled, now, CSTATE_THROTTLE,
									 CSTATE_START_TX);
			*yield = next == CSTATE_THROTTLE;
			return next;
		case CSTATE_STAGE_IDLE:
			next = client_stage_idle(c, env, now);
			*yield = next == CSTATE_STAGE_IDLE;
			return next;
		case CSTATE_CONNECTING:
			next = client_continue_connect(c, env, now);
			*yield = next == CSTATE_CONNECTING;
			return next;
		case CSTATE_WAIT_RESULT:
			next = client_wait_result(c, env);
			if (next != CSTATE_END_COMMAND || env->general_only)
			{
				*yield = next == CSTATE_WAIT_RESULT;
				return next;
			}
			/* fall through */
		case CSTATE_END_COMMAND:
			client_end_command(c, env, now);
			if (env->general_only)
				return CSTATE_START_COMMAND;
			/* fall through */
		case CSTATE_START_COMMAND:
	start_command:
			/* the script's end, outside a pipeline: the transaction's
			 * (client_current_command's NULL, without loading the command;
			 * the general path, c->pipelines, asks client_start_command) */
			if (!c->pipelines && c->command >= c->cur_script->ncommands)
			{
				if (env->fuse_steps)
					goto end_tx;
				return CSTATE_END_TX;
			}
			next = client_start_command(c, env, now);
			/* the answer cannot be there yet: reading would only fail */
			*yield = next == CSTATE_WAIT_RESULT || next == CSTATE_WAIT_PREPARE;
			return next;
		case CSTATE_WAIT_PREPARE:
			if (client_read_prepare(c, env, &next))
				next = client_prepared_next(c, env);
			*yield = next == CSTATE_WAIT_PREPARE;
			return next;
		case CSTATE_SLEEP:
			next = client_timed_wait(env, c->sleep_until, now, CSTATE_SLEEP,
									 CSTATE_END_COMMAND);
			*yield = next == CSTATE_SLEEP;
			return next;
		case CSTATE_ERROR:
		case CSTATE_DISCARD_PIPELINE:
		case CSTATE_WAIT_ROLLBACK:
		case CSTATE_RETRY:
		case CSTATE_FAILURE:
		case CSTATE_RECONNECT_WAIT:
		case CSTATE_ABORTED:
		case CSTATE_FINISHED:
			return client_step_failing(c, env, now, yield);
	}
	/* no state of the enum (overwritten memory): stay, and yield */
	*yield = true;
	return c->state;
}

/*
 * pgbench returns to its thread loop after every finished transaction, so
 * the thread's other clients run before this one begins the next.  Doing
 * the same always costs about 3% of the instructions of a SELECT 1 run
 * (-M prepared -c 8: 4560 -> 4720 per transaction), so the client goes
 * straight on where that cannot change what anyone sees:
 *
 *  - never under -d, whose trace would show the next transaction begin
 *    before the other clients' lines of the same pass;
 *  - never under -R, whose schedule may log skipped transactions (-L);
 *  - only when every script begins with SQL: up to the send nothing is
 *    printed or logged, and the transaction's end needs the server, so a
 *    later pass.  The script choice (several scripts) then draws from the
 *    thread's stream in pgbench's order too: apart from the first pass,
 *    where every client draws once and none can finish a transaction,
 *    clients draw only right after finishing one, so the draws of the
 *    clients that finished in one pass come in client order, in that pass
 *    here and in the next one in pgbench, with no other draw in between.
 *    A script beginning with a meta-command could finish in the pass it
 *    began in, and its next draw would come before other clients' draws
 *    of that pass.
 */
static bool
client_may_go_straight_on(const run_config *cfg)
{
	const script_set *set = cfg->scripts;

	if (cfg->debug || cfg->throttle_delay > 0)
		return false;
	for (int i = 0; i < set->nscripts; i++)
	{
		const script *s = &set->scripts[i];

		if (s->ncommands == 0 || s->commands[0]->type != SQL_COMMAND)
			return false;
	}
	return true;
}

void
client_env_set_flow(client_env *env, const run_config *cfg)
{
	env->general_only = engine_general_only;
	env->straight_on = !env->general_only && client_may_go_straight_on(cfg);
	/* --reconnect's handling of a lost connection depends on the state the
	 * step began in (client_reconnect_after): one state a step there */
	env->fuse_steps = env->straight_on && !cfg->reconnect;
	env->counts_only = !env->general_only && !cfg->latency_measured &&
		tx_sink_counts_only(&env->sink);
}

void
client_advance(client *c, client_env *env, pg_time_usec_t *now)
{
	const bool	reconnect = env->cfg->reconnect;
	const bool	straight_on = env->straight_on;

	for (;;)
	{
		bool		yield = false;
		client_state from = c->state;
		client_state stepped = client_step(c, env, now, &yield);

		c->state = stepped;
		/* --reconnect may turn an abort into a wait: that one runs now */
		if (PGB_UNLIKELY(reconnect))
			c->state = client_reconnect_after(c, env, from, now);
		if (yield && c->state == stepped)
			return;
		if (from == CSTATE_END_TX && c->state == CSTATE_CHOOSE_SCRIPT && !straight_on)
			return;
	}
}
