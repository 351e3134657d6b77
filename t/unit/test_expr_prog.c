/*
 * test_expr_prog.c — the flat program of an integer expression
 * (expr.h) against the tree evaluator: which trees get one, and, for
 * each expression, the same value or the same message, and the same
 * random state afterwards, whether the program or the tree evaluates it;
 * a variable that is not an integer makes the program decline before it
 * draws anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/eval.h"
#include "tap.h"

typedef struct fixture
{
	var_symtab *symtab;
	var_store	vars;
	prng_state	rs;
	eval_context ctx;
} fixture;

static void
set_var(fixture *fx, const char *name, const char *value)
{
	int			slot = var_symtab_intern(fx->symtab, name, strlen(name));

	var_store_grow(&fx->vars);
	var_set_string(&fx->vars, slot, value, strlen(value));
}

static void
set_int(fixture *fx, const char *name, int64_t value)
{
	int			slot = var_symtab_intern(fx->symtab, name, strlen(name));

	var_store_grow(&fx->vars);
	var_set_value(&fx->vars, slot, pgb_value_int(value));
}

static void
fixture_init(fixture *fx)
{
	fx->symtab = var_symtab_create();
	var_store_init(&fx->vars, fx->symtab);
	set_int(fx, "scale", 10);
	set_int(fx, "aid", 123456);
	set_int(fx, "zero", 0);
	set_int(fx, "m1", -1);
	set_int(fx, "min", INT64_MIN);
	set_int(fx, "max", INT64_MAX);
	set_var(fx, "s", "42");		/* a string until first read as a number */
	set_var(fx, "d", "2.5");
	set_var(fx, "bad", "abc");
	memset(&fx->ctx, 0, sizeof(fx->ctx));
	fx->ctx.vars = &fx->vars;
	fx->ctx.rs = &fx->rs;
	fx->ctx.command_number = 1;
	fx->ctx.debug_out = stderr;
}

static expr_node *
parse(fixture *fx, const char *text)
{
	expr_error	err;
	expr_node  *tree = expr_parse(text, 0, fx->symtab, &err);

	var_store_grow(&fx->vars);
	return tree;
}

/* "int 5", "double 2.5" or "ERR:message" */
static void
describe(bool ok, const eval_context *ctx, const pgb_value *v, char *buf, size_t len)
{
	char		text[64];

	if (!ok)
	{
		snprintf(buf, len, "ERR:%s", ctx->error);
		return;
	}
	var_format_value(v, text, sizeof(text));
	snprintf(buf, len, "%s %s", v->type == PGBT_INT ? "int" : "other", text);
}

/* Evaluate tree from random state seed, with or without its program. */
static void
run(fixture *fx, expr_node *tree, bool with_prog, uint64_t seed, char *buf,
	size_t len, prng_state *after)
{
	expr_prog  *prog = tree->prog;
	pgb_value	v = {.type = PGBT_NO_VALUE};
	bool		ok;

	if (!with_prog)
		tree->prog = NULL;
	prng_seed(&fx->rs, seed);
	fx->ctx.error[0] = '\0';
	ok = expr_evaluate(&fx->ctx, tree, &v);
	tree->prog = prog;
	describe(ok, &fx->ctx, &v, buf, len);
	*after = fx->rs;
}

/* Both ways agree on text, 20 seeds each; returns the first description. */
static void
check_same(fixture *fx, const char *text, const char *expect)
{
	expr_node  *tree = parse(fx, text);
	char		first[300] = "";
	bool		same = true;

	if (tree == NULL || tree->prog == NULL)
	{
		tap_ok(false, "%s: has a program", text);
		expr_free(tree);
		return;
	}
	for (uint64_t seed = 1; seed <= 20; seed++)
	{
		char		a[300],
					b[300];
		prng_state	ra,
					rb;

		run(fx, tree, true, seed, a, sizeof(a), &ra);
		run(fx, tree, false, seed, b, sizeof(b), &rb);
		if (strcmp(a, b) != 0 || memcmp(&ra, &rb, sizeof(ra)) != 0)
		{
			tap_diag("%s, seed %llu: program \"%s\", tree \"%s\"", text,
				 (unsigned long long) seed, a, b);
			same = false;
		}
		if (seed == 1)
			snprintf(first, sizeof(first), "%s", a);
	}
	tap_ok(same, "%s: the program and the tree agree (values, messages, random state)", text);
	if (expect != NULL)
	{
		char		name[400];

		snprintf(name, sizeof(name), "%s: %s", text, expect);
		tap_is_str(first, expect, name);
	}
	expr_free(tree);
}

