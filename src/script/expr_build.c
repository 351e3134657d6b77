/*
 * expr_build.c — expression trees: the table of built-in functions, the
 * node constructors the grammar's actions call (with pgbench's arity
 * rules), argument lists, freeing.  The bottom of the front end
 * (expr_build.h): it knows neither the parse nor its errors.
 *
 * Trees are allocated once at script compile time; each node carries its
 * argument array (or variable name) in the same allocation, so evaluation
 * follows one pointer per child and freeing is one call per node.  The
 * constructors thread each new node into postorder (expr.h), so that no
 * walk over a tree ever recurses, however deep the tree.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgbench/script/expr.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/script/variables.h"
#include "expr_build.h"

/*
 * Named functions, as pgbench knows them.  nargs is the arity of the
 * built node: hash*() and permute() accept one argument less and then get
 * :default_seed appended.  "mod" is the % operator under another name.
 */
static const expr_function_info expr_functions[] = {
	{"abs", 1, PGBF_ABS},
	{"debug", 1, PGBF_DEBUG},
	{"double", 1, PGBF_DOUBLE},
	{"exp", 1, PGBF_EXP},
	{"greatest", -1, PGBF_GREATEST},
	{"hash", 2, PGBF_HASH_MURMUR2},
	{"hash_fnv1a", 2, PGBF_HASH_FNV1A},
	{"hash_murmur2", 2, PGBF_HASH_MURMUR2},
	{"int", 1, PGBF_INT},
	{"least", -1, PGBF_LEAST},
	{"ln", 1, PGBF_LN},
	{"mod", 2, PGBF_MOD},
	{"permute", 3, PGBF_PERMUTE},
	{"pi", 0, PGBF_PI},
	{"pow", 2, PGBF_POW},
	{"power", 2, PGBF_POW},
	{"random", 2, PGBF_RANDOM},
	{"random_exponential", 3, PGBF_RANDOM_EXPONENTIAL},
	{"random_gaussian", 3, PGBF_RANDOM_GAUSSIAN},
	{"random_zipfian", 3, PGBF_RANDOM_ZIPFIAN},
	{"sqrt", 1, PGBF_SQRT},
};

static const char *const expr_func_names[] = {
	[PGBF_ADD] = "+",
	[PGBF_SUB] = "-",
	[PGBF_MUL] = "*",
	[PGBF_DIV] = "/",
	[PGBF_MOD] = "%",
	[PGBF_AND] = "and",
	[PGBF_OR] = "or",
	[PGBF_NOT] = "not",
	[PGBF_BITAND] = "&",
	[PGBF_BITOR] = "|",
	[PGBF_BITXOR] = "#",
	[PGBF_LSHIFT] = "<<",
	[PGBF_RSHIFT] = ">>",
	[PGBF_EQ] = "=",
	[PGBF_NE] = "<>",
	[PGBF_LE] = "<=",
	[PGBF_LT] = "<",
	[PGBF_IS] = "is",
	[PGBF_CASE] = "case",
	[PGBF_ABS] = "abs",
	[PGBF_DEBUG] = "debug",
	[PGBF_DOUBLE] = "double",
	[PGBF_EXP] = "exp",
	[PGBF_GREATEST] = "greatest",
	[PGBF_HASH_FNV1A] = "hash_fnv1a",
	[PGBF_HASH_MURMUR2] = "hash_murmur2",
	[PGBF_INT] = "int",
	[PGBF_LEAST] = "least",
	[PGBF_LN] = "ln",
	[PGBF_MOD_FUNC] = "mod",
	[PGBF_PERMUTE] = "permute",
	[PGBF_PI] = "pi",
	[PGBF_POW] = "pow",
	[PGBF_RANDOM] = "random",
	[PGBF_RANDOM_EXPONENTIAL] = "random_exponential",
	[PGBF_RANDOM_GAUSSIAN] = "random_gaussian",
	[PGBF_RANDOM_ZIPFIAN] = "random_zipfian",
	[PGBF_SQRT] = "sqrt",
};

static const char EXPR_DEFAULT_SEED[] = "default_seed";

const expr_function_info *
expr_function_lookup_n(const char *name, size_t len)
{
	for (size_t i = 0; i < PGB_LENGTHOF(expr_functions); i++)
	{
		const char *candidate = expr_functions[i].name;

		if (strncasecmp(candidate, name, len) == 0 && candidate[len] == '\0')
			return &expr_functions[i];
	}
	return NULL;
}

const expr_function_info *
expr_function_lookup(const char *name)
{
	return expr_function_lookup_n(name, strlen(name));
}

const char *
expr_func_name(expr_func func)
{
	if ((size_t) func < PGB_LENGTHOF(expr_func_names) && expr_func_names[func])
		return expr_func_names[func];
	return "?";
}

/* ---- nodes ---- */

/* Parse-time allocation: start-up, so out of memory stops (xalloc.h). */
static void *
expr_alloc(size_t size)
{
	return pgb_calloc(1, size);
}

/* A leaf is a subtree of its own, one value. */
static expr_node *
expr_new_leaf(size_t size, expr_node_kind kind)
{
	expr_node  *node = expr_alloc(size);

	node->kind = kind;
	node->first = node;
	node->pending = 1;
	return node;
}

static expr_node *
expr_new_constant(pgb_value value)
{
	expr_node  *node = expr_new_leaf(sizeof(expr_node), EXPR_CONSTANT);

	node->u.constant = value;
	return node;
}

expr_node *
expr_make_int(int64_t value)
{
	return expr_new_constant(pgb_value_int(value));
}

