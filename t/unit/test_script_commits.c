/*
 * test_script_commits.c — unit tests of script_commits_of: what one pass
 * of a compiled script commits on the server (autocommit statements,
 * blocks, rollbacks, savepoints, chains, compounds, pipeline syncs), when
 * the count is unknown and why, and the SQL command counts -M prepared
 * uses.  Expected counts follow PostgreSQL 15's xact_commit.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/script/script.h"
#include "tap.h"

/* One script: its text and what a pass commits (why NULL: known). */
typedef struct commits_case
{
	const char *name;
	const char *script;
	int			per_pass;
	const char *why;
	int			sql_commands;
} commits_case;

static const commits_case cases[] = {
	{"three autocommit statements", "select 1;\nset x.y = 1;\nshow x.y;\n", 3, NULL, 3},
	{"meta-commands commit nothing", "\\set a 1\n\\sleep 1 ms\nselect :a;\n", 1, NULL, 1},
	{"begin rollback", "begin;\nupdate t set a = 1;\nrollback;\n", 0, NULL, 3},
	{"abort", "BEGIN;\nselect 1;\nABORT;\n", 0, NULL, 3},
	{"savepoint and rollback to in a block",
		"begin;\nsavepoint s;\nselect 1;\nrollback to savepoint s;\nrelease s;\n"
	"rollback work to s;\ncommit;\n", 1, NULL, 7},
	{"compound", "select 1 \\; select 2;\n", 1, NULL, 1},
	{"compound with a quoted semicolon", "select ';begin' \\; select $$;commit$$;\n", 1, NULL, 1},
	{"compound in a block", "begin;\nselect 1 \\; select 2;\nend;\n", 1, NULL, 3},
	{"compound with begin", "begin \\; select 1 \\; commit;\n", 0,
	"a compound with transaction control", 1},
	{"compound with commit later", "select 1 \\; /* x */ COMMIT;\n", 0,
	"a compound with transaction control", 1},
	{"pipeline with a sync in the middle",
		"\\startpipeline\nselect 1;\nselect 2;\n\\syncpipeline\nselect 3;\n\\endpipeline\n",
	2, NULL, 3},
	{"empty pipeline segments", "\\startpipeline\n\\syncpipeline\nselect 1;\n\\endpipeline\n", 1, NULL, 1},
	{"begin takes the pipeline's pending statements",
		"\\startpipeline\nselect 1;\nbegin;\nselect 2;\ncommit;\nselect 3;\n\\endpipeline\n",
	2, NULL, 5},
	{"block across a sync", "\\startpipeline\nbegin;\nselect 1;\n\\syncpipeline\nend;\n\\endpipeline\n",
	1, NULL, 3},
	{"comments before begin", "-- lead\n/* a /* nested */ c */ -- x\n BEGIN;\nselect 1;\n/**/end;\n",
	1, NULL, 3},
	{"lower-case keywords", "start transaction;\nselect 1;\ncommit work;\n", 1, NULL, 3},
	{"begin with options", "Begin Isolation Level Serializable;\nselect 1;\nEnd Transaction;\n",
	1, NULL, 3},
	{"commit and chain", "begin;\nselect 1;\ncommit and chain;\nselect 2;\ncommit;\n", 2, NULL, 5},
	{"rollback and chain", "begin;\nrollback and chain;\nselect 1;\ncommit and no chain;\n", 1, NULL, 4},
	{"words that only start like keywords", "beginning;\nstart transactions;\nprepare p as select 1;\n",
	3, NULL, 3},
	{"call in a block", "begin;\ncall p();\ncommit;\n", 1, NULL, 3},
	{"\\if", "\\if 1\nselect 1;\n\\endif\n", 0, "\\if", 1},
	{"\\shell", "\\shell true\nselect 1;\n", 0, "\\shell", 1},
	{"\\setshell", "select 1;\n\\setshell x echo 1\n", 0, "\\setshell", 1},
	{"ends inside begin", "begin;\nselect 1;\n", 0, "a transaction left open at the end", 2},
	{"pipeline left open", "\\startpipeline\nselect 1;\n", 0, "a pipeline left open at the end", 1},
	{"sync outside a pipeline", "select 1;\n\\syncpipeline\n", 0, "a pipeline command out of place", 1},
	{"commit outside a block", "select 1;\ncommit;\n", 0, "COMMIT outside a transaction block", 2},
	{"rollback outside a block", "rollback;\n", 0, "ROLLBACK outside a transaction block", 1},
	{"savepoint outside a block", "savepoint s;\n", 0, "SAVEPOINT outside a transaction block", 1},
	{"prepare transaction", "begin;\nselect 1;\nprepare transaction 'g';\n", 0, "PREPARE TRANSACTION", 3},
	{"commit prepared", "COMMIT PREPARED 'g';\n", 0, "COMMIT PREPARED", 1},
	{"rollback prepared", "rollback prepared 'g';\n", 0, "ROLLBACK PREPARED", 1},
	{"call outside a block", "call p();\n", 0, "CALL or DO outside a transaction block", 1},
	{"vacuum", "vacuum t;\n", 0, "VACUUM", 1},
	{"create index concurrently", "create unique index concurrently i on t (a);\n", 0,
	"CREATE or DROP INDEX CONCURRENTLY", 1},
	{"unknown stops the walk, not the SQL count", "\\if 1\n\\endif\nselect 1;\nselect 2;\n", 0, "\\if", 2},
	{"unterminated comment", "select 1 \\; /* never closed\n", 1, NULL, 1},
};

