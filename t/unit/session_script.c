/*
 * session_script.c — the session port played from a script
 * (session_script.h says how scripts read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "session_script.h"

#define SS_MAX_FIELDS 16
#define SS_MAX_ROWS 16

struct pgb_result
{
	pgb_res_status status;
	int			nfields;
	int			ntuples;
	char	   *names[SS_MAX_FIELDS];
	char	   *values[SS_MAX_ROWS][SS_MAX_FIELDS];
	char		sqlstate[6];
	char	   *message;		/* "ERROR:  text\n" for errors, else "" */
};

struct pgb_session
{
	const char *const *script;
	int			pos;			/* next line */
	int			busy_left;		/* "~ BUSY n": looks left; -1: not started */
	bool		broken;
	bool		closed;
	int			cancels;
	int			inflight;		/* requests sent, results not ended */
	pgb_tx_status tx;
	pgb_pipeline_status pipeline;
	int			fd;
	char		error[512];		/* the session's latest error */
	char	   *mismatch;		/* the first mismatch; NULL: none */
	long long  *numbers;		/* what "#" matched, in order */
	int			nnumbers;
	int			numbers_cap;
	char	  **heard;			/* the transcript (ss_transcript), owned */
	int			nheard;
	int			heard_cap;
};

/* One line of the transcript: what the engine sent, or what it was given. */
static void
hear(pgb_session *s, const char *fmt, const char *text)
{
	if (s->nheard + 1 >= s->heard_cap)
	{
		char	  **grown;

		s->heard_cap = s->heard_cap * 2 + 32;
		grown = realloc(s->heard, (size_t) s->heard_cap * sizeof(char *));
		if (grown == NULL)
			abort();
		s->heard = grown;
	}
	if (asprintf(&s->heard[s->nheard], fmt, text) < 0)
		abort();
	s->heard[++s->nheard] = NULL;
}


/* ---- the script --------------------------------------------------------- */

static void
fail(pgb_session *s, const char *fmt, const char *got)
{
	char		buf[1024];
	const char *line = s->script[s->pos] != NULL ? s->script[s->pos] : "(end of script)";

	if (s->mismatch != NULL)
		return;
	snprintf(buf, sizeof(buf), fmt, got);
	if (asprintf(&s->mismatch, "line %d \"%s\": %s", s->pos + 1, line, buf) < 0)
		s->mismatch = NULL;
	snprintf(s->error, sizeof(s->error), "script mismatch\n");
}

/* Apply the "~ TX" lines at the head: they take effect once reached. */
static void
apply_tx(pgb_session *s)
{
	const char *line;

	while ((line = s->script[s->pos]) != NULL && strncmp(line, "~ TX ", 5) == 0)
	{
		s->tx = line[5] == 'T' ? PGB_TX_INTRANS : line[5] == 'E' ? PGB_TX_INERROR : PGB_TX_IDLE;
		s->pos++;
	}
}

/* Past the head line. */
static void
advance(pgb_session *s)
{
	s->pos++;
	apply_tx(s);
}

/* The line at the head (NULL at the end). */
static const char *
head(pgb_session *s)
{
	return s->script[s->pos];
}

/* The head if it starts with prefix (its rest in *rest), else NULL. */
static const char *
head_is(pgb_session *s, const char *prefix, const char **rest)
{
	const char *line = head(s);
	size_t		n = strlen(prefix);

	if (line == NULL || strncmp(line, prefix, n) != 0)
		return NULL;
	*rest = line + n;
	return line;
}

/* Keep the numbers one matched line's "#" stood for. */
static void
keep_numbers(pgb_session *s, const long long *found, int n)
{
	if (n == 0)
		return;
	if (s->nnumbers + n > s->numbers_cap)
	{
		long long  *grown;

		s->numbers_cap = (s->nnumbers + n) * 2 + 16;
		grown = realloc(s->numbers, (size_t) s->numbers_cap * sizeof(long long));
		if (grown == NULL)
			abort();
		s->numbers = grown;
	}
	memcpy(s->numbers + s->nnumbers, found, (size_t) n * sizeof(long long));
	s->nnumbers += n;
}

/*
 * Whether sent matches the scripted line expected, each "#" of it one
 * number ("-" and digits); the numbers matched are kept when it does.
 */
