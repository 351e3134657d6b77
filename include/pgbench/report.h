/*
 * report.h — the final report of a benchmark run, printed on stdout with
 * the lines of pgbench 16: test parameters, transaction counts, latency,
 * connection time and tps, then per-script and per-command figures (-r,
 * several scripts).
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
} report_input;

/* Print the report to out.  Floating point as PostgreSQL's printf ("NaN"). */
void		report_print(FILE *out, const report_input *in);

#endif
