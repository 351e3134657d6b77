/*
 * init.c — initialization mode (-i / -I): runs the steps d t g G v p f in
 * the order given, with pgbench's messages, SQL and timing summary.
 *
 * The SQL text matches pgbench's statement for statement, because a failed
 * statement is shown to the user ("Query was: ...").  Client-side data goes
 * through init_copy.c, all three tables by COPY.  This is start-up code: it
 * prints its own messages and returns the exit code.
 *
 * Compatibility (opts->compat): from 17 each table's COPY asks the server
 * whether the table is an ordinary one (FREEZE only then) and has its own
 * progress lines, which name the table; a terminal's line is blanked out
 * at the end instead of left with a newline.  From 18 a progress line
 * shorter than the one before is padded with blanks.
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
#include "pgbench/base/xalloc.h"

#include "init_int.h"

/* From this scale on, aid no longer fits an int (scale * 100000 > 2^31). */
#define INIT_SCALE_BIGINT_THRESHOLD 20000

typedef bool (*init_step_fn) (init_ctx *ctx);

/* ---- a growable string for statements and the summary line ---- */

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

static void
init_str_reset(init_str *str)
{
	str->len = 0;
	if (str->data)
		str->data[0] = '\0';
}


static bool
init_exec(init_ctx *ctx, const char *sql)
{
	return init_exec_on(ctx->conn, sql);
}

static bool
init_exec_all(init_ctx *ctx, const char *const *sqls, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!init_exec(ctx, sqls[i]))
			return false;
	return true;
}

/* Appends " <keyword> <quoted name>" for --tablespace / --index-tablespace. */
static bool
init_append_tablespace(init_ctx *ctx, init_str *sql, const char *keyword,
					   const char *tablespace)
{
	char	   *quoted;

	if (tablespace == NULL)
		return true;
	quoted = PQescapeIdentifier(ctx->conn, tablespace, strlen(tablespace));
	if (quoted == NULL)
	{
		char		msg[1024];

		conn_error_text(ctx->conn, msg, sizeof(msg));
		diag_error("%s", msg);
		return false;
	}
	init_str_appendf(sql, " %s %s", keyword, quoted);
	PQfreemem(quoted);
	return true;
}

/* ---- step d ---- */

static bool
step_drop_tables(init_ctx *ctx)
{
	fprintf(stderr, "dropping old tables...\n");
	return init_exec(ctx, "drop table if exists pgbench_accounts, pgbench_branches, "
					 "pgbench_history, pgbench_tellers");
}

/* ---- step t ---- */

typedef struct init_table_ddl
{
	const char *name;
	const char *int_columns;	/* below the bigint threshold */
	const char *bigint_columns;
	bool		has_fillfactor;
} init_table_ddl;

/* Creation order and column text are pgbench's (the text shows in errors). */
static const init_table_ddl init_tables[] = {
	{"pgbench_history",
		"tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
		"tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)",
	false},
	{"pgbench_tellers",
		"tid int not null,bid int,tbalance int,filler char(84)",
		"tid int not null,bid int,tbalance int,filler char(84)",
	true},
	{"pgbench_accounts",
		"aid    int not null,bid int,abalance int,filler char(84)",
		"aid bigint not null,bid int,abalance int,filler char(84)",
	true},
	{"pgbench_branches",
		"bid int not null,bbalance int,filler char(88)",
		"bid int not null,bbalance int,filler char(88)",
	true},
};

static const char *
init_partition_method_name(partition_method method)
{
	return method == PART_HASH ? "hash" : "range";
}

