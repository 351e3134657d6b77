/*
 * eval.c — owns the evaluation of expression trees for one client: the
 * coercions between value types, every operator and built-in function
 * with pgbench's typing rules, NULL handling and error messages, and the
 * debug() trace line.  Nothing here allocates; errors land in ctx->error.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/eval.h"

static bool eval_fail(eval_context *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool
eval_fail(eval_context *ctx, const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(ctx->error, sizeof(ctx->error), fmt, ap);
	va_end(ap);
	return false;
}

static const char *
eval_type_name(pgb_value_type type)
{
	switch (type)
	{
		case PGBT_NO_VALUE:
			return "none";
		case PGBT_NULL:
			return "null";
		case PGBT_INT:
			return "int";
		case PGBT_DOUBLE:
			return "double";
		case PGBT_BOOLEAN:
			return "boolean";
	}
	return "unknown";
}

/* The "%f" text of d in buf, for messages. */
static const char *
eval_fixed_text(double d, char *buf, size_t len)
{
	var_format_double_fixed(d, buf, len);
	return buf;
}

/* ---- coercions ----------------------------------------------------------- */

bool
value_to_bool(eval_context *ctx, const pgb_value *v, bool *out)
{
	if (PGB_LIKELY(v->type == PGBT_BOOLEAN))
	{
		*out = v->u.bval;
		return true;
	}
	*out = false;
	return eval_fail(ctx, "cannot coerce %s to boolean", eval_type_name(v->type));
}

