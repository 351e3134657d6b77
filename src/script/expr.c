/*
 * expr.c — expr_parse(): runs the scanner (lexer/script_exprscan.l) and the
 * parser (grammar/script_exprparse.y) over one command line, then refuses a tree
 * too deep to evaluate and compiles the flat program of an everyday one.
 * The top of the front end (expr_build.h draws its files): it calls the
 * parser, the scanner and the trees' code, and nothing calls back.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/script/expr.h"
#include "script_exprparse.h"

/*
 * Length of the expression text at text: through the first newline that
 * is not a backslash continuation (newline included), or to the end.
 */
static size_t
expr_command_length(const char *text)
{
	const char *p = text;

	while ((p = strchr(p, '\n')) != NULL)
	{
		const char *before = p;

		if (before > text && before[-1] == '\r')
			before--;
		if (before == text || before[-1] != '\\')
			return (size_t) (p - text) + 1;
		p++;
	}
	return strlen(text);
}

expr_node *
expr_parse(const char *line, size_t start, struct var_symtab *symtab,
		   expr_error *err)
{
	expr_parse_state ps = {
		.line = line,
		.scan_start = start,
		.symtab = symtab,
		.err = err,
	};
	void	   *scanner;
	int			rc;

	err->message[0] = '\0';
	err->detail[0] = '\0';
	err->column = -1;

	scanner = expr_scan_begin(&ps, line + start, expr_command_length(line + start));
	if (scanner == NULL)
	{
		expr_set_error(&ps, false, "expression too long", NULL, 0);
		return NULL;
	}
	rc = expr_yyparse(scanner, &ps);
	if (rc != 0)
	{
		if (!ps.failed)			/* only bison's own "memory exhausted" */
			expr_set_error(&ps, false, "memory exhausted", NULL, 0);
		expr_scan_to_end_of_line(scanner);
		expr_free(ps.result);
		ps.result = NULL;
	}
	else if (ps.result->pending > EXPR_MAX_PENDING)
	{
		char		detail[64];
		int			len = snprintf(detail, sizeof(detail), "more than %d values pending",
								   EXPR_MAX_PENDING);

		expr_set_error(&ps, false, "expression too deeply nested", detail, len);
		expr_free(ps.result);
		ps.result = NULL;
	}
	else
		ps.result->prog = expr_prog_build(ps.result);
	expr_scan_end(scanner);
	return ps.result;
}
