/*
 * client.c — the client state machine: choose a script, throttle, connect
 * (-C), send each SQL command asynchronously in the chosen protocol, read
 * its results, hand meta-commands to metacmd.c, account the transaction,
 * and abort cleanly when something breaks.
 *
 * Hot-path rules kept here: no parsing (scripts are compiled), no
 * allocation in steady state (the SQL text buffer and the prepared flags
 * are reused), PQconsumeInput only when the socket was readable and libpq
 * still lacks a whole result, and the clock read at most once per pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/client.h"
#include "pgbench/diag.h"
#include "pgbench/retry.h"

/* Trace for -d, as pgbench's debug lines ("pgbench: client 0 ..."). */
#define client_trace(ctx, ...) \
	do { if (PGB_UNLIKELY((ctx)->debug)) diag_log(DIAG_DEBUG, __VA_ARGS__); } while (0)

static const command *
current_command(const client *c, const run_context *ctx)
{
	const script *s = &ctx->scripts->scripts[c->script];

	return c->command < s->ncommands ? s->commands[c->command] : NULL;
}

static int
flat_command_index(const client *c, const run_context *ctx)
{
	return ctx->script_offset[c->script] + c->command;
}

/* ---- set-up and connections ------------------------------------------- */

static void
copy_defines(var_store *dst, const var_store *defines)
{
	for (int slot = 0; slot < defines->nslots && slot < dst->nslots; slot++)
	{
		const var_slot *src = &defines->slots[slot];

		if (src->has_string)
			var_set_string(dst, slot, src->str, strlen(src->str));
		else if (src->value.type != PGBT_NO_VALUE)
			var_set_value(dst, slot, src->value);
	}
}

bool
client_init(client *c, int id, const run_context *ctx)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->state = CSTATE_CHOOSE_SCRIPT;
	c->ws_index = -1;
	var_store_init(&c->vars, ctx->scripts->symtab);
	copy_defines(&c->vars, &ctx->opts->defines);
	c->prepared = calloc((size_t) (ctx->total_commands > 0 ? ctx->total_commands : 1),
						 sizeof(bool));
	c->sql_cap = 256;
	c->sql_buf = malloc(c->sql_cap);
	c->ectx.vars = &c->vars;
	c->ectx.rs = &c->rs;
	c->ectx.debug_out = stderr;
	return c->prepared != NULL && c->sql_buf != NULL;
}

void
client_free(client *c)
{
	client_disconnect(c);
	var_store_free(&c->vars);
	free(c->prepared);
	free(c->sql_buf);
	c->prepared = NULL;
	c->sql_buf = NULL;
}

void
client_disconnect(client *c)
{
	if (c->conn != NULL)
	{
		PQfinish(c->conn);
		c->conn = NULL;
	}
}

bool
client_connect_start(client *c, const run_context *ctx, char *errbuf, size_t errlen)
{
	c->conn = PQconnectStartParams(ctx->params.keywords, ctx->params.values, 1);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
	{
		conn_error_text(c->conn, errbuf, errlen);
		client_disconnect(c);
		return false;
	}
	/* libpq wants the socket writable before the first PQconnectPoll */
	c->connect_poll = PGRES_POLLING_WRITING;
	return true;
}

int
client_connect_continue(client *c, char *errbuf, size_t errlen)
{
	c->connect_poll = PQconnectPoll(c->conn);
	if (c->connect_poll == PGRES_POLLING_OK)
		return 1;
	if (c->connect_poll == PGRES_POLLING_FAILED)
	{
		conn_error_text(c->conn, errbuf, errlen);
		client_disconnect(c);
		return -1;
	}
	return 0;
}

client_wait_kind
client_wait(const client *c, int *fd, waitset_event *event, pg_time_usec_t *wake_at)
{
	switch (c->state)
	{
		case CSTATE_WAIT_RESULT:
		case CSTATE_WAIT_PREPARE:
		case CSTATE_WAIT_ROLLBACK:
			*fd = PQsocket(c->conn);
			*event = WAITSET_READ;
			return CWAIT_SOCKET;
		case CSTATE_CONNECTING:
			*fd = PQsocket(c->conn);
			*event = c->connect_poll == PGRES_POLLING_READING ? WAITSET_READ : WAITSET_WRITE;
			return CWAIT_SOCKET;
		case CSTATE_SLEEP:
			*wake_at = c->sleep_until;
			return CWAIT_TIMER;
		case CSTATE_THROTTLE:
			*wake_at = c->txn_scheduled;
			return CWAIT_TIMER;
		case CSTATE_ABORTED:
		case CSTATE_FINISHED:
			return CWAIT_DONE;
		default:
			return CWAIT_NONE;
	}
}

