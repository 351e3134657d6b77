/*
 * progress.c — the -P reports: the seqlock slots workers publish their
 * totals in, the line format, and the main thread's timer that sums the
 * slots on an absolute schedule.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pgbench/progress.h"
#include "pgbench/report.h"
#include "pgbench/thread.h"

#define USEC_PER_SEC INT64_C(1000000)

/* ---- the slots ---------------------------------------------------------- */

#define STORE(field, value) atomic_store_explicit(&slot->field, (value), memory_order_relaxed)
#define LOAD(field) atomic_load_explicit(&slot->field, memory_order_relaxed)

void
progress_slot_init(progress_slot *slot)
{
	atomic_init(&slot->seq, 0);
	atomic_init(&slot->cnt, 0);
	atomic_init(&slot->skipped, 0);
	atomic_init(&slot->retried, 0);
	atomic_init(&slot->retries, 0);
	atomic_init(&slot->serialization_failures, 0);
	atomic_init(&slot->deadlock_failures, 0);
	atomic_init(&slot->other_failures, 0);
	atomic_init(&slot->latency_sum, 0.0);
	atomic_init(&slot->latency_sum2, 0.0);
	atomic_init(&slot->lag_sum, 0.0);
}

/*
 * The writer half of the seqlock: mark the slot busy (odd), and only then
 * (release fence) store the fields; the final even value is a release
 * store, so a reader that sees it sees every field before it.
 */
void
progress_publish(progress_slot *slot, const stats_data *total)
{
	unsigned	seq = atomic_load_explicit(&slot->seq, memory_order_relaxed);

	atomic_store_explicit(&slot->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	STORE(cnt, total->cnt);
	STORE(skipped, total->skipped);
	STORE(retried, total->retried);
	STORE(retries, total->retries);
	STORE(serialization_failures, total->serialization_failures);
	STORE(deadlock_failures, total->deadlock_failures);
	STORE(other_failures, total->other_failures);
	STORE(latency_sum, total->latency.sum);
	STORE(latency_sum2, total->latency.sum2);
	STORE(lag_sum, total->lag.sum);
	atomic_store_explicit(&slot->seq, seq + 2, memory_order_release);
}

/*
 * The reader half: copy the fields between two reads of an even, equal
 * sequence number; the acquire fence keeps the second read after the
 * copies.  A writer publishes in a few nanoseconds, so retries are rare.
 */
void
progress_collect(progress_slot *slot, stats_data *acc)
{
	stats_data	copy;
	unsigned	before,
				after;

	memset(&copy, 0, sizeof(copy));
	do
	{
		before = atomic_load_explicit(&slot->seq, memory_order_acquire);
		copy.cnt = LOAD(cnt);
		copy.skipped = LOAD(skipped);
		copy.retried = LOAD(retried);
		copy.retries = LOAD(retries);
		copy.serialization_failures = LOAD(serialization_failures);
		copy.deadlock_failures = LOAD(deadlock_failures);
		copy.other_failures = LOAD(other_failures);
		copy.latency.sum = LOAD(latency_sum);
		copy.latency.sum2 = LOAD(latency_sum2);
		copy.lag.sum = LOAD(lag_sum);
		atomic_thread_fence(memory_order_acquire);
		after = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	} while ((before & 1) != 0 || before != after);

	acc->cnt += copy.cnt;
	acc->skipped += copy.skipped;
	acc->retried += copy.retried;
	acc->retries += copy.retries;
	acc->serialization_failures += copy.serialization_failures;
	acc->deadlock_failures += copy.deadlock_failures;
	acc->other_failures += copy.other_failures;
	acc->latency.sum += copy.latency.sum;
	acc->latency.sum2 += copy.latency.sum2;
	acc->lag.sum += copy.lag.sum;
}

#undef STORE
#undef LOAD

/* ---- the line ----------------------------------------------------------- */

/* snprintf that keeps appending at *pos, never past len */
static void
append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list		ap;
	int			n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t) n < len ? *pos + (size_t) n : len - 1;
}

