/*
 * client_ident.c — sending a dynamic SQL command (script.h): one whose
 * text holds variables that cannot be parameters, such as a table name
 * "sbtest:client_id" or psql's ":'name'" and ":"name"".
 *
 * The text is built at run time into the client's SQL buffer, in every
 * mode; the command's other variables stay $n parameters in extended and
 * prepared modes.  Under -M prepared each distinct text is prepared once
 * per connection and kept in a small per-client cache under a generated
 * name ("PI_<n>"); when the cache is full the least recently used
 * statement is deallocated before the new one is prepared, so the server
 * never holds more than IDENT_CACHE_SIZE of them per connection.  Static
 * commands never come here: the hot path only tests sql.dynamic.
 *
 * Protocol layer, below client_send.c: calls client_wire.c for the
 * buffer and the text sends, client_fail.c to fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_int.h"
#include "pgbench/base/xalloc.h"

/* Prepared texts kept per connection (documented in doc/pgbench.1). */
#define IDENT_CACHE_SIZE 32

typedef struct ident_entry
{
	uint64_t	last_use;		/* cache tick of the last use; 0: empty */
	uint64_t	hash;			/* of text */
	char	   *text;			/* the prepared text, owned */
	size_t		len;
	size_t		cap;
	char		name[16];		/* "PI_<n>", unique on the connection */
} ident_entry;

struct ident_cache
{
	uint64_t	tick;			/* advances at each use */
	uint32_t	next_name;		/* number of the next statement name */
	ident_entry *current;		/* the entry of the command being sent */
	bool		parse_pending;	/* outside a pipeline: DEALLOCATE sent, the
								 * Parse follows its result */
	ident_entry entries[IDENT_CACHE_SIZE];
};

void
client_ident_init(client *c, const run_config *cfg)
{
	const script_set *set = cfg->scripts;

	c->ident = NULL;
	if (cfg->query_mode != QUERY_PREPARED)
		return;
	for (int i = 0; i < set->nscripts; i++)
		for (int j = 0; j < set->scripts[i].ncommands; j++)
			if (set->scripts[i].commands[j]->type == SQL_COMMAND &&
				set->scripts[i].commands[j]->sql.dynamic)
			{
				c->ident = pgb_calloc(1, sizeof(ident_cache));
				return;
			}
}

void
client_ident_free(client *c)
{
	if (c->ident == NULL)
		return;
	for (int i = 0; i < IDENT_CACHE_SIZE; i++)
		free(c->ident->entries[i].text);
	free(c->ident);
	c->ident = NULL;
}

void
client_ident_reset(client *c)
{
	ident_cache *ic = c->ident;

	if (ic == NULL)
		return;
	for (int i = 0; i < IDENT_CACHE_SIZE; i++)
		ic->entries[i].last_use = 0;
	ic->tick = 0;
	ic->next_name = 0;
	ic->current = NULL;
	ic->parse_pending = false;
}

/*
 * The command's text from plan into c->sql_buf (terminated), *len its
 * length: references replaced as their kind says, unset ones as written.
 * false when out of memory.
 */
static bool
build_text(client *c, const sql_part *parts, int nparts, size_t *len)
{
	size_t		used = 0;

	for (int i = 0; i < nparts; i++)
	{
		const sql_part *part = &parts[i];
		const char *value = part->slot >= 0 ? var_get_string(&c->vars, part->slot) : NULL;
		bool		quoted = part->kind == SQL_REF_LITERAL || part->kind == SQL_REF_IDENT;
		size_t		n = part->slot < 0 ? 0 : value == NULL ? part->ref_len
			: quoted ? var_quoted_len(value, part->kind == SQL_REF_LITERAL)
			: strlen(value);

		if (!client_sql_reserve(c, used + part->len + n + 1))
			return false;
		memcpy(c->sql_buf + used, part->text, part->len);
		used += part->len;
		if (part->slot < 0)
			continue;
		if (value == NULL)
			memcpy(c->sql_buf + used, part->ref, n);
		else if (quoted)
			var_quote(c->sql_buf + used, value, part->kind == SQL_REF_LITERAL);
		else
			memcpy(c->sql_buf + used, value, n);
		used += n;
	}
	if (!client_sql_reserve(c, used + 1))
		return false;
	c->sql_buf[used] = '\0';
	*len = used;
	return true;
}

/* FNV-1a: cheap, and the texts differ in few bytes. */
static uint64_t
text_hash(const char *text, size_t len)
{
	uint64_t	h = UINT64_C(14695981039346656037);

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char) text[i]) * UINT64_C(1099511628211);
	return h;
}

/* The entry holding text, else NULL. */
static ident_entry *
cache_find(ident_cache *ic, uint64_t hash, const char *text, size_t len)
{
	for (int i = 0; i < IDENT_CACHE_SIZE; i++)
	{
		ident_entry *e = &ic->entries[i];

		if (e->last_use != 0 && e->hash == hash && e->len == len &&
			memcmp(e->text, text, len) == 0)
			return e;
	}
	return NULL;
}

