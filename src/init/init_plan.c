/*
 * init_plan.c — the planner of initialization mode: which statements each
 * step d t g G v p f sends, in which order, decided from the options, the
 * compatibility mode and the server's answers (init_plan.h).  It sends and
 * prints nothing; init.c runs what it plans.
 *
 * The SQL text is pgbench's statement for statement, because a failed
 * statement is shown to the user ("Query was: ...").
 *
 * What depends on the mode and the server: from 17 on step g asks the
 * server whether each table is an ordinary one before its COPY (FREEZE only
 * then); up to 16 the small tables always get FREEZE and pgbench_accounts
 * when not partitioned.  No COPY FREEZE at all below server 14.
 * --unlogged-tables with partitions: see init_table_unlogged.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "pgbench/init/init_plan.h"

/* From this scale on, aid no longer fits an int (scale * 100000 > 2^31). */
#define INIT_SCALE_BIGINT_THRESHOLD 20000

/* ---- items ---- */

static init_item *
plan_add(init_plan *plan, init_item_kind kind)
{
	init_item  *item;

	if (plan->n == plan->cap)
	{
		plan->cap = plan->cap ? plan->cap * 2 : 16;
		plan->items = pgb_realloc(plan->items, sizeof(init_item) * (size_t) plan->cap);
	}
	item = &plan->items[plan->n++];
	memset(item, 0, sizeof(*item));
	item->kind = kind;
	return item;
}

static char *plan_strf(const char *fmt,...)
	__attribute__((format(printf, 1, 2)));

/* A printf'd string, allocated. */
static char *
plan_strf(const char *fmt,...)
{
	va_list		ap;
	char	   *text;

	va_start(ap, fmt);
	text = pgb_vasprintf(fmt, ap);
	va_end(ap);
	return text;
}

static init_item *plan_text(init_plan *plan, init_item_kind kind, int batch,
							const char *fmt,...)
	__attribute__((format(printf, 4, 5)));

/* Adds an item whose text is printf'd. */
static init_item *
plan_text(init_plan *plan, init_item_kind kind, int batch, const char *fmt,...)
{
	init_item  *item = plan_add(plan, kind);
	va_list		ap;

	va_start(ap, fmt);
	item->text = pgb_vasprintf(fmt, ap);
	va_end(ap);
	item->batch = batch;
	return item;
}

/* A statement in order on the sequential connection. */
#define plan_sql(plan, ...) plan_text((plan), INIT_ITEM_SQL, 0, __VA_ARGS__)

void
init_plan_free(init_plan *plan)
{
	for (int i = 0; i < plan->n; i++)
		free(plan->items[i].text);
	free(plan->items);
	memset(plan, 0, sizeof(*plan));
}

void
init_facts_forget(init_facts *facts)
{
	memset(facts->relkind_known, 0, sizeof(facts->relkind_known));
	memset(facts->relkind, 0, sizeof(facts->relkind));
	facts->partitions_known = false;
	facts->npartitions = 0;
	facts->partitions = NULL;
}

/*
 * Adds the question whether `table` is an ordinary table or a partitioned
 * one (pgbench's query, 17 on).  False, with the plan left waiting, when
 * the answer is not known yet.
 */
static bool
plan_ask_relkind(init_plan *plan, const init_facts *facts, icopy_table table)
{
	init_item  *item = plan_text(plan, INIT_ITEM_ASK_RELKIND, 0, "%s",
								 "SELECT relkind FROM pg_catalog.pg_class WHERE oid=$1::pg_catalog.regclass");

	item->table = table;
	plan->waiting = !facts->relkind_known[table];
	return !plan->waiting;
}

/* The same for the partitions of pgbench_accounts (-j N, steps v and p). */
static bool
plan_ask_partitions(init_plan *plan, const init_facts *facts)
{
	plan_text(plan, INIT_ITEM_ASK_PARTITIONS, 0, "%s",
			  "select c.relname from pg_catalog.pg_inherits i "
			  "join pg_catalog.pg_class c on c.oid = i.inhrelid "
			  "where i.inhparent = pg_catalog.to_regclass('pgbench_accounts') order by 1");
	plan->waiting = !facts->partitions_known;
	return !plan->waiting;
}

