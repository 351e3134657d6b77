/*
 * test_series.c — the report files' series (series.h) without a server:
 * intervals counted from the origin, empty intervals, the open point's
 * histogram at merge time, the exact merge of two threads' series by
 * index, aborts.  (The command line's masking: test_conninfo_mask.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/series.h"
#include "tap.h"

#define SEC INT64_C(1000000)

static void
test_intervals(void)
{
	pg_time_usec_t origin = 5 * SEC;
	run_series a,
				b,
				acc;
	client_failure f;

	series_init(&a, SEC, &origin);
	series_init(&b, SEC, &origin);
	series_init(&acc, SEC, NULL);
	series_add_success(&a, origin + 100, 1000.0, 10.0, 1);
	series_add_success(&a, origin + 200, 3000.0, 30.0, 2);
	series_add_failure(&a, origin + SEC - 1, 3);
	series_add_skipped(&a, origin + 3 * SEC + 5);	/* points 1 and 2 stay empty */
	series_add_success(&a, origin + 3 * SEC + 6, 500.0, 0.0, 1);
	tap_is_int(a.npoints, 4, "four points: 0, two empty, 3 (open)");
	tap_is_int(a.points[0].processed, 2, "point 0: two successes");
	tap_is_int(a.points[0].failures, 1, "point 0: a failure");
	tap_is_int(a.points[0].retries, 3, "point 0: 1 + 2 retries");
	tap_is_int(a.points[0].nbuckets, 2, "point 0 closed: two buckets kept");
	tap_is_int(a.points[0].latency_max, 3000, "point 0: exact max");
	tap_is_double(a.points[0].lag_max, 30.0, 0.0, "point 0: lag max");
	tap_is_int(a.points[1].processed + a.points[2].processed, 0, "points 1 and 2: empty");
	tap_is_int(a.points[3].skipped, 1, "point 3: a skipped slot");

	series_add_success(&b, origin + 10, 2000.0, 0.0, 1);
	series_add_success(&b, origin + 5 * SEC, 7000.0, 0.0, 1);
	failure_set(&f, FAILURE_CLIENT, 7, -1, 0);
	failure_message(&f, "gone");
	series_add_abort(&b, &f, origin + 2 * SEC);

	series_merge(&acc, &a);
	series_merge(&acc, &b);
	tap_is_int(acc.npoints, 6, "merge: as long as the longest");
	tap_is_int(acc.points[0].processed, 3, "merge: point 0 adds up");
	tap_is_int(acc.points[0].latency_min, 1000, "merge: point 0 min");
	tap_is_int(acc.points[0].latency_max, 3000, "merge: point 0 max");
	tap_is_int(acc.points[0].nbuckets, 3, "merge: point 0's buckets, united");
	tap_is_int(acc.points[3].processed, 1, "merge: a's open point is counted");
	tap_is_int(acc.points[3].nbuckets, 1, "merge: with its histogram");
	tap_is_int(acc.points[5].latency_max, 7000, "merge: b's open point");
	tap_is_int(acc.naborts, 1, "merge: the abort");
	tap_is_int(acc.aborts[0].at, 2 * SEC, "merge: the abort's time since the origin");
	tap_is_int(acc.aborts[0].failure.client, 7, "merge: the abort's record");
	series_free(&a);
	series_free(&b);
	series_free(&acc);
}

int
main(void)
{
	test_intervals();
	return tap_done();
}