static void
check_no_program(fixture *fx, const char *text)
{
	expr_node  *tree = parse(fx, text);

	tap_ok(tree != NULL && tree->prog == NULL, "%s: no program (the tree evaluates it)", text);
	expr_free(tree);
}

/* A declining program draws nothing: the tree then does the same as alone. */
static void
check_declines(fixture *fx, const char *text)
{
	expr_node  *tree = parse(fx, text);
	prng_state	before;
	pgb_value	v;

	if (tree == NULL || tree->prog == NULL)
	{
		tap_ok(false, "%s: has a program", text);
		expr_free(tree);
		return;
	}
	prng_seed(&fx->rs, 7);
	before = fx->rs;
	tap_ok(expr_prog_run(&fx->ctx, tree->prog, &v) == EXPR_PROG_DECLINED &&
	   memcmp(&before, &fx->rs, sizeof(before)) == 0,
	   "%s: the program declines before drawing", text);
	expr_free(tree);
}

int
main(void)
{
	fixture		fx;

	fixture_init(&fx);

	/* the builtin scripts' expressions, and arithmetic */
	check_same(&fx, "random(1, 100000 * :scale)", NULL);
	check_same(&fx, "random(-5000, 5000)", NULL);
	check_same(&fx, "random(1, 1 * :scale)", NULL);
	check_same(&fx, "random(:aid, :aid)", "int 123456");
	check_same(&fx, ":aid % 10 + 1", "int 7");
	check_same(&fx, "mod(:aid, 7) - 3", "int 1");
	check_same(&fx, "-:aid / 100", "int -1234");
	check_same(&fx, "7 / -2 * 3 - 1", "int -10");
	check_same(&fx, "random(1, 10) * random(1, 10) + random(1, 10) - random(1, 3)", NULL);
	check_same(&fx, "-9223372036854775808", "int -9223372036854775808");

	/* every error, with the tree's message */
	check_same(&fx, ":max + 1", "ERR:bigint add out of range");
	check_same(&fx, ":min - 1", "ERR:bigint sub out of range");
	check_same(&fx, ":max * 2", "ERR:bigint mul out of range");
	check_same(&fx, "1 / :zero", "ERR:division by zero");
	check_same(&fx, "1 % 0", "ERR:division by zero");
	check_same(&fx, ":min / :m1", "ERR:bigint div out of range");
	check_same(&fx, ":min % :m1", "int 0");
	check_same(&fx, "5 / :m1", "int -5");
	check_same(&fx, "random(2, 1)", "ERR:empty range given to random");
	check_same(&fx, "random(:min, :max)", "ERR:random range is too large");
	/* an error after a draw: the same message, the same state */
	check_same(&fx, "random(1, 10) * :max", "ERR:bigint mul out of range");

	/* variables that are not integers: the tree's coercions */
	check_declines(&fx, "random(1, :d * 2)");
	check_declines(&fx, ":bad + 1");
	check_declines(&fx, ":undefined + 1");
	check_same(&fx, ":s + 1", "int 43");	/* declines once, then parsed */
	check_same(&fx, ":d + 1", "other 3.5");
	check_same(&fx, ":bad + 1", "ERR:malformed variable \"bad\" value: \"abc\"");
	check_same(&fx, ":undefined + 1", "ERR:undefined variable \"undefined\"");

	/* trees without a program */
	check_no_program(&fx, "1.5 + 1");
	check_no_program(&fx, "random_gaussian(1, 10, 2.5)");
	check_no_program(&fx, "debug(1)");
	check_no_program(&fx, "abs(-1)");
	check_no_program(&fx, "1 < 2");
	check_no_program(&fx, "true");
	check_no_program(&fx, "NULL + 1");
	check_no_program(&fx, ":a + :b + :c + :d + :e + :f + :g + :h + :i");	/* 9 variables */
	/* registers: 17 constants and 16 results are one too many, 16 and 15 fit */
	check_no_program(&fx, "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1");
	check_same(&fx, "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1", "int 16");
	check_same(&fx, "1+(1+(1+(1+(1+(1+(1+(1+(1+1))))))))", "int 10");
	/* operations: 17 are one too many, 16 fit */
	check_no_program(&fx, ":aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid");
	check_same(&fx, ":aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid+:aid", "int 2098752");
	/* a leaf alone */
	check_same(&fx, "42", "int 42");
	check_same(&fx, ":aid", "int 123456");
	check_same(&fx, "(:aid - :scale) * (:scale + 2) % 1000 - random(:scale, :aid) / (:scale - 9)", NULL);

	var_store_free(&fx.vars);
	var_symtab_free(fx.symtab);
	return tap_done();
}
