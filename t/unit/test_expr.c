/*
 * test_expr.c — unit tests of the expression parser: trees for literals,
 * every operator's precedence and associativity, functions and CASE, in a
 * compact prefix form; and parse errors with the exact message, detail
 * and caret column pgbench 15 shows for the same command line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/expr.h"
#include "pgbench/script/variables.h"
#include "tap.h"

/* ---- a prefix printer: (+ 1 (* 2 3)), doubles as 1.5d, :name ---- */

typedef struct text_buf
{
	char		data[1024];
	size_t		len;
} text_buf;

static void
buf_add(text_buf *buf, const char *text)
{
	size_t		n = strlen(text);

	if (buf->len + n >= sizeof(buf->data))
		n = sizeof(buf->data) - buf->len - 1;
	memcpy(buf->data + buf->len, text, n);
	buf->len += n;
	buf->data[buf->len] = '\0';
}

static void
print_constant(text_buf *buf, const pgb_value *v)
{
	char		text[64];

	switch (v->type)
	{
		case PGBT_INT:
			snprintf(text, sizeof(text), "%" PRId64, v->u.ival);
			break;
		case PGBT_DOUBLE:
			snprintf(text, sizeof(text), "%gd", v->u.dval);
			break;
		case PGBT_BOOLEAN:
			snprintf(text, sizeof(text), "%s", v->u.bval ? "true" : "false");
			break;
		case PGBT_NULL:
			snprintf(text, sizeof(text), "null");
			break;
		default:
			snprintf(text, sizeof(text), "?");
			break;
	}
	buf_add(buf, text);
}

static void
print_tree(text_buf *buf, const expr_node *node)
{
	switch (node->kind)
	{
		case EXPR_CONSTANT:
			print_constant(buf, &node->u.constant);
			break;
		case EXPR_VARIABLE:
			buf_add(buf, ":");
			buf_add(buf, node->u.variable.name);
			break;
		case EXPR_FUNCTION:
			buf_add(buf, "(");
			buf_add(buf, expr_func_name(node->u.function.func));
			for (int i = 0; i < node->u.function.nargs; i++)
			{
				buf_add(buf, " ");
				print_tree(buf, node->u.function.args[i]);
			}
			buf_add(buf, ")");
			break;
	}
}

/*
 * A test name on one line: newlines and tabs shown as \n, \r, \t, and
 * '#' escaped, which TAP would otherwise read as a directive.
 */
static void
display_name(char *out, size_t outlen, const char *prefix, const char *text)
{
	size_t		len = (size_t) snprintf(out, outlen, "%s", prefix);

	for (const char *p = text; *p && len + 3 < outlen; p++)
	{
		const char *escape = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" :
			*p == '\t' ? "\\t" : *p == '#' ? "\\#" : NULL;

		if (escape)
		{
			memcpy(out + len, escape, 2);
			len += 2;
		}
		else
			out[len++] = *p;
	}
	out[len] = '\0';
}

/* ---- trees ---- */

typedef struct tree_case
{
	const char *expr;			/* parsed as "\set x <expr>" */
	const char *tree;
} tree_case;

