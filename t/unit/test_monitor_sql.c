/*
 * test_monitor_sql.c — the monitor's queries by server version and the
 * reading of their results (src/server/monitor_int.h), without a server:
 * which views and counters each major's snapshot reads (pg_stat_wal from
 * 14, pg_stat_io from 16, pg_stat_checkpointer from 17, num_done from
 * 18), the run's backends' filter with an escaped name, the sample of
 * them in every state (idle ones as Client:ClientRead), and a snapshot
 * result (made with libpq's PGresult builders) read into its counters,
 * refused when a value is not a number or a column is missing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "monitor_int.h"
#include "tap.h"

static bool
has(const char *text, const char *what)
{
	return strstr(text, what) != NULL;
}

static int
count_bits(uint64_t v)
{
	int			n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

static void
test_versions(void)
{
	static const int versions[] = {130000, 140000, 150000, 160000, 170000, 180000};
	/* counters per major: database 13, + wal 4, checkpointer 5 (+ done in 18), io 6 */
	static const int counters[] = {18, 22, 22, 28, 28, 29};

	for (int i = 0; i < 6; i++)
	{
		monitor_sql q;
		int			v = versions[i];

		tap_ok(monitor_sql_build(&q, v, "'pgbench'", true), "builds for %d", v);
		tap_is_int(count_bits(q.present), counters[i], "counters read");
		tap_ok(has(q.snapshot, "pg_stat_wal") == (v >= 140000), "pg_stat_wal from 14");
		tap_ok(has(q.snapshot, "pg_stat_io") == (v >= 160000), "pg_stat_io from 16");
		tap_ok(has(q.snapshot, "pg_stat_checkpointer") == (v >= 170000), "pg_stat_checkpointer from 17");
		tap_ok(has(q.snapshot, "pg_stat_bgwriter") == (v < 170000), "pg_stat_bgwriter before 17");
		tap_ok(has(q.snapshot, "num_done") == (v >= 180000), "num_done from 18");
		tap_ok(has(q.snapshot, "pg_control_checkpoint()"), "the checkpoint's time when allowed");
		tap_ok(has(q.sample, "application_name = 'pgbench'") &&
			   has(q.sample, "pid <> pg_catalog.pg_backend_pid()"), "the run's backends");
		tap_ok(q.all_states && !has(q.sample, "state <> 'idle'") &&
			   has(q.sample, "THEN 'Client:ClientRead' ELSE 'CPU' END") &&
			   has(q.sample, "state IS NOT NULL AND state <> 'disabled'"),
			   "... in every state: idle ones waiting for their client, none unknown");
		tap_ok(has(q.count, "application_name = 'pgbench'"), "the count of the run's backends");
	}
}

static void
test_no_control(void)
{
	monitor_sql q;

	monitor_sql_build(&q, 160000, "'x'", false);
	tap_ok(!has(q.snapshot, "pg_control_checkpoint") && has(q.snapshot, "NULL::float8"),
		   "without the right: a null checkpoint time");
}

/* A one-row result of n text columns with the given values (NULL: null). */
static PGresult *
make_result(int n, const char *const *values)
{
	PGresult   *res = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
	PGresAttDesc attrs[64];

	memset(attrs, 0, sizeof(attrs));
	for (int c = 0; c < n; c++)
	{
		attrs[c].name = (char *) "c";
		attrs[c].typid = 25;
		attrs[c].typlen = -1;
		attrs[c].atttypmod = -1;
	}
	if (!PQsetResultAttrs(res, n, attrs))
		return res;
	for (int c = 0; c < n; c++)
		PQsetvalue(res, 0, c, (char *) values[c], values[c] != NULL ? (int) strlen(values[c]) : -1);
	return res;
}

static void
test_parse(void)
{
	monitor_sql q;
	const char *values[64];
	char		text[64][32];
	int			n;
	monitor_snap snap;
	PGresult   *res;

	monitor_sql_build(&q, 150000, "'x'", true);
	n = 2 + count_bits(q.present);
	values[0] = "1700000000.5";
	values[1] = "1699999990";
	for (int c = 2; c < n; c++)
	{
		snprintf(text[c], sizeof(text[c]), "%d", 100 + c);
		values[c] = text[c];
	}
	res = make_result(n, values);
	memset(&snap, 0, sizeof(snap));
	monitor_sql_parse_snapshot(&q, res, &snap);
	tap_ok(snap.ok, "a snapshot reads");
	tap_ok(snap.server_epoch_s == 1700000000.5 && snap.checkpoint_epoch_s == 1699999990,
		   "the clocks");
	tap_ok(snap.value[SRV_XACT_COMMIT] == 102, "the first counter: xact_commit");
	tap_ok(snap.value[SRV_WAL_RECORDS] == 102 + SRV_WAL_RECORDS, "wal_records in its place");
	tap_ok(snap.value[SRV_IO_READS] == 0, "a counter the server lacks: 0");
	PQclear(res);

	values[1] = NULL;
	res = make_result(n, values);
	monitor_sql_parse_snapshot(&q, res, &snap);
	tap_ok(snap.ok && isnan(snap.checkpoint_epoch_s), "a null checkpoint time: unknown");
	PQclear(res);

	values[5] = "12x";
	res = make_result(n, values);
	monitor_sql_parse_snapshot(&q, res, &snap);
	tap_ok(!snap.ok, "a counter that is not a number: refused");
	PQclear(res);

	values[5] = text[5];
	res = make_result(n - 1, values);
	monitor_sql_parse_snapshot(&q, res, &snap);
	tap_ok(!snap.ok, "a column missing: refused");
	PQclear(res);

	res = PQmakeEmptyPGresult(NULL, PGRES_FATAL_ERROR);
	monitor_sql_parse_snapshot(&q, res, &snap);
	tap_ok(!snap.ok, "an error: refused");
	PQclear(res);
}

/* Long names are cut alike, never inside a UTF-8 character. */
static void
test_keep_name(void)
{
	char		name[200],
				kept[TIMELINE_WAIT_NAME],
				again[TIMELINE_WAIT_NAME];

	monitor_keep_name(kept, "Lock:transactionid");
	tap_is_str(kept, "Lock:transactionid", "a short name is kept whole");
	memset(name, 'a', 100);
	memcpy(name, "LWLock:", 7);
	name[100] = '\0';
	monitor_keep_name(kept, name);
	tap_is_int((int) strlen(kept), TIMELINE_WAIT_NAME - 1, "a long one is cut to fit");
	monitor_keep_name(again, name);
	tap_is_str(kept, again, "... alike each time");
	/* a three-byte character across the cut: left out whole */
	memset(name, 'b', 100);
	memcpy(name + TIMELINE_WAIT_NAME - 3, "\xe2\x82\xac", 3);
	name[100] = '\0';
	monitor_keep_name(kept, name);
	tap_is_int((int) strlen(kept), TIMELINE_WAIT_NAME - 3, "not inside a UTF-8 character");
	/* one that ends right at the cut: kept */
	memset(name, 'c', 100);
	memcpy(name + TIMELINE_WAIT_NAME - 4, "\xe2\x82\xac", 3);
	name[100] = '\0';
	monitor_keep_name(kept, name);
	tap_is_int((int) strlen(kept), TIMELINE_WAIT_NAME - 1, "a whole character at the end is kept");
}

int
main(void)
{
	test_keep_name();
	test_versions();
	test_no_control();
	test_parse();
	return tap_done();
}
