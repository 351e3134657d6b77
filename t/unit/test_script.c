/*
 * test_script.c — unit tests of the script compiler: how scripts split
 * into commands (quotes, dollar quotes, comments, parentheses, "\;",
 * continuation lines), meta-command words and line numbers, the SQL
 * substitution plans (with the variables that are text in every mode:
 * in identifiers, psql's :'name' and :"name"), \sleep units, \if jump
 * targets, compile errors, and the builtin scripts.  Expected splits were
 * checked against pgbench 15.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/script.h"
#include "tap.h"

#define MAX_EXPECTED 8

/*
 * One command as "<line> SQL <text>" or "<line> \<word>|<word>...", with
 * " [gset:<prefix>]" / " [aset:<prefix>]" for SQL marked by \gset / \aset.
 */
static void
describe_command(const command *cmd, char *buf, size_t len)
{
	size_t		used;

	if (cmd->type == SQL_COMMAND)
	{
		used = (size_t) snprintf(buf, len, "%d SQL %s", cmd->line, cmd->sql.text);
		if (cmd->varprefix != NULL && used < len)
			snprintf(buf + used, len - used, " [%s:%s]",
					 cmd->meta == META_GSET ? "gset" : "aset", cmd->varprefix);
		return;
	}
	used = (size_t) snprintf(buf, len, "%d \\", cmd->line);
	for (int i = 0; i < cmd->argc && used < len; i++)
		used += (size_t) snprintf(buf + used, len - used, "%s%s",
								  i ? "|" : "", cmd->argv[i]);
}

typedef struct split_case
{
	const char *name;
	const char *script;
	const char *expected[MAX_EXPECTED];
} split_case;

static const split_case split_cases[] = {
	{"two lines", "select 1;\nselect 2;\n", {"1 SQL select 1;", "2 SQL select 2;"}},
	{"blanks and line comments dropped", "  -- c\n\n  select 1 ;  -- x\n",
	{"3 SQL select 1 ;"}},
	{"comment inside kept", "select 2 -- c\n ;", {"1 SQL select 2 -- c\n ;"}},
	{"block comment starts a command", "/* a /* ; */ ; */ select 1;",
	{"1 SQL /* a /* ; */ ; */ select 1;"}},
	{"quotes hide semicolons", "select ';', \"a;b\";select 2",
	{"1 SQL select ';', \"a;b\";", "1 SQL select 2"}},
	{"standard string keeps backslash", "select 'a\\'; select 2;",
	{"1 SQL select 'a\\';", "1 SQL select 2;"}},
	{"escape string", "select E'\\';', 1;\n", {"1 SQL select E'\\';', 1;"}},
	{"e ending an identifier is no escape string", "select name'x\\';'\n",
	{"1 SQL select name'x\\';", "1 SQL '\n"}},
	{"doubled quote", "select 'it''s;';", {"1 SQL select 'it''s;';"}},
	{"dollar quotes", "select $$a;b$$; select $x$ $$ ; $x$;",
	{"1 SQL select $$a;b$$;", "1 SQL select $x$ $$ ; $x$;"}},
	{"dollar inside identifier", "select a$b; select $1;",
	{"1 SQL select a$b;", "1 SQL select $1;"}},
	{"parentheses", "select (1;\n 2);\nselect 3;",
	{"1 SQL select (1;\n 2);", "3 SQL select 3;"}},
	{"compound with \\;", "select 1 \\; select 2;\n", {"1 SQL select 1 ; select 2;"}},
	{"\\: gives a colon", "select \\:x;", {"1 SQL select :x;"}},
	{"begin atomic body",
		"create function f() returns int language sql begin atomic select 1; select 2; end;\nselect 4;",
		{"1 SQL create function f() returns int language sql begin atomic select 1; select 2; end;",
	"2 SQL select 4;"}},
	{"case inside begin atomic",
		"create or replace procedure p() begin atomic select case when true then 1 end; end;\nselect 5;",
		{"1 SQL create or replace procedure p() begin atomic select case when true then 1 end; end;",
	"2 SQL select 5;"}},
	{"plain begin is not a body", "begin;\nselect 1;\nend;",
	{"1 SQL begin;", "2 SQL select 1;", "3 SQL end;"}},
	{"no final semicolon", "select 4  \n  \n", {"1 SQL select 4  \n  \n"}},
	{"unterminated quote", "select 'abc;\n", {"1 SQL select 'abc;\n"}},
	{"meta-commands and lines", "\n\\set x 1\nselect :x;\n\n\\sleep 2 ms\n",
	{"2 \\set|x", "3 SQL select :x;", "5 \\sleep|2|ms"}},
	{"meta-command names ignore case", "\\SET x 1\n\\Sleep 1\n", {"1 \\SET|x", "2 \\Sleep|1"}},
	{"continuation lines", "\\set x 1 + \\\n 2\nselect 1;",
	{"1 \\set|x", "3 SQL select 1;"}},
	{"continuation after a word", "\\shell echo a\\\nb \\\n c\n\\sleep 1",
	{"1 \\shell|echo|a|b|c", "4 \\sleep|1"}},
	{"backslash-backslash-newline", "\\shell a\\\\\nb\n", {"1 \\shell|a\\|b"}},
	{"space after backslash", "select 1;\n  \\ sleep 1\n", {"1 SQL select 1;", "2 \\sleep|1"}},
	{"lone backslash ignored", "select 1;\n\\\n\\sleep 1\n", {"1 SQL select 1;", "3 \\sleep|1"}},
	{"SQL before backslash", "select 1 \\gset p_\nselect 2 \\aset",
	{"1 SQL select 1  [gset:p_]", "2 SQL select 2  [aset:]"}},
	{"gset after semicolon", "select 1;\n\\gset\n", {"1 SQL select 1; [gset:]"}},
	{"backslash in quotes is text", "select 'a \\set x 1\n';",
	{"1 SQL select 'a \\set x 1\n';"}},
	{"parentheses survive a meta-command", "select (1 \\sleep 1\nselect 2; select 3;\n",
	{"1 SQL select (1 ", "1 \\sleep|1", "2 SQL select 2; select 3;\n"}},
	{"CRLF line ends", "\\sleep 1\r\nselect 1;\r\n", {"1 \\sleep|1", "2 SQL select 1;"}},
	{"letters glued to a number", "select 1e$a$ ; $a$;", {"1 SQL select 1e$a$ ;", "1 SQL $a$;"}},
	{"dollar quote after a failed exponent", "select 1e+$a$ ; $a$;", {"1 SQL select 1e+$a$ ; $a$;"}},
};

