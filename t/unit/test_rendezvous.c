/*
 * test_rendezvous.c — the decisions of the --rendezvous protocol
 * (rendezvous_proto.h) without a server: the keys and channel from the
 * name, a joiner's slot or refusal from the lock answers, readiness, the
 * clock offset kept from several round trips, the reading of an announced
 * start (the leader's answer or an untrusted NOTIFY payload) and its
 * conversion to our clock, the -T end, the timeout and the waiting line's
 * words and schedule.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/fleet/rendezvous_proto.h"
#include "tap.h"

#define SEC INT64_C(1000000)

/* ---- names and answers ---------------------------------------------------- */

typedef struct key_case
{
	const char *name;
	int32_t		key;			/* 31-bit FNV-1a, computed independently */
	const char *channel;
} key_case;

static const key_case key_cases[] = {
	{"", 0x011c9dc5, "pgbench_rendezvous_011c9dc5"},
	{"a", 0x640c292c, "pgbench_rendezvous_640c292c"},
	{"g", 0x620c2606, "pgbench_rendezvous_620c2606"},
	{"foobar", 0x3f9cf968, "pgbench_rendezvous_3f9cf968"},
	{"\xff\xfe", 0x501ebb10, "pgbench_rendezvous_501ebb10"},	/* bytes unsigned */
};

static void
test_names(void)
{
	char		longname[RENDEZVOUS_MAX_NAME + 1];
	char		channel[RVPROTO_CHANNEL_LEN];
	char		small[8];

	for (size_t i = 0; i < sizeof(key_cases) / sizeof(key_cases[0]); i++)
	{
		const key_case *c = &key_cases[i];

		tap_is_int(rvproto_name_key(c->name), c->key, "name_key of a name");
		rvproto_channel(rvproto_name_key(c->name), channel, sizeof(channel));
		tap_is_str(channel, c->channel, "channel of a name");
	}
	memset(longname, 'x', RENDEZVOUS_MAX_NAME);
	longname[RENDEZVOUS_MAX_NAME] = '\0';
	tap_is_int(rvproto_name_key(longname), 0x3511893f, "name_key of the longest name");
	tap_ok(rvproto_name_key(longname) >= 0, "a key is never negative (31 bits)");
	rvproto_channel(INT32_MAX, channel, sizeof(channel));
	tap_is_str(channel, "pgbench_rendezvous_7fffffff", "channel of the largest key");
	rvproto_channel(0, channel, sizeof(channel));
	tap_is_str(channel, "pgbench_rendezvous_00000000", "channel of key 0: 8 digits");
	rvproto_channel(1, small, sizeof(small));
	tap_is_str(small, "pgbench", "channel cut to a small buffer, terminated");
}

static void
test_values(void)
{
	tap_is_int(rvproto_value(NULL), -1, "value: no row or NULL is -1");
	tap_is_int(rvproto_value("t"), 1, "value: true is 1");
	tap_is_int(rvproto_value("f"), 0, "value: false is 0");
	tap_is_int(rvproto_value("0"), 0, "value: 0");
	tap_is_int(rvproto_value("3"), 3, "value: a slot");
	tap_is_int(rvproto_value("-1"), -1, "value: -1");
	tap_is_int(rvproto_value("1700000000123456"), INT64_C(1700000000123456),
			   "value: an epoch in us");
	tap_is_int(rvproto_value("9223372036854775807"), INT64_MAX, "value: the largest int8");
}

/* ---- joining -------------------------------------------------------------- */

typedef struct join_case
{
	const char *name;
	int64_t		slot;			/* the slot query's answer */
	int64_t		started_free;	/* the "started" probe's answer */
	int			size;
	rvproto_join expected;
	int			member;			/* when joined; else -7 stays */
} join_case;

