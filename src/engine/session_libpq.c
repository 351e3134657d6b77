/*
 * session_libpq.c — the session port (session.h) over libpq: the
 * program's implementation.  A session is the PGconn itself and a result
 * the PGresult, and the status enums carry libpq's values, so that each
 * call compiles to a jump to its libpq function (and under LTO to the
 * call itself): the port costs the hot path nothing to speak of.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "pgbench/engine/session.h"

/* The engine's enums are libpq's values: no translation on the way. */
_Static_assert((int) PGB_RES_EMPTY_QUERY == (int) PGRES_EMPTY_QUERY &&
			   (int) PGB_RES_COMMAND_OK == (int) PGRES_COMMAND_OK &&
			   (int) PGB_RES_TUPLES_OK == (int) PGRES_TUPLES_OK &&
			   (int) PGB_RES_COPY_OUT == (int) PGRES_COPY_OUT &&
			   (int) PGB_RES_COPY_IN == (int) PGRES_COPY_IN &&
			   (int) PGB_RES_BAD_RESPONSE == (int) PGRES_BAD_RESPONSE &&
			   (int) PGB_RES_NONFATAL_ERROR == (int) PGRES_NONFATAL_ERROR &&
			   (int) PGB_RES_FATAL_ERROR == (int) PGRES_FATAL_ERROR &&
			   (int) PGB_RES_COPY_BOTH == (int) PGRES_COPY_BOTH &&
			   (int) PGB_RES_SINGLE_TUPLE == (int) PGRES_SINGLE_TUPLE &&
			   (int) PGB_RES_PIPELINE_SYNC == (int) PGRES_PIPELINE_SYNC &&
			   (int) PGB_RES_PIPELINE_ABORTED == (int) PGRES_PIPELINE_ABORTED,
			   "pgb_res_status follows ExecStatusType");
_Static_assert((int) PGB_TX_IDLE == (int) PQTRANS_IDLE &&
			   (int) PGB_TX_ACTIVE == (int) PQTRANS_ACTIVE &&
			   (int) PGB_TX_INTRANS == (int) PQTRANS_INTRANS &&
			   (int) PGB_TX_INERROR == (int) PQTRANS_INERROR &&
			   (int) PGB_TX_UNKNOWN == (int) PQTRANS_UNKNOWN,
			   "pgb_tx_status follows PGTransactionStatusType");
_Static_assert((int) PGB_PIPELINE_OFF == (int) PQ_PIPELINE_OFF &&
			   (int) PGB_PIPELINE_ON == (int) PQ_PIPELINE_ON &&
			   (int) PGB_PIPELINE_ABORTED == (int) PQ_PIPELINE_ABORTED,
			   "pgb_pipeline_status follows PGpipelineStatus");

#define CONN(s) ((PGconn *) (s))
#define CCONN(s) ((const PGconn *) (s))
#define RES(r) ((PGresult *) (r))
#define CRES(r) ((const PGresult *) (r))

conn_step
pgb_connect_start(conn_attempt *a, const conn_plan *plan, pg_time_usec_t now)
{
	return conn_attempt_start(a, plan, now);
}

conn_step
pgb_connect_continue(conn_attempt *a, pg_time_usec_t now, bool ready)
{
	return conn_attempt_continue(a, now, ready);
}

conn_step
pgb_connect_retry(conn_attempt *a, pg_time_usec_t now)
{
	return conn_attempt_retry(a, now);
}

bool
pgb_connect_ready_now(const conn_attempt *a)
{
	return conn_attempt_ready_now(a);
}

int
pgb_connect_socket(const conn_attempt *a, bool *for_read)
{
	return conn_attempt_socket(a, for_read);
}

void
pgb_connect_error(const conn_attempt *a, char *buf, size_t len)
{
	conn_attempt_error(a, buf, len);
}

void
pgb_connect_cancel(conn_attempt *a)
{
	conn_attempt_cancel(a);
}

pgb_session *
pgb_session_take(conn_attempt *a)
{
	return (pgb_session *) conn_attempt_take(a);
}

void
pgb_session_close(pgb_session *s)
{
	PQfinish(CONN(s));
}

int
pgb_session_socket(const pgb_session *s)
{
	return PQsocket(CCONN(s));
}

bool
pgb_session_broken(const pgb_session *s)
{
	return PQstatus(CCONN(s)) == CONNECTION_BAD;
}

const char *
pgb_session_error(const pgb_session *s)
{
	return PQerrorMessage(CCONN(s));
}

int
pgb_session_send_query(pgb_session *s, const char *sql)
{
	return PQsendQuery(CONN(s), sql);
}

int
pgb_session_send_params(pgb_session *s, const char *sql, int nparams,
						const char *const *params)
{
	return PQsendQueryParams(CONN(s), sql, nparams, NULL, params, NULL, NULL, 0);
}

int
pgb_session_send_prepare(pgb_session *s, const char *name, const char *sql, int nparams)
{
	return PQsendPrepare(CONN(s), name, sql, nparams, NULL);
}

int
pgb_session_send_prepared(pgb_session *s, const char *name, int nparams,
						  const char *const *params)
{
	return PQsendQueryPrepared(CONN(s), name, nparams, params, NULL, NULL, 0);
}

int
pgb_session_consume(pgb_session *s)
{
	return PQconsumeInput(CONN(s));
}

int
pgb_session_busy(pgb_session *s)
{
	return PQisBusy(CONN(s));
}

pgb_result *
pgb_session_result(pgb_session *s)
{
	return (pgb_result *) PQgetResult(CONN(s));
}