static void
test_split(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(split_cases); i++)
	{
		const split_case *c = &split_cases[i];
		script_set *set = script_set_create();
		script_error err;
		int			nexpected = 0;

		while (nexpected < MAX_EXPECTED && c->expected[nexpected])
			nexpected++;
		if (!tap_ok(script_compile(set, "t.sql", c->script, 1, &err),
					"split: %s: compiles", c->name))
		{
			tap_diag("error: %s", err.headline ? err.headline : err.message);
			script_error_clear(&err);
			script_set_free(set);
			continue;
		}
		tap_is_int(set->scripts[0].ncommands, nexpected, "split: command count");
		for (int j = 0; j < nexpected && j < set->scripts[0].ncommands; j++)
		{
			char		got[512];

			describe_command(set->scripts[0].commands[j], got, sizeof(got));
			tap_is_str(got, c->expected[j], c->name);
		}
		script_set_free(set);
	}
}

/* ---- SQL plans ---------------------------------------------------------- */

typedef struct plan_case
{
	const char *sql;
	const char *param_text;
	int			nparams;
	int			nparts;
	int			nstatements;
} plan_case;

static const plan_case plan_cases[] = {
	{"select 1;", "select 1;", 0, 1, 1},
	{"select :a, :b::int;", "select $1, $2::int;", 2, 3, 1},
	{"select ':a', a::text, x:::y, :1, ::z;", "select '$1', a::text, x:::y, :1, ::z;", 1, 2, 1},
	{"select :a + :a;", "select $1 + $2;", 2, 3, 1},
	{"select :\xc3\xa9t\xc3\xa9_1;", "select $1;", 1, 2, 1},
	{"select :a \\; select :b;", "select $1 ; select $2;", 2, 3, 2},
	{"select :x:y;", "select $1$2;", 2, 3, 1},
};