static const tree_case tree_cases[] = {
	/* literals */
	{"1", "1"},
	{"0", "0"},
	{"9223372036854775807", "9223372036854775807"},
	{"-9223372036854775808", "-9223372036854775808"},
	{"- 9223372036854775808", "-9223372036854775808"},
	{"-1", "(- 0 1)"},
	{"1.5", "1.5d"},
	{".5", "0.5d"},
	{"1.", "1d"},
	{"1e3", "1000d"},
	{"1.e-3", "0.001d"},
	{"1.5E+2", "150d"},
	{"9223372036854775808.0", "9.22337e+18d"},
	{"true", "true"},
	{"TRUE", "true"},
	{"False", "false"},
	{"null", "null"},
	{"NuLl", "null"},
	{":x", ":x"},
	{":a_b9", ":a_b9"},
	{":1abc", ":1abc"},
	{":\xc3\xa9t\xc3\xa9", ":\xc3\xa9t\xc3\xa9"},
	{"((1))", "1"},
	/* arithmetic: * / % over + -, both left-associative */
	{"1 + 2 * 3", "(+ 1 (* 2 3))"},
	{"1 * 2 + 3", "(+ (* 1 2) 3)"},
	{"7 - 3 - 2", "(- (- 7 3) 2)"},
	{"8 / 4 / 2", "(/ (/ 8 4) 2)"},
	{"5 % 3 * 2", "(* (% 5 3) 2)"},
	{"2 * (3 + 4)", "(* 2 (+ 3 4))"},
	/* bitwise and shifts share one level, below + - */
	{"1 | 2 << 3", "(<< (| 1 2) 3)"},
	{"1 << 2 >> 3", "(>> (<< 1 2) 3)"},
	{"1 & 2 # 3 | 4", "(| (# (& 1 2) 3) 4)"},
	{"1 + 2 & 3", "(& (+ 1 2) 3)"},
	{"1 & 2 + 3", "(& 1 (+ 2 3))"},
	/* comparisons below bitwise; > and >= swap operands */
	{"1 < 2 | 3", "(< 1 (| 2 3))"},
	{"1 = 2 + 3", "(= 1 (+ 2 3))"},
	{"1 > 2", "(< 2 1)"},
	{"1 >= 2", "(<= 2 1)"},
	{"1 <= 2", "(<= 1 2)"},
	{"1 < 2", "(< 1 2)"},
	{"1 <> 2", "(<> 1 2)"},
	{"1 != 2", "(<> 1 2)"},
	/* logic: OR < AND < NOT < IS < comparisons */
	{":a and :b or :c", "(or (and :a :b) :c)"},
	{":a or :b and :c", "(or :a (and :b :c))"},
	{":a AND :b AND :c", "(and (and :a :b) :c)"},
	{"not :a and :b", "(and (not :a) :b)"},
	{"not :a = :b", "(not (= :a :b))"},
	{"not not true", "(not (not true))"},
	{"not :a is null", "(not (is :a null))"},
	{":a = 1 is true", "(is (= :a 1) true)"},
	{"1 + 2 is null", "(is (+ 1 2) null)"},
	{":a is null and :b", "(and (is :a null) :b)"},
	{":a is null", "(is :a null)"},
	{":a IS NOT NULL", "(not (is :a null))"},
	{":a isnull", "(is :a null)"},
	{":a NotNull", "(not (is :a null))"},
	{":a is true", "(is :a true)"},
	{":a is not false", "(not (is :a false))"},
	{"1 isnull isnull", "(is (is 1 null) null)"},
	/* unary + and - bind tightest; ~ only as tight as | & # << >> */
	{"-:a * 2", "(* (- 0 :a) 2)"},
	{"- - 3", "(- 0 (- 0 3))"},
	{"+ - 3", "(- 0 3)"},
	{"~5 + 1", "(# -1 (+ 5 1))"},
	{"~5 * 3", "(# -1 (* 5 3))"},
	{"~5 | 3", "(| (# -1 5) 3)"},
	{"1 | ~5 << 1", "(<< (| 1 (# -1 5)) 1)"},
	{"-(1 + 2)", "(- 0 (+ 1 2))"},
	/* functions */
	{"abs(-1)", "(abs (- 0 1))"},
	{"pi()", "(pi)"},
	{"RANDOM(1, 10)", "(random 1 10)"},
	{"random_gaussian(1, 10, 2.5)", "(random_gaussian 1 10 2.5d)"},
	{"random_exponential(1, 10, 2)", "(random_exponential 1 10 2)"},
	{"random_zipfian(1, 100, 1.5)", "(random_zipfian 1 100 1.5d)"},
	{"hash(1)", "(hash_murmur2 1 :default_seed)"},
	{"hash(1, 2)", "(hash_murmur2 1 2)"},
	{"hash_murmur2(:k)", "(hash_murmur2 :k :default_seed)"},
	{"hash_fnv1a(1)", "(hash_fnv1a 1 :default_seed)"},
	{"permute(1, 10)", "(permute 1 10 :default_seed)"},
	{"permute(1, 10, 5)", "(permute 1 10 5)"},
	{"least(1, 2, 3)", "(least 1 2 3)"},
	{"greatest(1)", "(greatest 1)"},
	{"mod(5, 3)", "(% 5 3)"},
	{"pow(2, 3) + power(2, 0.5)", "(+ (pow 2 3) (pow 2 0.5d))"},
	{"sqrt(2) * ln(3) + exp(1)", "(+ (* (sqrt 2) (ln 3)) (exp 1))"},
	{"int(1.5) + double(2)", "(+ (int 1.5d) (double 2))"},
	{"debug(1 + 2)", "(debug (+ 1 2))"},
	{"abs(,-1)", "(abs (- 0 1))"},
	/* CASE: conditions and results alternate, then ELSE or NULL */
	{"case when :a then 1 end", "(case :a 1 null)"},
	{"case when :a then 1 else 2 end", "(case :a 1 2)"},
	{"CASE WHEN 1 THEN 2 WHEN 3 THEN 4 ELSE 5 END", "(case 1 2 3 4 5)"},
	{"case when true then case when false then 1 end end",
	"(case true (case false 1 null) null)"},
	{"1 + case when true then 2 end * 3", "(+ 1 (* (case true 2 null) 3))"},
	/* blanks, continuations, the end of the line */
	{"1\t+\t2", "(+ 1 2)"},
	{"1 + \\\n 2", "(+ 1 2)"},
	{"1 + \\\r\n 2", "(+ 1 2)"},
	{"1 + 2\n@ not scanned", "(+ 1 2)"},
	{"1 + 2\r\n", "(+ 1 2)"},
};

