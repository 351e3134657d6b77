/*
 * test_eval.c — unit tests of the expression evaluator: every operator and
 * built-in function, pgbench's typing and NULL rules, the lazy operators,
 * every error message, and debug()'s trace line.  Expected results were
 * taken from pgbench 15 running "\set r debug(<expression>)" with the same
 * variables defined by -D.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/eval.h"
#include "tap.h"

typedef struct eval_fixture
{
	var_symtab *symtab;
	var_store	vars;
	prng_state	rs;
	eval_context ctx;
} eval_fixture;

static void
set_string_var(eval_fixture *fx, const char *name, const char *value)
{
	int			slot = var_symtab_intern(fx->symtab, name, strlen(name));

	var_store_grow(&fx->vars);
	var_set_string(&fx->vars, slot, value, strlen(value));
}

/* The variables the oracle run defined with -D. */
static void
fixture_init(eval_fixture *fx)
{
	fx->symtab = var_symtab_create();
	var_store_init(&fx->vars, fx->symtab);
	prng_seed(&fx->rs, 12345);
	set_string_var(fx, "i", "5");
	set_string_var(fx, "d", "2.5");
	set_string_var(fx, "s", " 12");
	set_string_var(fx, "b", "yes");
	set_string_var(fx, "n", "null");
	set_string_var(fx, "bad", "abc");
	set_string_var(fx, "big", "99999999999999999999");
	set_string_var(fx, "minus", "-");
	set_string_var(fx, "default_seed", "2");
	set_string_var(fx, "empty", "");
	memset(&fx->ctx, 0, sizeof(fx->ctx));
	fx->ctx.vars = &fx->vars;
	fx->ctx.rs = &fx->rs;
	fx->ctx.script_index = 0;
	fx->ctx.command_number = 1;
	fx->ctx.debug_out = stderr;
}

static void
fixture_free(eval_fixture *fx)
{
	var_store_free(&fx->vars);
	var_symtab_free(fx->symtab);
}

/* Describe a result as debug() would ("int 3"), or "ERR:<message>". */
static void
describe(bool ok, const eval_context *ctx, const pgb_value *v, char *buf, size_t len)
{
	char		text[64];
	const char *kind = "";

	if (!ok)
	{
		snprintf(buf, len, "ERR:%s", ctx->error);
		return;
	}
	var_format_value(v, text, sizeof(text));
	switch (v->type)
	{
		case PGBT_NULL:
			snprintf(buf, len, "null");
			return;
		case PGBT_BOOLEAN:
			kind = "boolean";
			break;
		case PGBT_INT:
			kind = "int";
			break;
		case PGBT_DOUBLE:
			kind = "double";
			break;
		case PGBT_NO_VALUE:
			kind = "none";
			break;
	}
	snprintf(buf, len, "%s %s", kind, text);
}

/* Parse and evaluate text; the description lands in buf. */
static void
eval_text(eval_fixture *fx, const char *text, char *buf, size_t len)
{
	expr_error	err;
	expr_node  *tree = expr_parse(text, 0, fx->symtab, &err);
	pgb_value	v = {.type = PGBT_NO_VALUE};
	bool		ok;

	if (tree == NULL)
	{
		snprintf(buf, len, "PARSE ERROR: %s (%s) at %d", err.message, err.detail,
				 err.column);
		return;
	}
	var_store_grow(&fx->vars);
	fx->ctx.error[0] = '\0';
	ok = expr_evaluate(&fx->ctx, tree, &v);
	describe(ok, &fx->ctx, &v, buf, len);
	expr_free(tree);
}