static void
test_plans(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(plan_cases); i++)
	{
		const plan_case *c = &plan_cases[i];
		script_set *set = script_set_create();
		script_error err;
		const command *cmd;
		char		rebuilt[256] = "";

		if (!tap_ok(script_compile(set, "t.sql", c->sql, 1, &err), "plan: %s compiles", c->sql))
		{
			script_error_clear(&err);
			script_set_free(set);
			continue;
		}
		cmd = set->scripts[0].commands[0];
		tap_is_str(cmd->sql.param_text, c->param_text, "plan: $n text");
		tap_is_int(cmd->sql.nparams, c->nparams, "plan: parameter count");
		tap_is_int(cmd->sql.nparts, c->nparts, "plan: part count");
		tap_is_int(cmd->sql.nstatements, c->nstatements, "plan: statement count");

		/* the parts, with every variable left as written, give the text back */
		for (int j = 0; j < cmd->sql.nparts; j++)
		{
			const sql_part *p = &cmd->sql.parts[j];

			strncat(rebuilt, p->text, p->len);
			if (p->slot >= 0)
				strncat(rebuilt, p->ref, p->ref_len);
		}
		tap_is_str(rebuilt, cmd->sql.text, "plan: parts cover the text");
		tap_ok(!cmd->sql.dynamic && cmd->sql.text_parts == NULL, "plan: %s is static", c->sql);
		script_set_free(set);
	}
}

/*
 * Variables that are text in every mode.  "plan" shows text_parts (the
 * plan over the $n text) with each reference as {kind:name}: T inside a
 * double-quoted identifier, L for :'name', I for :"name".  A case with an
 * empty plan is static: its references are all parameters, whatever they
 * look like.
 */
typedef struct dynamic_case
{
	const char *sql;
	const char *param_text;
	int			nparams;
	const char *plan;
} dynamic_case;

static const dynamic_case dynamic_cases[] = {
	{"SELECT pad FROM \"sbtest:client_id\" WHERE id = :id1;",
		"SELECT pad FROM \"sbtest:client_id\" WHERE id = $1;", 1,
	"SELECT pad FROM \"sbtest{T:client_id}\" WHERE id = $1;"},
	{"select :'v', :\"w\", :x", "select :'v', :\"w\", $1", 1, "select {L:v}, {I:w}, $1"},
	{"select ':''v''', \"a:b\", $$:'c'$$, $t$ \"$$:d\" $t$, :x::text",
		"select ':''v''', \"a:b\", $$:'c'$$, $t$ \"$$$1\" $t$, $2::text", 2,
	"select ':''v''', \"a{T:b}\", $$:'c'$$, $t$ \"$$$1\" $t$, $2::text"},
	{"select \"a\"\"b:c\", :'v'::text", "select \"a\"\"b:c\", :'v'::text", 0,
	"select \"a\"\"b{T:c}\", {L:v}::text"},
	{"select 1 -- :'v' \"a:x\"\n, /* :\"w\" /* */ \"b:y\" */ :'z'",
		"select 1 -- :'v' \"a$1\"\n, /* :\"w\" /* */ \"b$2\" */ :'z'", 2,
	"select 1 -- :'v' \"a$1\"\n, /* :\"w\" /* */ \"b$2\" */ {L:z}"},
	{"select E'\\' :\"w\"', 1::\"int4\", x::'y', :'1a', :\"w",
	"select E'\\' :\"w\"', 1::\"int4\", x::'y', :'1a', :\"w", 0, ""},
	{"select e'it''s :\"w\"', x", "select e'it''s :\"w\"', x", 0, ""},
	{"select name':\"w\"' :'v'", "select name':\"w\"' :'v'", 0, "select name':\"w\"' {L:v}"},
	{"select a$b$ :'v', $1 :'w'", "select a$b$ :'v', $1 :'w'", 0, "select a$b$ {L:v}, $1 {L:w}"},
};

