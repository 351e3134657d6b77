/*
 * rendezvous.c — --rendezvous: instances that start their measured phase
 * at one server-clock instant, agreed through advisory locks, pg_locks and
 * LISTEN/NOTIFY (the protocol is described in rendezvous.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/fleet/rendezvous.h"

/* rendezvous.state */
#define RV_WAITING 0			/* nobody has started to wait for the group */
#define RV_BUSY 1				/* a thread is waiting for the group */
#define RV_DONE 2				/* the start is known */
#define RV_FAILED (-1)			/* timed out, or the run is off */

/* The second halves of the advisory lock keys. */
#define KEY_STARTED 0
#define KEY_READY 1
#define KEY_SLOT0 2				/* the join query writes it as "2 + i" */

/* Round trips of the clock measurement; the shortest is kept. */
#define CLOCK_SAMPLES 7

/* How often the leader counts the ready members, in us. */
#define POLL_US 20000

/* The longest a member waits before it looks for a signal, in us. */
#define CHECK_US 100000

/* How often a wait says what it waits for; a shorter one says nothing. */
#define TELL_US INT64_C(5000000)

#define SERVER_NOW_US "(extract(epoch FROM clock_timestamp()) * 1000000)::int8"

/* 31-bit FNV-1a of the group name: the first half of every key. */
static int32_t
name_key(const char *name)
{
	uint32_t	h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *) name; *p != '\0'; p++)
		h = (h ^ *p) * 16777619u;
	return (int32_t) (h & 0x7fffffff);
}

/*
 * Run sql with nparams (0 to 2) integer parameters, $1 the key, $2 arg2, and
 * return the first value of the first row as an int64 in *out (NULL: not
 * wanted).  Prints the server's message and returns false on an error.
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
		diag_error("rendezvous \"%s\": %s", rv->info.group, PQerrorMessage(rv->conn));
	else if (out != NULL)
	{
		const char *v = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0) ? PQgetvalue(res, 0, 0) : "-1";

		/* booleans come as "t" / "f" */
		*out = v[0] == 't' ? 1 : v[0] == 'f' ? 0 : strtoll(v, NULL, 10);
	}
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
	rv->info.clock_rtt_us = INT64_MAX;
	for (int i = 0; i < CLOCK_SAMPLES; i++)
	{
		pg_time_usec_t t0 = pgb_time_now();
		int64_t		server;
		pg_time_usec_t t1;

		if (!query_int(rv, "SELECT " SERVER_NOW_US, 0, 0, &server))
			return false;
		t1 = pgb_time_now();
		if (t1 - t0 < rv->info.clock_rtt_us)
		{
			rv->info.clock_rtt_us = t1 - t0;
			rv->offset_mono = server - (t0 + t1) / 2;
		}
	}
	/* as epoch times: the server's minus ours */
	rv->info.clock_offset_us = rv->offset_mono - pgb_time_to_epoch(0);
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

/* Whether the leader holds "started": the group is already running. */
static bool
group_started(rendezvous *rv, bool *started)
{
	int64_t		free_now;

	if (!query_int(rv,
				   "SELECT CASE WHEN pg_catalog.pg_try_advisory_lock_shared($1::int4, $2::int4)"
				   " THEN pg_catalog.pg_advisory_unlock_shared($1::int4, $2::int4) ELSE false END",
				   2, KEY_STARTED, &free_now))
		return false;
	*started = free_now == 0;
	return true;
}

/* LISTEN, then the first free slot; refuse a late or surplus joiner. */
static bool
join(rendezvous *rv)
{
	char		sql[128];
	PGresult   *res;
	int64_t		slot;
	bool		started;

	snprintf(sql, sizeof(sql), "LISTEN %s", rv->channel);
	res = PQexec(rv->conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		diag_error("rendezvous \"%s\": %s", rv->info.group, PQerrorMessage(rv->conn));
		PQclear(res);
		return false;
	}
	PQclear(res);
	if (!query_int(rv,
				   "SELECT i FROM pg_catalog.generate_series(0, $2::int4 - 1) AS i"
				   " WHERE pg_catalog.pg_try_advisory_lock($1::int4, 2 + i)"
				   " LIMIT 1",
				   2, rv->info.size, &slot) ||
		!group_started(rv, &started))
		return false;
	if (started)
	{
		diag_error("rendezvous \"%s\" has already started: this instance came too late",
				   rv->info.group);
		return false;
	}
	if (slot < 0)
	{
		diag_error("rendezvous \"%s\" is full: %d instances have joined it already",
				   rv->info.group, rv->info.size);
		return false;
	}
	rv->info.member = (int) slot;
	return true;
}

