/*
 * report_json.c — --report-json: the final report as one JSON document,
 * every figure of the text report plus what the text leaves out (minimum
 * and maximum latency, percentiles, per-command counts).  The fields are
 * documented one by one in doc/report-json.md; keep the two in step.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/report.h"

#define JSON_MAX_DEPTH 16

static const char *const query_mode_names[] = {"simple", "extended", "prepared"};
static const char *const partition_method_names[] = {"none", "range", "hash"};

/* A streaming writer: one member per line, two spaces per level. */
typedef struct json_writer
{
	FILE	   *out;
	int			depth;
	bool		has_member[JSON_MAX_DEPTH]; /* a comma is due at this level */
} json_writer;

static void
put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
	{
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);		/* UTF-8 passes through as is */
	}
	fputc('"', out);
}

/* Start a member: comma, newline, indent, and "key": unless in an array. */
static void
member(json_writer *jw, const char *key)
{
	if (jw->has_member[jw->depth])
		fputc(',', jw->out);
	/* the document itself starts the file, without a blank line */
	if (jw->depth > 0 || jw->has_member[0])
		fprintf(jw->out, "\n%*s", 2 * jw->depth, "");
	jw->has_member[jw->depth] = true;
	if (key != NULL)
	{
		put_string(jw->out, key);
		fputs(": ", jw->out);
	}
}

static void
open_block(json_writer *jw, const char *key, char brace)
{
	member(jw, key);
	fputc(brace, jw->out);
	if (jw->depth + 1 < JSON_MAX_DEPTH)
		jw->depth++;
	jw->has_member[jw->depth] = false;
}

static void
close_block(json_writer *jw, char brace)
{
	bool		had = jw->has_member[jw->depth];

	jw->depth--;
	if (had)
		fprintf(jw->out, "\n%*s", 2 * jw->depth, "");
	fputc(brace, jw->out);
}

static void
put_int(json_writer *jw, const char *key, int64_t v)
{
	member(jw, key);
	fprintf(jw->out, "%" PRId64, v);
}

/* A number in fmt; JSON has no NaN or infinity: null. */
static void
put_num_fmt(json_writer *jw, const char *key, double v, const char *fmt)
{
	member(jw, key);
	if (isfinite(v))
		fprintf(jw->out, fmt, v);
	else
		fputs("null", jw->out);
}

/* A measured figure: six decimals (nanoseconds for milliseconds). */
static void
put_num(json_writer *jw, const char *key, double v)
{
	put_num_fmt(jw, key, v, "%.6f");
}

/* A setting as the user wrote it: shortest exact-enough decimal form. */
static void
put_setting(json_writer *jw, const char *key, double v)
{
	put_num_fmt(jw, key, v, "%.15g");
}

static void
put_str(json_writer *jw, const char *key, const char *v)
{
	member(jw, key);
	if (v != NULL)
		put_string(jw->out, v);
	else
		fputs("null", jw->out);
}

static void
put_bool(json_writer *jw, const char *key, bool v)
{
	member(jw, key);
	fputs(v ? "true" : "false", jw->out);
}

static void
put_null(json_writer *jw, const char *key)
{
	member(jw, key);
	fputs("null", jw->out);
}

/* ---- the parts ---------------------------------------------------------- */