static void
test_trees(var_symtab *symtab)
{
	for (size_t i = 0; i < PGB_LENGTHOF(tree_cases); i++)
	{
		const tree_case *tc = &tree_cases[i];
		char		line[256];
		expr_error	err;
		expr_node  *node;
		text_buf	buf = {.len = 0};
		char		name[128];

		display_name(name, sizeof(name), "", tc->expr);
		snprintf(line, sizeof(line), "\\set x %s", tc->expr);
		node = expr_parse(line, 7, symtab, &err);
		if (node == NULL)
		{
			tap_ok(false, "parse %s", name);
			tap_diag("error: %s (%s) at %d", err.message, err.detail, err.column);
			continue;
		}
		print_tree(&buf, node);
		tap_is_str(buf.data, tc->tree, name);
		expr_free(node);
	}
}

/* ---- errors, as pgbench 15 reports them ---- */

typedef struct error_case
{
	const char *line;			/* the whole command line, as in the file */
	size_t		start;			/* where the expression starts */
	const char *message;
	const char *detail;
	int			column;
} error_case;

#define SET 7					/* strlen("\\set x ") */

static const error_case error_cases[] = {
	{"\\set x 1 +\n", SET, "syntax error", "", 10},
	{"\\set x (1\n", SET, "syntax error", "", 9},
	{"\\set x 1 2\n", SET, "syntax error", "", 9},
	{"\\set x (1))\n", SET, "syntax error", "", 10},
	{"\\set x )\n", SET, "syntax error", "", 7},
	{"\\set x 1,2\n", SET, "syntax error", "", 8},
	{"\\set x\n", 6, "syntax error", "", 6},
	{"\\set x   \n", 6, "syntax error", "", 9},
	{"\\set x not\n", SET, "syntax error", "", 10},
	{"\\set x 1 foo\n", SET, "syntax error", "", 11},
	{"\\set x random(1,)\n", SET, "syntax error", "", 16},
	{"\\set x case end\n", SET, "syntax error", "", 14},
	{"\\set x case when 1 then 2\n", SET, "syntax error", "", 25},
	{"\\set x case when true end end\n", SET, "syntax error", "", 24},
	{"\\set x 1 is 2\n", SET, "syntax error", "", 12},
	{"\\set x 1 is not\n", SET, "syntax error", "", 15},
	{"\\set x 1 < 2 < 3\n", SET, "syntax error", "", 13},
	{"\\set x 1 = 2 = 3\n", SET, "syntax error", "", 13},
	{"\\set x 1.5.5\n", SET, "syntax error", "", 11},
	{"\\set x 1..2\n", SET, "syntax error", "", 10},
	{"\\set x 1e\n", SET, "syntax error", "", 8},
	{"\\set x 9223372036854775808\n", SET, "syntax error", "", 25},
	{"\\set x -(9223372036854775808)\n", SET, "syntax error", "", 27},
	{"\\set x 2 - 9223372036854775808\n", SET, "syntax error", "", 29},
	{"\\set x foo(1)\n", SET, "unexpected function name", "foo", 9},
	{"\\set x FOO(1)\n", SET, "unexpected function name", "FOO", 9},
	{"\\set x foo\n", SET, "unexpected function name", "foo", 9},
	{"\\set x 1 + \xc3\xa9\n", SET, "unexpected function name", "\xc3\xa9", 12},
	{"\\set x random(1)\n", SET, "unexpected number of arguments", "random", 15},
	{"\\set x RANDOM(1)\n", SET, "unexpected number of arguments", "random", 15},
	{"\\set x hash()\n", SET, "unexpected number of arguments", "hash", 12},
	{"\\set x hash(1,2,3)\n", SET, "unexpected number of arguments", "hash", 17},
	{"\\set x permute(1)\n", SET, "unexpected number of arguments", "permute", 16},
	{"\\set x permute(1,2,3,4)\n", SET, "unexpected number of arguments", "permute", 22},
	{"\\set x pi(1)\n", SET, "unexpected number of arguments", "pi", 11},
	{"\\set x abs(1,2)\n", SET, "unexpected number of arguments", "abs", 14},
	{"\\set x sqrt()\n", SET, "unexpected number of arguments", "sqrt", 12},
	{"\\set x debug()\n", SET, "unexpected number of arguments", "debug", 13},
	{"\\set x least()\n", SET, "at least one argument expected", "least", 13},
	{"\\set x greatest()\n", SET, "at least one argument expected", "greatest", 16},
	{"\\set x 99999999999999999999\n", SET, "bigint constant overflow", "99999999999999999999", 26},
	{"\\set x 09223372036854775808\n", SET, "bigint constant overflow", "09223372036854775808", 26},
	{"\\set x 1e999\n", SET, "double constant overflow", "1e999", 11},
	{"\\set x 1e-400\n", SET, "double constant overflow", "1e-400", 12},
	{"\\set x @\n", SET, "unexpected character", "@", 7},
	{"\\set x :\n", SET, "unexpected character", ":", 7},
	{"\\set x .e1\n", SET, "unexpected character", ".", 7},
	{"\\set x 1 ! 2\n", SET, "unexpected character", "!", 9},
	{"\\set x 1 + \\x\n", SET, "unexpected character", "\\", 11},
	/* after an error pgbench scans on: the last scanner error wins */
	{"\\set x 'a'\n", SET, "unexpected character", "'", 9},
	{"\\set x 1 + 'a\n", SET, "unexpected character", "'", 11},
	{"\\set x 1 + 'a' 'b'\n", SET, "unexpected character", "'", 17},
	{"\\set x ! 1 @\n", SET, "unexpected character", "@", 11},
	{"\\set x foo(1) @\n", SET, "unexpected character", "@", 14},
	{"\\set x 1 2 99999999999999999999\n", SET, "bigint constant overflow", "99999999999999999999", 30},
	{"\\set x 99999999999999999999 @\n", SET, "unexpected character", "@", 28},
	{"\\set x 1 2 1e999 3\n", SET, "double constant overflow", "1e999", 15},
	{"\\set x random(1) 99999999999999999999 +\n", SET, "bigint constant overflow", "99999999999999999999", 36},
	/* ... but never past the end of the command */
	{"\\set x 1 +\n@\n", SET, "syntax error", "", 10},
	/* the end of the file without a newline: one column less */
	{"\\set x 1 +", SET, "syntax error", "", 9},
	{"\\set x 1 +\r\n", SET, "syntax error", "", 11},
	/* continuation lines: columns count bytes from the command's start */
	{"\\set x 1 + \\\n  2 +\n", SET, "syntax error", "", 18},
	{"\\set x 1 + \\\n  2 + @\n", SET, "unexpected character", "@", 19},
	{"\\set x 1 + \\\nselect 1;\n", SET, "unexpected character", ";", 21},
	{"\\set x 1 + \\\n", SET, "syntax error", "", 12},
	/* \if and \elif */
	{"\\if 1 +\n", 4, "syntax error", "", 7},
	{"\\elif 1 +\n", 6, "syntax error", "", 9},
};

