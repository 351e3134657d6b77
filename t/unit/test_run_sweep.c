/*
 * test_run_sweep.c — sweep_run whole (src/run/sweep_run.c) through
 * test_run_fixture.h: each step a whole run with its value applied, in
 * order (the workers' sessions expect the value a step sends), with its
 * own logs; the lines that say where the sweep is; clients and jobs
 * swept; a step that aborts and the sweep going on; a step that cannot
 * start, a signal and --sweep-stop-on ending it; the exit status; a
 * swept variable -D did not set, no temporary directory.  Each step
 * runs -T 1.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_run_fixture.h"

static const char *const no_rules[] = {NULL};

/*
 * "SELECT :v;" then a 600 ms sleep, for -T 1: a step sends its SELECT at
 * its start and (unless it started late) again at 0.6 s, when the second
 * sleep outlasts the deadline; the session has room for a third.
 */
#define STEP_SCRIPT "SELECT :v;\n\\sleep 600 ms\n"
#define STEP_SESSION(v) (const char *const[]) { \
	"> Q SELECT " v ";", "< ROWS v | " v, "< END", \
	"> Q SELECT " v ";", "< ROWS v | " v, "< END", \
	"> Q SELECT " v ";", "< ROWS v | " v, "< END", NULL}

static const char *const silent[] = {NULL};
static const char *const fails[] = {"> Q SELECT 1;", "< ERROR 42P01 no such table", NULL};

