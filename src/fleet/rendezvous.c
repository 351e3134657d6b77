/*
 * rendezvous.c — --rendezvous: instances that start their measured phase
 * at one server-clock instant, agreed through advisory locks, pg_locks and
 * LISTEN/NOTIFY (the protocol is described in rendezvous.h): the libpq
 * calls that feed rendezvous_proto.c's decisions, and the waiting.
 * Failures fill the caller's rendezvous_error; nothing here prints one.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pgbench/base/interrupt.h"
#include "pgbench/fleet/rendezvous.h"

/* rendezvous.state */
#define RV_WAITING 0			/* nobody has started to wait for the group */
#define RV_BUSY 1				/* a thread is waiting for the group */
#define RV_DONE 2				/* the start is known */
#define RV_FAILED (-1)			/* timed out, or the run is off */

/* The join query writes slot i's key as "2 + i". */
_Static_assert(RVPROTO_KEY_SLOT0 == 2, "the join query's slot keys");

/* How often the leader counts the ready members, in us. */
#define POLL_US 20000

#define SERVER_NOW_US "(extract(epoch FROM clock_timestamp()) * 1000000)::int8"

/* The server's message (PQerrorMessage) as the failure. */
static void
fail_server(rendezvous *rv)
{
	rvproto_fail(rv->err, "rendezvous \"%s\": %s", rv->info.group, PQerrorMessage(rv->conn));
}

/*
 * Run sql with nparams (0 to 2) integer parameters, $1 the key, $2 arg2, and
 * return the first value of the first row as an int64 in *out (NULL: not
 * wanted; rvproto_value's reading).  Returns false with the server's
 * message in rv->err on an error.
 */
static bool
query_int(rendezvous *rv, const char *sql, int nparams, int64_t arg2, int64_t *out)
{
	char		p1[24],
				p2[24];
	const char *values[2] = {p1, p2};
	PGresult   *res;
	bool		ok;

	snprintf(p1, sizeof(p1), "%" PRId32, rv->key);
	snprintf(p2, sizeof(p2), "%" PRId64, arg2);
	res = PQexecParams(rv->conn, sql, nparams, NULL, values, NULL, NULL, 0);
	ok = PQresultStatus(res) == PGRES_TUPLES_OK || PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		fail_server(rv);
	else if (out != NULL)
		*out = rvproto_value(PQntuples(res) > 0 && !PQgetisnull(res, 0, 0)
							 ? PQgetvalue(res, 0, 0) : NULL);
	PQclear(res);
	return ok;
}

/*
 * The server's clock against ours: several round trips of
 * clock_timestamp(), keeping the one with the shortest round trip, whose
 * midpoint is the best guess of when the server read its clock.
 */
static bool
measure_offset(rendezvous *rv)
{
	rvproto_clock clock;

	rvproto_clock_init(&clock);
	for (int i = 0; i < RVPROTO_CLOCK_SAMPLES; i++)
	{
		pg_time_usec_t t0 = pgb_time_now();
		int64_t		server;

		if (!query_int(rv, "SELECT " SERVER_NOW_US, 0, 0, &server))
			return false;
		rvproto_clock_add(&clock, t0, server, pgb_time_now());
	}
	rv->info.clock_rtt_us = clock.rtt_us;
	rv->offset_mono = clock.offset_mono;
	rv->info.clock_offset_us = rvproto_epoch_offset(&clock, pgb_time_to_epoch(0));
	return true;
}

/* Members holding key (KEY_READY or a slot), from pg_locks. */
static bool
count_holders(rendezvous *rv, int64_t key2, int64_t *n)
{
	return query_int(rv,
					 "SELECT count(*) FROM pg_catalog.pg_locks"
					 " WHERE locktype = 'advisory' AND granted AND objsubid = 2"
					 " AND database = (SELECT oid FROM pg_catalog.pg_database"
					 "                 WHERE datname = pg_catalog.current_database())"
					 " AND classid = $1::int8::oid AND objid = $2::int8::oid",
					 2, key2, n);
}

