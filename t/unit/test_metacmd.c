/*
 * test_metacmd.c — meta-commands on their own, without a server: \set
 * writes the given variable store, \if chains return the jump their
 * compiled targets say, \sleep returns its end time, and failures come
 * back as records in pgbench's words instead of being printed.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/engine/metacmd.h"
#include "tap.h"

typedef struct fixture
{
	script_set *set;
	var_store	vars;
	prng_state	rs;
	eval_context ectx;
	client_failure failure;
} fixture;

static bool
fixture_init(fixture *fx, const char *text)
{
	script_error err;

	memset(fx, 0, sizeof(*fx));
	fx->set = script_set_create();
	if (!script_compile(fx->set, "t.sql", text, 1, &err))
	{
		script_error_clear(&err);
		return false;
	}
	var_store_init(&fx->vars, fx->set->symtab);
	fx->ectx.vars = &fx->vars;
	fx->ectx.rs = &fx->rs;
	fx->ectx.debug_out = stderr;
	return true;
}

static void
fixture_free(fixture *fx)
{
	var_store_free(&fx->vars);
	script_set_free(fx->set);
}

/* Run command index cmd of the fixture's script. */
static metacmd_outcome
run(fixture *fx, int cmd, bool elif_pending, pg_time_usec_t now)
{
	metacmd_env env = {
		.client_id = 7, .script_index = 0, .script = &fx->set->scripts[0],
		.command = cmd, .elif_pending = elif_pending, .vars = &fx->vars,
		.ectx = &fx->ectx, .mode = QUERY_SIMPLE,
	};
	metacmd_outcome out = {.failure = &fx->failure};

	metacmd_execute(&env, fx->set->scripts[0].commands[cmd], now, &out);
	return out;
}

static int64_t
int_var(fixture *fx, const char *name)
{
	int			slot = var_symtab_find(fx->set->symtab, name, strlen(name));
	const char *text = var_get_string(&fx->vars, slot);

	return text != NULL ? atoll(text) : -1;
}

