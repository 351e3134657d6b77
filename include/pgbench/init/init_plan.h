/*
 * init_plan.h — what initialization mode (-i / -I) sends, decided apart
 * from sending it.  From the parsed options (the compatibility mode
 * included) and what the server has told (its version, a table's relkind,
 * the partitions of pgbench_accounts) the planner lists the items of one
 * step in order: statements, COPYs with their FREEZE choice, the questions
 * asked of the server, the lines printed between them.  It connects to
 * nothing and prints nothing; init.c runs the plans (init_run).
 *
 * A step whose rest depends on an answer (step g from 17 on asks each
 * table's relkind before its COPY; -j N asks whether pgbench_accounts is
 * partitioned, and its partitions) is planned up to that question: the plan
 * ends with it and `waiting` is set.  The caller runs the items, records
 * the answer in its init_facts and plans the step again: the items before
 * the question come out the same, the rest now follows.
 *
 * Thread-safety: none needed; start-up code, called from one thread.
 * Memory: through xalloc.h (out of memory exits, as all start-up code).
 */
#ifndef PGBENCH_INIT_PLAN_H
#define PGBENCH_INIT_PLAN_H

#include "pgbench/cli/options.h"
#include "pgbench/init/init_copy.h"

/* What one item of a plan does. */
typedef enum init_item_kind
{
	INIT_ITEM_SQL,				/* text: a statement that returns no rows */
	INIT_ITEM_NOTE,				/* text: a line for stderr, without its newline */
	INIT_ITEM_COPY,				/* COPY table FROM STDIN, rows sent by init_copy.c */
	INIT_ITEM_ASK_RELKIND,		/* text, with $1 the name of `table`: its relkind */
	INIT_ITEM_ASK_PARTITIONS,	/* text: the partitions of pgbench_accounts */
} init_item_kind;

typedef struct init_item
{
	init_item_kind kind;
	char	   *text;			/* SQL, NOTE, ASK_*: owned by the plan; else NULL */
	icopy_table table;			/* COPY and ASK_RELKIND: which table */
	bool		freeze;			/* COPY: "with (freeze on)" */
	bool		progress;		/* COPY: with progress lines (init_base.c) */
	int64_t		first_row;		/* COPY: 0 the whole table, else rows first_row.. */
	int64_t		nrows;			/* COPY with first_row: how many */

	/*
	 * 0: run in order on the connection of the sequential steps.  k > 0:
	 * the adjacent items of batch k run at once on -j N connections (SQL or
	 * COPY items only), and the next item starts when they are all done.
	 */
	int			batch;
} init_item;

/* One step's items in order. */
typedef struct init_plan
{
	init_item  *items;
	int			n;
	int			cap;
	bool		waiting;		/* the last item is a question the rest needs */
} init_plan;

/*
 * What the planner knows beyond the options; the caller fills it.  The
 * answers (relkind_*, partitions*) belong to one step: forget them
 * (init_facts_forget) before planning the next, or a repeated step would
 * go on from the first one's answers.
 */
typedef struct init_facts
{
	int			server_version; /* PQserverVersion: 140000 for 14.0 */
	const char *tablespace;		/* --tablespace as a quoted identifier, or NULL */
	const char *index_tablespace;	/* --index-tablespace, quoted, or NULL */
	bool		relkind_known[3];	/* by icopy_table: an answer came */
	char		relkind[3];		/* its pg_class.relkind; '\0': no such table */
	bool		partitions_known;	/* INIT_ITEM_ASK_PARTITIONS answered */
	int			npartitions;
	const char *const *partitions;	/* their names, quoted; not owned */
} init_facts;

/* Forget the answers of a step (not the version nor the tablespaces). */
void		init_facts_forget(init_facts *facts);

/* A step of -I. */
typedef struct init_step_info
{
	char		code;			/* d t g G v p f */
	const char *label;			/* as the "done in" summary names it */
	const char *header;			/* the line printed when it starts */
	bool		uses_tablespace;	/* needs init_facts.tablespace */
	bool		uses_index_tablespace;	/* needs init_facts.index_tablespace */
} init_step_info;

/* The steps of an -I string, blanks skipped. */
typedef struct init_step_list
{
	const init_step_info **steps;	/* owned array; the entries are static */
	int			n;
} init_step_list;

typedef enum init_plan_status
{
	INIT_PLAN_OK,
	INIT_PLAN_BAD_STEP,			/* a letter that is no step */
} init_plan_status;

/* Why planning failed, filled by the planner, printed by its caller. */
typedef struct init_plan_error
{
	char		step;			/* the letter */
	char		message[64];	/* pgbench's words, without "pgbench: error: " */
} init_plan_error;

/*
 * Reads an -I string into *list (the caller frees it with
 * init_step_list_free, on any return).  INIT_PLAN_BAD_STEP fills *err for
 * the first letter that is no step, and no step is listed.
 */
init_plan_status init_plan_parse_steps(const char *steps, init_step_list *list,
									   init_plan_error *err);
void		init_step_list_free(init_step_list *list);

/*
 * Plans `step` into *plan (emptied first; the caller frees it with
 * init_plan_free), from opts (scale, fillfactor, partitions, the unlogged
 * and compat settings, -j) and facts.  Pure: the same arguments give the
 * same plan.
 */
void		init_plan_step(const init_step_info *step, const pgb_options *opts,
						   const init_facts *facts, init_plan *plan);
void		init_plan_free(init_plan *plan);

#endif
