/*
 * txlog.c — the -l transaction logs of txlog.h: file naming, the two line
 * formats, sampling, interval aggregation, buffering and write errors.
 *
 * Lines are formatted straight into the thread's buffer by small
 * append helpers; printf is only used for doubles that are not whole
 * numbers within int64 (never the case for microsecond latencies).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/stats/txlog.h"

#define USEC_PER_SEC INT64_C(1000000)

/* ---- appending to the buffer -------------------------------------------- */

/*
 * Every append below assumes TXLOG_LINE_MAX free bytes, which txlog_add
 * and the interval writer guarantee before starting a line.
 */

static inline void
put_char(txlog *tl, char c)
{
	tl->buf[tl->len++] = c;
}

static inline void
put_text(txlog *tl, const char *text)
{
	size_t		n = strlen(text);

	memcpy(tl->buf + tl->len, text, n);
	tl->len += n;
}

static void
put_uint64(txlog *tl, uint64_t value)
{
	char		digits[20];
	int			n = 0;

	do
	{
		digits[n++] = (char) ('0' + value % 10);
		value /= 10;
	} while (value != 0);
	while (n > 0)
		tl->buf[tl->len++] = digits[--n];
}

static void
put_int64(txlog *tl, int64_t value)
{
	if (value < 0)
	{
		put_char(tl, '-');
		/* negate in unsigned arithmetic: INT64_MIN has no positive twin */
		put_uint64(tl, 0 - (uint64_t) value);
	}
	else
		put_uint64(tl, (uint64_t) value);
}

/* A double as PostgreSQL's printf("%.0f") prints it. */
static void
put_double0(txlog *tl, double value)
{
	/* 2^63: every double below it in magnitude converts to int64 exactly */
	const double int64_bound = 9223372036854775808.0;
	char		text[TXLOG_LINE_MAX / 8];
	int			n;

	if (value > -int64_bound && value < int64_bound)
	{
		int64_t		whole = (int64_t) value;

		/* -0.0 would come out as "0"; printf says "-0" */
		if ((double) whole == value && !(whole == 0 && signbit(value)))
		{
			put_int64(tl, whole);
			return;
		}
	}
	if (isnan(value))
	{
		put_text(tl, "NaN");
		return;
	}
	if (isinf(value))
	{
		put_text(tl, value > 0 ? "Infinity" : "-Infinity");
		return;
	}
	/* rare: not a whole number, or beyond int64 (at most 309 digits) */
	n = snprintf(text, sizeof(text), "%.0f", value);
	if (n > 0 && (size_t) n < sizeof(text))
	{
		memcpy(tl->buf + tl->len, text, (size_t) n);
		tl->len += (size_t) n;
	}
}

/* ---- the file ------------------------------------------------------------ */

static const char *
error_text(int err, char *buf, size_t len)
{
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
	return strerror_r(err, buf, len);
#else
	if (strerror_r(err, buf, len) != 0)
		snprintf(buf, len, "unknown error %d", err);
	return buf;
#endif
}

/* Write the buffer out; on the first failure remember errno, drop output. */
static bool
flush_buffer(txlog *tl)
{
	size_t		done = 0;

	if (tl->error != 0)
	{
		tl->len = 0;
		return true;			/* already reported */
	}
	while (done < tl->len)
	{
		ssize_t		n = write(tl->fd, tl->buf + done, tl->len - done);

		if (n <= 0)
		{
			if (n < 0 && errno == EINTR)
				continue;
			/* a regular file never takes 0 bytes; do not spin on it */
			tl->error = n < 0 ? errno : EIO;
			tl->len = 0;
			return false;
		}
		done += (size_t) n;
	}
	tl->len = 0;
	return true;
}

/* Make room for one more line. */
static inline bool
reserve_line(txlog *tl)
{
	if (PGB_LIKELY(tl->len <= TXLOG_BUFFER_SIZE))
		return true;
	return flush_buffer(tl);
}