static void
test_table(void)
{
	static const struct
	{
		const char *expr;
		const char *expect;
	}			cases[] = {
		{"1 + 2", "int 3"},
		{"7 - 10", "int -3"},
		{"6 * 7", "int 42"},
		{"7 / 2", "int 3"},
		{"-7 / 2", "int -3"},
		{"7 % 3", "int 1"},
		{"-7 % 3", "int -1"},
		{"7 % -3", "int 1"},
		{"1.5 + 1", "double 2.5"},
		{"1 + 1.5", "double 2.5"},
		{"2.5 - 1", "double 1.5"},
		{"2.5 * 4", "double 10"},
		{"1 / 2.0", "double 0.5"},
		{"1.0 / 0", "double Infinity"},
		{"-1.0 / 0", "double -Infinity"},
		{"0.0 / 0", "double NaN"},
		{"1 / 0", "ERR:division by zero"},
		{"1 % 0", "ERR:division by zero"},
		{"2.0 % 0", "ERR:division by zero"},
		{"5.5 % 2", "int 0"},
		{"5 % 2.4", "int 1"},
		{"9223372036854775807 + 1", "ERR:bigint add out of range"},
		{"-9223372036854775807 - 2", "ERR:bigint sub out of range"},
		{"4611686018427387904 * 2", "ERR:bigint mul out of range"},
		{"-(-9223372036854775807 - 1)", "ERR:bigint sub out of range"},
		{"(-9223372036854775807 - 1) / -1", "ERR:bigint div out of range"},
		{"(-9223372036854775807 - 1) % -1", "int 0"},
		{"-9223372036854775807 - 1", "int -9223372036854775808"},
		{"9223372036854775807 + 1.0", "double 9.22337203685478e+18"},
		{"1e300 * 1e300", "double Infinity"},
		{"-(5)", "int -5"},
		{"-(2.5)", "double -2.5"},
		{"0.1 + 0.2", "double 0.3"},
		{"1.0 / 3", "double 0.333333333333333"},
		{"1 = 1", "boolean true"},
		{"1 = 2", "boolean false"},
		{"1 <> 2", "boolean true"},
		{"1 != 1", "boolean false"},
		{"1 < 2", "boolean true"},
		{"2 < 1", "boolean false"},
		{"1 <= 1", "boolean true"},
		{"2 > 1", "boolean true"},
		{"1 >= 2", "boolean false"},
		{"1 < 1.5", "boolean true"},
		{"1.0 = 1", "boolean true"},
		{"9223372036854775807.0 = 9223372036854775807", "boolean true"},
		{"sqrt(-1) = sqrt(-1)", "boolean false"},
		{"sqrt(-1) <> sqrt(-1)", "boolean true"},
		{"true = true", "ERR:cannot coerce boolean to int"},
		{"1 = true", "ERR:cannot coerce boolean to int"},
		{"5 & 3", "int 1"},
		{"5 | 3", "int 7"},
		{"5 # 3", "int 6"},
		{"~0", "int -1"},
		{"~5", "int -6"},
		{"1 << 3", "int 8"},
		{"1 << 63", "int -9223372036854775808"},
		{"1 << 64", "int 1"},
		{"1 << -1", "int -9223372036854775808"},
		{"-8 >> 1", "int -4"},
		{"-1 >> 63", "int -1"},
		{"5.4 & 3", "int 1"},
		{"2.5 << 1", "int 4"},
		{"1 | 2.2", "int 3"},
		{"true & 1", "ERR:cannot coerce boolean to int"},
		{"not true", "boolean false"},
		{"not false", "boolean true"},
		{"not 1", "ERR:cannot coerce int to boolean"},
		{"not null", "null"},
		{"true and true", "boolean true"},
		{"true and false", "boolean false"},
		{"false and true", "boolean false"},
		{"false and false", "boolean false"},
		{"true and null", "null"},
		{"false and null", "boolean false"},
		{"null and true", "null"},
		{"null and false", "null"},
		{"null and null", "null"},
		{"true or true", "boolean true"},
		{"true or false", "boolean true"},
		{"false or true", "boolean true"},
		{"false or false", "boolean false"},
		{"true or null", "boolean true"},
		{"false or null", "null"},
		{"null or true", "null"},
		{"null or false", "null"},
		{"null or null", "null"},
		{"1 and true", "ERR:cannot coerce int to boolean"},
		{"true and 1", "ERR:cannot coerce int to boolean"},
		{"false and 1", "boolean false"},
		{"true or 1", "boolean true"},
		{"false or 1.5", "ERR:cannot coerce double to boolean"},
		{"false and 1 / 0 = 1", "boolean false"},
		{"true or 1 / 0 = 1", "boolean true"},
		{"null + 1", "null"},
		{"1 * null", "null"},
		{"null = null", "null"},
		{"null < 1", "null"},
		{"null & 1", "null"},
		{"null is null", "boolean true"},
		{"1 is null", "boolean false"},
		{"true is true", "boolean true"},
		{"false is true", "boolean false"},
		{"1 is true", "boolean false"},
		{"null is true", "boolean false"},
		{"null is not null", "boolean false"},
		{"1 is not null", "boolean true"},
		{"true is not false", "boolean true"},
		{"null isnull", "boolean true"},
		{"5 notnull", "boolean true"},
		{"null notnull", "boolean false"},
		{"case when true then 1 else 2 end", "int 1"},
		{"case when false then 1 else 2 end", "int 2"},
		{"case when false then 1 end", "null"},
		{"case when null then 1 else 2 end", "int 2"},
		{"case when 0 then 1 when 2.5 then 3 end", "int 3"},
		{"case when 0.0 then 1 else 4 end", "int 4"},
		{"case when 1 then 2 else 1 / 0 end", "int 2"},
		{"case when 0 then 1 / 0 else 7 end", "int 7"},
		{"case when false then 1 when true then 2.5 else 3 end", "double 2.5"},
		{"abs(-5)", "int 5"},
		{"abs(5)", "int 5"},
		{"abs(-2.5)", "double 2.5"},
		{"abs(-9223372036854775807 - 1)", "int -9223372036854775808"},
		{"abs(true)", "double 4.94065645841247e-324"},
		{"abs(false)", "double 0"},
		{"abs(null)", "null"},
		{"int(2.5)", "int 2"},
		{"int(3.5)", "int 4"},
		{"int(-2.7)", "int -3"},
		{"int(-0.4)", "int 0"},
		{"int(7)", "int 7"},
		{"int(1e30)", "ERR:double to int overflow for 1000000000000000019884624838656.000000"},
		{"int(sqrt(-1))", "ERR:double to int overflow for NaN"},
		{"int(1e300 * 1e300)", "ERR:double to int overflow for Infinity"},
		{"int(-1e300 * 1e300)", "ERR:double to int overflow for -Infinity"},
		{"int(9223372036854775807.0)", "ERR:double to int overflow for 9223372036854775808.000000"},
		{"int(-9223372036854775808.0)", "int -9223372036854775808"},
		{"int(true)", "ERR:cannot coerce boolean to int"},
		{"int(null)", "null"},
		{"double(5)", "double 5"},
		{"double(2.5)", "double 2.5"},
		{"double(true)", "ERR:cannot coerce boolean to double"},
		{"double(null)", "null"},
		{"greatest(1, 2, 3)", "int 3"},
		{"greatest(1, 2.5, 3)", "double 3"},
		{"greatest(3)", "int 3"},
		{"greatest(1, null, 3)", "null"},
		{"greatest(true, 1)", "ERR:cannot coerce boolean to int"},
		{"greatest(1.5, true)", "ERR:cannot coerce boolean to double"},
		{"greatest(sqrt(-1), 1)", "double 1"},
		{"greatest(1, sqrt(-1))", "double NaN"},
		{"least(3, 1, 2)", "int 1"},
		{"least(3, 1.5, 2)", "double 1.5"},
		{"least(-1)", "int -1"},
		{"least(sqrt(-1), 1)", "double 1"},
		{"least(1, sqrt(-1))", "double NaN"},
		{"greatest(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)", "int 16"},
		{"greatest(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)", "ERR:too many function arguments, maximum is 16"},
		{"pi()", "double 3.14159265358979"},
		{"sqrt(2)", "double 1.4142135623731"},
		{"sqrt(4)", "double 2"},
		{"sqrt(-1)", "double NaN"},
		{"sqrt(true)", "ERR:cannot coerce boolean to double"},
		{"ln(1)", "double 0"},
		{"ln(0)", "double -Infinity"},
		{"ln(-1)", "double NaN"},
		{"exp(0)", "double 1"},
		{"exp(1)", "double 2.71828182845905"},
		{"exp(1000)", "double Infinity"},
		{"pow(2, 10)", "double 1024"},
		{"power(2, 0.5)", "double 1.4142135623731"},
		{"pow(-8, 1.0 / 3)", "double NaN"},
		{"pow(0, 0)", "double 1"},
		{"pow(2, -1)", "double 0.5"},
		{"pow(true, 1)", "ERR:cannot coerce boolean to double"},
		{"mod(7, 3)", "int 1"},
		{"mod(-7, 3)", "int -1"},
		{"mod(7.5, 3)", "int 2"},
		{"mod(7, 0)", "ERR:division by zero"},
		{"mod(-9223372036854775807 - 1, -1)", "int 0"},
		{"hash_fnv1a(1, 2)", "int -4052466453699787802"},
		{"hash_fnv1a(0, 0)", "int -6284781860667377211"},
		{"hash_murmur2(1, 2)", "int -3827666828038376880"},
		{"hash_murmur2(1.6, 2)", "int 8628357597987678224"},
		{"hash_murmur2(-5, 123456789)", "int 5400213604051585399"},
		{"hash(1) = hash_murmur2(1, :default_seed)", "boolean true"},
		{"hash_fnv1a(true, 1)", "ERR:cannot coerce boolean to int"},
		{"permute(3, 10, 5)", "int 9"},
		{"permute(0, 1, 0)", "int 0"},
		{"permute(12, 10, 5)", "int 8"},
		{"permute(-1, 10, 5)", "int 1"},
		{"permute(1, 0, 5)", "ERR:permute size parameter must be greater than zero"},
		{"permute(1, -1, 5)", "ERR:permute size parameter must be greater than zero"},
		{"permute(1, 10)", "int 1"},
		{"random(5, 5)", "int 5"},
		{"random(1.6, 2.4)", "int 2"},
		{"random(5, 1)", "ERR:empty range given to random"},
		{"random(-9223372036854775807 - 1, 9223372036854775807)", "ERR:random range is too large"},
		{"random(0, 9223372036854775807)", "ERR:random range is too large"},
		{"random(null, 1)", "null"},
		{"random(true, 2)", "ERR:cannot coerce boolean to int"},
		{"random_gaussian(3, 3, 2.5)", "int 3"},
		{"random_gaussian(1, 10, 1)", "ERR:gaussian parameter must be at least 2.000000 (not 1.000000)"},
		{"random_gaussian(1, 10, 1.999)", "ERR:gaussian parameter must be at least 2.000000 (not 1.999000)"},
		{"random_gaussian(1, 10, -1e300 * 1e300)", "ERR:gaussian parameter must be at least 2.000000 (not -Infinity)"},
		{"random_gaussian(1, 10, true)", "ERR:cannot coerce boolean to double"},
		{"random_gaussian(10, 1, 2.5)", "ERR:empty range given to random"},
		{"random_exponential(4, 4, 1)", "int 4"},
		{"random_exponential(1, 10, 0)", "ERR:exponential parameter must be greater than zero (not 0.000000)"},
		{"random_exponential(1, 10, -0.5)", "ERR:exponential parameter must be greater than zero (not -0.500000)"},
		{"random_zipfian(7, 7, 1.5)", "int 7"},
		{"random_zipfian(1, 10, 1)", "ERR:zipfian parameter must be in range [1.001, 1000] (not 1.000000)"},
		{"random_zipfian(1, 10, 1.0005)", "ERR:zipfian parameter must be in range [1.001, 1000] (not 1.000500)"},
		{"random_zipfian(1, 10, 2000)", "ERR:zipfian parameter must be in range [1.001, 1000] (not 2000.000000)"},
		{"random_zipfian(1, 10, 1000.5)", "ERR:zipfian parameter must be in range [1.001, 1000] (not 1000.500000)"},
		{":i + 1", "int 6"},
		{":d * 2", "double 5"},
		{":s + 0", "int 12"},
		{":b and true", "boolean true"},
		{":n is null", "boolean true"},
		{":bad + 1", "ERR:malformed variable \"bad\" value: \"abc\""},
		{":big + 1", "ERR:value \"99999999999999999999\" is out of range for type bigint"},
		{":minus + 1", "ERR:invalid input syntax for type bigint: \"-\""},
		{":nope + 1", "ERR:undefined variable \"nope\""},
		{":i + :d", "double 7.5"},
		{"-:i", "int -5"},
		{"1e15", "double 1e+15"},
		{"123456789012345.6", "double 123456789012346"},
		{"1e-5", "double 1e-05"},
	};
	eval_fixture fx;

	fixture_init(&fx);
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		char		got[512];

		eval_text(&fx, cases[i].expr, got, sizeof(got));
		tap_is_str(got, cases[i].expect, cases[i].expr);
	}
	fixture_free(&fx);
}

