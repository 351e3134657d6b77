/*
 * bench_int.h — what bench.c shares with the other files of the bench
 * unit: the pgbench tables as the set-up connection finds them, the
 * set-up steps before the run (bench_setup.c) and the orchestrator's
 * decisions (bench_decide.c).  Private to src/run and its unit tests
 * (t/unit/test_run_*.c).
 */
#ifndef PGBENCH_BENCH_INT_H
#define PGBENCH_BENCH_INT_H

#include <stdio.h>
#include <libpq-fe.h>

#include "pgbench/cli/options.h"
#include "pgbench/run/bench.h"
#include "pgbench/engine/thread.h"
#include "pgbench/report/figures.h"
#include "pgbench/report/threshold.h"
#include "pgbench/script/script.h"

/* What the database says about the pgbench tables. */
typedef struct table_info
{
	int			scale;
	partition_method method;
	int			partitions;
} table_info;

/*
 * The banner line ("pgbench (16.0, server 15.4)" as pgbench prints it,
 * from our version and the server's) on out, keeping the server's version
 * text in keep.
 */
void		setup_print_version(FILE *out, PGconn *conn, char *keep, size_t keep_len);

/* Whether a builtin script is among set's (the run reads the scale). */
bool		setup_uses_builtin_script(const script_set *set);

/* The scale from pgbench_branches (-s ignored with a warning); false after an error. */
bool		setup_read_scale(PGconn *conn, const pgb_options *opts, table_info *info);

/* How pgbench_accounts is partitioned; false after an error. */
bool		setup_read_partitions(PGconn *conn, table_info *info);

/* pgbench's vacuum before the run (errors are printed and ignored). */
void		setup_vacuum_tables(PGconn *conn, bool vacuum_accounts, int stop_fd);

/* ---- the orchestrator's decisions (bench_decide.c: pure) ---------------- */

/*
 * The clients thread tid (of nthreads) gets when dealt clients went to the
 * threads before it: contiguous blocks as pgbench deals them, the first
 * threads one more when nthreads does not divide nclients.
 */
int			bench_deal(int nclients, int nthreads, int tid, int dealt);

/* How long the workers run: -T plus the warm-up before it; 0 without -T. */
int			bench_run_seconds(const run_config *cfg);

/* -T's deadline for workers that start at start; 0 without -T. */
pg_time_usec_t bench_deadline(const run_config *cfg, pg_time_usec_t start);

/* What the workers' summaries say of the run as a whole. */
typedef struct bench_window
{
	bool		aborted;		/* a client aborted, or (no signal) did not finish */
	int			busiest_thread; /* the worker with the highest busy share */
	double		busiest_pct;	/* its share, in percent; -1: unknown */
	pg_time_usec_t bench_start; /* the first worker's start (after GO); 0: none */
	pg_time_usec_t measure_start;	/* the first worker's start of its figures:
									 * the warm-up's end, else bench_start */
} bench_window;

void		bench_window_init(bench_window *win);

/* Fold in worker tid's summary; signo: the signal that stopped the run, or 0. */
void		bench_window_add(bench_window *win, const worker_summary *ws, int tid, int signo);

/*
 * The run's times into in, for the figures: measured from the warm-up's
 * end to joined_at (every worker joined), the initial connections from
 * origin (the workers' start) to the first worker's start, and the
 * warm-up between them; with the abort flag and the busiest thread.
 */
void		bench_window_report(const bench_window *win, pg_time_usec_t origin,
								pg_time_usec_t joined_at, report_input *in);

/*
 * The exit code of a run that ran: 128 + signo after a signal; else 2
 * when a client aborted, a report file or a log could not be written;
 * else THRESHOLD_EXIT_FAILED when a --threshold failed; else 0.
 */
int			bench_exit_code(int signo, bool aborted, bool files_failed, bool logs_failed,
							int thresholds_failed);

#endif