static void
test_errors(var_symtab *symtab)
{
	for (size_t i = 0; i < PGB_LENGTHOF(error_cases); i++)
	{
		const error_case *ec = &error_cases[i];
		expr_error	err;
		expr_node  *node = expr_parse(ec->line, ec->start, symtab, &err);
		char		got[512];
		char		want[512];
		char		name[160];

		display_name(name, sizeof(name), "error: ", ec->line);
		if (node != NULL)
		{
			tap_ok(false, "%s", name);
			tap_diag("parsed without error");
			expr_free(node);
			continue;
		}
		snprintf(got, sizeof(got), "%s | %s | %d", err.message, err.detail, err.column);
		snprintf(want, sizeof(want), "%s | %s | %d", ec->message, ec->detail, ec->column);
		tap_is_str(got, want, name);
	}
}

/* ---- variables, the function table ---- */

static void
test_variables(var_symtab *symtab)
{
	expr_error	err;
	expr_node  *node = expr_parse("\\set x :a + :b + :a", 7, symtab, &err);
	int			a = var_symtab_find(symtab, "a", 1);
	int			b = var_symtab_find(symtab, "b", 1);
	const expr_node *sum;

	if (!tap_ok(node != NULL, "variables parse"))
		return;
	sum = node->u.function.args[0];
	tap_ok(a >= 0 && b >= 0 && a != b, "variables interned");
	tap_is_int(sum->u.function.args[0]->u.variable.slot, a, "first :a slot");
	tap_is_int(sum->u.function.args[1]->u.variable.slot, b, "first :b slot");
	tap_is_int(node->u.function.args[1]->u.variable.slot, a, "second :a slot");
	expr_free(node);

	node = expr_parse("\\set x hash(1)", 7, symtab, &err);
	tap_is_int(node->u.function.args[1]->u.variable.slot,
			   var_symtab_find(symtab, "default_seed", 12), "hash seed slot");
	expr_free(node);

	node = expr_parse("\\set x :q", 7, NULL, &err);
	tap_is_int(node->u.variable.slot, -1, "no symtab: slot -1");
	expr_free(node);
}

