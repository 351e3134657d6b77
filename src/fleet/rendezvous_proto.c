/*
 * rendezvous_proto.c — the decisions of the --rendezvous protocol (keys,
 * joining, readiness, the clock offset, the start, the waiting line), as
 * pure functions of the answers rendezvous.c gets from the server.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "pgbench/fleet/rendezvous_proto.h"

/* The longest decimal int8 without its sign: 9223372036854775807. */
#define INT8_DIGITS 19

void
rvproto_fail(rendezvous_error *err, const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

int32_t
rvproto_name_key(const char *name)
{
	uint32_t	h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *) name; *p != '\0'; p++)
		h = (h ^ *p) * 16777619u;
	return (int32_t) (h & 0x7fffffff);
}

void
rvproto_channel(int32_t key, char *buf, size_t len)
{
	snprintf(buf, len, "pgbench_rendezvous_%08" PRIx32, (uint32_t) key);
}

int64_t
rvproto_value(const char *text)
{
	if (text == NULL)
		return -1;
	/* booleans come as "t" / "f" */
	if (text[0] == 't')
		return 1;
	if (text[0] == 'f')
		return 0;
	return strtoll(text, NULL, 10);
}

rvproto_join
rvproto_join_decide(int64_t slot, int64_t started_free, int size, int *member)
{
	if (started_free == 0)
		return RVPROTO_TOO_LATE;
	if (slot < 0 || slot >= size)
		return RVPROTO_FULL;
	*member = (int) slot;
	return RVPROTO_JOINED;
}

void
rvproto_join_error(rvproto_join j, const char *group, int size, rendezvous_error *err)
{
	if (j == RVPROTO_TOO_LATE)
		rvproto_fail(err, "rendezvous \"%s\" has already started: this instance came too late",
					 group);
	else
		rvproto_fail(err, "rendezvous \"%s\" is full: %d instances have joined it already",
					 group, size);
}

bool
rvproto_group_ready(int64_t holders, int size)
{
	return holders >= size;
}

void
rvproto_clock_init(rvproto_clock *c)
{
	c->rtt_us = INT64_MAX;
	c->offset_mono = 0;
}

void
rvproto_clock_add(rvproto_clock *c, pg_time_usec_t t0, int64_t server_us, pg_time_usec_t t1)
{
	if (t1 - t0 < c->rtt_us)
	{
		c->rtt_us = t1 - t0;
		/* the midpoint, as (t0 + t1) / 2 without its overflow */
		c->offset_mono = server_us - (t0 + (t1 - t0) / 2);
	}
}

int64_t
rvproto_epoch_offset(const rvproto_clock *c, pg_time_usec_t epoch_at_zero)
{
	return c->offset_mono - epoch_at_zero;
}

/* Strictly a decimal int8: [-]digits, nothing else; false otherwise. */
static bool
parse_int8(const char *text, int64_t *out)
{
	const char *p = text;
	bool		negative = false;
	uint64_t	v = 0;
	uint64_t	limit;
	int			ndigits = 0;

	if (p == NULL)
		return false;
	if (*p == '-')
	{
		negative = true;
		p++;
	}
	limit = negative ? (uint64_t) INT64_MAX + 1 : (uint64_t) INT64_MAX;
	for (; *p >= '0' && *p <= '9'; p++)
	{
		if (++ndigits > INT8_DIGITS)
			return false;
		v = v * 10 + (uint64_t) (*p - '0');
	}
	if (ndigits == 0 || *p != '\0' || v > limit)
		return false;
	/* -2^63 has no positive twin: negate in unsigned arithmetic */
	*out = negative ? (int64_t) (0 - v) : (int64_t) v;
	return true;
}

rvproto_instant
rvproto_read_instant(const char *text, int64_t offset_mono, pg_time_usec_t now,
					 int64_t *instant, pg_time_usec_t *start)
{
	int64_t		v;
	int64_t		mono;
	int64_t		expected;

	if (!parse_int8(text, &v))
		return RVPROTO_INSTANT_MALFORMED;
	if (__builtin_sub_overflow(v, offset_mono, &mono) ||
		__builtin_add_overflow(now, RENDEZVOUS_MARGIN_US, &expected) ||
		mono < expected - RVPROTO_START_SLACK_US || mono > expected + RVPROTO_START_SLACK_US)
		return RVPROTO_INSTANT_IMPLAUSIBLE;
	*instant = v;
	*start = mono;
	return RVPROTO_INSTANT_OK;
}

void
rvproto_instant_error(rvproto_instant r, const char *group, rendezvous_error *err)
{
	/* the payload is not quoted: anyone may NOTIFY on the channel */
	if (r == RVPROTO_INSTANT_MALFORMED)
		rvproto_fail(err, "rendezvous \"%s\": refused an announcement that is not a start instant",
					 group);
	else
		rvproto_fail(err, "rendezvous \"%s\": refused an announced start more than %d s off"
					 " the expected instant, %d s ahead", group,
					 (int) (RVPROTO_START_SLACK_US / 1000000),
					 (int) (RENDEZVOUS_MARGIN_US / 1000000));
}

pg_time_usec_t
rvproto_end(pg_time_usec_t start, int duration_s)
{
	return duration_s > 0 ? start + (pg_time_usec_t) duration_s * 1000000 : 0;
}

pg_time_usec_t
rvproto_deadline(pg_time_usec_t now, int timeout_s)
{
	return now + (pg_time_usec_t) timeout_s * 1000000;
}

bool
rvproto_timed_out(pg_time_usec_t now, pg_time_usec_t deadline)
{
	return now >= deadline;
}

void
rvproto_timeout_error(const char *group, int timeout_s, int64_t ready, int size,
					  rendezvous_error *err)
{
	rvproto_fail(err, "rendezvous \"%s\" timed out after %d s: %" PRId64 " of %d instances"
				 " were ready", group, timeout_s, ready, size);
}

bool
rvproto_tell_due(pg_time_usec_t now, pg_time_usec_t *next_at)
{
	if (now < *next_at)
		return false;
	*next_at = now + RVPROTO_TELL_US;
	return true;
}

void
rvproto_waiting_line(char *buf, size_t len, const char *group, int64_t ready, int size,
					 pg_time_usec_t now, pg_time_usec_t deadline)
{
	pg_time_usec_t left = deadline - now;

	snprintf(buf, len, "waiting at rendezvous \"%s\": %" PRId64 " of %d ready, %" PRId64
			 " s left\n", group, ready, size, (int64_t) ((left > 0 ? left : 0) + 999999) / 1000000);
}

int
rvproto_poll_ms(pg_time_usec_t left)
{
	if (left > RVPROTO_CHECK_US)
		left = RVPROTO_CHECK_US;
	if (left < 0)
		left = 0;
	return (int) (left / 1000) + 1;
}
