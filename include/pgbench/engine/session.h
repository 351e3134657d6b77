/*
 * session.h — the session port: every exchange the run engine (client*.c,
 * metacmd.c, thread.c) has with a server, in a few plain calls.
 *
 * Two implementations are linked in place of each other, never both:
 * src/engine/session_libpq.c, over libpq, in the program (each call a jump to
 * its libpq function: no table of pointers, nothing to pay on the hot
 * path), and t/unit/session_script.c in the engine's unit tests, which
 * answers from a script of expected sends and replies.  The engine sees
 * only this header: its own status enums, opaque sessions and results.
 *
 * Contract (as libpq's asynchronous calls, which the engine never lets
 * block): a send queues one request and returns at once; consume reads
 * what the socket holds; busy says whether a whole result is not yet
 * there; result takes the next one, NULL at the end of a request's
 * results (only call it when not busy).  Outside a pipeline one request
 * may be in flight; inside one, any number, each closed by its results
 * and a NULL, a sync by a PGB_RES_PIPELINE_SYNC result.
 *
 * Thread-safety: a session and its results belong to one thread.
 */
#ifndef PGBENCH_SESSION_H
#define PGBENCH_SESSION_H

#include "pgbench/base/common.h"
#include "pgbench/conn/conn.h"

typedef struct pgb_session pgb_session;
typedef struct pgb_result pgb_result;

/* What a result is (values as libpq's ExecStatusType). */
typedef enum pgb_res_status
{
	PGB_RES_EMPTY_QUERY = 0,
	PGB_RES_COMMAND_OK,
	PGB_RES_TUPLES_OK,
	PGB_RES_COPY_OUT,
	PGB_RES_COPY_IN,
	PGB_RES_BAD_RESPONSE,
	PGB_RES_NONFATAL_ERROR,
	PGB_RES_FATAL_ERROR,
	PGB_RES_COPY_BOTH,
	PGB_RES_SINGLE_TUPLE,
	PGB_RES_PIPELINE_SYNC,
	PGB_RES_PIPELINE_ABORTED,
} pgb_res_status;

/* The server's transaction state as last reported (libpq's values). */
typedef enum pgb_tx_status
{
	PGB_TX_IDLE = 0,
	PGB_TX_ACTIVE,				/* a request is in flight */
	PGB_TX_INTRANS,				/* idle inside a transaction block */
	PGB_TX_INERROR,				/* idle in a failed transaction block */
	PGB_TX_UNKNOWN,				/* the connection is bad */
} pgb_tx_status;

/* Pipeline mode (libpq's values). */
typedef enum pgb_pipeline_status
{
	PGB_PIPELINE_OFF = 0,
	PGB_PIPELINE_ON,
	PGB_PIPELINE_ABORTED,		/* on, and an error skips up to the next sync */
} pgb_pipeline_status;

/*
 * ---- connecting: conn.h's non-blocking attempt, through the port ----
 * (each call as its conn_attempt_* namesake says; the scripted session
 * answers from its own queue instead)
 */
conn_step	pgb_connect_start(conn_attempt *a, const conn_plan *plan, pg_time_usec_t now);
conn_step	pgb_connect_continue(conn_attempt *a, pg_time_usec_t now, bool ready);
conn_step	pgb_connect_retry(conn_attempt *a, pg_time_usec_t now);
int			pgb_connect_socket(const conn_attempt *a, bool *for_read);
bool		pgb_connect_ready_now(const conn_attempt *a);
void		pgb_connect_error(const conn_attempt *a, char *buf, size_t len);
void		pgb_connect_cancel(conn_attempt *a);

/* ---- the session ---- */

/*
 * The session of a connection attempt that reported CONN_STEP_OK (the
 * attempt is over, conn.h); closed and freed by pgb_session_close.
 */
pgb_session *pgb_session_take(conn_attempt *a);
void		pgb_session_close(pgb_session *s);