bool
rendezvous_open(rendezvous *rv, const conn_params *params, const char *name, int size,
				int timeout_s)
{
	char		errbuf[1024];

	memset(rv, 0, sizeof(*rv));
	pthread_mutex_init(&rv->lock, NULL);
	pthread_cond_init(&rv->cond, NULL);
	snprintf(rv->info.group, sizeof(rv->info.group), "%s", name);
	rv->info.size = size;
	rv->info.member = -1;
	rv->timeout_s = timeout_s;
	rv->deadline = pgb_time_now() + (pg_time_usec_t) timeout_s * 1000000;
	rv->key = name_key(name);
	snprintf(rv->channel, sizeof(rv->channel), "pgbench_rendezvous_%08" PRIx32, (uint32_t) rv->key);
	rv->conn = conn_open(params, errbuf, sizeof(errbuf));
	if (rv->conn == NULL)
	{
		/* errbuf "": a signal, which the run's ending tells */
		if (errbuf[0] != '\0')
			diag_error("rendezvous \"%s\": %s", name, errbuf);
		return false;
	}
	return measure_offset(rv) && join(rv);
}

void
rendezvous_bind(rendezvous *rv, pg_time_usec_t *start, pg_time_usec_t *end, int duration_s)
{
	rv->start_target = start;
	rv->end_target = end;
	rv->duration_s = duration_s;
}