/* ", p50/p90/p99 A/B/C ms" */
static void
append_percentiles(char *buf, size_t len, size_t *pos, const progress_format *fmt,
				   const int64_t *pct_us)
{
	char		num[64];

	append(buf, len, pos, ", ");
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%sp%g", i > 0 ? "/" : "", fmt->percentiles[i]);
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%c%s", i > 0 ? '/' : ' ',
			   report_num(num, sizeof(num), "%.3f", 0.001 * (double) pct_us[i]));
	append(buf, len, pos, " ms");
}

size_t
progress_format_line(char *buf, size_t len, const progress_format *fmt,
					 const stats_data *cur, const stats_data *last,
					 pg_time_usec_t run_us, double when, const int64_t *pct_us)
{
	int64_t		cnt = cur->cnt - last->cnt;
	double		tps = 1000000.0 * (double) cnt / (double) run_us;
	double		latency = 0.0,
				stddev = 0.0,
				lag = 0.0;
	char		n1[64],
				n2[64],
				n3[64],
				n4[64];
	size_t		pos = 0;

	/* as pgbench: means over the successful transactions of the interval */
	if (cnt > 0)
	{
		double		sqlat;

		latency = 0.001 * (cur->latency.sum - last->latency.sum) / (double) cnt;
		sqlat = (cur->latency.sum2 - last->latency.sum2) / (double) cnt;
		stddev = 0.001 * sqrt(sqlat - 1000000.0 * latency * latency);
		lag = 0.001 * (cur->lag.sum - last->lag.sum) / (double) cnt;
	}

	buf[0] = '\0';
	append(buf, len, &pos, "progress: %s s, %s tps, lat %s ms stddev %s, %" PRId64 " failed",
		   report_num(n1, sizeof(n1), fmt->timestamp ? "%.3f" : "%.1f", when),
		   report_num(n2, sizeof(n2), "%.1f", tps),
		   report_num(n3, sizeof(n3), "%.3f", latency),
		   report_num(n4, sizeof(n4), "%.3f", stddev),
		   stats_data_failures(cur) - stats_data_failures(last));
	if (fmt->throttled)
	{
		append(buf, len, &pos, ", lag %s ms", report_num(n1, sizeof(n1), "%.3f", lag));
		if (fmt->latency_limit)
			append(buf, len, &pos, ", %" PRId64 " skipped", cur->skipped - last->skipped);
	}
	if (fmt->retries)
		append(buf, len, &pos, ", %" PRId64 " retried, %" PRId64 " retries",
			   cur->retried - last->retried, cur->retries - last->retries);
	if (fmt->npercentiles > 0 && pct_us != NULL)
		append_percentiles(buf, len, &pos, fmt, pct_us);
	append(buf, len, &pos, "\n");
	return pos;
}

/* ---- the timer ---------------------------------------------------------- */

/* What the timer keeps from one report to the next. */
typedef struct progress_state
{
	const run_config *cfg;
	worker	   *workers;
	progress_format fmt;
	pg_time_usec_t origin;		/* "0.0 s" */
	pg_time_usec_t last_report;
	stats_data	last;			/* totals at the last report */
	bool		with_hist;		/* interval percentiles */
	hist		hist_now;		/* all workers' counters at this report */
	hist		hist_last;		/* ... at the previous one */
	hist		hist_interval;	/* the difference */
	int64_t		pct_us[PGB_MAX_PERCENTILES];
} progress_state;

static bool
state_init(progress_state *ps, const run_config *cfg, worker *workers, pg_time_usec_t origin)
{
	const run_config *opts = cfg;

	memset(ps, 0, sizeof(*ps));
	ps->cfg = cfg;
	ps->workers = workers;
	ps->origin = origin;
	ps->last_report = origin;
	ps->fmt.timestamp = opts->progress_timestamp;
	ps->fmt.throttled = cfg->throttle_delay > 0;
	ps->fmt.latency_limit = cfg->latency_limit > 0;
	ps->fmt.retries = cfg->retry.max_tries != 1;
	ps->fmt.npercentiles = opts->npercentiles;
	ps->fmt.percentiles = opts->percentiles;
	ps->with_hist = opts->npercentiles > 0 && workers[0].stats.latency_hist != NULL;
	if (ps->with_hist &&
		!(hist_init(&ps->hist_now, workers[0].stats.latency_hist->highest) &&
		  hist_init(&ps->hist_last, workers[0].stats.latency_hist->highest) &&
		  hist_init(&ps->hist_interval, workers[0].stats.latency_hist->highest)))
		return false;
	return true;
}

