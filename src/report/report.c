/*
 * report.c — the final report: the lines, their order and their number
 * formats as pgbench 16 prints them, or 18 and 19 in those modes, from the
 * figures computed once (figures.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report.h"

const char *
report_file_error_text(const report_file_error *err, char *buf, size_t len)
{
	snprintf(buf, len, "could not %s report file \"%s\": %s",
			 err->opening ? "open" : "write", err->path, strerror(err->errnum));
	return buf;
}

const char *
report_num(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v))
		return "NaN";
	if (isinf(v))
		return v > 0 ? "Infinity" : "-Infinity";
	snprintf(buf, len, fmt, v);
	return buf;
}

/* "X average = A ms" and "X stddev = S ms"; nothing for an empty series */
static void
print_series(FILE *out, const char *prefix, const figures_series *fs)
{
	char		b1[64],
				b2[64];

	if (fs->count <= 0)
		return;
	fprintf(out, "%s average = %s ms\n", prefix, report_num(b1, sizeof(b1), "%.3f", fs->average));
	fprintf(out, "%s stddev = %s ms\n", prefix, report_num(b2, sizeof(b2), "%.3f", fs->stddev));
}

/* --percentiles: "latency p50 = 0.812 ms", one line each */
static void
print_percentiles(FILE *out, const char *prefix, const report_figures *f,
				  const figures_latency *fl)
{
	char		b[64];

	if (!fl->has_percentiles)
		return;
	for (int i = 0; i < f->npercentiles; i++)
		fprintf(out, "%s p%g = %s ms\n", prefix, f->percentiles[i],
				report_num(b, sizeof(b), "%.3f", fl->percentile_ms[i]));
}

/*
 * The parameters; measured (not NULL) replaces -T's "duration: N s" with
 * the time the run actually lasted, "duration: 3.512 s".
 */
static void
print_parameters(FILE *out, const report_figures *f, const char *measured)
{
	fprintf(out, "transaction type: %s\n", f->transaction_type);
	fprintf(out, "scaling factor: %d\n", f->scale);
	if (f->partition_method != NULL)
		fprintf(out, "partition method: %s\npartitions: %d\n",
				f->partition_method, f->partitions);
	fprintf(out, "query mode: %s\n", f->query_mode);
	fprintf(out, "number of clients: %d\n", f->nclients);
	fprintf(out, "number of threads: %d\n", f->nthreads);
	if (f->max_tries != 0)
		fprintf(out, "maximum number of tries: %u\n", f->max_tries);
	if (f->duration <= 0)
	{
		fprintf(out, "number of transactions per client: %d\n", (int) f->nxacts);
		fprintf(out, "number of transactions actually processed: %" PRId64 "/%d\n",
				f->counts.cnt, (int) f->expected);
	}
	else
	{
		if (measured != NULL)
			fprintf(out, "duration: %s s\n", measured);
		else
			fprintf(out, "duration: %d s\n", f->duration);
		/* ours: a run with --warmup says so; none prints what pgbench does */
		if (f->warmup > 0)
			fprintf(out, "warm-up: %d s (not counted)\n", f->warmup);
		fprintf(out, "number of transactions actually processed: %" PRId64 "\n", f->counts.cnt);
	}
}

/* One "N (p%)" line of the failure and retry counters. */
static void
print_count_line(FILE *out, const char *prefix, const char *label, int64_t count,
				 double pct)
{
	char		b[64];

	fprintf(out, "%s%s: %" PRId64 " (%s%%)\n", prefix, label, count,
			report_num(b, sizeof(b), "%.3f", pct));
}

