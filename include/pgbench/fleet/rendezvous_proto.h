/*
 * rendezvous_proto.h — what the --rendezvous protocol decides, as pure
 * functions of the server's answers and of our clock readings: no libpq,
 * no clock reads, no output.  rendezvous.c feeds them from its queries;
 * t/unit/test_rendezvous.c checks them without a server.  The protocol
 * itself is described in rendezvous.h.
 *
 * Thread-safety: every function works on its arguments only.
 */
#ifndef PGBENCH_RENDEZVOUS_PROTO_H
#define PGBENCH_RENDEZVOUS_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbench/base/common.h"

/* How far ahead of the announcement the start is, in us. */
#define RENDEZVOUS_MARGIN_US INT64_C(1000000)

/* Limits of --rendezvous=NAME:N. */
#define RENDEZVOUS_MAX_NAME 63
#define RENDEZVOUS_MAX_SIZE 10000

/* The second halves of the advisory lock keys (K, k). */
#define RVPROTO_KEY_STARTED 0	/* held by the leader while the group runs */
#define RVPROTO_KEY_READY 1		/* held shared by each ready member */
#define RVPROTO_KEY_SLOT0 2		/* member slot i is 2 + i */

/* Round trips of the clock measurement; the shortest is kept. */
#define RVPROTO_CLOCK_SAMPLES 7

/* How often a wait says what it waits for; a shorter one says nothing. */
#define RVPROTO_TELL_US INT64_C(5000000)

/* The longest a member waits before it looks for a signal, in us. */
#define RVPROTO_CHECK_US INT64_C(100000)

/*
 * How far an announced start may lie from where it should (now plus
 * RENDEZVOUS_MARGIN_US, on our clock) and still be accepted: the clock
 * offset's error is half a round trip, far less; a start further off is
 * not the leader's (or the server's clock jumped) and is refused.
 */
#define RVPROTO_START_SLACK_US INT64_C(10000000)

/* Room for the channel name: "pgbench_rendezvous_" and 8 hex digits. */
#define RVPROTO_CHANNEL_LEN 64

/*
 * Why a rendezvous failed, filled by the unit that failed and printed by
 * its caller as one "pgbench: error: " line (diag_error("%s", message)).
 * The buffer is as long as diag's longest line, so the words printed are
 * those that printing at the failure site would have shown.
 */
typedef struct rendezvous_error
{
	char		message[8192];	/* "" when nothing is to be said */
} rendezvous_error;