static void
test_set(void)
{
	fixture		fx;
	metacmd_outcome out;

	if (!tap_ok(fixture_init(&fx, "\\set a 20 + 22\n\\set b :a * 2\n"), "set: compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_DONE && out.next_command == 1, "\\set goes on to the next command");
	tap_ok(out.clock_stale, "\\set asks for a fresh clock");
	out = run(&fx, 1, false, 0);
	tap_is_int(int_var(&fx, "a"), 42, "\\set wrote the given store");
	tap_is_int(int_var(&fx, "b"), 84, "\\set reads earlier variables");
	fixture_free(&fx);
}

static void
test_if_chain(void)
{
	/* 0 \if, 1 \set, 2 \elif, 3 \set, 4 \else, 5 \set, 6 \endif */
	static const char text[] =
		"\\if :x = 1\n\\set r 1\n\\elif :x = 2\n\\set r 2\n\\else\n\\set r 3\n\\endif\n";
	fixture		fx;
	metacmd_outcome out;
	int			x;

	if (!tap_ok(fixture_init(&fx, text), "if chain: compiles"))
		return;
	x = var_symtab_find(fx.set->symtab, "x", 1);

	var_set_value(&fx.vars, x, pgb_value_int(1));
	out = run(&fx, 0, false, 0);
	tap_is_int(out.next_command, 1, "true \\if: into its branch");

	var_set_value(&fx.vars, x, pgb_value_int(2));
	out = run(&fx, 0, false, 0);
	tap_ok(out.next_command == 2 && out.elif_pending, "false \\if: to the \\elif, to be evaluated");
	out = run(&fx, 2, true, 0);
	tap_is_int(out.next_command, 3, "true pending \\elif: into its branch");
	out = run(&fx, 2, false, 0);
	tap_is_int(out.next_command, 7, "\\elif reached in sequence: past the \\endif");

	var_set_value(&fx.vars, x, pgb_value_int(3));
	out = run(&fx, 2, true, 0);
	tap_ok(out.next_command == 5 && !out.elif_pending, "false \\elif: past the \\else");
	out = run(&fx, 4, false, 0);
	tap_is_int(out.next_command, 7, "\\else reached in sequence: past the \\endif");
	fixture_free(&fx);
}

static void
test_sleep(void)
{
	fixture		fx;
	metacmd_outcome out;
	int			d;

	if (!tap_ok(fixture_init(&fx, "\\sleep 3 ms\n\\sleep :d s\n"), "sleep: compiles"))
		return;
	out = run(&fx, 0, false, 1000);
	tap_ok(out.next == METACMD_SLEEP && out.sleep_until == 4000, "\\sleep 3 ms from now");

	out = run(&fx, 1, false, 1000);
	tap_ok(out.next == METACMD_FAILED, "\\sleep :d with d unset fails");
	tap_is_int(fx.failure.ncauses, 1, "one cause line");
	tap_is_str(fx.failure.causes[0], "sleep: undefined variable \"d\"", "the cause");
	{
		char		line[2048];

		failure_format(&fx.failure, line, sizeof(line));
		tap_is_str(line, "client 7 aborted in command 1 (sleep) of script 0; "
				   "execution of meta-command failed", "the abort line");
	}

	d = var_symtab_find(fx.set->symtab, "d", 1);
	(void) var_set_string(&fx.vars, d, "x", 1);
	out = run(&fx, 1, false, 0);
	tap_is_str(fx.failure.causes[0], "sleep: invalid sleep time \"x\" for variable \"d\"",
			   "a non-number sleeps nowhere");
	(void) var_set_string(&fx.vars, d, "2", 1);
	out = run(&fx, 1, false, 10);
	tap_ok(out.next == METACMD_SLEEP && out.sleep_until == 2000010, "\\sleep :d s with d = 2");
	fixture_free(&fx);
}

static void
test_eval_failure(void)
{
	fixture		fx;
	metacmd_outcome out;
	char		line[2048];

	if (!tap_ok(fixture_init(&fx, "\\set a 1 / 0\n"), "division: compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_FAILED, "division by zero fails");
	tap_is_str(fx.failure.causes[0], "division by zero", "the evaluator's message is the cause");
	failure_format(&fx.failure, line, sizeof(line));
	tap_is_str(line, "client 7 aborted in command 0 (set) of script 0; "
			   "evaluation of meta-command failed", "the abort line names \\set");
	fixture_free(&fx);
}

/* pgbench checks a \set / \setshell target when it assigns, at run time. */
static void
test_invalid_target(void)
{
	static const char *const names[] = {".", "1x", "a-b", "9"};
	fixture		fx;
	metacmd_outcome out;
	char		text[64];
	char		line[2048];
	char		cause[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
	{
		snprintf(text, sizeof(text), "\\set x 1\n\\set %s :x + 1\n", names[i]);
		if (!tap_ok(fixture_init(&fx, text), "invalid \\set target compiles (pgbench accepts it)"))
			return;
		out = run(&fx, 0, false, 0);
		out = run(&fx, 1, false, 0);
		tap_ok(out.next == METACMD_FAILED, "\\set to an invalid name fails");
		tap_is_int(fx.failure.ncauses, 1, "one cause line");
		snprintf(cause, sizeof(cause), "set: invalid variable name: \"%s\"", names[i]);
		tap_is_str(fx.failure.causes[0], cause, "the cause names the target");
		failure_format(&fx.failure, line, sizeof(line));
		tap_is_str(line, "client 7 aborted in command 1 (set) of script 0; "
				   "assignment of meta-command failed", "the abort line: assignment failed");
		fixture_free(&fx);
	}

	/* the value is computed first: its error wins */
	if (!tap_ok(fixture_init(&fx, "\\set . 1 / 0\n"), "invalid target, failing value: compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_FAILED && fx.failure.ncauses == 1, "fails with one cause");
	tap_is_str(fx.failure.causes[0], "division by zero", "the evaluation's message comes first");
	fixture_free(&fx);

	if (!tap_ok(fixture_init(&fx, "\\setshell 1x echo 5\n"), "invalid \\setshell target compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_FAILED, "\\setshell to an invalid name fails");
	tap_is_str(fx.failure.causes[0], "setshell: invalid variable name: \"1x\"", "the cause");
	failure_format(&fx.failure, line, sizeof(line));
	tap_is_str(line, "client 7 aborted in command 0 (setshell) of script 0; "
			   "execution of meta-command failed", "the abort line: execution failed");
	fixture_free(&fx);

	if (!tap_ok(fixture_init(&fx, "\\set _a\xc3\xa9 1\n"), "non-ASCII target compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_DONE, "a name with non-ASCII letters is valid");
	fixture_free(&fx);
}

/* An empty (or NULL, stored by \gset as "") value fails without a cause line. */
static void
test_empty_value(void)
{
	static const char *const uses[] = {"\\set y :x + 1\n", "\\set y :x\n",
	"\\if :x\n\\endif\n"};
	fixture		fx;
	metacmd_outcome out;
	char		line[2048];

	for (size_t i = 0; i < sizeof(uses) / sizeof(uses[0]); i++)
	{
		if (!tap_ok(fixture_init(&fx, uses[i]), "empty value: compiles"))
			return;
		(void) var_set_string(&fx.vars, var_symtab_find(fx.set->symtab, "x", 1), "", 0);
		/* a stale cause from an earlier failure must not come back */
		fx.failure.ncauses = 1;
		out = run(&fx, 0, false, 0);
		tap_ok(out.next == METACMD_FAILED, "an empty value fails the evaluation");
		tap_is_int(fx.failure.ncauses, 0, "no cause line (no empty \"error: \" line)");
		failure_format(&fx.failure, line, sizeof(line));
		tap_ok(strstr(line, "evaluation of meta-command failed") != NULL, "the abort line");
		fixture_free(&fx);
	}
}

/*
 * \shell and \setshell run the command (variables replaced): a failure is
 * a cause line naming the command, then "execution of meta-command failed".
 */
static void
expect_shell_failure(const char *text, const char *cause)
{
	fixture		fx;
	metacmd_outcome out;
	char		line[2048];

	if (!tap_ok(fixture_init(&fx, text), "shell: compiles"))
		return;
	out = run(&fx, 0, false, 0);
	tap_ok(out.next == METACMD_FAILED, "shell failure: fails");
	tap_is_str(fx.failure.ncauses > 0 ? fx.failure.causes[0] : "", cause, "shell failure: the cause");
	failure_format(&fx.failure, line, sizeof(line));
	tap_ok(strstr(line, "execution of meta-command failed") != NULL, "shell failure: the abort line");
	fixture_free(&fx);
}

static void
test_shell(void)
{
	fixture		fx;
	metacmd_outcome out;
	char		longer[400];

	if (tap_ok(fixture_init(&fx, "\\set n 41\n\\setshell v expr :n + 1\n\\shell true\n"),
			   "setshell: compiles"))
	{
		run(&fx, 0, false, 0);
		out = run(&fx, 1, false, 0);
		tap_ok(out.next == METACMD_DONE, "setshell: done");
		tap_is_int(int_var(&fx, "v"), 42, "setshell: the command's output stored");
		out = run(&fx, 2, false, 0);
		tap_ok(out.next == METACMD_DONE, "shell: a command that succeeds");
		fixture_free(&fx);
	}
	expect_shell_failure("\\shell false\n", "false: could not launch shell command");
	expect_shell_failure("\\shell echo :nosuch\n", "echo: undefined variable \":nosuch\"");
	expect_shell_failure("\\setshell v echo abc\n",
						 "echo: shell command must return an integer (not \"abc\n\")");
	expect_shell_failure("\\setshell v true\n", "true: could not read result of shell command");
	snprintf(longer, sizeof(longer), "\\shell echo %0300d\n", 0);
	expect_shell_failure(longer, "echo: shell command is too long");
}

int
main(void)
{
	test_set();
	test_if_chain();
	test_sleep();
	test_eval_failure();
	test_invalid_target();
	test_empty_value();
	test_shell();
	return tap_done();
}