void
client_command_failed(const client *c, const char *what, const char *message)
{
	diag_error("client %d aborted in command %d (%s) of script %d; %s",
			   c->id, c->command, what, c->script, message);
}

/* ---- transactions --------------------------------------------------- */

static int
choose_script(worker *w)
{
	const script_set *set = w->ctx->scripts;
	int64_t		pick;
	int			i = 0;

	if (set->nscripts == 1)
		return 0;
	pick = random_uniform(&w->choose_rs, 0, set->total_weight - 1);
	while (pick >= set->scripts[i].weight)
		pick -= set->scripts[i++].weight;
	return i;
}

/* Account one transaction (or one skipped slot) in the thread's stats. */
static void
account_transaction(client *c, worker *w, pg_time_usec_t *now, bool skipped)
{
	const run_context *ctx = w->ctx;
	stats_outcome outcome = skipped ? STATS_SKIPPED : retry_outcome(c->error);
	bool		keep_lag = ctx->throttle_delay > 0;
	double		latency = 0.0;
	double		lag = 0.0;

	/* without -P, -R, -L, -l or several scripts the report needs no latency */
	if (ctx->detailed && outcome == STATS_SUCCESS)
	{
		latency = (double) (client_now(now) - c->txn_scheduled);
		lag = (double) (c->txn_begin - c->txn_scheduled);
	}

	stats_data_add(&w->stats.total, outcome, latency, lag, c->tries, keep_lag);
	if (ctx->latency_limit > 0 && latency > (double) ctx->latency_limit)
		w->stats.latency_late++;
	c->cnt++;

	/* histograms, the -l log and the -P snapshot (thread.c) */
	if (ctx->after_transaction)
	{
		txlog_txn	tx = {
			.client_id = c->id, .txn_no = c->cnt, .script_no = c->script,
			.outcome = outcome, .latency = latency, .lag = lag, .tries = c->tries,
		};

		worker_after_transaction(w, &tx, client_now(now));
	}

	if (ctx->per_script_stats)
		stats_data_add(&w->stats.per_script[c->script], outcome, latency, lag,
					   c->tries, keep_lag);
}

static bool
transactions_done(const client *c, const worker *w)
{
	const pgb_options *opts = w->ctx->opts;

	return w->timer_exceeded || (opts->duration <= 0 && c->cnt >= opts->nxacts);
}

static client_state
prepare_throttle(client *c, worker *w, pg_time_usec_t *now)
{
	const run_context *ctx = w->ctx;

	/* the delays between starts form a Poisson process of this thread's rate */
	w->throttle_trigger += random_poisson(&w->throttle_rs, ctx->throttle_delay);
	c->txn_scheduled = w->throttle_trigger;

	/* under -L, a slot that is already too late is skipped, not run */
	if (ctx->latency_limit > 0 &&
		w->throttle_trigger < client_now(now) - ctx->latency_limit)
	{
		account_transaction(c, w, now, true);
		return transactions_done(c, w) ? CSTATE_FINISHED : CSTATE_PREPARE_THROTTLE;
	}

	if (ctx->end_time > 0 && c->txn_scheduled > ctx->end_time)
		return CSTATE_FINISHED;
	return CSTATE_THROTTLE;
}

static void
report_connect_failure(const client *c, const char *message)
{
	diag_error("%s", message);
	diag_error("client %d aborted while establishing connection", c->id);
}

static client_state
start_transaction(client *c, worker *w, pg_time_usec_t *now)
{
	if (c->conn == NULL)
	{
		char		errbuf[1024];

		/* -C: connect without blocking the thread's other clients */
		c->connect_start = client_now(now);
		if (!client_connect_start(c, w->ctx, errbuf, sizeof(errbuf)))
		{
			report_connect_failure(c, errbuf);
			return CSTATE_ABORTED;
		}
		return CSTATE_CONNECTING;
	}

	/* what a retry goes back to (retry.h: the random state, not variables) */
	retry_snapshot_take(&c->tx_snap, &c->rs);
	c->txn_begin = client_now(now);
	if (w->ctx->throttle_delay <= 0)
		c->txn_scheduled = c->txn_begin;
	c->command = 0;
	c->num_syncs = 0;
	c->elif_pending = false;
	return CSTATE_START_COMMAND;
}