static void
put_settings(json_writer *jw, const report_input *in)
{
	const pgb_options *opts = in->opts;

	open_block(jw, "settings", '{');
	put_str(jw, "transaction_type",
			in->scripts->nscripts == 1 ? in->scripts->scripts[0].desc : "multiple scripts");
	put_int(jw, "scaling_factor", in->scale);
	if (in->partition_method != PART_NONE)
		put_str(jw, "partition_method", partition_method_names[in->partition_method]);
	else
		put_null(jw, "partition_method");
	put_int(jw, "partitions", in->partition_method != PART_NONE ? in->partitions : 0);
	put_str(jw, "query_mode", query_mode_names[opts->query_mode]);
	put_int(jw, "clients", in->nclients);
	put_int(jw, "threads", in->nthreads);
	put_int(jw, "max_tries", opts->max_tries);
	if (opts->duration <= 0)
	{
		put_int(jw, "transactions_per_client", opts->nxacts);
		put_null(jw, "duration_s");
	}
	else
	{
		put_null(jw, "transactions_per_client");
		put_int(jw, "duration_s", opts->duration);
	}
	if (opts->rate > 0)
		put_setting(jw, "rate_tps", opts->rate);
	else
		put_null(jw, "rate_tps");
	if (opts->latency_limit_us > 0)
		put_setting(jw, "latency_limit_ms", opts->latency_limit_ms);
	else
		put_null(jw, "latency_limit_ms");
	put_bool(jw, "connect_each", opts->connect_each);
	put_bool(jw, "failures_detailed", opts->failures_detailed);
	open_block(jw, "percentiles", '[');
	for (int i = 0; i < opts->npercentiles; i++)
		put_setting(jw, NULL, opts->percentiles[i]);
	close_block(jw, ']');
	close_block(jw, '}');
}

static void
put_counts(json_writer *jw, const stats_data *sd)
{
	put_int(jw, "processed", sd->cnt);
	put_int(jw, "failed", stats_data_failures(sd));
	put_int(jw, "serialization_failures", sd->serialization_failures);
	put_int(jw, "deadlock_failures", sd->deadlock_failures);
	put_int(jw, "other_failures", sd->other_failures);
	put_int(jw, "skipped", sd->skipped);
	put_int(jw, "retried", sd->retried);
	put_int(jw, "retries", sd->retries);
	put_int(jw, "total", sd->cnt + sd->skipped + stats_data_failures(sd));
}

/* count, average, stddev, min, max (ms) of a series; nulls when empty */
static void
put_simple(json_writer *jw, const stats_simple *ss)
{
	double		mean = ss->count > 0 ? ss->sum / (double) ss->count : NAN;

	put_int(jw, "count", ss->count);
	put_num(jw, "average", 0.001 * mean);
	put_num(jw, "stddev", ss->count > 0 ? 0.001 * sqrt(ss->sum2 / (double) ss->count - mean * mean) : NAN);
	put_num(jw, "min", ss->count > 0 ? 0.001 * ss->min : NAN);
	put_num(jw, "max", ss->count > 0 ? 0.001 * ss->max : NAN);
}

static void
put_percentiles(json_writer *jw, const report_input *in, const hist *h)
{
	open_block(jw, "percentiles", '{');
	for (int i = 0; h != NULL && hist_count(h) > 0 && i < in->opts->npercentiles; i++)
	{
		char		key[32];
		double		p = in->opts->percentiles[i];

		snprintf(key, sizeof(key), "p%g", p);
		put_num(jw, key, 0.001 * (double) hist_value_at_percentile(h, p));
	}
	close_block(jw, '}');
}

static void
put_latency(json_writer *jw, const report_input *in, const stats_simple *ss, const hist *h)
{
	open_block(jw, "latency_ms", '{');
	put_simple(jw, ss);
	put_percentiles(jw, in, h);
	close_block(jw, '}');
}