static const join_case join_cases[] = {
	{"first of three leads", 0, 1, 3, RVPROTO_JOINED, 0},
	{"second of three", 1, 1, 3, RVPROTO_JOINED, 1},
	{"last slot of three", 2, 1, 3, RVPROTO_JOINED, 2},
	{"group of one", 0, 1, 1, RVPROTO_JOINED, 0},
	{"no free slot: full", -1, 1, 3, RVPROTO_FULL, -7},
	{"a slot past the size counts as none", 3, 1, 3, RVPROTO_FULL, -7},
	{"a nonsense slot counts as none", INT64_MAX, 1, 3, RVPROTO_FULL, -7},
	{"group running: too late", 1, 0, 3, RVPROTO_TOO_LATE, -7},
	{"running and full: too late wins", -1, 0, 3, RVPROTO_TOO_LATE, -7},
	{"largest group, last slot", RENDEZVOUS_MAX_SIZE - 1, 1, RENDEZVOUS_MAX_SIZE,
	RVPROTO_JOINED, RENDEZVOUS_MAX_SIZE - 1},
};

static void
test_join(void)
{
	rendezvous_error err;

	for (size_t i = 0; i < sizeof(join_cases) / sizeof(join_cases[0]); i++)
	{
		const join_case *c = &join_cases[i];
		int			member = -7;
		rvproto_join got = rvproto_join_decide(c->slot, c->started_free, c->size, &member);

		tap_ok(got == c->expected, "join: %s", c->name);
		tap_is_int(member, c->member, c->name);
	}
	rvproto_join_error(RVPROTO_TOO_LATE, "g", 3, &err);
	tap_is_str(err.message, "rendezvous \"g\" has already started: this instance came too late",
			   "too late: the message");
	rvproto_join_error(RVPROTO_FULL, "g", 3, &err);
	tap_is_str(err.message, "rendezvous \"g\" is full: 3 instances have joined it already",
			   "full: the message");
}

static void
test_ready(void)
{
	tap_ok(!rvproto_group_ready(0, 3), "ready: none of 3");
	tap_ok(!rvproto_group_ready(2, 3), "ready: 2 of 3 is not");
	tap_ok(rvproto_group_ready(3, 3), "ready: 3 of 3");
	tap_ok(rvproto_group_ready(4, 3), "ready: more holders than the size (a late joiner's)");
	tap_ok(rvproto_group_ready(1, 1), "ready: group of one");
	tap_ok(!rvproto_group_ready(-1, 1), "ready: an unknown count is not");
}

/* ---- clocks --------------------------------------------------------------- */

static void
test_clock(void)
{
	rvproto_clock c;
	/* {t0, server, t1}: seven round trips, the fifth the shortest (40 us) */
	static const int64_t samples[RVPROTO_CLOCK_SAMPLES][3] = {
		{1000, 5000, 1100},
		{2000, 7000, 2300},
		{3000, 9000, 3050},
		{4000, 11000, 4050},	/* as short as the third: not kept */
		{5000, 13000, 5040},
		{6000, 15000, 6500},
		{7000, 17000, 7041},
	};

	rvproto_clock_init(&c);
	tap_is_int(c.rtt_us, INT64_MAX, "clock: no round trip yet");
	rvproto_clock_add(&c, 1000, 5000, 1100);
	tap_is_int(c.rtt_us, 100, "clock: the first round trip is kept");
	tap_is_int(c.offset_mono, 5000 - 1050, "clock: offset from the midpoint");
	rvproto_clock_add(&c, 2000, 7000, 2300);
	tap_is_int(c.rtt_us, 100, "clock: a longer round trip is not kept");
	tap_is_int(c.offset_mono, 3950, "clock: nor its offset");

	rvproto_clock_init(&c);
	for (int i = 0; i < RVPROTO_CLOCK_SAMPLES; i++)
		rvproto_clock_add(&c, samples[i][0], samples[i][1], samples[i][2]);
	tap_is_int(c.rtt_us, 40, "clock: the shortest of seven");
	tap_is_int(c.offset_mono, 13000 - 5020, "clock: the offset of the shortest");

	rvproto_clock_init(&c);
	rvproto_clock_add(&c, 3000, 9000, 3050);
	rvproto_clock_add(&c, 4000, 11000, 4050);
	tap_is_int(c.offset_mono, 9000 - 3025, "clock: of equal round trips the first stays");

	rvproto_clock_init(&c);
	rvproto_clock_add(&c, 10, 100, 13);
	tap_is_int(c.offset_mono, 100 - 11, "clock: an odd round trip's midpoint rounds down");
	rvproto_clock_add(&c, 20, 100, 20);
	tap_is_int(c.rtt_us, 0, "clock: a round trip under a microsecond");
	tap_is_int(c.offset_mono, 80, "clock: its offset");

	rvproto_clock_init(&c);
	rvproto_clock_add(&c, INT64_MAX - 10, 0, INT64_MAX);
	tap_is_int(c.offset_mono, -(INT64_MAX - 5), "clock: a midpoint near the top, no overflow");

	rvproto_clock_init(&c);
	rvproto_clock_add(&c, 5 * SEC, INT64_C(1700000000000000), 5 * SEC + 200);
	tap_is_int(rvproto_epoch_offset(&c, INT64_C(1699999995000000)), -100,
			   "clock: epoch offset, the server 100 us behind us");
}