/* Evaluate with debug() output captured; returns what debug() wrote. */
static void
eval_capturing(eval_fixture *fx, const char *text, char *result, size_t rlen,
			   char *trace, size_t tlen)
{
	char	   *mem = NULL;
	size_t		memlen = 0;
	FILE	   *f = open_memstream(&mem, &memlen);

	fx->ctx.debug_out = f;
	eval_text(fx, text, result, rlen);
	fclose(f);
	snprintf(trace, tlen, "%s", mem ? mem : "");
	free(mem);
	fx->ctx.debug_out = stderr;
}

static void
test_debug(void)
{
	static const struct
	{
		const char *expr;
		const char *result;
		const char *trace;
	}			cases[] = {
		{"debug(1)", "int 1", "debug(script=3,command=7): int 1\n"},
		{"debug(2.5)", "double 2.5", "debug(script=3,command=7): double 2.5\n"},
		{"debug(1.0/3)", "double 0.333333333333333",
		"debug(script=3,command=7): double 0.333333333333333\n"},
		{"debug(sqrt(-1))", "double NaN", "debug(script=3,command=7): double NaN\n"},
		{"debug(-1.0/0)", "double -Infinity",
		"debug(script=3,command=7): double -Infinity\n"},
		{"debug(0.0 * -1)", "double -0", "debug(script=3,command=7): double -0\n"},
		{"debug(true)", "boolean true", "debug(script=3,command=7): boolean true\n"},
		{"debug(1 > 2)", "boolean false", "debug(script=3,command=7): boolean false\n"},
		{"debug(null)", "null", "debug(script=3,command=7): null\n"},
		{"debug(null) is null", "boolean true", "debug(script=3,command=7): null\n"},
		{"null + debug(1)", "null", "debug(script=3,command=7): int 1\n"},
		{"debug(debug(2) = 2)", "boolean true",
		"debug(script=3,command=7): int 2\ndebug(script=3,command=7): boolean true\n"},
		{"debug(1) + debug(1/0)", "ERR:division by zero",
		"debug(script=3,command=7): int 1\n"},
		{"false and debug(true)", "boolean false", ""},
		{"case when true then debug(1) else debug(2) end", "int 1",
		"debug(script=3,command=7): int 1\n"},
	};
	eval_fixture fx;

	fixture_init(&fx);
	fx.ctx.script_index = 3;
	fx.ctx.command_number = 7;
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		char		result[512];
		char		trace[512];

		eval_capturing(&fx, cases[i].expr, result, sizeof(result), trace, sizeof(trace));
		tap_is_str(result, cases[i].result, cases[i].expr);
		tap_is_str(trace, cases[i].trace, "trace of the same");
	}
	fixture_free(&fx);
}

