/*
 * thread.c — a benchmark worker: the READY and GO barriers, the concurrent
 * non-blocking connection of its clients, and the event loop that advances
 * their state machines with one wait per pass.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/client.h"
#include "pgbench/diag.h"
#include "pgbench/thread.h"

bool
worker_prepare(worker *w)
{
	const run_context *ctx = w->ctx;

	/* one slot per client socket, plus the stop eventfd */
	w->ws = waitset_create(w->nclients + 1);
	if (w->ws == NULL)
		return false;
	progress_slot_init(&w->progress);
	w->log_error[0] = '\0';
	if (!stats_run_init(&w->stats, ctx->scripts->nscripts, ctx->total_commands))
		return false;
	return !ctx->keep_hist || stats_run_enable_hist(&w->stats, ctx->per_script_stats);
}

void
worker_cleanup(worker *w)
{
	char		ignored[8];

	/* a log the thread never got to close (the run did not start) */
	txlog_close(&w->log, pgb_time_now(), ignored, sizeof(ignored));
	waitset_free(w->ws);
	w->ws = NULL;
	stats_run_free(&w->stats);
}

void
worker_after_transaction(worker *w, const txlog_txn *tx, pg_time_usec_t now)
{
	const run_context *ctx = w->ctx;

	if (tx->outcome == STATS_SUCCESS)
		stats_run_record_latency(&w->stats, tx->script_no, tx->latency);
	if (w->log.is_open)
		txlog_add(&w->log, tx, now, &w->sample_rs);	/* an error is kept in the log */
	if (ctx->publish_progress)
		progress_publish(&w->progress, &w->stats.total);
}

/* Close the log on the way out; a write error is kept for the report. */
static void
finish_log(worker *w)
{
	if (!w->log.is_open)
		return;
	if (!txlog_close(&w->log, pgb_time_now(), w->log_error, sizeof(w->log_error)) &&
		w->log_error[0] == '\0')
		snprintf(w->log_error, sizeof(w->log_error), "could not write to log file");
}

/* Tell the progress timer that one more worker is done. */
static void
signal_done(worker *w)
{
	run_context *ctx = w->ctx;

	pthread_mutex_lock(&ctx->done_lock);
	ctx->workers_running--;
	pthread_cond_signal(&ctx->done_cond);
	pthread_mutex_unlock(&ctx->done_lock);
}

static void
disconnect_all(worker *w)
{
	for (int i = 0; i < w->nclients; i++)
		client_disconnect(&w->clients[i]);
}

/* Print the failure once per run, whichever thread sees one first. */
static void
report_setup_failure(worker *w, const client *c, const char *message)
{
	if (atomic_exchange(&w->ctx->setup_failed, true))
		return;
	diag_error("%s", message);
	diag_error("could not create connection for client %d", c->id);
}

/*
 * Open every client's connection at once: start them all, then wait on
 * all their sockets together until each is up.  Stops at the first
 * failure, as pgbench does.
 */
static bool
connect_all(worker *w)
{
	char		errbuf[1024];
	int			pending = 0;

	for (int i = 0; i < w->nclients; i++)
	{
		client	   *c = &w->clients[i];

		if (!client_connect_start(c, w->ctx, errbuf, sizeof(errbuf)))
		{
			report_setup_failure(w, c, errbuf);
			return false;
		}
		pending++;
	}

	while (pending > 0)
	{
		waitset_clear(w->ws);
		for (int i = 0; i < w->nclients; i++)
		{
			client	   *c = &w->clients[i];

			c->ws_index = -1;
			if (c->connect_poll != PGRES_POLLING_OK)
				c->ws_index = waitset_add(w->ws, PQsocket(c->conn),
										  c->connect_poll == PGRES_POLLING_READING
										  ? WAITSET_READ : WAITSET_WRITE);
		}
		if (waitset_wait(w->ws, -1) < 0)
		{
			if (errno == EINTR)
				continue;
			snprintf(errbuf, sizeof(errbuf), "ppoll() failed: %s", strerror(errno));
			report_setup_failure(w, &w->clients[0], errbuf);
			return false;
		}
		for (int i = 0; i < w->nclients; i++)
		{
			client	   *c = &w->clients[i];
			int			rc;

			if (!waitset_ready(w->ws, c->ws_index))
				continue;
			rc = client_connect_continue(c, errbuf, sizeof(errbuf));
			if (rc < 0)
			{
				report_setup_failure(w, c, errbuf);
				return false;
			}
			pending -= rc;
		}
	}
	return true;
}

/* --exit-on-abort: tell every thread, and wake those blocked in a wait. */
static void
request_stop(worker *w)
{
	run_context *ctx = w->ctx;
	uint64_t	one = 1;

	if (atomic_exchange(&ctx->stop, true))
		return;
	diag_error("Run was aborted due to an error in thread %d", w->tid);
	if (ctx->stop_fd >= 0 && write(ctx->stop_fd, &one, sizeof(one)) < 0)
	{
		/* the flag alone still stops threads at their next pass */
	}
}