/* ---- the start ------------------------------------------------------------ */

/* Our clock: now is 5 s after boot, the server's epoch 1.7e15 us then. */
#define NOW (5 * SEC)
#define OFFSET (INT64_C(1700000000000000) - NOW)

typedef struct instant_case
{
	const char *name;
	const char *text;
	rvproto_instant expected;
	pg_time_usec_t start;		/* when accepted */
} instant_case;

static const instant_case instant_cases[] = {
	{"the leader's instant: 1 s ahead", "1700000001000000", RVPROTO_INSTANT_OK, NOW + SEC},
	{"received late: now", "1700000000000000", RVPROTO_INSTANT_OK, NOW},
	{"slack: the earliest accepted", "1699999991000000", RVPROTO_INSTANT_OK, NOW - 9 * SEC},
	{"slack: the latest accepted", "1700000011000000", RVPROTO_INSTANT_OK, NOW + 11 * SEC},
	{"slack: 1 us too early", "1699999990999999", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"slack: 1 us too late", "1700000011000001", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"zero (strtoll of garbage)", "0", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"a year ahead", "1731536000000000", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"the largest int8", "9223372036854775807", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"the smallest int8: conversion overflows", "-9223372036854775808",
	RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"negative", "-1700000001000000", RVPROTO_INSTANT_IMPLAUSIBLE, 0},
	{"leading zeros within 19 digits", "0001700000001000000", RVPROTO_INSTANT_OK, NOW + SEC},
	{"NULL", NULL, RVPROTO_INSTANT_MALFORMED, 0},
	{"empty", "", RVPROTO_INSTANT_MALFORMED, 0},
	{"a sign alone", "-", RVPROTO_INSTANT_MALFORMED, 0},
	{"a plus sign", "+1700000001000000", RVPROTO_INSTANT_MALFORMED, 0},
	{"two minus signs", "--1", RVPROTO_INSTANT_MALFORMED, 0},
	{"leading space", " 1700000001000000", RVPROTO_INSTANT_MALFORMED, 0},
	{"trailing space", "1700000001000000 ", RVPROTO_INSTANT_MALFORMED, 0},
	{"trailing newline", "1700000001000000\n", RVPROTO_INSTANT_MALFORMED, 0},
	{"trailing garbage", "1700000001000000x", RVPROTO_INSTANT_MALFORMED, 0},
	{"words", "start now", RVPROTO_INSTANT_MALFORMED, 0},
	{"a fraction", "1700000001000000.5", RVPROTO_INSTANT_MALFORMED, 0},
	{"an exponent", "1.7e15", RVPROTO_INSTANT_MALFORMED, 0},
	{"hex", "0x60a24181e4000", RVPROTO_INSTANT_MALFORMED, 0},
	{"one past the largest int8", "9223372036854775808", RVPROTO_INSTANT_MALFORMED, 0},
	{"one below the smallest int8", "-9223372036854775809", RVPROTO_INSTANT_MALFORMED, 0},
	{"20 digits", "17000000010000000000", RVPROTO_INSTANT_MALFORMED, 0},
	{"20 digits, leading zeros", "00001700000001000000", RVPROTO_INSTANT_MALFORMED, 0},
	{"a terminal escape", "\x1b]0;owned\x07", RVPROTO_INSTANT_MALFORMED, 0},
};

