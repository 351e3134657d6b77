/*
 * client_result.c — reading a command's results without blocking: plain
 * commands (with \gset and \aset storing), a whole pipeline up to its
 * sync after \endpipeline, and the PREPARE that precedes a first execution
 * under -M prepared.  Reads only: what is sent next is the caller's
 * (client_send.c), told by the state or outcome returned.
 */
#include <stdio.h>

#include "client_int.h"

/*
 * Next result of the current command without blocking.  *fresh is true on
 * the first look after the socket became readable: then the input is read
 * at once (asking pgb_session_busy first would only parse an empty
 * buffer); afterwards, and always under env->general_only (the general
 * path), pgb_session_consume runs only when the session still lacks a
 * whole result.  true: *res is the result, or NULL at the end of the command.
 * false: the client leaves the state for *next, which is waiting (the
 * socket must become readable first) or ABORTED when the connection broke.
 */
static client_state held_error_abort(client *c, client_env *env);

/* The connection broke while waiting in state waiting: abort. */
static __attribute__((noinline)) client_state
consume_failed(client *c, client_env *env, client_state waiting)
{
	if (c->error_res != NULL)
		return held_error_abort(c, env);
	if (waiting == CSTATE_WAIT_ROLLBACK || waiting == CSTATE_DISCARD_PIPELINE)
		return client_abort(c, env, FAILURE_WHILE,
							"rolling back the transaction after an error; %s",
							"perhaps the backend died while processing");
	return client_abort_command(c, env, "SQL", "perhaps the backend died while processing");
}

/* client_next_result, inlined into the plain command's reading loop */
static inline bool
next_result(client *c, client_env *env, client_state waiting, bool *fresh,
			pgb_result **res, client_state *next)
{
	if ((*fresh && !env->general_only) || pgb_session_busy(c->conn))
	{
		*fresh = false;
		if (PGB_UNLIKELY(!pgb_session_consume(c->conn)))
		{
			*next = consume_failed(c, env, waiting);
			return false;
		}
		if (pgb_session_busy(c->conn))
		{
			*next = waiting;
			return false;
		}
	}
	*res = pgb_session_result(c->conn);
	return true;
}

bool
client_next_result(client *c, client_env *env, client_state waiting, bool *fresh,
				   pgb_result **res, client_state *next)
{
	return next_result(c, env, waiting, fresh, res, next);
}

/* Out of memory storing a value: the client ends with a message. */
static bool
store_failed(const client *c, client_env *env)
{
	client_abort(c, env, FAILURE_RESULT, "out of memory storing a variable");
	return false;
}

/* Store one row of res into variables named prefix + column name. */
static bool
store_row(client *c, client_env *env, const command *cmd, const pgb_result *res,
		  int row, int qrynum)
{
	const char *context = cmd->meta == META_ASET ? "aset" : "gset";
	const char *prefix = cmd->varprefix ? cmd->varprefix : "";

	for (int field = 0; field < pgb_result_nfields(res); field++)
	{
		char		name[512];
		const char *fname = pgb_result_fname(res, field);
		int			len = snprintf(name, sizeof(name), "%s%s", prefix, fname);
		int			slot;

		if (len < 0 || (size_t) len >= sizeof(name) || !var_name_is_valid(name, (size_t) len))
		{
			client_abort(c, env, FAILURE_RESULT, "error storing into variable %s", name);
			env->failure.query = qrynum;
			failure_cause(&env->failure, "%s: invalid variable name: \"%s\"", context, name);
			return false;
		}
		/* a name no script reads needs no storing */
		slot = var_symtab_find(env->cfg->scripts->symtab, name, (size_t) len);
		if (slot >= 0 &&
			!var_set_string(&c->vars, slot, pgb_result_value(res, row, field),
							(size_t) pgb_result_length(res, row, field)))
			return store_failed(c, env);
	}
	return true;
}

/* Abort with an SQL error result, as pgbench's abort line shows it. */
static client_state
abort_sql(const client *c, client_env *env, const pgb_result *res, int query)
{
	const char *state = pgb_result_sqlstate(res);

	client_abort(c, env, FAILURE_SQL, "%s", pgb_result_error(res));
	env->failure.query = query;
	snprintf(env->failure.sqlstate, sizeof(env->failure.sqlstate), "%s",
			 state != NULL ? state : "");
	return CSTATE_ABORTED;
}