static bool
send_matches(pgb_session *s, const char *expected, const char *sent)
{
	long long	found[SS_MAX_FIELDS];
	int			n = 0;

	while (*expected != '\0')
	{
		if (*expected == '#')
		{
			const char *start = sent;

			if (*sent == '-')
				sent++;
			if (*sent < '0' || *sent > '9' || n == SS_MAX_FIELDS)
				return false;
			while (*sent >= '0' && *sent <= '9')
				sent++;
			found[n++] = strtoll(start, NULL, 10);
			expected++;
		}
		else if (*expected++ != *sent++)
			return false;
	}
	if (*sent != '\0')
		return false;
	keep_numbers(s, found, n);
	return true;
}

/* Match one send: "> what", what being built by the caller. */
static int
expect_send(pgb_session *s, const char *what)
{
	const char *rest;

	if (s->mismatch != NULL || s->broken)
	{
		hear(s, "> %s (refused: the session failed)", what);
		return 0;
	}
	if (head_is(s, "~ NOSEND", &rest) != NULL)
	{
		hear(s, "> %s (not sent)", what);
		advance(s);
		snprintf(s->error, sizeof(s->error), "could not send data to server\n");
		return 0;
	}
	hear(s, "> %s", what);
	if (head_is(s, "> ", &rest) == NULL || !send_matches(s, rest, what))
	{
		fail(s, "the engine sent \"%s\"", what);
		return 0;
	}
	advance(s);
	s->inflight++;
	return 1;
}

/* "text | p1,p2" from the parameters. */
static void
join_params(char *buf, size_t len, const char *head_text, int n, const char *const *params)
{
	size_t		used = (size_t) snprintf(buf, len, "%s |", head_text);

	for (int i = 0; i < n && used < len; i++)
		used += (size_t) snprintf(buf + used, len - used, "%s%s", i == 0 ? " " : ",",
								  params[i] != NULL ? params[i] : "NULL");
}

/* ---- results ------------------------------------------------------------ */

/* Split s at sep into at most max owned strings. */
static int
split(const char *text, const char *sep, char **out, int max)
{
	int			n = 0;
	size_t		seplen = strlen(sep);

	while (n < max)
	{
		const char *end = strstr(text, sep);
		size_t		len = end != NULL ? (size_t) (end - text) : strlen(text);

		out[n++] = strndup(text, len);
		if (end == NULL)
			break;
		text = end + seplen;
	}
	return n;
}

static pgb_result *
new_result(pgb_res_status status)
{
	pgb_result *r = calloc(1, sizeof(pgb_result));

	r->status = status;
	r->message = strdup("");
	return r;
}

/* "a,b | 1,2 | 3,4" */
static pgb_result *
rows_result(const char *spec)
{
	pgb_result *r = new_result(PGB_RES_TUPLES_OK);
	char	   *parts[SS_MAX_ROWS + 1];
	int			nparts = split(spec, " | ", parts, SS_MAX_ROWS + 1);

	r->nfields = split(parts[0], ",", r->names, SS_MAX_FIELDS);
	for (int i = 1; i < nparts; i++)
	{
		split(parts[i], ",", r->values[r->ntuples], r->nfields);
		r->ntuples++;
	}
	for (int i = 0; i < nparts; i++)
		free(parts[i]);
	return r;
}

/* "40001 text" */
static pgb_result *
error_result(pgb_session *s, const char *spec)
{
	pgb_result *r = new_result(PGB_RES_FATAL_ERROR);

	snprintf(r->sqlstate, sizeof(r->sqlstate), "%.5s", spec);
	free(r->message);
	if (asprintf(&r->message, "ERROR:  %s\n", strlen(spec) > 6 ? spec + 6 : "") < 0)
		r->message = strdup("");
	snprintf(s->error, sizeof(s->error), "%s", r->message);
	if (s->pipeline == PGB_PIPELINE_ON)
		s->pipeline = PGB_PIPELINE_ABORTED;
	return r;
}