/* ---- step d ---- */

static void
plan_drop(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	(void) opts;
	(void) facts;
	plan_sql(plan, "drop table if exists pgbench_accounts, pgbench_branches, "
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

static bool
plan_partitioned(const pgb_options *opts)
{
	return opts->partitions > 0 && opts->partition_method != PART_NONE;
}

/*
 * Whether --unlogged-tables makes the four tables unlogged (the partitions
 * always are).  pgbench 18 and later, with partitions, leave all four
 * tables logged and make only the partitions unlogged, on every server.
 * Up to 17 every table is unlogged, the partitioned parent too; PostgreSQL
 * 18 refuses an unlogged partitioned table, so against such a server modes
 * 16 and 17 do as 18 (a deviation: pgbench 16/17 fail there; a logged
 * parent alone could not have its foreign key to an unlogged
 * pgbench_branches).
 */
static bool
plan_tables_unlogged(const pgb_options *opts, const init_facts *facts)
{
	if (!opts->unlogged_tables)
		return false;
	if (!plan_partitioned(opts))
		return true;
	return opts->compat < 18 && facts->server_version < 180000;
}

/* The FROM and TO of range partition p (1..n): equal ranges, open ends. */
static void
plan_range_bounds(const pgb_options *opts, int p, char *from, char *to, size_t size)
{
	int64_t		total = (int64_t) ICOPY_ACCOUNTS_PER_SCALE * opts->scale;
	int64_t		part_size = (total + opts->partitions - 1) / opts->partitions;

	if (p == 1)
		snprintf(from, size, "minvalue");
	else
		snprintf(from, size, "%" PRId64, (p - 1) * part_size + 1);
	if (p < opts->partitions)
		snprintf(to, size, "%" PRId64, p * part_size + 1);
	else
		snprintf(to, size, "maxvalue");
}

static void
plan_partitions(const pgb_options *opts, init_plan *plan)
{
	/* the partitions are unlogged in every mode, on every server */
	const char *unlogged = opts->unlogged_tables ? " unlogged" : "";

	plan_text(plan, INIT_ITEM_NOTE, 0, "creating %d partitions...", opts->partitions);
	for (int p = 1; p <= opts->partitions; p++)
	{
		char		from[32];
		char		to[32];

		if (opts->partition_method == PART_HASH)
		{
			plan_sql(plan, "create%s table pgbench_accounts_%d\n"
					 "  partition of pgbench_accounts\n"
					 "  for values with (modulus %d, remainder %d) with (fillfactor=%d)",
					 unlogged, p, opts->partitions, p - 1, opts->fillfactor);
			continue;
		}
		plan_range_bounds(opts, p, from, to, sizeof(from));
		plan_sql(plan, "create%s table pgbench_accounts_%d\n"
				 "  partition of pgbench_accounts\n"
				 "  for values from (%s) to (%s) with (fillfactor=%d)",
				 unlogged, p, from, to, opts->fillfactor);
	}
}

static void
plan_create(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	bool		big = opts->scale >= INIT_SCALE_BIGINT_THRESHOLD;
	bool		partitioned = plan_partitioned(opts);
	const char *unlogged = plan_tables_unlogged(opts, facts) ? " unlogged" : "";
	char	   *space = NULL;

	if (facts->tablespace != NULL)
		space = plan_strf(" tablespace %s", facts->tablespace);
	for (size_t i = 0; i < PGB_LENGTHOF(init_tables); i++)
	{
		const init_table_ddl *ddl = &init_tables[i];
		char		with[64] = "";

		if (partitioned && strcmp(ddl->name, "pgbench_accounts") == 0)
			snprintf(with, sizeof(with), " partition by %s (aid)",
					 opts->partition_method == PART_HASH ? "hash" : "range");
		else if (ddl->has_fillfactor)
			snprintf(with, sizeof(with), " with (fillfactor=%d)", opts->fillfactor);
		plan_sql(plan, "create%s table %s(%s)%s%s", unlogged, ddl->name,
				 big ? ddl->bigint_columns : ddl->int_columns, with,
				 space != NULL ? space : "");
	}
	free(space);
	if (partitioned)
		plan_partitions(opts, plan);
}

/* ---- steps g and G ---- */

/* pgbench's TRUNCATE of the four tables before generating data. */
static const char init_truncate_sql[] =
	"truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers";

/*
 * Adds the COPY of `table` (the whole table).  COPY FREEZE needs server 14
 * and a table created or truncated in this transaction: from 17 on it is
 * used where the server says the table is an ordinary one (the question
 * comes first), up to 16 for the small tables always, for pgbench_accounts
 * when not partitioned.  Up to 16 only pgbench_accounts has progress lines.
 * False when the plan waits for the answer.
 */
static bool
plan_copy(const pgb_options *opts, const init_facts *facts, init_plan *plan,
		  icopy_table table)
{
	bool		freeze = facts->server_version >= 140000;
	init_item  *item;

	if (freeze && opts->compat >= 17)
	{
		if (!plan_ask_relkind(plan, facts, table))
			return false;
		freeze = facts->relkind[table] == 'r';
	}
	else if (freeze)
		freeze = table != ICOPY_ACCOUNTS || opts->partitions == 0;
	item = plan_add(plan, INIT_ITEM_COPY);
	item->table = table;
	item->freeze = freeze;
	item->progress = opts->compat >= 17 || table == ICOPY_ACCOUNTS;
	return true;
}

/*
 * -j N > 1: whether pgbench_accounts is loaded by N connections at once,
 * which is only done for a partitioned table (the server says so): N COPYs
 * into one heap contend and gain nothing, and would lose COPY FREEZE.  -j 1
 * asks nothing.  False when the plan waits for the answer.
 */
static bool
plan_ask_split(const pgb_options *opts, const init_facts *facts, init_plan *plan,
			   bool *split)
{
	*split = false;
	if (opts->nthreads <= 1)
		return true;
	if (!plan_ask_relkind(plan, facts, ICOPY_ACCOUNTS))
		return false;
	*split = facts->relkind[ICOPY_ACCOUNTS] == 'p';
	return true;
}

/*
 * pgbench_accounts in min(-j, scale) ranges of whole branches, batch 1:
 * each range starts on a multiple of the progress interval, so every
 * connection's batches end where pgbench's would.  COPY through the parent
 * (with progress lines, never FREEZE) or INSERT ... SELECT.
 */
static void
plan_accounts_ranges(const pgb_options *opts, init_plan *plan, bool copy)
{
	int64_t		scale = opts->scale;
	int64_t		parts = opts->nthreads < scale ? opts->nthreads : scale;

	for (int64_t k = 0; k < parts; k++)
	{
		int64_t		lo = scale * k / parts;
		int64_t		hi = scale * (k + 1) / parts;
		int64_t		first = lo * ICOPY_ACCOUNTS_PER_SCALE + 1;
		int64_t		count = (hi - lo) * ICOPY_ACCOUNTS_PER_SCALE;
		init_item  *item;

		if (hi <= lo)
			continue;
		if (!copy)
		{
			plan_text(plan, INIT_ITEM_SQL, 1,
					  "insert into pgbench_accounts(aid,bid,abalance,filler) "
					  "select aid, (aid - 1) / %d + 1, 0, '' from generate_series(%" PRId64 ", %" PRId64 ") as aid",
					  ICOPY_ACCOUNTS_PER_SCALE, first, first + count - 1);
			continue;
		}
		item = plan_add(plan, INIT_ITEM_COPY);
		item->table = ICOPY_ACCOUNTS;
		item->progress = true;
		item->first_row = first;
		item->nrows = count;
		item->batch = 1;
	}
}

/*
 * In one transaction: truncate, then each table by COPY.  With -j N > 1
 * and a partitioned pgbench_accounts, the small tables are committed first,
 * then pgbench_accounts is loaded by N connections at once.
 */
static void
plan_generate_client(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	bool		split;

	plan_sql(plan, "begin");
	plan_sql(plan, "%s", init_truncate_sql);
	if (!plan_copy(opts, facts, plan, ICOPY_BRANCHES) ||
		!plan_copy(opts, facts, plan, ICOPY_TELLERS) ||
		!plan_ask_split(opts, facts, plan, &split))
		return;
	if (split)
	{
		plan_sql(plan, "commit");
		plan_accounts_ranges(opts, plan, true);
	}
	else if (plan_copy(opts, facts, plan, ICOPY_ACCOUNTS))
		plan_sql(plan, "commit");
}

static void
plan_generate_server(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	bool		split;

	plan_sql(plan, "begin");
	plan_sql(plan, "%s", init_truncate_sql);
	plan_sql(plan, "insert into pgbench_branches(bid,bbalance) "
			 "select bid, 0 from generate_series(1, %d) as bid",
			 ICOPY_BRANCHES_PER_SCALE * opts->scale);
	plan_sql(plan, "insert into pgbench_tellers(tid,bid,tbalance) "
			 "select tid, (tid - 1) / %d + 1, 0 from generate_series(1, %d) as tid",
			 ICOPY_TELLERS_PER_SCALE, ICOPY_TELLERS_PER_SCALE * opts->scale);
	if (!plan_ask_split(opts, facts, plan, &split))
		return;
	if (split)
	{
		plan_sql(plan, "commit");
		plan_accounts_ranges(opts, plan, false);
		return;
	}
	plan_sql(plan, "insert into pgbench_accounts(aid,bid,abalance,filler) "
			 "select aid, (aid - 1) / %d + 1, 0, '' from generate_series(1, %" PRId64 ") as aid",
			 ICOPY_ACCOUNTS_PER_SCALE, (int64_t) ICOPY_ACCOUNTS_PER_SCALE * opts->scale);
	plan_sql(plan, "commit");
}

/* ---- step v ---- */

static const char *const init_vacuum_order[] = {
	"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history",
};

/*
 * -j N > 1: each table's VACUUM ANALYZE at once; for a partitioned
 * pgbench_accounts, each partition's VACUUM (first: they are the long
 * ones), then "analyze pgbench_accounts" once they are all done, which
 * analyzes the parent and each partition as pgbench's statement would.
 */
static void
plan_vacuum(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	if (opts->nthreads <= 1)
	{
		for (size_t i = 0; i < PGB_LENGTHOF(init_vacuum_order); i++)
			plan_sql(plan, "vacuum analyze %s", init_vacuum_order[i]);
		return;
	}
	if (!plan_ask_partitions(plan, facts))
		return;
	for (int i = 0; i < facts->npartitions; i++)
		plan_text(plan, INIT_ITEM_SQL, 1, "vacuum %s", facts->partitions[i]);
	for (size_t i = 0; i < PGB_LENGTHOF(init_vacuum_order); i++)
		if (facts->npartitions == 0 || strcmp(init_vacuum_order[i], "pgbench_accounts") != 0)
			plan_text(plan, INIT_ITEM_SQL, 1, "vacuum analyze %s", init_vacuum_order[i]);
	if (facts->npartitions > 0)
		plan_sql(plan, "analyze pgbench_accounts");
}

/* ---- step p ---- */

/*
 * -j N > 1: the three keys at once; a partitioned pgbench_accounts gets
 * each partition's key first (at once with the others), then the parent's
 * (batch 2), which attaches them.
 */
static void
plan_primary_keys(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	int			batch = opts->nthreads > 1 ? 1 : 0;
	char	   *space = facts->index_tablespace == NULL ? plan_strf("%s", "") :
		plan_strf(" using index tablespace %s", facts->index_tablespace);

	if (batch > 0 && !plan_ask_partitions(plan, facts))
	{
		free(space);
		return;
	}
	plan_text(plan, INIT_ITEM_SQL, batch, "alter table pgbench_branches add primary key (bid)%s", space);
	plan_text(plan, INIT_ITEM_SQL, batch, "alter table pgbench_tellers add primary key (tid)%s", space);
	for (int i = 0; batch > 0 && i < facts->npartitions; i++)
		plan_text(plan, INIT_ITEM_SQL, batch, "alter table %s add primary key (aid)%s",
				  facts->partitions[i], space);
	/* the parent's key last: it attaches the partitions' keys */
	if (batch > 0 && facts->npartitions > 0)
		batch = 2;
	plan_text(plan, INIT_ITEM_SQL, batch, "alter table pgbench_accounts add primary key (aid)%s", space);
	free(space);
}

/* ---- step f ---- */

static void
plan_foreign_keys(const pgb_options *opts, const init_facts *facts, init_plan *plan)
{
	static const char *const keys[][3] = {
		{"pgbench_tellers", "pgbench_tellers_bid_fkey", "(bid) references pgbench_branches"},
		{"pgbench_accounts", "pgbench_accounts_bid_fkey", "(bid) references pgbench_branches"},
		{"pgbench_history", "pgbench_history_bid_fkey", "(bid) references pgbench_branches"},
		{"pgbench_history", "pgbench_history_tid_fkey", "(tid) references pgbench_tellers"},
		{"pgbench_history", "pgbench_history_aid_fkey", "(aid) references pgbench_accounts"},
	};

	(void) opts;
	(void) facts;
	for (size_t i = 0; i < PGB_LENGTHOF(keys); i++)
		plan_sql(plan, "alter table %s add constraint %s foreign key %s",
				 keys[i][0], keys[i][1], keys[i][2]);
}

/* ---- the steps ---- */

typedef void (*init_plan_fn) (const pgb_options *opts, const init_facts *facts,
							  init_plan *plan);

static const init_step_info init_step_table[] = {
	{'d', "drop tables", "dropping old tables...", false, false},
	{'t', "create tables", "creating tables...", true, false},
	{'g', "client-side generate", "generating data (client-side)...", false, false},
	{'G', "server-side generate", "generating data (server-side)...", false, false},
	{'v', "vacuum", "vacuuming...", false, false},
	{'p', "primary keys", "creating primary keys...", false, true},
	{'f', "foreign keys", "creating foreign keys...", false, false},
};

/* The planner of each step of init_step_table, in the same order. */
static const init_plan_fn init_plan_fns[PGB_LENGTHOF(init_step_table)] = {
	plan_drop, plan_create, plan_generate_client, plan_generate_server,
	plan_vacuum, plan_primary_keys, plan_foreign_keys,
};

init_plan_status
init_plan_parse_steps(const char *steps, init_step_list *list, init_plan_error *err)
{
	list->steps = pgb_malloc(sizeof(const init_step_info *) * (strlen(steps) + 1));
	list->n = 0;
	for (const char *c = steps; *c != '\0'; c++)
	{
		const init_step_info *found = NULL;

		if (*c == ' ')
			continue;
		for (size_t i = 0; found == NULL && i < PGB_LENGTHOF(init_step_table); i++)
			if (init_step_table[i].code == *c)
				found = &init_step_table[i];
		if (found == NULL)
		{
			list->n = 0;
			err->step = *c;
			snprintf(err->message, sizeof(err->message),
					 "unrecognized initialization step \"%c\"", *c);
			return INIT_PLAN_BAD_STEP;
		}
		list->steps[list->n++] = found;
	}
	return INIT_PLAN_OK;
}

void
init_step_list_free(init_step_list *list)
{
	free(list->steps);
	list->steps = NULL;
	list->n = 0;
}

void
init_plan_step(const init_step_info *step, const pgb_options *opts,
			   const init_facts *facts, init_plan *plan)
{
	init_plan_free(plan);
	init_plan_fns[step - init_step_table] (opts, facts, plan);
}
