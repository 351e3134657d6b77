/*
 * sweep_run.c — --sweep=NAME:LIST (doc/sweep.md): one benchmark run per
 * value, each -T long with its own warm-up, in one invocation.  Each step
 * is bench_run's whole run with the value applied (-c, -j, -R or a -D
 * variable) and its JSON report written to a private temporary file, read
 * back by the sweep's table (offline/sweep.h), which ends the text and
 * writes the sweep's own report files.  The steps print what a run
 * prints; a line on stderr before each says where the sweep is.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/offline/sweep.h"
#include "pgbench/report/threshold.h"
#include "pgbench/run/bench.h"
#include "sweep_int.h"

int
sweep_worse_status(int so_far, int rc)
{
	/* a signal, then a failure to start, then an abort, then a threshold */
	static const int order[] = {0, 3, 2, 1};
	int			a = 0,
				b = 0;

	if (so_far >= 128 || rc >= 128)
		return so_far >= 128 ? so_far : rc;
	for (int i = 0; i < 4; i++)
	{
		if (order[i] == so_far)
			a = i;
		if (order[i] == rc)
			b = i;
	}
	return b > a ? rc : so_far;
}

sweep_next
sweep_after_step(const pgb_sweep *sw, int k, int step_rc, int signo, const sweep_knee *knee)
{
	if (step_rc == 1 || step_rc >= 128)
		return SWEEP_END_FAILED;	/* a step that could not start, or a signal: no more */
	if (signo != 0)
		return SWEEP_END_SIGNAL;
	if (sw->stop_on != SWEEP_STOP_NONE && k + 1 < sw->nsteps && knee->decided &&
		(sw->stop_on == SWEEP_STOP_KNEE || knee->by_slo))
		return SWEEP_END_STOP_ON;
	return SWEEP_NEXT_STEP;
}

/* The value of step k into the step's options; false when it cannot be. */
static bool
apply_step(pgb_options *opts, pgb_options *step, int vslot, int k)
{
	const pgb_sweep *sw = &opts->sweep;

	switch (sw->param)
	{
		case SWEEP_CLIENTS:
			step->nclients = (int) sw->values[k];
			break;
		case SWEEP_JOBS:
			step->nthreads = (int) sw->values[k];
			break;
		case SWEEP_RATE:
			step->rate = sw->values[k];
			break;
		case SWEEP_VAR:
			/* the store is shared with the caller's copy: the steps run one by one */
			return var_set_string(&opts->defines, vslot, sw->texts[k], strlen(sw->texts[k]));
		case SWEEP_NONE:
			break;
	}
	return true;
}

/* A variable's slot when -D set it; -1 (the error printed) when not. */
static int
sweep_var_slot(const pgb_options *opts)
{
	const char *name = opts->sweep.name;
	int			slot = var_symtab_find(opts->scripts->symtab, name, strlen(name));

	if (slot < 0 || !var_is_set(&opts->defines, slot))
	{
		diag_error("--sweep: \"%s\" is neither clients, jobs, rate nor a variable set with -D", name);
		return -1;
	}
	return slot;
}

int
sweep_run(pgb_options *opts)
{
	const pgb_sweep *sw = &opts->sweep;
	const char *tmp = getenv("TMPDIR");
	char		tdir[4096];
	int			vslot = sw->param == SWEEP_VAR ? sweep_var_slot(opts) : -1;
	int			rc = 0,
				k;
	sweep_table *t;
	atomic_bool stop = false;
	int			step_s = opts->duration + opts->warmup;

	if (sw->param == SWEEP_VAR && vslot < 0)
		return 1;
	snprintf(tdir, sizeof(tdir), "%s/pgbench-sweep-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(tdir) == NULL)
	{
		diag_error("could not create a temporary directory for the sweep's steps: %s", strerror(errno));
		return 1;
	}
	t = sweep_table_new(sw->name, sw->param != SWEEP_VAR || !isnan(sw->values[0]), sw->slo_ms);
	/*
	 * A signal between two steps (each step arms and disarms its own
	 * catching: interrupt.h) is caught here too, so that the sweep still
	 * ends with its table and report files.
	 */
	interrupt_arm(&stop, -1);
	for (k = 0; k < sw->nsteps; k++)
	{
		pgb_options step = *opts;
		char		path[4200];
		char		log_prefix[4200];
		int			step_rc;
		sweep_knee	knee;
		sweep_next	next;

		snprintf(path, sizeof(path), "%s/step-%d.json", tdir, k + 1);
		/* -l: each step's logs of their own, PREFIX_stepK.PID[.TID] */
		snprintf(log_prefix, sizeof(log_prefix), "%s_step%d", opts->log_prefix, k + 1);
		step.log_prefix = log_prefix;
		step.report_json = path;
		step.report_html = NULL;
		if (!apply_step(opts, &step, vslot, k))
		{
			diag_error("out of memory");
			rc = sweep_worse_status(rc, 1);
			break;
		}
		fprintf(stderr, "sweep: step %d of %d, %s = %s (about %d s left)\n", k + 1, sw->nsteps,
				sw->name, sw->texts[k], (sw->nsteps - k) * step_s);
		fprintf(stdout, "%ssweep step %d of %d: %s = %s\n", k > 0 ? "\n" : "", k + 1, sw->nsteps,
				sw->name, sw->texts[k]);
		fflush(stdout);
		step_rc = bench_run(&step);
		rc = sweep_worse_status(rc, step_rc);
		if (!sweep_table_add(t, sw->texts[k], sw->values[k], step_rc, path))
			rc = sweep_worse_status(rc, 2);
		unlink(path);
		knee = sweep_table_knee(t);
		next = sweep_after_step(sw, k, step_rc, interrupt_signal(), &knee);
		if (next == SWEEP_END_SIGNAL)
		{
			fprintf(stderr, "sweep: interrupted by signal %s after step %d of %d\n",
					interrupt_signal_name(interrupt_signal()), k + 1, sw->nsteps);
			rc = sweep_worse_status(rc, 128 + interrupt_signal());
		}
		else if (next == SWEEP_END_STOP_ON)
			fprintf(stderr, "sweep: stopped after step %d of %d (--sweep-stop-on=%s)\n", k + 1,
					sw->nsteps, sw->stop_on == SWEEP_STOP_KNEE ? "knee" : "slo");
		if (next != SWEEP_NEXT_STEP)
			break;
	}
	interrupt_disarm();
	rmdir(tdir);
	if (!sweep_table_finish(t, stdout, sw->nsteps, opts->report_json, opts->report_html))
		rc = sweep_worse_status(rc, 2);
	sweep_table_free(t);
	return rc;
}