/* Fill err->message from fmt (cut to fit). */
void		rvproto_fail(rendezvous_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- names ---------------------------------------------------------------- */

/* K: the 31-bit FNV-1a hash of the group name, the first half of every key. */
int32_t		rvproto_name_key(const char *name);

/* The LISTEN channel of key K, "pgbench_rendezvous_<K as 8 hex digits>". */
void		rvproto_channel(int32_t key, char *buf, size_t len);

/*
 * The first value of a query's answer as an integer: text NULL (no row, or
 * SQL NULL) is -1, booleans "t" and "f" are 1 and 0, anything else is read
 * as a decimal number (strtoll, as our own queries' int8 and count).
 */
int64_t		rvproto_value(const char *text);

/* ---- joining -------------------------------------------------------------- */

typedef enum rvproto_join
{
	RVPROTO_JOINED,				/* *member is the slot taken */
	RVPROTO_TOO_LATE,			/* the leader holds "started" */
	RVPROTO_FULL,				/* every slot is taken */
} rvproto_join;

/*
 * A joiner's fate from the two lock answers: slot, the first slot it could
 * take (rvproto_value of the slot query: -1 none), and started_free,
 * whether "started" could be taken shared (1; 0: the group runs).  Too
 * late wins over full; a slot outside 0 .. size-1 counts as none.
 */
rvproto_join rvproto_join_decide(int64_t slot, int64_t started_free, int size, int *member);

/* The message of a refused joiner (j not RVPROTO_JOINED). */
void		rvproto_join_error(rvproto_join j, const char *group, int size,
							   rendezvous_error *err);

/* Whether the group is ready: holders of "ready" counted against its size. */
bool		rvproto_group_ready(int64_t holders, int size);

/* ---- clocks --------------------------------------------------------------- */

/* The clock measurement so far. */
typedef struct rvproto_clock
{
	int64_t		rtt_us;			/* shortest round trip; INT64_MAX: none yet */
	int64_t		offset_mono;	/* server epoch us minus our monotonic us */
} rvproto_clock;

void		rvproto_clock_init(rvproto_clock *c);

/*
 * One round trip: sent at t0, answered at t1 (our monotonic clock), the
 * server having read server_us (epoch us).  Kept when its round trip is
 * shorter than every earlier one (the first of equals stays), with the
 * midpoint as the instant the server read its clock.
 */
void		rvproto_clock_add(rvproto_clock *c, pg_time_usec_t t0, int64_t server_us,
							  pg_time_usec_t t1);

/*
 * The offset as the report gives it: the server's epoch time minus ours,
 * epoch_at_zero being our epoch time at monotonic 0 (pgb_time_to_epoch(0)).
 */
int64_t		rvproto_epoch_offset(const rvproto_clock *c, pg_time_usec_t epoch_at_zero);

/* ---- the start ------------------------------------------------------------ */

typedef enum rvproto_instant
{
	RVPROTO_INSTANT_OK,
	RVPROTO_INSTANT_MALFORMED,	/* not a decimal int8 */
	RVPROTO_INSTANT_IMPLAUSIBLE,	/* further than the slack from now + margin */
} rvproto_instant;

/*
 * Read an announced start (the leader's query answer or a NOTIFY payload:
 * untrusted text, NULL allowed): an optional '-' and 1 to 19 digits, no
 * space, nothing after, within int8.  Then convert it to our monotonic
 * clock (instant - offset_mono, overflow checked) and accept it only
 * within RVPROTO_START_SLACK_US of now + RENDEZVOUS_MARGIN_US.  Sets
 * *instant and *start only when it returns RVPROTO_INSTANT_OK.
 */
rvproto_instant rvproto_read_instant(const char *text, int64_t offset_mono, pg_time_usec_t now,
									 int64_t *instant, pg_time_usec_t *start);

/* The message of a refused announcement (r not RVPROTO_INSTANT_OK). */
void		rvproto_instant_error(rvproto_instant r, const char *group, rendezvous_error *err);

/*
 * The -T end that goes with an accepted start: start + duration_s
 * seconds, or 0 when duration_s is 0 (no -T).
 */
pg_time_usec_t rvproto_end(pg_time_usec_t start, int duration_s);

/* ---- waiting -------------------------------------------------------------- */

/* The deadline of a wait of timeout_s seconds begun at now. */
pg_time_usec_t rvproto_deadline(pg_time_usec_t now, int timeout_s);

/* Whether the wait is over: now at or past the deadline. */
bool		rvproto_timed_out(pg_time_usec_t now, pg_time_usec_t deadline);

/* The timeout's message: how many of size were ready. */
void		rvproto_timeout_error(const char *group, int timeout_s, int64_t ready, int size,
								  rendezvous_error *err);

/*
 * The waiting line's schedule: a wait begun at b first sets *next_at to
 * b + RVPROTO_TELL_US; a line is due when now reaches *next_at, which then
 * moves to now + RVPROTO_TELL_US.  Returns whether a line is due.
 */
bool		rvproto_tell_due(pg_time_usec_t now, pg_time_usec_t *next_at);

/*
 * The waiting line, with its newline: 'waiting at rendezvous "g": 1 of 3
 * ready, 55 s left', the seconds left rounded up (0 once past the deadline).
 */
void		rvproto_waiting_line(char *buf, size_t len, const char *group, int64_t ready, int size,
								 pg_time_usec_t now, pg_time_usec_t deadline);

/*
 * How long (ms) a member polls its connection with left us to the
 * deadline: at most RVPROTO_CHECK_US, one millisecond more than left so
 * that the wake-up comes after the deadline, never just before.
 */
int			rvproto_poll_ms(pg_time_usec_t left);

#endif