/*
 * LISTEN, then the lock answers: the first free slot, and whether
 * "started" is free (1; 0: the leader holds it, the group runs).
 * rvproto_join_decide refuses a late or surplus joiner.
 */
static bool
join(rendezvous *rv)
{
	char		sql[128];
	PGresult   *res;
	int64_t		slot;
	int64_t		started_free;
	rvproto_join j;

	snprintf(sql, sizeof(sql), "LISTEN %s", rv->channel);
	res = PQexec(rv->conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		fail_server(rv);
		PQclear(res);
		return false;
	}
	PQclear(res);
	if (!query_int(rv,
				   "SELECT i FROM pg_catalog.generate_series(0, $2::int4 - 1) AS i"
				   " WHERE pg_catalog.pg_try_advisory_lock($1::int4, 2 + i)"
				   " LIMIT 1",
				   2, rv->info.size, &slot) ||
		!query_int(rv,
				   "SELECT CASE WHEN pg_catalog.pg_try_advisory_lock_shared($1::int4, $2::int4)"
				   " THEN pg_catalog.pg_advisory_unlock_shared($1::int4, $2::int4) ELSE false END",
				   2, RVPROTO_KEY_STARTED, &started_free))
		return false;
	j = rvproto_join_decide(slot, started_free, rv->info.size, &rv->info.member);
	if (j != RVPROTO_JOINED)
	{
		rvproto_join_error(j, rv->info.group, rv->info.size, rv->err);
		return false;
	}
	return true;
}

rendezvous_status
rendezvous_open(rendezvous *rv, const conn_params *params, const char *name, int size,
				int timeout_s, rendezvous_error *err)
{
	char		errbuf[1024];

	memset(rv, 0, sizeof(*rv));
	pthread_mutex_init(&rv->lock, NULL);
	pthread_cond_init(&rv->cond, NULL);
	snprintf(rv->info.group, sizeof(rv->info.group), "%s", name);
	rv->info.size = size;
	rv->info.member = -1;
	rv->timeout_s = timeout_s;
	rv->err = err;
	rv->deadline = rvproto_deadline(pgb_time_now(), timeout_s);
	rv->key = rvproto_name_key(name);
	rvproto_channel(rv->key, rv->channel, sizeof(rv->channel));
	rv->conn = conn_open(params, errbuf, sizeof(errbuf));
	if (rv->conn == NULL)
	{
		/* errbuf "": a signal, which the run's ending tells */
		if (errbuf[0] == '\0')
			return RENDEZVOUS_STOPPED;
		rvproto_fail(err, "rendezvous \"%s\": %s", name, errbuf);
		return RENDEZVOUS_FAILED;
	}
	return measure_offset(rv) && join(rv) ? RENDEZVOUS_OK : RENDEZVOUS_FAILED;
}

void
rendezvous_bind(rendezvous *rv, pg_time_usec_t *start, pg_time_usec_t *end, int duration_s,
				rendezvous_error *err)
{
	rv->start_target = start;
	rv->end_target = end;
	rv->duration_s = duration_s;
	rv->err = err;
}

