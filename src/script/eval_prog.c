/*
 * eval_prog.c — owns the run of an expression's flat program (expr.h):
 * the integer expressions of the builtin scripts' \set commands, on int64
 * registers, with the tree evaluator's messages and draws
 * (t/unit/test_expr_prog.c runs both on the same expressions and compares
 * values, messages and the random state after).
 */
#include <stdint.h>
#include <string.h>

#include "pgbench/script/eval.h"
#include "pgbench/script/random.h"

static expr_prog_result
prog_fail(eval_context *ctx, const char *message)
{
	size_t		len = strlen(message);

	memcpy(ctx->error, message, len + 1);
	return EXPR_PROG_FAILED;
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
		const expr_prog_op *o = &p->ops[i];
		int64_t		l = regs[o->a],
					r = regs[o->b],
					res;
		const char *problem;

		if (o->op == EXPR_OP_RANDOM)
		{
			if ((problem = expr_random_range(l, r)) != NULL)
				return prog_fail(ctx, problem);
			res = random_uniform(ctx->rs, l, r);
		}
		else if ((problem = expr_int_op(o->op, l, r, &res)) != NULL)
			return prog_fail(ctx, problem);
		regs[o->dst] = res;
	}
	*out = pgb_value_int(regs[p->result]);
	return EXPR_PROG_DONE;
}