/*
 * An empty string is refused without a message: pgbench prints only the
 * client's abort line.
 */
static void
test_empty_variable(void)
{
	eval_fixture fx;
	char		got[512];

	fixture_init(&fx);
	eval_text(&fx, ":empty + 1", got, sizeof(got));
	tap_is_str(got, "ERR:", "empty string variable fails silently");
	fixture_free(&fx);
}

/* Values drawn must stay in range and cover it; exact draws are random.c's. */
static void
test_random_ranges(void)
{
	static const char *const exprs[] = {
		"random(1, 10)",
		"random_exponential(1, 10, 2.5)",
		"random_gaussian(1, 10, 2.5)",
		"random_zipfian(1, 10, 1.5)",
		"random(-3, 6)",
	};
	eval_fixture fx;

	fixture_init(&fx);
	for (size_t e = 0; e < PGB_LENGTHOF(exprs); e++)
	{
		expr_error	err;
		expr_node  *tree = expr_parse(exprs[e], 0, fx.symtab, &err);
		bool		in_range = tree != NULL;
		bool		seen[10] = {false};
		int			distinct = 0;
		int64_t		lo = (e == 4) ? -3 : 1;

		for (int k = 0; in_range && k < 2000; k++)
		{
			pgb_value	v;

			if (!expr_evaluate(&fx.ctx, tree, &v) || v.type != PGBT_INT ||
				v.u.ival < lo || v.u.ival > lo + 9)
				in_range = false;
			else if (!seen[v.u.ival - lo])
			{
				seen[v.u.ival - lo] = true;
				distinct++;
			}
		}
		tap_ok(in_range, "%s stays in range", exprs[e]);
		tap_ok(distinct >= 5, "%s draws varied values (%d distinct)", exprs[e], distinct);
		expr_free(tree);
	}
	fixture_free(&fx);
}

