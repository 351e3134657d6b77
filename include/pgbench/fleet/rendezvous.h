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
 * This is start-up code: failures print pgbench-style messages
 * (diag.h) and make the run exit with status 1.
 *
 * Thread-safety: open, bind and close before or after the workers;
 * pass and start from any thread while they run (one mutex inside).
 */
#ifndef PGBENCH_RENDEZVOUS_H
#define PGBENCH_RENDEZVOUS_H

#include <pthread.h>

#include "pgbench/base/common.h"
#include "pgbench/conn/conn.h"

/* How far ahead of the announcement the start is, in us. */
#define RENDEZVOUS_MARGIN_US INT64_C(1000000)

/* Limits of --rendezvous=NAME:N. */
#define RENDEZVOUS_MAX_NAME 63
#define RENDEZVOUS_MAX_SIZE 10000

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
	char		channel[64];	/* pgbench_rendezvous_<K> */
	pg_time_usec_t deadline;	/* the timeout, pgb_time_now clock */
	int			timeout_s;
	int64_t		offset_mono;	/* server epoch us minus our monotonic us */
	pg_time_usec_t *start_target;	/* rendezvous_bind: written once decided */
	pg_time_usec_t *end_target;
	int			duration_s;		/* -T; 0: none */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int			state;			/* under lock: RV_* in rendezvous.c */
	pg_time_usec_t start_mono;	/* the agreed start on our clock, once known */
} rendezvous;

/*
 * Join group name of size members on a connection made from params:
 * measure the clock offset, LISTEN, take a member slot.  timeout_s
 * bounds the whole wait (counted from now).  Prints why and returns false
 * when the server cannot be reached, the group has already started, or
 * is full; rv may then be given to rendezvous_close.
 */
bool		rendezvous_open(rendezvous *rv, const conn_params *params, const char *name,
							int size, int timeout_s);

/*
 * Where the agreed start (pgb_time_now clock) and, with duration_s > 0,
 * the -T end go, written by the thread that waits for the group before
 * any thread leaves rendezvous_pass.
 */
void		rendezvous_bind(rendezvous *rv, pg_time_usec_t *start, pg_time_usec_t *end,
							int duration_s);

/*
 * A worker at the GO point; go false: its connections failed (the run is
 * off).  The first caller waits for the group (the leader: until N are
 * ready, then announces), the others for it; then each sleeps until the
 * agreed start.  Returns false when the run is off, after a timeout (the
 * message printed once), when go was false, or after a SIGINT or SIGTERM
 * (interrupt.h; seen within a tenth of a second, nothing printed).  A wait
 * longer than 5 s says every 5 s on stderr how many are ready and how
 * long is left.
 */
bool		rendezvous_pass(rendezvous *rv, bool go);

/*
 * Block until the start is decided; returns it (pgb_time_now clock), or
 * 0 when the rendezvous failed.
 */
pg_time_usec_t rendezvous_start(rendezvous *rv);

/* UNLISTEN, release the locks, disconnect.  Safe on a failed open. */
void		rendezvous_close(rendezvous *rv);

#endif
