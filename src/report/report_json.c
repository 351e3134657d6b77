/*
 * report_json.c — --report-json: the final report as one JSON document,
 * every figure of the text report plus what the text leaves out (minimum
 * and maximum latency, percentiles, per-command counts).  The fields are
 * documented one by one in doc/report-json.md; keep the two in step.
 * The figures come from figures_compute (figures.h); this file only
 * formats them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report.h"
#include "report_json_int.h"

/* ---- the parts ---------------------------------------------------------- */

/* Each kind of setting as REPORT_SETTINGS writes it: value v of field. */
#define PUT_SETTING_STRING(jw, key, f, field) put_str(jw, key, (f)->field)
#define PUT_SETTING_NAME(jw, key, f, field) put_str(jw, key, (f)->field)
#define PUT_SETTING_INT(jw, key, f, field) put_int(jw, key, (f)->field)
#define PUT_SETTING_NUMBER(jw, key, f, field) put_setting(jw, key, (f)->field)
#define PUT_SETTING_BOOL(jw, key, f, field) put_bool(jw, key, (f)->field)
#define PUT_SETTING_SEED(jw, key, f, field) put_uint(jw, key, (f)->field)
#define PUT_SETTING_PERCENTILES(jw, key, f, field) \
	do { \
		open_block(jw, key, '['); \
		for (int i_ = 0; i_ < (f)->n##field; i_++) \
			put_setting(jw, NULL, (f)->field[i_]); \
		close_block(jw, ']'); \
	} while (0)

/* "settings": every setting of REPORT_SETTINGS (figures.h), in its order. */
static void
put_settings(json_writer *jw, const report_figures *f)
{
	open_block(jw, "settings", '{');
#define PUT_SETTING(key, kind, field, null, merge, lo, hi) \
	if (SETTING_NULL_IF_##null) \
		put_null(jw, key); \
	else \
		PUT_##kind(jw, key, f, field);
	REPORT_SETTINGS(PUT_SETTING)
#undef PUT_SETTING
	close_block(jw, '}');
}

/* Every counter of the list in stats.h, of one kind, under its JSON name. */
static void
put_counters_of_kind(json_writer *jw, const figures_counts *fc, stats_counter_kind want)
{
#define PUT_COUNTER(field, json_name, kind) \
	if ((kind) == want) \
		put_int(jw, json_name, fc->field);
	STATS_COUNTERS(PUT_COUNTER)
#undef PUT_COUNTER
}

/* processed, failed, each failure, skipped, the retry counts, total */
static void
put_counts(json_writer *jw, const figures_counts *fc)
{
	put_counters_of_kind(jw, fc, STATS_COUNT_SUCCESS);
	put_int(jw, "failed", fc->failed);
	put_counters_of_kind(jw, fc, STATS_COUNT_FAILURE);
	put_counters_of_kind(jw, fc, STATS_COUNT_SKIPPED);
	put_counters_of_kind(jw, fc, STATS_COUNT_RETRY);
	put_int(jw, "total", fc->total);
}

/* count, average, stddev, min, max (ms) of a series; nulls when empty */
static void
put_series(json_writer *jw, const figures_series *fs)
{
	put_int(jw, "count", fs->count);
	put_num(jw, "average", fs->average);
	put_num(jw, "stddev", fs->stddev);
	put_num(jw, "min", fs->min);
	put_num(jw, "max", fs->max);
}

static void
put_latency(json_writer *jw, const report_figures *f, const figures_latency *fl)
{
	open_block(jw, "latency_ms", '{');
	put_series(jw, &fl->series);
	report_json_percentiles(jw, f, fl);
	close_block(jw, '}');
}

static void
put_commands(json_writer *jw, const report_figures *f, const figures_script *fs)
{
	if (!f->per_command)
	{
		put_null(jw, "commands");
		return;
	}
	open_block(jw, "commands", '[');
	for (int j = 0; j < fs->ncommands; j++)
	{
		const figures_command *fc = &fs->commands[j];

		open_block(jw, NULL, '{');
		put_int(jw, "number", j);
		put_str(jw, "line", fc->line);
		open_block(jw, "latency_ms", '{');
		put_series(jw, &fc->latency);
		report_json_percentiles(jw, f, &fc->percentiles);
		close_block(jw, '}');
		put_int(jw, "failures", fc->failures);
		put_int(jw, "retries", fc->retries);
		report_json_hist(jw, fc->hist, fc->latency_sum_us, fc->latency_sum2_us);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_scripts(json_writer *jw, const report_figures *f)
{
	open_block(jw, "scripts", '[');
	for (int i = 0; i < f->nscripts; i++)
	{
		const figures_script *fs = &f->scripts[i];

		open_block(jw, NULL, '{');
		put_int(jw, "number", i + 1);
		put_str(jw, "name", fs->name);
		put_int(jw, "weight", fs->weight);
		put_num(jw, "weight_pct", fs->weight_pct);
		open_block(jw, "transactions", '{');
		put_counts(jw, &fs->counts);
		close_block(jw, '}');
		put_num(jw, "processed_pct", fs->processed_pct);
		put_num(jw, "tps", fs->tps);
		put_latency(jw, f, &fs->latency);
		put_commands(jw, f, fs);
		report_json_hist(jw, fs->hist, fs->latency_sum_us, fs->latency_sum2_us);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_transactions(json_writer *jw, const report_figures *f)
{
	open_block(jw, "transactions", '{');
	put_counts(jw, &f->counts);
	if (f->duration <= 0)
		put_int(jw, "expected", f->expected);
	else
		put_null(jw, "expected");
	if (f->latency_limited)
		put_int(jw, "late", f->late);
	else
		put_null(jw, "late");
	close_block(jw, '}');
}

static const char *
outcome_name(report_outcome outcome)
{
	static const char *const names[] = {
		[REPORT_COMPLETED] = "completed",
		[REPORT_ABORTED] = "aborted",
		[REPORT_INTERRUPTED] = "interrupted",
		[REPORT_FAILED_TO_START] = "failed-to-start",
	};

	return names[outcome];
}

/* The members that follow the settings: every figure of the run. */
static void
put_figures(json_writer *jw, const report_figures *f)
{
	put_bool(jw, "aborted", f->aborted);
	report_json_aborts(jw, f);
	put_num(jw, "duration_s", f->duration_s);
	put_num(jw, "tps", f->tps);
	if (f->connect_each)
	{
		put_null(jw, "initial_connection_ms");
		put_num(jw, "average_connection_ms", f->average_connection_ms);
	}
	else
	{
		put_num(jw, "initial_connection_ms", f->initial_connection_ms);
		put_null(jw, "average_connection_ms");
	}
	put_transactions(jw, f);
	report_json_reconnect(jw, f);

	/* the text report's figure: measured, or derived from the run time */
	put_num(jw, "text_latency_average_ms", f->latency_average_ms);
	put_bool(jw, "text_latency_average_derived", f->latency_average_derived);
	put_latency(jw, f, &f->latency);
	if (f->throttled)
	{
		open_block(jw, "lag_ms", '{');
		put_num(jw, "average", f->lag_average_ms);
		put_num(jw, "max", f->lag_count > 0 ? f->lag_max_ms : NAN);
		close_block(jw, '}');
	}
	else
		put_null(jw, "lag_ms");

	put_scripts(jw, f);
}

/* The first member the last document wrote against its declaration. */
static report_member last_violation = RM_NONE;

report_member
report_json_schema_violation(void)
{
	return last_violation;
}

bool
report_json_write_ending(FILE *out, const report_figures *f, const report_ending *end)
{
	json_writer jw;
	const char *server = f != NULL ? f->server_version : end->server_version;
	const char *run_id = f != NULL ? f->extra.run_id : end->run_id;

	memset(&jw, 0, sizeof(jw));
	jw.out = out;
	jw.schema_bad = RM_NONE;
	open_block(&jw, NULL, '{');
	put_int(&jw, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	put_str(&jw, "pgbench_version", PGBENCH_VERSION);
	put_str(&jw, "run_id", run_id != NULL && run_id[0] != '\0' ? run_id : NULL);
	if (server != NULL)
		put_str(&jw, "server_version", server);
	else
		put_null(&jw, "server_version");
	put_str(&jw, "outcome", outcome_name(end->outcome));
	if (end->outcome == REPORT_INTERRUPTED)
		put_str(&jw, "signal", end->signal);
	put_str(&jw, "error", end->error);
	if (f == NULL)
		report_json_meta(&jw, end->compat, end->meta);
	else
	{
		report_json_meta(&jw, f->compat, &f->extra);
		put_settings(&jw, f);
		put_figures(&jw, f);
		report_json_server(&jw, f);
		report_json_client(&jw, f);
		report_json_server_stats(&jw, f);
		report_json_series(&jw, f);
		report_json_histogram(&jw, f);
		report_json_fleet(&jw, f);
	}
	close_block(&jw, '}');
	fputc('\n', out);
	last_violation = jw.schema_bad;
	if (jw.failed)
		errno = EIO;			/* the timeline's spill file could not be read */
	return fflush(out) == 0 && !ferror(out) && !jw.failed;
}

bool
report_json_write(FILE *out, const report_figures *f)
{
	report_ending end = {
		.outcome = f->aborted ? REPORT_ABORTED : REPORT_COMPLETED,
	};

	return report_json_write_ending(out, f, &end);
}
