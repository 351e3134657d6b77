/*
 * init_parallel.c — the batches of initialization mode's plans (-j N > 1,
 * our extension: pgbench refuses -j in initialization mode): the items of
 * a batch (init_plan.h) run at once on N connections, opened by the first
 * batch or question that needs them and kept until the end.
 *
 * What the batches hold is the planner's (init_plan.c): the ranges of a
 * partitioned pgbench_accounts (COPY for g, INSERT ... SELECT for G), each
 * table's or partition's VACUUM for v, the primary keys for p.
 *
 * The progress lines of a COPY batch are pgbench's, one line per 100000
 * rows of the whole table.  A failure fills the batch's caller's record
 * (init_int.h), the first failed statement's only: the worker that met it
 * fills it, the caller reads it once the workers are joined.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "pgbench/conn/conn.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"

#include "init_int.h"

/* Progress lines come every this many rows, as pgbench's. */
#define IPAR_PROGRESS_ROWS 100000

/* The connections, opened by the first parallel step and kept until the end. */
struct ipar_pool
{
	PGconn	  **conns;			/* conns[0] is the sequential steps' connection */
	PGcancel  **cancels;		/* of conns[1..] */
	int			nconns;
};

/* One batch: workers take its items in order until none is left. */
typedef struct ipar_run
{
	const init_ctx *ctx;
	const init_item *items;		/* the batch: SQL and COPY items */
	int			nitems;
	init_progress *prog;		/* COPY items' progress lines; may be NULL */
	pthread_mutex_t lock;		/* guards the fields below */
	int			next;			/* the next job to take */
	bool		failed;			/* a job failed: take no more, report no more */
	int64_t		done;			/* rows of all COPY items so far */
	init_error *err;			/* the caller's: the first failure's worker alone
								 * fills it (after ipar_fail said so) */
} ipar_run;

typedef struct ipar_worker
{
	ipar_run   *run;
	PGconn	   *conn;
	int64_t		reported;		/* rows of the current COPY item counted in run->done */
	pthread_t	thread;
} ipar_worker;

/* ---- the pool ---- */

bool
ipar_open(init_ctx *ctx, init_error *err)
{
	const pgb_options *opts = ctx->opts;
	struct ipar_pool *pool;
	conn_params params;
	char		errbuf[4096];

	if (ctx->pool != NULL)
		return true;
	pool = pgb_malloc(sizeof(*pool));
	pool->nconns = opts->nthreads;
	pool->conns = pgb_malloc(sizeof(PGconn *) * (size_t) pool->nconns);
	pool->cancels = pgb_malloc(sizeof(PGcancel *) * (size_t) pool->nconns);
	pool->conns[0] = ctx->conn;
	ctx->pool = pool;
	conn_params_init(&params, opts->host, opts->port, opts->username, opts->dbname);
	for (int i = 1; i < pool->nconns; i++)
	{
		pool->conns[i] = conn_open(&params, errbuf, sizeof(errbuf));
		if (pool->conns[i] == NULL)
		{
			pool->nconns = i;
			init_error_connect(err, errbuf);
			return false;
		}
		pool->cancels[i - 1] = PQgetCancel(pool->conns[i]);
		init_cancel_add_extra(pool->cancels, i);
	}
	return true;
}

void
ipar_close(init_ctx *ctx)
{
	struct ipar_pool *pool = ctx->pool;

	if (pool == NULL)
		return;
	init_cancel_add_extra(NULL, 0);
	for (int i = 1; i < pool->nconns; i++)
	{
		PQfreeCancel(pool->cancels[i - 1]);
		PQfinish(pool->conns[i]);
	}
	free(pool->cancels);
	free(pool->conns);
	free(pool);
	ctx->pool = NULL;
}

/* ---- the workers ---- */

/*
 * Marks the run failed; true when this is the first failure, whose
 * worker alone fills run->err.  The other loaders stop sending rows.
 */
static bool
ipar_fail(ipar_run *run)
{
	bool		first;

	pthread_mutex_lock(&run->lock);
	first = !run->failed;
	run->failed = true;
	init_cancel_requested = 1;
	pthread_mutex_unlock(&run->lock);
	return first;
}

