/*
 * expr.h — the abstract syntax tree of \set, \if and \elif expressions,
 * the table of built-in functions and operators, and the parser entry.
 *
 * Operators are functions: "a + b" is PGBF_ADD(a, b), so the evaluator has
 * one dispatch.  hash(x) and permute(i, n) get their implicit seed at parse
 * time as a reference to the variable default_seed, as pgbench does.
 *
 * Trees are built once while scripts are compiled, then only read: they are
 * shared by all threads without locks.
 *
 * No walk over a tree recurses: a 100,000-term sum is as deep as it is
 * long.  Each node is threaded in postorder (first, next) and knows its
 * parent, so evaluation and freeing are loops, and the most values an
 * evaluation holds at once (pending) is known when the node is built.
 */
#ifndef PGBENCH_EXPR_H
#define PGBENCH_EXPR_H

#include "pgbench/script/value.h"

struct var_symtab;

typedef enum expr_node_kind
{
	EXPR_CONSTANT,
	EXPR_VARIABLE,
	EXPR_FUNCTION,
} expr_node_kind;

/* Built-in functions and operators.  Keep in step with expr_functions[]. */
typedef enum expr_func
{
	/* arithmetic operators */
	PGBF_ADD, PGBF_SUB, PGBF_MUL, PGBF_DIV, PGBF_MOD,
	/* logical operators (lazy) */
	PGBF_AND, PGBF_OR, PGBF_NOT,
	/* bitwise operators */
	PGBF_BITAND, PGBF_BITOR, PGBF_BITXOR, PGBF_LSHIFT, PGBF_RSHIFT,
	/* comparisons; a > b is parsed as b < a */
	PGBF_EQ, PGBF_NE, PGBF_LE, PGBF_LT,
	/* IS [NOT] NULL / TRUE / FALSE; ISNULL, NOTNULL */
	PGBF_IS,
	/* CASE WHEN c1 THEN r1 [WHEN ...] [ELSE e] END: args c1,r1,...,e */
	PGBF_CASE,
	/* named functions */
	PGBF_ABS, PGBF_DEBUG, PGBF_DOUBLE, PGBF_EXP, PGBF_GREATEST,
	PGBF_HASH_FNV1A, PGBF_HASH_MURMUR2, PGBF_INT, PGBF_LEAST, PGBF_LN,
	PGBF_MOD_FUNC, PGBF_PERMUTE, PGBF_PI, PGBF_POW, PGBF_RANDOM,
	PGBF_RANDOM_EXPONENTIAL, PGBF_RANDOM_GAUSSIAN, PGBF_RANDOM_ZIPFIAN,
	PGBF_SQRT,
} expr_func;

/* pgbench evaluates at most this many arguments of one call, then fails. */
#define EXPR_MAX_ARGS 16

/*
 * The most values one evaluation may hold at once (an operand waiting for
 * the other side, like the 1s of 1+(1+(1+...)), or earlier arguments of a
 * call); a tree needing more is refused by expr_parse.  Bison lets
 * pgbench's grammar nest fewer than 10,000 levels (its stack stops at
 * 10,000 entries) and a function takes at most 16 arguments, so no
 * expression pgbench evaluates needs more; the evaluator holds the values
 * of a deep one on the heap, 16 bytes each.
 */
#define EXPR_MAX_PENDING 160000

typedef struct expr_node expr_node;
struct expr_prog;

struct expr_node
{
	expr_node_kind kind;
	int			argno;			/* index among the parent's arguments */
	int			pending;		/* most values its evaluation holds at once */
	const expr_node *parent;	/* NULL at the root */
	bool		in_lazy;		/* parent is AND, OR or CASE, which take
								 * each argument's value before the next */
	expr_node  *first;			/* first node of this subtree in postorder */
	expr_node  *next;			/* postorder successor (the parent's next
								 * argument's first node, or the parent) */
	struct expr_prog *prog;		/* a parsed tree's root: its flat program
								 * (below), NULL when it has none */
	union
	{
		pgb_value	constant;
		struct
		{
			int			slot;	/* index in the variable symbol table */
			const char *name;	/* for messages */
		}			variable;
		struct
		{
			expr_func	func;
			int			nargs;
			expr_node **args;
		}			function;
	}			u;
};

/*
 * The flat program of an everyday integer expression, built once from its
 * tree when it is parsed (expr_prog.c; run by eval_prog.c): random(1,
 * 100000 * :scale), :aid % 10 + 1, -5000.  A tree qualifies when every
 * node is an integer constant, a variable, or one of + - * / % mod() and
 * two-argument random(), and it is small.  Its operations, on int64
 * registers in the tree's postorder, are the tree's in the same order,
 * with the tree evaluator's messages and the same draws from the client's
 * random state, so the two are interchangeable; it only declines (before
 * drawing anything) when a variable it reads holds no integer value yet,
 * and the tree evaluator then does the whole work with pgbench's
 * coercions.
 */
#define EXPR_PROG_MAX_REGS 32	/* the constants, the variables, the results */
#define EXPR_PROG_MAX_OPS 16
#define EXPR_PROG_MAX_VARS 8

typedef enum expr_prog_opcode
{
	EXPR_OP_CONST,				/* a leaf: an integer constant */
	EXPR_OP_VAR,				/* a leaf: a variable */
	EXPR_OP_ADD,
	EXPR_OP_SUB,
	EXPR_OP_MUL,
	EXPR_OP_DIV,
	EXPR_OP_MOD,
	EXPR_OP_RANDOM,				/* random(lo, hi) */
} expr_prog_opcode;

