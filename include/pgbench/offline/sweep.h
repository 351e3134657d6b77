/*
 * sweep.h — the report of a --sweep (doc/sweep.md): one row per step read
 * back from the step's own JSON report, the knee, the table that ends the
 * text, and the sweep's JSON document (every step's whole report inside)
 * and page (tps and latency percentiles against the swept value, the knee
 * marked).  The run layer (src/run/sweep_run.c) runs the steps and hands
 * each report here as it is written.
 */
#ifndef PGBENCH_SWEEP_H
#define PGBENCH_SWEEP_H

#include <stdio.h>

#include "pgbench/base/common.h"

/* A step's tps must grow by this much over the step before to be no knee. */
#define SWEEP_KNEE_GAIN 0.05
/* Steps a table holds (--sweep's limit, PGB_SWEEP_MAX_STEPS). */
#define PGB_SWEEP_ROWS 64

typedef struct sweep_table sweep_table;

/* The knee of the steps so far. */
typedef struct sweep_knee
{
	int			step;			/* index; -1: none (no step within the SLO) */
	bool		reached;		/* a later step went beyond it; false: the
								 * last step, the curve still rising */
	bool		decided;		/* a step went beyond the SLO or gained
								 * less than SWEEP_KNEE_GAIN: more steps
								 * cannot move the knee */
	bool		by_slo;			/* the rule: p99 within the SLO, else tps gain */
} sweep_knee;

/*
 * A table for a sweep of param (its name: "clients", "rate", a variable),
 * numeric when its values are numbers (the page then draws against them),
 * with slo_ms (0: none) deciding the knee.
 */
sweep_table *sweep_table_new(const char *param, bool numeric, double slo_ms);
void		sweep_table_free(sweep_table *t);

/*
 * The step with value (its text; v its number or NAN) ended with exit
 * status rc, its JSON report at path (read, checked to be a report, kept
 * whole for the sweep's document).  false, with the error printed, when
 * the report cannot be read: the step is then kept as failed.
 */
bool		sweep_table_add(sweep_table *t, const char *value, double v, int rc, const char *path);

sweep_knee	sweep_table_knee(const sweep_table *t);

/*
 * The table at the end of the text to out, and with json_path and
 * html_path the sweep's document and page (NULL: none).  stopped: the
 * sweep ended before its last step (--sweep-stop-on, a failed step).
 * false when a file could not be written (the error printed, the file
 * removed).
 */
bool		sweep_table_finish(sweep_table *t, FILE *out, int nplanned, const char *json_path,
							   const char *html_path);

#endif