static client_state
continue_connect(client *c, worker *w, pg_time_usec_t *now)
{
	char		errbuf[1024];
	int			rc = client_connect_continue(c, errbuf, sizeof(errbuf));

	if (rc == 0)
		return CSTATE_CONNECTING;
	if (rc < 0)
	{
		report_connect_failure(c, errbuf);
		return CSTATE_ABORTED;
	}
	*now = pgb_time_now();
	w->stats.conn_duration += *now - c->connect_start;
	/* a new session has no prepared statements */
	memset(c->prepared, 0, sizeof(bool) * (size_t) w->ctx->total_commands);
	return CSTATE_START_TX;
}

static client_state
end_transaction(client *c, worker *w, pg_time_usec_t *now)
{
	PGTransactionStatusType status;

	account_transaction(c, w, now, false);

	status = PQtransactionStatus(c->conn);
	if (status == PQTRANS_INTRANS || status == PQTRANS_INERROR)
	{
		diag_error("client %d aborted: end of script reached without completing the last transaction",
				   c->id);
		return CSTATE_ABORTED;
	}
	if (status != PQTRANS_IDLE)
	{
		diag_error("client %d aborted while receiving the transaction status", c->id);
		return CSTATE_ABORTED;
	}

	if (w->ctx->opts->connect_each)
	{
		pg_time_usec_t start = client_now(now);

		client_disconnect(c);
		*now = pgb_time_now();
		w->stats.conn_duration += *now - start;
	}

	return transactions_done(c, w) ? CSTATE_FINISHED : CSTATE_CHOOSE_SCRIPT;
}

/* ---- sending SQL ------------------------------------------------------ */

static bool
sql_buf_reserve(client *c, size_t need)
{
	char	   *grown;
	size_t		cap = c->sql_cap;

	if (need <= cap)
		return true;
	while (cap < need)
		cap *= 2;
	grown = realloc(c->sql_buf, cap);
	if (grown == NULL)
		return false;
	c->sql_buf = grown;
	c->sql_cap = cap;
	return true;
}

static bool
sql_buf_append(client *c, size_t *len, const char *text, size_t n)
{
	if (!sql_buf_reserve(c, *len + n + 1))
		return false;
	memcpy(c->sql_buf + *len, text, n);
	*len += n;
	return true;
}

/* Simple protocol: the text with variables substituted, unset ones kept. */
static bool
build_simple_sql(client *c, const sql_command *sql)
{
	size_t		len = 0;

	for (int i = 0; i < sql->nparts; i++)
	{
		const sql_part *part = &sql->parts[i];

		if (!sql_buf_append(c, &len, part->text, part->len))
			return false;
		if (part->slot >= 0)
		{
			const char *value = var_get_string(&c->vars, part->slot);

			if (value != NULL
				? !sql_buf_append(c, &len, value, strlen(value))
				: !sql_buf_append(c, &len, part->ref, part->ref_len))
				return false;
		}
	}
	c->sql_buf[len] = '\0';
	return true;
}

static void
fill_params(client *c, const sql_command *sql, const char **params)
{
	for (int i = 0; i < sql->nparams; i++)
		params[i] = var_get_string(&c->vars, sql->param_slots[i]);
}

static bool
send_prepared_query(client *c, const run_context *ctx, const command *cmd)
{
	const char *params[PGB_MAX_ARGS];
	const char *name = ctx->prepared_names[flat_command_index(c, ctx)];

	fill_params(c, &cmd->sql, params);
	client_trace(ctx, "client %d sending %s", c->id, name);
	return PQsendQueryPrepared(c->conn, name, cmd->sql.nparams, params,
							   NULL, NULL, 0) != 0;
}

static client_state
send_failed(const client *c, const run_context *ctx, const command *cmd)
{
	client_trace(ctx, "client %d could not send %s", c->id, cmd->sql.text);
	client_command_failed(c, "SQL", "SQL command send failed");
	return CSTATE_ABORTED;
}

static bool
send_simple_query(client *c, const run_context *ctx, const command *cmd)
{
	if (!build_simple_sql(c, &cmd->sql))
		return false;
	client_trace(ctx, "client %d sending %s", c->id, c->sql_buf);
	return PQsendQuery(c->conn, c->sql_buf) != 0;
}

static bool
send_extended_query(client *c, const run_context *ctx, const command *cmd)
{
	const char *params[PGB_MAX_ARGS];

	fill_params(c, &cmd->sql, params);
	client_trace(ctx, "client %d sending %s", c->id, cmd->sql.param_text);
	return PQsendQueryParams(c->conn, cmd->sql.param_text, cmd->sql.nparams,
							 NULL, params, NULL, NULL, 0) != 0;
}

