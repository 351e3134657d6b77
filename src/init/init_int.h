/*
 * init_int.h — what the files of the init unit share among themselves;
 * not part of the unit's contract, which is init.h.  The files are layers
 * and call only downwards: init.c (the executor) -> init_plan.c (the
 * planner, pure) and init_parallel.c (the -j N batches) -> init_base.c
 * (cancellation, statements, progress lines).
 *
 * Errors (doc/design.md, "Errors and memory"): every function below
 * init_run returns a status and, on failure, fills the caller's
 * init_error; none prints an error.  init_run prints the record in
 * pgbench's words, after the steps (and any -j workers) have stopped.
 * What they print themselves is progress: the steps' lines, the planner's
 * notes, the COPY progress lines, the cancel request's line.
 */
#ifndef PGBENCH_INIT_INT_H
#define PGBENCH_INIT_INT_H

#include <signal.h>

#include <libpq-fe.h>

#include "pgbench/base/diag.h"
#include "pgbench/init/init_copy.h"
#include "pgbench/init/init_plan.h"
#include "pgbench/cli/options.h"

struct ipar_pool;

typedef struct init_ctx
{
	PGconn	   *conn;			/* the connection of the sequential steps */
	const pgb_options *opts;
	struct ipar_pool *pool;		/* -j N > 1: opened by the first parallel step */
} init_ctx;

/* ---- init_base.c ---- */

/* The most lines a failure prints (an error and its detail, or two errors). */
#define INIT_ERROR_MAX_LINES 2

/*
 * Why a step failed: the lines pgbench prints for it, in order, each with
 * its level (DIAG_ERROR, DIAG_DETAIL) and its text without "pgbench:
 * error: " or a newline.  Owned by the caller (zeroed before use, released
 * with init_error_free); filled once, where the failure happens (by a
 * -j worker thread too: the first failure's worker alone writes it, and
 * the caller reads it after the join); printed by init_run alone.
 */
typedef struct init_error
{
	int			nlines;			/* 0: nothing failed */
	diag_level	level[INIT_ERROR_MAX_LINES];
	char	   *text[INIT_ERROR_MAX_LINES];	/* malloc'd */
} init_error;

/* Append a line to err (ignored when it is full).  Any thread. */
void		init_error_add(init_error *err, diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fill err with pgbench's two lines for a failed statement on conn. */
void		init_error_query(init_error *err, PGconn *conn, const char *sql);

/*
 * Fill err with pgbench's two lines for a connection that could not be
 * opened: libpq's message (errbuf, from conn_open), then ours.
 */
void		init_error_connect(init_error *err, const char *errbuf);

/* Free err's lines and empty it. */
void		init_error_free(init_error *err);

/*
 * SIGINT sends a cancel request for conn's running statement (unless
 * SIGINT was ignored at start); teardown restores the default action and
 * frees the handle.  Start-up code, main thread only.
 */
void		init_cancel_setup(PGconn *conn);
void		init_cancel_teardown(void);

/* Set by SIGINT: the loaders stop sending rows. */
extern volatile sig_atomic_t init_cancel_requested;

/* Every connection in handles[0..n) gets a cancel request on SIGINT too. */
void		init_cancel_add_extra(PGcancel **handles, int n);

/*
 * Run one statement that returns no rows on conn; on failure fill err
 * with pgbench's "query failed" lines (init_error_query) and return
 * false.  Prints nothing.  Thread-safe for distinct connections and
 * records.
 */
bool		init_exec_on(PGconn *conn, const char *sql, init_error *err);

/* The progress lines of one table's load, as pgbench prints them. */
typedef struct init_progress
{
	int64_t		total;
	pg_time_usec_t start;
	bool		quiet;
	char		eol;			/* '\r' keeps a terminal on one line */
	int			log_interval;	/* -q: next report after this many intervals */
	const char *table;			/* named in the line from 17 on; NULL: 16's line */
	bool		pad;			/* 18 on: blank out what a longer line left */
	int			chars;			/* length of the last line, without its eol */
	int			prev_chars;
} init_progress;

void		init_progress_setup(const init_ctx *ctx, icopy_table table, init_progress *prog);

/* Called with the rows done so far: prints a line where pgbench would. */
void		init_on_progress(void *arg, int64_t done);

/* Ends a terminal's progress line: a newline (16) or blanks (17 on). */
void		init_progress_end(const init_progress *prog);

/* ---- init_parallel.c ---- */

/*
 * Opens the -j N connections (conns[0] is ctx->conn), once; later calls do
 * nothing.  False with err filled (init_error_connect) when one failed.
 */
bool		ipar_open(init_ctx *ctx, init_error *err);

/*
 * Runs the items[0..nitems) of one batch of a plan (SQL or COPY items) at
 * once over the -j N connections, opening them first if need be; a COPY
 * batch has one set of progress lines for its table.  False with err
 * filled by the first failure (by whichever thread met it; read once this
 * returns, the threads joined); the others fill nothing.
 */
bool		ipar_run_batch(init_ctx *ctx, const init_item *items, int nitems,
						   init_error *err);

/* Closes the connections of the pool, if any. */
void		ipar_close(init_ctx *ctx);

#endif
