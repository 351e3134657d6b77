/*
 * report.c — the final report: the lines, their order and their number
 * formats as pgbench 16 prints them.
 */
#include <math.h>
#include <stdio.h>

#include "pgbench/report.h"

static const char *const query_mode_names[] = {"simple", "extended", "prepared"};
static const char *const partition_method_names[] = {"none", "range", "hash"};

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

static void
print_simple_stats(FILE *out, const char *prefix, const stats_simple *ss)
{
	char		b1[64],
				b2[64];
	double		mean,
				stddev;

	if (ss->count <= 0)
		return;
	mean = ss->sum / (double) ss->count;
	stddev = sqrt(ss->sum2 / (double) ss->count - mean * mean);
	fprintf(out, "%s average = %s ms\n", prefix, report_num(b1, sizeof(b1), "%.3f", 0.001 * mean));
	fprintf(out, "%s stddev = %s ms\n", prefix, report_num(b2, sizeof(b2), "%.3f", 0.001 * stddev));
}

/* --percentiles: "latency p50 = 0.812 ms", one line each */
static void
print_percentiles(FILE *out, const char *prefix, const report_input *in, const hist *h)
{
	char		b[64];

	if (h == NULL || hist_count(h) == 0)
		return;
	for (int i = 0; i < in->opts->npercentiles; i++)
	{
		double		p = in->opts->percentiles[i];

		fprintf(out, "%s p%g = %s ms\n", prefix, p,
				report_num(b, sizeof(b), "%.3f",
						   0.001 * (double) hist_value_at_percentile(h, p)));
	}
}

static void
print_parameters(FILE *out, const report_input *in)
{
	const pgb_options *opts = in->opts;
	const stats_data *total = &in->stats->total;

	fprintf(out, "transaction type: %s\n",
			in->scripts->nscripts == 1 ? in->scripts->scripts[0].desc : "multiple scripts");
	fprintf(out, "scaling factor: %d\n", in->scale);
	if (in->partition_method != PART_NONE)
		fprintf(out, "partition method: %s\npartitions: %d\n",
				partition_method_names[in->partition_method], in->partitions);
	fprintf(out, "query mode: %s\n", query_mode_names[opts->query_mode]);
	fprintf(out, "number of clients: %d\n", in->nclients);
	fprintf(out, "number of threads: %d\n", in->nthreads);
	if (opts->max_tries != 0)
		fprintf(out, "maximum number of tries: %u\n", opts->max_tries);
	if (opts->duration <= 0)
	{
		fprintf(out, "number of transactions per client: %d\n", (int) opts->nxacts);
		fprintf(out, "number of transactions actually processed: %" PRId64 "/%d\n",
				total->cnt, (int) opts->nxacts * in->nclients);
	}
	else
	{
		fprintf(out, "duration: %d s\n", opts->duration);
		fprintf(out, "number of transactions actually processed: %" PRId64 "\n", total->cnt);
	}
}

/* "N (p%)" lines of the failure and retry counters. */
static void
print_count_line(FILE *out, const char *prefix, const char *label, int64_t count,
				 int64_t of)
{
	char		b[64];

	fprintf(out, "%s%s: %" PRId64 " (%s%%)\n", prefix, label, count,
			report_num(b, sizeof(b), "%.3f", 100.0 * (double) count / (double) of));
}

static void
print_failures(FILE *out, const char *prefix, const pgb_options *opts,
			   const stats_data *sd, int64_t all)
{
	print_count_line(out, prefix, "number of failed transactions",
					 stats_data_failures(sd), all);
	if (opts->failures_detailed)
	{
		print_count_line(out, prefix, "number of serialization failures",
						 sd->serialization_failures, all);
		print_count_line(out, prefix, "number of deadlock failures",
						 sd->deadlock_failures, all);
	}
	if (opts->max_tries != 1)
	{
		print_count_line(out, prefix, "number of transactions retried", sd->retried, all);
		fprintf(out, "%stotal number of retries: %" PRId64 "\n", prefix, sd->retries);
	}
}

