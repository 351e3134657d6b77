/*
 * init.c — initialization mode (-i / -I): the executor.  For each step of
 * -I in order it prints the step's line, asks init_plan.c for the step's
 * plan and runs it over the connection: statements, COPYs (init_copy.c,
 * with pgbench's progress lines), the questions whose answers the planner
 * needs to go on (after each it plans the step again, from the answer),
 * and the -j N batches (init_parallel.c).  Then the timing summary.  This
 * is start-up code and returns the exit code.  It prints the steps' lines
 * and the planner's notes as it goes; a failure anywhere below fills a
 * caller-owned init_error (init_int.h), which init_run alone prints.
 *
 * Compatibility (opts->compat): what is sent is the planner's business;
 * the lines are init_base.c's (from 17 each table's progress lines name it
 * and a terminal's line is blanked out at the end; from 18 a line shorter
 * than the one before is padded with blanks).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "pgbench/conn/conn.h"
#include "pgbench/base/diag.h"
#include "pgbench/init/init.h"
#include "pgbench/init/init_copy.h"
#include "pgbench/init/init_plan.h"
#include "pgbench/base/xalloc.h"

#include "init_int.h"

/* ---- a growable string for the summary line ---- */

typedef struct init_str
{
	char	   *data;
	size_t		len;
	size_t		cap;
} init_str;

static void init_str_appendf(init_str *str, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
init_str_appendf(init_str *str, const char *fmt, ...)
{
	for (;;)
	{
		va_list		ap;
		int			n;
		size_t		room = str->cap - str->len;

		va_start(ap, fmt);
		n = vsnprintf(str->data ? str->data + str->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t) n < room)
		{
			str->len += (size_t) n;
			return;
		}
		str->cap = (str->len + (size_t) n + 1) * 2;
		str->data = pgb_realloc(str->data, str->cap);
	}
}

/*
 * *quoted = name quoted as an identifier (PQfreemem it), or NULL when name
 * is NULL.  False with libpq's complaint in err.
 */
static bool
init_quote(init_ctx *ctx, const char *name, char **quoted, init_error *err)
{
	*quoted = NULL;
	if (name == NULL)
		return true;
	*quoted = PQescapeIdentifier(ctx->conn, name, strlen(name));
	if (*quoted == NULL)
	{
		char		msg[1024];

		conn_error_text(ctx->conn, msg, sizeof(msg));
		init_error_add(err, DIAG_ERROR, "%s", msg);
		return false;
	}
	return true;
}

/* ---- COPY ---- */

static void
init_copy_prepare(init_ctx *ctx, icopy_request *req)
{
	req->conn = ctx->conn;
	req->scale = ctx->opts->scale;
	req->cancel = &init_cancel_requested;
}

static bool
init_copy_table(init_ctx *ctx, icopy_request *req, init_error *err)
{
	char		errbuf[4096];

	init_copy_prepare(ctx, req);
	if (icopy_load(req, errbuf, sizeof(errbuf)))
		return true;
	init_error_add(err, DIAG_ERROR, "%s", errbuf);
	return false;
}

/*
 * Loads one table with progress lines.  Up to 16 only pgbench_accounts goes
 * through here and a terminal's line ends with a newline; from 17 on every
 * table does, the line names the table and is blanked out at the end.
 */
static bool
init_copy_tracked(init_ctx *ctx, icopy_table table, bool freeze, init_error *err)
{
	init_progress prog;
	icopy_request req = {
		.table = table,
		.freeze = freeze,
		.progress_every = 100000,
		.progress = init_on_progress,
		.progress_arg = &prog,
	};
	char		errbuf[4096];
	bool		ok;

	init_progress_setup(ctx, table, &prog);
	init_copy_prepare(ctx, &req);
	if (!icopy_start(&req, errbuf, sizeof(errbuf)))
	{
		init_error_add(err, DIAG_ERROR, "%s", errbuf);
		return false;
	}
	prog.start = pgb_time_now();
	ok = icopy_send_rows(&req, errbuf, sizeof(errbuf));
	if (ok)
		init_progress_end(&prog);
	ok = ok && icopy_finish(&req, errbuf, sizeof(errbuf));
	if (!ok)
		init_error_add(err, DIAG_ERROR, "%s", errbuf);
	return ok;
}

