/*
 * test_init_plan.c — the planner of initialization mode (init_plan.h):
 * what each -i / -I command line sends, step by step, from the parsed
 * options, the compatibility mode, the server's version and its answers
 * (relkinds, partitions).  No server: each case plans its steps as init.c
 * runs them (a question answered from the case's row, then the step
 * planned again, whose items before the question must not change) and
 * compares the items, one line each, with the statements today's code
 * sent to a server 15 (its statement log, log_statement = all); the cases
 * for other server versions change those texts where the documented rules
 * say (no COPY FREEZE below 14, --unlogged-tables with partitions on 18).
 *
 * An item's line: a statement as sent; a relkind question followed by
 * " -- $1 = 'TABLE'" (its parameter, as the log's DETAIL shows it); a COPY
 * as its statement, with " -- rows FIRST..LAST" for a -j N range; a line
 * printed between statements as "# TEXT"; an item of a -j N batch k
 * prefixed "[k] ".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/init/init_plan.h"
#include "tap.h"

#define MAX_ARGV 16

/* ---- a growable string ---- */

typedef struct tstr
{
	char	   *data;
	size_t		len;
} tstr;

static void tstr_add(tstr *s, const char *fmt,...) __attribute__((format(printf, 2, 3)));

static void
tstr_add(tstr *s, const char *fmt,...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s->data = realloc(s->data, s->len + (size_t) n + 1);
	if (s->data == NULL)
		abort();
	va_start(ap, fmt);
	vsnprintf(s->data + s->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t) n;
}

static void
render_item(tstr *s, const init_item *item)
{
	if (item->batch > 0)
		tstr_add(s, "[%d] ", item->batch);
	switch (item->kind)
	{
		case INIT_ITEM_SQL:
		case INIT_ITEM_ASK_PARTITIONS:
			tstr_add(s, "%s\n", item->text);
			break;
		case INIT_ITEM_NOTE:
			tstr_add(s, "# %s\n", item->text);
			break;
		case INIT_ITEM_ASK_RELKIND:
			tstr_add(s, "%s -- $1 = '%s'\n", item->text, icopy_table_name(item->table));
			break;
		case INIT_ITEM_COPY:
			tstr_add(s, "copy %s from stdin%s", icopy_table_name(item->table),
					 item->freeze ? " with (freeze on)" : "");
			if (item->first_row > 0)
				tstr_add(s, " -- rows %" PRId64 "..%" PRId64, item->first_row,
						 item->first_row + item->nrows - 1);
			tstr_add(s, "\n");
			break;
	}
}

static char *
render_prefix(const init_plan *plan, int n)
{
	tstr		s = {0};

	tstr_add(&s, "%s", "");
	for (int i = 0; i < n && i < plan->n; i++)
		render_item(&s, &plan->items[i]);
	return s.data;
}

/* ---- the cases ---- */

/* What the server says, in a case. */
typedef struct server_facts
{
	int			version;
	const char *relkinds;		/* branches, tellers, accounts: "rrp"; NULL "rrr" */
	int			nparts;			/* partitions of pgbench_accounts it lists */
} server_facts;

static const char *const partition_names[] = {
	"\"pgbench_accounts_1\"", "\"pgbench_accounts_2\"", "\"pgbench_accounts_3\"",
	"\"pgbench_accounts_4\"",
};

typedef struct plan_case
{
	const char *name;
	const char *args[MAX_ARGV];	/* after "pgbench" */
	server_facts server;
	const char *expected;		/* the items of every step, one a line */
} plan_case;

static int
parse(pgb_options *opts, const char *const *args)
{
	char	   *argv[MAX_ARGV + 2];
	int			argc = 0;

	argv[argc++] = (char *) "pgbench";
	for (int i = 0; args[i] != NULL && argc <= MAX_ARGV; i++)
		argv[argc++] = (char *) args[i];
	argv[argc] = NULL;
	return options_parse(opts, argc, argv);
}