/* The result the head line describes, the line consumed. */
static pgb_result *
take_result(pgb_session *s, const char *rest)
{
	pgb_result *r = NULL;

	if (strncmp(rest, "OK", 2) == 0)
		r = new_result(PGB_RES_COMMAND_OK);
	else if (strncmp(rest, "ROWS ", 5) == 0)
		r = rows_result(rest + 5);
	else if (strncmp(rest, "ERROR ", 6) == 0)
		r = error_result(s, rest + 6);
	else if (strcmp(rest, "SYNC") == 0)
	{
		if (s->pipeline == PGB_PIPELINE_ABORTED)
			s->pipeline = PGB_PIPELINE_ON;
		if (s->inflight > 0)
			s->inflight--;
		r = new_result(PGB_RES_PIPELINE_SYNC);
	}
	else if (strcmp(rest, "ABORTED") == 0)
		r = new_result(PGB_RES_PIPELINE_ABORTED);
	else if (strcmp(rest, "COPY") == 0)
		r = new_result(PGB_RES_COPY_OUT);
	if (r == NULL)
		fail(s, "%s", "not a result line");
	else
	{
		hear(s, "< %s", rest);
		advance(s);
	}
	return r;
}

/* ---- the port ----------------------------------------------------------- */

pgb_session *
ss_new(const char *const *script)
{
	pgb_session *s = calloc(1, sizeof(pgb_session));

	s->script = script;
	s->busy_left = -1;
	s->fd = eventfd(1, 0);
	apply_tx(s);
	return s;
}

void
ss_free(pgb_session *s)
{
	if (s == NULL)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->mismatch);
	free(s->numbers);
	for (int i = 0; i < s->nheard; i++)
		free(s->heard[i]);
	free(s->heard);
	free(s);
}

const char *
ss_mismatch(const pgb_session *s)
{
	return s->mismatch;
}

int
ss_remaining(const pgb_session *s)
{
	int			n = 0;

	while (s->script[s->pos + n] != NULL)
		n++;
	return n;
}

const char *
ss_next_line(const pgb_session *s)
{
	return s->script[s->pos] != NULL ? s->script[s->pos] : "";
}

const long long *
ss_numbers(const pgb_session *s, int *n)
{
	*n = s->nnumbers;
	return s->numbers;
}

const char *const *
ss_transcript(const pgb_session *s, int *n)
{
	static const char *const none[] = {NULL};

	*n = s->nheard;
	return s->heard != NULL ? (const char *const *) s->heard : none;
}

bool
ss_closed(const pgb_session *s)
{
	return s->closed;
}

int
ss_cancels(const pgb_session *s)
{
	return s->cancels;
}

/* ---- connecting ------------------------------------------------------- */

#define SS_MAX_CONNECTS 64

/*
 * The attempts scripted, in order: the session each gives, NULL: it fails.
 * A ring: attempt i is at i % SS_MAX_CONNECTS.
 */
static struct
{
	pgb_session *s;
	int			waits;			/* CONN_STEP_WAIT answers before it is up */
	int			busy;			/* CONN_STEP_BUSY answers before those */
}			connects[SS_MAX_CONNECTS];
static int	connects_head;
static int	connects_tail;

#define HEAD_CONNECT connects[connects_head % SS_MAX_CONNECTS]

void
ss_queue_connect(pgb_session *s, int waits)
{
	ss_queue_connect_busy(s, 0, waits);
}

void
ss_queue_connect_busy(pgb_session *s, int busy, int waits)
{
	if (connects_tail - connects_head < SS_MAX_CONNECTS)
	{
		int			i = connects_tail % SS_MAX_CONNECTS;

		connects[i].s = s;
		connects[i].waits = waits;
		connects[i].busy = busy;
		connects_tail++;
	}
}

int
ss_connects_left(void)
{
	return connects_tail - connects_head;
}

/* The head attempt's next answer. */
static conn_step
connect_step(conn_attempt *a)
{
	if (connects_head == connects_tail || HEAD_CONNECT.s == NULL)
	{
		a->conn = NULL;
		if (connects_head < connects_tail)
			connects_head++;
		return CONN_STEP_FAILED;
	}
	a->conn = (PGconn *) HEAD_CONNECT.s;
	if (HEAD_CONNECT.busy > 0)
	{
		HEAD_CONNECT.busy--;
		return CONN_STEP_BUSY;
	}
	if (HEAD_CONNECT.waits > 0)
	{
		HEAD_CONNECT.waits--;
		return CONN_STEP_WAIT;
	}
	return CONN_STEP_OK;
}

conn_step
pgb_connect_start(conn_attempt *a, const conn_plan *plan, pg_time_usec_t now)
{
	conn_step	step;

	(void) now;
	a->plan = plan;
	a->deadline = 0;
	step = connect_step(a);
	/* as libpq's: an attempt that did not fail at once is under way */
	return step == CONN_STEP_OK ? CONN_STEP_WAIT : step;
}

