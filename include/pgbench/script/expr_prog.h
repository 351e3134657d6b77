/*
 * expr_prog.h — a flat program for the everyday integer expression, built
 * once from its tree: random(1, 100000 * :scale), :aid % 10 + 1, -5000.
 *
 * A tree qualifies when every node is an integer constant, a variable, or
 * one of + - * / % mod() and two-argument random(), and it is small.  Its
 * program, operations on registers in the tree's postorder, runs the same operations in the same order on
 * int64 values, with the tree evaluator's messages for every error and the
 * same draws from the client's random state, so the two are
 * interchangeable; it only declines (before drawing anything) when a
 * variable it reads does not hold an integer value yet, and the tree
 * evaluator then does the whole work with pgbench's coercions.
 */
#ifndef PGBENCH_EXPR_PROG_H
#define PGBENCH_EXPR_PROG_H

#include "pgbench/script/eval.h"

/*
 * What a program holds at most (its registers: the constants, the
 * variables and the operations' results); a larger tree keeps the tree
 * evaluator.
 */
#define EXPR_PROG_MAX_REGS 32
#define EXPR_PROG_MAX_OPS 16
#define EXPR_PROG_MAX_VARS 8

typedef struct expr_prog expr_prog;

/* The program for the tree at root, or NULL when it does not qualify. */
expr_prog  *expr_prog_build(const expr_node *root);

/* Outcome of running a program. */
typedef enum expr_prog_result
{
	EXPR_PROG_DONE,				/* *out holds the value */
	EXPR_PROG_FAILED,			/* ctx->error says why, as the tree's would */
	EXPR_PROG_DECLINED,			/* a variable is not an integer: nothing
								 * was drawn; evaluate the tree instead */
} expr_prog_result;

expr_prog_result expr_prog_run(eval_context *ctx, const expr_prog *prog,
							   pgb_value *out);

/*
 * Checks both evaluators share, with pgbench's messages: l / r (or l % r
 * when !is_div) into *res, without C's trap on INT64_MIN / -1; and that
 * random(lo, hi) has a range its distributions can draw from.  NULL when
 * fine, else the message.
 */
const char *expr_int_divide(bool is_div, int64_t l, int64_t r, int64_t *res);
const char *expr_random_range(int64_t lo, int64_t hi);

#endif