static void
describe_text_parts(const sql_command *sql, const var_symtab *symtab, char *buf, size_t len)
{
	static const char kinds[] = {'P', 'T', 'L', 'I'};
	size_t		used = 0;

	buf[0] = '\0';
	for (int i = 0; i < sql->ntext_parts && used < len; i++)
	{
		const sql_part *p = &sql->text_parts[i];

		used += (size_t) snprintf(buf + used, len - used, "%.*s", (int) p->len, p->text);
		if (p->slot >= 0 && used < len)
			used += (size_t) snprintf(buf + used, len - used, "{%c:%s}", kinds[p->kind],
									  var_symtab_name(symtab, p->slot));
	}
}

static void
test_dynamic_plans(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(dynamic_cases); i++)
	{
		const dynamic_case *c = &dynamic_cases[i];
		script_set *set = script_set_create();
		script_error err;
		const sql_command *sql;
		char		plan[512];

		if (!tap_ok(script_compile(set, "t.sql", c->sql, 1, &err), "dynamic: %s compiles", c->sql))
		{
			script_error_clear(&err);
			script_set_free(set);
			continue;
		}
		sql = &set->scripts[0].commands[0]->sql;
		tap_is_str(sql->param_text, c->param_text, "dynamic: $n text");
		tap_is_int(sql->nparams, c->nparams, "dynamic: parameter count");
		tap_is_int(sql->dynamic, c->plan[0] != '\0', "dynamic: whether dynamic");
		describe_text_parts(sql, set->symtab, plan, sizeof(plan));
		tap_is_str(plan, c->plan, "dynamic: text references");
		script_set_free(set);
	}
}

static void
test_plan_slots(void)
{
	script_set *set = script_set_create();
	script_error err;
	const command *cmd;

	tap_ok(script_compile(set, "t.sql", "\\set b 1\nselect :a, :b, :a;", 1, &err),
		   "slots: compiles");
	cmd = set->scripts[0].commands[1];
	tap_is_int(cmd->sql.param_slots[0], var_symtab_find(set->symtab, "a", 1), "slots: $1 is a");
	tap_is_int(cmd->sql.param_slots[1], set->scripts[0].commands[0]->var_slot, "slots: $2 is b, as \\set b");
	tap_is_int(cmd->sql.param_slots[2], cmd->sql.param_slots[0], "slots: $3 is a again");
	tap_is_str(set->scripts[0].commands[0]->first_line, "\\set b 1", "slots: \\set first line");
	script_set_free(set);
}

/* ---- meta-command details ----------------------------------------------- */

typedef struct sleep_case
{
	const char *script;
	int64_t		usec;
	bool		variable;
	int64_t		unit;
} sleep_case;

static const sleep_case sleep_cases[] = {
	{"\\sleep 2", 2000000, false, 1000000},
	{"\\sleep 10ms", 10000, false, 1000},
	{"\\sleep 10 MS", 10000, false, 1000},
	{"\\sleep 7us", 7, false, 1},
	{"\\sleep +5 s", 5000000, false, 1000000},
	{"\\sleep -3 us", -3, false, 1},
	{"\\sleep +", 0, false, 1000000},
	{"\\sleep :t", 0, true, 1000000},
	{"\\sleep :t ms", 0, true, 1000},
};

static void
test_sleep(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(sleep_cases); i++)
	{
		const sleep_case *c = &sleep_cases[i];
		script_set *set = script_set_create();
		script_error err;
		const command *cmd;

		if (!tap_ok(script_compile(set, "t.sql", c->script, 1, &err), "sleep: %s", c->script))
		{
			script_error_clear(&err);
			script_set_free(set);
			continue;
		}
		cmd = set->scripts[0].commands[0];
		tap_is_int(cmd->meta, META_SLEEP, "sleep: meta");
		tap_is_int(cmd->sleep_unit_usec, c->unit, "sleep: unit");
		if (c->variable)
			tap_is_int(cmd->sleep_slot, var_symtab_find(set->symtab, "t", 1), "sleep: variable slot");
		else
		{
			tap_is_int(cmd->sleep_slot, -1, "sleep: no variable");
			tap_is_int(cmd->sleep_usec, c->usec, "sleep: microseconds");
		}
		script_set_free(set);
	}
}