static bool
init_create_partitions(init_ctx *ctx, init_str *sql)
{
	const pgb_options *opts = ctx->opts;
	int64_t		total = (int64_t) ICOPY_ACCOUNTS_PER_SCALE * opts->scale;
	int64_t		part_size = (total + opts->partitions - 1) / opts->partitions;
	const char *unlogged = opts->unlogged_tables ? " unlogged" : "";

	/* the partitions are unlogged in every mode, on every server */
	fprintf(stderr, "creating %d partitions...\n", opts->partitions);
	for (int p = 1; p <= opts->partitions; p++)
	{
		init_str_reset(sql);
		init_str_appendf(sql, "create%s table pgbench_accounts_%d\n"
						 "  partition of pgbench_accounts\n", unlogged, p);
		if (opts->partition_method == PART_HASH)
			init_str_appendf(sql, "  for values with (modulus %d, remainder %d)",
							 opts->partitions, p - 1);
		else
		{
			/* equal ranges of aid; the outer ends are open */
			init_str_appendf(sql, "  for values from (");
			if (p == 1)
				init_str_appendf(sql, "minvalue");
			else
				init_str_appendf(sql, "%" PRId64, (p - 1) * part_size + 1);
			init_str_appendf(sql, ") to (");
			if (p < opts->partitions)
				init_str_appendf(sql, "%" PRId64, p * part_size + 1);
			else
				init_str_appendf(sql, "maxvalue");
			init_str_appendf(sql, ")");
		}
		init_str_appendf(sql, " with (fillfactor=%d)", opts->fillfactor);
		if (!init_exec(ctx, sql->data))
			return false;
	}
	return true;
}

/*
 * Whether --unlogged-tables makes this table (not a partition) unlogged.
 * pgbench 18 and later, with partitions, leave all four tables logged and
 * make only the partitions unlogged, on every server.  Up to 17 every
 * table is unlogged, the partitioned parent too; PostgreSQL 18 refuses an
 * unlogged partitioned table, so against such a server modes 16 and 17 do
 * as 18 (a deviation: pgbench 16/17 fail there; a logged parent alone
 * could not have its foreign key to an unlogged pgbench_branches).
 */
static bool
init_table_unlogged(const init_ctx *ctx, bool partitioned)
{
	const pgb_options *opts = ctx->opts;

	if (!opts->unlogged_tables)
		return false;
	if (!partitioned)
		return true;
	return opts->compat < 18 && PQserverVersion(ctx->conn) < 180000;
}

static bool
step_create_tables(init_ctx *ctx)
{
	const pgb_options *opts = ctx->opts;
	bool		big = opts->scale >= INIT_SCALE_BIGINT_THRESHOLD;
	bool		partitioned = opts->partitions > 0 && opts->partition_method != PART_NONE;
	init_str	sql = {0};
	bool		ok = true;

	fprintf(stderr, "creating tables...\n");
	for (size_t i = 0; ok && i < PGB_LENGTHOF(init_tables); i++)
	{
		const init_table_ddl *ddl = &init_tables[i];

		init_str_reset(&sql);
		init_str_appendf(&sql, "create%s table %s(%s)",
						 init_table_unlogged(ctx, partitioned) ? " unlogged" : "",
						 ddl->name, big ? ddl->bigint_columns : ddl->int_columns);
		if (partitioned && strcmp(ddl->name, "pgbench_accounts") == 0)
			init_str_appendf(&sql, " partition by %s (aid)",
							 init_partition_method_name(opts->partition_method));
		else if (ddl->has_fillfactor)
			init_str_appendf(&sql, " with (fillfactor=%d)", opts->fillfactor);
		ok = init_append_tablespace(ctx, &sql, "tablespace", opts->tablespace) &&
			init_exec(ctx, sql.data);
	}
	if (ok && partitioned)
		ok = init_create_partitions(ctx, &sql);
	free(sql.data);
	return ok;
}

/* ---- steps g and G ---- */

/* pgbench's TRUNCATE of the four tables before generating data. */
static const char init_truncate_sql[] =
	"truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers";

static void
init_copy_prepare(init_ctx *ctx, icopy_request *req)
{
	req->conn = ctx->conn;
	req->scale = ctx->opts->scale;
	req->cancel = &init_cancel_requested;
}

