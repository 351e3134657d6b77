/*
 * expr_prog.c — owns the building of an integer expression's flat program
 * (expr.h), once when the tree is parsed, and the checks the program's run
 * (eval_prog.c) and the tree evaluator share; the run is the hot path of
 * every \set of the builtin scripts.
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
#include "pgbench/script/expr.h"

/* ---- building ------------------------------------------------------------ */

/* The functions a program runs, with two arguments each. */
static const struct
{
	expr_func	func;
	expr_prog_opcode op;
}			prog_functions[] = {
	{PGBF_ADD, EXPR_OP_ADD}, {PGBF_SUB, EXPR_OP_SUB}, {PGBF_MUL, EXPR_OP_MUL},
	{PGBF_DIV, EXPR_OP_DIV}, {PGBF_MOD, EXPR_OP_MOD}, {PGBF_MOD_FUNC, EXPR_OP_MOD},
	{PGBF_RANDOM, EXPR_OP_RANDOM},
};

bool
expr_prog_function_opcode(expr_func func, expr_prog_opcode *op)
{
	for (size_t i = 0; i < sizeof(prog_functions) / sizeof(prog_functions[0]); i++)
	{
		if (prog_functions[i].func == func)
		{
			*op = prog_functions[i].op;
			return true;
		}
	}
	return false;
}

static bool
expr_prog_opcode_of(const expr_node *n, expr_prog_opcode *op)
{
	if (n->kind == EXPR_CONSTANT)
	{
		*op = EXPR_OP_CONST;
		return n->u.constant.type == PGBT_INT;
	}
	if (n->kind == EXPR_VARIABLE)
	{
		*op = EXPR_OP_VAR;
		return n->u.variable.slot >= 0;
	}
	return n->u.function.nargs == 2 && expr_prog_function_opcode(n->u.function.func, op);
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
		expr_prog_opcode op;

		if (!expr_prog_opcode_of(n, &op))
			return false;
		if (op == EXPR_OP_CONST)
		{
			if (p->nconsts == EXPR_PROG_MAX_REGS)
				return false;
			p->consts[p->nconsts++] = n->u.constant.u.ival;
		}
		else if (op == EXPR_OP_VAR && prog_variable(p, n->u.variable.slot) < 0)
		{
			if (p->nvars == EXPR_PROG_MAX_VARS)
				return false;
			p->slots[p->nvars++] = n->u.variable.slot;
		}
		else if (op != EXPR_OP_VAR)
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
	expr_prog_op ops[EXPR_PROG_MAX_OPS] = {0};
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
		expr_prog_opcode op;

		if (!expr_prog_opcode_of(n, &op))
			return NULL;		/* (prog_scan has seen every node qualify) */
		if (op == EXPR_OP_CONST)
			held[nheld++] = (uint8_t) nconsts++;
		else if (op == EXPR_OP_VAR)
			held[nheld++] = (uint8_t) (head.nconsts + prog_variable(&head, n->u.variable.slot));
		else if (nheld < 2 || nops == head.nops)
			return NULL;		/* not a tree of two-argument functions */
		else
		{
			uint8_t		dst = (uint8_t) (head.nconsts + head.nvars + nops);

			ops[nops++] = (expr_prog_op) {.op = op, .a = held[nheld - 2], .b = held[nheld - 1], .dst = dst};
			held[--nheld - 1] = dst;
		}
		if (n == root)
			break;
	}
	p = pgb_malloc(offsetof(expr_prog, ops) + sizeof(expr_prog_op) * (size_t) nops);
	*p = head;
	p->result = held[0];
	for (int i = 0; i < nops; i++)
		p->ops[i] = ops[i];
	return p;
}

/* ---- checks both evaluators share --------------------------------------- */

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