static void
test_shell(void)
{
	script_set *set = script_set_create();
	script_error err;
	const command *cmd;

	tap_ok(script_compile(set, "t.sql", "\\setshell out echo :v ::lit x\n\\shell :cmd", 1, &err),
		   "shell: compiles");
	cmd = set->scripts[0].commands[0];
	tap_is_int(cmd->meta, META_SETSHELL, "shell: setshell meta");
	tap_is_int(cmd->var_slot, var_symtab_find(set->symtab, "out", 3), "shell: target slot");
	tap_is_int(cmd->nshell_args, 4, "shell: argument count");
	tap_is_str(cmd->shell_args[0].text, "echo", "shell: literal word");
	tap_is_int(cmd->shell_args[1].slot, var_symtab_find(set->symtab, "v", 1), "shell: variable word");
	tap_is_str(cmd->shell_args[2].text, ":lit", "shell: :: gives a literal colon");
	tap_is_int(cmd->shell_args[2].slot, -1, "shell: :: is no variable");
	cmd = set->scripts[0].commands[1];
	tap_is_int(cmd->meta, META_SHELL, "shell: shell meta");
	tap_is_int(cmd->shell_args[0].slot, var_symtab_find(set->symtab, "cmd", 3), "shell: command from a variable");
	script_set_free(set);
}

/* ---- \if chains --------------------------------------------------------- */

static void
test_conditionals(void)
{
	/* 0 if, 1 A, 2 elif, 3 if, 4 B, 5 endif, 6 else, 7 C, 8 endif, 9 D */
	static const char *text =
		"\\if 1\nselect 'A';\n\\elif 2\n\\if 3\nselect 'B';\n\\endif\n"
		"\\else\nselect 'C';\n\\endif\nselect 'D';\n";
	static const struct
	{
		int			index;
		meta_command meta;
		int			jump_false;
		int			jump_end;
	}			expected[] = {
		{0, META_IF, 2, 8},
		{2, META_ELIF, 6, 8},
		{3, META_IF, 5, 5},
		{6, META_ELSE, 8, 8},
	};
	script_set *set = script_set_create();
	script_error err;

	if (!tap_ok(script_compile(set, "t.sql", text, 1, &err), "if: compiles"))
	{
		tap_diag("error: %s", err.headline ? err.headline : err.message);
		script_error_clear(&err);
		script_set_free(set);
		return;
	}
	tap_is_int(set->scripts[0].ncommands, 10, "if: command count");
	for (size_t i = 0; i < PGB_LENGTHOF(expected); i++)
	{
		const command *cmd = set->scripts[0].commands[expected[i].index];

		tap_is_int(cmd->meta, expected[i].meta, "if: meta");
		tap_is_int(cmd->jump_false, expected[i].jump_false, "if: jump when false");
		tap_is_int(cmd->jump_end, expected[i].jump_end, "if: jump to end");
		tap_ok(cmd->expr != NULL || cmd->meta == META_ELSE, "if: expression parsed");
	}
	script_set_free(set);
}

/* ---- errors ------------------------------------------------------------- */

typedef struct error_case
{
	const char *script;
	const char *headline;
	const char *line;			/* NULL: none shown */
	int			column;
} error_case;

