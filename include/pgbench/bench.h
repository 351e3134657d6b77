/*
 * bench.h — a whole benchmark run: set-up connection, version banner,
 * scale and partition detection, vacuum, per-client variables and random
 * states, worker threads, the report and the exit code.
 */
#ifndef PGBENCH_BENCH_H
#define PGBENCH_BENCH_H

#include "pgbench/options.h"

/*
 * Run the benchmark described by opts (validated by options_parse; its
 * scripts compiled).  Prints pgbench's banner, messages and report.
 * Returns the process exit code: 0 success, 1 an error before the run
 * (set-up connection, missing tables, a client that cannot connect, too
 * few file descriptors), 2 when a client aborted during the run.
 */
int			bench_run(const pgb_options *opts);

#endif