/* regs[dst] = op(regs[a], regs[b]) */
typedef struct expr_prog_op
{
	expr_prog_opcode op;
	uint8_t		a,
				b,
				dst;
} expr_prog_op;

/*
 * Registers: the constants first (their values in consts), then the
 * variables (read from the store slots in slots), then each operation's
 * result; the root's value is in regs[result].
 */
typedef struct expr_prog
{
	int			nconsts;
	int			nvars;
	int			nops;
	int			result;
	int64_t		consts[EXPR_PROG_MAX_REGS];
	int			slots[EXPR_PROG_MAX_VARS];
	expr_prog_op ops[];			/* in the tree's postorder */
} expr_prog;

/* The program for the tree at root, or NULL when it does not qualify. */
expr_prog  *expr_prog_build(const expr_node *root);

/* The opcode of a two-argument function or operator a program runs. */
bool		expr_prog_function_opcode(expr_func func, expr_prog_opcode *op);

/*
 * The integer arithmetic both evaluators share, with pgbench's messages:
 * op (EXPR_OP_ADD to EXPR_OP_MOD) on l and r into *res, with no overflow
 * and no trap on INT64_MIN / -1 (expr_int_divide: l / r, or l % r when
 * !is_div); and whether random(lo, hi) has a range its distributions can
 * draw from.  NULL when fine, else the message.
 */
const char *expr_int_divide(bool is_div, int64_t l, int64_t r, int64_t *res);
const char *expr_random_range(int64_t lo, int64_t hi);

static inline const char *
expr_int_op(expr_prog_opcode op, int64_t l, int64_t r, int64_t *res)
{
	switch (op)
	{
		case EXPR_OP_ADD:
			return __builtin_add_overflow(l, r, res) ? "bigint add out of range" : NULL;
		case EXPR_OP_SUB:
			return __builtin_sub_overflow(l, r, res) ? "bigint sub out of range" : NULL;
		case EXPR_OP_MUL:
			return __builtin_mul_overflow(l, r, res) ? "bigint mul out of range" : NULL;
		case EXPR_OP_DIV:
		case EXPR_OP_MOD:
			return expr_int_divide(op == EXPR_OP_DIV, l, r, res);
		case EXPR_OP_CONST:
		case EXPR_OP_VAR:
		case EXPR_OP_RANDOM:
			break;
	}
	return "unexpected operator";
}

/* One row of the function table: name as written, arity (-1 variadic). */
typedef struct expr_function_info
{
	const char *name;
	int			nargs;
	expr_func	func;
} expr_function_info;

/* Look a function name up (case-insensitive); NULL when unknown. */
const expr_function_info *expr_function_lookup(const char *name);

/* Name of a function or operator for messages ("+", "random", ...). */
const char *expr_func_name(expr_func func);

/*
 * A parse error, reported by the caller as pgbench does:
 *   "<file>:<line>: <message> [(<detail>)] in command "<cmd>""
 *   <the command's line>
 *   <spaces>^ error found here
 * column is a 0-based byte offset in the line given to expr_parse, or -1.
 *
 * Where pgbench puts the caret: on the last byte its scanner consumed when
 * the error was found (the offending token's last byte; the terminating
 * newline when the expression is cut short; the last byte of the file when
 * there is no newline).  After any error pgbench scans on to the end of the
 * command, and a scanner error met there ("unexpected character",
 * "bigint constant overflow", "double constant overflow") replaces the
 * first error, message, detail and column: the last one wins.
 * A detail longer than 127 bytes is cut.
 */
typedef struct expr_error
{
	char		message[128];
	char		detail[128];	/* "" when none */
	int			column;
} expr_error;

/*
 * Parse the expression that starts at line[start] and runs to the end of
 * the command (continuation lines included as written, see below).
 * Variable names are interned into symtab.  Returns the tree, or NULL with
 * *err filled.  The tree is owned by the caller (expr_free).
 *
 * Contract details, checked against pgbench 15:
 * - line is the raw script text from the command's backslash on, with its
 *   terminating newline when the file has one ("\set x 1 +\n"): the
 *   newline decides the caret column of an expression cut short.
 * - Continuation lines stay as written: pass "\\\n" (or "\\\r\n") and
 *   the following line(s) unchanged.  The scanner treats backslash-newline
 *   as a blank, and columns count bytes from line[0] across the newlines,
 *   exactly as pgbench does (it then prints the multi-line text and a caret
 *   line indented by that byte count).
 * - Scanning stops at the first newline not preceded by a backslash;
 *   anything after it is never read, so line may run on into the script.
 * - symtab may be NULL (tools, tests): variables then get slot -1.
 * - Shapes built: "-x" is 0 - x; "~x" is -1 # x; "a > b" is b < a and
 *   "a >= b" is b <= a; "x IS NOT ..." and NOTNULL are NOT (x IS ...);
 *   CASE always carries its ELSE as last argument (NULL when omitted);
 *   hash*(x) and permute(i, n) get :default_seed as last argument.
 * - "mod(a, b)" builds PGBF_MOD, like a % b; PGBF_MOD_FUNC is never built.
 * - Nesting: bison's "memory exhausted" past 10,000 parser states, as in
 *   pgbench; a tree whose evaluation would hold more than EXPR_MAX_PENDING
 *   values gets "expression too deeply nested" (pgbench has no limit and
 *   may crash).  Long left-leaning chains (1+1+...+1) have no limit.
 */
expr_node  *expr_parse(const char *line, size_t start,
					   struct var_symtab *symtab, expr_error *err);

/*
 * Free a tree from expr_parse, its constants and arguments (or any subtree
 * built by the grammar's constructors).  NULL-safe; iterative.
 */
void		expr_free(expr_node *node);

#endif