static void
print_latency_and_tps(FILE *out, const report_input *in, int64_t all)
{
	const pgb_options *opts = in->opts;
	const stats_data *total = &in->stats->total;
	int64_t		failures = stats_data_failures(total);
	double		seconds = 0.000001 * (double) in->bench_duration;
	double		tps = (double) total->cnt / seconds;
	char		b1[64],
				b2[64];

	if (in->throttle_delay > 0 && opts->latency_limit_us > 0)
		print_count_line(out, "", "number of transactions skipped", total->skipped, all);
	if (opts->latency_limit_us > 0)
		fprintf(out, "number of transactions above the %.1f ms latency limit: %" PRId64 "/%" PRId64 " (%s%%)\n",
				(double) opts->latency_limit_us / 1000.0, in->stats->latency_late, total->cnt,
				report_num(b1, sizeof(b1), "%.3f",
					total->cnt > 0 ? 100.0 * (double) in->stats->latency_late / (double) total->cnt : 0.0));

	if (in->throttle_delay > 0 || opts->progress_sec > 0 || opts->latency_limit_us > 0)
		print_simple_stats(out, "latency", &total->latency);
	else
		/* latency was not measured: derive its average from the run time */
		fprintf(out, "latency average = %s ms%s\n",
				report_num(b1, sizeof(b1), "%.3f",
					0.001 * (double) in->bench_duration * in->nclients / (double) all),
				failures > 0 ? " (including failures)" : "");
	print_percentiles(out, "latency", in, in->stats->latency_hist);

	if (in->throttle_delay > 0)
		fprintf(out, "rate limit schedule lag: avg %s (max %s) ms\n",
				report_num(b1, sizeof(b1), "%.3f", 0.001 * total->lag.sum / (double) total->cnt),
				report_num(b2, sizeof(b2), "%.3f", 0.001 * total->lag.max));

	if (opts->connect_each)
	{
		fprintf(out, "average connection time = %s ms\n",
				report_num(b1, sizeof(b1), "%.3f",
					0.001 * (double) in->stats->conn_duration / (double) (total->cnt + failures)));
		fprintf(out, "tps = %s (including reconnection times)\n",
				report_num(b2, sizeof(b2), "%f", tps));
	}
	else
	{
		fprintf(out, "initial connection time = %s ms\n",
				report_num(b1, sizeof(b1), "%.3f", 0.001 * (double) in->conn_elapsed));
		fprintf(out, "tps = %s (without initial connection time)\n",
				report_num(b2, sizeof(b2), "%f", tps));
	}
}

static void
print_script_stats(FILE *out, const report_input *in, int i)
{
	const script *s = &in->scripts->scripts[i];
	const stats_data *sd = &in->stats->per_script[i];
	int64_t		script_all = sd->cnt + sd->skipped + stats_data_failures(sd);
	double		seconds = 0.000001 * (double) in->bench_duration;
	char		b1[64],
				b2[64],
				b3[64];

	/* pgbench 15/16's layout: successful count, share of all successes */
	fprintf(out, "SQL script %d: %s\n", i + 1, s->desc);
	fprintf(out, " - weight: %d (targets %s%% of total)\n", s->weight,
			report_num(b1, sizeof(b1), "%.1f", 100.0 * s->weight / (double) in->scripts->total_weight));
	fprintf(out, " - %" PRId64 " transactions (%s%% of total, tps = %s)\n", sd->cnt,
			report_num(b2, sizeof(b2), "%.1f", 100.0 * (double) sd->cnt / (double) in->stats->total.cnt),
			report_num(b3, sizeof(b3), "%f", (double) sd->cnt / seconds));
	print_failures(out, " - ", in->opts, sd, script_all);
	if (in->throttle_delay > 0 && in->opts->latency_limit_us > 0 && script_all > 0)
		print_count_line(out, " - ", "number of transactions skipped", sd->skipped, script_all);
	print_simple_stats(out, " - latency", &sd->latency);
	if (in->stats->script_hist != NULL)
		print_percentiles(out, " - latency", in, &in->stats->script_hist[i]);
}

static void
print_command_stats(FILE *out, const report_input *in, int i)
{
	const script *s = &in->scripts->scripts[i];
	bool		with_retries = in->opts->max_tries != 1;

	fprintf(out, "%sstatement latencies in milliseconds%s:\n",
			in->per_script_stats ? " - " : "",
			with_retries ? ", failures and retries" : " and failures");
	for (int j = 0; j < s->ncommands; j++)
	{
		const stats_command *sc = &in->stats->per_command[in->script_offset[i] + j];
		double		mean = sc->latency.count > 0 ? 0.001 * sc->latency.sum / (double) sc->latency.count : 0.0;

		if (with_retries)
			fprintf(out, "   %11.3f  %10" PRId64 "  %10" PRId64 "  %s\n",
					mean, sc->failures, sc->retries, s->commands[j]->first_line);
		else
			fprintf(out, "   %11.3f  %10" PRId64 "  %s\n",
					mean, sc->failures, s->commands[j]->first_line);
	}
}

void
report_print(FILE *out, const report_input *in)
{
	const stats_data *total = &in->stats->total;
	int64_t		all = total->cnt + total->skipped + stats_data_failures(total);

	print_parameters(out, in);
	print_failures(out, "", in->opts, total, all);

	/* nothing ran: the remaining figures would be meaningless */
	if (total->cnt + total->skipped <= 0)
		return;

	print_latency_and_tps(out, in, all);

	if (in->per_script_stats || in->opts->report_per_command)
	{
		for (int i = 0; i < in->scripts->nscripts; i++)
		{
			if (in->per_script_stats)
				print_script_stats(out, in, i);
			if (in->opts->report_per_command)
				print_command_stats(out, in, i);
		}
	}
}
