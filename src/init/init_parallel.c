/*
 * init_parallel.c — the steps g, G, v and p with -j N > 1 (our extension:
 * pgbench refuses -j in initialization mode): N connections at once.
 *
 * Step g/G: an ordinary pgbench_accounts is loaded as with -j 1, by one
 * connection in the truncating transaction (COPY FREEZE for g): several
 * COPYs into one heap contend instead of going faster, and could not
 * freeze the rows.  A partitioned one (never frozen by pgbench) is loaded
 * after the sequential part (init.c) has truncated the four tables, loaded
 * the small ones and committed: in N ranges of whole branches, each by its
 * own connection and transaction, through the parent as pgbench does (COPY
 * for g, INSERT ... SELECT generate_series for G).
 *
 * Step v: the VACUUM ANALYZE of each table runs concurrently.  A
 * partitioned pgbench_accounts has each partition vacuumed concurrently
 * with the others, then "analyze pgbench_accounts", which on the server
 * analyzes the parent and, one after another, each partition (up to 17
 * ANALYZE always recurses into the partitions): the statistics end as
 * pgbench's "vacuum analyze pgbench_accounts" leaves them, each partition
 * vacuumed once and analyzed once, after its vacuum.
 *
 * Step p: the three primary keys are built concurrently; a partitioned
 * pgbench_accounts gets each partition's key first (concurrently), then
 * the parent's, which attaches them.  No server setting is changed.
 *
 * The progress lines are pgbench's, one line for the whole table; failures
 * print the first failed statement only.
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

typedef enum ipar_job_kind
{
	IPAR_SQL,					/* run sql */
	IPAR_COPY,					/* COPY pgbench_accounts rows first..first+count-1 */
} ipar_job_kind;

typedef struct ipar_job
{
	ipar_job_kind kind;
	char	   *sql;			/* IPAR_SQL: owned */
	int64_t		first;			/* IPAR_COPY */
	int64_t		count;
} ipar_job;

/* A growable list of jobs. */
typedef struct ipar_jobs
{
	ipar_job   *items;
	int			n;
	int			cap;
} ipar_jobs;

/* The connections, opened by the first parallel step and kept until the end. */
struct ipar_pool
{
	PGconn	  **conns;			/* conns[0] is the sequential steps' connection */
	PGcancel  **cancels;		/* of conns[1..] */
	int			nconns;
};

/* One parallel step: workers take jobs in order until none is left. */
typedef struct ipar_run
{
	const init_ctx *ctx;
	const ipar_jobs *jobs;
	init_progress *prog;		/* COPY jobs' progress lines; may be NULL */
	pthread_mutex_t lock;		/* guards the fields below */
	int			next;			/* the next job to take */
	bool		failed;			/* a job failed: take no more, report no more */
	int64_t		done;			/* rows of all COPY jobs so far */
} ipar_run;

typedef struct ipar_worker
{
	ipar_run   *run;
	PGconn	   *conn;
	int64_t		reported;		/* rows of the current COPY job counted in run->done */
	pthread_t	thread;
} ipar_worker;

/* ---- jobs ---- */

static ipar_job *
ipar_add(ipar_jobs *jobs, ipar_job_kind kind)
{
	ipar_job   *job;

	if (jobs->n == jobs->cap)
	{
		jobs->cap = jobs->cap ? jobs->cap * 2 : 8;
		jobs->items = pgb_realloc(jobs->items, sizeof(ipar_job) * (size_t) jobs->cap);
	}
	job = &jobs->items[jobs->n++];
	memset(job, 0, sizeof(*job));
	job->kind = kind;
	return job;
}

