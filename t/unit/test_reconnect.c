/*
 * test_reconnect.c — the reconnect unit: which SQLSTATEs mean a lost
 * connection, the backoff sequence, and the outage counts and their merge.
 */
#include <stdio.h>

#include "pgbench/failure/reconnect.h"
#include "pgbench/engine/retry.h"
#include "tap.h"

/* The SQLSTATEs that mean a lost connection, and some that do not. */
static const char *const LOST[] = {"08000", "08006", "08P01", "57P01", "57P02", "57P03", "57P05"};
static const char *const NOT_LOST[] = {"57014", "57P04", "40001", "0800", "080000", ""};

static void
test_sqlstates(void)
{
	for (size_t i = 0; i < sizeof(LOST) / sizeof(LOST[0]); i++)
		tap_ok(reconnect_sqlstate_lost(LOST[i]), "%s: lost", LOST[i]);
	for (size_t i = 0; i < sizeof(NOT_LOST) / sizeof(NOT_LOST[0]); i++)
		tap_ok(!reconnect_sqlstate_lost(NOT_LOST[i]), "\"%s\": not lost", NOT_LOST[i]);
	tap_ok(!reconnect_sqlstate_lost(NULL), "no SQLSTATE: not lost");
	tap_is_int(retry_outcome(RETRY_ERROR_CONNECTION), STATS_CONNECTION_FAILURE,
			   "a lost connection fails the transaction as a connection failure");
}

static void
test_backoff(void)
{
	static const pg_time_usec_t expected[] = {
		10000, 20000, 40000, 80000, 160000, 320000, 640000, 1000000, 1000000,
	};
	pg_time_usec_t wait = 0;
	char		name[64];

	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
	{
		wait = reconnect_backoff(wait);
		snprintf(name, sizeof(name), "backoff %zu", i + 1);
		tap_is_int(wait, expected[i], name);
	}
	tap_is_int(reconnect_backoff(-5), RECONNECT_BACKOFF_MIN, "a negative last wait starts over");
}

static void
test_counts(void)
{
	reconnect_stats a = {0},
				b = {0};
	pg_time_usec_t c0 = 0,
				c1 = 0,
				c2 = 0;

	/* client 0: down 1000..1500 and 3000..3100; client 1: 1200..2000 */
	reconnect_note_loss(&a, 1000);
	reconnect_note_loss(&a, 1200);
	reconnect_note_end(&a, 1000, 1500, true, &c0);
	reconnect_note_end(&a, 1200, 2000, true, &c1);
	reconnect_note_loss(&a, 3000);
	reconnect_note_end(&a, 3000, 3100, true, &c0);
	tap_is_int(a.losses, 3, "three losses");
	tap_is_int(a.reconnects, 3, "three reconnects");
	tap_is_int(a.first_loss, 1000, "first loss");
	tap_is_int(a.last_back, 3100, "last back");
	tap_is_int(a.downtime_total, 500 + 800 + 100, "total downtime");
	tap_is_int(c0, 600, "a client's outages are summed");
	tap_is_int(a.downtime_max, 800, "max: the client down longest in all");

	/* another thread: client 2 lost at 900, still down at its end, 4000 */
	reconnect_note_loss(&b, 900);
	reconnect_note_end(&b, 900, 4000, false, &c2);
	tap_is_int(b.reconnects, 0, "not back: no reconnect");
	tap_is_int(b.down_at_end, 1, "down at the end");
	reconnect_stats_merge(&a, &b);
	tap_is_int(a.losses, 4, "merged losses");
	tap_is_int(a.first_loss, 900, "merged first loss: the earliest");
	tap_is_int(a.last_back, 4000, "merged last back: the latest");
	tap_is_int(a.downtime_max, 3100, "merged max");
	tap_is_int(a.downtime_total, 1400 + 3100, "merged total");
	tap_is_int(a.down_at_end, 1, "merged down at end");
	b = (reconnect_stats) {0};
	reconnect_stats_merge(&b, &(reconnect_stats) {0});
	tap_is_int(b.first_loss, 0, "merging nothing keeps no loss");
}

int
main(void)
{
	test_sqlstates();
	test_backoff();
	test_counts();
	return tap_done();
}