/*
 * -M prepared: the first use of a command on this connection prepares it.
 * Outside a pipeline the client then waits for the PREPARE (WAIT_PREPARE);
 * inside one the Parse simply goes ahead of the Bind.
 */
static client_state
send_sql_prepared(client *c, const run_context *ctx, const command *cmd,
				  bool in_pipeline)
{
	int			flat = flat_command_index(c, ctx);

	if (!c->prepared[flat])
	{
		const char *name = ctx->prepared_names[flat];

		client_trace(ctx, "client %d preparing %s", c->id, name);
		c->prepared[flat] = true;
		if (!PQsendPrepare(c->conn, name, cmd->sql.param_text,
						   cmd->sql.nparams, NULL))
			return send_failed(c, ctx, cmd);
		if (!in_pipeline)
			return CSTATE_WAIT_PREPARE;
	}
	if (!send_prepared_query(c, ctx, cmd))
		return send_failed(c, ctx, cmd);
	return in_pipeline ? CSTATE_END_COMMAND : CSTATE_WAIT_RESULT;
}

static client_state
send_sql(client *c, const run_context *ctx, const command *cmd)
{
	bool		in_pipeline = PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF;
	bool		sent;

	if (in_pipeline && cmd->meta == META_GSET)
	{
		client_command_failed(c, "gset", "\\gset is not allowed in pipeline mode");
		return CSTATE_ABORTED;
	}
	if (in_pipeline && cmd->meta == META_ASET)
	{
		client_command_failed(c, "aset", "\\aset is not allowed in pipeline mode");
		return CSTATE_ABORTED;
	}

	c->qrynum = 0;
	if (ctx->opts->query_mode == QUERY_SIMPLE)
		sent = send_simple_query(c, ctx, cmd);
	else if (ctx->opts->query_mode == QUERY_EXTENDED)
		sent = send_extended_query(c, ctx, cmd);
	else
		return send_sql_prepared(c, ctx, cmd, in_pipeline);

	if (!sent)
		return send_failed(c, ctx, cmd);
	return in_pipeline ? CSTATE_END_COMMAND : CSTATE_WAIT_RESULT;
}

static client_state
start_command(client *c, worker *w, pg_time_usec_t *now)
{
	const run_context *ctx = w->ctx;
	const command *cmd = current_command(c, ctx);
	client_state next;

	if (cmd == NULL)
	{
		if (PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF)
		{
			diag_error("client %d aborted: end of script reached with pipeline open", c->id);
			return CSTATE_ABORTED;
		}
		return CSTATE_END_TX;
	}

	c->next_command = c->command + 1;
	if (ctx->per_command)
		c->stmt_begin = client_now(now);

	if (cmd->type == SQL_COMMAND)
		next = send_sql(c, ctx, cmd);
	else
	{
		next = metacmd_execute(c, w, cmd, now);
		if (next == CSTATE_ABORTED)
			c->error = RETRY_ERROR_META;
	}
	/* pgbench's trace shows a first, failed, look for the answer here */
	if (next == CSTATE_WAIT_RESULT)
		client_trace(ctx, "client %d receiving", c->id);
	return next;
}

/* ---- reading results -------------------------------------------------- */

/* Where the connection is lost while rolling back: pgbench's message. */
static void
report_rollback_failure(const client *c, const char *reason)
{
	diag_error("client %d aborted while rolling back the transaction after an error; %s",
			   c->id, reason);
}

/*
 * Next result of the current command without blocking.  *fresh is true on
 * the first look after the socket became readable: then the input is read
 * at once (asking PQisBusy first would only parse an empty buffer);
 * afterwards PQconsumeInput runs only when libpq still lacks a whole
 * result.  true: *res is the result, or NULL at the end of the command.
 * false: the client leaves the state for *next, which is waiting (the
 * socket must become readable first) or ABORTED after reporting that the
 * connection broke.
 */
static bool
next_result(client *c, client_state waiting, bool *fresh, PGresult **res,
			client_state *next)
{
	if (*fresh || PQisBusy(c->conn))
	{
		*fresh = false;
		if (!PQconsumeInput(c->conn))
		{
			if (waiting == CSTATE_WAIT_ROLLBACK)
				report_rollback_failure(c, "perhaps the backend died while processing");
			else
				client_command_failed(c, "SQL", "perhaps the backend died while processing");
			*next = CSTATE_ABORTED;
			return false;
		}
		if (PQisBusy(c->conn))
		{
			*next = waiting;
			return false;
		}
	}
	*res = PQgetResult(c->conn);
	return true;
}

