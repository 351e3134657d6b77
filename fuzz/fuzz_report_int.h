/*
 * fuzz_report_int.h — what the parts of fuzz_report's input share
 * (fuzz_report.c makes the figures, fuzz_report_input.c takes numbers and
 * strings from the input, fuzz_report_server.c the server's side and a
 * merged report's inputs): the bounds, the input and the store the
 * figures point into.
 */
#ifndef PGBENCH_FUZZ_REPORT_INT_H
#define PGBENCH_FUZZ_REPORT_INT_H

#include <stdint.h>

#include "fuzz_report.h"
#include "pgbench/base/utf8.h"
#include "pgbench/config/runconf.h"
#include "pgbench/report/threshold.h"

#define FR_MAX_SCRIPTS 3
#define FR_MAX_COMMANDS 3
#define FR_MAX_ARGS 6
#define FR_MAX_POINTS 3
#define FR_MAX_ABORTS 2
#define FR_MAX_BUCKETS 8
#define FR_MAX_SETTINGS 3
#define FR_MAX_OWNED 256
#define FR_MEASURED_MAX 1e100
#define FR_MAX_SOURCES 4
#define FR_MAX_THRESHOLDS 3
#define FR_MANY_POINTS 260		/* past RUN_MAX_CHECKPOINTS (256) */
#define FR_MANY_ROUNDS 70		/* copies with names of their own: past RUN_MAX_EVENTS (64) */
#define FR_MAX_NAMES 256

/* The input: strings from the front (p), numbers from the back (q). */
typedef struct fr_in
{
	const uint8_t *p;
	const uint8_t *q;
	int			nowned;
	void	   *owned[FR_MAX_OWNED];	/* what to free after the run */
} fr_in;

/* What the figures point to, beside the strings and arrays in owned. */
typedef struct fr_store
{
	report_figures f;
	figures_script scripts[FR_MAX_SCRIPTS];
	figures_command commands[FR_MAX_SCRIPTS][FR_MAX_COMMANDS];
	hist		hists[1 + FR_MAX_SCRIPTS * (1 + FR_MAX_COMMANDS)];
	int			nhists;
	char	   *argv[FR_MAX_ARGS];
	timeline	tl;				/* the series' records (in memory) */
	server_info server;
	server_setting nondefault[FR_MAX_SETTINGS];
	run_abort	aborts[FR_MAX_ABORTS];
	const run_abort *abort_list[FR_MAX_ABORTS];
	report_target target;
	rendezvous_info rendezvous;
	run_config	cfg;			/* only its percentiles are read */
	server_run	srun;			/* --server-stats */
	report_source sources[FR_MAX_SOURCES];	/* a merged report's inputs */
	threshold	thresholds[FR_MAX_THRESHOLDS];	/* --threshold, checked */
	run_label	labels[3];		/* --label: fixed keys, values of any bytes */
	threshold_result checked[FR_MAX_THRESHOLDS];
	/* the wait event names so far: each sanitized form has one raw name */
	int			nnames;
	struct
	{
		char		raw[TIMELINE_WAIT_NAME];
		char		clean[UTF8_SANITIZED_SIZE(TIMELINE_WAIT_NAME)];
	}			names[FR_MAX_NAMES];
} fr_store;

/* ---- the input: numbers from the back, strings from the front (fuzz_report_input.c) */

void	   *fr_alloc(fr_in *in, size_t size);
uint64_t	take(fr_in *in, int n);
int64_t		take_i64(fr_in *in);
int		take_int(fr_in *in);
double		take_double(fr_in *in);
double		take_measured(fr_in *in);
double		take_reading(fr_in *in);
double		take_finite(fr_in *in);
bool		take_bool(fr_in *in);
char	   *take_str(fr_in *in, size_t max);
void		take_into(fr_in *in, char *buf, size_t size);

/*
 * The server's side of the run and a merged report's inputs, taken last
 * (fuzz_report_server.c).
 */
void		take_server_side(fr_in *in, fr_store *st);

#endif