conn_step
pgb_connect_continue(conn_attempt *a, pg_time_usec_t now, bool ready)
{
	(void) now;
	(void) ready;
	return connect_step(a);
}

bool
pgb_connect_ready_now(const conn_attempt *a)
{
	(void) a;
	return true;				/* a scripted attempt answers when asked */
}

conn_step
pgb_connect_retry(conn_attempt *a, pg_time_usec_t now)
{
	(void) now;
	return connect_step(a);
}

int
pgb_connect_socket(const conn_attempt *a, bool *for_read)
{
	*for_read = true;
	return a->conn != NULL ? pgb_session_socket((const pgb_session *) a->conn) : -1;
}

void
pgb_connect_error(const conn_attempt *a, char *buf, size_t len)
{
	(void) a;
	snprintf(buf, len, "connection to server failed: scripted refusal");
}

void
pgb_connect_cancel(conn_attempt *a)
{
	/* an attempt given up while pending takes its session along */
	if (a->conn != NULL && connects_head < connects_tail)
		connects_head++;
	a->conn = NULL;
}

pgb_session *
pgb_session_take(conn_attempt *a)
{
	pgb_session *s = (pgb_session *) a->conn;

	a->conn = NULL;
	connects_head++;
	return s;
}

void
pgb_session_close(pgb_session *s)
{
	hear(s, "%s", "= close");
	s->closed = true;
}

int
pgb_session_socket(const pgb_session *s)
{
	return s->fd;
}

bool
pgb_session_broken(const pgb_session *s)
{
	return s->broken;
}

const char *
pgb_session_error(const pgb_session *s)
{
	return s->error;
}

int
pgb_session_send_query(pgb_session *s, const char *sql)
{
	char		what[1024];

	snprintf(what, sizeof(what), "Q %s", sql);
	return expect_send(s, what);
}

/* A send with parameters: "kind text | p1,p2". */
static int
expect_with_params(pgb_session *s, const char *kind, const char *text, int nparams,
				   const char *const *params)
{
	char		what[1024];
	char		head_text[1024];

	snprintf(head_text, sizeof(head_text), "%s %s", kind, text);
	join_params(what, sizeof(what), head_text, nparams, params);
	return expect_send(s, what);
}

int
pgb_session_send_params(pgb_session *s, const char *sql, int nparams,
						const char *const *params)
{
	return expect_with_params(s, "X", sql, nparams, params);
}

int
pgb_session_send_prepare(pgb_session *s, const char *name, const char *sql, int nparams)
{
	char		what[1024];

	snprintf(what, sizeof(what), "PREPARE %s %s", name, sql);
	return expect_send(s, what);
}

int
pgb_session_send_prepared(pgb_session *s, const char *name, int nparams,
						  const char *const *params)
{
	return expect_with_params(s, "EXEC", name, nparams, params);
}

int
pgb_session_consume(pgb_session *s)
{
	const char *rest;

	if (s->broken || s->mismatch != NULL)
		return 0;
	if (head_is(s, "~ BREAK", &rest) != NULL)
	{
		hear(s, "%s", "= the connection broke");
		advance(s);
		s->broken = true;
		s->tx = PGB_TX_UNKNOWN;
		snprintf(s->error, sizeof(s->error),
				 "server closed the connection unexpectedly\n");
		return 0;
	}
	return 1;
}

int
pgb_session_busy(pgb_session *s)
{
	const char *rest;

	if (s->broken || s->mismatch != NULL)
		return 0;
	if (head_is(s, "~ BREAK", &rest) != NULL)
		return 1;
	if (head_is(s, "~ BUSY ", &rest) == NULL)
		return 0;
	if (s->busy_left < 0)
		s->busy_left = atoi(rest);
	if (s->busy_left > 0)
	{
		s->busy_left--;
		return 1;
	}
	s->busy_left = -1;
	advance(s);
	return pgb_session_busy(s);
}

pgb_result *
pgb_session_result(pgb_session *s)
{
	const char *rest;

	if (s->broken || s->mismatch != NULL)
		return NULL;
	if (pgb_session_busy(s))
	{
		fail(s, "%s", "the engine took a result while the session was busy");
		return NULL;
	}
	if (head_is(s, "< END", &rest) != NULL)
	{
		hear(s, "%s", "< END");
		advance(s);
		if (s->inflight > 0)
			s->inflight--;
		return NULL;
	}
	if (head_is(s, "< ", &rest) != NULL)
		return take_result(s, rest);
	fail(s, "%s", "the engine read a result where none is scripted");
	return NULL;
}

