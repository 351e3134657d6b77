/*
 * metacmd.c — meta-commands at run time: \set, \sleep, \shell, \setshell,
 * the \if chain (following the jump targets compiled into the script) and
 * the pipeline commands.  Errors print pgbench's two lines (the cause, then
 * "client N aborted in command ...") and move the client to ABORTED.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/client.h"
#include "pgbench/diag.h"

/* pgbench's limit on the joined words of \shell and \setshell. */
#define SHELL_COMMAND_SIZE 256

/* \setshell reads at most this much of the command's output. */
#define SHELL_RESULT_SIZE 64

static client_state
meta_failed(const client *c, const char *what, const char *message)
{
	client_command_failed(c, what, message);
	return CSTATE_ABORTED;
}

static void
trace_meta(const client *c, const command *cmd)
{
	char		line[1024];
	size_t		len;

	len = (size_t) snprintf(line, sizeof(line), "client %d executing \\%s", c->id, cmd->argv[0]);
	for (int i = 1; i < cmd->argc && len < sizeof(line); i++)
		len += (size_t) snprintf(line + len, sizeof(line) - len, " %s", cmd->argv[i]);
	diag_log(DIAG_DEBUG, "%s", line);
}

static bool
evaluate(client *c, const command *cmd, pgb_value *result)
{
	c->ectx.script_index = c->script;
	c->ectx.command_number = c->command + 1;
	if (expr_evaluate(&c->ectx, cmd->expr, result))
		return true;
	diag_error("%s", c->ectx.error);
	return false;
}

/* ---- \if chains ------------------------------------------------------- */

/*
 * A condition was false: go to the chain's next branch.  An \elif there is
 * executed (its condition evaluated); an \else or \endif is passed over,
 * as pgbench skips them without running them.
 */
static void
take_false_branch(client *c, const script *s, int target)
{
	if (target < s->ncommands && s->commands[target]->meta == META_ELIF)
	{
		c->next_command = target;
		c->elif_pending = true;
	}
	else
		c->next_command = target + 1;
}

static client_state
run_conditional(client *c, const run_context *ctx, const command *cmd)
{
	const script *s = &ctx->scripts->scripts[c->script];
	pgb_value	result;

	switch (cmd->meta)
	{
		case META_ELIF:
			if (!c->elif_pending)
			{
				/* an earlier branch ran: leave the chain */
				c->next_command = cmd->jump_end + 1;
				return CSTATE_END_COMMAND;
			}
			c->elif_pending = false;
			/* FALLTHROUGH */
		case META_IF:
			if (!evaluate(c, cmd, &result))
				return meta_failed(c, cmd->argv[0], "evaluation of meta-command failed");
			if (!value_truth(&result))
				take_false_branch(c, s, cmd->jump_false);
			return CSTATE_END_COMMAND;
		case META_ELSE:
			/* reached in sequence: the branch before it ran */
			c->next_command = cmd->jump_end + 1;
			return CSTATE_END_COMMAND;
		default:				/* META_ENDIF */
			return CSTATE_END_COMMAND;
	}
}

/* ---- \sleep ----------------------------------------------------------- */

