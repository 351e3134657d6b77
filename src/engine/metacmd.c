/*
 * metacmd.c — meta-commands at run time: \set, \sleep, \shell, \setshell,
 * the \if chain (following the jump targets compiled into the script) and
 * the pipeline commands.  A failure fills the caller's record with
 * pgbench's cause and abort line ("client N aborted in command ...").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/diag.h"
#include "pgbench/engine/metacmd.h"

/* pgbench's limit on the joined words of \shell and \setshell. */
#define SHELL_COMMAND_SIZE 256

/* \setshell reads at most this much of the command's output. */
#define SHELL_RESULT_SIZE 64

/* The abort line of a meta-command: "... in command N (what) of script S; message". */
static void
meta_failed(const metacmd_env *env, metacmd_outcome *out, const char *what,
			const char *message)
{
	client_failure *f = out->failure;
	int			ncauses = f->ncauses;

	/* causes added before keep their place: only the position is set here */
	failure_set(f, FAILURE_COMMAND, env->client_id, env->script_index, env->command);
	f->ncauses = ncauses;
	snprintf(f->what, sizeof(f->what), "%s", what);
	failure_message(f, "%s", message);
	out->next = METACMD_FAILED;
}

/* Start a failure's record with its first cause line. */
#define meta_cause(out, ...) failure_cause((out)->failure, __VA_ARGS__)

static void
trace_meta(const metacmd_env *env, const command *cmd)
{
	char		line[1024];
	size_t		len;

	len = (size_t) snprintf(line, sizeof(line), "client %d executing \\%s",
							env->client_id, cmd->argv[0]);
	for (int i = 1; i < cmd->argc && len < sizeof(line); i++)
		len += (size_t) snprintf(line + len, sizeof(line) - len, " %s", cmd->argv[i]);
	diag_log(DIAG_DEBUG, "%s", line);
}

/* What a failed evaluation reports: the evaluator's cause, then the abort line. */
static void
report_evaluation(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	/* an empty or NULL string value fails without a word, as in pgbench */
	if (env->ectx->error[0] != '\0')
		meta_cause(out, "%s", env->ectx->error);
	meta_failed(env, out, cmd->argv[0], "evaluation of meta-command failed");
}

/* Evaluate cmd's expression as command index of script script_index (debug() says so). */
static bool
evaluate_at(eval_context *ectx, int script_index, int index, const command *cmd,
			pgb_value *result)
{
	ectx->script_index = script_index;
	ectx->command_number = index + 1;
	return expr_evaluate(ectx, cmd->expr, result);
}

static bool
evaluate(const metacmd_env *env, const command *cmd, metacmd_outcome *out,
		 pgb_value *result)
{
	if (evaluate_at(env->ectx, env->script_index, env->command, cmd, result))
		return true;
	report_evaluation(env, cmd, out);
	return false;
}

/*
 * The target of \set or \setshell must be a valid name.  Scripts accept
 * any word there; pgbench checks it when it first assigns, at run time,
 * after the value was computed: "CONTEXT: invalid variable name: ...".
 * The compiler checked the name once (cmd->target_valid).
 */
static bool
check_target(const command *cmd, const char *context, metacmd_outcome *out)
{
	if (PGB_LIKELY(cmd->target_valid))
		return true;
	meta_cause(out, "%s: invalid variable name: \"%s\"", context, cmd->argv[1]);
	return false;
}

/* ---- \if chains ------------------------------------------------------- */

/*
 * A condition was false: go to the chain's next branch.  An \elif there is
 * executed (its condition evaluated); an \else or \endif is passed over,
 * as pgbench skips them without running them.
 */
static void
take_false_branch(const script *s, int target, metacmd_outcome *out)
{
	if (target < s->ncommands && s->commands[target]->meta == META_ELIF)
	{
		out->next_command = target;
		out->elif_pending = true;
	}
	else
		out->next_command = target + 1;
}

