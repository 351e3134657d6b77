/*
 * client_fail.c — the client's primitives at the bottom of its layers:
 * failing (fill env->failure, the thread prints it, and return ABORTED
 * for the caller to go to), dropping the results a client holds, and
 * closing the connection.  Every other
 * client file may call these; they call no other client file.
 */
#include <stdarg.h>
#include <stdio.h>

#include "client_int.h"

void
client_disconnect(client *c)
{
	if (c->conn != NULL)
	{
		pgb_session_close(c->conn);
		c->conn = NULL;
	}
	/* an attempt under way, if any */
	pgb_connect_cancel(&c->connecting);
	c->connect_retry_at = 0;
}

void
client_clear_results(client *c)
{
	pgb_result_clear(c->gset_last);
	c->gset_last = NULL;
	pgb_result_clear(c->error_res);
	c->error_res = NULL;
}

client_state
client_abort_command(const client *c, client_env *env, const char *what,
					 const char *message)
{
	client_failure *f = &env->failure;

	failure_set(f, FAILURE_COMMAND, c->id, c->script, c->command);
	snprintf(f->what, sizeof(f->what), "%s", what);
	failure_message(f, "%s", message);
	return CSTATE_ABORTED;
}

client_state
client_abort(const client *c, client_env *env, failure_kind kind, const char *fmt,...)
{
	client_failure *f = &env->failure;
	va_list		ap;

	failure_set(f, kind, c->id, c->script, c->command);
	f->query = c->qrynum;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	return CSTATE_ABORTED;
}

client_state
client_send_failed(const client *c, client_env *env, const command *cmd)
{
	client_trace(env, "client %d could not send %s", c->id, cmd->sql.text);
	return client_abort_command(c, env, "SQL", "SQL command send failed");
}