/* Abort with the held --continue-on-error error (c->error_res), freed. */
static client_state
held_error_abort(client *c, client_env *env)
{
	abort_sql(c, env, c->error_res, c->error_query);
	pgb_result_clear(c->error_res);
	c->error_res = NULL;
	return CSTATE_ABORTED;
}

/*
 * The command's results are drained after an error the error path
 * handles.  A held --continue-on-error error aborts the client if the
 * connection was lost meanwhile (pgbench 19 looks at the connection
 * before it decides); else it is reported under --verbose-errors now.
 */
static client_state
error_found(client *c, client_env *env)
{
	if (c->error_res == NULL)
		return CSTATE_ERROR;
	if (pgb_session_broken(c->conn))
		return held_error_abort(c, env);
	if (env->cfg->retry.verbose_errors)
		retry_report_error(c->id, c->command, c->script,
						   pgb_result_error(c->error_res));
	pgb_result_clear(c->error_res);
	c->error_res = NULL;
	return CSTATE_ERROR;
}

/*
 * Handle one result of the current command.  Returns false when the
 * client aborts (env->failure says why); sets c->error (and returns true)
 * for a failure the error path handles.  *resp stays the caller's to free,
 * unless this keeps it (c->error_res), then it is set to NULL.
 */
static inline __attribute__((always_inline)) bool
handle_result(client *c, client_env *env, const command *cmd, pgb_result **resp)
{
	pgb_result *res = *resp;

	switch (pgb_result_status(res))
	{
		case PGB_RES_COMMAND_OK:
		case PGB_RES_EMPTY_QUERY:
		case PGB_RES_PIPELINE_SYNC:
			return true;
		case PGB_RES_TUPLES_OK:
			if (cmd->meta == META_ASET && pgb_result_ntuples(res) > 0)
				return store_row(c, env, cmd, res, pgb_result_ntuples(res) - 1, c->qrynum);
			return true;
		case PGB_RES_COPY_IN:
		case PGB_RES_COPY_OUT:
		case PGB_RES_COPY_BOTH:
			client_abort(c, env, FAILURE_PLAIN, "COPY is not supported in pgbench, aborting");
			return false;
		case PGB_RES_NONFATAL_ERROR:
		case PGB_RES_FATAL_ERROR:
			c->error = retry_classify_sqlstate(pgb_result_sqlstate(res));
			if (retry_error_is_retriable(c->error))
			{
				if (env->cfg->retry.verbose_errors)
					retry_report_error(c->id, c->command, c->script,
									   pgb_result_error(res));
				return true;
			}
			if (retry_error_is_handled(c->error, env->cfg->continue_on_error))
			{
				/* judged once the rest is drained: the connection may be gone */
				c->error_res = res;
				c->error_query = c->qrynum;
				*resp = NULL;
				return true;
			}
			/* FALLTHROUGH */
		case PGB_RES_BAD_RESPONSE:
		case PGB_RES_SINGLE_TUPLE:
		case PGB_RES_PIPELINE_ABORTED:
			break;
	}
	/* those, and a status a later libpq adds: the command failed */
	abort_sql(c, env, res, c->qrynum);
	return false;
}

/* \gset looks at the last result of the command only. */
static bool
check_gset(client *c, client_env *env, const command *cmd, const pgb_result *last)
{
	int			ntuples = 0;

	if (last != NULL && pgb_result_status(last) == PGB_RES_TUPLES_OK)
		ntuples = pgb_result_ntuples(last);
	if (ntuples != 1)
	{
		client_abort(c, env, FAILURE_RESULT, "expected one row, got %d", ntuples);
		env->failure.query = c->qrynum - 1;
		return false;
	}
	return store_row(c, env, cmd, last, 0, c->qrynum - 1);
}

/*
 * Take one result of a plain command (res is consumed).  The latest is kept
 * for \gset until the end of the command shows it was the last.  false
 * when the client aborts.
 */
static bool
take_command_result(client *c, client_env *env, const command *cmd, pgb_result *res)
{
	/* after a retriable failure, the rest of the command is only drained */
	if (c->error != RETRY_ERROR_NONE)
	{
		pgb_result_clear(res);
		return true;
	}
	if (cmd->meta == META_GSET)
	{
		pgb_result_clear(c->gset_last);
		c->gset_last = NULL;
	}
	if (!handle_result(c, env, cmd, &res))
	{
		pgb_result_clear(res);
		return false;
	}
	c->qrynum++;
	if (cmd->meta == META_GSET && c->error == RETRY_ERROR_NONE)
		c->gset_last = res;
	else if (res == NULL)
		return true;			/* held as c->error_res */
	else
		pgb_result_clear(res);
	return true;
}