static void ipar_add_sql(ipar_jobs *jobs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
ipar_add_sql(ipar_jobs *jobs, const char *fmt, ...)
{
	ipar_job   *job = ipar_add(jobs, IPAR_SQL);
	va_list		ap;
	int			len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	job->sql = pgb_malloc((size_t) len + 1);
	va_start(ap, fmt);
	vsnprintf(job->sql, (size_t) len + 1, fmt, ap);
	va_end(ap);
}

static void
ipar_free_jobs(ipar_jobs *jobs)
{
	for (int i = 0; i < jobs->n; i++)
		free(jobs->items[i].sql);
	free(jobs->items);
	memset(jobs, 0, sizeof(*jobs));
}

/*
 * pgbench_accounts in min(connections, scale) ranges of whole branches:
 * each range starts on a multiple of the progress interval, so every
 * connection's batches end where pgbench's would.  Calls add(jobs, first,
 * count) per range.
 */
static void
ipar_split_accounts(const init_ctx *ctx, ipar_jobs *jobs,
					void (*add) (ipar_jobs *jobs, int64_t first, int64_t count))
{
	int64_t		scale = ctx->opts->scale;
	int64_t		parts = ctx->pool->nconns < scale ? ctx->pool->nconns : scale;

	for (int64_t k = 0; k < parts; k++)
	{
		int64_t		lo = scale * k / parts;
		int64_t		hi = scale * (k + 1) / parts;

		if (hi > lo)
			add(jobs, lo * ICOPY_ACCOUNTS_PER_SCALE + 1, (hi - lo) * ICOPY_ACCOUNTS_PER_SCALE);
	}
}

static void
ipar_add_copy(ipar_jobs *jobs, int64_t first, int64_t count)
{
	ipar_job   *job = ipar_add(jobs, IPAR_COPY);

	job->first = first;
	job->count = count;
}

static void
ipar_add_insert(ipar_jobs *jobs, int64_t first, int64_t count)
{
	ipar_add_sql(jobs, "insert into pgbench_accounts(aid,bid,abalance,filler) "
				 "select aid, (aid - 1) / %d + 1, 0, '' from generate_series(%" PRId64 ", %" PRId64 ") as aid",
				 ICOPY_ACCOUNTS_PER_SCALE, first, first + count - 1);
}

/* ---- the pool ---- */

static bool
ipar_open(init_ctx *ctx)
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
			diag_error("%s", errbuf);
			diag_error("could not create connection for initialization");
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
 * message alone is printed.  The other loaders stop sending rows.
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
		init_report_query_failure(w->conn, sql);
	return false;
}

static bool
ipar_exec_job(ipar_worker *w, const ipar_job *job)
{
	icopy_request req = {
		.conn = w->conn,
		.table = ICOPY_ACCOUNTS,
		.scale = w->run->ctx->opts->scale,
		.first_row = job->first,
		.nrows = job->count,
		.progress_every = IPAR_PROGRESS_ROWS,
		.progress = w->run->prog ? ipar_on_progress : NULL,
		.progress_arg = w,
		.cancel = &init_cancel_requested,
	};
	char		errbuf[4096];

	if (job->kind == IPAR_SQL)
		return ipar_exec_sql(w, job->sql);
	w->reported = 0;
	if (icopy_load(&req, errbuf, sizeof(errbuf)))
		return true;
	if (ipar_fail(w->run))
		diag_error("%s", errbuf);
	return false;
}

static void *
ipar_worker_main(void *arg)
{
	ipar_worker *w = arg;
	ipar_run   *run = w->run;

	for (;;)
	{
		const ipar_job *job = NULL;

		pthread_mutex_lock(&run->lock);
		if (!run->failed && run->next < run->jobs->n)
			job = &run->jobs->items[run->next++];
		pthread_mutex_unlock(&run->lock);
		if (job == NULL || !ipar_exec_job(w, job))
			return NULL;
	}
}

/*
 * Runs the jobs on min(connections, jobs) connections at once: this
 * thread serves the first, a thread each the others.  True when every job
 * succeeded.
 */
