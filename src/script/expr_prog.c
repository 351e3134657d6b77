/*
 * expr_prog.c — owns the flat program of an integer expression
 * (expr_prog.h): its building from the tree, once at compile time, and its
 * run, the hot path of every \set of the builtin scripts.
 *
 * The tree evaluator (eval.c) pays per node for its generality: a value
 * type on every stack slot, the NULL rule, a dispatch through the strict
 * functions, the coercions.  Here the operands are known to be integers,
 * so each node is one step of a switch over int64 values.  Errors are the
 * tree's, word for word (t/unit/test_expr_prog.c runs both on the same
 * expressions and compares values, messages and the random state after).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "pgbench/script/expr_prog.h"
#include "pgbench/script/random.h"

typedef enum prog_opcode
{
	OP_CONST,					/* push k */
	OP_VAR,						/* push the value of variable number arg */
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_RANDOM,					/* random(lo, hi) */
} prog_opcode;

typedef struct prog_op
{
	prog_opcode op;
	int			arg;
	int64_t		k;
} prog_op;

struct expr_prog
{
	int			nops;
	int			nvars;
	int			slots[EXPR_PROG_MAX_VARS];	/* variable number -> store slot */
	prog_op		ops[];	/* in the tree's postorder */
};

/* ---- building ------------------------------------------------------------ */

/* The functions a program runs, with two arguments each. */
static const struct
{
	expr_func	func;
	prog_opcode op;
}			prog_functions[] = {
	{PGBF_ADD, OP_ADD}, {PGBF_SUB, OP_SUB}, {PGBF_MUL, OP_MUL},
	{PGBF_DIV, OP_DIV}, {PGBF_MOD, OP_MOD}, {PGBF_MOD_FUNC, OP_MOD},
	{PGBF_RANDOM, OP_RANDOM},
};

static bool
prog_opcode_of(const expr_node *n, prog_opcode *op)
{
	if (n->kind == EXPR_CONSTANT)
	{
		*op = OP_CONST;
		return n->u.constant.type == PGBT_INT;
	}
	if (n->kind == EXPR_VARIABLE)
	{
		*op = OP_VAR;
		return n->u.variable.slot >= 0;
	}
	for (size_t i = 0; n->u.function.nargs == 2 && i < sizeof(prog_functions) / sizeof(prog_functions[0]); i++)
	{
		if (prog_functions[i].func == n->u.function.func)
		{
			*op = prog_functions[i].op;
			return true;
		}
	}
	return false;
}

/* The program's number for a store slot, given one on first sight; -1: too many. */
static int
prog_variable(expr_prog *p, int slot)
{
	for (int i = 0; i < p->nvars; i++)
		if (p->slots[i] == slot)
			return i;
	if (p->nvars == EXPR_PROG_MAX_VARS)
		return -1;
	p->slots[p->nvars] = slot;
	return p->nvars++;
}

expr_prog *
expr_prog_build(const expr_node *root)
{
	expr_prog	head = {0};
	prog_op		ops[EXPR_PROG_MAX_OPS] = {0};
	const expr_node *n = root->first;
	expr_prog  *p;

	if (root->pending > EXPR_PROG_MAX_STACK)
		return NULL;
	for (;;)
	{
		prog_op    *o;

		if (head.nops == EXPR_PROG_MAX_OPS)
			return NULL;
		o = &ops[head.nops++];
		if (!prog_opcode_of(n, &o->op))
			return NULL;
		if (o->op == OP_CONST)
			o->k = n->u.constant.u.ival;
		else if (o->op == OP_VAR && (o->arg = prog_variable(&head, n->u.variable.slot)) < 0)
			return NULL;
		if (n == root)
			break;
		n = n->next;
	}
	p = pgb_malloc(offsetof(expr_prog, ops) + sizeof(prog_op) * (size_t) head.nops);
	*p = head;
	memcpy(p->ops, ops, sizeof(prog_op) * (size_t) head.nops);
	return p;
}

/* ---- running ------------------------------------------------------------- */

static expr_prog_result
prog_fail(eval_context *ctx, const char *message)
{
	size_t		len = strlen(message);

	memcpy(ctx->error, message, len + 1);
	return EXPR_PROG_FAILED;
}

const char *
expr_int_divide(bool is_div, int64_t l, int64_t r, int64_t *res)
{
	if (r == 0)
		return "division by zero";
	/* INT64_MIN / -1 overflows and traps in C: treat -1 apart */
	if (r == -1)
	{
		if (!is_div)
			*res = 0;
		else if (l == INT64_MIN)
			return "bigint div out of range";
		else
			*res = -l;
		return NULL;
	}
	*res = is_div ? l / r : l % r;
	return NULL;
}

const char *
expr_random_range(int64_t lo, int64_t hi)
{
	int64_t		width;

	if (lo > hi)
		return "empty range given to random";
	/* the distributions need hi - lo + 1 to fit in an int64 */
	if (__builtin_sub_overflow(hi, lo, &width) ||
		__builtin_add_overflow(width, 1, &width))
		return "random range is too large";
	return NULL;
}

expr_prog_result
expr_prog_run(eval_context *ctx, const expr_prog *p, pgb_value *out)
{
	int64_t		vars[EXPR_PROG_MAX_VARS];
	int64_t		stack[EXPR_PROG_MAX_STACK];
	int			sp = 0;
	const var_store *store = ctx->vars;

	/* every variable first: declining must come before any draw */
	for (int i = 0; i < p->nvars; i++)
	{
		int			slot = p->slots[i];

		if (slot >= store->nslots || store->slots[slot].value.type != PGBT_INT)
			return EXPR_PROG_DECLINED;
		vars[i] = store->slots[slot].value.u.ival;
	}
	for (int i = 0; i < p->nops; i++)
	{
		const prog_op *o = &p->ops[i];
		int64_t		l,
					r,
					res;
		bool		overflow;
		const char *problem;

		if (o->op == OP_CONST || o->op == OP_VAR)
		{
			stack[sp++] = o->op == OP_CONST ? o->k : vars[o->arg];
			continue;
		}
		r = stack[--sp];
		l = stack[sp - 1];
		switch (o->op)
		{
			case OP_ADD:
				overflow = __builtin_add_overflow(l, r, &res);
				if (overflow)
					return prog_fail(ctx, "bigint add out of range");
				break;
			case OP_SUB:
				overflow = __builtin_sub_overflow(l, r, &res);
				if (overflow)
					return prog_fail(ctx, "bigint sub out of range");
				break;
			case OP_MUL:
				overflow = __builtin_mul_overflow(l, r, &res);
				if (overflow)
					return prog_fail(ctx, "bigint mul out of range");
				break;
			case OP_RANDOM:
				if ((problem = expr_random_range(l, r)) != NULL)
					return prog_fail(ctx, problem);
				res = random_uniform(ctx->rs, l, r);
				break;
			default:			/* OP_DIV, OP_MOD */
				if ((problem = expr_int_divide(o->op == OP_DIV, l, r, &res)) != NULL)
					return prog_fail(ctx, problem);
				break;
		}
		stack[sp - 1] = res;
	}
	*out = pgb_value_int(stack[0]);
	return EXPR_PROG_DONE;
}
