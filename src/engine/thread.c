/*
 * thread.c — a benchmark worker: the READY and GO barriers, the concurrent
 * non-blocking connection of its clients, and the event loop that advances
 * their state machines with one wait per pass.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/engine/thread.h"
#include "pgbench/fleet/rendezvous.h"
#include "pgbench/host/procstat.h"
#include "pgbench/stats/stats_slot.h"

#define USEC_PER_SEC INT64_C(1000000)

bool
worker_prepare(worker *w)
{
	const run_config *cfg = w->cfg;

	/* one slot per client socket, plus the stop eventfd */
	w->ws = waitset_create(w->nclients + 1);
	w->entries = calloc((size_t) (w->nclients > 0 ? w->nclients : 1), sizeof(loop_entry));
	if (w->ws == NULL || w->entries == NULL)
		return false;
	stats_slot_init(&w->progress);
	w->log_error[0] = '\0';
	if (!stats_run_init(&w->stats, cfg->scripts->nscripts, cfg->total_commands))
		return false;
	if (cfg->keep_hist && !stats_run_enable_hist(&w->stats, cfg->per_script_stats))
		return false;
	if (cfg->series_interval > 0 &&
		!stats_run_enable_report(&w->stats, &w->shared->origin, cfg->per_command))
		return false;
	/* a warm-up's counts stay in what the ticker reads (stats_slot_cut) */
	if (cfg->warmup > 0 && w->stats.latency_hist != NULL &&
		!stats_slot_enable_cut(&w->progress, w->stats.latency_hist->nbuckets))
		return false;

	w->env.cfg = cfg;
	w->env.staged = cfg->nstages > 0;
	w->env.throttle_delay = cfg->throttle_delay;
	w->env.active_limit = cfg->nclients;
	w->env.sink = (tx_sink) {
		.stats = &w->stats,
		.log = cfg->log_enabled ? &w->log : NULL,
		.sample_rs = &w->sample_rs,
		.progress = runconf_tick_interval(cfg) > 0 ? &w->progress : NULL,
		.keep_lag = cfg->throttle_delay > 0,
		.latency_limit = cfg->latency_limit,
		.per_script = cfg->per_script_stats,
	};
	client_env_set_flow(&w->env, cfg);
	return true;
}

void
worker_cleanup(worker *w)
{
	char		ignored[8];

	/* a log the thread never got to close (the run did not start) */
	txlog_close(&w->log, pgb_time_to_epoch(pgb_time_now()), ignored, sizeof(ignored));
	waitset_free(w->ws);
	w->ws = NULL;
	free(w->entries);
	w->entries = NULL;
	stats_run_free(&w->stats);
	stats_slot_release(&w->progress);
}

/* Close the log on the way out; a write error is kept for the report. */
static void
finish_log(worker *w)
{
	w->log_flush_at = INT64_MAX;
	if (!w->log.is_open)
		return;
	if (!txlog_close(&w->log, pgb_time_to_epoch(pgb_time_now()), w->log_error,
					 sizeof(w->log_error)) &&
		w->log_error[0] == '\0')
		snprintf(w->log_error, sizeof(w->log_error), "could not write to log file");
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
	if (atomic_exchange(&w->shared->setup_failed, true))
		return;
	diag_error("%s", message);
	diag_error("could not create connection for client %d", c->id);
}

/*
 * Connection attempts one thread runs at once while opening its clients'
 * connections: enough to keep the server busy (see connect_all for the
 * figures), few enough that a thousand clients never all wait in the
 * server's listen queue at once.  The window starts small and grows by one
 * per quick connection; a slow one halves it.  A TCP listen queue that
 * overflows drops the request and the kernel sends it again only after a
 * second (then 3, 7, 15 s): with a queue of 4 (net.core.somaxconn), 100
 * clients at 32 at once took 56 s, or failed with "Connection timed out";
 * pgbench, one at a time, 2.6 s.
 */
#define CONNECT_WINDOW_MAX 32
#define CONNECT_WINDOW_START 2
#define CONNECT_SLOW_USEC 1000000

/* The longest connect_all waits before looking whether another thread failed. */
#define CONNECT_CHECK_USEC 100000

