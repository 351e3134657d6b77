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
	txlog_close(&w->log, pgb_time_to_epoch(pgb_time_now()), ignored, sizeof(ignored));
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
		txlog_add(&w->log, tx, pgb_time_to_epoch(now), &w->sample_rs);	/* an error is kept in the log */
	if (ctx->publish_progress)
		progress_publish(&w->progress, &w->stats.total);
}

/* Close the log on the way out; a write error is kept for the report. */
static void
finish_log(worker *w)
{
	if (!w->log.is_open)
		return;
	if (!txlog_close(&w->log, pgb_time_to_epoch(pgb_time_now()), w->log_error, sizeof(w->log_error)) &&
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
 * The loop's bookkeeping over the thread's clients, kept up to date as
 * clients run, so that a pass never has to ask every client again.
 */
typedef struct loop_state
{
	int			remains;		/* clients neither finished nor aborted */
	int			runnable;		/* clients that can run without waiting */
	int			timers;			/* clients waiting for a time */
	int			first_index;	/* waitset entry of the first client */
} loop_state;

/* Count (delta 1) or uncount (-1) a wait in the loop's totals. */
static void
count_wait(loop_state *ls, client_wait_kind kind, int delta)
{
	if (kind == CWAIT_NONE)
		ls->runnable += delta;
	else if (kind == CWAIT_TIMER)
		ls->timers += delta;
}

/*
 * After client c ran (or before its first run): note what it waits for
 * now, and touch its waitset entry only if the socket or direction
 * changed, which in steady state is never.
 */
static void
note_wait(worker *w, loop_state *ls, client *c)
{
	int			fd = -1;
	waitset_event event = WAITSET_READ;
	pg_time_usec_t at = 0;
	client_wait_kind kind = client_wait(c, &fd, &event, &at);

	/* a broken socket is found out by running the client */
	if (kind == CWAIT_SOCKET && fd < 0)
		kind = CWAIT_NONE;
	if (kind != CWAIT_SOCKET)
		fd = -1;
	count_wait(ls, c->wait_kind, -1);
	count_wait(ls, kind, 1);
	c->wait_kind = kind;
	c->wake_at = at;
	if (fd != c->wait_fd || (fd >= 0 && event != c->wait_event))
	{
		waitset_set(w->ws, c->ws_index, fd, event);
		c->wait_fd = fd;
		c->wait_event = event;
	}
}

/* The earliest time a timer client or the -T deadline wants the thread. */
static pg_time_usec_t
earliest_wake(const worker *w, const loop_state *ls)
{
	pg_time_usec_t wake = INT64_MAX;

	if (ls->timers > 0)
		for (int i = 0; i < w->nclients; i++)
			if (w->clients[i].wait_kind == CWAIT_TIMER && w->clients[i].wake_at < wake)
				wake = w->clients[i].wake_at;
	if (!w->timer_exceeded && w->ctx->end_time > 0 && w->ctx->end_time < wake)
		wake = w->ctx->end_time;
	return wake;
}

/*
 * Wait for the next event when no client can run now: a readable socket,
 * a timer, the -T deadline or a stop.  *nready is the number of ready
 * sockets (0 when nothing was polled: then no entry may be trusted, as it
 * holds an earlier pass's answer).  Returns false when the loop must end
 * (stop or a wait failure).
 */
static bool
wait_for_events(worker *w, const loop_state *ls, int stop_index, int *nready)
{
	pg_time_usec_t wake;
	pg_time_usec_t timeout = -1;
	int			rc;

	*nready = 0;
	if (ls->runnable > 0)
		return true;
	wake = earliest_wake(w, ls);
	if (wake != INT64_MAX)
	{
		timeout = wake - pgb_time_now();
		if (timeout <= 0)
			return true;
	}
	rc = waitset_wait(w->ws, timeout);
	if (rc < 0 && errno != EINTR)
	{
		diag_error("ppoll() failed: %s", strerror(errno));
		return false;
	}
	if (rc > 0)
		*nready = rc;
	return !(rc > 0 && stop_index >= 0 && waitset_ready(w->ws, stop_index));
}

/* Whether client c has something to do in this pass. */
static bool
client_due(const client *c, const worker *w, bool polled, pg_time_usec_t pass_now)
{
	switch (c->wait_kind)
	{
		case CWAIT_NONE:
			return true;
		case CWAIT_SOCKET:
			return polled && waitset_ready(w->ws, c->ws_index);
		case CWAIT_TIMER:
			return w->timer_exceeded || c->wake_at <= pass_now;
		default:
			return false;
	}
}

/*
 * Each client has a fixed waitset entry (after the stop fd, if any),
 * updated only when its wait changes.  A pass polls only when nobody can
 * run, reads the clock once, and visits clients in order until every
 * runnable client and ready socket is served; with timers pending (-R,
 * \sleep) or -T over it looks at all of them.
 */
static void
run_loop(worker *w)
{
	run_context *ctx = w->ctx;
	loop_state	ls = {.remains = w->nclients};
	int			stop_index = -1;

	waitset_clear(w->ws);
	if (ctx->stop_fd >= 0)
		stop_index = waitset_add(w->ws, ctx->stop_fd, WAITSET_READ);
	ls.first_index = stop_index + 1;
	for (int i = 0; i < w->nclients; i++)
	{
		client	   *c = &w->clients[i];

		c->ws_index = ls.first_index + i;
		c->wait_kind = CWAIT_DONE;	/* counted in no total yet */
		c->wait_fd = -1;
		waitset_set(w->ws, c->ws_index, -1, WAITSET_READ);
		note_wait(w, &ls, c);
	}

	while (ls.remains > 0)
	{
		pg_time_usec_t pass_now;
		bool		clock_fresh = true;
		int			nready;
		int			todo;

		if (!wait_for_events(w, &ls, stop_index, &nready) || atomic_load(&ctx->stop))
			return;

		pass_now = pgb_time_now();
		if (ctx->end_time > 0 && pass_now >= ctx->end_time)
			w->timer_exceeded = true;

		/* who is due now; a client run in this pass is not visited again */
		todo = ls.timers > 0 || w->timer_exceeded ? w->nclients : ls.runnable + nready;
		for (int i = 0; i < w->nclients && todo > 0; i++)
		{
			client	   *c = &w->clients[i];
			pg_time_usec_t now;

			if (c->wait_kind == CWAIT_DONE || !client_due(c, w, nready > 0, pass_now))
				continue;
			todo--;

			/* the first client runs right after the clock read; later ones read it */
			now = clock_fresh ? pass_now : 0;
			clock_fresh = false;
			client_advance(c, w, &now);
			if (c->state == CSTATE_ABORTED && ctx->opts->exit_on_abort)
			{
				request_stop(w);
				return;
			}
			if (c->state == CSTATE_FINISHED || c->state == CSTATE_ABORTED)
				ls.remains--;
			note_wait(w, &ls, c);
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
		txlog_begin(&w->log, pgb_time_to_epoch(w->bench_start));

	if (!atomic_load(&ctx->setup_failed))
		run_loop(w);

	disconnect_all(w);
	finish_log(w);
	signal_done(w);
	return NULL;
}
