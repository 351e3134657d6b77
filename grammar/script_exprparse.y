/*
 * script_exprparse.y — grammar of pgbench expressions (\set, \if, \elif).
 *
 * Owns the syntax: operator precedence and associativity (SQL-like, as
 * pgbench has them), literals, function calls, CASE, IS [NOT] ...  Trees
 * are built with the constructors of src/script/expr_build.c; the scanner
 * is script_exprscan.l, which also keeps the error record.  Called by expr.c
 * (expr_parse), it calls only down, into those two (expr_build.h).
 *
 * Where an error is reported matters (pgbench shows a caret at the end of
 * the last token read), so actions that can fail run on reductions that
 * need no lookahead: a function name is checked as soon as it is read,
 * a call's arity as soon as its ')' is read.
 */

%code requires
{
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbench/script/expr.h"

/* A name as it appears in the line: not NUL-terminated, not owned. */
typedef struct expr_word
{
	const char *text;
	int			len;
} expr_word;

/* Arguments or WHEN/THEN pairs while parsing (expr_build.h). */
struct expr_arglist;

/* Everything one expr_parse() call shares between scanner and parser. */
typedef struct expr_parse_state
{
	const char *line;			/* the command line columns refer to */
	size_t		scan_start;		/* offset in line where scanning began */
	size_t		matched_end;	/* offset just past the last text matched */
	bool		scan_done;		/* the terminating newline or the end was read */
	bool		failed;			/* *err holds the error to report */
	struct var_symtab *symtab;	/* may be NULL: variables get slot -1 */
	expr_error *err;
	expr_node  *result;
} expr_parse_state;
}

%code provides
{
/* Scanner side (script_exprscan.l). */
int			expr_yylex(EXPR_YYSTYPE *lval, void *scanner);

/* The longest text expr_scan_begin takes (flex counts in int). */
#define EXPR_SCAN_MAX_LEN ((size_t) INT32_MAX - 2)

/*
 * A scanner over text[0..len); NULL (nothing to end) when len is over
 * EXPR_SCAN_MAX_LEN.  Out of memory stops the process (xalloc.h).
 */
void	   *expr_scan_begin(expr_parse_state *ps, const char *text, size_t len);
void		expr_scan_to_end_of_line(void *scanner);
void		expr_scan_end(void *scanner);

/*
 * Record an error in *ps->err at the end of the last matched text, for
 * the scanner, the parser and expr.c alike.  Scanner errors replace an
 * earlier error (pgbench keeps scanning to the end of the line and the
 * last scanner error wins); the others keep the first one.
 */
void		expr_set_error(expr_parse_state *ps, bool from_scanner,
						   const char *message, const char *detail,
						   int detail_len);
}

%code
{
#include <string.h>

#include "script/expr_build.h"

static void expr_yyerror(void *scanner, expr_parse_state *ps, const char *message);
static const expr_function_info *expr_parse_function(expr_parse_state *ps,
													 expr_word name);
static expr_node *expr_parse_call(expr_parse_state *ps,
								  const expr_function_info *info,
								  expr_arglist *args);
}

%define api.pure full
%define api.prefix {expr_yy}
%expect 0

%param {void *scanner}
%parse-param {expr_parse_state *ps}

%union
{
	int64_t		ival;
	double		dval;
	bool		bval;
	expr_word	word;
	const expr_function_info *func;
	expr_node  *node;
	struct expr_arglist *list;
}

%token <ival> INTEGER_CONST
%token <dval> DOUBLE_CONST
%token <bval> BOOLEAN_CONST
%token NULL_CONST MAXINT_PLUS_ONE_CONST
%token <word> VARIABLE FUNCTION
%token AND_OP OR_OP NOT_OP IS_OP ISNULL_OP NOTNULL_OP
%token NE_OP LE_OP GE_OP LS_OP RS_OP
%token CASE_KW WHEN_KW THEN_KW ELSE_KW END_KW
%token SCAN_ERROR				/* the scanner already recorded an error */

%type <node> expr case_expr
%type <list> args when_then_list
%type <func> function

%destructor { expr_free($$); } <node>
%destructor { expr_arglist_free($$); } <list>

/*
 * Lowest binding first.  %precedence where associativity can never come
 * into play (prefix operators, postfix IS tests).
 */
%left	OR_OP
%left	AND_OP
%precedence NOT_OP
%precedence IS_OP ISNULL_OP NOTNULL_OP
%nonassoc '<' '>' '=' LE_OP GE_OP NE_OP
/* '~' sits here, not with the other prefix operators: ~1 + 2 is ~(1 + 2) */
%left	'|' '#' '&' LS_OP RS_OP '~'
%left	'+' '-'
%left	'*' '/' '%'
%precedence UNARY

%%

result:
	expr						{ ps->result = $1; }
	;

