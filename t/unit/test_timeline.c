/*
 * test_timeline.c — the run's timeline (timeline.h) without a server: the
 * coarse layout against the fine one, a record's latencies from a fine
 * histogram, percentiles of the coarse buckets, the merge of two records
 * (sums, extremes, overflow), and the store: chunks in memory, spilled to
 * the temporary file and read back, replaced, and gaps filled.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/stats/timeline.h"
#include "tap.h"

#define SEC INT64_C(1000000)

static void
test_layout(void)
{
	bool		aligned = true;

	tap_is_int(hist_layout_index_of(HIST_ONE_HOUR_US, TIMELINE_SUB_BITS) + 1, TIMELINE_NBUCKETS,
			   "TIMELINE_NBUCKETS covers one hour");
	tap_is_int(hist_layout_index_of(HIST_ONE_HOUR_US, HIST_SUB_BITS), hist_index_of(HIST_ONE_HOUR_US),
			   "the generic layout with 7 bits is histogram.h's");
	/* every fine bucket lies inside one coarse bucket */
	for (int b = 0; b <= hist_index_of(HIST_ONE_HOUR_US); b++)
		if (timeline_bucket_of(hist_bucket_lowest(b)) != timeline_bucket_of(hist_bucket_highest(b)))
			aligned = false;
	tap_ok(aligned, "fine buckets nest in coarse ones");
	for (int b = 1; b < TIMELINE_NBUCKETS; b++)
		if (hist_layout_lowest(b, 3) != hist_layout_highest(b - 1, 3) + 1)
			aligned = false;
	tap_ok(aligned, "coarse buckets tile the values");
	tap_is_int(timeline_bucket_of(-5), 0, "negative: bucket 0");
	tap_is_int(timeline_bucket_of(INT64_MAX), TIMELINE_NBUCKETS - 1, "above one hour: the last");
	tap_is_int(hist_layout_lowest(timeline_bucket_of(1000), 3), 960, "1000 us: bucket [960, 1023]");
}

static void
test_latencies(void)
{
	hist		h;
	timeline_record r;

	hist_init(&h, HIST_ONE_HOUR_US);
	for (int i = 1; i <= 1000; i++)
		hist_add(&h, i * 10);	/* 10 us .. 10 ms */
	memset(&r, 0, sizeof(r));
	timeline_record_latencies(&r, &h);
	tap_is_int(timeline_bucket_count(&r), 1000, "every latency in a coarse bucket");
	tap_is_int(r.latency_min_us, 10, "min");
	tap_is_int(r.latency_max_us, 10000, "max");
	tap_is_double(r.latency_pct_us[0], (double) hist_value_at_percentile(&h, 50), 0, "p50 from the fine histogram");
	tap_is_double(r.latency_pct_us[3], (double) hist_value_at_percentile(&h, 99.9), 0, "p99.9 from the fine histogram");
	tap_ok(fabs(timeline_bucket_percentile(&r, 50) - 5000) <= 5000 / 8.0,
		   "p50 of the coarse buckets within 1/8 (%g)", timeline_bucket_percentile(&r, 50));
	tap_is_double(timeline_bucket_percentile(&r, 100), 10000, 0, "p100: max");
	tap_is_double(timeline_bucket_percentile(&r, 0), 10, 0, "p0: min");
	timeline_record_latencies(&r, NULL);
	tap_is_int(timeline_bucket_count(&r), 0, "no histogram: empty");
	tap_is_double(timeline_bucket_percentile(&r, 50), 0, 0, "empty: 0");
	hist_free(&h);
}

static timeline_record
record(int i, int64_t cnt, int64_t lat_us)
{
	timeline_record r;

	memset(&r, 0, sizeof(r));
	r.start_us = i * SEC;
	r.end_us = (i + 1) * SEC;
	r.sources = 1;
	r.delta.cnt = cnt;
	r.delta.latency.sum = (double) (cnt * lat_us);
	r.delta.latency.sum2 = (double) cnt * (double) lat_us * (double) lat_us;
	if (cnt > 0)
	{
		r.buckets[timeline_bucket_of(lat_us)] = (uint32_t) cnt;
		r.latency_min_us = r.latency_max_us = lat_us;
		for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
			r.latency_pct_us[k] = (double) lat_us;
	}
	r.has_client = true;
	r.cpu_user_s = 0.25;
	r.busiest_thread_cpu = 0.5;
	r.rss_kb = 1000;
	return r;
}