static bool
init_copy_item(init_ctx *ctx, const init_item *item, init_error *err)
{
	icopy_request req = {.table = item->table, .freeze = item->freeze};

	if (item->progress)
		return init_copy_tracked(ctx, item->table, item->freeze, err);
	return init_copy_table(ctx, &req, err);
}

/* ---- the questions ---- */

/*
 * The table's pg_class.relkind, or '\0' when there is no such table, asked
 * with the planner's query.  False with the failed query in err.
 */
static bool
init_ask_relkind(init_ctx *ctx, const init_item *item, init_facts *facts, init_error *err)
{
	const char *params[1] = {icopy_table_name(item->table)};
	PGresult   *res = PQexecParams(ctx->conn, item->text, 1, NULL, params, NULL, NULL, 0);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK;

	if (ok)
	{
		facts->relkind[item->table] = PQntuples(res) > 0 ? PQgetvalue(res, 0, 0)[0] : '\0';
		facts->relkind_known[item->table] = true;
	}
	PQclear(res);
	if (!ok)
		init_error_query(err, ctx->conn, item->text);
	return ok;
}

/* The partitions' names a step learnt, quoted; owned. */
typedef struct init_names
{
	char	  **names;
	int			n;
} init_names;

static void
init_names_free(init_names *names)
{
	for (int i = 0; i < names->n; i++)
		free(names->names[i]);
	free(names->names);
	names->names = NULL;
	names->n = 0;
}

/*
 * The partitions of pgbench_accounts, as quoted identifiers; none when the
 * table is not partitioned or missing.  Asked by -j N's steps, once their
 * connections are open.  False with the failure in err.
 */
static bool
init_ask_partitions(init_ctx *ctx, const init_item *item, init_names *names,
					init_facts *facts, init_error *err)
{
	PGresult   *res;
	bool		ok;
	int			n;

	if (!ipar_open(ctx, err))
		return false;
	res = PQexec(ctx->conn, item->text);
	ok = PQresultStatus(res) == PGRES_TUPLES_OK;
	n = ok ? PQntuples(res) : 0;
	init_names_free(names);
	names->names = pgb_malloc(sizeof(char *) * (size_t) (n > 0 ? n : 1));
	for (int i = 0; ok && i < n; i++)
	{
		const char *name = PQgetvalue(res, i, 0);
		char	   *quoted = PQescapeIdentifier(ctx->conn, name, strlen(name));

		ok = quoted != NULL;
		if (ok)
		{
			names->names[names->n++] = pgb_strdup(quoted);
			PQfreemem(quoted);
		}
	}
	if (!ok)
		init_error_query(err, ctx->conn, item->text);
	PQclear(res);
	facts->partitions_known = ok;
	facts->npartitions = names->n;
	facts->partitions = (const char *const *) names->names;
	return ok;
}

/* ---- running a plan ---- */

/*
 * Runs one item of batch 0; an answer goes into facts (and names).  False
 * with the failure in err.
 */
static bool
init_run_item(init_ctx *ctx, const init_item *item, init_facts *facts, init_names *names,
			  init_error *err)
{
	switch (item->kind)
	{
		case INIT_ITEM_SQL:
			return init_exec_on(ctx->conn, item->text, err);
		case INIT_ITEM_NOTE:
			fprintf(stderr, "%s\n", item->text);
			return true;
		case INIT_ITEM_COPY:
			return init_copy_item(ctx, item, err);
		case INIT_ITEM_ASK_RELKIND:
			return init_ask_relkind(ctx, item, facts, err);
		case INIT_ITEM_ASK_PARTITIONS:
			return init_ask_partitions(ctx, item, names, facts, err);
	}
	return false;
}

/*
 * Runs the plan of one step from its first item: the items of a batch
 * together (init_parallel.c), the others one by one; after a question, the
 * step is planned again from the answer and goes on after it.  False with
 * the failure in err.
 */