/* Where connect_all stands: clients [0, next) were started. */
typedef struct connect_round
{
	int			next;			/* next client to start */
	int			pending;		/* started and not yet up, nor failed */
	int			failed;			/* lowest client that failed; -1: none */
	int			window;			/* attempts allowed at once now */
	char		message[1024];	/* its connection message */
} connect_round;

/* Start clients until the window is full; a refusal ends the starting. */
static void
start_connects(worker *w, connect_round *r)
{
	while (r->failed < 0 && r->next < w->nclients && r->pending < r->window)
	{
		client	   *c = &w->clients[r->next];

		if (client_connect_start(c, w->cfg, pgb_time_now(), r->message, sizeof(r->message)))
			r->pending++;
		else
			r->failed = r->next;
		r->next++;
	}
}

/*
 * Put every pending connection's socket in the waitset, in its direction;
 * returns how long to wait at most: until the earliest retry or deadline,
 * and never so long that a failure of another thread goes unseen.
 */
static pg_time_usec_t
wait_for_connects(worker *w, const connect_round *r)
{
	pg_time_usec_t now = pgb_time_now();
	pg_time_usec_t timeout = CONNECT_CHECK_USEC;

	waitset_clear(w->ws);
	for (int i = 0; i < r->next; i++)
	{
		const client *c = &w->clients[i];
		pg_time_usec_t wake;

		w->entries[i].ws_index = -1;
		if (!client_connect_pending(c))
			continue;
		wake = client_connect_wake(c);
		if (wake > 0 && wake - now < timeout)
			timeout = wake > now ? wake - now : 0;
		if (c->connect_retry_at == 0)
		{
			bool		for_read;
			int			fd = pgb_connect_socket(&c->connecting, &for_read);

			w->entries[i].ws_index =
				waitset_add(w->ws, fd, for_read ? WAITSET_READ : WAITSET_WRITE);
		}
	}
	return timeout;
}

/* Move every pending connection on after a wait that returned nready. */
static void
continue_connects(worker *w, connect_round *r, int nready)
{
	pg_time_usec_t now = pgb_time_now();
	char		errbuf[sizeof(r->message)];

	for (int i = 0; i < r->next; i++)
	{
		client	   *c = &w->clients[i];
		bool		ready;
		int			rc;

		if (!client_connect_pending(c))
			continue;
		/* past a failure only what pgbench would have met first matters */
		if (r->failed >= 0 && i > r->failed)
		{
			client_disconnect(c);
			r->pending--;
			continue;
		}
		ready = nready > 0 && waitset_ready(w->ws, w->entries[i].ws_index);
		rc = client_connect_continue(c, w->cfg, now, ready, errbuf, sizeof(errbuf));
		if (rc == 0)
			continue;
		r->pending--;
		if (rc > 0 && now - c->connect_start < CONNECT_SLOW_USEC)
			r->window += r->window < CONNECT_WINDOW_MAX;
		else if (rc > 0)
			r->window = r->window > 1 ? r->window / 2 : 1;
		if (rc < 0 && (r->failed < 0 || i < r->failed))
		{
			r->failed = i;
			memcpy(r->message, errbuf, sizeof(r->message));
		}
	}
}

/*
 * Open every client's connection before the run, a window at a time,
 * without blocking: each attempt within its connect_timeout, a full listen
 * queue met with a short wait and a new try.  Without a timeout a server
 * that never answers is waited for, as pgbench's blocking connect waits.
 * On failure the message is that of the lowest-numbered client that
 * failed, as pgbench, connecting its clients in order, reports the first.
 * A stop (a signal) ends it within CONNECT_CHECK_USEC, false, with nothing
 * reported: the run ends as an interrupted run.
 * -c 1000 -j 2 on a two-core machine under a load of 20 to 80 connected
 * in 30 to 39 s with fixed windows of 16, 32, 64 or all at once alike,
 * where pgbench 15 took 61 to 65 s; with the growing window 23 s against
 * pgbench's 31 s (and over TCP with a listen queue of 4, 24 s against 32).
 */