/* The socket to wait on (readable: call pgb_session_consume). */
int			pgb_session_socket(const pgb_session *s);

/* Whether the connection is lost (libpq's CONNECTION_BAD). */
bool		pgb_session_broken(const pgb_session *s);

/* The latest error of the session, newline-terminated as libpq has it. */
const char *pgb_session_error(const pgb_session *s);

/*
 * Calls answering int return libpq's answer, nonzero for done (an int,
 * not a bool: the call then is a mere jump to libpq's).
 *
 * Sends; 0 when the request could not be queued (the session's error
 * says why).  params[i] NULL is an SQL NULL; texts, not binary.
 */
int			pgb_session_send_query(pgb_session *s, const char *sql);
int			pgb_session_send_params(pgb_session *s, const char *sql, int nparams,
									const char *const *params);
int			pgb_session_send_prepare(pgb_session *s, const char *name, const char *sql,
									 int nparams);
int			pgb_session_send_prepared(pgb_session *s, const char *name, int nparams,
									  const char *const *params);

/* Read what the socket holds; 0 when the connection broke. */
int			pgb_session_consume(pgb_session *s);

/* Whether the next result is not whole yet (taking it would block). */
int			pgb_session_busy(pgb_session *s);

/* The next result (the caller's to clear); NULL: the request's end. */
pgb_result *pgb_session_result(pgb_session *s);

/*
 * Pipelines.  enter/exit: 0 when not possible now (exit: results
 * still pending).  sync: a sync point, flushed; send_sync: one that waits
 * for the next flush where the library has it (else as sync).
 */
int			pgb_session_pipeline_enter(pgb_session *s);
int			pgb_session_pipeline_exit(pgb_session *s);
int			pgb_session_pipeline_sync(pgb_session *s);
int			pgb_session_pipeline_send_sync(pgb_session *s);
pgb_pipeline_status pgb_session_pipeline(const pgb_session *s);

pgb_tx_status pgb_session_tx_status(const pgb_session *s);

/*
 * ---- cancel: asking the server to stop the request in flight ----
 * Through a connection of its own, so that a caller with many sessions
 * starts every request at once and then finishes each by one deadline:
 * the whole stop waits at most until then, whatever the server does
 * (session_libpq.c says how).
 */
typedef struct pgb_cancel pgb_cancel;

/*
 * Start sending the cancel request of s's request in flight; returns at
 * once.  NULL: it could not be started (errbuf says why).  The request
 * owns what it needs: s may be closed before it is finished.
 */
pgb_cancel *pgb_cancel_start(pgb_session *s, char *errbuf, size_t errlen);

/*
 * Wait for c until deadline (pgb_time_now's clock; a deadline passed
 * already only looks).  true: the server took the request.  false: it
 * could not be delivered, or had no answer by the deadline (errbuf says
 * which).  Frees c either way; a request still on its way goes on
 * without the caller, and frees itself.
 */
bool		pgb_cancel_finish(pgb_cancel *c, pg_time_usec_t deadline, char *errbuf,
							  size_t errlen);

/* ---- results (NULL is taken as a fatal error without fields) ---- */

pgb_res_status pgb_result_status(const pgb_result *r);
int			pgb_result_ntuples(const pgb_result *r);
int			pgb_result_nfields(const pgb_result *r);
const char *pgb_result_fname(const pgb_result *r, int field);
const char *pgb_result_value(const pgb_result *r, int row, int field);
int			pgb_result_length(const pgb_result *r, int row, int field);
bool		pgb_result_isnull(const pgb_result *r, int row, int field);

/* The SQLSTATE of an error result; NULL when it has none. */
const char *pgb_result_sqlstate(const pgb_result *r);

/* The error message of an error result ("" when none), newline-terminated. */
const char *pgb_result_error(const pgb_result *r);

/* Free a result; NULL is fine. */
void		pgb_result_clear(pgb_result *r);

#endif