/* The coercion entry points on their own. */
static void
test_coercions(void)
{
	eval_context ctx;
	pgb_value	v;
	int64_t		i;
	double		d;
	bool		b;

	memset(&ctx, 0, sizeof(ctx));
	v = pgb_value_double(-2.5);
	tap_ok(value_to_int(&ctx, &v, &i) && i == -2, "double -2.5 rounds half to even");
	v = pgb_value_int(-3);
	tap_ok(value_to_double(&ctx, &v, &d) && d == -3.0, "int to double");
	v = pgb_value_bool(true);
	tap_ok(value_to_bool(&ctx, &v, &b) && b, "boolean to boolean");
	v = pgb_value_null();
	tap_ok(!value_to_bool(&ctx, &v, &b), "null to boolean fails");
	tap_is_str(ctx.error, "cannot coerce null to boolean", "its message");
	tap_ok(!value_to_int(&ctx, &v, &i), "null to int fails");
	tap_is_str(ctx.error, "cannot coerce null to int", "its message");
	tap_ok(!value_to_double(&ctx, &v, &d), "null to double fails");
	tap_is_str(ctx.error, "cannot coerce null to double", "its message");
	v = pgb_value_double(2.5);
	tap_ok(!value_to_bool(&ctx, &v, &b), "double to boolean fails");
	tap_is_str(ctx.error, "cannot coerce double to boolean", "its message");
}

