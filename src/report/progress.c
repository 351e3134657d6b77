/*
 * progress.c — the -P line's format.  The ticker (ticker.c) prints it
 * from each interval's record.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/report/progress.h"
#include "pgbench/report/report.h"

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
				   const interval_figures *iv)
{
	char		num[64];

	append(buf, len, pos, ", ");
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%sp%g", i > 0 ? "/" : "", fmt->percentiles[i]);
	for (int i = 0; i < fmt->npercentiles; i++)
		append(buf, len, pos, "%c%s", i > 0 ? '/' : ' ',
			   report_num(num, sizeof(num), "%.3f", iv->percentile_ms[i]));
	append(buf, len, pos, " ms");
}

progress_format
progress_format_of(const run_config *cfg)
{
	return (progress_format) {
		.timestamp = cfg->progress_timestamp,
		.throttled = cfg->throttle_delay > 0,
		.latency_limit = cfg->latency_limit > 0,
		.retries = cfg->retry.max_tries != 1,
		.npercentiles = cfg->npercentiles,
		.percentiles = cfg->percentiles,
	};
}

size_t
progress_format_line(char *buf, size_t len, const progress_format *fmt,
					 const interval_figures *iv, double when)
{
	char		n1[64],
				n2[64],
				n3[64],
				n4[64];
	size_t		pos = 0;

	buf[0] = '\0';
	append(buf, len, &pos, "progress: %s s, %s tps, lat %s ms stddev %s, %" PRId64 " failed",
		   report_num(n1, sizeof(n1), fmt->timestamp ? "%.3f" : "%.1f", when),
		   report_num(n2, sizeof(n2), "%.1f", iv->tps),
		   report_num(n3, sizeof(n3), "%.3f", iv->latency_ms),
		   report_num(n4, sizeof(n4), "%.3f", iv->stddev_ms),
		   iv->failed);
	if (fmt->throttled)
	{
		append(buf, len, &pos, ", lag %s ms", report_num(n1, sizeof(n1), "%.3f", iv->lag_ms));
		if (fmt->latency_limit)
			append(buf, len, &pos, ", %" PRId64 " skipped", iv->delta.skipped);
	}
	if (fmt->retries)
		append(buf, len, &pos, ", %" PRId64 " retried, %" PRId64 " retries",
			   iv->delta.retried, iv->delta.retries);
	if (fmt->npercentiles > 0 && iv->has_percentiles)
		append_percentiles(buf, len, &pos, fmt, iv);
	append(buf, len, &pos, "\n");
	return pos;
}
