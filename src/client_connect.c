/*
 * client_connect.c — a client's connections: the non-blocking attempt
 * with the deadline libpq leaves to its caller, the short waits when the
 * server's listen queue is full, and under -C the thread's queue for its
 * connect slots.
 *
 * An attempt is timed from its start to its OK: under -C a client that
 * queues for a slot starts its attempt (and its clock) only once admitted,
 * as a pgbench client starts its blocking connect only when its thread
 * gets to it.
 */
#include <string.h>

#include "client_int.h"

/* Waits after a full listen queue: the first, and the longest. */
#define CONNECT_BACKOFF_MIN 1000
#define CONNECT_BACKOFF_MAX 50000

/* After a try that found the listen queue full: wait, keeping c->conn. */
static void
schedule_retry(client *c, pg_time_usec_t now)
{
	pg_time_usec_t wait = c->connect_backoff * 2;

	if (wait < CONNECT_BACKOFF_MIN)
		wait = CONNECT_BACKOFF_MIN;
	if (wait > CONNECT_BACKOFF_MAX)
		wait = CONNECT_BACKOFF_MAX;
	c->connect_backoff = wait;
	/* clients turned away together should not all come back together */
	c->connect_retry_at = now + wait + (pg_time_usec_t) (c->id % 16) * (wait / 16);
	if (c->connect_deadline > 0 && c->connect_retry_at > c->connect_deadline)
		c->connect_retry_at = c->connect_deadline;
}

/* One try: true when under way (or to be retried), false on a refusal. */
static bool
try_connect(client *c, const run_config *cfg, pg_time_usec_t now, char *errbuf, size_t errlen)
{
	client_disconnect(c);
	c->connect_retry_at = 0;
	c->conn = PQconnectStartParams(cfg->params.keywords, cfg->params.values, 1);
	if (c->conn != NULL && PQstatus(c->conn) != CONNECTION_BAD)
	{
		/* libpq wants the socket writable before the first PQconnectPoll */
		c->connect_poll = PGRES_POLLING_WRITING;
		return true;
	}
	if (conn_failed_busy(c->conn) &&
		(c->connect_deadline == 0 || now < c->connect_deadline))
	{
		schedule_retry(c, now);
		return true;
	}
	conn_error_text(c->conn, errbuf, errlen);
	client_disconnect(c);
	return false;
}

bool
client_connect_start(client *c, const run_config *cfg, pg_time_usec_t now,
					 char *errbuf, size_t errlen)
{
	c->connect_start = now;
	c->connect_backoff = 0;
	c->connect_deadline = 0;
	if (!try_connect(c, cfg, now, errbuf, errlen))
		return false;
	/* every connection has the same parameters, so any try tells */
	c->connect_deadline = conn_timeout_usec(c->conn);
	if (c->connect_deadline > 0)
		c->connect_deadline += now;
	return true;
}

/* Fail the attempt with libpq's message for it; -1. */
static int
connect_fail(client *c, bool timed_out, char *errbuf, size_t errlen)
{
	if (timed_out && c->connect_retry_at == 0)
		conn_timeout_text(c->conn, errbuf, errlen);
	else
		conn_error_text(c->conn, errbuf, errlen);	/* the last try's */
	client_disconnect(c);
	c->connect_retry_at = 0;
	return -1;
}

int
client_connect_continue(client *c, const run_config *cfg, pg_time_usec_t now,
						bool ready, char *errbuf, size_t errlen)
{
	bool		timed_out = c->connect_deadline > 0 && now >= c->connect_deadline;

	if (timed_out)
		return connect_fail(c, true, errbuf, errlen);
	if (c->connect_retry_at > 0)
	{
		if (now < c->connect_retry_at)
			return 0;
		return try_connect(c, cfg, now, errbuf, errlen) ? 0 : -1;
	}
	/* polling a socket not ready would take an unfinished connect() for done */
	if (!ready)
		return 0;

	c->connect_poll = PQconnectPoll(c->conn);
	if (c->connect_poll == PGRES_POLLING_OK)
		return 1;
	if (c->connect_poll != PGRES_POLLING_FAILED)
		return 0;
	/* a later host or address of a conninfo may find a full queue too */
	if (conn_failed_busy(c->conn))
	{
		schedule_retry(c, now);
		return 0;
	}
	return connect_fail(c, false, errbuf, errlen);
}

pg_time_usec_t
client_connect_wake(const client *c)
{
	return c->connect_retry_at > 0 ? c->connect_retry_at : c->connect_deadline;
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
	*fd = PQsocket(c->conn);
	*event = c->connect_poll == PGRES_POLLING_READING ? WAITSET_READ : WAITSET_WRITE;
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
		c->connect_retry_at = 0;
		env->connects_in_flight--;
		return CSTATE_FINISHED;
	}

	/*
	 * The loop runs a connecting client when its socket is ready, or at its
	 * wake time, which client_connect_continue tells by the clock.
	 */
	rc = client_connect_continue(c, env->cfg, pgb_time_now(), true, errbuf, sizeof(errbuf));
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