expr:
	'(' expr ')'				{ $$ = $2; }
	| '+' expr %prec UNARY		{ $$ = $2; }
	/* negation is 0 - x, evaluated as such (overflow included) */
	| '-' expr %prec UNARY		{ $$ = expr_make_binary(PGBF_SUB, expr_make_int(0), $2); }
	/* -9223372036854775808: the only way to write the smallest bigint */
	| '-' MAXINT_PLUS_ONE_CONST	{ $$ = expr_make_int(INT64_MIN); }
	| '~' expr					{ $$ = expr_make_binary(PGBF_BITXOR, expr_make_int(-1), $2); }
	| NOT_OP expr				{ $$ = expr_make_unary(PGBF_NOT, $2); }
	| expr '+' expr				{ $$ = expr_make_binary(PGBF_ADD, $1, $3); }
	| expr '-' expr				{ $$ = expr_make_binary(PGBF_SUB, $1, $3); }
	| expr '*' expr				{ $$ = expr_make_binary(PGBF_MUL, $1, $3); }
	| expr '/' expr				{ $$ = expr_make_binary(PGBF_DIV, $1, $3); }
	| expr '%' expr				{ $$ = expr_make_binary(PGBF_MOD, $1, $3); }
	| expr '<' expr				{ $$ = expr_make_binary(PGBF_LT, $1, $3); }
	| expr LE_OP expr			{ $$ = expr_make_binary(PGBF_LE, $1, $3); }
	/* > and >= swap their operands, so debug() in b runs before a */
	| expr '>' expr				{ $$ = expr_make_binary(PGBF_LT, $3, $1); }
	| expr GE_OP expr			{ $$ = expr_make_binary(PGBF_LE, $3, $1); }
	| expr '=' expr				{ $$ = expr_make_binary(PGBF_EQ, $1, $3); }
	| expr NE_OP expr			{ $$ = expr_make_binary(PGBF_NE, $1, $3); }
	| expr '&' expr				{ $$ = expr_make_binary(PGBF_BITAND, $1, $3); }
	| expr '|' expr				{ $$ = expr_make_binary(PGBF_BITOR, $1, $3); }
	| expr '#' expr				{ $$ = expr_make_binary(PGBF_BITXOR, $1, $3); }
	| expr LS_OP expr			{ $$ = expr_make_binary(PGBF_LSHIFT, $1, $3); }
	| expr RS_OP expr			{ $$ = expr_make_binary(PGBF_RSHIFT, $1, $3); }
	| expr AND_OP expr			{ $$ = expr_make_binary(PGBF_AND, $1, $3); }
	| expr OR_OP expr			{ $$ = expr_make_binary(PGBF_OR, $1, $3); }
	| expr ISNULL_OP			{ $$ = expr_make_binary(PGBF_IS, $1, expr_make_null()); }
	| expr NOTNULL_OP
		{ $$ = expr_make_unary(PGBF_NOT, expr_make_binary(PGBF_IS, $1, expr_make_null())); }
	| expr IS_OP NULL_CONST		{ $$ = expr_make_binary(PGBF_IS, $1, expr_make_null()); }
	| expr IS_OP NOT_OP NULL_CONST
		{ $$ = expr_make_unary(PGBF_NOT, expr_make_binary(PGBF_IS, $1, expr_make_null())); }
	| expr IS_OP BOOLEAN_CONST	{ $$ = expr_make_binary(PGBF_IS, $1, expr_make_bool($3)); }
	/* x IS NOT FALSE is NOT (x IS FALSE): true for NULL, as in SQL */
	| expr IS_OP NOT_OP BOOLEAN_CONST
		{ $$ = expr_make_unary(PGBF_NOT, expr_make_binary(PGBF_IS, $1, expr_make_bool($4))); }
	| INTEGER_CONST				{ $$ = expr_make_int($1); }
	| DOUBLE_CONST				{ $$ = expr_make_double($1); }
	| BOOLEAN_CONST				{ $$ = expr_make_bool($1); }
	| NULL_CONST				{ $$ = expr_make_null(); }
	| VARIABLE
		{ $$ = expr_make_variable(ps->symtab, $1.text, (size_t) $1.len); }
	| function '(' args ')'
		{
			$$ = expr_parse_call(ps, $1, $3);
			if ($$ == NULL)
				YYABORT;
		}
	| case_expr					{ $$ = $1; }
	;

function:
	FUNCTION
		{
			$$ = expr_parse_function(ps, $1);
			if ($$ == NULL)
				YYABORT;
		}
	;

args:
	%empty						{ $$ = expr_arglist_new(); }
	| expr						{ $$ = expr_arglist_new(); expr_arglist_push($$, $1); }
	| args ',' expr				{ $$ = $1; expr_arglist_push($$, $3); }
	;

case_expr:
	CASE_KW when_then_list END_KW
		{ $$ = expr_make_case($2, NULL); }
	| CASE_KW when_then_list ELSE_KW expr END_KW
		{ $$ = expr_make_case($2, $4); }
	;

when_then_list:
	WHEN_KW expr THEN_KW expr
		{
			$$ = expr_arglist_new();
			expr_arglist_push($$, $2);
			expr_arglist_push($$, $4);
		}
	| when_then_list WHEN_KW expr THEN_KW expr
		{
			$$ = $1;
			expr_arglist_push($$, $3);
			expr_arglist_push($$, $5);
		}
	;

%%

/* Bison's only message is "syntax error", which is also pgbench's. */
static void
expr_yyerror(void *scanner, expr_parse_state *ps, const char *message)
{
	(void) scanner;
	expr_set_error(ps, false, message, NULL, 0);
}

/* The function a name calls; NULL, with the error recorded, when none. */
static const expr_function_info *
expr_parse_function(expr_parse_state *ps, expr_word name)
{
	const expr_function_info *info = expr_function_lookup_n(name.text, (size_t) name.len);

	if (info == NULL)
		expr_set_error(ps, false, "unexpected function name", name.text, name.len);
	return info;
}

/*
 * The call node, checked as soon as its ')' is read; NULL, with the error
 * recorded (the function's name as its detail), when the arity is wrong.
 */
static expr_node *
expr_parse_call(expr_parse_state *ps, const expr_function_info *info,
				expr_arglist *args)
{
	const char *problem;
	expr_node  *node = expr_make_call(ps->symtab, info, args, &problem);

	if (node == NULL)
		expr_set_error(ps, false, problem, info->name, (int) strlen(info->name));
	return node;
}