/* text: n times unit, then middle, then n times suffix.  Caller frees. */
static char *
repeat_text(const char *unit, int n, const char *middle, const char *suffix)
{
	size_t		len = (strlen(unit) + strlen(suffix)) * (size_t) n + strlen(middle) + 1;
	char	   *s = malloc(len);
	char	   *p = s;

	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", unit);
	p += sprintf(p, "%s", middle);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", suffix);
	return s;
}

/*
 * Trees far deeper than any stack could recurse through: the evaluator
 * walks them with a loop (pgbench 15 crashes on the 100,000-term ones).
 */
static void
test_deep(void)
{
	static const struct
	{
		const char *unit;
		int			n;
		const char *middle;
		const char *suffix;
		const char *expected;
	}			rows[] = {
		{"1+", 100000, "1", "", "int 100001"},
		{":i+", 100000, ":i", "", "int 500005"},
		{"1-", 100000, "1", "", "int -99999"},
		{"true and ", 100000, "true", "", "boolean true"},
		{"false or ", 100000, "null", "", "null"},
		{"-", 9990, "7", "", "int 7"},
		{"1+(", 3000, "1", ")", "int 3001"},
		{"abs(", 3000, "-2", ")", "int 2"},
		{"case when false then 0 else ", 3000, "5", " end", "int 5"},
		{"greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", 666, "2", ")", "int 2"},
		/* the 17th argument is never evaluated: no division by zero */
		{"greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", 1, "1/0", ")",
		"ERR:too many function arguments, maximum is 16"},
		{"9223372036854775807+", 10000, "0", "+1", "ERR:bigint add out of range"},
	};
	eval_fixture fx;

	fixture_init(&fx);
	for (size_t i = 0; i < PGB_LENGTHOF(rows); i++)
	{
		char	   *text = repeat_text(rows[i].unit, rows[i].n, rows[i].middle, rows[i].suffix);
		char		buf[256];

		eval_text(&fx, text, buf, sizeof(buf));
		tap_is_str(buf, rows[i].expected, rows[i].unit);
		free(text);
	}
	fixture_free(&fx);
}

/* A subtree evaluates on its own: the walk stops at the node it was given. */
static void
test_subtree(void)
{
	eval_fixture fx;
	expr_error	err;
	expr_node  *tree;
	pgb_value	v;

	fixture_init(&fx);
	tree = expr_parse("(1 + 2) * (case when :i = 5 then 10 else 20 end)", 0, fx.symtab, &err);
	var_store_grow(&fx.vars);
	tap_ok(expr_evaluate(&fx.ctx, tree->u.function.args[1], &v) && v.u.ival == 10,
		   "the CASE argument alone");
	tap_ok(expr_evaluate(&fx.ctx, tree->u.function.args[0], &v) && v.u.ival == 3,
		   "the sum argument alone");
	tap_ok(expr_evaluate(&fx.ctx, tree, &v) && v.u.ival == 30, "the whole tree");
	expr_free(tree);
	fixture_free(&fx);
}

int
main(void)
{
	test_table();
	test_deep();
	test_subtree();
	test_debug();
	test_empty_variable();
	test_random_ranges();
	test_coercions();
	return tap_done();
}
