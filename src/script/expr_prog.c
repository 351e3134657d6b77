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
	OP_CONST,					/* a leaf: an integer constant */
	OP_VAR,						/* a leaf: a variable */
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_RANDOM,					/* random(lo, hi) */
} prog_opcode;

/* regs[dst] = op(regs[a], regs[b]) */
typedef struct prog_op
{
	prog_opcode op;
	uint8_t		a,
				b,
				dst;
} prog_op;

/*
 * Registers: the constants first (their values in consts), then the
 * variables (read from the store slots in slots), then each operation's
 * result; the root's value is in regs[result].
 */
struct expr_prog
{
	int			nconsts;
	int			nvars;
	int			nops;
	int			result;
	int64_t		consts[EXPR_PROG_MAX_REGS];
	int			slots[EXPR_PROG_MAX_VARS];
	prog_op		ops[];			/* in the tree's postorder */
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

/* The index of variable slot among the program's, -1 when it has none. */
static int
prog_variable(const expr_prog *p, int slot)
{
	for (int i = 0; i < p->nvars; i++)
		if (p->slots[i] == slot)
			return i;
	return -1;
}

/*
 * First pass: whether every node qualifies; the constants' values and
 * the variables' slots, in order of appearance; how many operations.
 */
static bool
prog_scan(const expr_node *root, expr_prog *p)
{
	for (const expr_node *n = root->first;; n = n->next)
	{
		prog_opcode op;

		if (!prog_opcode_of(n, &op))
			return false;
		if (op == OP_CONST)
		{
			if (p->nconsts == EXPR_PROG_MAX_REGS)
				return false;
			p->consts[p->nconsts++] = n->u.constant.u.ival;
		}
		else if (op == OP_VAR)
		{
			if (prog_variable(p, n->u.variable.slot) >= 0)
				continue;
			if (p->nvars == EXPR_PROG_MAX_VARS)
				return false;
			p->slots[p->nvars++] = n->u.variable.slot;
		}
		else
			p->nops++;
		if (n == root)
			return p->nops <= EXPR_PROG_MAX_OPS &&
				p->nconsts + p->nvars + p->nops <= EXPR_PROG_MAX_REGS;
	}
}

expr_prog *
expr_prog_build(const expr_node *root)
{
	expr_prog	head = {0};
	prog_op		ops[EXPR_PROG_MAX_OPS] = {0};
	uint8_t		held[EXPR_PROG_MAX_REGS] = {0};	/* registers of pending values */
	int			nheld = 0,
				nconsts = 0,
				nops = 0;
	expr_prog  *p;

	if (!prog_scan(root, &head))
		return NULL;
	/* second pass: each value's register; results after the variables' */
	for (const expr_node *n = root->first;; n = n->next)
	{
		prog_opcode op;

		(void) prog_opcode_of(n, &op);
		if (op == OP_CONST)
			held[nheld++] = (uint8_t) nconsts++;
		else if (op == OP_VAR)
			held[nheld++] = (uint8_t) (head.nconsts + prog_variable(&head, n->u.variable.slot));
		else if (nheld < 2 || nops == head.nops)
			return NULL;		/* not a tree of two-argument functions */
		else
		{
			uint8_t		dst = (uint8_t) (head.nconsts + head.nvars + nops);

			ops[nops++] = (prog_op) {.op = op, .a = held[nheld - 2], .b = held[nheld - 1], .dst = dst};
			held[--nheld - 1] = dst;
		}
		if (n == root)
			break;
	}
	p = pgb_malloc(offsetof(expr_prog, ops) + sizeof(prog_op) * (size_t) nops);
	*p = head;
	p->result = held[0];
	for (int i = 0; i < nops; i++)
		p->ops[i] = ops[i];
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
	int64_t		regs[EXPR_PROG_MAX_REGS];
	const var_store *store = ctx->vars;
	int			nconsts = p->nconsts;

	for (int i = 0; i < nconsts; i++)
		regs[i] = p->consts[i];
	/* every variable first: declining must come before any draw */
	for (int i = 0; i < p->nvars; i++)
	{
		int			slot = p->slots[i];

		if (slot >= store->nslots || store->slots[slot].value.type != PGBT_INT)
			return EXPR_PROG_DECLINED;
		regs[nconsts + i] = store->slots[slot].value.u.ival;
	}
	for (int i = 0; i < p->nops; i++)
	{
		const prog_op *o = &p->ops[i];
		int64_t		l = regs[o->a],
					r = regs[o->b],
					res;
		const char *problem;

		switch (o->op)
		{
			case OP_ADD:
				if (__builtin_add_overflow(l, r, &res))
					return prog_fail(ctx, "bigint add out of range");
				break;
			case OP_SUB:
				if (__builtin_sub_overflow(l, r, &res))
					return prog_fail(ctx, "bigint sub out of range");
				break;
			case OP_MUL:
				if (__builtin_mul_overflow(l, r, &res))
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
		regs[o->dst] = res;
	}
	*out = pgb_value_int(regs[p->result]);
	return EXPR_PROG_DONE;
}
