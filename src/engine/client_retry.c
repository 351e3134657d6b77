/*
 * client_retry.c — the transaction layer's side of a serialization or
 * deadlock failure: once client_rollback.c has left any pipeline and
 * rolled back, retry from the first command with the same random state,
 * or give the transaction up as failed (retry.h decides which).  No
 * session call here.
 */
#include "client_int.h"

/* Time the transaction's tries have taken; the clock is read only under -L. */
static int64_t
tries_elapsed(const client *c, const retry_policy *policy, pg_time_usec_t *now)
{
	return policy->latency_limit > 0 ? client_now(now) - c->txn_scheduled : 0;
}

client_state
client_after_rollback(client *c, client_env *env, pg_time_usec_t *now)
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

client_state
client_retry(client *c, client_env *env, pg_time_usec_t *now)
{
	const retry_policy *policy = &env->cfg->retry;

	if (policy->verbose_errors)
		retry_report_try(policy, c->id, true, c->tries, tries_elapsed(c, policy, now));
	c->tries++;
	/* -r counts the retry against the command that failed */
	if (env->cfg->per_command)
		tx_sink_command_retry(&env->sink, client_flat_command(c));
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
		tx_sink_command_failure(&env->sink, client_flat_command(c));
	if (policy->verbose_errors)
		retry_report_try(policy, c->id, false, c->tries, tries_elapsed(c, policy, now));
	return CSTATE_END_TX;
}