/* Records the server's answer to the question `item` asks. */
static void
answer(const init_item *item, const server_facts *server, init_facts *facts)
{
	const char *kinds = server->relkinds ? server->relkinds : "rrr";

	if (item->kind == INIT_ITEM_ASK_RELKIND)
	{
		facts->relkind[item->table] = kinds[item->table];
		facts->relkind_known[item->table] = true;
		return;
	}
	facts->partitions_known = true;
	facts->npartitions = server->nparts;
	facts->partitions = partition_names;
}

/* How a run of the plans went, beside what they hold. */
typedef struct plan_run
{
	int			replans;		/* questions answered */
	int			unstable;		/* re-plans that changed an item already run */
	int			waiting;		/* steps left waiting at their end */
} plan_run;

/*
 * Plans one step as init.c runs it: item by item, each question answered
 * and the step planned again.
 */
static void
run_step(const init_step_info *step, const pgb_options *opts,
		 const server_facts *server, init_facts *facts, tstr *out, plan_run *run)
{
	init_plan	plan = {0};

	init_facts_forget(facts);
	init_plan_step(step, opts, facts, &plan);
	for (int next = 0; next < plan.n; next++)
	{
		const init_item *item = &plan.items[next];
		char	   *before;
		char	   *after;

		render_item(out, item);
		if (item->kind != INIT_ITEM_ASK_RELKIND && item->kind != INIT_ITEM_ASK_PARTITIONS)
			continue;
		answer(item, server, facts);
		before = render_prefix(&plan, next + 1);
		init_plan_step(step, opts, facts, &plan);
		after = render_prefix(&plan, next + 1);
		run->replans++;
		run->unstable += strcmp(before, after) != 0;
		free(before);
		free(after);
	}
	run->waiting += plan.waiting;
	init_plan_free(&plan);
}

/* Every step of opts->init_steps, rendered; NULL when -I does not parse. */
static char *
run_steps(const pgb_options *opts, const server_facts *server, plan_run *run)
{
	init_step_list list = {0};
	init_plan_error err;
	char		space[128];
	char		index_space[128];
	init_facts	facts = {.server_version = server->version};
	tstr		out = {0};

	if (init_plan_parse_steps(opts->init_steps, &list, &err) != INIT_PLAN_OK)
	{
		init_step_list_free(&list);
		return NULL;
	}
	/* the quoting is libpq's (PQescapeIdentifier): plain names here */
	snprintf(space, sizeof(space), "\"%s\"", opts->tablespace ? opts->tablespace : "");
	snprintf(index_space, sizeof(index_space), "\"%s\"",
			 opts->index_tablespace ? opts->index_tablespace : "");
	facts.tablespace = opts->tablespace ? space : NULL;
	facts.index_tablespace = opts->index_tablespace ? index_space : NULL;
	tstr_add(&out, "%s", "");
	for (int i = 0; i < list.n; i++)
		run_step(list.steps[i], opts, server, &facts, &out, run);
	init_step_list_free(&list);
	return out.data;
}

#include "init_plan_cases.h"

static void
check_case(const plan_case *c)
{
	pgb_options opts;
	plan_run	run = {0};
	char	   *got;

	if (parse(&opts, c->args) != -1 || opts.action != ACTION_INIT)
	{
		tap_ok(false, "%s: the command line parses", c->name);
		options_free(&opts);
		return;
	}
	got = run_steps(&opts, &c->server, &run);
	tap_is_str(got, c->expected, c->name);
	tap_ok(run.unstable == 0 && run.waiting == 0,
		   "%s: %d answers, each re-plan kept the items before it, no step left waiting",
		   c->name, run.replans);
	free(got);
	options_free(&opts);
}

/* ---- -I strings ---- */