static void
print_failures(FILE *out, const char *prefix, const report_figures *f,
			   const figures_counts *fc)
{
	print_count_line(out, prefix, "number of failed transactions", fc->failed, fc->failed_pct);
	if (f->failures_detailed)
	{
		print_count_line(out, prefix, "number of serialization failures",
						 fc->serialization_failures, fc->serialization_failures_pct);
		print_count_line(out, prefix, "number of deadlock failures",
						 fc->deadlock_failures, fc->deadlock_failures_pct);
		if (f->compat >= 19)
			print_count_line(out, prefix, "number of other failures",
							 fc->other_failures, fc->other_failures_pct);
		if (f->reconnect.enabled)
			print_count_line(out, prefix, "number of connection failures",
							 fc->connection_failures, fc->connection_failures_pct);
	}
	if (f->retries_shown)
	{
		print_count_line(out, prefix, "number of transactions retried", fc->retried,
						 fc->retried_pct);
		fprintf(out, "%stotal number of retries: %" PRId64 "\n", prefix, fc->retries);
	}
}

static void
print_latency_and_tps(FILE *out, const report_figures *f)
{
	char		b1[64],
				b2[64];

	if (f->throttled && f->latency_limited)
		print_count_line(out, "", "number of transactions skipped", f->counts.skipped,
						 f->counts.skipped_pct);
	if (f->latency_limited)
		fprintf(out, "number of transactions above the %.1f ms latency limit: %" PRId64 "/%" PRId64 " (%s%%)\n",
				f->late_threshold_ms, f->late, f->counts.cnt,
				report_num(b1, sizeof(b1), "%.3f", f->late_pct));

	if (f->latency_from_series)
		print_series(out, "latency", &f->latency.series);
	else
		fprintf(out, "latency average = %s ms%s\n",
				report_num(b1, sizeof(b1), "%.3f", f->latency_average_ms),
				f->counts.failed > 0 ? " (including failures)" : "");
	print_percentiles(out, "latency", f, &f->latency);

	if (f->throttled)
		fprintf(out, "rate limit schedule lag: avg %s (max %s) ms\n",
				report_num(b1, sizeof(b1), "%.3f", f->lag_average_ms),
				report_num(b2, sizeof(b2), "%.3f", f->lag_max_ms));

	if (f->connect_each)
	{
		fprintf(out, "average connection time = %s ms\n",
				report_num(b1, sizeof(b1), "%.3f", f->average_connection_ms));
		fprintf(out, "tps = %s (including reconnection times)\n",
				report_num(b2, sizeof(b2), "%f", f->tps));
	}
	else
	{
		fprintf(out, "initial connection time = %s ms\n",
				report_num(b1, sizeof(b1), "%.3f", f->initial_connection_ms));
		fprintf(out, "tps = %s (without initial connection time)\n",
				report_num(b2, sizeof(b2), "%f", f->tps));
	}
}

/* pgbench 16's (and 17's) block: successful count, share of all successes */
static void
print_script_counts_16(FILE *out, const report_figures *f, const figures_script *fs)
{
	char		b1[64],
				b2[64];

	fprintf(out, " - %" PRId64 " transactions (%s%% of total, tps = %s)\n", fs->counts.cnt,
			report_num(b1, sizeof(b1), "%.1f", fs->processed_pct),
			report_num(b2, sizeof(b2), "%f", fs->tps));
	print_failures(out, " - ", f, &fs->counts);
	if (f->throttled && f->latency_limited && fs->counts.total > 0)
		print_count_line(out, " - ", "number of transactions skipped", fs->counts.skipped,
						 fs->counts.skipped_pct);
}

/*
 * pgbench 18's block: every transaction of the script and its share of
 * all, then, when it has any, the successful ones and the other counts.
 */
static void
print_script_counts_18(FILE *out, const report_figures *f, const figures_script *fs)
{
	char		b1[64],
				b2[64];

	fprintf(out, " - %" PRId64 " transactions (%s%% of total)\n", fs->counts.total,
			report_num(b1, sizeof(b1), "%.1f", fs->total_pct));
	if (fs->counts.total <= 0)
		return;
	fprintf(out, " - number of transactions actually processed: %" PRId64 " (tps = %s)\n",
			fs->counts.cnt, report_num(b2, sizeof(b2), "%f", fs->tps));
	print_failures(out, " - ", f, &fs->counts);
	if (f->throttled && f->latency_limited)
		print_count_line(out, " - ", "number of transactions skipped", fs->counts.skipped,
						 fs->counts.skipped_pct);
}

