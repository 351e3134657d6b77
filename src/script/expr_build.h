/*
 * expr_build.h — what the grammar's actions build trees with; not part of
 * the unit's contract, which is expr.h.  Private to the expr unit and its
 * grammar (grammar/script_exprparse.y).
 *
 * The front end's files call one way, down (scripts/check-file-loops.pl
 * reads it from the objects):
 *
 *   expr.c              expr_parse(): runs the scanner and the parser over
 *                       one command line, then checks and compiles the tree
 *   script_exprparse.y  the grammar; its actions build with the calls below
 *                       and record errors through the scanner
 *   script_exprscan.l   tokens, the caret position, the error record
 *   expr_build.c        trees: the function table, constructors, freeing
 *
 * Nothing here knows the parse or records an error: a constructor that
 * can refuse (expr_make_call) says why, and the grammar records it where
 * the scan stands.  Trees are built at start-up only, so out of memory
 * stops the process (xalloc.h).
 */
#ifndef PGBENCH_EXPR_BUILD_H
#define PGBENCH_EXPR_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbench/script/expr.h"

/*
 * Arguments of a call, or the WHEN/THEN pairs of a CASE, while parsing.
 * It owns its nodes until a constructor moves them into a tree.
 */
typedef struct expr_arglist
{
	expr_node **items;
	int			count;
	int			capacity;
} expr_arglist;

expr_arglist *expr_arglist_new(void);
void		expr_arglist_push(expr_arglist *list, expr_node *node);

/* Frees the list and the nodes it still owns.  NULL-safe. */
void		expr_arglist_free(expr_arglist *list);

/* Leaves: a constant, one value each. */
expr_node  *expr_make_int(int64_t value);
expr_node  *expr_make_double(double value);
expr_node  *expr_make_bool(bool value);
expr_node  *expr_make_null(void);

/*
 * The variable name[0..len) (not NUL-terminated; the node keeps a copy),
 * interned into symtab; slot -1 when symtab is NULL.
 */
expr_node  *expr_make_variable(struct var_symtab *symtab, const char *name,
							   size_t len);

/* An operator node over its operands, which it takes over. */
expr_node  *expr_make_binary(expr_func func, expr_node *left, expr_node *right);
expr_node  *expr_make_unary(expr_func func, expr_node *arg);

/*
 * A call of info's function on args, which it consumes (freed as well
 * when it fails).  hash*() and permute() one argument short get
 * :default_seed, interned into symtab, as their last.  NULL when the
 * number of arguments is wrong, with *problem set to pgbench's message
 * ("unexpected number of arguments", "at least one argument expected");
 * the function's name is the error's detail.
 */
expr_node  *expr_make_call(struct var_symtab *symtab,
						   const expr_function_info *info,
						   expr_arglist *args, const char **problem);

/*
 * CASE over pairs (WHEN, THEN, WHEN, THEN, ...), consumed; otherwise is
 * the ELSE (NULL: a NULL constant), always the last argument.
 */
expr_node  *expr_make_case(expr_arglist *pairs, expr_node *otherwise);

/* expr_function_lookup for name[0..len), not NUL-terminated. */
const expr_function_info *expr_function_lookup_n(const char *name, size_t len);

#endif