static void
run_conditional(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	pgb_value	result;

	switch (cmd->meta)
	{
		case META_ELIF:
			if (!env->elif_pending)
			{
				/* an earlier branch ran: leave the chain */
				out->next_command = cmd->jump_end + 1;
				return;
			}
			/* FALLTHROUGH */
		case META_IF:
			if (evaluate(env, cmd, out, &result) && !value_truth(&result))
				take_false_branch(env->script, cmd->jump_false, out);
			return;
		case META_ELSE:
			/* reached in sequence: the branch before it ran */
			out->next_command = cmd->jump_end + 1;
			return;
		/* \endif does nothing; the rest are not conditionals (never passed here) */
		case META_ENDIF:
		case META_NONE:
		case META_SET:
		case META_SETSHELL:
		case META_SHELL:
		case META_SLEEP:
		case META_GSET:
		case META_ASET:
		case META_STARTPIPELINE:
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			return;
	}
}

/* ---- \sleep ----------------------------------------------------------- */

static void
run_sleep(const metacmd_env *env, const command *cmd, pg_time_usec_t now,
		  metacmd_outcome *out)
{
	int64_t		usec = cmd->sleep_usec;

	if (cmd->sleep_slot >= 0)
	{
		const char *value = var_get_string(env->vars, cmd->sleep_slot);
		int			amount;

		if (value == NULL)
		{
			meta_cause(out, "%s: undefined variable \"%s\"", cmd->argv[0], cmd->argv[1] + 1);
			meta_failed(env, out, "sleep", "execution of meta-command failed");
			return;
		}
		amount = atoi(value);
		if (amount == 0 && !isdigit((unsigned char) *value))
		{
			meta_cause(out, "%s: invalid sleep time \"%s\" for variable \"%s\"",
					   cmd->argv[0], value, cmd->argv[1] + 1);
			meta_failed(env, out, "sleep", "execution of meta-command failed");
			return;
		}
		/* pgbench computes in a C int, wrapping on overflow */
		usec = (int32_t) ((uint32_t) amount * (uint32_t) cmd->sleep_unit_usec);
	}
	out->sleep_until = now + usec;
	out->next = METACMD_SLEEP;
}

/* ---- \shell and \setshell -------------------------------------------- */

/* The word as written in the script for shell argument i. */
static const char *
shell_word(const command *cmd, int i)
{
	int			first = cmd->argc - cmd->nshell_args;

	return i < cmd->nshell_args ? cmd->argv[first + i] : "(null)";
}

/* Join the shell words with spaces, variables replaced by their values. */
static bool
build_shell_command(const metacmd_env *env, const command *cmd, char *buf,
					metacmd_outcome *out)
{
	const char *name = shell_word(cmd, 0);
	size_t		len = 0;

	for (int i = 0; i < cmd->nshell_args; i++)
	{
		const shell_arg *arg = &cmd->shell_args[i];
		const char *text = arg->text;
		size_t		arglen;

		if (arg->slot >= 0 && (text = var_get_string(env->vars, arg->slot)) == NULL)
		{
			meta_cause(out, "%s: undefined variable \"%s\"", name, shell_word(cmd, i));
			return false;
		}
		arglen = strlen(text);
		if (len + arglen + (i > 0 ? 1 : 0) >= SHELL_COMMAND_SIZE - 1)
		{
			meta_cause(out, "%s: shell command is too long", name);
			return false;
		}
		if (i > 0)
			buf[len++] = ' ';
		memcpy(buf + len, text, arglen);
		len += arglen;
	}
	buf[len] = '\0';
	return true;
}

static bool
run_shell(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	char		buf[SHELL_COMMAND_SIZE];

	if (!build_shell_command(env, cmd, buf, out))
		return false;
	/* the child must not repeat what our stdio buffers still hold */
	fflush(NULL);
	if (system(buf) != 0)
	{
		if (!env->timer_exceeded)
			meta_cause(out, "%s: could not launch shell command", shell_word(cmd, 0));
		return false;
	}
	return true;
}