static void
test_merge(void)
{
	timeline_record acc,
				r;

	memset(&acc, 0, sizeof(acc));
	r = record(0, 10, 1000);
	tap_ok(timeline_record_merge(&acc, &r), "merge into an empty record");
	tap_is_int(acc.sources, 1, "one source: a copy");
	tap_is_double(acc.latency_pct_us[0], 1000, 0, "a copy keeps its percentiles");
	r = record(0, 30, 100000);
	r.busiest_thread_cpu = 0.9;
	tap_ok(timeline_record_merge(&acc, &r), "merge a second");
	tap_is_int(acc.sources, 2, "two sources");
	tap_is_int(acc.delta.cnt, 40, "counts add up");
	tap_is_double(acc.delta.latency.sum, 10 * 1000 + 30 * 100000, 0, "sums add up");
	tap_is_int(acc.latency_min_us, 1000, "min of both");
	tap_is_int(acc.latency_max_us, 100000, "max of both");
	tap_is_double(acc.latency_pct_us[0], 100000, 0, "p50 from the merged buckets (clamped to max)");
	tap_is_double(acc.cpu_user_s, 0.5, 1e-12, "CPU adds up");
	tap_is_double(acc.busiest_thread_cpu, 0.9, 0, "busiest: the higher");
	tap_is_int(acc.rss_kb, 2000, "memory adds up");
	r = record(0, 0, 0);
	r.sources = 0;
	tap_ok(timeline_record_merge(&acc, &r) && acc.sources == 2, "an empty gap adds nothing");
	r = record(0, INT64_MAX, 1);
	r.buckets[timeline_bucket_of(1)] = 1;
	tap_ok(!timeline_record_merge(&acc, &r), "a count overflow is refused");
	tap_is_int(acc.delta.cnt, 40, "... and leaves the record as it was");
	r = record(0, 1, 1000);
	r.buckets[timeline_bucket_of(1000)] = UINT32_MAX;
	tap_ok(!timeline_record_merge(&acc, &r), "a bucket overflow is refused");
}

/*
 * Free tl twice: the first frees its chunks and closes its spill file, and
 * leaves nothing that a second could free or close again.  The spill
 * file's descriptor number is taken again in between (as another open in
 * a run would take it): the second free must leave that one open.
 */
static void
free_twice(timeline *tl, bool spill)
{
	const char *mode = spill ? "spill" : "memory";
	int			fd = tl->fd_open ? tl->fd : -1;
	int			other;

	timeline_free(tl);
	tap_ok(tl->chunks == NULL && tl->nchunks == 0 && tl->n == 0 && !tl->fd_open,
		   "%s: freed, nothing left to free or close again", mode);
	if (spill)
	{
		tap_ok(fd >= 0 && fcntl(fd, F_GETFD) == -1, "spill: the file's descriptor is closed");
		other = open("/dev/null", O_RDONLY);
		if (fd >= 0 && other >= 0 && other != fd)
		{
			(void) dup2(other, fd);
			close(other);
		}
	}
	timeline_free(tl);
	tap_ok(tl->chunks == NULL && !tl->fd_open && (fd < 0 || fcntl(fd, F_GETFD) != -1),
		   "%s: freed twice, and the second closed no descriptor", mode);
	if (fd >= 0)
		close(fd);
}

static void
test_store(bool spill)
{
	timeline	tl;
	timeline_record r;
	bool		ok = true;
	int			n = 3 * TIMELINE_CHUNK + 5;

	timeline_init(&tl, SEC, spill);
	for (int i = 0; i < n; i++)
	{
		r = record(i, i, 100 + i);
		ok = ok && timeline_append(&tl, &r);
	}
	tap_ok(ok && tl.n == n, "%s: %d records appended", spill ? "spill" : "memory", n);
	if (spill)
		tap_ok(tl.fd_open && tl.chunks[0].mem == NULL && tl.chunks[3].mem != NULL,
			   "spill: full chunks in the file, the last in memory");
	for (int i = 0; i < n; i++)
		ok = ok && timeline_get(&tl, i, &r) && r.delta.cnt == i && r.start_us == i * SEC;
	tap_ok(ok, "every record reads back");
	r = record(7, 777, 5);
	tap_ok(timeline_put(&tl, 7, &r) && timeline_get(&tl, 7, &r) && r.delta.cnt == 777,
		   "a record in a full chunk is replaced");
	r = record(n + 2, 9, 5);
	tap_ok(timeline_put(&tl, n + 2, &r) && tl.n == n + 3, "a put beyond the end fills the gap");
	tap_ok(timeline_get(&tl, n, &r) && r.sources == 0 && r.start_us == n * SEC &&
		   r.end_us == (n + 1) * SEC, "a gap record is empty, with its interval");
	tap_ok(!timeline_get(&tl, n + 3, &r) && !timeline_get(&tl, -1, &r), "out of range: false");
	free_twice(&tl, spill);
}

int
main(void)
{
	timeline	zero;

	test_layout();
	test_latencies();
	test_merge();
	test_store(false);
	test_store(true);
	/* fd 0 open (stdin, else /dev/null takes it): the zeroed fd field */
	if (fcntl(0, F_GETFD) == -1)
		(void) open("/dev/null", O_RDONLY);
	memset(&zero, 0, sizeof(zero));
	timeline_free(&zero);
	tap_ok(fcntl(0, F_GETFD) != -1, "a zeroed timeline frees, and closes no fd 0");
	return tap_done();
}