static bool
init_copy_table(init_ctx *ctx, icopy_request *req)
{
	char		errbuf[4096];

	init_copy_prepare(ctx, req);
	if (icopy_load(req, errbuf, sizeof(errbuf)))
		return true;
	diag_error("%s", errbuf);
	return false;
}

/*
 * Loads one table with progress lines.  Up to 16 only pgbench_accounts goes
 * through here and a terminal's line ends with a newline; from 17 on every
 * table does, the line names the table and is blanked out at the end.
 */
static bool
init_copy_tracked(init_ctx *ctx, icopy_table table, bool freeze)
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
		diag_error("%s", errbuf);
		return false;
	}
	prog.start = pgb_time_now();
	ok = icopy_send_rows(&req, errbuf, sizeof(errbuf));
	if (ok)
		init_progress_end(&prog);
	ok = ok && icopy_finish(&req, errbuf, sizeof(errbuf));
	if (!ok)
		diag_error("%s", errbuf);
	return ok;
}

/*
 * The table's pg_class.relkind, or '\0' when there is no such table, asked
 * of the server with pgbench's query (17 on).  False after printing a
 * failed query.
 */
static bool
init_relkind(PGconn *conn, const char *table, char *relkind)
{
	static const char sql[] =
		"SELECT relkind FROM pg_catalog.pg_class WHERE oid=$1::pg_catalog.regclass";
	const char *params[1] = {table};
	PGresult   *res = PQexecParams(conn, sql, 1, NULL, params, NULL, NULL, 0);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK;

	if (ok)
		*relkind = PQntuples(res) > 0 ? PQgetvalue(res, 0, 0)[0] : '\0';
	PQclear(res);
	if (!ok)
		init_report_query_failure(conn, sql);
	return ok;
}

/* Whether the table is an ordinary table (COPY FREEZE works). */
static bool
init_relkind_plain(PGconn *conn, const char *table, bool *plain)
{
	char		relkind = '\0';
	bool		ok = init_relkind(conn, table, &relkind);

	*plain = relkind == 'r';
	return ok;
}

/*
 * -j N > 1: whether pgbench_accounts is loaded by N connections at once,
 * which is only done for a partitioned table: N COPYs into one heap contend
 * and gain nothing, and would lose COPY FREEZE.  -j 1 asks nothing.
 */
static bool
init_accounts_split(init_ctx *ctx, bool *split)
{
	char		relkind = '\0';

	*split = false;
	if (ctx->opts->nthreads <= 1)
		return true;
	if (!init_relkind(ctx->conn, icopy_table_name(ICOPY_ACCOUNTS), &relkind))
		return false;
	*split = relkind == 'p';
	return true;
}

/*
 * Whether the table gets COPY FREEZE: from 17 on where the server says it
 * is an ordinary table; up to 16 the small tables always, pgbench_accounts
 * when not partitioned.  False after a failed query.
 */
static bool
init_freeze_of(init_ctx *ctx, icopy_table table, bool server_freeze, bool *freeze)
{
	bool		plain = false;

	*freeze = false;
	if (!server_freeze)
		return true;
	if (ctx->opts->compat < 17)
	{
		*freeze = table != ICOPY_ACCOUNTS || ctx->opts->partitions == 0;
		return true;
	}
	if (!init_relkind_plain(ctx->conn, icopy_table_name(table), &plain))
		return false;
	*freeze = plain;
	return true;
}

/*
 * Loads one table as the compatibility mode does: up to 16 the small
 * tables without progress lines, from 17 on every table with them.
 */
static bool
init_copy_one(init_ctx *ctx, icopy_table table, bool server_freeze)
{
	bool		freeze;
	icopy_request req = {.table = table};

	if (!init_freeze_of(ctx, table, server_freeze, &freeze))
		return false;
	req.freeze = freeze;
	if (ctx->opts->compat < 17 && table != ICOPY_ACCOUNTS)
		return init_copy_table(ctx, &req);
	return init_copy_tracked(ctx, table, freeze);
}