static void
check_parse_steps(void)
{
	init_step_list list = {0};
	init_plan_error err = {0};
	tstr		s = {0};

	tap_is_int(init_plan_parse_steps(" d t  gGvpf dd ", &list, &err), INIT_PLAN_OK,
			   "-I ' d t  gGvpf dd ': parses");
	tstr_add(&s, "%s", "");
	for (int i = 0; i < list.n; i++)
		tstr_add(&s, "%c|%s|%s|%d%d\n", list.steps[i]->code, list.steps[i]->label,
				 list.steps[i]->header, list.steps[i]->uses_tablespace,
				 list.steps[i]->uses_index_tablespace);
	tap_is_str(s.data,
			   "d|drop tables|dropping old tables...|00\n"
			   "t|create tables|creating tables...|10\n"
			   "g|client-side generate|generating data (client-side)...|00\n"
			   "G|server-side generate|generating data (server-side)...|00\n"
			   "v|vacuum|vacuuming...|00\n"
			   "p|primary keys|creating primary keys...|01\n"
			   "f|foreign keys|creating foreign keys...|00\n"
			   "d|drop tables|dropping old tables...|00\n"
			   "d|drop tables|dropping old tables...|00\n",
			   "the steps in order, blanks skipped, repeats kept: labels and lines");
	init_step_list_free(&list);
	free(s.data);

	tap_is_int(init_plan_parse_steps("", &list, &err), INIT_PLAN_OK, "-I '': parses");
	tap_is_int(list.n, 0, "-I '': no step");
	init_step_list_free(&list);

	tap_is_int(init_plan_parse_steps("dtxgy", &list, &err), INIT_PLAN_BAD_STEP,
			   "-I dtxgy: an invalid letter");
	tap_is_str(err.message, "unrecognized initialization step \"x\"",
			   "-I dtxgy: the message names the first one");
	tap_ok(err.step == 'x' && list.n == 0, "-I dtxgy: its letter, and no step to run");
	init_step_list_free(&list);
	tap_is_int(init_plan_parse_steps("dtG", &list, &err), INIT_PLAN_OK, "-I dtG: parses");
	init_step_list_free(&list);
	tap_is_int(init_plan_parse_steps("dtg\t", &list, &err), INIT_PLAN_BAD_STEP,
			   "a tab is no blank");
	tap_ok(err.step == '\t' && list.n == 0, "the tab is the letter reported");
	init_step_list_free(&list);
}

/* ---- the plan waits for the server's answers ---- */

/* Plans step `code` of `args` with the facts given; returns the plan. */
static init_plan
plan_of(const char *const *args, char code, const init_facts *facts)
{
	pgb_options opts;
	init_step_list list = {0};
	init_plan_error err;
	init_plan	plan = {0};
	char		steps[2] = {code, '\0'};

	if (parse(&opts, args) == -1 &&
		init_plan_parse_steps(steps, &list, &err) == INIT_PLAN_OK && list.n == 1)
		init_plan_step(list.steps[0], &opts, facts, &plan);
	init_step_list_free(&list);
	options_free(&opts);
	return plan;
}