bool
txlog_open(txlog *tl, const txlog_config *cfg, int tid, char *errbuf, size_t errlen)
{
	const char *prefix = cfg->prefix != NULL ? cfg->prefix : "pgbench_log";
	char		reason[256];

	memset(tl, 0, sizeof(*tl));
	tl->fd = -1;
	tl->cfg = *cfg;
	tl->cfg.prefix = NULL;

	/* cut like pgbench's snprintf into a MAXPGPATH buffer */
	if (tid == 0)
		snprintf(tl->path, sizeof(tl->path), "%s.%d", prefix, cfg->pid);
	else
		snprintf(tl->path, sizeof(tl->path), "%s.%d.%d", prefix, cfg->pid, tid);

	tl->buf = malloc(TXLOG_BUFFER_SIZE + TXLOG_LINE_MAX);
	if (tl->buf == NULL)
	{
		snprintf(errbuf, errlen, "out of memory");
		return false;
	}
	tl->fd = open(tl->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (tl->fd < 0)
	{
		int			err = errno;

		snprintf(errbuf, errlen, "could not open logfile \"%s\": %s",
				 tl->path, error_text(err, reason, sizeof(reason)));
		free(tl->buf);
		tl->buf = NULL;
		return false;
	}
	tl->is_open = true;
	return true;
}

/* ---- aggregation --------------------------------------------------------- */

static void
agg_reset(txlog *tl, pg_time_usec_t start)
{
	tl->agg_started = true;
	tl->agg_start = start;
	memset(&tl->agg, 0, sizeof(tl->agg));
}

void
txlog_begin(txlog *tl, pg_time_usec_t bench_start)
{
	/* whole seconds: the log only shows seconds, later starts stay aligned */
	agg_reset(tl, bench_start / USEC_PER_SEC * USEC_PER_SEC);
}

/* Nothing counted in the open interval: no transaction of any outcome. */
static bool
agg_is_empty(const txlog *tl)
{
	return stats_data_counters_zero(&tl->agg);
}

/* Append the open interval's line; groups that do not apply print zeros. */
static void
put_interval(txlog *tl)
{
	const txlog_config *cfg = &tl->cfg;
	const stats_data *agg = &tl->agg;
	static const stats_simple none;
	const stats_simple *lag = cfg->throttled ? &agg->lag : &none;

	put_int64(tl, tl->agg_start / USEC_PER_SEC);
	put_char(tl, ' ');
	put_int64(tl, agg->cnt);
	put_char(tl, ' ');
	put_double0(tl, agg->latency.sum);
	put_char(tl, ' ');
	put_double0(tl, agg->latency.sum2);
	put_char(tl, ' ');
	put_double0(tl, agg->latency.min);
	put_char(tl, ' ');
	put_double0(tl, agg->latency.max);
	put_char(tl, ' ');
	put_double0(tl, lag->sum);
	put_char(tl, ' ');
	put_double0(tl, lag->sum2);
	put_char(tl, ' ');
	put_double0(tl, lag->min);
	put_char(tl, ' ');
	put_double0(tl, lag->max);
	put_char(tl, ' ');
	put_int64(tl, cfg->latency_limit ? agg->skipped : 0);
	put_char(tl, ' ');
	put_int64(tl, cfg->retries ? agg->retried : 0);
	put_char(tl, ' ');
	put_int64(tl, cfg->retries ? agg->retries : 0);
	put_char(tl, ' ');
	put_int64(tl, cfg->failures_detailed ? agg->serialization_failures : 0);
	put_char(tl, ' ');
	put_int64(tl, cfg->failures_detailed ? agg->deadlock_failures : 0);
	if (cfg->other_failures)
	{
		put_char(tl, ' ');
		put_int64(tl, cfg->failures_detailed ? agg->other_failures : 0);
	}
	if (cfg->connection_failures)
	{
		put_char(tl, ' ');
		put_int64(tl, cfg->failures_detailed ? agg->connection_failures : 0);
	}
	put_char(tl, '\n');
}

/* Write out every interval that ended at or before now. */
static bool
agg_advance(txlog *tl, pg_time_usec_t now)
{
	pg_time_usec_t length = (pg_time_usec_t) tl->cfg.agg_interval * USEC_PER_SEC;
	bool		ok = true;

	if (PGB_UNLIKELY(!tl->agg_started))
		txlog_begin(tl, now);
	while (tl->agg_start + length <= now)
	{
		if (!reserve_line(tl))
			ok = false;
		if (tl->error == 0)
			put_interval(tl);
		agg_reset(tl, tl->agg_start + length);
	}
	return ok;
}

/* ---- per-transaction lines ---------------------------------------------- */

static const char *
outcome_word(const txlog *tl, stats_outcome outcome)
{
	if (outcome == STATS_SKIPPED)
		return "skipped";
	if (tl->cfg.failures_detailed)
	{
		if (outcome == STATS_SERIALIZATION_FAILURE)
			return "serialization";
		if (outcome == STATS_DEADLOCK_FAILURE)
			return "deadlock";
		/* only under --continue-on-error: other errors abort otherwise */
		if (outcome == STATS_OTHER_FAILURE && tl->cfg.other_failures)
			return "other";
		if (outcome == STATS_CONNECTION_FAILURE && tl->cfg.connection_failures)
			return "connection";
	}
	return "failed";
}

static void
put_transaction(txlog *tl, const txlog_txn *tx, pg_time_usec_t now)
{
	bool		success = tx->outcome == STATS_SUCCESS;

	put_int64(tl, tx->client_id);
	put_char(tl, ' ');
	put_int64(tl, tx->txn_no);
	put_char(tl, ' ');
	if (success)
		put_double0(tl, tx->latency);
	else
		put_text(tl, outcome_word(tl, tx->outcome));
	put_char(tl, ' ');
	put_int64(tl, tx->script_no);
	put_char(tl, ' ');
	put_int64(tl, now / USEC_PER_SEC);
	put_char(tl, ' ');
	put_int64(tl, now % USEC_PER_SEC);
	if (tl->cfg.throttled)
	{
		/* pgbench only measures the lag of a successful transaction */
		put_char(tl, ' ');
		put_double0(tl, success ? tx->lag : 0.0);
	}
	if (tl->cfg.retries)
	{
		put_char(tl, ' ');
		put_uint64(tl, tx->outcome == STATS_SKIPPED || tx->tries == 0 ? 0 : tx->tries - 1);
	}
	put_char(tl, '\n');
}

bool
txlog_add(txlog *tl, const txlog_txn *tx, pg_time_usec_t now, prng_state *sample_rs)
{
	bool		ok = true;

	/* draw first and always, so the sampling sequence matches pgbench's */
	if (tl->cfg.sample_rate != 0.0 && prng_double(sample_rs) > tl->cfg.sample_rate)
		return true;
	if (PGB_UNLIKELY(!tl->is_open))
		return true;

	if (tl->cfg.agg_interval > 0)
	{
		ok = agg_advance(tl, now);
		/* retries count for failed transactions too, as in the totals */
		stats_data_add(&tl->agg, tx->outcome, tx->latency, tx->lag, tx->tries,
					   tl->cfg.throttled);
		return ok;
	}
	if (!reserve_line(tl))
		ok = false;
	if (tl->error == 0)
		put_transaction(tl, tx, now);
	return ok;
}

bool
txlog_tick(txlog *tl, pg_time_usec_t now)
{
	bool		ok = true;

	if (!tl->is_open)
		return true;
	if (tl->cfg.agg_interval > 0 && tl->agg_started)
		ok = agg_advance(tl, now);
	if (tl->len > 0 && !flush_buffer(tl))
		ok = false;
	return ok;
}

bool
txlog_close(txlog *tl, pg_time_usec_t now, char *errbuf, size_t errlen)
{
	bool		ok;

	if (!tl->is_open)
		return true;

	if (tl->cfg.agg_interval > 0 && tl->agg_started)
	{
		agg_advance(tl, now);
		if (!agg_is_empty(tl))
		{
			reserve_line(tl);
			if (tl->error == 0)
				put_interval(tl);
		}
	}
	flush_buffer(tl);
	if (close(tl->fd) != 0 && tl->error == 0)
		tl->error = errno;
	tl->fd = -1;
	tl->is_open = false;
	free(tl->buf);
	tl->buf = NULL;

	ok = tl->error == 0;
	if (!ok)
		txlog_error_message(tl, errbuf, errlen);
	return ok;
}

void
txlog_error_message(const txlog *tl, char *errbuf, size_t errlen)
{
	char		reason[256];

	if (errlen == 0)
		return;
	if (tl->error == 0)
	{
		errbuf[0] = '\0';
		return;
	}
	snprintf(errbuf, errlen, "could not write to log file \"%s\": %s",
			 tl->path, error_text(tl->error, reason, sizeof(reason)));
}
