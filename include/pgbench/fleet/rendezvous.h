/*
 * rendezvous.h — --rendezvous=NAME:N: several pgbench instances, on as
 * many client machines, begin their measured phase at one instant of the
 * server's clock, agreed through the server under test and nothing else
 * (doc/fleet.md).
 *
 * The protocol needs only CONNECT and functions every role may call:
 * session advisory locks, LISTEN/NOTIFY and the pg_locks view.  Every key
 * is a pair (K, k) with K a 31-bit hash of NAME:
 *   k = 0        "started": held exclusively by the leader during the run;
 *                a joiner that cannot take it shared is too late
 *   k = 1        "ready": held shared by each member whose connections are
 *                up; the leader counts its holders in pg_locks
 *   k = 2 + i    member slot i (0 .. N-1), exclusive: the first free slot
 *                is the member's index; slot 0's holder is the leader
 * When N members are ready, the leader takes "started" and announces
 * server time + RENDEZVOUS_MARGIN_US with pg_notify on the channel
 * pgbench_rendezvous_<K in hex>, which the members LISTEN on.  Each member
 * converts the instant to its own monotonic clock with the offset it
 * measured (a few SELECT clock_timestamp() round trips, the one with the
 * smallest round trip kept) and sleeps until then.
 *
 * Life cycle, all from the orchestrator except rendezvous_pass:
 *   rendezvous_open   before the threads: connect, measure the offset,
 *                     LISTEN, take a slot (a late or surplus joiner is
 *                     refused here)
 *   rendezvous_bind   where the agreed start and -T end are to be written
 *   rendezvous_pass   every worker thread once, after its connections (the
 *                     GO point): the first one does the waiting, all sleep
 *                     until the instant
 *   rendezvous_start  the -P timer's thread: the agreed start, once known
 *   rendezvous_close  after the run: UNLISTEN, unlock, disconnect
 * This is start-up code, but it prints no error: a failure is a status
 * and a caller-owned rendezvous_error (rendezvous_proto.h), which the
 * caller prints with diag_error; the run then exits with status 1.  The
 * one thing printed here is progress: the waiting line (below), written
 * to stderr when it is true, from the thread that waits.
 *
 * What the protocol decides (keys, joining, readiness, the clock offset,
 * the start, the waiting line's schedule) is in rendezvous_proto.h, as
 * pure functions; this file feeds them the server's answers.
 *
 * Thread-safety: open, bind and close before or after the workers;
 * pass and start from any thread while they run (one mutex inside).
 */
#ifndef PGBENCH_RENDEZVOUS_H
#define PGBENCH_RENDEZVOUS_H

#include <pthread.h>

#include "pgbench/base/common.h"
#include "pgbench/conn/conn.h"
#include "pgbench/fleet/rendezvous_proto.h"

/* What a rendezvous call came to. */
typedef enum rendezvous_status
{
	RENDEZVOUS_OK,
	RENDEZVOUS_FAILED,			/* the error record says why */
	RENDEZVOUS_STOPPED,			/* a signal, or the run is off: nothing to say */
} rendezvous_status;

/* What the report files record of a rendezvous (doc/report-json.md). */
typedef struct rendezvous_info
{
	char		group[RENDEZVOUS_MAX_NAME + 1];	/* NAME */
	int			size;			/* N */
	int			member;			/* slot taken: 0-based order of joining */
	int64_t		start_server_us;	/* the agreed start, server clock, epoch us */
	int64_t		clock_offset_us;	/* server clock minus ours (epoch us) */
	int64_t		clock_rtt_us;	/* round trip of the measurement kept */
} rendezvous_info;

typedef struct rendezvous
{
	rendezvous_info info;
	PGconn	   *conn;			/* held for the whole run (the locks) */
	int32_t		key;			/* K: 31-bit hash of the name */
	char		channel[RVPROTO_CHANNEL_LEN];	/* pgbench_rendezvous_<K> */
	pg_time_usec_t deadline;	/* the timeout, pgb_time_now clock */
	int			timeout_s;
	int64_t		offset_mono;	/* server epoch us minus our monotonic us */
	pg_time_usec_t *start_target;	/* rendezvous_bind: written once decided */
	pg_time_usec_t *end_target;
	int			duration_s;		/* -T; 0: none */
	rendezvous_error *err;		/* where a failure is told (open, then bind) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int			state;			/* under lock: RV_* in rendezvous.c */
	rendezvous_status result;	/* under lock: the wait's, once RV_DONE or
								 * RV_FAILED */
	pg_time_usec_t start_mono;	/* the agreed start on our clock, once known */
} rendezvous;

/*
 * Join group name of size members on a connection made from params:
 * measure the clock offset, LISTEN, take a member slot.  timeout_s
 * bounds the whole wait (counted from now).  Returns RENDEZVOUS_FAILED
 * with *err filled when the server cannot be reached or answers with an
 * error, the group has already started, or is full; RENDEZVOUS_STOPPED
 * when a signal ended the connection attempt (*err left alone).  rv may
 * then be given to rendezvous_close.  *err is also where failures go
 * until rendezvous_bind names another record.
 */
rendezvous_status rendezvous_open(rendezvous *rv, const conn_params *params, const char *name,
								  int size, int timeout_s, rendezvous_error *err);

/*
 * Where the agreed start (pgb_time_now clock) and, with duration_s > 0,
 * the -T end go, written by the thread that waits for the group before
 * any thread leaves rendezvous_pass; and err, where that thread tells why
 * the wait failed (the caller prints it after joining the workers).
 */
void		rendezvous_bind(rendezvous *rv, pg_time_usec_t *start, pg_time_usec_t *end,
							int duration_s, rendezvous_error *err);

/*
 * A worker at the GO point; go false: its connections failed (the run is
 * off).  The first caller waits for the group (the leader: until N are
 * ready, then announces), the others for it; then each sleeps until the
 * agreed start.  Returns RENDEZVOUS_OK, or what the wait came to for
 * every caller: RENDEZVOUS_FAILED after a timeout, a server error or a
 * refused announcement (bind's record filled once, by the thread that
 * waited), RENDEZVOUS_STOPPED when go was false or after a SIGINT or
 * SIGTERM (interrupt.h; seen within a tenth of a second, nothing to say).
 * A wait longer than 5 s says every 5 s on stderr how many are ready and
 * how long is left.
 */
rendezvous_status rendezvous_pass(rendezvous *rv, bool go);

/*
 * Block until the start is decided; returns it (pgb_time_now clock), or
 * 0 when the rendezvous failed.
 */
pg_time_usec_t rendezvous_start(rendezvous *rv);

/* UNLISTEN, release the locks, disconnect.  Safe on a failed open. */
void		rendezvous_close(rendezvous *rv);

#endif
