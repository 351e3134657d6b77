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
 * libpq 15 has no non-blocking cancel (PQcancelStart is libpq 17's):
 * PQcancel connects to the server, sends the request and waits for the
 * server to close, with no timeout, so that a silent server (a frozen
 * host, a black-holed route) holds it for minutes or for ever.  So each
 * request runs PQcancel on a detached thread of its own, started by
 * pgb_cancel_start, and pgb_cancel_finish waits for it on the monotonic
 * clock until the caller's deadline; past that the caller goes on (the
 * request may still arrive) and the thread frees what it holds when
 * PQcancel returns, or the process ends.  The thread's stack is small:
 * PQcancel needs little, and a stop may start dozens of them at once.
 */
#define CANCEL_STACK_SIZE (512 * 1024)

struct pgb_cancel
{
	pthread_mutex_t lock;
	pthread_cond_t done_cond;	/* on CLOCK_MONOTONIC, as the deadline */
	PGcancel   *cancel;			/* the session's address and key, a copy */
	pg_time_usec_t started;		/* when pgb_cancel_start ran */
	bool		done;			/* under lock: PQcancel returned */
	bool		abandoned;		/* under lock: the caller stopped waiting, the
								 * thread frees */
	bool		ok;				/* under lock, once done: delivered */
	char		errbuf[256];	/* under lock, once done: why not */
};

static void
cancel_job_free(pgb_cancel *job)
{
	PQfreeCancel(job->cancel);
	pthread_cond_destroy(&job->done_cond);
	pthread_mutex_destroy(&job->lock);
	free(job);
}

static void *
cancel_thread(void *arg)
{
	pgb_cancel *job = arg;
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

/* Wait for job until deadline; false on timeout (then it is abandoned). */
static bool
cancel_wait(pgb_cancel *job, pg_time_usec_t deadline)
{
	struct timespec until = {
		.tv_sec = (time_t) (deadline / 1000000),
		.tv_nsec = (long) (deadline % 1000000) * 1000,
	};
	bool		done;

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

/* The job's lock and its condition variable, on the monotonic clock. */
static bool
cancel_job_init(pgb_cancel *job)
{
	pthread_condattr_t cattr;
	bool		ok;

	if (pthread_condattr_init(&cattr) != 0)
		return false;
	ok = pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC) == 0 &&
		pthread_cond_init(&job->done_cond, &cattr) == 0;
	pthread_condattr_destroy(&cattr);
	if (ok && pthread_mutex_init(&job->lock, NULL) != 0)
	{
		pthread_cond_destroy(&job->done_cond);
		ok = false;
	}
	return ok;
}

pgb_cancel *
pgb_cancel_start(pgb_session *s, char *errbuf, size_t errlen)
{
	pgb_cancel *job = calloc(1, sizeof(pgb_cancel));
	pthread_attr_t attr;
	pthread_t	tid;
	int			rc;

	if (job == NULL || (job->cancel = PQgetCancel(CONN(s))) == NULL)
	{
		snprintf(errbuf, errlen, "%s",
				 job != NULL && PQstatus(CONN(s)) == CONNECTION_BAD ? "the connection is lost"
				 : "out of memory");
		free(job);
		return NULL;
	}
	if (!cancel_job_init(job))
	{
		PQfreeCancel(job->cancel);
		free(job);
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	job->started = pgb_time_now();
	rc = pthread_attr_init(&attr);
	if (rc == 0)
	{
		pthread_attr_setstacksize(&attr, CANCEL_STACK_SIZE);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		rc = pthread_create(&tid, &attr, cancel_thread, job);
		pthread_attr_destroy(&attr);
	}
	if (rc != 0)
	{
		/* never PQcancel here: it may block for ever */
		snprintf(errbuf, errlen, "could not start a thread for it: %s", strerror(rc));
		cancel_job_free(job);
		return NULL;
	}
	return job;
}

bool
pgb_cancel_finish(pgb_cancel *c, pg_time_usec_t deadline, char *errbuf, size_t errlen)
{
	pg_time_usec_t waited = deadline > c->started ? deadline - c->started : 0;
	bool		ok;

	if (!cancel_wait(c, deadline))
	{
		/* c is the thread's now: not to be touched again */
		snprintf(errbuf, errlen, "no answer from the server within %.1f s",
				 (double) waited / 1e6);
		return false;
	}
	ok = c->ok;
	snprintf(errbuf, errlen, "%s", c->errbuf);
	cancel_job_free(c);
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