/* Sleep until the monotonic instant at (us). */
static void
sleep_until(pg_time_usec_t at)
{
	struct timespec ts = {.tv_sec = (time_t) (at / 1000000), .tv_nsec = (long) (at % 1000000) * 1000};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * The timeout's failure: how many arrived.  Should counting them fail, the
 * server's message is the failure (the first thing wrong).
 */
static void
fail_timeout(rendezvous *rv)
{
	int64_t		ready = -1;

	if (count_holders(rv, RVPROTO_KEY_READY, &ready))
		rvproto_timeout_error(rv->info.group, rv->timeout_s, ready, rv->info.size, rv->err);
}

/*
 * The waiting line, when rvproto_tell_due says it is time (*next_at):
 * how many are ready (ready < 0: count them now) and how long is left.
 * It is progress, not an error: written here, when it is true, to stderr
 * (one fputs of the whole line, so it does not interleave).  false when
 * the count failed (rv->err filled).
 */
static bool
tell_waiting(rendezvous *rv, int64_t ready, pg_time_usec_t now, pg_time_usec_t *next_at)
{
	char		line[RENDEZVOUS_MAX_NAME + 128];

	if (!rvproto_tell_due(now, next_at))
		return true;
	if (ready < 0 && !count_holders(rv, RVPROTO_KEY_READY, &ready))
		return false;
	rvproto_waiting_line(line, sizeof(line), rv->info.group, ready, rv->info.size, now,
						 rv->deadline);
	fputs(line, stderr);
	fflush(stderr);
	return true;
}

/* An announced start (text: untrusted), as rvproto_read_instant reads it. */
static rendezvous_status
take_instant(rendezvous *rv, const char *text)
{
	int64_t		instant;
	pg_time_usec_t start;
	rvproto_instant r = rvproto_read_instant(text, rv->offset_mono, pgb_time_now(), &instant,
											 &start);

	if (r != RVPROTO_INSTANT_OK)
	{
		rvproto_instant_error(r, rv->info.group, rv->err);
		return RENDEZVOUS_FAILED;
	}
	rv->info.start_server_us = instant;
	rv->start_mono = start;
	return RENDEZVOUS_OK;
}

/* The leader, until N are ready (or the wait is over). */
static rendezvous_status
wait_ready(rendezvous *rv)
{
	int64_t		ready = 0;
	pg_time_usec_t tell_at = pgb_time_now() + RVPROTO_TELL_US;

	for (;;)
	{
		pg_time_usec_t now;

		if (interrupt_signal() != 0)
			return RENDEZVOUS_STOPPED;
		if (!count_holders(rv, RVPROTO_KEY_READY, &ready))
			return RENDEZVOUS_FAILED;
		if (rvproto_group_ready(ready, rv->info.size))
			return RENDEZVOUS_OK;
		now = pgb_time_now();
		if (rvproto_timed_out(now, rv->deadline))
		{
			fail_timeout(rv);
			return RENDEZVOUS_FAILED;
		}
		(void) tell_waiting(rv, ready, now, &tell_at);
		sleep_until(now + POLL_US);
	}
}

/* The leader: until N are ready, then take "started" and announce. */
static rendezvous_status
lead(rendezvous *rv)
{
	char		margin[24];
	const char *values[2] = {rv->channel, margin};
	PGresult   *res;
	rendezvous_status st = wait_ready(rv);

	if (st != RENDEZVOUS_OK)
		return st;
	if (!query_int(rv, "SELECT pg_catalog.pg_advisory_lock($1::int4, $2::int4)", 2,
				   RVPROTO_KEY_STARTED, NULL))
		return RENDEZVOUS_FAILED;
	snprintf(margin, sizeof(margin), "%" PRId64, RENDEZVOUS_MARGIN_US);
	res = PQexecParams(rv->conn,
					   "SELECT v, pg_catalog.pg_notify($1, v::text)"
					   " FROM (SELECT " SERVER_NOW_US " + $2::int8 AS v) AS s",
					   2, NULL, values, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		st = take_instant(rv, PQgetvalue(res, 0, 0));
	else
	{
		fail_server(rv);
		st = RENDEZVOUS_FAILED;
	}
	PQclear(res);
	return st;
}

/*
 * The notifications that came: the first on our channel is the leader's
 * announcement (*taken true, its reading returned); others are dropped.
 */
static rendezvous_status
read_notifies(rendezvous *rv, bool *taken)
{
	PGnotify   *n;
	rendezvous_status st = RENDEZVOUS_OK;

	*taken = false;
	while (!*taken && (n = PQnotifies(rv->conn)) != NULL)
	{
		if (strcmp(n->relname, rv->channel) == 0)
		{
			*taken = true;
			st = take_instant(rv, n->extra);
		}
		PQfreemem(n);
	}
	return st;
}

/* A member: wait for the leader's notification on the channel. */
static rendezvous_status
follow(rendezvous *rv)
{
	pg_time_usec_t tell_at = pgb_time_now() + RVPROTO_TELL_US;

	for (;;)
	{
		struct pollfd pfd = {.fd = PQsocket(rv->conn), .events = POLLIN};
		pg_time_usec_t now = pgb_time_now();
		rendezvous_status st;
		bool		taken;

		if (!PQconsumeInput(rv->conn))
		{
			fail_server(rv);
			return RENDEZVOUS_FAILED;
		}
		st = read_notifies(rv, &taken);
		if (taken)
			return st;
		if (rvproto_timed_out(now, rv->deadline))
		{
			fail_timeout(rv);
			return RENDEZVOUS_FAILED;
		}
		if (interrupt_signal() != 0)
			return RENDEZVOUS_STOPPED;
		if (!tell_waiting(rv, -1, now, &tell_at))
			return RENDEZVOUS_FAILED;
		if (poll(&pfd, 1, rvproto_poll_ms(rv->deadline - now)) < 0 && errno != EINTR)
		{
			rvproto_fail(rv->err, "rendezvous \"%s\": poll failed: %s", rv->info.group,
						 strerror(errno));
			return RENDEZVOUS_FAILED;
		}
	}
}

/* The first thread at the gate: ready, then wait for the group. */
static rendezvous_status
wait_for_group(rendezvous *rv)
{
	rendezvous_status st;

	if (!query_int(rv, "SELECT pg_catalog.pg_advisory_lock_shared($1::int4, $2::int4)",
				   2, RVPROTO_KEY_READY, NULL))
		return RENDEZVOUS_FAILED;
	st = rv->info.member == 0 ? lead(rv) : follow(rv);
	if (st != RENDEZVOUS_OK)
		return st;
	if (rv->start_target != NULL)
		*rv->start_target = rv->start_mono;
	if (rv->end_target != NULL && rv->duration_s > 0)
		*rv->end_target = rvproto_end(rv->start_mono, rv->duration_s);
	return RENDEZVOUS_OK;
}

rendezvous_status
rendezvous_pass(rendezvous *rv, bool go)
{
	rendezvous_status result;

	pthread_mutex_lock(&rv->lock);
	if (rv->state == RV_WAITING)
	{
		rv->state = go ? RV_BUSY : RV_FAILED;
		rv->result = RENDEZVOUS_STOPPED;
		if (go)
		{
			/* the waiting is done outside the lock; the others wait on cond */
			pthread_mutex_unlock(&rv->lock);
			result = wait_for_group(rv);
			pthread_mutex_lock(&rv->lock);
			rv->result = result;
			rv->state = result == RENDEZVOUS_OK ? RV_DONE : RV_FAILED;
		}
		pthread_cond_broadcast(&rv->cond);
	}
	while (rv->state == RV_BUSY)
		pthread_cond_wait(&rv->cond, &rv->lock);
	result = rv->result;
	pthread_mutex_unlock(&rv->lock);
	if (result != RENDEZVOUS_OK)
		return result;
	sleep_until(rv->start_mono);
	return RENDEZVOUS_OK;
}

pg_time_usec_t
rendezvous_start(rendezvous *rv)
{
	pg_time_usec_t start;

	pthread_mutex_lock(&rv->lock);
	while (rv->state == RV_WAITING || rv->state == RV_BUSY)
		pthread_cond_wait(&rv->cond, &rv->lock);
	start = rv->state == RV_DONE ? rv->start_mono : 0;
	pthread_mutex_unlock(&rv->lock);
	return start;
}

void
rendezvous_close(rendezvous *rv)
{
	if (rv->conn != NULL)
	{
		PQclear(PQexec(rv->conn, "UNLISTEN *"));
		PQclear(PQexec(rv->conn, "SELECT pg_catalog.pg_advisory_unlock_all()"));
		PQfinish(rv->conn);
		rv->conn = NULL;
	}
}
