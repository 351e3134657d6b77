/*
 * sweep_int.h — the sweep's decisions (sweep_run.c), apart from its
 * effects: which exit status is worse and what follows a step.  Private
 * to src/run and its unit tests (t/unit/test_run_decide.c).
 */
#ifndef PGBENCH_SWEEP_INT_H
#define PGBENCH_SWEEP_INT_H

#include "pgbench/offline/sweep.h"
#include "pgbench/run/bench.h"

/*
 * The exit status of a sweep whose steps so far came to so_far, after a
 * step that ended with rc: the worse of the two, a signal's (the first)
 * before 1 (could not start), 2 (aborted), 3 (a threshold) and 0.
 */
int			sweep_worse_status(int so_far, int rc);

/* What follows step k of a sweep. */
typedef enum sweep_next
{
	SWEEP_NEXT_STEP,			/* the next step, if any is left */
	SWEEP_END_FAILED,			/* the step could not start (1), or a signal
								 * ended it (128 + the signal) */
	SWEEP_END_SIGNAL,			/* a signal came after the step ended */
	SWEEP_END_STOP_ON,			/* --sweep-stop-on: the knee is decided */
} sweep_next;

/*
 * After step k (of sw->nsteps, from 0) ended with step_rc, signo the
 * signal caught since (0: none) and knee the knee of the steps so far
 * (sweep_table_knee; it counts only under --sweep-stop-on, before the
 * last step).
 */
sweep_next	sweep_after_step(const pgb_sweep *sw, int k, int step_rc, int signo,
							 const sweep_knee *knee);

#endif