/* How many files of the run's directory start with prefix. */
static int
count_files(const run_result *r, const char *prefix)
{
	DIR		   *d = opendir(r->dir);
	struct dirent *e;
	int			n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

/*
 * A variable swept: each step's clients send its value, in the order
 * given; every step's logs of their own; the table and the sweep's JSON
 * at the end.
 */
static void
test_variable(void)
{
	run_case	c = {
		.name = "sweep v", .args = {"-n", "-T", "1", "-D", "v=0", "--sweep=v:10,20,30", "-l",
		"--log-prefix=lg", "--report-json=sw.json", NULL}, .script = STEP_SCRIPT,
		.rules = no_rules, .sweep = true,
		.sessions = {STEP_SESSION("10"), STEP_SESSION("20"), STEP_SESSION("30")},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 0);
	run_has(r.err, "sweep: step 1 of 3, v = 10 (about 3 s left)\n", "sweep v: where it is, 1");
	run_has(r.err, "sweep: step 3 of 3, v = 30 (about 1 s left)\n", "sweep v: where it is, 3");
	run_has(r.out, "sweep step 1 of 3: v = 10\n", "sweep v: the first step's heading");
	run_has(r.out, "\nsweep step 2 of 3: v = 20\n", "sweep v: the second's, after a blank line");
	run_has(r.out, "\nsweep step 3 of 3: v = 30\n", "sweep v: the third's");
	tap_is_int(count_files(&r, "lg_step1."), 1, "sweep v: step 1's log");
	tap_is_int(count_files(&r, "lg_step3."), 1, "sweep v: step 3's log");
	tap_is_int(count_files(&r, "lg."), 0, "sweep v: no log under the plain prefix");
	tap_is_str(run_json(&r, "sw.json", "steps.2.value"), "30", "sweep v: JSON, the third step");
	run_result_free(&r);
}

/* Clients swept: step 2 connects two clients. */
static void
test_clients(void)
{
	run_case	c = {
		.name = "sweep clients", .args = {"-n", "-T", "1", "-D", "v=5", "--sweep=clients:1,2",
		NULL}, .script = STEP_SCRIPT, .rules = no_rules, .sweep = true,
		.sessions = {STEP_SESSION("5"), STEP_SESSION("5"), STEP_SESSION("5")},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 0);
	run_has(r.out, "number of clients: 1\n", "sweep clients: step 1 has one client");
	run_has(r.out, "number of clients: 2\n", "sweep clients: step 2 has two");
	run_result_free(&r);
}

/* A step that aborts: the sweep goes on, and ends with status 2. */
static void
test_aborted_step(void)
{
	run_case	c = {
		.name = "sweep, a step aborts", .args = {"-n", "-T", "1", "--sweep=rate:100,200",
		NULL}, .script = "SELECT 1;\n\\sleep 600 ms\n", .rules = no_rules, .sweep = true,
		.sessions = {fails, (const char *const[]) {"> Q SELECT 1;", "< OK SELECT", "< END",
		"> Q SELECT 1;", "< OK SELECT", "< END", "> Q SELECT 1;", "< OK SELECT", "< END", NULL}},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 2);
	run_has(r.err, "Run was aborted; the above results are incomplete.",
			"sweep, a step aborts: the step says so");
	run_has(r.out, "sweep step 2 of 2: rate = 200\n", "sweep, a step aborts: the next step runs");
	run_result_free(&r);
}

/* A step that cannot start ends the sweep with status 1. */
static void
test_no_start(void)
{
	run_case	c = {
		.name = "sweep, no server", .args = {"-n", "-T", "1", "--sweep=clients:1,2", NULL},
		.script = "SELECT 1;\n", .no_server = true, .sweep = true,
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 1);
	run_has(r.err, "could not create connection for setup", "sweep, no server: step 1 fails");
	run_lacks(r.err, "step 2 of 2", "sweep, no server: no step 2");
	run_result_free(&r);
}

/* A signal in a step ends the sweep with 128 + it, its table still printed. */
static void
test_signal(void)
{
	run_case	c = {
		.name = "sweep, a signal", .args = {"-n", "-T", "1", "--sweep=clients:1,2", NULL},
		.script = "\\sleep 20 s\n", .rules = no_rules, .sweep = true, .sessions = {silent},
		.signal_after_ms = 800,
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 130);
	run_has(r.err, "run was interrupted by signal SIGINT", "sweep, a signal: the step says so");
	run_lacks(r.out, "sweep step 2 of 2", "sweep, a signal: no step 2");
	run_result_free(&r);
}

/*
 * --sweep-stop-on=slo: the first step beyond the SLO is the last; the
 * sweep's own report that cannot be written makes the status 2.
 */
static void
test_stop_slo(void)
{
	run_case	c = {
		.name = "sweep, stop on the SLO", .args = {"-n", "-T", "1", "--sweep=clients:1,2,3",
			"--sweep-slo=1ms", "--sweep-stop-on=slo", "--report-json=none/sw.json", NULL},
		.script = "\\sleep 200 ms\n",
		.rules = no_rules, .sweep = true, .sessions = {silent},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 2);
	run_has(r.err, "sweep: stopped after step 1 of 3 (--sweep-stop-on=slo)\n",
			"sweep, stop on the SLO: after step 1");
	run_has(r.err, "could not open report file \"none/sw.json\"",
			"sweep, stop on the SLO: its report cannot be written: status 2");
	run_result_free(&r);
}

/* --sweep-stop-on=knee: tps falls at step 2, which is the last. */
static void
test_stop_knee(void)
{
	run_case	c = {
		.name = "sweep, stop at the knee", .args = {"-n", "-T", "1", "-D", "ms=0",
		"--sweep=ms:50,300,500", "--sweep-stop-on=knee", NULL}, .script = "\\sleep :ms ms\n",
		.rules = no_rules, .sweep = true, .sessions = {silent, silent},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 0);
	run_has(r.err, "sweep: stopped after step 2 of 3 (--sweep-stop-on=knee)\n",
			"sweep, stop at the knee: after step 2");
	run_result_free(&r);
}

/* Jobs swept: more threads than clients are clamped, step by step. */
static void
test_jobs(void)
{
	run_case	c = {
		.name = "sweep jobs", .args = {"-n", "-T", "1", "-D", "v=5", "--sweep=jobs:1,2", NULL},
		.script = STEP_SCRIPT, .rules = no_rules, .sweep = true,
		.sessions = {STEP_SESSION("5"), STEP_SESSION("5")},
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 0);
	run_has(r.out, "sweep step 2 of 2: jobs = 2\n", "sweep jobs: step 2 asks for two threads");
	run_lacks(r.out, "number of threads: 2\n", "sweep jobs: ... and has one, for one client");
	run_result_free(&r);
}

/* No temporary directory for the steps' reports: nothing runs. */
static void
test_no_tmpdir(void)
{
	run_case	c = {
		.name = "sweep, no temporary directory", .args = {"-n", "-T", "1",
		"--sweep=clients:1,2", NULL}, .script = "SELECT 1;\n", .rules = no_rules,
		.sweep = true, .tmpdir = "/nonexistent",
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 1);
	run_has(r.err, "pgbench: error: could not create a temporary directory for the sweep's steps:"
			" No such file or directory\n", "sweep, no temporary directory: the message");
	tap_is_str(r.queries, "", "sweep, no temporary directory: no step started");
	run_result_free(&r);
}

/* A variable swept that -D did not set. */
static void
test_unset_variable(void)
{
	run_case	c = {
		.name = "sweep, no such variable", .args = {"-n", "-T", "1", "--sweep=w:1,2", NULL},
		.script = "SELECT :w;\n", .rules = no_rules, .sweep = true,
	};
	run_result	r;

	if (!run_case_run(&c, &r))
		return;
	run_expect_sent(&r, c.name, 1);
	tap_is_str(r.err, "pgbench: setting random seed to 1\npgbench: error: --sweep: \"w\" is neither"
			   " clients, jobs, rate nor a variable set with -D\n",
			   "sweep, no such variable: the message, and nothing run");
	run_result_free(&r);
}

int
main(void)
{
	test_variable();
	test_clients();
	test_aborted_step();
	test_no_start();
	test_signal();
	test_stop_slo();
	test_stop_knee();
	test_unset_variable();
	test_jobs();
	test_no_tmpdir();
	return tap_done();
}