bool
value_to_int(eval_context *ctx, const pgb_value *v, int64_t *out)
{
	if (PGB_LIKELY(v->type == PGBT_INT))
	{
		*out = v->u.ival;
		return true;
	}
	if (v->type == PGBT_DOUBLE)
	{
		/* doubles round to nearest even, then must fit exactly */
		double		d = rint(v->u.dval);
		char		shown[400];

		if (!isnan(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
		{
			*out = (int64_t) d;
			return true;
		}
		return eval_fail(ctx, "double to int overflow for %s",
						 eval_fixed_text(d, shown, sizeof(shown)));
	}
	return eval_fail(ctx, "cannot coerce %s to int", eval_type_name(v->type));
}

bool
value_to_double(eval_context *ctx, const pgb_value *v, double *out)
{
	if (PGB_LIKELY(v->type == PGBT_DOUBLE))
	{
		*out = v->u.dval;
		return true;
	}
	if (v->type == PGBT_INT)
	{
		*out = (double) v->u.ival;
		return true;
	}
	return eval_fail(ctx, "cannot coerce %s to double", eval_type_name(v->type));
}

bool
value_truth(const pgb_value *v)
{
	switch (v->type)
	{
		case PGBT_BOOLEAN:
			return v->u.bval;
		case PGBT_INT:
			return v->u.ival != 0;
		case PGBT_DOUBLE:
			return v->u.dval != 0.0;
		default:
			return false;
	}
}

/* ---- lazy operators: AND, OR, CASE --------------------------------------- */

/*
 * Argument n of a lazy operator has just put its value on top of the
 * stack (*sp values held).  *go becomes the first node of the argument
 * to evaluate next (the value consumed), or stays NULL when the value on
 * top is now the operator's result.  false on a failed coercion.
 *
 * AND / OR: NULL on either side gives NULL unless the left side alone
 * decides (false AND ..., true OR ...): pgbench's rule, not SQL's
 * three-valued logic.  CASE (c1, r1, c2, r2, ..., else): a true condition
 * leads to its result, a false one to the next condition or the else;
 * a result or the else is the CASE's value.
 */
static bool
eval_lazy_step(eval_context *ctx, const expr_node *n, pgb_value *stack, int *sp,
			   const expr_node **go)
{
	const expr_node *op = n->parent;
	pgb_value  *top = &stack[*sp - 1];
	bool		b;

	*go = NULL;
	if (op->u.function.func == PGBF_CASE)
	{
		int			i = n->argno;

		if (i % 2 == 1 || i == op->u.function.nargs - 1)
			return true;
		(*sp)--;
		*go = op->u.function.args[value_truth(top) ? i + 1 : i + 2]->first;
		return true;
	}
	if (top->type == PGBT_NULL)
		return true;
	if (!value_to_bool(ctx, top, &b))
		return false;
	if (n->argno == 0 && b != (op->u.function.func == PGBF_OR))
	{
		(*sp)--;
		*go = op->u.function.args[1]->first;
		return true;
	}
	*top = pgb_value_bool(b);
	return true;
}

/* ---- arithmetic and comparison ------------------------------------------- */

/*
 * The two operands of an arithmetic operator or a comparison, in the type
 * pgbench computes in: doubles when either is a double (modulo excepted,
 * which is always on ints), else ints.
 */
typedef struct eval_operands
{
	bool		is_double;
	int64_t		li,
				ri;
	double		ld,
				rd;
} eval_operands;

static bool
eval_coerce_operands(eval_context *ctx, expr_func func, const pgb_value *l,
					 const pgb_value *r, eval_operands *ops)
{
	bool		is_mod = (func == PGBF_MOD || func == PGBF_MOD_FUNC);

	ops->is_double = (l->type == PGBT_DOUBLE || r->type == PGBT_DOUBLE) && !is_mod;
	if (ops->is_double)
		return value_to_double(ctx, l, &ops->ld) && value_to_double(ctx, r, &ops->rd);
	return value_to_int(ctx, l, &ops->li) && value_to_int(ctx, r, &ops->ri);
}

/*
 * =, <>, <= and < from "less" and "equal" alone, whatever the type; NaN is
 * neither less nor equal, which gives C's answers for it (only <> holds).
 */
static bool
eval_compare(eval_context *ctx, expr_func func, const pgb_value *l,
			 const pgb_value *r, pgb_value *out)
{
	eval_operands ops;
	bool		less,
				equal;

	if (!eval_coerce_operands(ctx, func, l, r, &ops))
		return false;
	less = ops.is_double ? ops.ld < ops.rd : ops.li < ops.ri;
	equal = ops.is_double ? ops.ld == ops.rd : ops.li == ops.ri;
	switch (func)
	{
		case PGBF_EQ:
			*out = pgb_value_bool(equal);
			return true;
		case PGBF_NE:
			*out = pgb_value_bool(!equal);
			return true;
		case PGBF_LE:
			*out = pgb_value_bool(less || equal);
			return true;
		case PGBF_LT:
			*out = pgb_value_bool(less);
			return true;
		default:
			return eval_fail(ctx, "unexpected operator %d", (int) func);
	}
}

static bool
eval_double_arith(eval_context *ctx, expr_func func, double l, double r,
				  pgb_value *out)
{
	switch (func)
	{
		case PGBF_ADD:
			*out = pgb_value_double(l + r);
			return true;
		case PGBF_SUB:
			*out = pgb_value_double(l - r);
			return true;
		case PGBF_MUL:
			*out = pgb_value_double(l * r);
			return true;
		case PGBF_DIV:
			*out = pgb_value_double(l / r);
			return true;
		default:
			return eval_fail(ctx, "unexpected operator %d", (int) func);
	}
}

static bool
eval_int_arith(eval_context *ctx, expr_func func, int64_t l, int64_t r,
			   pgb_value *out)
{
	expr_prog_opcode op;
	int64_t		res;
	const char *problem;

	if (!expr_prog_function_opcode(func, &op) || op == EXPR_OP_RANDOM)
		return eval_fail(ctx, "unexpected operator %d", (int) func);
	if ((problem = expr_int_op(op, l, r, &res)) != NULL)
		return eval_fail(ctx, "%s", problem);
	*out = pgb_value_int(res);
	return true;
}

/* +, -, *, / and modulo. */
static bool
eval_arith(eval_context *ctx, expr_func func, const pgb_value *l,
		   const pgb_value *r, pgb_value *out)
{
	eval_operands ops;

	if (!eval_coerce_operands(ctx, func, l, r, &ops))
		return false;
	if (ops.is_double)
		return eval_double_arith(ctx, func, ops.ld, ops.rd, out);
	return eval_int_arith(ctx, func, ops.li, ops.ri, out);
}

/*
 * Shift counts are taken modulo 64, which is what pgbench's plain C shifts
 * do on the hardware it runs on (1 << 64 is 1), without undefined behaviour.
 */
static bool
eval_bitwise(eval_context *ctx, expr_func func, const pgb_value *l,
			 const pgb_value *r, pgb_value *out)
{
	int64_t		li,
				ri;
	int			shift;

	if (!value_to_int(ctx, l, &li) || !value_to_int(ctx, r, &ri))
		return false;
	shift = (int) (ri & 63);
	switch (func)
	{
		case PGBF_BITAND:
			*out = pgb_value_int(li & ri);
			break;
		case PGBF_BITOR:
			*out = pgb_value_int(li | ri);
			break;
		case PGBF_BITXOR:
			*out = pgb_value_int(li ^ ri);
			break;
		case PGBF_LSHIFT:
			*out = pgb_value_int((int64_t) ((uint64_t) li << shift));
			break;
		case PGBF_RSHIFT:
			/* arithmetic shift without relying on implementation-defined >> */
			*out = pgb_value_int(li >= 0 ? li >> shift : ~(~li >> shift));
			break;
		default:
			return eval_fail(ctx, "unexpected operator %d", (int) func);
	}
	return true;
}

/*
 * IS compares type and payload; the parser only puts NULL or a boolean
 * constant on the right, so "1 IS TRUE" is simply false.
 */
static void
eval_is(const pgb_value *l, const pgb_value *r, pgb_value *out)
{
	bool		same = l->type == r->type;

	if (same && l->type == PGBT_BOOLEAN)
		same = l->u.bval == r->u.bval;
	else if (same && l->type == PGBT_INT)
		same = l->u.ival == r->u.ival;
	else if (same && l->type == PGBT_DOUBLE)
		same = l->u.dval == r->u.dval;
	*out = pgb_value_bool(same);
}

/* ---- named functions ----------------------------------------------------- */

static void
eval_abs(const pgb_value *v, pgb_value *out)
{
	if (v->type == PGBT_INT)
	{
		/* abs(INT64_MIN) wraps to itself in pgbench; do so without UB */
		uint64_t	u = (uint64_t) v->u.ival;

		*out = pgb_value_int((int64_t) (v->u.ival < 0 ? 0 - u : u));
	}
	else if (v->type == PGBT_DOUBLE)
		*out = pgb_value_double(fabs(v->u.dval));
	else
	{
		/*
		 * pgbench reads a boolean's storage as a double here, giving the
		 * denormal with bit pattern 1 for true and 0 for false; keep that.
		 */
		uint64_t	bits = (v->type == PGBT_BOOLEAN && v->u.bval) ? 1 : 0;
		double		d;

		memcpy(&d, &bits, sizeof(d));
		*out = pgb_value_double(d);
	}
}

static void
eval_debug(eval_context *ctx, const pgb_value *v)
{
	FILE	   *f = ctx->debug_out ? ctx->debug_out : stderr;
	char		text[64];

	var_format_value(v, text, sizeof(text));
	switch (v->type)
	{
		case PGBT_NULL:
			fprintf(f, "debug(script=%d,command=%d): null\n",
					ctx->script_index, ctx->command_number);
			break;
		case PGBT_BOOLEAN:
			fprintf(f, "debug(script=%d,command=%d): boolean %s\n",
					ctx->script_index, ctx->command_number, text);
			break;
		case PGBT_INT:
			fprintf(f, "debug(script=%d,command=%d): int %s\n",
					ctx->script_index, ctx->command_number, text);
			break;
		case PGBT_DOUBLE:
			fprintf(f, "debug(script=%d,command=%d): double %s\n",
					ctx->script_index, ctx->command_number, text);
			break;
		case PGBT_NO_VALUE:
			break;
	}
}

/* greatest/least: an int result unless some argument is a double. */
static bool
eval_extremum(eval_context *ctx, expr_func func, int nargs,
			  const pgb_value *vals, pgb_value *out)
{
	bool		want_max = (func == PGBF_GREATEST);
	bool		any_double = false;

	for (int i = 0; i < nargs; i++)
		any_double |= (vals[i].type == PGBT_DOUBLE);

	if (any_double)
	{
		double		best,
					d;

		if (!value_to_double(ctx, &vals[0], &best))
			return false;
		for (int i = 1; i < nargs; i++)
		{
			if (!value_to_double(ctx, &vals[i], &d))
				return false;
			/* keep the running value unless the new one wins: NaN order */
			best = want_max ? (best > d ? best : d) : (best < d ? best : d);
		}
		*out = pgb_value_double(best);
	}
	else
	{
		int64_t		best,
					n;

		if (!value_to_int(ctx, &vals[0], &best))
			return false;
		for (int i = 1; i < nargs; i++)
		{
			if (!value_to_int(ctx, &vals[i], &n))
				return false;
			best = want_max ? (best > n ? best : n) : (best < n ? best : n);
		}
		*out = pgb_value_int(best);
	}
	return true;
}

static bool
eval_math(eval_context *ctx, expr_func func, const pgb_value *vals,
		  pgb_value *out)
{
	double		a,
				b;

	if (!value_to_double(ctx, &vals[0], &a))
		return false;
	switch (func)
	{
		case PGBF_SQRT:
			*out = pgb_value_double(sqrt(a));
			return true;
		case PGBF_LN:
			*out = pgb_value_double(log(a));
			return true;
		case PGBF_EXP:
			*out = pgb_value_double(exp(a));
			return true;
		case PGBF_POW:
			if (!value_to_double(ctx, &vals[1], &b))
				return false;
			*out = pgb_value_double(pow(a, b));
			return true;
		default:
			return eval_fail(ctx, "unexpected function %d", (int) func);
	}
}

/* Only a parameter out of range pays for formatting it. */
static bool
eval_random_parameter(eval_context *ctx, expr_func func, double param)
{
	char		shown[400];

	if (func == PGBF_RANDOM_GAUSSIAN && param < RANDOM_GAUSSIAN_MIN_PARAMETER)
		return eval_fail(ctx, "gaussian parameter must be at least %f (not %s)",
						 RANDOM_GAUSSIAN_MIN_PARAMETER,
						 eval_fixed_text(param, shown, sizeof(shown)));
	if (func == PGBF_RANDOM_ZIPFIAN &&
		(param < RANDOM_ZIPFIAN_MIN_PARAMETER || param > RANDOM_ZIPFIAN_MAX_PARAMETER))
		return eval_fail(ctx, "zipfian parameter must be in range [%.3f, %.0f] (not %s)",
						 RANDOM_ZIPFIAN_MIN_PARAMETER, RANDOM_ZIPFIAN_MAX_PARAMETER,
						 eval_fixed_text(param, shown, sizeof(shown)));
	if (func == PGBF_RANDOM_EXPONENTIAL && param <= 0.0)
		return eval_fail(ctx, "exponential parameter must be greater than zero (not %s)",
						 eval_fixed_text(param, shown, sizeof(shown)));
	return true;
}

static bool
eval_random(eval_context *ctx, expr_func func, const pgb_value *vals,
			pgb_value *out)
{
	int64_t		lo,
				hi;
	double		param;
	const char *problem;

	if (!value_to_int(ctx, &vals[0], &lo) || !value_to_int(ctx, &vals[1], &hi))
		return false;
	if ((problem = expr_random_range(lo, hi)) != NULL)
		return eval_fail(ctx, "%s", problem);

	if (func == PGBF_RANDOM)
	{
		*out = pgb_value_int(random_uniform(ctx->rs, lo, hi));
		return true;
	}
	if (!value_to_double(ctx, &vals[2], &param) ||
		!eval_random_parameter(ctx, func, param))
		return false;
	if (func == PGBF_RANDOM_GAUSSIAN)
		*out = pgb_value_int(random_gaussian(ctx->rs, lo, hi, param));
	else if (func == PGBF_RANDOM_ZIPFIAN)
		*out = pgb_value_int(random_zipfian(ctx->rs, lo, hi, param));
	else
		*out = pgb_value_int(random_exponential(ctx->rs, lo, hi, param));
	return true;
}

static bool
eval_hash(eval_context *ctx, expr_func func, const pgb_value *vals,
		  pgb_value *out)
{
	int64_t		value,
				seed;

	if (!value_to_int(ctx, &vals[0], &value) || !value_to_int(ctx, &vals[1], &seed))
		return false;
	if (func == PGBF_HASH_FNV1A)
		*out = pgb_value_int(random_hash_fnv1a(value, (uint64_t) seed));
	else
		*out = pgb_value_int(random_hash_murmur2(value, (uint64_t) seed));
	return true;
}

static bool
eval_permute(eval_context *ctx, const pgb_value *vals, pgb_value *out)
{
	int64_t		value,
				size,
				seed;

	if (!value_to_int(ctx, &vals[0], &value) ||
		!value_to_int(ctx, &vals[1], &size) ||
		!value_to_int(ctx, &vals[2], &seed))
		return false;
	if (size <= 0)
		return eval_fail(ctx, "permute size parameter must be greater than zero");
	*out = pgb_value_int(random_permute(value, size, seed));
	return true;
}

static bool
eval_int_conversion(eval_context *ctx, expr_func func, const pgb_value *v,
					pgb_value *out)
{
	if (func == PGBF_INT)
	{
		int64_t		i;

		if (!value_to_int(ctx, v, &i))
			return false;
		*out = pgb_value_int(i);
	}
	else
	{
		double		d;

		if (!value_to_double(ctx, v, &d))
			return false;
		*out = pgb_value_double(d);
	}
	return true;
}

/* ---- dispatch ------------------------------------------------------------ */

static bool
eval_strict_function(eval_context *ctx, expr_func func, int nargs,
					 const pgb_value *vals, pgb_value *out)
{
	bool		b;

	switch (func)
	{
		case PGBF_ADD:
		case PGBF_SUB:
		case PGBF_MUL:
		case PGBF_DIV:
		case PGBF_MOD:
		case PGBF_MOD_FUNC:
			return eval_arith(ctx, func, &vals[0], &vals[1], out);
		case PGBF_EQ:
		case PGBF_NE:
		case PGBF_LE:
		case PGBF_LT:
			return eval_compare(ctx, func, &vals[0], &vals[1], out);
		case PGBF_BITAND:
		case PGBF_BITOR:
		case PGBF_BITXOR:
		case PGBF_LSHIFT:
		case PGBF_RSHIFT:
			return eval_bitwise(ctx, func, &vals[0], &vals[1], out);
		case PGBF_NOT:
			if (!value_to_bool(ctx, &vals[0], &b))
				return false;
			*out = pgb_value_bool(!b);
			return true;
		case PGBF_IS:
			eval_is(&vals[0], &vals[1], out);
			return true;
		case PGBF_ABS:
			eval_abs(&vals[0], out);
			return true;
		case PGBF_DEBUG:
			eval_debug(ctx, &vals[0]);
			*out = vals[0];
			return true;
		case PGBF_INT:
		case PGBF_DOUBLE:
			return eval_int_conversion(ctx, func, &vals[0], out);
		case PGBF_GREATEST:
		case PGBF_LEAST:
			return eval_extremum(ctx, func, nargs, vals, out);
		case PGBF_SQRT:
		case PGBF_LN:
		case PGBF_EXP:
		case PGBF_POW:
			return eval_math(ctx, func, vals, out);
		case PGBF_PI:
			*out = pgb_value_double(M_PI);
			return true;
		case PGBF_RANDOM:
		case PGBF_RANDOM_EXPONENTIAL:
		case PGBF_RANDOM_GAUSSIAN:
		case PGBF_RANDOM_ZIPFIAN:
			return eval_random(ctx, func, vals, out);
		case PGBF_HASH_FNV1A:
		case PGBF_HASH_MURMUR2:
			return eval_hash(ctx, func, vals, out);
		case PGBF_PERMUTE:
			return eval_permute(ctx, vals, out);
		case PGBF_AND:
		case PGBF_OR:
		case PGBF_CASE:
			break;
	}
	return eval_fail(ctx, "unexpected function %d", (int) func);
}

/*
 * A strict function whose arguments are the top nargs values: replace
 * them with its result.  Every argument was evaluated first (so debug()
 * calls inside always run); a NULL argument makes the result NULL, except
 * for IS and debug().
 */
static bool
eval_function(eval_context *ctx, const expr_node *node, pgb_value *stack, int *sp)
{
	expr_func	func = node->u.function.func;
	int			nargs = node->u.function.nargs;
	pgb_value  *vals = &stack[*sp - nargs];
	pgb_value	result;
	bool		has_null = false;

	for (int i = 0; i < nargs; i++)
		has_null |= (vals[i].type == PGBT_NULL);
	if (has_null && func != PGBF_IS && func != PGBF_DEBUG)
		result = pgb_value_null();
	else if (!eval_strict_function(ctx, func, nargs, vals, &result))
		return false;
	*sp -= nargs;
	stack[(*sp)++] = result;
	return true;
}

/* Push the value of node, whose arguments (if any) are on the stack. */
static bool
eval_node(eval_context *ctx, const expr_node *node, pgb_value *stack, int *sp)
{
	switch (node->kind)
	{
		case EXPR_CONSTANT:
			stack[(*sp)++] = node->u.constant;
			return true;
		case EXPR_VARIABLE:
			if (!var_get_value(ctx->vars, node->u.variable.slot, &stack[*sp],
							   ctx->error, sizeof(ctx->error)))
				return false;
			(*sp)++;
			return true;
		case EXPR_FUNCTION:
			return eval_function(ctx, node, stack, sp);
	}
	return eval_fail(ctx, "unexpected expression node %d", (int) node->kind);
}

/*
 * Evaluate the tree at root in postorder, with no recursion: each node's
 * value goes on the stack (root->pending values at most), a function takes
 * its arguments' values off it, and a lazy operator's arguments decide
 * where to go on.  As pgbench, a call with more than EXPR_MAX_ARGS
 * arguments fails once the first EXPR_MAX_ARGS are evaluated.
 */
static bool
eval_run(eval_context *ctx, const expr_node *root, pgb_value *stack, pgb_value *out)
{
	const expr_node *n = root->first;
	int			sp = 0;

	for (;;)
	{
		const expr_node *go = NULL;

		if (!eval_node(ctx, n, stack, &sp))
			return false;
		while (n != root && n->in_lazy)
		{
			if (!eval_lazy_step(ctx, n, stack, &sp, &go))
				return false;
			if (go != NULL)
				break;
			n = n->parent;
		}
		if (go != NULL)
		{
			n = go;
			continue;
		}
		if (n == root)
		{
			*out = stack[sp - 1];
			return true;
		}
		if (n->argno == EXPR_MAX_ARGS - 1 && n->parent->u.function.nargs > EXPR_MAX_ARGS)
			return eval_fail(ctx, "too many function arguments, maximum is %d",
							 EXPR_MAX_ARGS);
		n = n->next;
	}
}

/* Everyday expressions hold a few values; only deep ones pay for more. */
#define EVAL_SMALL_STACK 32

/* A deep expression's values live on the heap, as many as it needs. */
static __attribute__((noinline)) bool
eval_run_deep(eval_context *ctx, const expr_node *root, pgb_value *out)
{
	pgb_value  *stack = malloc((size_t) root->pending * sizeof(pgb_value));
	bool		ok;

	if (stack == NULL)
		return eval_fail(ctx, "out of memory");
	ok = eval_run(ctx, root, stack, out);
	free(stack);
	return ok;
}

bool
expr_evaluate(eval_context *ctx, const expr_node *node, pgb_value *out)
{
	pgb_value	stack[EVAL_SMALL_STACK];

	if (PGB_LIKELY(node->prog != NULL))
	{
		expr_prog_result r = expr_prog_run(ctx, node->prog, out);

		if (PGB_LIKELY(r != EXPR_PROG_DECLINED))
			return r == EXPR_PROG_DONE;
	}
	if (PGB_LIKELY(node->pending <= EVAL_SMALL_STACK))
		return eval_run(ctx, node, stack, out);
	if (node->pending > EXPR_MAX_PENDING)
		return eval_fail(ctx, "expression too deeply nested");
	return eval_run_deep(ctx, node, out);
}