static const error_case error_cases[] = {
	{"\\foo bar\n", "bad.sql:1: invalid command in command \"foo\"", "\\foo bar", -1},
	{"\\set\n", "bad.sql:1: missing argument in command \"set\"", NULL, -1},
	{"\\sleep\n", "bad.sql:1: missing argument in command \"sleep\"", "\\sleep", -1},
	{"\\sleep 1 2 3\n", "bad.sql:1: too many arguments in command \"sleep\"", "\\sleep 1 2 3", 11},
	{"\\sleep abc\n", "bad.sql:1: invalid sleep time, must be an integer (abc) in command \"sleep\"",
	"\\sleep abc", 7},
	{"\\sleep 10week\n", "bad.sql:1: unrecognized time unit, must be us, ms or s (week) in command \"sleep\"",
	"\\sleep 10week", 9},
	{"\\sleep 5ms ms\n", "bad.sql:1: invalid sleep time, must be an integer (5ms) in command \"sleep\"",
	"\\sleep 5ms ms", 7},
	{"\\sleep 1 \\\n 2 3\n", "bad.sql:1: too many arguments in command \"sleep\"", "\\sleep 1 \\\n 2 3", 14},
	{"\\setshell x\n", "bad.sql:1: missing argument in command \"setshell\"", "\\setshell x", -1},
	{"\\shell\n", "bad.sql:1: missing command in command \"shell\"", "\\shell", -1},
	{"\\else x\n", "bad.sql:1: unexpected argument in command \"else\"", "\\else x", -1},
	{"\\syncpipeline x\n", "bad.sql:1: unexpected argument in command \"syncpipeline\"", "\\syncpipeline x", -1},
	{"select 1 \\gset a b\n", "bad.sql:1: too many arguments in command \"gset\"", "\\gset a b", -1},
	{"\\gset\n", "bad.sql:1: \\gset must follow an SQL command", NULL, -1},
	{"\\set i 1\n\n\n   \\aset\n", "bad.sql:2: \\gset must follow an SQL command (\\set i 1)", NULL, -1},
	{"select 1;\n\n\n   \\gset\n\\gset", "bad.sql:5: \\gset must follow an SQL command", NULL, -1},
	{"\\foo\r\n", "bad.sql:1: invalid command in command \"foo\"", "\\foo", -1},
	{"select 1 \\\\ 2;\n", "bad.sql:1: invalid command in command \"\\\"", "\\\\ 2;", -1},
	{"\\sleep 1 2 x\\\ny\n", "bad.sql:1: too many arguments in command \"sleep\"", "\\sleep 1 2 x\\\ny", 13},
	{"\\gset\n\n\n", "bad.sql:3: \\gset must follow an SQL command", NULL, -1},
	{"\n", "empty command list for script \"bad.sql\"", NULL, -1},
	{"-- only a comment\n", "empty command list for script \"bad.sql\"", NULL, -1},
	{"\\if 1\nselect 1;\n", "condition error in script \"bad.sql\" command 3: \\if without matching \\endif", NULL, -1},
	{"\\else\n", "condition error in script \"bad.sql\" command 1: \\else without matching \\if", NULL, -1},
	{"\\if 1\n\\else\n\\elif 0\n\\endif\n", "condition error in script \"bad.sql\" command 3: \\elif after \\else", NULL, -1},
	{"select 1;\n\\if 1\n\\else\n\\else\n\\endif\n", "condition error in script \"bad.sql\" command 4: \\else after \\else", NULL, -1},
	{"\\set x 1\n\\endif\n", "condition error in script \"bad.sql\" command 2: \\endif without matching \\if", NULL, -1},
};

static void
test_errors(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(error_cases); i++)
	{
		const error_case *c = &error_cases[i];
		script_set *set = script_set_create();
		script_error err;

		if (!tap_ok(!script_compile(set, "bad.sql", c->script, 1, &err), "error: %s fails", c->headline))
		{
			script_set_free(set);
			continue;
		}
		tap_is_str(err.headline, c->headline, "error: headline");
		tap_ok((c->line == NULL && err.line == NULL) ||
			   (c->line != NULL && err.line != NULL && strcmp(c->line, err.line) == 0),
			   "error: line shown for %s", c->headline);
		tap_is_int(err.column, c->column, "error: caret column");
		tap_is_int(set->nscripts, 0, "error: nothing added");
		script_error_clear(&err);
		script_set_free(set);
	}
}