static bool
connect_all(worker *w)
{
	connect_round r = {.failed = -1, .window = CONNECT_WINDOW_START};

	for (;;)
	{
		pg_time_usec_t timeout;
		int			nready;

		start_connects(w, &r);
		if (r.pending == 0)
			break;
		/* a signal ends the wait; the run then reports what it did: nothing */
		if (atomic_load(&w->shared->setup_failed) || atomic_load(&w->shared->stop))
			return false;
		timeout = wait_for_connects(w, &r);
		nready = waitset_wait(w->ws, timeout);
		if (nready < 0 && errno != EINTR)
		{
			snprintf(r.message, sizeof(r.message), "ppoll() failed: %s", strerror(errno));
			report_setup_failure(w, &w->clients[0], r.message);
			return false;
		}
		continue_connects(w, &r, nready);
	}
	if (r.failed >= 0)
	{
		report_setup_failure(w, &w->clients[r.failed], r.message);
		return false;
	}
	return true;
}

/*
 * The log's once-a-second flush, due at now (the pass's clock): what is
 * buffered (and in aggregate mode every interval ended by now) reaches
 * the file, so that tail -f follows the run and a killed process loses at
 * most a second.  The next one is due at the next whole second of the
 * run's origin, the grid the -P lines keep too.  Kept out of line: once
 * a second, it must not weigh on the loop's code.
 */
__attribute__((noinline, cold))
static void
tick_log(worker *w, pg_time_usec_t now)
{
	txlog_tick(&w->log, pgb_time_to_epoch(now));
	w->log_flush_at += (now - w->log_flush_at) / USEC_PER_SEC * USEC_PER_SEC + USEC_PER_SEC;
}

/* The -l log starts at start; its next flush is on the origin's grid. */
static void
begin_log(worker *w, pg_time_usec_t start)
{
	pg_time_usec_t origin = w->shared->origin;

	txlog_begin(&w->log, pgb_time_to_epoch(start));
	w->log_flush_at = origin + (start > origin ? (start - origin) / USEC_PER_SEC : 0) * USEC_PER_SEC +
		USEC_PER_SEC;
}

/*
 * --warmup is over (or the run ended in it, now): the worker forgets what
 * it counted, the published totals excepted (stats_slot_cut), and its
 * figures and -l log begin at the end of the warm-up, or at its own
 * start if that came later.  Once per run: kept out of the loop's code.
 */
__attribute__((noinline, cold))
static void
end_warmup(worker *w, pg_time_usec_t now)
{
	pg_time_usec_t start = w->bench_start > w->warm_end ? w->bench_start : w->warm_end;

	w->measure_start = start < now ? start : now;
	w->warm_end = INT64_MAX;
	stats_slot_cut(w->env.sink.progress, &w->stats);
	if (w->log.is_open)
	{
		w->env.sink.log = &w->log;
		begin_log(w, w->measure_start);
	}
}

/*
 * --stages: the plan's target now, as the clients that may run (ids below
 * it) or as the -R delay of the rate form; looked at again in
 * CLIENT_STAGE_POLL_US / 2.
 */
static void
follow_stages(worker *w, pg_time_usec_t now)
{
	const run_config *cfg = w->cfg;
	double		target = runconf_stage_applied(cfg, now - w->shared->origin);

	if (cfg->stages_rate)
		w->env.throttle_delay = runconf_throttle_delay(target, cfg->nthreads);
	else
		w->env.active_limit = (int) target;
	w->stage_due = now + CLIENT_STAGE_POLL_US / 2;
}

/*
 * The earliest of the loop's timed chores: the one comparison a pass
 * makes.  The general path (env.general_only) looks at each chore in
 * every pass (run_due, due at once).
 */
static void
set_due(worker *w)
{
	pg_time_usec_t due = w->log_flush_at;

	if (w->warm_end < due)
		due = w->warm_end;
	if (w->stage_due < due)
		due = w->stage_due;
	w->due_at = w->env.general_only ? 0 : due;
}

/*
 * A pass's clock reached due_at: the log's flush, the end of the
 * warm-up, the stages' target, each when its time came.  Kept out of
 * line: the loop's code pays one comparison per pass for all three.
 */