/* Every result of a plain command is in: where the client goes next. */
static client_state
command_results_done(client *c, client_env *env, const command *cmd)
{
	bool		ok;

	if (c->error != RETRY_ERROR_NONE)
		return error_found(c, env);
	if (c->qrynum == 0)
		return client_abort(c, env, FAILURE_NO_RESULTS, "no results");
	if (cmd->meta != META_GSET)
		return CSTATE_END_COMMAND;
	ok = check_gset(c, env, cmd, c->gset_last);
	pgb_result_clear(c->gset_last);
	c->gset_last = NULL;
	return ok ? CSTATE_END_COMMAND : CSTATE_ABORTED;
}

/* Consume the results of a plain (non-pipeline) command as they come. */
static client_state
read_command_results(client *c, client_env *env, const command *cmd)
{
	pgb_result *res;
	client_state next;
	bool		fresh = true;

	while (next_result(c, env, CSTATE_WAIT_RESULT, &fresh, &res, &next))
	{
		if (res == NULL)
			return command_results_done(c, env, cmd);
		if (!take_command_result(c, env, cmd, res))
			return CSTATE_ABORTED;
	}
	return next;
}

/* The sync closing the pipeline has come: leave pipeline mode. */
static client_state
end_pipeline(client *c, client_env *env)
{
	if (pgb_session_pipeline_exit(c->conn) != 1)
		diag_error("client %d failed to exit pipeline mode: %s", c->id,
				   pgb_session_error(c->conn));
	return c->error != RETRY_ERROR_NONE ? error_found(c, env) : CSTATE_END_COMMAND;
}

/*
 * After \endpipeline: consume every queued result up to the sync that
 * closes the pipeline, then leave pipeline mode.
 */
static client_state
read_pipeline_results(client *c, client_env *env, const command *cmd)
{
	pgb_result *res;
	client_state next;
	bool		fresh = true;

	while (client_next_result(c, env, CSTATE_WAIT_RESULT, &fresh, &res, &next))
	{
		pgb_res_status status;
		bool		ok;

		if (res == NULL)
		{
			/* end of one query's results: numbering restarts */
			c->qrynum = 0;
			client_trace(env, "client %d receiving", c->id);
			continue;
		}
		status = pgb_result_status(res);
		if (status == PGB_RES_PIPELINE_SYNC)
		{
			pgb_result_clear(res);
			client_trace(env, "client %d pipeline ending", c->id);
			if (--c->num_syncs > 0)
				continue;
			return end_pipeline(c, env);
		}
		/* after a failure the server skips the rest: nothing to handle */
		if (c->error != RETRY_ERROR_NONE || status == PGB_RES_PIPELINE_ABORTED)
		{
			pgb_result_clear(res);
			continue;
		}
		ok = handle_result(c, env, cmd, &res);
		pgb_result_clear(res);
		if (!ok)
			return CSTATE_ABORTED;
		c->qrynum++;
	}
	return next;
}

/*
 * Only an SQL command outside a pipeline and \endpipeline wait for
 * results, so the command tells which without asking the session.
 */
client_state
client_wait_result(client *c, client_env *env)
{
	const command *cmd = client_current_command(c);

	client_trace(env, "client %d receiving", c->id);
	if (cmd->type != SQL_COMMAND)
		return read_pipeline_results(c, env, cmd);
	return read_command_results(c, env, cmd);
}

/*
 * WAIT_PREPARE: read the results of a PREPARE step (the Parse, or the
 * DEALLOCATE before it).  true once every one is read: the caller sends
 * what follows (client_prepared_next); false: the client goes to *next.
 */
bool
client_read_prepare(client *c, client_env *env, client_state *next)
{
	const command *cmd = client_current_command(c);
	pgb_result *res;
	bool		fresh = true;

	while (client_next_result(c, env, CSTATE_WAIT_PREPARE, &fresh, &res, next))
	{
		if (res == NULL)
		{
			c->qrynum = 0;
			return true;
		}
		/* pgbench reports a failed PREPARE and lets the execution fail */
		if (pgb_result_status(res) != PGB_RES_COMMAND_OK)
		{
			diag_error("%s", pgb_session_error(c->conn));
			if (cmd->type == SQL_COMMAND && cmd->sql.dynamic)
				client_ident_prepare_failed(c);
		}
		pgb_result_clear(res);
	}
	return false;
}