int
pgb_session_pipeline_enter(pgb_session *s)
{
	return PQenterPipelineMode(CONN(s));
}

int
pgb_session_pipeline_exit(pgb_session *s)
{
	return PQexitPipelineMode(CONN(s));
}

int
pgb_session_pipeline_sync(pgb_session *s)
{
	return PQpipelineSync(CONN(s));
}

int
pgb_session_pipeline_send_sync(pgb_session *s)
{
#ifdef LIBPQ_HAS_SEND_PIPELINE_SYNC
	return PQsendPipelineSync(CONN(s));
#else
	return PQpipelineSync(CONN(s));
#endif
}

pgb_pipeline_status
pgb_session_pipeline(const pgb_session *s)
{
	return (pgb_pipeline_status) PQpipelineStatus(CCONN(s));
}

pgb_tx_status
pgb_session_tx_status(const pgb_session *s)
{
	return (pgb_tx_status) PQtransactionStatus(CCONN(s));
}

/* ---- cancel ----------------------------------------------------------- */

/*
 * libpq 15 has no non-blocking cancel: PQcancel connects to the server,
 * sends the request and waits for the server to close, with no timeout.
 * So it runs on a thread of its own, which the caller waits for at most
 * CANCEL_WAIT_SEC; past that the caller goes on (the request may still
 * arrive) and the thread, detached, frees what it holds when PQcancel
 * returns or the process ends.
 */
#define CANCEL_WAIT_SEC 2

typedef struct cancel_job
{
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
	PGcancel   *cancel;
	bool		done;
	bool		abandoned;		/* the caller stopped waiting: the thread frees */
	bool		ok;
	char		errbuf[256];
} cancel_job;

static void
cancel_job_free(cancel_job *job)
{
	PQfreeCancel(job->cancel);
	pthread_cond_destroy(&job->done_cond);
	pthread_mutex_destroy(&job->lock);
	free(job);
}

static void *
cancel_thread(void *arg)
{
	cancel_job *job = arg;
	char		errbuf[sizeof(job->errbuf)];
	bool		ok = PQcancel(job->cancel, errbuf, sizeof(errbuf)) != 0;
	bool		abandoned;

	pthread_mutex_lock(&job->lock);
	job->ok = ok;
	memcpy(job->errbuf, errbuf, sizeof(errbuf));
	job->done = true;
	abandoned = job->abandoned;
	pthread_cond_signal(&job->done_cond);
	pthread_mutex_unlock(&job->lock);
	if (abandoned)
		cancel_job_free(job);
	return NULL;
}

/* Wait for job until CANCEL_WAIT_SEC from now; false on timeout (abandoned). */
static bool
cancel_wait(cancel_job *job)
{
	struct timespec until;
	bool		done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += CANCEL_WAIT_SEC;
	pthread_mutex_lock(&job->lock);
	while (!job->done &&
		   pthread_cond_timedwait(&job->done_cond, &job->lock, &until) != ETIMEDOUT)
		;
	done = job->done;
	if (!done)
		job->abandoned = true;
	pthread_mutex_unlock(&job->lock);
	return done;
}

bool
pgb_session_cancel(pgb_session *s, char *errbuf, size_t errlen)
{
	cancel_job *job = calloc(1, sizeof(cancel_job));
	pthread_t	tid;
	bool		ok;

	if (job == NULL || (job->cancel = PQgetCancel(CONN(s))) == NULL)
	{
		free(job);
		snprintf(errbuf, errlen, "out of memory");
		return false;
	}
	pthread_mutex_init(&job->lock, NULL);
	pthread_cond_init(&job->done_cond, NULL);
	if (pthread_create(&tid, NULL, cancel_thread, job) != 0)
	{
		/* no thread to spare: cancel here, unbounded as libpq is */
		ok = PQcancel(job->cancel, errbuf, (int) errlen) != 0;
		cancel_job_free(job);
		return ok;
	}
	pthread_detach(tid);
	if (!cancel_wait(job))
	{
		snprintf(errbuf, errlen, "no answer from the server within %d s", CANCEL_WAIT_SEC);
		return false;
	}
	ok = job->ok;
	snprintf(errbuf, errlen, "%s", job->errbuf);
	cancel_job_free(job);
	return ok;
}

/* ---- results ---------------------------------------------------------- */

pgb_res_status
pgb_result_status(const pgb_result *r)
{
	return (pgb_res_status) PQresultStatus(CRES(r));
}

int
pgb_result_ntuples(const pgb_result *r)
{
	return PQntuples(CRES(r));
}

int
pgb_result_nfields(const pgb_result *r)
{
	return PQnfields(CRES(r));
}

const char *
pgb_result_fname(const pgb_result *r, int field)
{
	return PQfname(CRES(r), field);
}

const char *
pgb_result_value(const pgb_result *r, int row, int field)
{
	return PQgetvalue(CRES(r), row, field);
}

int
pgb_result_length(const pgb_result *r, int row, int field)
{
	return PQgetlength(CRES(r), row, field);
}

bool
pgb_result_isnull(const pgb_result *r, int row, int field)
{
	return PQgetisnull(CRES(r), row, field) != 0;
}

const char *
pgb_result_sqlstate(const pgb_result *r)
{
	return PQresultErrorField(CRES(r), PG_DIAG_SQLSTATE);
}

const char *
pgb_result_error(const pgb_result *r)
{
	return PQresultErrorMessage(CRES(r));
}

void
pgb_result_clear(pgb_result *r)
{
	PQclear(RES(r));
}
