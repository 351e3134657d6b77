/*
 * client_retry.c — the error path of a transaction that hit a
 * serialization or deadlock failure: leave any pipeline, roll back, then
 * retry from the first command with the same random state, or give the
 * transaction up as failed (retry.h decides which).
 */
#include "client_int.h"

/* Time the transaction's tries have taken; the clock is read only under -L. */
static int64_t
tries_elapsed(const client *c, const retry_policy *policy, pg_time_usec_t *now)
{
	return policy->latency_limit > 0 ? client_now(now) - c->txn_scheduled : 0;
}

/* No transaction block is left: finish (-T), try again or give up. */
static client_state
after_rollback(client *c, client_env *env, pg_time_usec_t *now)
{
	const retry_policy *policy = &env->cfg->retry;
	int64_t		elapsed = env->timer_exceeded ? 0 : tries_elapsed(c, policy, now);

	switch (retry_decide(policy, c->error, c->tries, elapsed, env->timer_exceeded))
	{
		case RETRY_AGAIN:
			return CSTATE_RETRY;
		case RETRY_GIVE_UP:
			return CSTATE_FAILURE;
		case RETRY_FINISH:
			break;
	}
	return CSTATE_FINISHED;
}

static client_state
rollback_failed(const client *c, client_env *env, const char *reason)
{
	return client_abort(c, env, FAILURE_WHILE,
						"rolling back the transaction after an error; %s", reason);
}

/* Out of any pipeline: roll an open transaction block back, or decide. */
static client_state
roll_back(client *c, client_env *env, pg_time_usec_t *now)
{
	pgb_tx_status status = pgb_session_tx_status(c->conn);

	if (status == PGB_TX_INTRANS || status == PGB_TX_INERROR)
	{
		if (!pgb_session_send_query(c->conn, "ROLLBACK"))
			return client_abort(c, env, FAILURE_CLIENT,
								"failed to send sql command for rolling back the failed transaction");
		return CSTATE_WAIT_ROLLBACK;
	}
	if (status == PGB_TX_IDLE)
		return after_rollback(c, env, now);
	return client_abort(c, env, FAILURE_WHILE, "receiving the transaction status");
}

/*
 * Leave a pipeline after an error: sync, then drop everything up to it
 * (DISCARD_PIPELINE, which reads at once: the results may be in already).
 */
client_state
client_handle_error(client *c, client_env *env, pg_time_usec_t *now)
{
	if (pgb_session_pipeline(c->conn) == PGB_PIPELINE_OFF)
		return roll_back(c, env, now);
	if (!pgb_session_pipeline_sync(c->conn))
		return client_abort(c, env, FAILURE_CLIENT, "failed to send a pipeline sync");
	c->discard_synced = false;
	return CSTATE_DISCARD_PIPELINE;
}

/* The sync after the error is read: out of the pipeline, then roll back. */
static client_state
pipeline_left(client *c, client_env *env, pg_time_usec_t *now)
{
	c->num_syncs = 0;
	if (!pgb_session_pipeline_exit(c->conn))
		return client_abort(c, env, FAILURE_CLIENT,
							"failed to exit pipeline mode for rolling back the failed transaction");
	return roll_back(c, env, now);
}

/*
 * Drop results up to a sync followed by the end of the queue: syncs sent
 * before (\syncpipeline) may come first.
 */
client_state
client_discard_pipeline(client *c, client_env *env, pg_time_usec_t *now)
{
	pgb_result *res;
	client_state next;
	bool		fresh = true;

	while (client_next_result(c, env, CSTATE_DISCARD_PIPELINE, &fresh, &res, &next))
	{
		bool		done = res == NULL && c->discard_synced;

		if (res != NULL)
			c->discard_synced = pgb_result_status(res) == PGB_RES_PIPELINE_SYNC;
		pgb_result_clear(res);
		if (pgb_session_broken(c->conn))
			return rollback_failed(c, env, "perhaps the backend died while processing");
		if (done)
			return pipeline_left(c, env, now);
	}
	return next;
}

client_state
client_wait_rollback(client *c, client_env *env, pg_time_usec_t *now)
{
	pgb_result *res;
	client_state next;

	/*
	 * Also reached right after sending the ROLLBACK: the read at once
	 * then finds nothing, as the busy-first order would have anyway.
	 */
	bool		fresh = true;

	client_trace(env, "client %d receiving", c->id);
	while (client_next_result(c, env, CSTATE_WAIT_ROLLBACK, &fresh, &res, &next))
	{
		if (res == NULL)
			return after_rollback(c, env, now);
		if (pgb_result_status(res) != PGB_RES_COMMAND_OK)
		{
			rollback_failed(c, env, pgb_session_error(c->conn));
			pgb_result_clear(res);
			return CSTATE_ABORTED;
		}
		pgb_result_clear(res);
	}
	return next;
}

client_state
client_retry(client *c, client_env *env, pg_time_usec_t *now)
{
	const retry_policy *policy = &env->cfg->retry;

	if (policy->verbose_errors)
		retry_report_try(policy, c->id, true, c->tries, tries_elapsed(c, policy, now));
	c->tries++;
	/* -r counts the retry against the command that failed */
	if (env->cfg->per_command)
		tx_sink_command_retry(&env->sink, client_flat_command(c, env->cfg));
	/* back to the transaction's start: same random draws */
	retry_snapshot_restore(&c->tx_snap, &c->rs);
	c->command = 0;
	c->elif_pending = false;
	c->error = RETRY_ERROR_NONE;
	return CSTATE_START_COMMAND;
}

client_state
client_fail_transaction(client *c, client_env *env, pg_time_usec_t *now)
{
	const retry_policy *policy = &env->cfg->retry;

	if (env->cfg->per_command)
		tx_sink_command_failure(&env->sink, client_flat_command(c, env->cfg));
	if (policy->verbose_errors)
		retry_report_try(policy, c->id, false, c->tries, tries_elapsed(c, policy, now));
	return CSTATE_END_TX;
}