/* Run the \setshell command and read the first line of its output. */
static bool
read_shell_output(const metacmd_env *env, const command *cmd, char *out_line,
				  metacmd_outcome *out)
{
	const char *name = shell_word(cmd, 0);
	char		buf[SHELL_COMMAND_SIZE];
	FILE	   *fp;

	if (!build_shell_command(env, cmd, buf, out))
		return false;
	fflush(NULL);
	if ((fp = popen(buf, "r")) == NULL)
	{
		meta_cause(out, "%s: could not launch shell command", name);
		return false;
	}
	if (fgets(out_line, SHELL_RESULT_SIZE, fp) == NULL)
	{
		if (!env->timer_exceeded)
			meta_cause(out, "%s: could not read result of shell command", name);
		(void) pclose(fp);
		return false;
	}
	if (pclose(fp) < 0)
	{
		meta_cause(out, "%s: could not run shell command: %s", name, strerror(errno));
		return false;
	}
	return true;
}

static bool
run_setshell(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	const char *name = shell_word(cmd, 0);
	char		line[SHELL_RESULT_SIZE];
	char	   *end;
	int			result;

	if (!read_shell_output(env, cmd, line, out))
		return false;

	/* an integer, surrounding white space allowed; pgbench keeps a C int */
	result = (int) strtol(line, &end, 10);
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (*line == '\0' || *end != '\0')
	{
		meta_cause(out, "%s: shell command must return an integer (not \"%s\")", name, line);
		return false;
	}
	if (!check_target(cmd, "setshell", out))
		return false;
	var_set_value(env->vars, cmd->var_slot, pgb_value_int(result));
	if (PGB_UNLIKELY(env->debug))
		diag_log(DIAG_DEBUG, "%s: shell parameter name: \"%s\", value: \"%s\"", name,
				 shell_word(cmd, 1), line);
	return true;
}

/* ---- pipelines -------------------------------------------------------- */

/*
 * Under -M prepared, \startpipeline first prepares every SQL command up to
 * its \endpipeline, once per session, as pgbench does so that the pipeline
 * holds no Parse messages.  One PREPARE at a time, without waiting: each
 * one sent is METACMD_PREPARING; once the caller has read its result it
 * calls metacmd_pipeline_resume, which sends the next or goes on.  true
 * when a PREPARE was sent.
 */
static bool
prepare_next(const metacmd_env *env, metacmd_outcome *out)
{
	const script *s = env->script;

	/* the \startpipeline's own flag says the scan was done on this session */
	if (env->prepared[env->command])
		return false;
	for (int j = env->command + 1; j < s->ncommands; j++)
	{
		const command *cmd = s->commands[j];
		const char *name = env->prepared_names[j];

		if (cmd->type == META_COMMAND && cmd->meta == META_ENDPIPELINE)
			break;
		/* a dynamic command's text is only known when it runs */
		if (cmd->type != SQL_COMMAND || cmd->sql.dynamic || env->prepared[j])
			continue;
		if (PGB_UNLIKELY(env->debug))
			diag_log(DIAG_DEBUG, "client %d preparing %s", env->client_id, name);
		env->prepared[j] = true;
		if (pgb_session_send_prepare(env->conn, name, cmd->sql.param_text,
									 cmd->sql.nparams))
		{
			out->next = METACMD_PREPARING;
			return true;
		}
		/* pgbench reports a failed PREPARE and lets the execution fail */
		diag_error("%s", pgb_session_error(env->conn));
	}
	env->prepared[env->command] = true;
	return false;
}

/* \startpipeline (after its PREPAREs under -M prepared). */
static void
start_pipeline(const metacmd_env *env, metacmd_outcome *out)
{
	pgb_session *conn = env->conn;
	bool		off = pgb_session_pipeline(conn) == PGB_PIPELINE_OFF;

	if (env->mode == QUERY_PREPARED && off && prepare_next(env, out))
		return;
	if (!off)
		return meta_failed(env, out, "startpipeline", "already in pipeline mode");
	if (pgb_session_pipeline_enter(conn) == 0)
		return meta_failed(env, out, "startpipeline", "failed to enter pipeline mode");
}

