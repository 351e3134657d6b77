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
	jw_open(jw, RM_TOP_SETTINGS);
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
	jw_int(jw, RM_TRANSACTIONS_FAILED, fc->failed);
	put_counters_of_kind(jw, fc, STATS_COUNT_FAILURE);
	put_counters_of_kind(jw, fc, STATS_COUNT_SKIPPED);
	put_counters_of_kind(jw, fc, STATS_COUNT_RETRY);
	jw_int(jw, RM_TRANSACTIONS_TOTAL, fc->total);
}

/*
 * count, average, stddev, min, max (ms) of a series; nulls when empty.
 * Every "latency_ms" but a point's is a LATENCY object, whatever holds it.
 */
static void
put_series(json_writer *jw, const figures_series *fs)
{
	jw_int(jw, RM_LATENCY_COUNT, fs->count);
	jw_num(jw, RM_LATENCY_AVERAGE, fs->average);
	jw_num(jw, RM_LATENCY_STDDEV, fs->stddev);
	jw_num(jw, RM_LATENCY_MIN, fs->min);
	jw_num(jw, RM_LATENCY_MAX, fs->max);
}

/* "latency_ms" as member m (the top level's, a script's). */
static void
put_latency(json_writer *jw, report_member m, const report_figures *f,
			const figures_latency *fl)
{
	jw_open(jw, m);
	put_series(jw, &fl->series);
	report_json_percentiles(jw, f, fl);
	close_block(jw, '}');
}

static void
put_commands(json_writer *jw, const report_figures *f, const figures_script *fs)
{
	if (!f->per_command)
	{
		jw_null(jw, RM_SCRIPT_COMMANDS);
		return;
	}
	jw_open(jw, RM_SCRIPT_COMMANDS);
	for (int j = 0; j < fs->ncommands; j++)
	{
		const figures_command *fc = &fs->commands[j];

		open_block(jw, NULL, '{');
		jw_int(jw, RM_COMMAND_NUMBER, j);
		jw_str(jw, RM_COMMAND_LINE, fc->line);
		jw_open(jw, RM_COMMAND_LATENCY_MS);
		put_series(jw, &fc->latency);
		report_json_percentiles(jw, f, &fc->percentiles);
		close_block(jw, '}');
		jw_int(jw, RM_COMMAND_FAILURES, fc->failures);
		jw_int(jw, RM_COMMAND_RETRIES, fc->retries);
		report_json_hist(jw, RM_COMMAND_LATENCY_HISTOGRAM, fc->hist,
						 fc->latency_sum_us, fc->latency_sum2_us);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_scripts(json_writer *jw, const report_figures *f)
{
	jw_open(jw, RM_TOP_SCRIPTS);
	for (int i = 0; i < f->nscripts; i++)
	{
		const figures_script *fs = &f->scripts[i];

		open_block(jw, NULL, '{');
		jw_int(jw, RM_SCRIPT_NUMBER, i + 1);
		jw_str(jw, RM_SCRIPT_NAME, fs->name);
		jw_str(jw, RM_SCRIPT_SHA256, fs->sha256);
		jw_int(jw, RM_SCRIPT_WEIGHT, fs->weight);
		jw_num(jw, RM_SCRIPT_WEIGHT_PCT, fs->weight_pct);
		jw_open(jw, RM_SCRIPT_TRANSACTIONS);
		put_counts(jw, &fs->counts);
		close_block(jw, '}');
		jw_num(jw, RM_SCRIPT_PROCESSED_PCT, fs->processed_pct);
		jw_num(jw, RM_SCRIPT_TPS, fs->tps);
		put_latency(jw, RM_SCRIPT_LATENCY_MS, f, &fs->latency);
		put_commands(jw, f, fs);
		report_json_hist(jw, RM_SCRIPT_LATENCY_HISTOGRAM, fs->hist,
						 fs->latency_sum_us, fs->latency_sum2_us);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}

static void
put_transactions(json_writer *jw, const report_figures *f)
{
	jw_open(jw, RM_TOP_TRANSACTIONS);
	put_counts(jw, &f->counts);
	if (f->duration <= 0)
		jw_int(jw, RM_TRANSACTIONS_EXPECTED, f->expected);
	else
		jw_null(jw, RM_TRANSACTIONS_EXPECTED);
	if (f->latency_limited)
		jw_int(jw, RM_TRANSACTIONS_LATE, f->late);
	else
		jw_null(jw, RM_TRANSACTIONS_LATE);
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
	jw_bool(jw, RM_TOP_ABORTED, f->aborted);
	report_json_aborts(jw, f);
	jw_num(jw, RM_TOP_DURATION_S, f->duration_s);
	jw_num(jw, RM_TOP_TPS, f->tps);
	if (f->connect_each)
	{
		jw_null(jw, RM_TOP_INITIAL_CONNECTION_MS);
		jw_num(jw, RM_TOP_AVERAGE_CONNECTION_MS, f->average_connection_ms);
	}
	else
	{
		jw_num(jw, RM_TOP_INITIAL_CONNECTION_MS, f->initial_connection_ms);
		jw_null(jw, RM_TOP_AVERAGE_CONNECTION_MS);
	}
	put_transactions(jw, f);
	report_json_reconnect(jw, f);

	/* the text report's figure: measured, or derived from the run time */
	jw_num(jw, RM_TOP_TEXT_LATENCY_AVERAGE_MS, f->latency_average_ms);
	jw_bool(jw, RM_TOP_TEXT_LATENCY_AVERAGE_DERIVED, f->latency_average_derived);
	put_latency(jw, RM_TOP_LATENCY_MS, f, &f->latency);
	if (f->throttled)
	{
		jw_open(jw, RM_TOP_LAG_MS);
		jw_num(jw, RM_LAG_AVERAGE, f->lag_average_ms);
		jw_num(jw, RM_LAG_MAX, f->lag_count > 0 ? f->lag_max_ms : NAN);
		close_block(jw, '}');
	}
	else
		jw_null(jw, RM_TOP_LAG_MS);

	put_scripts(jw, f);
}

/* The first member the last document wrote against its declaration. */
static report_member last_violation = RM_NONE;

report_member
report_json_schema_violation(void)
{
	return last_violation;
}

/* --label: an object of the keys, each with its value ({} when none) */
static void
put_labels(json_writer *jw, const figures_extra *e)
{
	jw_open(jw, RM_TOP_LABELS);
	for (int i = 0; e != NULL && i < e->nlabels; i++)
		put_str(jw, e->labels[i].key, e->labels[i].value);
	close_block(jw, '}');
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
	jw_int(&jw, RM_TOP_SCHEMA_VERSION, REPORT_JSON_SCHEMA_VERSION);
	jw_str(&jw, RM_TOP_PGBENCH_VERSION, PGBENCH_VERSION);
	jw_str(&jw, RM_TOP_RUN_ID, run_id != NULL && run_id[0] != '\0' ? run_id : NULL);
	put_labels(&jw, f != NULL ? &f->extra : end->meta);
	jw_str(&jw, RM_TOP_SERVER_VERSION, server);
	jw_str(&jw, RM_TOP_OUTCOME, outcome_name(end->outcome));
	if (end->outcome == REPORT_INTERRUPTED)
		jw_str(&jw, RM_TOP_SIGNAL, end->signal);
	jw_str(&jw, RM_TOP_ERROR, end->error);
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
