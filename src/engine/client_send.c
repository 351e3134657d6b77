/*
 * client_send.c — starting a command: SQL sent asynchronously in the
 * chosen protocol (simple text, extended parameters, prepared statements,
 * inside or outside a pipeline), or a meta-command run through metacmd.h;
 * and, once a PREPARE is read, what the command sends next.  The top of
 * the protocol layer: calls client_ident.c, client_wire.c, client_fail.c.
 */
#include <string.h>

#include "client_int.h"
#include "pgbench/engine/metacmd.h"

static bool
sql_buf_append(client *c, size_t *len, const char *text, size_t n)
{
	if (!client_sql_reserve(c, *len + n + 1))
		return false;
	memcpy(c->sql_buf + *len, text, n);
	*len += n;
	return true;
}

/* Simple protocol: the text with variables substituted, unset ones kept. */
static bool
build_simple_sql(client *c, const sql_command *sql)
{
	size_t		len = 0;

	for (int i = 0; i < sql->nparts; i++)
	{
		const sql_part *part = &sql->parts[i];

		if (!sql_buf_append(c, &len, part->text, part->len))
			return false;
		if (part->slot >= 0)
		{
			const char *value = var_get_string(&c->vars, part->slot);

			if (value != NULL
				? !sql_buf_append(c, &len, value, strlen(value))
				: !sql_buf_append(c, &len, part->ref, part->ref_len))
				return false;
		}
	}
	if (!client_sql_reserve(c, len + 1))
		return false;
	c->sql_buf[len] = '\0';
	return true;
}

/*
 * -M prepared: the first use of a command on this connection prepares it.
 * Outside a pipeline the client then waits for the PREPARE (WAIT_PREPARE);
 * inside one the Parse simply goes ahead of the Bind.
 */
static inline __attribute__((always_inline)) client_state
send_sql_prepared(client *c, client_env *env, const command *cmd, bool in_pipeline)
{
	int			flat = client_flat_command(c);

	if (!c->prepared[flat])
	{
		const char *name = env->cfg->prepared_names[flat];

		client_trace(env, "client %d preparing %s", c->id, name);
		c->prepared[flat] = true;
		if (!pgb_session_send_prepare(c->conn, name, cmd->sql.param_text, cmd->sql.nparams))
			return client_send_failed(c, env, cmd);
		if (!in_pipeline)
			return CSTATE_WAIT_PREPARE;
	}
	if (!client_send_prepared(c, env, cmd))
		return client_send_failed(c, env, cmd);
	return in_pipeline ? CSTATE_END_COMMAND : CSTATE_WAIT_RESULT;
}

static client_state
send_sql(client *c, client_env *env, const command *cmd)
{
	bool		in_pipeline = c->pipelines &&
		pgb_session_pipeline(c->conn) != PGB_PIPELINE_OFF;
	const sql_command *sql = &cmd->sql;
	int			sent = 0;

	if (in_pipeline && cmd->meta == META_GSET)
		return client_abort_command(c, env, "gset", "\\gset is not allowed in pipeline mode");
	if (in_pipeline && cmd->meta == META_ASET)
		return client_abort_command(c, env, "aset", "\\aset is not allowed in pipeline mode");

	c->qrynum = 0;
	if (PGB_UNLIKELY(sql->dynamic))
		return client_ident_send(c, env, cmd, in_pipeline);
	switch (env->cfg->query_mode)
	{
		case QUERY_SIMPLE:
			if (!build_simple_sql(c, sql))
				return client_abort_command(c, env, "SQL", "out of memory");
			sent = client_send_text(c, env, sql, c->sql_buf);
			break;
		case QUERY_EXTENDED:
			sent = client_send_text(c, env, sql, sql->param_text);
			break;
		case QUERY_PREPARED:
			return send_sql_prepared(c, env, cmd, in_pipeline);
	}

	if (!sent)
		return client_send_failed(c, env, cmd);
	return in_pipeline ? CSTATE_END_COMMAND : CSTATE_WAIT_RESULT;
}

/* What a meta-command of the client's current command runs on. */
static void
meta_env(client *c, const client_env *env, metacmd_env *menv)
{
	const run_config *cfg = env->cfg;
	int			offset = cfg->script_offset[c->script];

	*menv = (metacmd_env) {
		.client_id = c->id,
		.script_index = c->script,
		.script = &cfg->scripts->scripts[c->script],
		.command = c->command,
		.elif_pending = c->elif_pending,
		.vars = &c->vars,
		.ectx = &c->ectx,
		.conn = c->conn,
		.mode = cfg->query_mode,
		.debug = cfg->debug,
		.timer_exceeded = env->timer_exceeded,
		.prepared = c->prepared + offset,
		.prepared_names = cfg->prepared_names + offset,
	};
}