/*
 * With -j N > 1 and a partitioned pgbench_accounts, the small tables are
 * loaded here and committed, then pgbench_accounts by N connections at once
 * (init_parallel.c); an ordinary one is loaded as with -j 1.
 */
static bool
step_generate_client(init_ctx *ctx)
{
	/* COPY FREEZE needs v14 and a table created or truncated in this transaction */
	bool		server_freeze = PQserverVersion(ctx->conn) >= 140000;
	bool		split;

	fprintf(stderr, "generating data (client-side)...\n");
	if (!init_exec(ctx, "begin") || !init_exec(ctx, init_truncate_sql) ||
		!init_copy_one(ctx, ICOPY_BRANCHES, server_freeze) ||
		!init_copy_one(ctx, ICOPY_TELLERS, server_freeze) ||
		!init_accounts_split(ctx, &split))
		return false;
	if (!split)
		return init_copy_one(ctx, ICOPY_ACCOUNTS, server_freeze) &&
			init_exec(ctx, "commit");
	return init_exec(ctx, "commit") && ipar_generate_client(ctx);
}

static bool
step_generate_server(init_ctx *ctx)
{
	int			scale = ctx->opts->scale;
	char		branches[256];
	char		tellers[256];
	char		accounts[256];
	bool		split;

	snprintf(branches, sizeof(branches),
			 "insert into pgbench_branches(bid,bbalance) "
			 "select bid, 0 from generate_series(1, %d) as bid",
			 ICOPY_BRANCHES_PER_SCALE * scale);
	snprintf(tellers, sizeof(tellers),
			 "insert into pgbench_tellers(tid,bid,tbalance) "
			 "select tid, (tid - 1) / %d + 1, 0 from generate_series(1, %d) as tid",
			 ICOPY_TELLERS_PER_SCALE, ICOPY_TELLERS_PER_SCALE * scale);
	snprintf(accounts, sizeof(accounts),
			 "insert into pgbench_accounts(aid,bid,abalance,filler) "
			 "select aid, (aid - 1) / %d + 1, 0, '' from generate_series(1, %" PRId64 ") as aid",
			 ICOPY_ACCOUNTS_PER_SCALE, (int64_t) ICOPY_ACCOUNTS_PER_SCALE * scale);

	fprintf(stderr, "generating data (server-side)...\n");
	if (!init_exec(ctx, "begin") ||
		!init_exec(ctx, init_truncate_sql) ||
		!init_exec(ctx, branches) ||
		!init_exec(ctx, tellers) ||
		!init_accounts_split(ctx, &split))
		return false;
	/* -j N > 1, partitioned: pgbench_accounts by N connections at once, after the commit */
	if (split)
		return init_exec(ctx, "commit") && ipar_generate_server(ctx);
	return init_exec(ctx, accounts) && init_exec(ctx, "commit");
}

/* ---- step v ---- */

static bool
step_vacuum(init_ctx *ctx)
{
	static const char *const sqls[] = {
		"vacuum analyze pgbench_branches",
		"vacuum analyze pgbench_tellers",
		"vacuum analyze pgbench_accounts",
		"vacuum analyze pgbench_history",
	};

	fprintf(stderr, "vacuuming...\n");
	if (ctx->opts->nthreads > 1)
		return ipar_vacuum(ctx);
	return init_exec_all(ctx, sqls, PGB_LENGTHOF(sqls));
}

/* ---- step p ---- */

