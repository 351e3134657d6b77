/*
 * bench_int.h — what bench.c and bench_setup.c share: the pgbench tables
 * as the set-up connection finds them, and the set-up steps before the
 * run.  Private to src/run.
 */
#ifndef PGBENCH_BENCH_INT_H
#define PGBENCH_BENCH_INT_H

#include <stdio.h>
#include <libpq-fe.h>

#include "pgbench/cli/options.h"
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

#endif
