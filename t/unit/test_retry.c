/*
 * test_retry.c — the retry unit: SQLSTATE classification, the decision
 * after a failed try (max tries, -T, -L), the random-state snapshot and
 * the --verbose-errors decision lines.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/engine/retry.h"
#include "tap.h"

/* ---- classification ---------------------------------------------------- */

typedef struct class_case
{
	const char *sqlstate;
	retry_error expected;
	bool		retriable;
	stats_outcome outcome;
} class_case;

static const class_case CLASS_CASES[] = {
	{"40001", RETRY_ERROR_SERIALIZATION, true, STATS_SERIALIZATION_FAILURE},
	{"40P01", RETRY_ERROR_DEADLOCK, true, STATS_DEADLOCK_FAILURE},
	/* the rest of class 40 is not retried */
	{"40000", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"40002", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"40003", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	/* SQLSTATEs are upper case on the wire; nothing else matches */
	{"40p01", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"4000", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"400010", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"23505", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"57014", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	{"", RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
	/* no SQLSTATE at all (connection lost) */
	{NULL, RETRY_ERROR_OTHER_SQL, false, STATS_OTHER_FAILURE},
};

static void
test_classification(void)
{
	char		name[96];

	for (size_t i = 0; i < PGB_LENGTHOF(CLASS_CASES); i++)
	{
		const class_case *cc = &CLASS_CASES[i];
		const char *label = cc->sqlstate ? cc->sqlstate : "(null)";
		retry_error got = retry_classify_sqlstate(cc->sqlstate);

		snprintf(name, sizeof(name), "classify %s", label);
		tap_is_int(got, cc->expected, name);
		snprintf(name, sizeof(name), "%s retriable: %d", label, cc->retriable);
		tap_is_int(retry_error_is_retriable(got), cc->retriable, name);
		snprintf(name, sizeof(name), "%s accounted as outcome %d", label, cc->outcome);
		tap_is_int(retry_outcome(got), cc->outcome, name);
	}

	tap_ok(!retry_error_is_retriable(RETRY_ERROR_NONE), "no error is not retriable");
	tap_ok(!retry_error_is_retriable(RETRY_ERROR_META), "meta-command errors are not retriable");
	tap_is_int(retry_outcome(RETRY_ERROR_NONE), STATS_SUCCESS, "no error is a success");
	tap_is_int(retry_outcome(RETRY_ERROR_META), STATS_OTHER_FAILURE, "meta error outcome");
}

/* ---- the decision -------------------------------------------------------- */

typedef struct decide_case
{
	const char *name;
	uint32_t	max_tries;
	int64_t		latency_limit;	/* usec */
	retry_error error;
	uint32_t	tries;			/* the try that failed */
	int64_t		elapsed;		/* usec since the scheduled start */
	bool		timer_exceeded;
	retry_decision expected;
} decide_case;

#define SER RETRY_ERROR_SERIALIZATION
#define DL RETRY_ERROR_DEADLOCK

static const decide_case DECIDE_CASES[] = {
	/* the default --max-tries=1 never retries */
	{"default: one try", 1, 0, SER, 1, 0, false, RETRY_GIVE_UP},
	{"default: deadlock, one try", 1, 0, DL, 1, 0, false, RETRY_GIVE_UP},
	/* counting tries */
	{"3 tries: after try 1", 3, 0, SER, 1, 0, false, RETRY_AGAIN},
	{"3 tries: after try 2", 3, 0, DL, 2, 0, false, RETRY_AGAIN},
	{"3 tries: after try 3", 3, 0, SER, 3, 0, false, RETRY_GIVE_UP},
	{"3 tries: beyond", 3, 0, SER, 4, 0, false, RETRY_GIVE_UP},
	/* only serialization and deadlock failures go again */
	{"other SQL error", 3, 0, RETRY_ERROR_OTHER_SQL, 1, 0, false, RETRY_GIVE_UP},
	{"meta error", 3, 0, RETRY_ERROR_META, 1, 0, false, RETRY_GIVE_UP},
	/* max_tries = 0 (with -T): unlimited until the run is over */
	{"unlimited: try 1", 0, 0, SER, 1, 0, false, RETRY_AGAIN},
	{"unlimited: try 1000000", 0, 0, DL, 1000000, 0, false, RETRY_AGAIN},
	{"unlimited: large elapsed, no -L", 0, 0, SER, 7, INT64_C(3600000000), false, RETRY_AGAIN},
	{"unlimited: -T over", 0, 0, SER, 5, 0, true, RETRY_FINISH},
	/* -T over finishes before anything else is considered */
	{"-T over, tries left", 3, 0, SER, 1, 0, true, RETRY_FINISH},
	{"-T over, tries used up", 3, 0, SER, 3, 0, true, RETRY_FINISH},
	{"-T over, other error", 3, 0, RETRY_ERROR_OTHER_SQL, 1, 0, true, RETRY_FINISH},
	/* -L: more than the limit since the scheduled start gives up */
	{"-L: well within", 0, 10000, SER, 1, 100, false, RETRY_AGAIN},
	{"-L: exactly on the limit", 0, 10000, SER, 1, 10000, false, RETRY_AGAIN},
	{"-L: one usec over", 0, 10000, SER, 1, 10001, false, RETRY_GIVE_UP},
	{"-L: far over", 0, 10000, DL, 9, 500000, false, RETRY_GIVE_UP},
	/* -L and max_tries together: whichever comes first */
	{"-L and 5 tries: tries first", 5, 10000, SER, 5, 10, false, RETRY_GIVE_UP},
	{"-L and 5 tries: limit first", 5, 10000, SER, 2, 20000, false, RETRY_GIVE_UP},
	{"-L and 5 tries: neither", 5, 10000, SER, 2, 9999, false, RETRY_AGAIN},
	{"-L and 5 tries: -T over", 5, 10000, SER, 2, 9999, true, RETRY_FINISH},
};

static void
test_decision(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(DECIDE_CASES); i++)
	{
		const decide_case *dc = &DECIDE_CASES[i];
		retry_policy policy = {dc->max_tries, dc->latency_limit, false};

		tap_is_int(retry_decide(&policy, dc->error, dc->tries, dc->elapsed, dc->timer_exceeded),
				   dc->expected, dc->name);
	}
}

/* ---- the snapshot ------------------------------------------------------- */

static void
test_snapshot(void)
{
	prng_state	rs;
	retry_snapshot snap;
	uint64_t	first[3];
	bool		same = true;

	prng_seed(&rs, 12345);
	(void) prng_uint64(&rs);
	retry_snapshot_take(&snap, &rs);
	for (int i = 0; i < 3; i++)
		first[i] = prng_uint64(&rs);
	retry_snapshot_restore(&snap, &rs);
	for (int i = 0; i < 3; i++)
		same = same && prng_uint64(&rs) == first[i];
	tap_ok(same, "a restored snapshot draws the same values again");

	/* the snapshot is a copy: drawing does not move it */
	(void) prng_uint64(&rs);
	retry_snapshot_restore(&snap, &rs);
	tap_ok(prng_uint64(&rs) == first[0], "restoring twice goes back to the same start");
}

/* ---- the --verbose-errors lines ---------------------------------------- */

typedef struct format_case
{
	uint32_t	max_tries;
	int64_t		latency_limit;
	int			client_id;
	bool		retrying;
	uint32_t	tries;
	int64_t		elapsed;
	const char *expected;
} format_case;

static const format_case FORMAT_CASES[] = {
	{3, 0, 0, true, 1, 0,
	"client 0 repeats the transaction after the error (try 1/3)"},
	{3, 0, 12, false, 3, 0,
	"client 12 ends the failed transaction (try 3/3)"},
	{1, 0, 2, false, 1, 0,
	"client 2 ends the failed transaction (try 1/1)"},
	/* unlimited tries: no "/M" */
	{0, 0, 4, true, 17, 0,
	"client 4 repeats the transaction after the error (try 17)"},
	/* -L: share of the limit used */
	{0, 10000, 1, true, 2, 2500,
	"client 1 repeats the transaction after the error (try 2, 25.000% of the maximum time of tries was used)"},
	{5, 10000, 3, false, 4, 12345,
	"client 3 ends the failed transaction (try 4/5, 123.450% of the maximum time of tries was used)"},
	{2, 3000, 0, true, 1, 1,
	"client 0 repeats the transaction after the error (try 1/2, 0.033% of the maximum time of tries was used)"},
};

static void
test_format(void)
{
	char		line[256];
	char		tiny[16];
	int			want;
	retry_policy policy = {3, 0, true};

	for (size_t i = 0; i < PGB_LENGTHOF(FORMAT_CASES); i++)
	{
		const format_case *fc = &FORMAT_CASES[i];
		retry_policy p = {fc->max_tries, fc->latency_limit, true};
		int			len = retry_format_try(line, sizeof(line), &p, fc->client_id,
										   fc->retrying, fc->tries, fc->elapsed);

		tap_is_str(line, fc->expected, fc->expected);
		tap_is_int(len, (int64_t) strlen(fc->expected), "its length is returned");
	}

	/* a short buffer is cut, terminated, and the wanted length returned */
	want = retry_format_try(tiny, sizeof(tiny), &policy, 0, true, 1, 0);
	tap_is_str(tiny, "client 0 repeat", "truncated into a short buffer");
	tap_is_int(want, (int64_t) strlen(FORMAT_CASES[0].expected), "wanted length when truncated");
}

int
main(void)
{
	test_classification();
	test_decision();
	test_snapshot();
	test_format();
	return tap_done();
}