static bool
ipar_run_jobs(const init_ctx *ctx, const ipar_jobs *jobs, init_progress *prog)
{
	ipar_run	run = {.ctx = ctx, .jobs = jobs, .prog = prog};
	int			nworkers = ctx->pool->nconns < jobs->n ? ctx->pool->nconns : jobs->n;
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

/* ---- the steps ---- */

bool
ipar_generate_client(init_ctx *ctx)
{
	ipar_jobs	jobs = {0};
	init_progress prog;
	bool		ok;

	if (!ipar_open(ctx))
		return false;
	ipar_split_accounts(ctx, &jobs, ipar_add_copy);
	init_progress_setup(ctx, ICOPY_ACCOUNTS, &prog);
	ok = ipar_run_jobs(ctx, &jobs, &prog);
	ipar_free_jobs(&jobs);
	if (ok)
		init_progress_end(&prog);
	return ok;
}

bool
ipar_generate_server(init_ctx *ctx)
{
	ipar_jobs	jobs = {0};
	bool		ok;

	if (!ipar_open(ctx))
		return false;
	ipar_split_accounts(ctx, &jobs, ipar_add_insert);
	ok = ipar_run_jobs(ctx, &jobs, NULL);
	ipar_free_jobs(&jobs);
	return ok;
}

/*
 * The partitions of pgbench_accounts, as quoted identifiers (*names, owned
 * by the caller, *count of them); none when the table is not partitioned
 * or missing.  False after printing a failed query.
 */
static bool
ipar_partitions(init_ctx *ctx, char ***names, int *count)
{
	static const char sql[] =
		"select c.relname from pg_catalog.pg_inherits i "
		"join pg_catalog.pg_class c on c.oid = i.inhrelid "
		"where i.inhparent = pg_catalog.to_regclass('pgbench_accounts') order by 1";
	PGresult   *res = PQexec(ctx->conn, sql);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK;
	int			n = ok ? PQntuples(res) : 0;

	*names = pgb_malloc(sizeof(char *) * (size_t) (n > 0 ? n : 1));
	*count = 0;
	for (int i = 0; ok && i < n; i++)
	{
		const char *name = PQgetvalue(res, i, 0);
		char	   *quoted = PQescapeIdentifier(ctx->conn, name, strlen(name));

		ok = quoted != NULL;
		if (ok)
		{
			(*names)[(*count)++] = pgb_strdup(quoted);
			PQfreemem(quoted);
		}
	}
	if (!ok)
		init_report_query_failure(ctx->conn, sql);
	PQclear(res);
	return ok;
}

static void
ipar_free_names(char **names, int count)
{
	for (int i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/*
 * Jobs: each table's VACUUM ANALYZE; for a partitioned pgbench_accounts,
 * each partition's VACUUM (first: they are the long ones), then "analyze
 * pgbench_accounts" once they are all done.
 */
bool
ipar_vacuum(init_ctx *ctx)
{
	static const char *const tables[] = {
		"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history",
	};
	ipar_jobs	jobs = {0};
	char	  **parts;
	int			nparts;
	bool		ok;

	if (!ipar_open(ctx))
		return false;
	if (!ipar_partitions(ctx, &parts, &nparts))
	{
		ipar_free_names(parts, nparts);
		return false;
	}
	for (int i = 0; i < nparts; i++)
		ipar_add_sql(&jobs, "vacuum %s", parts[i]);
	for (size_t i = 0; i < PGB_LENGTHOF(tables); i++)
		if (nparts == 0 || strcmp(tables[i], "pgbench_accounts") != 0)
			ipar_add_sql(&jobs, "vacuum analyze %s", tables[i]);
	ok = ipar_run_jobs(ctx, &jobs, NULL) &&
		(nparts == 0 || init_exec_on(ctx->conn, "analyze pgbench_accounts"));
	ipar_free_jobs(&jobs);
	ipar_free_names(parts, nparts);
	return ok;
}

/* " using index tablespace <quoted>" for --index-tablespace, or "". */
static char *
ipar_index_tablespace(init_ctx *ctx)
{
	const char *ts = ctx->opts->index_tablespace;
	char	   *quoted;
	char	   *clause;
	size_t		len;

	if (ts == NULL)
		return pgb_strdup("");
	quoted = PQescapeIdentifier(ctx->conn, ts, strlen(ts));
	if (quoted == NULL)
	{
		char		msg[1024];

		conn_error_text(ctx->conn, msg, sizeof(msg));
		diag_error("%s", msg);
		return NULL;
	}
	len = strlen(quoted) + 32;
	clause = pgb_malloc(len);
	snprintf(clause, len, " using index tablespace %s", quoted);
	PQfreemem(quoted);
	return clause;
}

bool
ipar_primary_keys(init_ctx *ctx)
{
	ipar_jobs	keys = {0};
	ipar_jobs	parent = {0};
	char	  **parts;
	int			nparts = 0;
	char	   *ts;
	bool		ok;

	if (!ipar_open(ctx) || (ts = ipar_index_tablespace(ctx)) == NULL)
		return false;
	ok = ipar_partitions(ctx, &parts, &nparts);
	ipar_add_sql(&keys, "alter table pgbench_branches add primary key (bid)%s", ts);
	ipar_add_sql(&keys, "alter table pgbench_tellers add primary key (tid)%s", ts);
	for (int i = 0; i < nparts; i++)
		ipar_add_sql(&keys, "alter table %s add primary key (aid)%s", parts[i], ts);
	/* the parent's key last: it attaches the partitions' keys */
	ipar_add_sql(nparts > 0 ? &parent : &keys,
				 "alter table pgbench_accounts add primary key (aid)%s", ts);
	ok = ok && ipar_run_jobs(ctx, &keys, NULL) &&
		(parent.n == 0 || ipar_run_jobs(ctx, &parent, NULL));
	ipar_free_jobs(&keys);
	ipar_free_jobs(&parent);
	ipar_free_names(parts, nparts);
	free(ts);
	return ok;
}