__attribute__((noinline, cold))
static void
run_due(worker *w, pg_time_usec_t now)
{
	if (now >= w->log_flush_at)
		tick_log(w, now);
	if (now >= w->warm_end)
		end_warmup(w, now);
	if (now >= w->stage_due)
		follow_stages(w, now);
	set_due(w);
}

/*
 * After a signal the statements in flight are cancelled, so that the
 * server stops working for a run that is over.  Each cancel request
 * travels on a connection of its own (session.h): a thread starts all of
 * its requests at once (at most CANCEL_AT_ONCE on their way together, a
 * bound on the helper threads and on the server's listen queue) and
 * waits for them until one deadline that the whole run shares,
 * CANCEL_WAIT_USEC after the first thread began cancelling.  A server
 * that is there takes a request within milliseconds; one that has gone
 * silent (a frozen host, a black-holed route) never answers, and the
 * stop still ends within the bound, with its report.  One request at a
 * time, 2 s each, 100 clients behind such a server took 200 s to stop:
 * past a container's grace period, the report lost to SIGKILL.
 */
#define CANCEL_WAIT_USEC (2 * USEC_PER_SEC)
#define CANCEL_AT_ONCE 64

/* What became of one thread's cancel requests, for one line of stderr. */
typedef struct cancel_tally
{
	int			inflight;		/* statements in flight: requests due */
	int			failed;			/* not delivered, or no answer in time */
	char		first[256];		/* why the first of them failed */
} cancel_tally;

/* The run's cancel deadline: fixed by the first thread to ask for it. */
static pg_time_usec_t
cancel_deadline(run_shared *sh)
{
	pg_time_usec_t fixed = 0;
	pg_time_usec_t by = pgb_time_now() + CANCEL_WAIT_USEC;

	return atomic_compare_exchange_strong(&sh->cancel_by, &fixed, by) ? by : fixed;
}

static void
cancel_failed(cancel_tally *t, const char *why)
{
	if (t->failed++ == 0)
		snprintf(t->first, sizeof(t->first), "%s", why);
}

/* Wait for c until the deadline at most, and count what became of it. */
static void
cancel_settle(cancel_tally *t, pgb_cancel *c, pg_time_usec_t deadline)
{
	char		errbuf[256];

	if (!pgb_cancel_finish(c, deadline, errbuf, sizeof(errbuf)))
		cancel_failed(t, errbuf);
}

static void
cancel_in_flight(worker *w)
{
	pgb_cancel *ring[CANCEL_AT_ONCE];	/* on their way, oldest at head */
	int			head = 0;
	int			pending = 0;
	cancel_tally t = {0};
	pg_time_usec_t deadline = cancel_deadline(w->shared);
	char		errbuf[256];

	for (int i = 0; i < w->nclients; i++)
	{
		pgb_session *conn = w->clients[i].conn;
		pgb_cancel *c;

		if (conn == NULL || pgb_session_tx_status(conn) != PGB_TX_ACTIVE)
			continue;
		t.inflight++;
		if (pending == CANCEL_AT_ONCE)
		{
			cancel_settle(&t, ring[head], deadline);
			head = (head + 1) % CANCEL_AT_ONCE;
			pending--;
		}
		if (pgb_time_now() >= deadline)
			cancel_failed(&t, "no time left to send it");
		else if ((c = pgb_cancel_start(conn, errbuf, sizeof(errbuf))) == NULL)
			cancel_failed(&t, errbuf);
		else
			ring[(head + pending++) % CANCEL_AT_ONCE] = c;
	}
	for (; pending > 0; pending--, head = (head + 1) % CANCEL_AT_ONCE)
		cancel_settle(&t, ring[head], deadline);
	if (t.failed == 1)
		diag_error("could not send cancel request: %s", t.first);
	else if (t.failed > 1)
		diag_error("could not send cancel request for %d of %d statements in flight: %s",
				   t.failed, t.inflight, t.first);
}