static void
check_case(const commits_case *c)
{
	script_set *set = script_set_create();
	script_error err;
	script_commits sc;

	if (!tap_ok(script_compile(set, "t.sql", c->script, 1, &err), "%s: compiles", c->name))
	{
		script_error_clear(&err);
		script_set_free(set);
		return;
	}
	memset(&sc, 0x7f, sizeof(sc));
	script_commits_of(&set->scripts[0], &sc);
	tap_ok(sc.known == (c->why == NULL), "%s: known is %s", c->name, c->why ? "false" : "true");
	tap_is_str(sc.why ? sc.why : "(null)", c->why ? c->why : "(null)", c->name);
	tap_is_int(sc.per_pass, c->per_pass, c->name);
	tap_is_int(sc.sql_commands, c->sql_commands, c->name);
	tap_ok(!sc.dynamic, "%s: not dynamic", c->name);
	script_set_free(set);
}

/* The builtins: one transaction (or statement) per pass. */
static void
test_builtins(void)
{
	static const struct
	{
		const char *name;
		int			sql_commands;
	}			expected[] = {
		{"tpcb-like", 7}, {"simple-update", 5}, {"select-only", 1},
	};

	for (size_t i = 0; i < PGB_LENGTHOF(expected); i++)
	{
		bool		ambiguous;
		const builtin_script *b = builtin_find(expected[i].name, &ambiguous);
		script_set *set = script_set_create();
		script_error err;
		script_commits sc;

		if (!tap_ok(b != NULL && script_compile(set, b->desc, b->script, 1, &err),
					"builtin %s compiles", expected[i].name))
		{
			script_set_free(set);
			continue;
		}
		script_commits_of(&set->scripts[0], &sc);
		tap_ok(sc.known && sc.why == NULL, "builtin %s: known", b->name);
		tap_is_int(sc.per_pass, 1, "builtin: one commit per pass");
		tap_is_int(sc.sql_commands, expected[i].sql_commands, "builtin: SQL commands");
		tap_ok(!sc.dynamic, "builtin %s: not dynamic", b->name);
		script_set_free(set);
	}
}

/* A dynamic command (a text reference) is flagged, known or not. */
static void
test_dynamic(void)
{
	script_set *set = script_set_create();
	script_error err;
	script_commits sc;

	if (tap_ok(script_compile(set, "t.sql", "\\set t 1\nselect 1;\nselect * from :\"t\";\n", 1, &err),
			   "dynamic: compiles"))
	{
		script_commits_of(&set->scripts[0], &sc);
		tap_ok(sc.dynamic, "dynamic: flagged");
		tap_is_int(sc.per_pass, 2, "dynamic: two commits");
		tap_is_int(sc.sql_commands, 2, "dynamic: two SQL commands");
	}
	else
		script_error_clear(&err);
	script_set_free(set);
}

/* A keyword-sized buffer must not be overrun by a long first word. */
static void
test_long_word(void)
{
	static char text[8192];
	script_set *set = script_set_create();
	script_error err;
	script_commits sc;

	memset(text, 'b', sizeof(text) - 3);
	memcpy(text, "begin", 5);
	memcpy(text + sizeof(text) - 3, ";\n", 3);
	if (tap_ok(script_compile(set, "t.sql", text, 1, &err), "long word: compiles"))
	{
		script_commits_of(&set->scripts[0], &sc);
		tap_ok(sc.known, "long word: known");
		tap_is_int(sc.per_pass, 1, "long word: no BEGIN, one statement");
	}
	else
		script_error_clear(&err);
	script_set_free(set);
}

int
main(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
		check_case(&cases[i]);
	test_builtins();
	test_dynamic();
	test_long_word();
	return tap_done();
}