static client_state
run_sleep(client *c, const command *cmd, pg_time_usec_t *now)
{
	int64_t		usec = cmd->sleep_usec;

	if (cmd->sleep_slot >= 0)
	{
		const char *value = var_get_string(&c->vars, cmd->sleep_slot);
		int			amount;

		if (value == NULL)
		{
			diag_error("%s: undefined variable \"%s\"", cmd->argv[0], cmd->argv[1] + 1);
			return meta_failed(c, "sleep", "execution of meta-command failed");
		}
		amount = atoi(value);
		if (amount == 0 && !isdigit((unsigned char) *value))
		{
			diag_error("%s: invalid sleep time \"%s\" for variable \"%s\"",
					   cmd->argv[0], value, cmd->argv[1] + 1);
			return meta_failed(c, "sleep", "execution of meta-command failed");
		}
		/* pgbench computes in a C int, wrapping on overflow */
		usec = (int32_t) ((uint32_t) amount * (uint32_t) cmd->sleep_unit_usec);
	}
	c->sleep_until = client_now(now) + usec;
	return CSTATE_SLEEP;
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
build_shell_command(client *c, const command *cmd, char *buf)
{
	const char *name = shell_word(cmd, 0);
	size_t		len = 0;

	for (int i = 0; i < cmd->nshell_args; i++)
	{
		const shell_arg *arg = &cmd->shell_args[i];
		const char *text = arg->text;
		size_t		arglen;

		if (arg->slot >= 0 && (text = var_get_string(&c->vars, arg->slot)) == NULL)
		{
			diag_error("%s: undefined variable \"%s\"", name, shell_word(cmd, i));
			return false;
		}
		arglen = strlen(text);
		if (len + arglen + (i > 0 ? 1 : 0) >= SHELL_COMMAND_SIZE - 1)
		{
			diag_error("%s: shell command is too long", name);
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
run_shell(client *c, const worker *w, const command *cmd)
{
	char		buf[SHELL_COMMAND_SIZE];

	if (!build_shell_command(c, cmd, buf))
		return false;
	/* the child must not repeat what our stdio buffers still hold */
	fflush(NULL);
	if (system(buf) != 0)
	{
		if (!w->timer_exceeded)
			diag_error("%s: could not launch shell command", shell_word(cmd, 0));
		return false;
	}
	return true;
}

static bool
run_setshell(client *c, const worker *w, const command *cmd)
{
	const char *name = shell_word(cmd, 0);
	char		buf[SHELL_COMMAND_SIZE];
	char		out[SHELL_RESULT_SIZE];
	char	   *end;
	FILE	   *fp;
	int			result;

	if (!build_shell_command(c, cmd, buf))
		return false;
	fflush(NULL);
	if ((fp = popen(buf, "r")) == NULL)
	{
		diag_error("%s: could not launch shell command", name);
		return false;
	}
	if (fgets(out, sizeof(out), fp) == NULL)
	{
		if (!w->timer_exceeded)
			diag_error("%s: could not read result of shell command", name);
		(void) pclose(fp);
		return false;
	}
	if (pclose(fp) < 0)
	{
		diag_error("%s: could not run shell command: %s", name, strerror(errno));
		return false;
	}

	/* an integer, surrounding white space allowed; pgbench keeps a C int */
	result = (int) strtol(out, &end, 10);
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (*out == '\0' || *end != '\0')
	{
		diag_error("%s: shell command must return an integer (not \"%s\")", name, out);
		return false;
	}
	var_set_value(&c->vars, cmd->var_slot, pgb_value_int(result));
	if (PGB_UNLIKELY(w->ctx->debug))
		diag_log(DIAG_DEBUG, "%s: shell parameter name: \"%s\", value: \"%s\"", name,
				  shell_word(cmd, 1), out);
	return true;
}

/* ---- pipelines -------------------------------------------------------- */

void
metacmd_prepare_pipeline(client *c, const run_context *ctx)
{
	const script *s = &ctx->scripts->scripts[c->script];
	int			offset = ctx->script_offset[c->script];

	/* the \startpipeline's own flag says the scan was done on this session */
	if (c->prepared[offset + c->command])
		return;
	for (int j = c->command + 1; j < s->ncommands; j++)
	{
		const command *cmd = s->commands[j];
		const char *name = ctx->prepared_names[offset + j];
		PGresult   *res;

		if (cmd->type == META_COMMAND && cmd->meta == META_ENDPIPELINE)
			break;
		if (cmd->type != SQL_COMMAND || c->prepared[offset + j])
			continue;
		if (PGB_UNLIKELY(ctx->debug))
			diag_log(DIAG_DEBUG, "client %d preparing %s", c->id, name);
		res = PQprepare(c->conn, name, cmd->sql.param_text, cmd->sql.nparams, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
			diag_error("%s", PQerrorMessage(c->conn));
		PQclear(res);
		c->prepared[offset + j] = true;
	}
	c->prepared[offset + c->command] = true;
}

static int
send_pipeline_sync(PGconn *conn)
{
#ifdef LIBPQ_HAS_SEND_PIPELINE_SYNC
	return PQsendPipelineSync(conn);
#else
	return PQpipelineSync(conn);
#endif
}

static client_state
run_pipeline_command(client *c, const run_context *ctx, const command *cmd)
{
	switch (cmd->meta)
	{
		case META_STARTPIPELINE:
			if (ctx->opts->query_mode == QUERY_SIMPLE)
				return meta_failed(c, "startpipeline",
								   "cannot use pipeline mode with the simple query protocol");
			if (ctx->opts->query_mode == QUERY_PREPARED)
				metacmd_prepare_pipeline(c, ctx);
			if (PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF)
				return meta_failed(c, "startpipeline", "already in pipeline mode");
			if (PQenterPipelineMode(c->conn) == 0)
				return meta_failed(c, "startpipeline", "failed to enter pipeline mode");
			return CSTATE_END_COMMAND;
		case META_SYNCPIPELINE:
			if (PQpipelineStatus(c->conn) != PQ_PIPELINE_ON)
				return meta_failed(c, "syncpipeline", "not in pipeline mode");
			if (send_pipeline_sync(c->conn) == 0)
				return meta_failed(c, "syncpipeline", "failed to send a pipeline sync");
			c->num_syncs++;
			return CSTATE_END_COMMAND;
		default:				/* META_ENDPIPELINE */
			if (PQpipelineStatus(c->conn) != PQ_PIPELINE_ON)
				return meta_failed(c, "endpipeline", "not in pipeline mode");
			if (!PQpipelineSync(c->conn))
				return meta_failed(c, "endpipeline", "failed to send a pipeline sync");
			c->num_syncs++;
			c->qrynum = 0;
			/* collect every pending result up to the sync */
			return CSTATE_WAIT_RESULT;
	}
}

/* ---- dispatch --------------------------------------------------------- */

client_state
metacmd_execute(client *c, worker *w, const command *cmd, pg_time_usec_t *now)
{
	const run_context *ctx = w->ctx;
	client_state next = CSTATE_END_COMMAND;
	pgb_value	result;

	if (PGB_UNLIKELY(ctx->debug))
		trace_meta(c, cmd);

	switch (cmd->meta)
	{
		case META_SLEEP:
			return run_sleep(c, cmd, now);
		case META_SET:
			if (!evaluate(c, cmd, &result))
				return meta_failed(c, cmd->argv[0], "evaluation of meta-command failed");
			var_set_value(&c->vars, cmd->var_slot, result);
			break;
		case META_IF:
		case META_ELIF:
		case META_ELSE:
		case META_ENDIF:
			next = run_conditional(c, ctx, cmd);
			break;
		case META_SHELL:
			if (!run_shell(c, w, cmd))
				return meta_failed(c, "shell", "execution of meta-command failed");
			break;
		case META_SETSHELL:
			if (!run_setshell(c, w, cmd))
				return meta_failed(c, "setshell", "execution of meta-command failed");
			break;
		case META_STARTPIPELINE:
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			return run_pipeline_command(c, ctx, cmd);
		default:
			return meta_failed(c, cmd->argv[0], "invalid meta-command");
	}

	/* evaluating or running a shell may have taken time: read it afresh */
	*now = 0;
	return next;
}