static void
test_too_many(void)
{
	script_set *set = script_set_create();
	script_error err;
	char	   *text = malloc(300 * 4 + 32);
	char	   *p = text;
	char		expected[80];

	/* 255 words after the command name is pgbench's limit */
	p += sprintf(p, "\\shell");
	for (int i = 0; i < 255; i++)
		p += sprintf(p, " a");
	tap_ok(script_compile(set, "t.sql", text, 1, &err), "limits: 255 shell arguments pass");
	strcpy(p, " a");
	tap_ok(!script_compile(set, "t.sql", text, 1, &err), "limits: 256 shell arguments fail");
	tap_is_str(err.headline, "t.sql:1: too many arguments in command \"shell\"", "limits: message");
	script_error_clear(&err);

	p = text;
	p += sprintf(p, "select");
	for (int i = 0; i < 255; i++)
		p += sprintf(p, " :v");
	strcpy(p, ";\n");
	tap_ok(script_compile(set, "t.sql", text, 1, &err), "limits: 255 parameters compile");
	tap_ok(script_set_check_params(set, &err), "limits: 255 parameters are fine in extended mode");
	strcpy(p, " :v;\n");
	tap_ok(script_compile(set, "u.sql", text, 1, &err), "limits: 256 parameters compile");
	tap_ok(!script_set_check_params(set, &err), "limits: 256 parameters fail in extended mode");
	snprintf(expected, sizeof(expected),
			 "statement has too many arguments (maximum is 255): select :v :v");
	tap_ok(err.headline && strncmp(err.headline, expected, strlen(expected)) == 0 &&
		   strcmp(err.headline + strlen(err.headline) - 4, " :v;") == 0,
		   "limits: message shows the whole SQL");
	script_error_clear(&err);
	free(text);
	script_set_free(set);
}

static void
test_set_bookkeeping(void)
{
	script_set *set = script_set_create();
	script_error err;

	tap_ok(script_compile(set, "a.sql", "select 1;", 3, &err), "set: first script");
	tap_ok(script_compile(set, "b.sql", "select 2;", 0, &err), "set: weight zero is allowed");
	tap_is_int(set->nscripts, 2, "set: two scripts");
	tap_is_int(set->total_weight, 3, "set: total weight");
	tap_is_str(set->scripts[1].desc, "b.sql", "set: description");
	while (set->nscripts < PGB_MAX_SCRIPTS)
		script_compile(set, "c.sql", "select 3;", 1, &err);
	tap_ok(!script_compile(set, "d.sql", "select 4;", 1, &err), "set: too many scripts");
	tap_is_str(err.headline, "at most 128 SQL scripts are allowed", "set: too many scripts message");
	script_error_clear(&err);
	script_set_free(set);
}

/* ---- builtins ----------------------------------------------------------- */

static void
test_builtins(void)
{
	static const struct
	{
		const char *name;
		const char *found;		/* NULL: none */
		bool		ambiguous;
		int			ncommands;
	}			cases[] = {
		{"tpcb-like", "tpcb-like", false, 11},
		{"t", "tpcb-like", false, 11},
		{"simple-update", "simple-update", false, 9},
		{"si", "simple-update", false, 9},
		{"select-only", "select-only", false, 2},
		{"se", "select-only", false, 2},
		{"s", NULL, true, 0},
		{"", NULL, true, 0},
		{"x", NULL, false, 0},
		{"tpcb-likes", NULL, false, 0},
	};

	tap_is_int(builtin_script_count, 3, "builtin: three scripts");
	tap_is_str(builtin_scripts[0].desc, "<builtin: TPC-B (sort of)>", "builtin: tpcb-like description");
	tap_is_str(builtin_scripts[1].desc, "<builtin: simple update>", "builtin: simple-update description");
	tap_is_str(builtin_scripts[2].desc, "<builtin: select only>", "builtin: select-only description");
	tap_is_int(builtin_count_matches("s"), 2, "builtin: two match s");
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		bool		ambiguous = !cases[i].ambiguous;
		const builtin_script *b = builtin_find(cases[i].name, &ambiguous);

		tap_is_str(b ? b->name : "(none)", cases[i].found ? cases[i].found : "(none)",
				   "builtin: lookup");
		tap_ok(ambiguous == cases[i].ambiguous, "builtin: \"%s\" ambiguity", cases[i].name);
		if (b)
		{
			script_set *set = script_set_create();
			script_error err;

			tap_ok(script_compile(set, b->desc, b->script, 1, &err), "builtin: %s compiles", b->name);
			tap_is_int(set->scripts[0].ncommands, cases[i].ncommands, "builtin: command count");
			script_set_free(set);
		}
	}
	tap_ok(strstr(builtin_scripts[2].script, "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n") != NULL,
		   "builtin: select-only text");
}

int
main(void)
{
	test_split();
	test_plans();
	test_dynamic_plans();
	test_plan_slots();
	test_sleep();
	test_shell();
	test_conditionals();
	test_errors();
	test_too_many();
	test_set_bookkeeping();
	test_builtins();
	return tap_done();
}