/* Store one row of res into variables named prefix + column name. */
static bool
store_row(client *c, const run_context *ctx, const command *cmd,
		  const PGresult *res, int row, int qrynum)
{
	const char *context = cmd->meta == META_ASET ? "aset" : "gset";
	const char *prefix = cmd->varprefix ? cmd->varprefix : "";

	for (int field = 0; field < PQnfields(res); field++)
	{
		char		name[512];
		const char *fname = PQfname(res, field);
		int			len = snprintf(name, sizeof(name), "%s%s", prefix, fname);
		int			slot;

		if (len < 0 || (size_t) len >= sizeof(name) || !var_name_is_valid(name, (size_t) len))
		{
			diag_error("%s: invalid variable name: \"%s\"", context, name);
			diag_error("client %d script %d command %d query %d: error storing into variable %s",
					   c->id, c->script, c->command, qrynum, name);
			return false;
		}
		/* a name no script reads needs no storing */
		slot = var_symtab_find(ctx->scripts->symtab, name, (size_t) len);
		if (slot >= 0)
			var_set_string(&c->vars, slot, PQgetvalue(res, row, field),
						   (size_t) PQgetlength(res, row, field));
	}
	return true;
}

/*
 * Handle one result of the current command.  Returns false after printing
 * why the client aborts; sets c->error (and returns true) for a failure the
 * error path handles.
 */
static bool
handle_result(client *c, const run_context *ctx, const command *cmd, PGresult *res)
{
	switch (PQresultStatus(res))
	{
		case PGRES_COMMAND_OK:
		case PGRES_EMPTY_QUERY:
		case PGRES_PIPELINE_SYNC:
			return true;
		case PGRES_TUPLES_OK:
			if (cmd->meta == META_ASET && PQntuples(res) > 0)
				return store_row(c, ctx, cmd, res, PQntuples(res) - 1, c->qrynum);
			return true;
		case PGRES_COPY_IN:
		case PGRES_COPY_OUT:
		case PGRES_COPY_BOTH:
			diag_error("COPY is not supported in pgbench, aborting");
			return false;
		case PGRES_NONFATAL_ERROR:
		case PGRES_FATAL_ERROR:
			c->error = retry_classify_sqlstate(PQresultErrorField(res, PG_DIAG_SQLSTATE));
			if (retry_error_is_retriable(c->error))
			{
				if (ctx->opts->verbose_errors)
					retry_report_error(c->id, c->command, c->script,
									   PQresultErrorMessage(res));
				return true;
			}
			/* FALLTHROUGH */
		default:
			diag_error("client %d script %d aborted in command %d query %d: %s",
					   c->id, c->script, c->command, c->qrynum,
					   PQresultErrorMessage(res));
			return false;
	}
}

/* \gset looks at the last result of the command only. */
static bool
check_gset(client *c, const run_context *ctx, const command *cmd, const PGresult *last)
{
	int			ntuples = 0;

	if (last != NULL && PQresultStatus(last) == PGRES_TUPLES_OK)
		ntuples = PQntuples(last);
	if (ntuples != 1)
	{
		diag_error("client %d script %d command %d query %d: expected one row, got %d",
				   c->id, c->script, c->command, c->qrynum - 1, ntuples);
		return false;
	}
	return store_row(c, ctx, cmd, last, 0, c->qrynum - 1);
}

/*
 * Take one result of a plain command (res is consumed).  The latest is kept
 * for \gset until the end of the command shows it was the last.  false
 * after reporting why the client aborts.
 */
static bool
take_command_result(client *c, const run_context *ctx, const command *cmd, PGresult *res)
{
	/* after a retriable failure, the rest of the command is only drained */
	if (c->error != RETRY_ERROR_NONE)
	{
		PQclear(res);
		return true;
	}
	if (cmd->meta == META_GSET)
	{
		PQclear(c->gset_last);
		c->gset_last = NULL;
	}
	if (!handle_result(c, ctx, cmd, res))
	{
		PQclear(res);
		return false;
	}
	c->qrynum++;
	if (cmd->meta == META_GSET && c->error == RETRY_ERROR_NONE)
		c->gset_last = res;
	else
		PQclear(res);
	return true;
}

