/*
 * client_tx.c — a client's transactions: choosing the script, the -R
 * schedule, starting (connecting first under -C), accounting and ending
 * each transaction, and the end of every command.  Transaction layer: no
 * session call; the connection and the server's transaction status are
 * asked of the protocol layer (client_connect.c, client_rollback.c).
 */
#include <string.h>

#include "client_int.h"
#include "pgbench/script/random.h"

static int
choose_script(client_env *env)
{
	const script_set *set = env->cfg->scripts;
	int64_t		pick;
	int			i = 0;

	if (set->nscripts == 1)
		return 0;
	pick = random_uniform(&env->choose_rs, 0, set->total_weight - 1);
	while (pick >= set->scripts[i].weight)
		pick -= set->scripts[i++].weight;
	return i;
}

/* Everything a transaction's end may account: the latency, the log line, the rest. */
static __attribute__((noinline)) void
account_in_full(client *c, client_env *env, pg_time_usec_t *now, bool skipped)
{
	txlog_txn	tx = {
		.client_id = c->id, .script_no = c->script, .tries = c->tries,
		.outcome = skipped ? STATS_SKIPPED : retry_outcome(c->error),
	};

	/* without -P, -R, -L, -l, histograms or several scripts: no latency */
	if (env->cfg->latency_measured && tx.outcome == STATS_SUCCESS)
	{
		tx.latency = (double) (client_now(now) - c->txn_scheduled);
		tx.lag = (double) (c->txn_begin - c->txn_scheduled);
	}
	tx.txn_no = ++c->cnt;
	tx_sink_add(&env->sink, &tx, tx_sink_needs_time(&env->sink) ? client_now(now) : 0);
}

void
client_account_transaction(client *c, client_env *env, pg_time_usec_t *now, bool skipped)
{
	/* a plain run's transactions: a first-try success is only counted */
	if (PGB_LIKELY(env->counts_only && !skipped && c->error == RETRY_ERROR_NONE &&
				   c->tries == 1))
	{
		c->cnt++;
		tx_sink_add_success(&env->sink);
		return;
	}
	account_in_full(c, env, now, skipped);
}

bool
client_transactions_done(const client *c, const client_env *env)
{
	const run_config *cfg = env->cfg;

	return env->timer_exceeded || (cfg->duration <= 0 && c->cnt >= cfg->nxacts);
}

/* A new transaction: pick its script.  -T may already be over. */
client_state
client_choose_transaction(client *c, client_env *env)
{
	const run_config *cfg = env->cfg;

	/* --stages: not its turn yet (no random draw while it waits) */
	if (PGB_UNLIKELY(env->staged && c->id >= env->active_limit))
		return env->timer_exceeded ? CSTATE_FINISHED : CSTATE_STAGE_IDLE;
	client_set_script(c, cfg, choose_script(env));
	c->error = RETRY_ERROR_NONE;
	c->tries = 1;
	client_trace(env, "client %d executing script \"%s\"", c->id,
				 cfg->scripts->scripts[c->script].desc);
	if (env->timer_exceeded)
		return CSTATE_FINISHED;
	return cfg->throttle_delay > 0 ? CSTATE_PREPARE_THROTTLE : CSTATE_START_TX;
}

client_state
client_stage_idle(client *c, client_env *env, pg_time_usec_t *now)
{
	if (env->timer_exceeded)
		return CSTATE_FINISHED;
	if (c->id < env->active_limit)
		return CSTATE_CHOOSE_SCRIPT;
	c->sleep_until = client_now(now) + CLIENT_STAGE_POLL_US;
	if (env->end_time > 0 && c->sleep_until > env->end_time)
		c->sleep_until = env->end_time;
	return CSTATE_STAGE_IDLE;
}

client_state
client_prepare_throttle(client *c, client_env *env, pg_time_usec_t *now)
{
	const run_config *cfg = env->cfg;

	/* the delays between starts form a Poisson process of this thread's rate */
	env->throttle_trigger += random_poisson(&env->throttle_rs, env->throttle_delay);
	c->txn_scheduled = env->throttle_trigger;

	/* under -L, a slot that is already too late is skipped, not run */
	if (cfg->latency_limit > 0 &&
		env->throttle_trigger < client_now(now) - cfg->latency_limit)
	{
		client_account_transaction(c, env, now, true);
		return client_transactions_done(c, env) ? CSTATE_FINISHED : CSTATE_PREPARE_THROTTLE;
	}

	if (env->end_time > 0 && c->txn_scheduled > env->end_time)
		return CSTATE_FINISHED;
	return CSTATE_THROTTLE;
}

client_state
client_start_transaction(client *c, client_env *env, pg_time_usec_t *now)
{
	/* -C: connect without blocking the thread's other clients */
	if (c->conn == NULL)
		return client_begin_connect(c, env, now);

	/* what a retry goes back to (retry.h: the random state, not variables) */
	retry_snapshot_take(&c->tx_snap, &c->rs);
	/* the start's time makes the latency and the lag: unread when neither is
	 * taken (runconf.h: latency_measured, which -R and -L imply) */
	if (env->cfg->latency_measured)
	{
		c->txn_begin = client_now(now);
		if (env->cfg->throttle_delay <= 0)
			c->txn_scheduled = c->txn_begin;
	}
	c->command = 0;
	c->num_syncs = 0;
	c->elif_pending = false;
	return CSTATE_START_COMMAND;
}

client_state
client_end_transaction(client *c, client_env *env, pg_time_usec_t *now)
{
	client_account_transaction(c, env, now, false);
	if (client_check_tx_closed(c, env) == CSTATE_ABORTED)
		return CSTATE_ABORTED;

	if (env->cfg->connect_each)
	{
		/* not the pass's time: only the closing is the connection's */
		pg_time_usec_t start = pgb_time_now();

		client_disconnect(c);
		*now = pgb_time_now();
		tx_sink_connect_time(&env->sink, *now - start);
	}

	return client_transactions_done(c, env) ? CSTATE_FINISHED : CSTATE_CHOOSE_SCRIPT;
}

/*
 * A timed wait (-R schedule, \sleep) is over when due.  -T ends runs
 * between transactions, as pgbench's does: it ends the wait for the -R
 * schedule, before a transaction starts, but a \sleep inside one runs to
 * its end and the transaction goes on to its last command.
 */
client_state
client_timed_wait(const client_env *env, pg_time_usec_t until, pg_time_usec_t *now,
				  client_state waiting, client_state due)
{
	if (env->timer_exceeded && waiting == CSTATE_THROTTLE)
		return CSTATE_FINISHED;
	return client_now(now) < until ? waiting : due;
}

void
client_end_command(client *c, client_env *env, pg_time_usec_t *now)
{
	if (env->cfg->per_command)
		tx_sink_command_latency(&env->sink, client_flat_command(c),
								(double) (client_now(now) - c->stmt_begin));
	c->command = c->next_command;
}
