/*
 * fuzz_script.c — libFuzzer target for the script compiler and the
 * expression evaluator.  The input is a pgbench script, compiled exactly
 * as a -f file is (script_compile, then the extended-mode parameter check
 * and, on failure, the error report).  Every \set, \if and \elif
 * expression of a compiled script is then evaluated in command order
 * against one fresh variable store holding pgbench's automatic variables,
 * each \set storing its result as a client would, so that later
 * expressions meet typed values.  Evaluation errors are ordinary results
 * here; only a sanitizer report or a crash is a finding.  An expression
 * with a flat program (expr.h) is evaluated both ways from the same
 * random state: a different value, message or random state afterwards
 * aborts (a finding too).  No server is involved: SQL commands are
 * compiled but never sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pgbench/script/eval.h"
#include "pgbench/script/script.h"

/* pgbench's automatic variables, with the values a client would see. */
static const char *const automatic[][2] = {
	{"scale", "1"},
	{"client_id", "0"},
	{"default_seed", "12345"},
	{"random_seed", "12345"},
};

/* Describe an evaluation's outcome for the comparison. */
static void
outcome_text(bool ok, const eval_context *ctx, const pgb_value *v, char *buf, size_t len)
{
	char		text[64];

	if (!ok)
	{
		snprintf(buf, len, "ERR:%s", ctx->error);
		return;
	}
	var_format_value(v, text, sizeof(text));
	snprintf(buf, len, "%d:%s", (int) v->type, text);
}

/*
 * Evaluate expr as the program does, then as the tree does from the same
 * random state; abort when they disagree.  The program's outcome stays.
 */
static bool
evaluate_both(eval_context *ctx, expr_node *expr, pgb_value *v)
{
	prng_state	before = *ctx->rs,
				after;
	expr_prog  *prog = expr->prog;
	pgb_value	tree_v;
	char		a[400],
				b[400];
	bool		ok,
				tree_ok;

	ok = expr_evaluate(ctx, expr, v);
	if (prog == NULL)
		return ok;
	outcome_text(ok, ctx, v, a, sizeof(a));
	after = *ctx->rs;
	*ctx->rs = before;
	ctx->error[0] = '\0';
	expr->prog = NULL;
	tree_ok = expr_evaluate(ctx, expr, &tree_v);
	expr->prog = prog;
	outcome_text(tree_ok, ctx, &tree_v, b, sizeof(b));
	if (strcmp(a, b) != 0 || memcmp(&after, ctx->rs, sizeof(after)) != 0)
	{
		fprintf(stderr, "fuzz_script: the program gave \"%s\", the tree \"%s\"\n", a, b);
		abort();
	}
	return ok;
}

/*
 * Evaluate the expressions of one script with fresh variables; a failed
 * \set leaves its variable as it was (a client would abort instead).
 */
static void
evaluate_script(const script_set *set, int index)
{
	const script *s = &set->scripts[index];
	var_store	vars;
	prng_state	rs;
	eval_context ctx;

	for (size_t i = 0; i < sizeof(automatic) / sizeof(automatic[0]); i++)
		var_symtab_intern(set->symtab, automatic[i][0], strlen(automatic[i][0]));
	var_store_init(&vars, set->symtab);
	for (size_t i = 0; i < sizeof(automatic) / sizeof(automatic[0]); i++)
		var_set_string(&vars,
					   var_symtab_find(set->symtab, automatic[i][0], strlen(automatic[i][0])),
					   automatic[i][1], strlen(automatic[i][1]));
	prng_seed(&rs, 12345);
	memset(&ctx, 0, sizeof(ctx));
	ctx.vars = &vars;
	ctx.rs = &rs;
	ctx.script_index = index;
	ctx.debug_out = stderr;

	for (int i = 0; i < s->ncommands; i++)
	{
		const command *cmd = s->commands[i];
		pgb_value	v;

		if (cmd->expr == NULL)
			continue;
		ctx.command_number = i + 1;
		ctx.error[0] = '\0';
		if (!evaluate_both(&ctx, cmd->expr, &v))
			continue;
		if (cmd->meta == META_SET)
		{
			var_set_value(&vars, cmd->var_slot, v);
			(void) var_get_string(&vars, cmd->var_slot);
		}
		else
			(void) value_truth(&v);
	}
	var_store_free(&vars);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *text = malloc(size + 1);
	script_set *set = script_set_create();
	script_error err;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&err, 0, sizeof(err));
	if (script_compile(set, "fuzz.sql", text, 1, &err))
	{
		/* the check -M extended / prepared make; a failure is reported */
		if (!script_set_check_params(set, &err))
		{
			script_error_report(&err);
			script_error_clear(&err);
		}
		evaluate_script(set, 0);
	}
	else
	{
		script_error_report(&err);
		script_error_clear(&err);
	}
	script_set_free(set);
	free(text);
	return 0;
}
