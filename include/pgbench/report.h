/*
 * report.h — the final report of a benchmark run, printed on stdout with
 * the lines of pgbench 16: test parameters, transaction counts, latency,
 * connection time and tps, then per-script and per-command figures (-r,
 * several scripts).  Our --percentiles adds "latency pN = X ms" lines
 * after the latency lines (overall and per script); --report-json writes
 * the same figures as one JSON document (report_json.c, doc/report-json.md).
 */
#ifndef PGBENCH_REPORT_H
#define PGBENCH_REPORT_H

#include <stdio.h>

#include "pgbench/options.h"
#include "pgbench/stats.h"

/* Everything the report shows, gathered by the orchestrator after join. */
typedef struct report_input
{
	const pgb_options *opts;
	const script_set *scripts;
	const int  *script_offset;	/* flattened index of each script's first command */
	int			nclients;
	int			nthreads;		/* after clamping to nclients */
	int			scale;			/* -s or the count of pgbench_branches */
	partition_method partition_method;	/* as found in the database */
	int			partitions;
	double		throttle_delay; /* per-thread mean delay, 0 without -R */
	bool		per_script_stats;	/* several scripts */
	const stats_run *stats;		/* all threads merged */
	pg_time_usec_t bench_duration;	/* end - first thread's start */
	pg_time_usec_t conn_elapsed;	/* start - set-up: initial connections */
	const char *server_version; /* as the banner shows it; NULL if unknown */
	bool		aborted;		/* some client did not finish (exit code 2) */
} report_input;

/* Print the report to out.  Floating point as PostgreSQL's printf ("NaN"). */
void		report_print(FILE *out, const report_input *in);

/*
 * Write the whole report as one JSON document (doc/report-json.md) to out.
 * Returns false when a write to out failed (ferror).
 */
bool		report_json_write(FILE *out, const report_input *in);

/*
 * Format v with fmt (one floating conversion, e.g. "%.3f") into buf as
 * PostgreSQL's printf does, non-finite values included: "NaN",
 * "Infinity", "-Infinity".  Returns buf or a constant string.
 */
const char *report_num(char *buf, size_t len, const char *fmt, double v);

#endif