static void
test_instant(void)
{
	char		huge[8000];
	rendezvous_error err;

	for (size_t i = 0; i < sizeof(instant_cases) / sizeof(instant_cases[0]); i++)
	{
		const instant_case *c = &instant_cases[i];
		int64_t		instant = -7;
		pg_time_usec_t start = -7;
		rvproto_instant got = rvproto_read_instant(c->text, OFFSET, NOW, &instant, &start);

		tap_ok(got == c->expected, "instant: %s", c->name);
		if (c->expected == RVPROTO_INSTANT_OK)
		{
			tap_is_int(start, c->start, "instant: on our clock");
			tap_is_int(instant + 0, start + OFFSET, "instant: the server's, kept");
		}
		else
			tap_ok(instant == -7 && start == -7, "instant: nothing set when refused");
	}
	memset(huge, '7', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	{
		int64_t		instant;
		pg_time_usec_t start;

		tap_ok(rvproto_read_instant(huge, OFFSET, NOW, &instant, &start) ==
			   RVPROTO_INSTANT_MALFORMED, "instant: 8000 digits, refused");
		tap_ok(rvproto_read_instant("1", INT64_MIN, NOW, &instant, &start) ==
			   RVPROTO_INSTANT_IMPLAUSIBLE, "instant: an offset that overflows the conversion");
		tap_ok(rvproto_read_instant("1", 0, INT64_MAX, &instant, &start) ==
			   RVPROTO_INSTANT_IMPLAUSIBLE, "instant: now + margin overflowing");
	}
	rvproto_instant_error(RVPROTO_INSTANT_MALFORMED, "g", &err);
	tap_is_str(err.message,
			   "rendezvous \"g\": refused an announcement that is not a start instant",
			   "instant: the message of a malformed one");
	rvproto_instant_error(RVPROTO_INSTANT_IMPLAUSIBLE, "g", &err);
	tap_is_str(err.message, "rendezvous \"g\": refused an announced start more than 10 s off"
			   " the expected instant, 1 s ahead", "instant: the message of a far one");
}

static void
test_end(void)
{
	tap_is_int(rvproto_end(NOW + SEC, 0), 0, "end: none without -T");
	tap_is_int(rvproto_end(NOW + SEC, 60), NOW + 61 * SEC, "end: -T 60 from the start");
	tap_is_int(rvproto_end(NOW, 1), NOW + SEC, "end: -T 1");
	tap_is_int(rvproto_end(NOW, INT_MAX), NOW + (int64_t) INT_MAX * SEC,
			   "end: the largest -T, no overflow");
}

/* ---- waiting -------------------------------------------------------------- */

static void
test_timeout(void)
{
	pg_time_usec_t deadline = rvproto_deadline(NOW, 60);
	rendezvous_error err;

	tap_is_int(deadline, NOW + 60 * SEC, "deadline: 60 s from the join");
	tap_is_int(rvproto_deadline(NOW, 0), NOW, "deadline: timeout 0 is now");
	tap_is_int(rvproto_deadline(NOW, INT_MAX), NOW + (int64_t) INT_MAX * SEC,
			   "deadline: the largest timeout, no overflow");
	tap_ok(!rvproto_timed_out(deadline - 1, deadline), "timed out: not 1 us before");
	tap_ok(rvproto_timed_out(deadline, deadline), "timed out: at the deadline");
	tap_ok(rvproto_timed_out(deadline + SEC, deadline), "timed out: after it");
	rvproto_timeout_error("g", 60, 2, 3, &err);
	tap_is_str(err.message, "rendezvous \"g\" timed out after 60 s: 2 of 3 instances were ready",
			   "timeout: the message");
	rvproto_timeout_error("g", 1, 0, 1, &err);
	tap_is_str(err.message, "rendezvous \"g\" timed out after 1 s: 0 of 1 instances were ready",
			   "timeout: the message, none ready");
}

/*
 * Walk a wait from its beginning at b in steps of step_us (the leader's
 * 20 ms polls, a member's 100 ms ones) and note when lines are due.
 */
static int
due_times(pg_time_usec_t b, pg_time_usec_t step_us, pg_time_usec_t until, pg_time_usec_t *at,
		  int max)
{
	pg_time_usec_t next_at = b + RVPROTO_TELL_US;
	int			n = 0;

	for (pg_time_usec_t now = b; now <= until; now += step_us)
		if (rvproto_tell_due(now, &next_at) && n < max)
			at[n++] = now - b;
	return n;
}

static void
test_schedule(void)
{
	pg_time_usec_t at[8];
	pg_time_usec_t next_at = NOW + RVPROTO_TELL_US;
	int			n;

	tap_ok(!rvproto_tell_due(NOW, &next_at), "schedule: nothing at the start");
	tap_ok(!rvproto_tell_due(NOW + RVPROTO_TELL_US - 1, &next_at), "schedule: nor 1 us before 5 s");
	tap_is_int(next_at, NOW + RVPROTO_TELL_US, "schedule: a line not due moves nothing");
	tap_ok(rvproto_tell_due(NOW + RVPROTO_TELL_US, &next_at), "schedule: first at 5 s");
	tap_is_int(next_at, NOW + 2 * RVPROTO_TELL_US, "schedule: the next 5 s later");
	tap_ok(!rvproto_tell_due(NOW + RVPROTO_TELL_US, &next_at), "schedule: once");
	tap_ok(rvproto_tell_due(NOW + 13 * SEC, &next_at), "schedule: a late check is due");
	tap_is_int(next_at, NOW + 18 * SEC, "schedule: and counts from when it told");

	n = due_times(NOW, 20000, NOW + 16 * SEC, at, 8);
	tap_is_int(n, 3, "schedule: three lines in 16 s of 20 ms polls");
	tap_ok(n == 3 && at[0] == 5 * SEC && at[1] == 10 * SEC && at[2] == 15 * SEC,
		   "schedule: at 5, 10 and 15 s");
	n = due_times(NOW, 130000, NOW + 16 * SEC, at, 8);
	tap_is_int(n, 3, "schedule: three lines in 16 s of 130 ms polls");
	tap_ok(n == 3 && at[0] == 5070000 && at[1] == 10140000 && at[2] == 15210000,
		   "schedule: each 5 s after the one before, at the first poll due");
	n = due_times(NOW, 20000, NOW + 4990000, at, 8);
	tap_is_int(n, 0, "schedule: a wait under 5 s says nothing");
}

static void
test_waiting_line(void)
{
	pg_time_usec_t deadline = rvproto_deadline(NOW, 60);
	char		line[RENDEZVOUS_MAX_NAME + 128];
	char		longname[RENDEZVOUS_MAX_NAME + 1];
	char		expected[RENDEZVOUS_MAX_NAME + 128];
	char		small[12];

	rvproto_waiting_line(line, sizeof(line), "g", 1, 3, NOW + 5 * SEC, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 1 of 3 ready, 55 s left\n",
			   "line: the first, at 5 s of 60");
	rvproto_waiting_line(line, sizeof(line), "g", 2, 3, NOW + 10 * SEC, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 2 of 3 ready, 50 s left\n",
			   "line: the second, at 10 s");
	rvproto_waiting_line(line, sizeof(line), "g", 2, 3, NOW + 10 * SEC + 1, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 2 of 3 ready, 50 s left\n",
			   "line: seconds left round up");
	rvproto_waiting_line(line, sizeof(line), "g", 2, 3, NOW + 11 * SEC - 1, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 2 of 3 ready, 50 s left\n",
			   "line: seconds left round up, 1 us short");
	rvproto_waiting_line(line, sizeof(line), "g", 2, 3, NOW + 11 * SEC, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 2 of 3 ready, 49 s left\n",
			   "line: a whole second");
	rvproto_waiting_line(line, sizeof(line), "g", 0, 3, deadline - 1, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 0 of 3 ready, 1 s left\n",
			   "line: 1 us left is 1 s");
	rvproto_waiting_line(line, sizeof(line), "g", 0, 3, deadline, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 0 of 3 ready, 0 s left\n",
			   "line: none left");
	rvproto_waiting_line(line, sizeof(line), "g", 0, 3, deadline + 7 * SEC, deadline);
	tap_is_str(line, "waiting at rendezvous \"g\": 0 of 3 ready, 0 s left\n",
			   "line: past the deadline, 0, never negative");
	memset(longname, 'n', RENDEZVOUS_MAX_NAME);
	longname[RENDEZVOUS_MAX_NAME] = '\0';
	rvproto_waiting_line(line, sizeof(line), longname, RENDEZVOUS_MAX_SIZE,
						 RENDEZVOUS_MAX_SIZE, NOW, rvproto_deadline(NOW, INT_MAX));
	snprintf(expected, sizeof(expected), "waiting at rendezvous \"%s\": 10000 of 10000 ready,"
			 " 2147483647 s left\n", longname);
	tap_is_str(line, expected, "line: the longest name and numbers fit");
	rvproto_waiting_line(small, sizeof(small), "g", 1, 3, NOW, deadline);
	tap_is_str(small, "waiting at ", "line: cut to a small buffer, terminated");
}

static void
test_poll(void)
{
	tap_is_int(rvproto_poll_ms(60 * SEC), 101, "poll: at most a tenth of a second, + 1 ms");
	tap_is_int(rvproto_poll_ms(RVPROTO_CHECK_US), 101, "poll: exactly the check");
	tap_is_int(rvproto_poll_ms(99999), 100, "poll: just under it");
	tap_is_int(rvproto_poll_ms(2500), 3, "poll: 2.5 ms left: 3 ms");
	tap_is_int(rvproto_poll_ms(1), 1, "poll: 1 us left: 1 ms");
	tap_is_int(rvproto_poll_ms(0), 1, "poll: none left: 1 ms");
	tap_is_int(rvproto_poll_ms(-SEC), 1, "poll: past: 1 ms, never negative");
}

static void
test_fail(void)
{
	rendezvous_error err;
	static char long_text[10000];

	rvproto_fail(&err, "rendezvous \"%s\": %s", "g", "FATAL:  no such database\n");
	tap_is_str(err.message, "rendezvous \"g\": FATAL:  no such database\n",
			   "fail: the server's message kept as is");
	memset(long_text, 'e', sizeof(long_text) - 1);
	rvproto_fail(&err, "%s", long_text);
	tap_is_int((int64_t) strlen(err.message), (int64_t) sizeof(err.message) - 1,
			   "fail: a long message cut to the record, terminated");
}

int
main(void)
{
	test_names();
	test_values();
	test_join();
	test_ready();
	test_clock();
	test_instant();
	test_end();
	test_timeout();
	test_schedule();
	test_waiting_line();
	test_poll();
	test_fail();
	return tap_done();
}