static bool
init_run_plan(init_ctx *ctx, const init_step_info *step, init_facts *facts, init_error *err)
{
	init_plan	plan = {0};
	init_names	names = {0};
	bool		ok = true;

	init_facts_forget(facts);
	init_plan_step(step, ctx->opts, facts, &plan);
	for (int next = 0; ok && next < plan.n;)
	{
		const init_item *item = &plan.items[next];
		int			end = next + 1;

		if (item->batch > 0)
		{
			while (end < plan.n && plan.items[end].batch == item->batch)
				end++;
			ok = ipar_run_batch(ctx, item, end - next, err);
		}
		else
			ok = init_run_item(ctx, item, facts, &names, err);
		next = end;
		if (ok && (item->kind == INIT_ITEM_ASK_RELKIND || item->kind == INIT_ITEM_ASK_PARTITIONS))
			init_plan_step(step, ctx->opts, facts, &plan);
	}
	init_plan_free(&plan);
	init_names_free(&names);
	return ok;
}

/* One step: its line, the tablespaces it names quoted, its plan. */
static bool
init_run_step(init_ctx *ctx, const init_step_info *step, init_error *err)
{
	init_facts	facts = {.server_version = PQserverVersion(ctx->conn)};
	char	   *space = NULL;
	char	   *index_space = NULL;
	bool		ok;

	fprintf(stderr, "%s\n", step->header);
	ok = (!step->uses_tablespace || init_quote(ctx, ctx->opts->tablespace, &space, err)) &&
		(!step->uses_index_tablespace ||
		 init_quote(ctx, ctx->opts->index_tablespace, &index_space, err));
	facts.tablespace = space;
	facts.index_tablespace = index_space;
	ok = ok && init_run_plan(ctx, step, &facts, err);
	PQfreemem(space);
	PQfreemem(index_space);
	return ok;
}

/*
 * Runs the steps of -I in order; the summary line at the end.  A letter
 * that is no step (options.c lets none through) fails before any step.
 * False with the failure in err (the planner's message for such a letter).
 */
static bool
init_run_steps(init_ctx *ctx, const char *steps, init_error *err)
{
	init_step_list list = {0};
	init_plan_error plan_err;
	init_str	summary = {0};
	double		total_sec = 0.0;
	bool		ok = true;

	if (init_plan_parse_steps(steps, &list, &plan_err) != INIT_PLAN_OK)
	{
		init_error_add(err, DIAG_ERROR, "%s", plan_err.message);
		init_step_list_free(&list);
		return false;
	}
	init_str_appendf(&summary, "%s", "");
	for (int i = 0; i < list.n; i++)
	{
		pg_time_usec_t start = pgb_time_now();
		double		elapsed;

		if (!init_run_step(ctx, list.steps[i], err))
		{
			ok = false;
			break;
		}
		elapsed = (double) (pgb_time_now() - start) / 1e6;
		init_str_appendf(&summary, "%s%s %.2f s", summary.len > 0 ? ", " : "",
						 list.steps[i]->label, elapsed);
		total_sec += elapsed;
	}
	if (ok)
		fprintf(stderr, "done in %.2f s (%s).\n", total_sec, summary.data);
	free(summary.data);
	init_step_list_free(&list);
	return ok;
}

/* Prints the record of a failed step, line by line, in pgbench's words. */
static void
init_error_print(const init_error *err)
{
	for (int i = 0; i < err->nlines; i++)
		diag_log(err->level[i], "%s", err->text[i]);
}

int
init_run(const pgb_options *opts)
{
	conn_params params;
	char		errbuf[4096];
	init_ctx	ctx = {.opts = opts};
	init_error	err = {0};
	int			rc = 0;

	conn_params_init(&params, opts->host, opts->port, opts->username, opts->dbname);
	ctx.conn = conn_open(&params, errbuf, sizeof(errbuf));
	if (ctx.conn == NULL)
	{
		init_error_connect(&err, errbuf);
		init_error_print(&err);
		init_error_free(&err);
		return 1;
	}
	init_cancel_setup(ctx.conn);
	if (!init_run_steps(&ctx, opts->init_steps ? opts->init_steps : "dtgvp", &err))
	{
		init_error_print(&err);
		rc = 1;
	}
	init_error_free(&err);
	ipar_close(&ctx);
	init_cancel_teardown();
	PQfinish(ctx.conn);
	return rc;
}
