/*
 * bench.h — a whole benchmark run: set-up connection, version banner,
 * scale and partition detection, vacuum, per-client variables and random
 * states, worker threads, the report and the exit code.
 */
#ifndef PGBENCH_BENCH_H
#define PGBENCH_BENCH_H

#include "pgbench/cli/options.h"
#include "pgbench/config/runconf.h"

/*
 * Run the benchmark described by opts (validated by options_parse; its
 * scripts compiled).  Prints pgbench's banner, messages and report, and
 * writes --report-json however the run ends.  SIGINT and SIGTERM are
 * caught while it runs (interrupt.h): the first stops the run gracefully.
 * Returns the process exit code: 0 success, 1 an error before the run
 * (set-up connection, missing tables, a client that cannot connect, too
 * few file descriptors), 2 when a client aborted during the run or a log
 * could not be written, 128 + the signal when one stopped the run.
 */
int			bench_run(const pgb_options *opts);

/*
 * --sweep (doc/sweep.md): bench_run once per value of opts->sweep, each
 * writing its JSON report to a temporary file that the sweep's table
 * reads; then the table, and the sweep's --report-json and --report-html.
 * A -D variable swept is set in opts->defines step by step.  A step that
 * cannot start (1) or a signal (128 + it) ends the sweep there.  Returns
 * the worst exit status of the steps: a signal's, then 1, 2, 3, 0; 2 also
 * when a report file could not be written.
 */
int			sweep_run(pgb_options *opts);

/*
 * Build the run configuration from the parsed options (bench_config.c):
 * every derived value computed here once — clamped thread count,
 * per-thread -R delay, -L in microseconds, the retry policy, the log
 * configuration, whether latencies are measured, prepared statement
 * names.  pid names the -l files.  Start-up only: out of memory stops the
 * process (xalloc.h).  runconf_free releases what it allocated; the
 * scripts and -D variables stay owned by opts, which must outlive cfg.
 */
void		runconf_build(run_config *cfg, const pgb_options *opts, int pid);
void		runconf_free(run_config *cfg);

#endif