/* --exit-on-abort: tell every thread, and wake those blocked in a wait. */
static void
request_stop(worker *w)
{
	run_shared *sh = w->shared;
	uint64_t	one = 1;

	atomic_store(&sh->abort_stop, true);
	if (atomic_exchange(&sh->stop, true))
		return;
	diag_error("Run was aborted due to an error in thread %d", w->tid);
	if (sh->stop_fd >= 0 && write(sh->stop_fd, &one, sizeof(one)) < 0)
	{
		/* the flag alone still stops threads at their next pass */
	}
}

/*
 * The loop's totals over the thread's clients, kept up to date as clients
 * run, so that a pass never has to ask every client again.
 */
typedef struct loop_state
{
	int			remains;		/* clients neither finished nor aborted */
	int			runnable;		/* clients that can run without waiting */
	int			timers;			/* clients waiting for a time */
} loop_state;

/* Count (delta 1) or uncount (-1) a wait in the loop's totals. */
static void
count_wait(loop_state *ls, client_wait_kind kind, int delta)
{
	if (kind == CWAIT_NONE)
		ls->runnable += delta;
	else if (kind == CWAIT_TIMER || kind == CWAIT_CONNECT)
		ls->timers += delta;
}

/*
 * After client i ran (or before its first run): note what it waits for
 * now, and touch its waitset entry only if the socket or direction
 * changed, which in steady state is never.
 */
static __attribute__((noinline)) void
note_new_wait(worker *w, loop_state *ls, int i)
{
	loop_entry *e = &w->entries[i];
	int			fd = -1;
	waitset_event event = WAITSET_READ;
	pg_time_usec_t at = 0;
	client_wait_kind kind = client_wait(&w->clients[i], &fd, &event, &at);

	/* a broken socket is found out by running the client */
	if (kind == CWAIT_SOCKET && fd < 0)
		kind = CWAIT_NONE;
	if (kind != CWAIT_SOCKET && kind != CWAIT_CONNECT)
		fd = -1;
	count_wait(ls, e->wait_kind, -1);
	count_wait(ls, kind, 1);
	e->wait_kind = kind;
	e->wake_at = at;
	/*
	 * A runnable client keeps its entry as it was: no pass polls while a
	 * client can run, and one that begins a transaction with a
	 * meta-command (-S) is runnable between two waits for the same socket.
	 */
	if (kind != CWAIT_NONE &&
		(fd != e->wait_fd || (fd >= 0 && event != e->wait_event)))
	{
		waitset_set(w->ws, e->ws_index, fd, event);
		e->wait_fd = fd;
		e->wait_event = event;
	}
}

/*
 * note_new_wait, but first the steady state, in line: the same socket
 * waited for again, to read a result (what client_wait would say of it,
 * with nothing to change).  The general path (env.general_only) always
 * asks note_new_wait.
 */
static inline void
note_wait(worker *w, loop_state *ls, int i)
{
	loop_entry *e = &w->entries[i];
	const client *c = &w->clients[i];

	if (!w->env.general_only &&
		c->state == CSTATE_WAIT_RESULT && e->wait_kind == CWAIT_SOCKET &&
		e->wait_fd == c->sock && e->wait_event == WAITSET_READ)
	{
		e->wake_at = 0;
		return;
	}
	note_new_wait(w, ls, i);
}

/*
 * The earlier of wake and when client i wants the thread: a timer, a -C
 * connect's deadline, or now for a -C client that may take a connect slot.
 */
static pg_time_usec_t
connect_wake(const worker *w, int i, pg_time_usec_t wake)
{
	const loop_entry *e = &w->entries[i];

	if (e->wait_kind == CWAIT_CONNECT)
	{
		if (e->wait_fd < 0 && client_connect_admissible(&w->clients[i], &w->env))
			return 0;
		if (e->wake_at > 0 && e->wake_at < wake)
			return e->wake_at;
	}
	else if (e->wait_kind == CWAIT_TIMER && e->wake_at < wake)
		return e->wake_at;
	return wake;
}

/*
 * The earliest time a timer client or the -T deadline wants the thread;
 * the clients are scanned only when some has a timer (all of them on the
 * general path).
 */
static pg_time_usec_t
earliest_wake(const worker *w, const loop_state *ls)
{
	pg_time_usec_t wake = INT64_MAX;

	if (ls->timers > 0 || w->env.general_only)
		for (int i = 0; i < w->nclients; i++)
			wake = connect_wake(w, i, wake);
	if (!w->env.timer_exceeded && w->env.end_time > 0 && w->env.end_time < wake)
		wake = w->env.end_time;
	return wake;
}

