/*
 * client_reconnect.c — --reconnect (beyond pgbench): a client whose
 * connection is lost (a server restart or failover, a terminated backend)
 * fails the transaction in flight, waits a growing backoff in its
 * thread's loop, and connects again the way -C does, until it is back or
 * -T / -t is over; reconnect.h counts the outages.  Transaction layer:
 * accounts through client_tx.c, asks client_connect.c whether the
 * session broke, and makes no session call of its own.
 */
#include <string.h>

#include "client_int.h"
#include "pgbench/failure/reconnect.h"

/* Whether the client that just aborted with f did so for a lost connection. */
static bool
connection_lost(const client *c, const client_failure *f)
{
	if (f->kind == FAILURE_CONNECT)
		return true;
	if (client_connection_broken(c))
		return true;
	return f->kind == FAILURE_SQL && reconnect_sqlstate_lost(f->sqlstate);
}

/* Whether a transaction had begun (and was not yet accounted) in state. */
static bool
transaction_in_flight(client_state state)
{
	switch (state)
	{
		case CSTATE_START_COMMAND:
		case CSTATE_WAIT_PREPARE:
		case CSTATE_WAIT_RESULT:
		case CSTATE_SLEEP:
		case CSTATE_END_COMMAND:
		case CSTATE_ERROR:
		case CSTATE_DISCARD_PIPELINE:
		case CSTATE_WAIT_ROLLBACK:
		case CSTATE_RETRY:
		case CSTATE_FAILURE:
			return true;
		case CSTATE_CHOOSE_SCRIPT:
		case CSTATE_PREPARE_THROTTLE:
		case CSTATE_THROTTLE:
		case CSTATE_STAGE_IDLE:
		case CSTATE_START_TX:
		case CSTATE_CONNECTING:
		case CSTATE_END_TX:
		case CSTATE_RECONNECT_WAIT:
		case CSTATE_ABORTED:
		case CSTATE_FINISHED:
			break;
	}
	return false;
}

/* One line on stderr when an outage begins: which client, and why. */
static void
report_loss(const client *c, const client_failure *f)
{
	const char *text = f->kind == FAILURE_CONNECT && f->ncauses > 0 ? f->causes[0] : f->message;
	size_t		len = strcspn(text, "\n");

	diag_warning("client %d lost its connection, reconnecting: %.*s", c->id, (int) len, text);
}

/* The outage ends at now: back (a new connection) or the client's end. */
static void
end_outage(client *c, client_env *env, pg_time_usec_t now, bool back)
{
	reconnect_note_end(&env->sink.stats->reconnect, c->down_since, now, back, &c->downtime);
	c->down_since = 0;
	c->reconnect_backoff = 0;
}

/*
 * The client aborted after a step from state from, and its connection is
 * lost: close it, fail the transaction in flight (which counts toward -t,
 * as a failure does under --max-tries), and wait before the next attempt.
 */
static client_state
lose_connection(client *c, client_env *env, client_state from, pg_time_usec_t *now)
{
	const run_config *cfg = env->cfg;
	client_state next = CSTATE_START_TX;

	if (c->down_since == 0)
	{
		c->down_since = client_now(now);
		reconnect_note_loss(&env->sink.stats->reconnect, c->down_since);
		report_loss(c, &env->failure);
	}
	env->failure.kind = FAILURE_NONE;
	client_clear_results(c);
	client_disconnect(c);
	c->num_syncs = 0;

	if (transaction_in_flight(from))
	{
		/* a pipeline in flight is lost as one failed transaction */
		c->error = RETRY_ERROR_CONNECTION;
		if (cfg->per_command && client_current_command(c) != NULL)
			tx_sink_command_failure(&env->sink, client_flat_command(c));
		client_account_transaction(c, env, now, false);
	}
	/* a transaction was accounted (END_TX: before its status check) */
	if (transaction_in_flight(from) || from == CSTATE_END_TX)
	{
		next = CSTATE_CHOOSE_SCRIPT;
		if (client_transactions_done(c, env))
		{
			end_outage(c, env, client_now(now), false);
			return CSTATE_FINISHED;
		}
	}
	c->reconnect_backoff = reconnect_backoff(c->reconnect_backoff);
	c->reconnect_at = client_now(now) + c->reconnect_backoff;
	c->reconnect_next = next;
	return CSTATE_RECONNECT_WAIT;
}

client_state
client_reconnect_after(client *c, client_env *env, client_state from, pg_time_usec_t *now)
{
	switch (c->state)
	{
		case CSTATE_ABORTED:
			if (from != CSTATE_ABORTED && connection_lost(c, &env->failure))
				return lose_connection(c, env, from, now);
			break;
		case CSTATE_START_TX:
			if (from == CSTATE_CONNECTING && c->down_since > 0)
				end_outage(c, env, client_now(now), true);
			break;
		case CSTATE_FINISHED:
			if (c->down_since > 0)
				end_outage(c, env, client_now(now), false);
			break;
		/* no outage begins or ends in any other state */
		case CSTATE_CHOOSE_SCRIPT:
		case CSTATE_PREPARE_THROTTLE:
		case CSTATE_THROTTLE:
		case CSTATE_STAGE_IDLE:
		case CSTATE_CONNECTING:
		case CSTATE_START_COMMAND:
		case CSTATE_WAIT_PREPARE:
		case CSTATE_WAIT_RESULT:
		case CSTATE_SLEEP:
		case CSTATE_END_COMMAND:
		case CSTATE_ERROR:
		case CSTATE_DISCARD_PIPELINE:
		case CSTATE_WAIT_ROLLBACK:
		case CSTATE_RETRY:
		case CSTATE_FAILURE:
		case CSTATE_END_TX:
		case CSTATE_RECONNECT_WAIT:
			break;
	}
	return c->state;
}

client_state
client_reconnect_wait(client *c, client_env *env, pg_time_usec_t *now)
{
	if (env->timer_exceeded)
		return CSTATE_FINISHED;
	if (client_now(now) < c->reconnect_at)
		return CSTATE_RECONNECT_WAIT;
	return c->reconnect_next;
}