static void
test_function_table(void)
{
	static const struct
	{
		const char *name;
		int			nargs;
		expr_func	func;
	}			rows[] = {
		{"abs", 1, PGBF_ABS}, {"debug", 1, PGBF_DEBUG},
		{"double", 1, PGBF_DOUBLE}, {"exp", 1, PGBF_EXP},
		{"greatest", -1, PGBF_GREATEST}, {"hash", 2, PGBF_HASH_MURMUR2},
		{"hash_fnv1a", 2, PGBF_HASH_FNV1A}, {"hash_murmur2", 2, PGBF_HASH_MURMUR2},
		{"int", 1, PGBF_INT}, {"least", -1, PGBF_LEAST}, {"ln", 1, PGBF_LN},
		{"mod", 2, PGBF_MOD}, {"permute", 3, PGBF_PERMUTE}, {"pi", 0, PGBF_PI},
		{"pow", 2, PGBF_POW}, {"power", 2, PGBF_POW}, {"random", 2, PGBF_RANDOM},
		{"random_exponential", 3, PGBF_RANDOM_EXPONENTIAL},
		{"random_gaussian", 3, PGBF_RANDOM_GAUSSIAN},
		{"random_zipfian", 3, PGBF_RANDOM_ZIPFIAN}, {"sqrt", 1, PGBF_SQRT},
	};

	for (size_t i = 0; i < PGB_LENGTHOF(rows); i++)
	{
		const expr_function_info *info = expr_function_lookup(rows[i].name);

		tap_ok(info && info->nargs == rows[i].nargs && info->func == rows[i].func,
			   "function table: %s", rows[i].name);
	}
	tap_ok(expr_function_lookup("SQRT") != NULL, "lookup is case-insensitive");
	tap_ok(expr_function_lookup("sqr") == NULL, "no prefix match");
	tap_ok(expr_function_lookup("and") == NULL, "keywords are not functions");
	tap_is_str(expr_func_name(PGBF_LE), "<=", "operator name");
	tap_is_str(expr_func_name(PGBF_RANDOM_ZIPFIAN), "random_zipfian", "function name");
}

