/*
 * client_wire.c — the bottom of the client's protocol layer: the SQL text
 * buffer and the sends that both a static command (client_send.c) and a
 * dynamic one (client_ident.c) make.  Calls only the session port and
 * client_fail.c.
 */
#include <stdlib.h>

#include "client_int.h"

bool
client_sql_reserve(client *c, size_t need)
{
	char	   *grown;
	size_t		cap = c->sql_cap;

	if (need <= cap)
		return true;
	if (cap == 0)
		cap = 256;				/* the first text: room for most commands */
	while (cap < need)
		cap *= 2;
	grown = realloc(c->sql_buf, cap);
	if (grown == NULL)
		return false;
	c->sql_buf = grown;
	c->sql_cap = cap;
	return true;
}

/*
 * Send text in the simple or extended mode (the prepared mode is each
 * caller's own): the session's answer to the send.
 */
int
client_send_text(client *c, const client_env *env, const sql_command *sql, const char *text)
{
	const char *params[PGB_MAX_ARGS];

	client_trace(env, "client %d sending %s", c->id, text);
	if (env->cfg->query_mode == QUERY_SIMPLE)
		return pgb_session_send_query(c->conn, text);
	client_fill_params(c, sql, params);
	return pgb_session_send_params(c->conn, text, sql->nparams, params);
}