static bool
step_primary_keys(init_ctx *ctx)
{
	static const char *const sqls[] = {
		"alter table pgbench_branches add primary key (bid)",
		"alter table pgbench_tellers add primary key (tid)",
		"alter table pgbench_accounts add primary key (aid)",
	};
	init_str	sql = {0};
	bool		ok = true;

	fprintf(stderr, "creating primary keys...\n");
	if (ctx->opts->nthreads > 1)
		return ipar_primary_keys(ctx);
	for (size_t i = 0; ok && i < PGB_LENGTHOF(sqls); i++)
	{
		init_str_reset(&sql);
		init_str_appendf(&sql, "%s", sqls[i]);
		ok = init_append_tablespace(ctx, &sql, "using index tablespace",
									ctx->opts->index_tablespace) &&
			init_exec(ctx, sql.data);
	}
	free(sql.data);
	return ok;
}

/* ---- step f ---- */

static bool
step_foreign_keys(init_ctx *ctx)
{
	static const char *const sqls[] = {
		"alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_bid_fkey "
		"foreign key (bid) references pgbench_branches",
		"alter table pgbench_history add constraint pgbench_history_tid_fkey "
		"foreign key (tid) references pgbench_tellers",
		"alter table pgbench_history add constraint pgbench_history_aid_fkey "
		"foreign key (aid) references pgbench_accounts",
	};

	fprintf(stderr, "creating foreign keys...\n");
	return init_exec_all(ctx, sqls, PGB_LENGTHOF(sqls));
}

/* ---- the step runner ---- */

typedef struct init_step
{
	char		code;
	const char *label;			/* as in the "done in" summary */
	init_step_fn run;
} init_step;

static const init_step init_step_table[] = {
	{'d', "drop tables", step_drop_tables},
	{'t', "create tables", step_create_tables},
	{'g', "client-side generate", step_generate_client},
	{'G', "server-side generate", step_generate_server},
	{'v', "vacuum", step_vacuum},
	{'p', "primary keys", step_primary_keys},
	{'f', "foreign keys", step_foreign_keys},
};

static const init_step *
init_find_step(char code)
{
	for (size_t i = 0; i < PGB_LENGTHOF(init_step_table); i++)
		if (init_step_table[i].code == code)
			return &init_step_table[i];
	return NULL;
}

static int
init_run_steps(init_ctx *ctx, const char *steps)
{
	init_str	summary = {0};
	double		total_sec = 0.0;
	int			rc = 0;

	init_str_appendf(&summary, "%s", "");
	for (const char *c = steps; *c != '\0'; c++)
	{
		const init_step *step;
		pg_time_usec_t start;
		double		elapsed;

		if (*c == ' ')
			continue;
		step = init_find_step(*c);
		if (step == NULL)
		{
			diag_error("unrecognized initialization step \"%c\"", *c);
			rc = 1;
			break;
		}
		start = pgb_time_now();
		if (!step->run(ctx))
		{
			rc = 1;
			break;
		}
		elapsed = (double) (pgb_time_now() - start) / 1e6;
		init_str_appendf(&summary, "%s%s %.2f s", summary.len > 0 ? ", " : "",
						 step->label, elapsed);
		total_sec += elapsed;
	}
	if (rc == 0)
		fprintf(stderr, "done in %.2f s (%s).\n", total_sec, summary.data);
	free(summary.data);
	return rc;
}

int
init_run(const pgb_options *opts)
{
	conn_params params;
	char		errbuf[4096];
	init_ctx	ctx = {.opts = opts};
	int			rc;

	conn_params_init(&params, opts->host, opts->port, opts->username, opts->dbname);
	ctx.conn = conn_open(&params, errbuf, sizeof(errbuf));
	if (ctx.conn == NULL)
	{
		diag_error("%s", errbuf);
		diag_error("could not create connection for initialization");
		return 1;
	}
	init_cancel_setup(ctx.conn);
	rc = init_run_steps(&ctx, opts->init_steps ? opts->init_steps : "dtgvp");
	ipar_close(&ctx);
	init_cancel_teardown();
	PQfinish(ctx.conn);
	return rc;
}