/* An empty entry, else the least recently used one. */
static ident_entry *
cache_victim(ident_cache *ic)
{
	ident_entry *victim = &ic->entries[0];

	for (int i = 0; i < IDENT_CACHE_SIZE && victim->last_use != 0; i++)
		if (ic->entries[i].last_use < victim->last_use)
			victim = &ic->entries[i];
	return victim;
}

/* Put text into e under a new name; false when out of memory. */
static bool
entry_fill(ident_cache *ic, ident_entry *e, uint64_t hash, const char *text, size_t len)
{
	if (len + 1 > e->cap)
	{
		char	   *grown = realloc(e->text, len + 1);

		if (grown == NULL)
			return false;
		e->text = grown;
		e->cap = len + 1;
	}
	memcpy(e->text, text, len + 1);
	e->len = len;
	e->hash = hash;
	snprintf(e->name, sizeof(e->name), "PI_%u", ic->next_name++);
	return true;
}

/* Execute the current entry's statement with the command's parameters. */
static bool
send_entry(client *c, const client_env *env, const command *cmd)
{
	const char *params[PGB_MAX_ARGS];

	client_fill_params(c, &cmd->sql, params);
	client_trace(env, "client %d sending %s", c->id, c->ident->current->name);
	return pgb_session_send_prepared(c->conn, c->ident->current->name, cmd->sql.nparams, params) != 0;
}

static bool
send_parse(client *c, const client_env *env, const command *cmd)
{
	const ident_entry *e = c->ident->current;

	client_trace(env, "client %d preparing %s", c->id, e->name);
	return pgb_session_send_prepare(c->conn, e->name, e->text, cmd->sql.nparams) != 0;
}

/*
 * A text not prepared yet: into the cache, deallocating what it evicts.
 * In a pipeline DEALLOCATE, Parse and Bind are queued one after the other
 * (their results are read with the pipeline's); outside one the client
 * waits for each step in WAIT_PREPARE.
 */
static client_state
prepare_text(client *c, client_env *env, const command *cmd, uint64_t hash,
			 size_t len, bool in_pipeline)
{
	ident_cache *ic = c->ident;
	ident_entry *e = cache_victim(ic);
	char		dealloc[48] = "";

	if (e->last_use != 0)
		snprintf(dealloc, sizeof(dealloc), "DEALLOCATE \"%s\"", e->name);
	if (!entry_fill(ic, e, hash, c->sql_buf, len))
	{
		e->last_use = 0;
		return client_abort_command(c, env, "SQL", "out of memory");
	}
	e->last_use = ++ic->tick;
	ic->current = e;
	if (dealloc[0] != '\0')
	{
		client_trace(env, "client %d sending %s", c->id, dealloc);
		if (!(in_pipeline
			  ? pgb_session_send_params(c->conn, dealloc, 0, NULL)
			  : pgb_session_send_query(c->conn, dealloc)))
			return client_send_failed(c, env, cmd);
		ic->parse_pending = !in_pipeline;
		if (!in_pipeline)
			return CSTATE_WAIT_PREPARE;
	}
	if (!send_parse(c, env, cmd))
		return client_send_failed(c, env, cmd);
	if (!in_pipeline)
		return CSTATE_WAIT_PREPARE;
	return send_entry(c, env, cmd) ? CSTATE_END_COMMAND : client_send_failed(c, env, cmd);
}

client_state
client_ident_send(client *c, client_env *env, const command *cmd, bool in_pipeline)
{
	const sql_command *sql = &cmd->sql;
	size_t		len;
	int			sent = 0;
	ident_entry *e;

	if (env->cfg->query_mode == QUERY_SIMPLE
		? !build_text(c, sql->parts, sql->nparts, &len)
		: !build_text(c, sql->text_parts, sql->ntext_parts, &len))
		return client_abort_command(c, env, "SQL", "out of memory");
	switch (env->cfg->query_mode)
	{
		case QUERY_SIMPLE:
		case QUERY_EXTENDED:
			sent = client_send_text(c, env, sql, c->sql_buf);
			break;
		case QUERY_PREPARED:
			{
				uint64_t	hash = text_hash(c->sql_buf, len);

				e = cache_find(c->ident, hash, c->sql_buf, len);
				if (e == NULL)
					return prepare_text(c, env, cmd, hash, len, in_pipeline);
				e->last_use = ++c->ident->tick;
				c->ident->current = e;
				sent = send_entry(c, env, cmd);
			}
			break;
	}
	if (!sent)
		return client_send_failed(c, env, cmd);
	return in_pipeline ? CSTATE_END_COMMAND : CSTATE_WAIT_RESULT;
}

client_state
client_ident_prepared(client *c, client_env *env, const command *cmd)
{
	ident_cache *ic = c->ident;

	if (ic->parse_pending)
	{
		ic->parse_pending = false;
		return send_parse(c, env, cmd) ? CSTATE_WAIT_PREPARE
			: client_send_failed(c, env, cmd);
	}
	return send_entry(c, env, cmd) ? CSTATE_WAIT_RESULT : client_send_failed(c, env, cmd);
}

void
client_ident_prepare_failed(client *c)
{
	/* a failed DEALLOCATE leaves a stray statement, not a wrong one */
	if (!c->ident->parse_pending)
		c->ident->current->last_use = 0;
}