/*
 * Register what each client waits for.  Returns true when some client can
 * run now, so the pass must not block; *wake is the earliest timer.
 */
static bool
collect_waits(worker *w, pg_time_usec_t *wake)
{
	bool		runnable = false;

	for (int i = 0; i < w->nclients; i++)
	{
		client	   *c = &w->clients[i];
		int			fd = -1;
		waitset_event event = WAITSET_READ;
		pg_time_usec_t at = 0;

		c->ws_index = -1;
		switch (client_wait(c, &fd, &event, &at))
		{
			case CWAIT_NONE:
				runnable = true;
				break;
			case CWAIT_SOCKET:
				/* a broken socket is found out by running the client */
				if (fd < 0)
					runnable = true;
				else if (!runnable)
					c->ws_index = waitset_add(w->ws, fd, event);
				break;
			case CWAIT_TIMER:
				if (at < *wake)
					*wake = at;
				break;
			case CWAIT_DONE:
				break;
		}
	}
	return runnable;
}

/* Whether client c has something to do in this pass. */
static bool
client_due(const client *c, const worker *w, pg_time_usec_t pass_now)
{
	int			fd = -1;
	waitset_event event;
	pg_time_usec_t at = 0;

	switch (client_wait(c, &fd, &event, &at))
	{
		case CWAIT_NONE:
			return true;
		case CWAIT_SOCKET:
			return fd < 0 || waitset_ready(w->ws, c->ws_index);
		case CWAIT_TIMER:
			return w->timer_exceeded || at <= pass_now;
		default:
			return false;
	}
}

/*
 * Wait for the next event of the pass: a readable socket, a timer, the -T
 * deadline or a stop.  Returns false when the loop must end (stop or a
 * wait failure).
 */
static bool
wait_for_events(worker *w, bool runnable, pg_time_usec_t wake, int stop_index)
{
	const run_context *ctx = w->ctx;
	pg_time_usec_t timeout = -1;
	int			rc;

	if (!w->timer_exceeded && ctx->end_time > 0 && ctx->end_time < wake)
		wake = ctx->end_time;
	if (runnable)
	{
		/* someone can run now: do not poll, treat no socket as ready */
		waitset_clear(w->ws);
		return true;
	}
	if (wake != INT64_MAX)
	{
		timeout = wake - pgb_time_now();
		if (timeout <= 0)
		{
			waitset_clear(w->ws);
			return true;
		}
	}
	rc = waitset_wait(w->ws, timeout);
	if (rc < 0 && errno != EINTR)
	{
		diag_error("ppoll() failed: %s", strerror(errno));
		return false;
	}
	if (rc < 0)
		waitset_clear(w->ws);
	return !(stop_index >= 0 && waitset_ready(w->ws, stop_index));
}

static void
run_loop(worker *w)
{
	run_context *ctx = w->ctx;
	int			remains = w->nclients;

	while (remains > 0)
	{
		pg_time_usec_t wake = INT64_MAX;
		pg_time_usec_t pass_now;
		int			stop_index = -1;
		bool		runnable;

		waitset_clear(w->ws);
		if (ctx->stop_fd >= 0)
			stop_index = waitset_add(w->ws, ctx->stop_fd, WAITSET_READ);
		runnable = collect_waits(w, &wake);
		if (!wait_for_events(w, runnable, wake, stop_index) || atomic_load(&ctx->stop))
			return;

		pass_now = pgb_time_now();
		if (ctx->end_time > 0 && pass_now >= ctx->end_time)
			w->timer_exceeded = true;

		for (int i = 0; i < w->nclients; i++)
		{
			client	   *c = &w->clients[i];
			pg_time_usec_t now = 0;

			if (!client_due(c, w, pass_now))
				continue;
			client_advance(c, w, &now);
			if (c->state == CSTATE_ABORTED && ctx->opts->exit_on_abort)
			{
				request_stop(w);
				return;
			}
			if (c->state == CSTATE_FINISHED || c->state == CSTATE_ABORTED)
				remains--;
		}
	}
}

void *
worker_main(void *arg)
{
	worker	   *w = arg;
	run_context *ctx = w->ctx;
	bool		connected = true;

	/* READY: every thread exists */
	pthread_barrier_wait(&ctx->barrier);

	if (!ctx->opts->connect_each)
		connected = connect_all(w);
	if (!connected)
		disconnect_all(w);

	/* GO: every connection is up (or the run is off) */
	pthread_barrier_wait(&ctx->barrier);

	w->bench_start = pgb_time_now();
	w->throttle_trigger = w->bench_start;
	if (w->log.is_open)
		txlog_begin(&w->log, w->bench_start);

	if (!atomic_load(&ctx->setup_failed))
		run_loop(w);

	disconnect_all(w);
	finish_log(w);
	signal_done(w);
	return NULL;
}