/* Every result of a plain command is in: where the client goes next. */
static client_state
command_results_done(client *c, const run_context *ctx, const command *cmd)
{
	bool		ok;

	if (c->error != RETRY_ERROR_NONE)
		return CSTATE_ERROR;
	if (c->qrynum == 0)
	{
		diag_error("client %d command %d: no results", c->id, c->command);
		return CSTATE_ABORTED;
	}
	if (cmd->meta != META_GSET)
		return CSTATE_END_COMMAND;
	ok = check_gset(c, ctx, cmd, c->gset_last);
	PQclear(c->gset_last);
	c->gset_last = NULL;
	return ok ? CSTATE_END_COMMAND : CSTATE_ABORTED;
}

/* Consume the results of a plain (non-pipeline) command as they come. */
static client_state
read_command_results(client *c, const run_context *ctx, const command *cmd)
{
	PGresult   *res;
	client_state next;
	bool		fresh = true;

	while (next_result(c, CSTATE_WAIT_RESULT, &fresh, &res, &next))
	{
		if (res == NULL)
			return command_results_done(c, ctx, cmd);
		if (!take_command_result(c, ctx, cmd, res))
			return CSTATE_ABORTED;
	}
	return next;
}

/* The sync closing the pipeline has come: leave pipeline mode. */
static client_state
end_pipeline(client *c)
{
	if (PQexitPipelineMode(c->conn) != 1)
		diag_error("client %d failed to exit pipeline mode: %s", c->id,
				   PQerrorMessage(c->conn));
	return c->error != RETRY_ERROR_NONE ? CSTATE_ERROR : CSTATE_END_COMMAND;
}

/*
 * After \endpipeline: consume every queued result up to the sync that
 * closes the pipeline, then leave pipeline mode.
 */
static client_state
read_pipeline_results(client *c, const run_context *ctx, const command *cmd)
{
	PGresult   *res;
	client_state next;
	bool		fresh = true;

	while (next_result(c, CSTATE_WAIT_RESULT, &fresh, &res, &next))
	{
		ExecStatusType status;
		bool		ok;

		if (res == NULL)
		{
			/* end of one query's results: numbering restarts */
			c->qrynum = 0;
			client_trace(ctx, "client %d receiving", c->id);
			continue;
		}
		status = PQresultStatus(res);
		if (status == PGRES_PIPELINE_SYNC)
		{
			PQclear(res);
			client_trace(ctx, "client %d pipeline ending", c->id);
			if (--c->num_syncs > 0)
				continue;
			return end_pipeline(c);
		}
		/* after a failure the server skips the rest: nothing to handle */
		if (c->error != RETRY_ERROR_NONE || status == PGRES_PIPELINE_ABORTED)
		{
			PQclear(res);
			continue;
		}
		ok = handle_result(c, ctx, cmd, res);
		PQclear(res);
		if (!ok)
			return CSTATE_ABORTED;
		c->qrynum++;
	}
	return next;
}

/*
 * Only an SQL command outside a pipeline and \endpipeline wait for
 * results, so the command tells which without asking libpq.
 */
static client_state
wait_result(client *c, const run_context *ctx)
{
	const command *cmd = current_command(c, ctx);

	client_trace(ctx, "client %d receiving", c->id);
	if (cmd->type != SQL_COMMAND)
		return read_pipeline_results(c, ctx, cmd);
	return read_command_results(c, ctx, cmd);
}

static client_state
wait_prepare(client *c, const run_context *ctx)
{
	const command *cmd = current_command(c, ctx);
	PGresult   *res;
	client_state next;

	bool		fresh = true;

	while (next_result(c, CSTATE_WAIT_PREPARE, &fresh, &res, &next))
	{
		if (res == NULL)
		{
			c->qrynum = 0;
			if (!send_prepared_query(c, ctx, cmd))
				return send_failed(c, ctx, cmd);
			return CSTATE_WAIT_RESULT;
		}
		/* pgbench reports a failed PREPARE and lets the execution fail */
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
			diag_error("%s", PQerrorMessage(c->conn));
		PQclear(res);
	}
	return next;
}

/* ---- the error path (serialization and deadlock failures) -------------- */

/* Time the transaction's tries have taken; the clock is read only under -L. */
static int64_t
tries_elapsed(const client *c, const retry_policy *policy, pg_time_usec_t *now)
{
	return policy->latency_limit > 0 ? client_now(now) - c->txn_scheduled : 0;
}

