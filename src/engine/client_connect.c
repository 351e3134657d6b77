/*
 * client_connect.c — a client's connections: the non-blocking attempt
 * with the deadline the connection library leaves to its caller, the
 * short waits when the server's listen queue is full, and under -C the
 * thread's queue for its connect slots.
 *
 * An attempt is timed from its start to its OK: under -C a client that
 * queues for a slot starts its attempt (and its clock) only once admitted,
 * as a pgbench client starts its blocking connect only when its thread
 * gets to it.
 *
 * Protocol layer (with the session port's connect calls): called by the
 * dispatcher and by client_tx.c (START_TX without a connection); calls
 * client_ident.c (a new session's empty cache) and client_fail.c.
 */
#include <string.h>

#include "client_int.h"

/* Waits after a full listen queue: the first, and the longest. */
#define CONNECT_BACKOFF_MIN 1000
#define CONNECT_BACKOFF_MAX 50000

/* After a try that found the listen queue full: wait, then try again. */
static void
schedule_retry(client *c, pg_time_usec_t now)
{
	pg_time_usec_t wait = c->connect_backoff * 2;
	pg_time_usec_t deadline = c->connecting.deadline;

	if (wait < CONNECT_BACKOFF_MIN)
		wait = CONNECT_BACKOFF_MIN;
	if (wait > CONNECT_BACKOFF_MAX)
		wait = CONNECT_BACKOFF_MAX;
	c->connect_backoff = wait;
	/* clients turned away together should not all come back together */
	c->connect_retry_at = now + wait + (pg_time_usec_t) (c->id % 16) * (wait / 16);
	if (deadline > 0 && c->connect_retry_at > deadline)
		c->connect_retry_at = deadline;
}

/* What a step of the attempt means for the client: 1 up, 0 wait, -1 failed. */
static int
after_step(client *c, conn_step step, pg_time_usec_t now, char *errbuf, size_t errlen)
{
	switch (step)
	{
		case CONN_STEP_WAIT:
			return 0;
		case CONN_STEP_BUSY:
			schedule_retry(c, now);
			return 0;
		case CONN_STEP_OK:
			c->conn = pgb_session_take(&c->connecting);
			c->sock = pgb_session_socket(c->conn);
			return 1;
		case CONN_STEP_FAILED:
			break;
	}
	pgb_connect_error(&c->connecting, errbuf, errlen);
	client_disconnect(c);
	return -1;
}

bool
client_connect_start(client *c, const run_config *cfg, pg_time_usec_t now,
					 char *errbuf, size_t errlen)
{
	client_disconnect(c);
	c->connect_start = now;
	c->connect_backoff = 0;
	return after_step(c, pgb_connect_start(&c->connecting, &cfg->plan, now), now,
					  errbuf, errlen) >= 0;
}

int
client_connect_continue(client *c, const run_config *cfg, pg_time_usec_t now,
						bool ready, char *errbuf, size_t errlen)
{
	conn_step	step;

	(void) cfg;
	if (c->connect_retry_at > 0)
	{
		/* the host's deadline may come first: the attempt then moves on */
		if (now < c->connect_retry_at)
			return 0;
		c->connect_retry_at = 0;
		step = pgb_connect_retry(&c->connecting, now);
	}
	else
		step = pgb_connect_continue(&c->connecting, now, ready);
	return after_step(c, step, now, errbuf, errlen);
}

pg_time_usec_t
client_connect_wake(const client *c)
{
	return c->connect_retry_at > 0 ? c->connect_retry_at : c->connecting.deadline;
}

bool
client_connection_broken(const client *c)
{
	return c->conn != NULL && pgb_session_broken(c->conn);
}

bool
client_connect_pending(const client *c)
{
	return c->connecting.conn != NULL;
}

/* ---- -C: the thread's connect slots ------------------------------------ */

bool
client_connect_admissible(const client *c, const client_env *env)
{
	return c->connect_queued && c->connect_ticket == env->connect_queue_head &&
		env->connects_in_flight < CLIENT_CONNECT_EACH_SLOTS;
}

client_wait_kind
client_connect_wait(const client *c, int *fd, waitset_event *event, pg_time_usec_t *wake_at)
{
	*wake_at = 0;
	*fd = -1;
	if (c->connect_queued)
		return CWAIT_CONNECT;
	*wake_at = client_connect_wake(c);
	if (c->connect_retry_at > 0)
		return CWAIT_TIMER;
	{
		bool		for_read;

		*fd = pgb_connect_socket(&c->connecting, &for_read);
		*event = for_read ? WAITSET_READ : WAITSET_WRITE;
	}
	return CWAIT_CONNECT;
}

static client_state
connect_failed(const client *c, client_env *env, const char *message)
{
	client_abort(c, env, FAILURE_CONNECT, "%s", "");
	failure_cause(&env->failure, "%s", message);
	return CSTATE_ABORTED;
}

/* Start the attempt in a slot of the thread. */
static client_state
start_in_slot(client *c, client_env *env, pg_time_usec_t *now)
{
	char		errbuf[1024];

	env->connects_in_flight++;
	if (!client_connect_start(c, env->cfg, pgb_time_now(), errbuf, sizeof(errbuf)))
	{
		env->connects_in_flight--;
		*now = 0;
		return connect_failed(c, env, errbuf);
	}
	*now = 0;
	return CSTATE_CONNECTING;
}

client_state
client_begin_connect(client *c, client_env *env, pg_time_usec_t *now)
{
	/* first come, first served: nobody passes a client already queued */
	if (env->connect_queue_head == env->connect_queue_tail &&
		env->connects_in_flight < CLIENT_CONNECT_EACH_SLOTS)
		return start_in_slot(c, env, now);
	c->connect_queued = true;
	c->connect_ticket = env->connect_queue_tail++;
	return CSTATE_CONNECTING;
}

client_state
client_continue_connect(client *c, client_env *env, pg_time_usec_t *now)
{
	char		errbuf[1024];
	pg_time_usec_t wake;
	bool		ready;
	int			rc;

	if (c->connect_queued)
	{
		if (env->timer_exceeded)
			return CSTATE_FINISHED;
		if (!client_connect_admissible(c, env))
			return CSTATE_CONNECTING;
		c->connect_queued = false;
		env->connect_queue_head++;
		return start_in_slot(c, env, now);
	}
	if (env->timer_exceeded)
	{
		/* -T is over: an attempt still under way stops with the run */
		client_disconnect(c);
		env->connects_in_flight--;
		return CSTATE_FINISHED;
	}

	/*
	 * The loop runs a connecting client when its socket is ready, or at its
	 * wake time, which client_connect_continue tells by the clock.  Past
	 * the host's deadline the socket decides (a poll that does not wait):
	 * ready, it is read however late; not ready, the host has timed out.
	 */
	wake = pgb_time_now();
	ready = c->connecting.deadline == 0 || wake < c->connecting.deadline ||
		pgb_connect_ready_now(&c->connecting);
	rc = client_connect_continue(c, env->cfg, wake, ready, errbuf, sizeof(errbuf));
	if (rc == 0)
		return CSTATE_CONNECTING;
	env->connects_in_flight--;
	if (rc < 0)
		return connect_failed(c, env, errbuf);
	*now = pgb_time_now();
	tx_sink_connect_time(&env->sink, *now - c->connect_start);
	/* a new session has no prepared statements */
	memset(c->prepared, 0, sizeof(bool) * (size_t) env->cfg->total_commands);
	client_ident_reset(c);
	return CSTATE_START_TX;
}