static void
state_free(progress_state *ps)
{
	hist_free(&ps->hist_now);
	hist_free(&ps->hist_last);
	hist_free(&ps->hist_interval);
}

/*
 * The interval's percentiles: every worker's bucket counters (relaxed
 * loads, see hist_add_shared) summed, minus the sums at the last report.
 */
static void
interval_percentiles(progress_state *ps)
{
	hist	   *now = &ps->hist_now;
	hist	   *ival = &ps->hist_interval;
	hist		swap;
	int			first = -1,
				last = -1;

	hist_reset(now);
	for (int t = 0; t < ps->cfg->nthreads; t++)
	{
		const hist *h = ps->workers[t].stats.latency_hist;

		for (int b = 0; b < now->nbuckets; b++)
			now->counts[b] += __atomic_load_n(&h->counts[b], __ATOMIC_RELAXED);
	}

	hist_reset(ival);
	for (int b = 0; b < ival->nbuckets; b++)
	{
		int64_t		n = now->counts[b] - ps->hist_last.counts[b];

		if (n <= 0)
			continue;
		ival->counts[b] = n;
		ival->count += n;
		if (first < 0)
			first = b;
		last = b;
	}
	if (first >= 0)
	{
		/* the exact extremes are not shared: the buckets bound them */
		ival->min = hist_bucket_lowest(first);
		ival->max = hist_bucket_highest(last);
	}
	for (int i = 0; i < ps->fmt.npercentiles; i++)
		ps->pct_us[i] = hist_value_at_percentile(ival, ps->fmt.percentiles[i]);

	swap = ps->hist_last;
	ps->hist_last = *now;
	*now = swap;
}

static void
print_report(progress_state *ps, pg_time_usec_t now)
{
	stats_data	cur;
	char		line[1024];
	double		when;

	memset(&cur, 0, sizeof(cur));
	for (int t = 0; t < ps->cfg->nthreads; t++)
		progress_collect(&ps->workers[t].progress, &cur);
	if (ps->with_hist)
		interval_percentiles(ps);

	when = ps->fmt.timestamp ? (double) pgb_time_to_epoch(now) / USEC_PER_SEC
		: (double) (now - ps->origin) / USEC_PER_SEC;
	progress_format_line(line, sizeof(line), &ps->fmt, &cur, &ps->last,
						 now - ps->last_report, when,
						 ps->with_hist ? ps->pct_us : NULL);
	/* one write per line: workers' messages cannot cut into it */
	fputs(line, stderr);

	ps->last = cur;
	ps->last_report = now;
}

void
progress_run(const run_config *cfg, run_shared *sh, worker *workers, pg_time_usec_t origin)
{
	progress_state ps;
	pg_time_usec_t period = USEC_PER_SEC * cfg->progress_sec;
	pg_time_usec_t next = origin + period;

	if (!state_init(&ps, cfg, workers, origin))
	{
		/* no memory for the percentiles: report without them */
		state_free(&ps);
		ps.with_hist = false;
	}

	pthread_mutex_lock(&sh->done_lock);
	while (sh->workers_running > 0)
	{
		/* the condition variable runs on CLOCK_MONOTONIC, as pgb_time_now */
		struct timespec at = {
			.tv_sec = (time_t) (next / USEC_PER_SEC),
			.tv_nsec = (long) (next % USEC_PER_SEC) * 1000,
		};
		pg_time_usec_t now;

		pthread_cond_timedwait(&sh->done_cond, &sh->done_lock, &at);
		now = pgb_time_now();
		if (now < next)
			continue;			/* the last worker ended, or a spurious wake-up */

		/*
		 * Due, even if the workers have just ended: under -T they end at
		 * the same instant as the last report, which pgbench prints.
		 */
		pthread_mutex_unlock(&sh->done_lock);
		print_report(&ps, now);
		/* late (a stopped process): the next report is still on the grid */
		do
			next += period;
		while (now >= next);
		pthread_mutex_lock(&sh->done_lock);
	}
	pthread_mutex_unlock(&sh->done_lock);
	state_free(&ps);
}