static void
run_pipeline_command(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	pgb_session *conn = env->conn;

	switch (cmd->meta)
	{
		case META_STARTPIPELINE:
			if (env->mode == QUERY_SIMPLE)
				return meta_failed(env, out, "startpipeline",
								   "cannot use pipeline mode with the simple query protocol");
			return start_pipeline(env, out);
		case META_SYNCPIPELINE:
			if (pgb_session_pipeline(conn) != PGB_PIPELINE_ON)
				return meta_failed(env, out, "syncpipeline", "not in pipeline mode");
			if (pgb_session_pipeline_send_sync(conn) == 0)
				return meta_failed(env, out, "syncpipeline", "failed to send a pipeline sync");
			out->syncs_sent = 1;
			return;
		case META_ENDPIPELINE:
			if (pgb_session_pipeline(conn) != PGB_PIPELINE_ON)
				return meta_failed(env, out, "endpipeline", "not in pipeline mode");
			if (!pgb_session_pipeline_sync(conn))
				return meta_failed(env, out, "endpipeline", "failed to send a pipeline sync");
			out->syncs_sent = 1;
			/* collect every pending result up to the sync */
			out->next = METACMD_PIPELINE_RESULTS;
			return;
		/* not pipeline commands: metacmd_execute passes none of them here */
		case META_NONE:
		case META_SET:
		case META_SETSHELL:
		case META_SHELL:
		case META_SLEEP:
		case META_GSET:
		case META_ASET:
		case META_IF:
		case META_ELIF:
		case META_ELSE:
		case META_ENDIF:
			return;
	}
}

/* ---- dispatch --------------------------------------------------------- */

static void
outcome_reset(const metacmd_env *env, metacmd_outcome *out)
{
	out->next = METACMD_DONE;
	out->next_command = env->command + 1;
	out->elif_pending = false;
	out->syncs_sent = 0;
	out->sleep_until = 0;
	out->clock_stale = false;
	out->failure->ncauses = 0;
}

void
metacmd_pipeline_resume(const metacmd_env *env, metacmd_outcome *out)
{
	outcome_reset(env, out);
	start_pipeline(env, out);
}

bool
metacmd_set(eval_context *ectx, var_store *vars, int script_index, int index,
			const command *cmd)
{
	pgb_value	result;

	if (!evaluate_at(ectx, script_index, index, cmd, &result))
		return false;
	var_set_value(vars, cmd->var_slot, result);
	return true;
}

void
metacmd_set_failed(const metacmd_env *env, const command *cmd, metacmd_outcome *out)
{
	outcome_reset(env, out);
	out->clock_stale = true;
	report_evaluation(env, cmd, out);
}

void
metacmd_execute(const metacmd_env *env, const command *cmd, pg_time_usec_t now,
				metacmd_outcome *out)
{
	pgb_value	result;

	outcome_reset(env, out);
	if (PGB_UNLIKELY(env->debug))
		trace_meta(env, cmd);

	switch (cmd->meta)
	{
		case META_SLEEP:
			run_sleep(env, cmd, now, out);
			return;
		case META_SET:
			out->clock_stale = true;
			if (cmd->target_valid)
			{
				if (!metacmd_set(env->ectx, env->vars, env->script_index, env->command, cmd))
					report_evaluation(env, cmd, out);
				return;
			}
			/* pgbench finds a bad name when it assigns, after evaluating */
			if (evaluate(env, cmd, out, &result) && !check_target(cmd, "set", out))
				meta_failed(env, out, "set", "assignment of meta-command failed");
			return;
		case META_IF:
		case META_ELIF:
		case META_ELSE:
		case META_ENDIF:
			out->clock_stale = true;
			run_conditional(env, cmd, out);
			return;
		case META_SHELL:
			out->clock_stale = true;
			if (!run_shell(env, cmd, out))
				meta_failed(env, out, "shell", "execution of meta-command failed");
			return;
		case META_SETSHELL:
			out->clock_stale = true;
			if (!run_setshell(env, cmd, out))
				meta_failed(env, out, "setshell", "execution of meta-command failed");
			return;
		case META_STARTPIPELINE:
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			run_pipeline_command(env, cmd, out);
			return;
		/* the marks of SQL commands, not meta-commands */
		case META_NONE:
		case META_GSET:
		case META_ASET:
			break;
	}
	meta_failed(env, out, cmd->argv[0], "invalid meta-command");
}
