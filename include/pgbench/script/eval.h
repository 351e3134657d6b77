/*
 * eval.h — evaluation of expression trees for one client.
 *
 * Pure computation over the client's variables and random state: no I/O
 * except debug(), which writes its line to stderr as pgbench does.
 * Errors (division by zero, bigint out of range, bad random parameters,
 * undefined or malformed variables, ...) are returned with pgbench's
 * message; the caller prints it and aborts the client.
 */
#ifndef PGBENCH_EVAL_H
#define PGBENCH_EVAL_H

#include <stdio.h>

#include "pgbench/script/expr.h"
#include "pgbench/script/random.h"
#include "pgbench/script/variables.h"

typedef struct eval_context
{
	var_store  *vars;			/* the client's variables */
	prng_state *rs;				/* the client's random state for random*() */
	int			script_index;	/* for debug(): "debug(script=%d,command=%d)" */
	int			command_number;	/* 1-based */
	FILE	   *debug_out;		/* where debug() writes; stderr */
	char		error[256];		/* message when evaluation fails */
} eval_context;

/*
 * Evaluate node into *out.  false: ctx->error says why; it is "" when a
 * variable holds an empty string, for which pgbench prints no message.
 */
bool		expr_evaluate(eval_context *ctx, const expr_node *node, pgb_value *out);

/* Outcome of running an expression's flat program (expr.h). */
typedef enum expr_prog_result
{
	EXPR_PROG_DONE,				/* *out holds the value */
	EXPR_PROG_FAILED,			/* ctx->error says why, as the tree's would */
	EXPR_PROG_DECLINED,			/* a variable is not an integer: nothing
								 * was drawn; evaluate the tree instead */
} expr_prog_result;

/* Run prog (expr_evaluate does, for a tree that has one). */
expr_prog_result expr_prog_run(eval_context *ctx, const expr_prog *prog,
							   pgb_value *out);

/*
 * Coercions with pgbench's rules and messages ("cannot coerce double to
 * int", "double to int overflow", ...).  false: ctx->error says why.
 */
bool		value_to_bool(eval_context *ctx, const pgb_value *v, bool *out);
bool		value_to_int(eval_context *ctx, const pgb_value *v, int64_t *out);
bool		value_to_double(eval_context *ctx, const pgb_value *v, double *out);

/*
 * The lenient truth of CASE conditions and \if / \elif: a boolean as it
 * is, a number when it is not zero, NULL (or no value) false.  Never fails.
 */
bool		value_truth(const pgb_value *v);

#endif