/* Sleep until the monotonic instant at (us). */
static void
sleep_until(pg_time_usec_t at)
{
	struct timespec ts = {.tv_sec = (time_t) (at / 1000000), .tv_nsec = (long) (at % 1000000) * 1000};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The timeout's message: how many arrived. */
static void
report_timeout(rendezvous *rv)
{
	int64_t		ready = -1;

	(void) count_holders(rv, KEY_READY, &ready);
	diag_error("rendezvous \"%s\" timed out after %d s: %" PRId64 " of %d instances were ready",
			   rv->info.group, rv->timeout_s, ready, rv->info.size);
}

/*
 * Every TELL_US of waiting, on stderr: how many are ready (ready < 0: count
 * them now) and how long is left.  *next_at: when to tell next.
 */
static bool
tell_waiting(rendezvous *rv, int64_t ready, pg_time_usec_t now, pg_time_usec_t *next_at)
{
	pg_time_usec_t left = rv->deadline - now;

	if (now < *next_at)
		return true;
	*next_at = now + TELL_US;
	if (ready < 0 && !count_holders(rv, KEY_READY, &ready))
		return false;
	fprintf(stderr, "waiting at rendezvous \"%s\": %" PRId64 " of %d ready, %" PRId64 " s left\n",
			rv->info.group, ready, rv->info.size,
			(int64_t) ((left > 0 ? left : 0) + 999999) / 1000000);
	fflush(stderr);
	return true;
}

/* The leader: until N are ready, then take "started" and announce. */
static bool
lead(rendezvous *rv, int64_t *instant)
{
	int64_t		ready = 0;
	char		margin[24];
	const char *values[2] = {rv->channel, margin};
	PGresult   *res;
	bool		ok;
	pg_time_usec_t tell_at = pgb_time_now() + TELL_US;

	for (;;)
	{
		pg_time_usec_t now;

		if (interrupt_signal() != 0 || !count_holders(rv, KEY_READY, &ready))
			return false;
		if (ready >= rv->info.size)
			break;
		now = pgb_time_now();
		if (now >= rv->deadline)
		{
			report_timeout(rv);
			return false;
		}
		tell_waiting(rv, ready, now, &tell_at);
		sleep_until(now + POLL_US);
	}
	if (!query_int(rv, "SELECT pg_catalog.pg_advisory_lock($1::int4, $2::int4)", 2, KEY_STARTED,
				   NULL))
		return false;
	snprintf(margin, sizeof(margin), "%" PRId64, RENDEZVOUS_MARGIN_US);
	res = PQexecParams(rv->conn,
					   "SELECT v, pg_catalog.pg_notify($1, v::text)"
					   " FROM (SELECT " SERVER_NOW_US " + $2::int8 AS v) AS s",
					   2, NULL, values, NULL, NULL, 0);
	ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
	if (ok)
		*instant = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else
		diag_error("rendezvous \"%s\": %s", rv->info.group, PQerrorMessage(rv->conn));
	PQclear(res);
	return ok;
}

/* A member: wait for the leader's notification on the channel. */
static bool
follow(rendezvous *rv, int64_t *instant)
{
	pg_time_usec_t tell_at = pgb_time_now() + TELL_US;

	for (;;)
	{
		PGnotify   *n;
		struct pollfd pfd = {.fd = PQsocket(rv->conn), .events = POLLIN};
		pg_time_usec_t now = pgb_time_now();
		pg_time_usec_t left = rv->deadline - now;

		if (!PQconsumeInput(rv->conn))
		{
			diag_error("rendezvous \"%s\": %s", rv->info.group, PQerrorMessage(rv->conn));
			return false;
		}
		while ((n = PQnotifies(rv->conn)) != NULL)
		{
			bool		ours = strcmp(n->relname, rv->channel) == 0;

			if (ours)
				*instant = strtoll(n->extra, NULL, 10);
			PQfreemem(n);
			if (ours)
				return true;
		}
		if (left <= 0)
		{
			report_timeout(rv);
			return false;
		}
		if (interrupt_signal() != 0 || !tell_waiting(rv, -1, now, &tell_at))
			return false;
		if (left > CHECK_US)
			left = CHECK_US;
		if (poll(&pfd, 1, (int) (left / 1000) + 1) < 0 && errno != EINTR)
		{
			diag_error("rendezvous \"%s\": poll failed: %s", rv->info.group, strerror(errno));
			return false;
		}
	}
}

/* The first thread at the gate: ready, then wait for the group. */
static bool
wait_for_group(rendezvous *rv)
{
	int64_t		instant = 0;

	if (!query_int(rv, "SELECT pg_catalog.pg_advisory_lock_shared($1::int4, $2::int4)",
				   2, KEY_READY, NULL))
		return false;
	if (!(rv->info.member == 0 ? lead(rv, &instant) : follow(rv, &instant)))
		return false;
	rv->info.start_server_us = instant;
	rv->start_mono = instant - rv->offset_mono;
	if (rv->start_target != NULL)
		*rv->start_target = rv->start_mono;
	if (rv->end_target != NULL && rv->duration_s > 0)
		*rv->end_target = rv->start_mono + (pg_time_usec_t) rv->duration_s * 1000000;
	return true;
}

bool
rendezvous_pass(rendezvous *rv, bool go)
{
	int			state;

	pthread_mutex_lock(&rv->lock);
	if (rv->state == RV_WAITING)
	{
		rv->state = go ? RV_BUSY : RV_FAILED;
		if (go)
		{
			/* the waiting is done outside the lock; the others wait on cond */
			pthread_mutex_unlock(&rv->lock);
			go = wait_for_group(rv);
			pthread_mutex_lock(&rv->lock);
			rv->state = go ? RV_DONE : RV_FAILED;
		}
		pthread_cond_broadcast(&rv->cond);
	}
	while (rv->state == RV_BUSY)
		pthread_cond_wait(&rv->cond, &rv->lock);
	state = rv->state;
	pthread_mutex_unlock(&rv->lock);
	if (state != RV_DONE)
		return false;
	sleep_until(rv->start_mono);
	return true;
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