expr_node *
expr_make_double(double value)
{
	return expr_new_constant(pgb_value_double(value));
}

expr_node *
expr_make_bool(bool value)
{
	return expr_new_constant(pgb_value_bool(value));
}

expr_node *
expr_make_null(void)
{
	return expr_new_constant(pgb_value_null());
}

expr_node *
expr_make_variable(struct var_symtab *symtab, const char *name, size_t len)
{
	expr_node  *node = expr_new_leaf(sizeof(expr_node) + len + 1, EXPR_VARIABLE);
	char	   *copy = (char *) (node + 1);

	memcpy(copy, name, len);
	copy[len] = '\0';
	node->u.variable.name = copy;
	node->u.variable.slot = symtab ? var_symtab_intern(symtab, name, len) : -1;
	return node;
}

/* A function node whose argument array follows it in memory. */
static expr_node *
expr_new_function(expr_func func, int nargs)
{
	expr_node  *node = expr_alloc(sizeof(expr_node) +
								  sizeof(expr_node *) * (size_t) nargs);

	node->kind = EXPR_FUNCTION;
	node->u.function.func = func;
	node->u.function.nargs = nargs;
	node->u.function.args = (expr_node **) (node + 1);
	return node;
}

/*
 * Thread a function node whose arguments are in place: its postorder runs
 * through each argument's in turn, then the node.  While argument i of a
 * strict function is evaluated the values of 0..i-1 wait, and only the
 * first EXPR_MAX_ARGS are ever evaluated; AND, OR and CASE consume each
 * argument's value before they evaluate the next.
 */
static expr_node *
expr_link_function(expr_node *node)
{
	int			nargs = node->u.function.nargs;
	expr_node **args = node->u.function.args;
	expr_func	func = node->u.function.func;
	bool		lazy = func == PGBF_AND || func == PGBF_OR || func == PGBF_CASE;

	node->first = nargs > 0 ? args[0]->first : node;
	node->pending = 1;
	for (int i = 0; i < nargs; i++)
	{
		int			held = lazy ? 0 : i;

		args[i]->parent = node;
		args[i]->in_lazy = lazy;
		args[i]->argno = i;
		args[i]->next = i + 1 < nargs ? args[i + 1]->first : node;
		if ((lazy || i < EXPR_MAX_ARGS) && held + args[i]->pending > node->pending)
			node->pending = held + args[i]->pending;
	}
	return node;
}

expr_node *
expr_make_binary(expr_func func, expr_node *left, expr_node *right)
{
	expr_node  *node = expr_new_function(func, 2);

	node->u.function.args[0] = left;
	node->u.function.args[1] = right;
	return expr_link_function(node);
}

expr_node *
expr_make_unary(expr_func func, expr_node *arg)
{
	expr_node  *node = expr_new_function(func, 1);

	node->u.function.args[0] = arg;
	return expr_link_function(node);
}

/* Moves the list's nodes into a new function node and frees the list. */
static expr_node *
expr_function_from_list(expr_func func, expr_arglist *list)
{
	expr_node  *node = expr_new_function(func, list->count);

	for (int i = 0; i < list->count; i++)
		node->u.function.args[i] = list->items[i];
	list->count = 0;
	expr_arglist_free(list);
	return expr_link_function(node);
}

static bool
expr_takes_default_seed(expr_func func)
{
	return func == PGBF_HASH_MURMUR2 || func == PGBF_HASH_FNV1A ||
		func == PGBF_PERMUTE;
}

expr_node *
expr_make_call(struct var_symtab *symtab, const expr_function_info *info,
			   expr_arglist *args, const char **problem)
{
	*problem = NULL;
	if (info->nargs < 0)
	{
		if (args->count == 0)
			*problem = "at least one argument expected";
	}
	else if (expr_takes_default_seed(info->func))
	{
		if (args->count < info->nargs - 1 || args->count > info->nargs)
			*problem = "unexpected number of arguments";
		else if (args->count == info->nargs - 1)
			expr_arglist_push(args, expr_make_variable(symtab, EXPR_DEFAULT_SEED,
													   strlen(EXPR_DEFAULT_SEED)));
	}
	else if (args->count != info->nargs)
		*problem = "unexpected number of arguments";

	if (*problem)
	{
		expr_arglist_free(args);
		return NULL;
	}
	return expr_function_from_list(info->func, args);
}

expr_node *
expr_make_case(expr_arglist *pairs, expr_node *otherwise)
{
	expr_arglist_push(pairs, otherwise ? otherwise : expr_make_null());
	return expr_function_from_list(PGBF_CASE, pairs);
}

/* In postorder, children before their parent: next is read before free. */
void
expr_free(expr_node *node)
{
	expr_node  *n;

	if (node == NULL)
		return;
	n = node->first;
	for (;;)
	{
		expr_node  *next = n->next;
		bool		last = (n == node);

		free(n->prog);
		free(n);
		if (last)
			break;
		n = next;
	}
}

/* ---- argument lists ---- */

expr_arglist *
expr_arglist_new(void)
{
	return expr_alloc(sizeof(expr_arglist));
}

void
expr_arglist_push(expr_arglist *list, expr_node *node)
{
	if (list->count == list->capacity)
	{
		int			capacity = list->capacity ? list->capacity * 2 : 4;
		list->items = pgb_realloc(list->items, sizeof(expr_node *) * (size_t) capacity);
		list->capacity = capacity;
	}
	list->items[list->count++] = node;
}

void
expr_arglist_free(expr_arglist *list)
{
	if (list == NULL)
		return;
	for (int i = 0; i < list->count; i++)
		expr_free(list->items[i]);
	free(list->items);
	free(list);
}