static void
print_script_stats(FILE *out, const report_figures *f, int i)
{
	const figures_script *fs = &f->scripts[i];
	char		b[64];

	fprintf(out, "SQL script %d: %s\n", i + 1, fs->name);
	fprintf(out, " - weight: %d (targets %s%% of total)\n", fs->weight,
			report_num(b, sizeof(b), "%.1f", fs->weight_pct));
	if (f->compat >= 18)
		print_script_counts_18(out, f, fs);
	else
		print_script_counts_16(out, f, fs);
	print_series(out, " - latency", &fs->latency.series);
	print_percentiles(out, " - latency", f, &fs->latency);
}

static void
print_command_stats(FILE *out, const report_figures *f, int i)
{
	const figures_script *fs = &f->scripts[i];

	/* 18 narrowed the gaps after the counts to one space */
	const char *gap = f->compat >= 18 ? " " : "  ";

	fprintf(out, "%sstatement latencies in milliseconds%s:\n",
			f->per_script ? " - " : "",
			f->retries_shown ? ", failures and retries" : " and failures");

	for (int j = 0; j < fs->ncommands; j++)
	{
		const figures_command *fc = &fs->commands[j];

		if (f->retries_shown)
			fprintf(out, "   %11.3f  %10" PRId64 "%s%10" PRId64 "%s%s\n",
					fc->column_ms, fc->failures, gap, fc->retries, gap, fc->line);
		else
			fprintf(out, "   %11.3f  %10" PRId64 "%s%s\n",
					fc->column_ms, fc->failures, gap, fc->line);
	}
}

/* --reconnect (beyond pgbench): the clients' outages. */
static void
print_reconnect(FILE *out, const figures_reconnect *fr)
{
	char		b[64];

	fprintf(out, "number of connection losses: %" PRId64 "\n", fr->losses);
	fprintf(out, "number of reconnects: %" PRId64 "\n", fr->reconnects);
	if (fr->losses == 0)
		return;
	fprintf(out, "downtime window: %s ms\n", report_num(b, sizeof(b), "%.3f", fr->window_ms));
	fprintf(out, "maximum downtime of a client: %s ms\n",
			report_num(b, sizeof(b), "%.3f", fr->downtime_max_ms));
	fprintf(out, "total downtime of clients: %s ms\n",
			report_num(b, sizeof(b), "%.3f", fr->downtime_total_ms));
	if (fr->down_at_end > 0)
		fprintf(out, "clients disconnected at the end: %d\n", fr->down_at_end);
}

void
report_print(FILE *out, const report_figures *f)
{
	report_ending end = {.outcome = f->aborted ? REPORT_ABORTED : REPORT_COMPLETED};

	report_print_ending(out, f, &end);
}

void
report_print_ending(FILE *out, const report_figures *f, const report_ending *end)
{
	char		measured[64];
	const char *shown = NULL;

	if (end->outcome == REPORT_INTERRUPTED)
	{
		shown = report_num(measured, sizeof(measured), "%.3f", f->duration_s);
		if (f->duration > 0)
			fprintf(out, "run interrupted by %s after %s s (of %d s)\n", end->signal, shown,
					f->duration);
		else
			fprintf(out, "run interrupted by %s after %s s\n", end->signal, shown);
	}
	print_parameters(out, f, shown);
	if (f->failures_shown)
		print_failures(out, "", f, &f->counts);
	if (f->reconnect.enabled)
		print_reconnect(out, &f->reconnect);

	/* nothing ran: the remaining figures would be meaningless */
	if (!f->ran)
		return;

	print_latency_and_tps(out, f);

	for (int i = 0; (f->per_script || f->per_command) && i < f->nscripts; i++)
	{
		if (f->per_script)
			print_script_stats(out, f, i);
		if (f->per_command)
			print_command_stats(out, f, i);
	}
}