/*
 * "\\set x " followed by prefix, n times unit, the middle, n times
 * suffix: the deep expressions of the limit tests.  Caller frees.
 */
static char *
repeat_expr(const char *unit, int n, const char *middle, const char *suffix)
{
	size_t		len = 8 + (strlen(unit) + strlen(suffix)) * (size_t) n + strlen(middle) + 2;
	char	   *s = malloc(len);
	char	   *p = s;

	p += sprintf(p, "\\set x ");
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", unit);
	p += sprintf(p, "%s", middle);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", suffix);
	strcpy(p, "\n");
	return s;
}

/* Parse; the root's pending count, or -1 with the error in msg. */
static int
pending_of(var_symtab *symtab, const char *line, char *msg, size_t len)
{
	expr_error	err;
	expr_node  *node = expr_parse(line, 7, symtab, &err);
	int			pending;

	if (node == NULL)
	{
		snprintf(msg, len, "%s (%s) at %d", err.message, err.detail, err.column);
		return -1;
	}
	pending = node->pending;
	expr_free(node);
	return pending;
}

/*
 * What an evaluation holds at once, counted when the tree is built, and
 * the limit on it; deep trees parse and free without recursion.
 */
static void
test_depth(var_symtab *symtab)
{
	static const struct
	{
		const char *text;
		int			pending;
	}			rows[] = {
		{"\\set x 1", 1},
		{"\\set x 1 + 2 + 3 + 4", 2},
		{"\\set x 1 + (2 + (3 + 4))", 4},
		{"\\set x greatest(1, 2, 3)", 3},
		{"\\set x -(-(-1))", 4},
		{"\\set x pi()", 1},
		/* AND, OR and CASE consume each value before the next */
		{"\\set x true and (1 = (2 + 3))", 3},
		{"\\set x case when 1 = 1 then 1 + (2 + 3) else 0 end", 3},
		/* only 16 arguments are ever evaluated */
		{"\\set x greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1 + (1 + (1 + 1)))", 16},
	};
	char		msg[256] = "";
	char	   *line;
	expr_error	err;
	expr_node  *node;

	for (size_t i = 0; i < PGB_LENGTHOF(rows); i++)
		tap_is_int(pending_of(symtab, rows[i].text, msg, sizeof(msg)), rows[i].pending,
				   rows[i].text);

	node = expr_parse("\\set x 1 + 2", 7, symtab, &err);
	tap_ok(node->first == node->u.function.args[0] &&
		   node->u.function.args[0]->next == node->u.function.args[1] &&
		   node->u.function.args[1]->next == node &&
		   node->u.function.args[1]->parent == node && node->u.function.args[1]->argno == 1,
		   "1 + 2 is threaded in postorder");
	expr_free(node);

	line = repeat_expr("1+", 100000, "1", "");
	tap_is_int(pending_of(symtab, line, msg, sizeof(msg)), 2, "a 100,001-term sum parses, holds 2");
	free(line);
	line = repeat_expr("-", 9990, "1", "");
	tap_is_int(pending_of(symtab, line, msg, sizeof(msg)), 9991, "9,990 negations hold 9,991");
	free(line);
	/* 15 waiting arguments a level: what pgbench evaluates, ours does too */
	line = repeat_expr("greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", 667, "1", ")");
	tap_is_int(pending_of(symtab, line, msg, sizeof(msg)), 10006, "667 nested greatest() hold 10,006");
	free(line);
	line = repeat_expr("greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", 1500, "1", ")");
	tap_is_int(pending_of(symtab, line, msg, sizeof(msg)), 22501, "1,500 nested greatest() hold 22,501");
	free(line);
	/* bison's own limit, as pgbench's */
	line = repeat_expr("(", 20000, "1", ")");
	tap_is_int(pending_of(symtab, line, msg, sizeof(msg)), -1, "20,000 parentheses are refused");
	tap_ok(strncmp(msg, "memory exhausted () at ", 23) == 0, "with bison's message: %s", msg);
	free(line);
}

int
main(void)
{
	var_symtab *symtab = var_symtab_create();

	test_depth(symtab);

	test_trees(symtab);
	test_errors(symtab);
	test_variables(symtab);
	test_function_table();
	var_symtab_free(symtab);
	return tap_done();
}
