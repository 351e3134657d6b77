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
 */
#ifndef PGBENCH_EXPR_H
#define PGBENCH_EXPR_H

#include "pgbench/value.h"

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

typedef struct expr_node expr_node;

struct expr_node
{
	expr_node_kind kind;
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
 */
typedef struct expr_error
{
	char		message[128];
	char		detail[128];	/* "" when none */
	int			column;
} expr_error;

/*
 * Parse the expression that starts at line[start] and runs to the end of
 * line (continuation lines already joined by the caller, keeping columns).
 * Variable names are interned into symtab.  Returns the tree, or NULL with
 * *err filled.  The tree is owned by the caller (expr_free).
 */
expr_node  *expr_parse(const char *line, size_t start,
					   struct var_symtab *symtab, expr_error *err);

void		expr_free(expr_node *node);

#endif