/* Called by icopy after each batch: one progress line per 100000 rows of the total. */
static void
ipar_on_progress(void *arg, int64_t done)
{
	ipar_worker *w = arg;
	ipar_run   *run = w->run;
	int64_t		before;

	pthread_mutex_lock(&run->lock);
	before = run->done;
	run->done += done - w->reported;
	w->reported = done;
	if (run->prog->quiet)
		init_on_progress(run->prog, run->done);
	else
		for (int64_t m = (before / IPAR_PROGRESS_ROWS + 1) * IPAR_PROGRESS_ROWS;
			 m <= run->done; m += IPAR_PROGRESS_ROWS)
			init_on_progress(run->prog, m);
	pthread_mutex_unlock(&run->lock);
}

static bool
ipar_exec_sql(ipar_worker *w, const char *sql)
{
	PGresult   *res = PQexec(w->conn, sql);
	ExecStatusType status = PQresultStatus(res);

	PQclear(res);
	if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
		return true;
	if (ipar_fail(w->run))
		init_error_query(w->run->err, w->conn, sql);
	return false;
}

static bool
ipar_exec_item(ipar_worker *w, const init_item *item)
{
	icopy_request req = {
		.conn = w->conn,
		.table = item->table,
		.scale = w->run->ctx->opts->scale,
		.freeze = item->freeze,
		.first_row = item->first_row,
		.nrows = item->nrows,
		.progress_every = IPAR_PROGRESS_ROWS,
		.progress = w->run->prog ? ipar_on_progress : NULL,
		.progress_arg = w,
		.cancel = &init_cancel_requested,
	};
	char		errbuf[4096];

	if (item->kind != INIT_ITEM_COPY)
		return ipar_exec_sql(w, item->text);
	w->reported = 0;
	if (icopy_load(&req, errbuf, sizeof(errbuf)))
		return true;
	if (ipar_fail(w->run))
		init_error_add(w->run->err, DIAG_ERROR, "%s", errbuf);
	return false;
}

static void *
ipar_worker_main(void *arg)
{
	ipar_worker *w = arg;
	ipar_run   *run = w->run;

	for (;;)
	{
		const init_item *item = NULL;

		pthread_mutex_lock(&run->lock);
		if (!run->failed && run->next < run->nitems)
			item = &run->items[run->next++];
		pthread_mutex_unlock(&run->lock);
		if (item == NULL || !ipar_exec_item(w, item))
			return NULL;
	}
}

/*
 * Runs the items on min(connections, items) connections at once: this
 * thread serves the first, a thread each the others.  True when every item
 * succeeded; else err holds the first failure.  A thread that cannot be
 * started is said at once (the line comes before the work's progress
 * lines, as it always has) and the threads started so far do the work.
 */
static bool
ipar_run_items(const init_ctx *ctx, const init_item *items, int nitems, init_progress *prog,
			   init_error *err)
{
	ipar_run	run = {.ctx = ctx, .items = items, .nitems = nitems, .prog = prog, .err = err};
	int			nworkers = ctx->pool->nconns < nitems ? ctx->pool->nconns : nitems;
	ipar_worker *workers = pgb_malloc(sizeof(ipar_worker) * (size_t) (nworkers > 0 ? nworkers : 1));
	int			started = 1;

	pthread_mutex_init(&run.lock, NULL);
	for (int i = 0; i < nworkers; i++)
		workers[i] = (ipar_worker) {.run = &run, .conn = ctx->pool->conns[i]};
	for (; started < nworkers; started++)
		if (pthread_create(&workers[started].thread, NULL, ipar_worker_main, &workers[started]) != 0)
		{
			/* the threads started so far do the work */
			diag_error("could not create thread");
			break;
		}
	if (nworkers > 0)
		ipar_worker_main(&workers[0]);
	for (int i = 1; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	pthread_mutex_destroy(&run.lock);
	free(workers);
	return !run.failed;
}

/* ---- a batch ---- */

bool
ipar_run_batch(init_ctx *ctx, const init_item *items, int nitems, init_error *err)
{
	init_progress prog;
	bool		copy = false;
	bool		ok;

	if (!ipar_open(ctx, err))
		return false;
	for (int i = 0; i < nitems; i++)
		copy = copy || items[i].kind == INIT_ITEM_COPY;
	/* a COPY batch loads one table: its progress lines as one load's */
	if (copy)
		init_progress_setup(ctx, items[0].table, &prog);
	ok = ipar_run_items(ctx, items, nitems, copy ? &prog : NULL, err);
	if (ok && copy)
		init_progress_end(&prog);
	return ok;
}