/* No transaction block is left: finish (-T), try again or give up. */
static client_state
after_rollback(client *c, worker *w, pg_time_usec_t *now)
{
	const retry_policy *policy = &w->ctx->retry;
	int64_t		elapsed = w->timer_exceeded ? 0 : tries_elapsed(c, policy, now);

	switch (retry_decide(policy, c->error, c->tries, elapsed, w->timer_exceeded))
	{
		case RETRY_AGAIN:
			return CSTATE_RETRY;
		case RETRY_GIVE_UP:
			return CSTATE_FAILURE;
		case RETRY_FINISH:
			break;
	}
	return CSTATE_FINISHED;
}

/*
 * Leave a pipeline after an error: sync, then drop everything up to it.
 * This waits for the server, as pgbench does, on the error path only.
 */
static bool
discard_until_sync(client *c)
{
	bool		synced = false;

	if (!PQpipelineSync(c->conn))
	{
		diag_error("client %d aborted: failed to send a pipeline sync", c->id);
		return false;
	}
	for (;;)
	{
		PGresult   *res = PQgetResult(c->conn);

		if (PQstatus(c->conn) == CONNECTION_BAD)
		{
			PQclear(res);
			report_rollback_failure(c, "perhaps the backend died while processing");
			return false;
		}
		if (PQresultStatus(res) == PGRES_PIPELINE_SYNC)
			synced = true;
		else if (synced && res == NULL)
			break;
		else if (res != NULL)
			synced = false;
		PQclear(res);
	}
	c->num_syncs = 0;
	if (PQexitPipelineMode(c->conn) != 1)
	{
		diag_error("client %d aborted: failed to exit pipeline mode for rolling back the failed transaction",
				   c->id);
		return false;
	}
	return true;
}

static client_state
handle_error(client *c, worker *w, pg_time_usec_t *now)
{
	PGTransactionStatusType status;

	if (PQpipelineStatus(c->conn) != PQ_PIPELINE_OFF && !discard_until_sync(c))
		return CSTATE_ABORTED;

	status = PQtransactionStatus(c->conn);
	if (status == PQTRANS_INTRANS || status == PQTRANS_INERROR)
	{
		if (!PQsendQuery(c->conn, "ROLLBACK"))
		{
			diag_error("client %d aborted: failed to send sql command for rolling back the failed transaction",
					   c->id);
			return CSTATE_ABORTED;
		}
		return CSTATE_WAIT_ROLLBACK;
	}
	if (status == PQTRANS_IDLE)
		return after_rollback(c, w, now);
	diag_error("client %d aborted while receiving the transaction status", c->id);
	return CSTATE_ABORTED;
}

static client_state
wait_rollback(client *c, worker *w, pg_time_usec_t *now)
{
	PGresult   *res;
	client_state next;

	/*
	 * Also reached right after sending the ROLLBACK: the read at once
	 * then finds nothing, as the PQisBusy-first order would have anyway.
	 */
	bool		fresh = true;

	client_trace(w->ctx, "client %d receiving", c->id);
	while (next_result(c, CSTATE_WAIT_ROLLBACK, &fresh, &res, &next))
	{
		if (res == NULL)
			return after_rollback(c, w, now);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
		{
			report_rollback_failure(c, PQerrorMessage(c->conn));
			PQclear(res);
			return CSTATE_ABORTED;
		}
		PQclear(res);
	}
	return next;
}

static client_state
retry_transaction(client *c, worker *w, pg_time_usec_t *now)
{
	const retry_policy *policy = &w->ctx->retry;

	if (policy->verbose_errors)
		retry_report_try(policy, c->id, true, c->tries, tries_elapsed(c, policy, now));
	c->tries++;
	/* -r counts the retry against the command that failed */
	if (w->ctx->per_command)
		w->stats.per_command[flat_command_index(c, w->ctx)].retries++;
	/* back to the transaction's start: same random draws */
	retry_snapshot_restore(&c->tx_snap, &c->rs);
	c->command = 0;
	c->elif_pending = false;
	c->error = RETRY_ERROR_NONE;
	return CSTATE_START_COMMAND;
}

static client_state
fail_transaction(client *c, worker *w, pg_time_usec_t *now)
{
	const retry_policy *policy = &w->ctx->retry;

	if (w->ctx->per_command)
		w->stats.per_command[flat_command_index(c, w->ctx)].failures++;
	if (policy->verbose_errors)
		retry_report_try(policy, c->id, false, c->tries, tries_elapsed(c, policy, now));
	return CSTATE_END_TX;
}