int
pgb_session_pipeline_enter(pgb_session *s)
{
	if (s->pipeline != PGB_PIPELINE_OFF || s->inflight > 0)
	{
		hear(s, "%s", "= pipeline mode refused");
		return 0;
	}
	hear(s, "%s", "= pipeline mode on");
	s->pipeline = PGB_PIPELINE_ON;
	return 1;
}

int
pgb_session_pipeline_exit(pgb_session *s)
{
	const char *rest;

	if (s->pipeline == PGB_PIPELINE_OFF)
		return 1;
	if (head_is(s, "~ NOEXIT", &rest) != NULL)
	{
		hear(s, "%s", "= pipeline exit refused");
		advance(s);
		snprintf(s->error, sizeof(s->error), "cannot exit pipeline mode\n");
		return 0;
	}
	if (head_is(s, "< ", &rest) != NULL)
	{
		hear(s, "%s", "= pipeline exit refused: results pending");
		return 0;
	}
	hear(s, "%s", "= pipeline mode off");
	s->pipeline = PGB_PIPELINE_OFF;
	s->inflight = 0;
	return 1;
}

int
pgb_session_pipeline_sync(pgb_session *s)
{
	return expect_send(s, "SYNC");
}

int
pgb_session_pipeline_send_sync(pgb_session *s)
{
	return expect_send(s, "SYNC");
}

pgb_pipeline_status
pgb_session_pipeline(const pgb_session *s)
{
	return s->pipeline;
}

pgb_tx_status
pgb_session_tx_status(const pgb_session *s)
{
	if (s->broken)
		return PGB_TX_UNKNOWN;
	return s->inflight > 0 ? PGB_TX_ACTIVE : s->tx;
}

/* A cancel request: counted when started, delivered at once. */
struct pgb_cancel
{
	int			unused;
};

pgb_cancel *
pgb_cancel_start(pgb_session *s, char *errbuf, size_t errlen)
{
	static pgb_cancel delivered;

	hear(s, "%s", "= cancel request");
	s->cancels++;
	snprintf(errbuf, errlen, "%s", "");
	return &delivered;
}

bool
pgb_cancel_finish(pgb_cancel *c, pg_time_usec_t deadline, char *errbuf, size_t errlen)
{
	(void) c;
	(void) deadline;
	snprintf(errbuf, errlen, "%s", "");
	return true;
}

/* ---- results ------------------------------------------------------------ */

pgb_res_status
pgb_result_status(const pgb_result *r)
{
	return r != NULL ? r->status : PGB_RES_FATAL_ERROR;
}

int
pgb_result_ntuples(const pgb_result *r)
{
	return r != NULL ? r->ntuples : 0;
}

int
pgb_result_nfields(const pgb_result *r)
{
	return r != NULL ? r->nfields : 0;
}

const char *
pgb_result_fname(const pgb_result *r, int field)
{
	return r != NULL && field >= 0 && field < r->nfields ? r->names[field] : NULL;
}

static bool
in_range(const pgb_result *r, int row, int field)
{
	return r != NULL && row >= 0 && row < r->ntuples && field >= 0 && field < r->nfields &&
		r->values[row][field] != NULL;
}

const char *
pgb_result_value(const pgb_result *r, int row, int field)
{
	return in_range(r, row, field) && strcmp(r->values[row][field], "NULL") != 0
		? r->values[row][field] : "";
}

int
pgb_result_length(const pgb_result *r, int row, int field)
{
	return (int) strlen(pgb_result_value(r, row, field));
}

bool
pgb_result_isnull(const pgb_result *r, int row, int field)
{
	return !in_range(r, row, field) || strcmp(r->values[row][field], "NULL") == 0;
}

const char *
pgb_result_sqlstate(const pgb_result *r)
{
	return r != NULL && r->sqlstate[0] != '\0' ? r->sqlstate : NULL;
}

const char *
pgb_result_error(const pgb_result *r)
{
	return r != NULL ? r->message : "";
}

void
pgb_result_clear(pgb_result *r)
{
	if (r == NULL)
		return;
	for (int i = 0; i < r->nfields; i++)
	{
		free(r->names[i]);
		for (int j = 0; j < r->ntuples; j++)
			free(r->values[j][i]);
	}
	free(r->message);
	free(r);
}