static void
check_waiting(void)
{
	static const char *const args19[] = {"--compat=19", "-i", NULL};
	static const char *const args_j[] = {"--compat=16", "-i", "-j", "2", NULL};
	init_facts	facts = {.server_version = 150000};
	init_plan	plan;
	char	   *text;

	plan = plan_of(args19, 'g', &facts);
	text = render_prefix(&plan, plan.n);
	tap_is_str(text, BEGIN_TRUNCATE ASK("pgbench_branches"), "19 g, nothing known: up to the first question");
	tap_ok(plan.waiting, "19 g, nothing known: waiting");
	free(text);
	init_plan_free(&plan);

	facts.relkind_known[ICOPY_BRANCHES] = true;
	facts.relkind[ICOPY_BRANCHES] = '\0';
	plan = plan_of(args19, 'g', &facts);
	text = render_prefix(&plan, plan.n);
	tap_is_str(text, BEGIN_TRUNCATE ASK("pgbench_branches") COPY("pgbench_branches", "") ASK("pgbench_tellers"),
			   "19 g, no pgbench_branches: no FREEZE for it, then the next question");
	tap_ok(plan.waiting, "19 g: waiting again");
	free(text);
	init_plan_free(&plan);

	init_facts_forget(&facts);
	tap_ok(!facts.relkind_known[ICOPY_BRANCHES] && !facts.partitions_known &&
		   facts.server_version == 150000, "init_facts_forget: the answers go, the version stays");

	plan = plan_of(args_j, 'v', &facts);
	text = render_prefix(&plan, plan.n);
	tap_is_str(text, PARTITIONS_Q, "-j 2 v, nothing known: the question of the partitions");
	tap_ok(plan.waiting, "-j 2 v: waiting");
	free(text);
	init_plan_free(&plan);

	plan = plan_of(args_j, 'd', &facts);
	tap_ok(!plan.waiting && plan.n == 1, "-j 2 d: nothing to ask");
	init_plan_free(&plan);
}

/* ---- COPY: progress lines and ranges ---- */

static void
check_copy_items(void)
{
	static const char *const args16[] = {"--compat=16", "-i", NULL};
	static const char *const args17[] = {"--compat=17", "-i", NULL};
	static const char *const args_j[] = {"--compat=17", "-i", "-j", "2", "-s", "3", NULL};
	init_facts	facts = {.server_version = 150000, .relkind_known = {true, true, true}, .relkind = "rrp"};
	init_plan	plan;
	tstr		s = {0};

	plan = plan_of(args16, 'g', &facts);
	tstr_add(&s, "%s", "");
	for (int i = 0; i < plan.n; i++)
		if (plan.items[i].kind == INIT_ITEM_COPY)
			tstr_add(&s, "%s:%d ", icopy_table_name(plan.items[i].table), plan.items[i].progress);
	tap_is_str(s.data, "pgbench_branches:0 pgbench_tellers:0 pgbench_accounts:1 ",
			   "16: progress lines for pgbench_accounts only");
	init_plan_free(&plan);
	s.len = 0;

	plan = plan_of(args17, 'g', &facts);
	tstr_add(&s, "%s", "");
	for (int i = 0; i < plan.n; i++)
		if (plan.items[i].kind == INIT_ITEM_COPY)
			tstr_add(&s, "%s:%d ", icopy_table_name(plan.items[i].table), plan.items[i].progress);
	tap_is_str(s.data, "pgbench_branches:1 pgbench_tellers:1 pgbench_accounts:1 ",
			   "17: progress lines for every table");
	init_plan_free(&plan);
	s.len = 0;

	plan = plan_of(args_j, 'g', &facts);
	tstr_add(&s, "%s", "");
	for (int i = 0; i < plan.n; i++)
		if (plan.items[i].batch > 0)
			tstr_add(&s, "%d:%s:%" PRId64 "+%" PRId64 ":%d%d ", plan.items[i].kind,
					 icopy_table_name(plan.items[i].table), plan.items[i].first_row,
					 plan.items[i].nrows, plan.items[i].freeze, plan.items[i].progress);
	tap_is_str(s.data, "2:pgbench_accounts:1+100000:01 2:pgbench_accounts:100001+200000:01 ",
			   "-j 2, scale 3, partitioned: two ranges of whole branches, progress, no FREEZE");
	init_plan_free(&plan);
	free(s.data);
}

int
main(void)
{
	/* the compatibility mode comes from each case's --compat alone */
	unsetenv("PGBENCH_COMPAT");
	for (size_t i = 0; i < sizeof(plan_cases) / sizeof(plan_cases[0]); i++)
		check_case(&plan_cases[i]);
	check_parse_steps();
	check_waiting();
	check_copy_items();
	return tap_done();
}