static void
put_commands(json_writer *jw, const report_input *in, int i)
{
	const script *s = &in->scripts->scripts[i];

	if (!in->opts->report_per_command)
	{
		put_null(jw, "commands");
		return;
	}
	open_block(jw, "commands", '[');
	for (int j = 0; j < s->ncommands; j++)
	{
		const stats_command *sc = &in->stats->per_command[in->script_offset[i] + j];

		open_block(jw, NULL, '{');
		put_int(jw, "number", j);
		put_str(jw, "line", s->commands[j]->first_line);
		open_block(jw, "latency_ms", '{');
		put_simple(jw, &sc->latency);
		close_block(jw, '}');
		put_int(jw, "failures", sc->failures);
		put_int(jw, "retries", sc->retries);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_scripts(json_writer *jw, const report_input *in, double seconds)
{
	const stats_data *total = &in->stats->total;

	open_block(jw, "scripts", '[');
	for (int i = 0; i < in->scripts->nscripts; i++)
	{
		const script *s = &in->scripts->scripts[i];
		const stats_data *sd = in->per_script_stats ? &in->stats->per_script[i] : total;

		open_block(jw, NULL, '{');
		put_int(jw, "number", i + 1);
		put_str(jw, "name", s->desc);
		put_int(jw, "weight", s->weight);
		put_num(jw, "weight_pct", 100.0 * s->weight / (double) in->scripts->total_weight);
		open_block(jw, "transactions", '{');
		put_counts(jw, sd);
		close_block(jw, '}');
		put_num(jw, "processed_pct", 100.0 * (double) sd->cnt / (double) total->cnt);
		put_num(jw, "tps", (double) sd->cnt / seconds);
		put_latency(jw, in, &sd->latency,
					in->stats->script_hist != NULL ? &in->stats->script_hist[i]
					: in->per_script_stats ? NULL : in->stats->latency_hist);
		put_commands(jw, in, i);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

bool
report_json_write(FILE *out, const report_input *in)
{
	const pgb_options *opts = in->opts;
	const stats_data *total = &in->stats->total;
	int64_t		all = total->cnt + total->skipped + stats_data_failures(total);
	double		seconds = 0.000001 * (double) in->bench_duration;
	json_writer jw;

	memset(&jw, 0, sizeof(jw));
	jw.out = out;
	open_block(&jw, NULL, '{');
	put_str(&jw, "pgbench_version", PGBENCH_VERSION);
	put_str(&jw, "server_version", in->server_version);
	put_settings(&jw, in);
	put_bool(&jw, "aborted", in->aborted);
	put_num(&jw, "duration_s", seconds);
	put_num(&jw, "tps", (double) total->cnt / seconds);
	if (opts->connect_each)
	{
		put_null(&jw, "initial_connection_ms");
		put_num(&jw, "average_connection_ms",
				0.001 * (double) in->stats->conn_duration /
				(double) (total->cnt + stats_data_failures(total)));
	}
	else
	{
		put_num(&jw, "initial_connection_ms", 0.001 * (double) in->conn_elapsed);
		put_null(&jw, "average_connection_ms");
	}

	open_block(&jw, "transactions", '{');
	put_counts(&jw, total);
	if (opts->duration <= 0)
		put_int(&jw, "expected", opts->nxacts * in->nclients);
	else
		put_null(&jw, "expected");
	if (opts->latency_limit_us > 0)
		put_int(&jw, "late", in->stats->latency_late);
	else
		put_null(&jw, "late");
	close_block(&jw, '}');

	/* the text report's figure: measured, or derived from the run time */
	if (in->throttle_delay > 0 || opts->progress_sec > 0 || opts->latency_limit_us > 0 || all <= 0)
		put_num(&jw, "latency_average_ms",
				total->latency.count > 0 ? 0.001 * total->latency.sum / (double) total->latency.count : NAN);
	else
		put_num(&jw, "latency_average_ms",
				0.001 * (double) in->bench_duration * in->nclients / (double) all);
	put_latency(&jw, in, &total->latency, in->stats->latency_hist);
	if (in->throttle_delay > 0)
	{
		open_block(&jw, "lag_ms", '{');
		put_num(&jw, "average", total->cnt > 0 ? 0.001 * total->lag.sum / (double) total->cnt : NAN);
		put_num(&jw, "max", total->lag.count > 0 ? 0.001 * total->lag.max : NAN);
		close_block(&jw, '}');
	}
	else
		put_null(&jw, "lag_ms");

	put_scripts(&jw, in, seconds);
	close_block(&jw, '}');
	fputc('\n', out);
	return fflush(out) == 0 && !ferror(out);
}