/* Map a meta-command's outcome onto the client. */
static client_state
meta_outcome(client *c, const metacmd_outcome *out, pg_time_usec_t *now)
{
	c->next_command = out->next_command;
	c->elif_pending = out->elif_pending;
	c->num_syncs += out->syncs_sent;
	if (out->clock_stale)
		*now = 0;
	switch (out->next)
	{
		case METACMD_DONE:
			return CSTATE_END_COMMAND;
		case METACMD_SLEEP:
			c->sleep_until = out->sleep_until;
			return CSTATE_SLEEP;
		case METACMD_PIPELINE_RESULTS:
			c->qrynum = 0;
			return CSTATE_WAIT_RESULT;
		case METACMD_PREPARING:
			return CSTATE_WAIT_PREPARE;
		case METACMD_FAILED:
			c->error = RETRY_ERROR_META;
			return CSTATE_ABORTED;
	}
	return CSTATE_ABORTED;
}

/* (out of line, as run_set: their frames hold a metacmd_env, which a
 * command sending SQL should not pay for) */
static __attribute__((noinline)) client_state
run_meta(client *c, client_env *env, const command *cmd, pg_time_usec_t *now)
{
	metacmd_env menv;
	metacmd_outcome out = {.failure = &env->failure};

	meta_env(c, env, &menv);
	/* only \sleep needs the time: other commands leave the clock unread */
	metacmd_execute(&menv, cmd, cmd->meta == META_SLEEP ? client_now(now) : 0, &out);
	return meta_outcome(c, &out, now);
}

/*
 * The everyday \set, without building a metacmd_env: only a failure needs
 * one.  pgbench reads the clock again after any meta-command.
 */
static __attribute__((noinline)) client_state
run_set(client *c, client_env *env, const command *cmd, pg_time_usec_t *now)
{
	metacmd_env menv;
	metacmd_outcome out = {.failure = &env->failure};

	*now = 0;
	if (PGB_LIKELY(metacmd_set(&c->ectx, &c->vars, c->script, c->command, cmd)))
		return CSTATE_END_COMMAND;
	meta_env(c, env, &menv);
	metacmd_set_failed(&menv, cmd, &out);
	return meta_outcome(c, &out, now);
}

/*
 * WAIT_PREPARE of a \startpipeline (its PREPAREs under -M prepared) has
 * read a PREPARE's results: the next one, or into the pipeline.
 */
static client_state
meta_resume(client *c, client_env *env)
{
	metacmd_env menv;
	metacmd_outcome out = {.failure = &env->failure};
	pg_time_usec_t unread = 0;

	meta_env(c, env, &menv);
	metacmd_pipeline_resume(&menv, &out);
	return meta_outcome(c, &out, &unread);
}

client_state
client_prepared_next(client *c, client_env *env)
{
	const command *cmd = client_current_command(c);

	if (cmd->type != SQL_COMMAND)
		return meta_resume(c, env);
	if (cmd->sql.dynamic)
		return client_ident_prepared(c, env, cmd);
	if (!client_send_prepared(c, env, cmd))
		return client_send_failed(c, env, cmd);
	return CSTATE_WAIT_RESULT;
}

client_state
client_start_command(client *c, client_env *env, pg_time_usec_t *now)
{
	const command *cmd = client_current_command(c);
	client_state next;

	if (cmd == NULL)
	{
		if (c->pipelines && pgb_session_pipeline(c->conn) != PGB_PIPELINE_OFF)
			return client_abort(c, env, FAILURE_CLIENT,
								"end of script reached with pipeline open");
		return CSTATE_END_TX;
	}

	c->next_command = c->command + 1;
	if (env->cfg->per_command)
		c->stmt_begin = client_now(now);

	if (cmd->type == SQL_COMMAND)
		next = send_sql(c, env, cmd);
	else if (cmd->meta == META_SET && cmd->target_valid && !env->cfg->debug &&
			 !env->general_only)
		next = run_set(c, env, cmd, now);
	else
		next = run_meta(c, env, cmd, now);
	/* pgbench's trace shows a first, failed, look for the answer here */
	if (next == CSTATE_WAIT_RESULT)
		client_trace(env, "client %d receiving", c->id);
	return next;
}