/* ---- the state machine -------------------------------------------------- */

/* A new transaction: pick its script.  -T may already be over. */
static client_state
choose_transaction(client *c, worker *w)
{
	const run_context *ctx = w->ctx;

	c->script = choose_script(w);
	c->error = RETRY_ERROR_NONE;
	c->tries = 1;
	client_trace(ctx, "client %d executing script \"%s\"", c->id,
				 ctx->scripts->scripts[c->script].desc);
	if (w->timer_exceeded)
		return CSTATE_FINISHED;
	return ctx->throttle_delay > 0 ? CSTATE_PREPARE_THROTTLE : CSTATE_START_TX;
}

/* A timed wait (-R schedule, \sleep) is over when due; -T ends it early. */
static client_state
timed_wait(const worker *w, pg_time_usec_t until, pg_time_usec_t *now,
		   client_state waiting, client_state due)
{
	if (w->timer_exceeded)
		return CSTATE_FINISHED;
	return client_now(now) < until ? waiting : due;
}

static void
end_command(client *c, worker *w, pg_time_usec_t *now)
{
	const run_context *ctx = w->ctx;

	if (ctx->per_command)
		stats_simple_add(&w->stats.per_command[flat_command_index(c, ctx)].latency,
						 (double) (client_now(now) - c->stmt_begin));
	c->command = c->next_command;
}

void
client_advance(client *c, worker *w, pg_time_usec_t *now)
{
	bool		began_another = false;	/* went on past one END_TX already */

	for (;;)
	{
		switch (c->state)
		{
			case CSTATE_CHOOSE_SCRIPT:
				c->state = choose_transaction(c, w);
				break;

			case CSTATE_PREPARE_THROTTLE:
				c->state = prepare_throttle(c, w, now);
				break;

			case CSTATE_THROTTLE:
				c->state = timed_wait(w, c->txn_scheduled, now, CSTATE_THROTTLE, CSTATE_START_TX);
				if (c->state == CSTATE_THROTTLE)
					return;
				break;

			case CSTATE_START_TX:
				c->state = start_transaction(c, w, now);
				if (c->state == CSTATE_CONNECTING)
					return;
				break;

			case CSTATE_CONNECTING:
				c->state = continue_connect(c, w, now);
				if (c->state == CSTATE_CONNECTING)
					return;
				break;

			case CSTATE_START_COMMAND:
				c->state = start_command(c, w, now);
				/* the answer cannot be there yet: reading would only fail */
				if (c->state == CSTATE_WAIT_RESULT || c->state == CSTATE_WAIT_PREPARE)
					return;
				break;

			case CSTATE_WAIT_PREPARE:
				c->state = wait_prepare(c, w->ctx);
				if (c->state == CSTATE_WAIT_PREPARE)
					return;
				break;

			case CSTATE_WAIT_RESULT:
				c->state = wait_result(c, w->ctx);
				if (c->state == CSTATE_WAIT_RESULT)
					return;
				break;

			case CSTATE_SLEEP:
				c->state = timed_wait(w, c->sleep_until, now, CSTATE_SLEEP, CSTATE_END_COMMAND);
				if (c->state == CSTATE_SLEEP)
					return;
				break;

			case CSTATE_END_COMMAND:
				end_command(c, w, now);
				c->state = CSTATE_START_COMMAND;
				break;

			case CSTATE_ERROR:
				c->state = handle_error(c, w, now);
				break;

			case CSTATE_WAIT_ROLLBACK:
				c->state = wait_rollback(c, w, now);
				if (c->state == CSTATE_WAIT_ROLLBACK)
					return;
				break;

			case CSTATE_RETRY:
				c->state = retry_transaction(c, w, now);
				break;

			case CSTATE_FAILURE:
				c->state = fail_transaction(c, w, now);
				break;

			case CSTATE_END_TX:
				c->state = end_transaction(c, w, now);

				/*
				 * Go straight on into the next transaction once per call:
				 * a script with SQL then waits for its first answer without
				 * a pass of the thread loop in between, while a script of
				 * meta-commands only still yields every other transaction
				 * and cannot starve the thread's other clients.
				 */
				if (c->state == CSTATE_CHOOSE_SCRIPT)
				{
					if (began_another)
						return;
					began_another = true;
				}
				break;

			case CSTATE_ABORTED:
			case CSTATE_FINISHED:
				PQclear(c->gset_last);
				c->gset_last = NULL;
				client_disconnect(c);
				return;
		}
	}
}