/*
 * Wait for the next event when no client can run now: a readable socket,
 * a timer, the -T deadline, the log's flush or a stop (--exit-on-abort or
 * a signal).  *nready is the number of ready
 * sockets (0 when nothing was polled: then no entry may be trusted, as it
 * holds an earlier pass's answer).  Returns false when the loop must end
 * (stop or a wait failure).  last_now is the previous pass's clock: the
 * log's once-a-second flush is timed from it, a few microseconds stale,
 * so that it costs no clock read per wait.
 */
static bool
wait_for_events(worker *w, const loop_state *ls, int stop_index, pg_time_usec_t last_now,
				int *nready)
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
	if (w->log_flush_at != INT64_MAX)
	{
		pg_time_usec_t to_flush = w->log_flush_at - last_now;

		if (to_flush <= 0)
			return true;
		if (timeout < 0 || to_flush < timeout)
			timeout = to_flush;
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

/* Whether the client of entry e has something to do in this pass. */
static bool
client_due(const loop_entry *e, const worker *w, bool polled, pg_time_usec_t pass_now)
{
	switch (e->wait_kind)
	{
		case CWAIT_NONE:
			return true;
		case CWAIT_SOCKET:
			return polled && waitset_ready(w->ws, e->ws_index);
		case CWAIT_TIMER:
			return w->env.timer_exceeded || e->wake_at <= pass_now;
		case CWAIT_CONNECT:
			if (e->wait_fd < 0)
				return w->env.timer_exceeded ||
					client_connect_admissible(&w->clients[e - w->entries], &w->env);
			return w->env.timer_exceeded || (polled && waitset_ready(w->ws, e->ws_index)) ||
				(e->wake_at > 0 && e->wake_at <= pass_now);
		case CWAIT_DONE:
			break;
	}
	return false;
}

/* Give every client its fixed waitset entry (after the stop fd, if any). */
static int
setup_entries(worker *w, loop_state *ls)
{
	int			stop_index = -1;

	waitset_clear(w->ws);
	if (w->shared->stop_fd >= 0)
		stop_index = waitset_add(w->ws, w->shared->stop_fd, WAITSET_READ);
	for (int i = 0; i < w->nclients; i++)
	{
		loop_entry *e = &w->entries[i];

		e->ws_index = stop_index + 1 + i;
		e->wait_kind = CWAIT_DONE;	/* counted in no total yet */
		e->wait_fd = -1;
		waitset_set(w->ws, e->ws_index, -1, WAITSET_READ);
		note_wait(w, ls, i);
	}
	return stop_index;
}

/*
 * Advance client i; report its failure if it just aborted.  false when the
 * whole run must stop (--exit-on-abort).
 */
static bool
run_client(worker *w, loop_state *ls, int i, pg_time_usec_t *now)
{
	client	   *c = &w->clients[i];

	client_advance(c, &w->env, now);
	if (c->state == CSTATE_ABORTED)
	{
		failure_report(&w->env.failure);
		tx_sink_abort(&w->env.sink, &w->env.failure);
		w->env.failure.kind = FAILURE_NONE;
		if (w->cfg->exit_on_abort)
		{
			request_stop(w);
			return false;
		}
	}
	if (c->state == CSTATE_FINISHED || c->state == CSTATE_ABORTED)
		ls->remains--;
	note_wait(w, ls, i);
	return true;
}

/*
 * Each client has a fixed waitset entry, updated only when its wait
 * changes.  A pass polls only when nobody can run, reads the clock once,
 * and visits clients in order until every runnable client and ready
 * socket is served; with timers pending (-R, \sleep) or -T over it looks
 * at all of them.  A stop (--exit-on-abort, a signal) ends the loop at the
 * next pass: no client starts anything more.
 */
static void
run_loop(worker *w)
{
	loop_state	ls = {.remains = w->nclients};
	int			stop_index = setup_entries(w, &ls);
	pg_time_usec_t pass_now = w->bench_start;

	while (ls.remains > 0)
	{
		bool		clock_fresh = true;
		int			nready;
		int			todo;

		if (!wait_for_events(w, &ls, stop_index, pass_now, &nready) ||
			atomic_load(&w->shared->stop))
			return;

		pass_now = pgb_time_now();
		if (w->env.end_time > 0 && pass_now >= w->env.end_time)
			w->env.timer_exceeded = true;
		if (PGB_UNLIKELY(pass_now >= w->due_at))
			run_due(w, pass_now);

		/* who is due now; a client run in this pass is not visited again
		 * (the general path visits every client) */
		todo = ls.timers > 0 || w->env.timer_exceeded || w->env.general_only
			? w->nclients : ls.runnable + nready;
		for (int i = 0; i < w->nclients && todo > 0; i++)
		{
			pg_time_usec_t now;

			if (w->entries[i].wait_kind == CWAIT_DONE ||
				!client_due(&w->entries[i], w, nready > 0, pass_now))
				continue;
			todo--;

			/* the first client runs right after the clock read; later ones read it */
			now = clock_fresh ? pass_now : 0;
			clock_fresh = false;
			if (!run_client(w, &ls, i, &now))
				return;
		}
	}
}

/*
 * The calling thread's busy time so far, s: on a CPU or waiting for one
 * (a thread starved of CPU is as busy as one that runs); its CPU clock
 * where the kernel keeps no schedstat; -1 when unknown.
 */
static double
thread_busy_s(void)
{
	struct timespec ts;
	double		run,
				wait;

	if (proc_thread_self_sched(&run, &wait))
		return run + wait;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return -1;
	return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void *
worker_main(void *arg)
{
	worker	   *w = arg;
	run_shared *sh = w->shared;
	bool		connected = true;
	int			launch;
	double		busy_at_start;

	pthread_mutex_lock(&sh->launch_lock);
	while ((launch = sh->launch) == 0)
		pthread_cond_wait(&sh->launch_cond, &sh->launch_lock);
	pthread_mutex_unlock(&sh->launch_lock);
	if (launch < 0)
		return NULL;

	/* READY: every thread exists */
	pthread_barrier_wait(&sh->barrier);

	if (!w->cfg->connect_each)
		connected = connect_all(w);
	if (!connected)
		disconnect_all(w);

	/* GO: every connection is up (or the run is off) */
	pthread_barrier_wait(&sh->barrier);
	/* a signal during the wait ends the run as interrupted, not failed */
	if (sh->rendezvous != NULL &&
		rendezvous_pass(sh->rendezvous, !atomic_load(&sh->setup_failed)) != RENDEZVOUS_OK &&
		interrupt_signal() == 0)
		atomic_store(&sh->setup_failed, true);

	w->bench_start = pgb_time_now();
	w->env.throttle_trigger = w->bench_start;
	w->env.end_time = sh->end_time;
	w->measure_start = w->bench_start;
	w->warm_end = INT64_MAX;
	w->log_flush_at = INT64_MAX;
	if (w->cfg->warmup > 0)
	{
		/* nothing of the warm-up reaches the log either */
		w->warm_end = sh->origin + USEC_PER_SEC * w->cfg->warmup;
		w->env.sink.log = NULL;
	}
	else if (w->log.is_open)
		begin_log(w, w->bench_start);
	w->stage_due = INT64_MAX;
	if (w->env.staged)
		follow_stages(w, w->bench_start);
	set_due(w);

	busy_at_start = thread_busy_s();
	if (!atomic_load(&sh->setup_failed) && !atomic_load(&sh->stop))
		run_loop(w);
	w->bench_end = pgb_time_now();
	if (w->warm_end != INT64_MAX)
		end_warmup(w, w->bench_end);	/* the run ended in the warm-up */
	w->bench_busy_s = busy_at_start >= 0 ? thread_busy_s() - busy_at_start : -1;

	if (interrupt_signal() != 0)
		cancel_in_flight(w);
	disconnect_all(w);
	finish_log(w);
	/* tell the progress timer that one more worker is done */
	if (sh->gate != NULL)
		stats_gate_leave(sh->gate);
	return NULL;
}
