/*
 * client_rollback.c — the transaction block on the server, in the
 * client's protocol layer: after a serialization or deadlock failure,
 * leave any pipeline and roll back (the error path's session side), and
 * at a transaction's end check that none is left open.  What to do once
 * the block is gone (retry, give up, finish) is the transaction layer's:
 * these functions return true for the caller to ask client_after_rollback.
 */
#include "client_int.h"

static client_state
rollback_failed(const client *c, client_env *env, const char *reason)
{
	return client_abort(c, env, FAILURE_WHILE,
						"rolling back the transaction after an error; %s", reason);
}

/* Out of any pipeline: roll an open transaction block back, or done. */
static bool
roll_back(client *c, client_env *env, client_state *next)
{
	pgb_tx_status status = pgb_session_tx_status(c->conn);

	if (status == PGB_TX_INTRANS || status == PGB_TX_INERROR)
	{
		if (!pgb_session_send_query(c->conn, "ROLLBACK"))
			*next = client_abort(c, env, FAILURE_CLIENT,
								 "failed to send sql command for rolling back the failed transaction");
		else
			*next = CSTATE_WAIT_ROLLBACK;
		return false;
	}
	if (status == PGB_TX_IDLE)
		return true;
	*next = client_abort(c, env, FAILURE_WHILE, "receiving the transaction status");
	return false;
}

/*
 * Leave a pipeline after an error: sync, then drop everything up to it
 * (DISCARD_PIPELINE, which reads at once: the results may be in already).
 */
bool
client_leave_error(client *c, client_env *env, client_state *next)
{
	if (pgb_session_pipeline(c->conn) == PGB_PIPELINE_OFF)
		return roll_back(c, env, next);
	if (!pgb_session_pipeline_sync(c->conn))
		*next = client_abort(c, env, FAILURE_CLIENT, "failed to send a pipeline sync");
	else
	{
		c->discard_synced = false;
		*next = CSTATE_DISCARD_PIPELINE;
	}
	return false;
}

/* The sync after the error is read: out of the pipeline, then roll back. */
static bool
pipeline_left(client *c, client_env *env, client_state *next)
{
	c->num_syncs = 0;
	if (!pgb_session_pipeline_exit(c->conn))
	{
		*next = client_abort(c, env, FAILURE_CLIENT,
							 "failed to exit pipeline mode for rolling back the failed transaction");
		return false;
	}
	return roll_back(c, env, next);
}

/*
 * Drop results up to a sync followed by the end of the queue: syncs sent
 * before (\syncpipeline) may come first.
 */
bool
client_discard_pipeline(client *c, client_env *env, client_state *next)
{
	pgb_result *res;
	bool		fresh = true;

	while (client_next_result(c, env, CSTATE_DISCARD_PIPELINE, &fresh, &res, next))
	{
		bool		done = res == NULL && c->discard_synced;

		if (res != NULL)
			c->discard_synced = pgb_result_status(res) == PGB_RES_PIPELINE_SYNC;
		pgb_result_clear(res);
		if (pgb_session_broken(c->conn))
		{
			*next = rollback_failed(c, env, "perhaps the backend died while processing");
			return false;
		}
		if (done)
			return pipeline_left(c, env, next);
	}
	return false;
}

bool
client_read_rollback(client *c, client_env *env, client_state *next)
{
	pgb_result *res;

	/*
	 * Also reached right after sending the ROLLBACK: the read at once
	 * then finds nothing, as the busy-first order would have anyway.
	 */
	bool		fresh = true;

	client_trace(env, "client %d receiving", c->id);
	while (client_next_result(c, env, CSTATE_WAIT_ROLLBACK, &fresh, &res, next))
	{
		if (res == NULL)
			return true;
		if (pgb_result_status(res) != PGB_RES_COMMAND_OK)
		{
			*next = rollback_failed(c, env, pgb_session_error(c->conn));
			pgb_result_clear(res);
			return false;
		}
		pgb_result_clear(res);
	}
	return false;
}

client_state
client_check_tx_closed(const client *c, client_env *env)
{
	pgb_tx_status status = pgb_session_tx_status(c->conn);

	if (status == PGB_TX_INTRANS || status == PGB_TX_INERROR)
		return client_abort(c, env, FAILURE_CLIENT,
							"end of script reached without completing the last transaction");
	if (status != PGB_TX_IDLE)
		return client_abort(c, env, FAILURE_WHILE, "receiving the transaction status");
	return CSTATE_END_TX;
}
