/*
 * monitor_run.c — the monitor's blocking steps, before the clients
 * connect and after they are gone (monitor.h): connect, learn the server,
 * and read the counters over the run once they have settled.
 *
 * Settled: a session's counts reach pg_stat_database only when it flushes
 * them.  From 15 on a session flushes when it ends and, when idle, at
 * most once a second, unless pg_stat_force_next_flush() asks for the next
 * one; before 15 a session sends them at most every 500 ms when it goes
 * idle, and readers see the statistics collector's file up to 500 ms
 * old.  So the monitor first waits for the run's sessions to end, then
 * makes its own pending counts go out (a forced flush, else a pause, a
 * query and a pause), and reads until two reads agree.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_int.h"
#include "pgbench/host/hoststat.h"

#define USEC_PER_MSEC 1000

/* Wait until deadline or a signal; false on a signal. */
static bool
pause_until(const server_monitor *m, pg_time_usec_t deadline)
{
	for (;;)
	{
		pg_time_usec_t now = pgb_time_now();
		struct pollfd pfd = {.fd = m->stop_fd, .events = POLLIN};

		if (now >= deadline)
			return true;
		if (poll(&pfd, m->stop_fd >= 0 ? 1 : 0,
				 (int) ((deadline - now + USEC_PER_MSEC - 1) / USEC_PER_MSEC)) > 0)
			return false;
	}
}

/*
 * Run sql and return its last result (the caller clears it), or NULL when
 * it could not be sent, the connection failed, a signal came or deadline
 * passed.  A successful statement counts as one of the monitor's own.
 */
static PGresult *
exec_until(server_monitor *m, const char *sql, pg_time_usec_t deadline)
{
	PGresult   *last = NULL,
			   *res;

	if (m->broken || !PQsendQuery(m->conn, sql))
		return NULL;
	for (;;)
	{
		struct pollfd pfd[2] = {
			{.fd = PQsocket(m->conn), .events = POLLIN},
			{.fd = m->stop_fd, .events = POLLIN},
		};
		pg_time_usec_t now = pgb_time_now();

		if (!PQconsumeInput(m->conn))
			break;
		while (!PQisBusy(m->conn))
		{
			if ((res = PQgetResult(m->conn)) == NULL)
			{
				ExecStatusType st = last != NULL ? PQresultStatus(last) : PGRES_FATAL_ERROR;

				if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
					m->own++;
				return last;
			}
			PQclear(last);
			last = res;
		}
		if (now >= deadline ||
			poll(pfd, m->stop_fd >= 0 ? 2 : 1,
				 (int) ((deadline - now + USEC_PER_MSEC - 1) / USEC_PER_MSEC)) < 0 ||
			(pfd[1].revents & POLLIN))
			break;
	}
	/* given up: the connection's state is unknown, so it is not used again */
	PQclear(last);
	monitor_broken(m);
	return NULL;
}

/* One row's first value of sql, as text into buf; false when none. */
static bool
exec_value(server_monitor *m, const char *sql, char *buf, size_t len)
{
	PGresult   *res = exec_until(m, sql, pgb_time_now() + MONITOR_WAIT_US);
	bool		ok = res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) == 1 && PQnfields(res) >= 1 && !PQgetisnull(res, 0, 0);

	if (ok)
		snprintf(buf, len, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	return ok;
}

/*
 * Wait up to wait_us for sessions to be gone: the run's (the clients')
 * when pid is 0, else the one of that pid (the set-up connection's); false
 * when some stay (or the count could not be read: m->broken says).
 */
static bool
wait_sessions_gone(server_monitor *m, pid_t pid, pg_time_usec_t wait_us)
{
	pg_time_usec_t deadline = pgb_time_now() + wait_us;
	char		n[32],
				sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE pid = %d",
			 (int) pid);
	while (exec_value(m, pid > 0 ? sql : m->sql.count, n, sizeof(n)))
	{
		if (strcmp(n, "0") == 0)
			return true;
		if (!pause_until(m, pgb_time_now() + 50 * USEC_PER_MSEC) || pgb_time_now() >= deadline)
			break;
	}
	return false;
}

/* The counters, once the monitor's own counts are in them. */
static bool
settled_read(server_monitor *m, monitor_snap *snap)
{
	PGresult   *res;

	if (m->force_flush)
		PQclear(exec_until(m, "SELECT pg_catalog.pg_stat_force_next_flush()",
						   pgb_time_now() + MONITOR_WAIT_US));
	else if (m->run->version_num >= 150000)
		(void) pause_until(m, pgb_time_now() + 1100 * USEC_PER_MSEC);
	else if (pause_until(m, pgb_time_now() + 600 * USEC_PER_MSEC))
	{
		PQclear(exec_until(m, "SELECT 1", pgb_time_now() + MONITOR_WAIT_US));
		(void) pause_until(m, pgb_time_now() + 600 * USEC_PER_MSEC);
	}
	snap->own_before = m->own;
	res = exec_until(m, m->sql.snapshot, pgb_time_now() + MONITOR_WAIT_US);
	snap->ok = false;
	if (res != NULL)
		monitor_sql_parse_snapshot(&m->sql, res, snap);
	snap->local_at = pgb_time_now();
	PQclear(res);
	return snap->ok;
}

/* The run's commits in snap: the server's count without the monitor's. */
static double
run_commits(const monitor_snap *snap)
{
	return snap->value[SRV_XACT_COMMIT] - (double) snap->own_before;
}

/* ---- before the run ----------------------------------------------------- */

/*
 * What the role and server allow, on one row: the backend's pid, the
 * name, the connection slots a client could still take (the reserved ones
 * aside, the monitor's own taken), whether pg_control_checkpoint() and
 * pg_stat_force_next_flush() may be called.
 */
static bool
learn(server_monitor *m, const monitor_setup *setup, pid_t *pid, char *app_literal, size_t len)
{
	server_run *run = m->run;
	char		sql[1024];
	PGresult   *res;
	bool		ok;
	char	   *lit;

	snprintf(sql, sizeof(sql),
			 "SELECT pg_catalog.pg_backend_pid(), pg_catalog.current_setting('application_name'),"
			 " pg_catalog.current_setting('max_connections')::int"
			 " - pg_catalog.current_setting('superuser_reserved_connections')::int%s"
			 " - (SELECT count(*) FROM pg_catalog.pg_stat_activity"
			 " WHERE backend_type = 'client backend'),"
			 " pg_catalog.has_function_privilege('pg_catalog.pg_control_checkpoint()', 'EXECUTE'),"
			 " %s",
			 run->version_num >= 160000
			 ? " - pg_catalog.current_setting('reserved_connections')::int" : "",
			 run->version_num >= 150000
			 ? "pg_catalog.has_function_privilege('pg_catalog.pg_stat_force_next_flush()', 'EXECUTE')"
			 : "false");
	res = exec_until(m, sql, pgb_time_now() + MONITOR_WAIT_US);
	ok = res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		PQnfields(res) == 5;
	if (!ok)
	{
		PQclear(res);
		monitor_note(run, "%s", "the server's statistics could not be read");
		return false;
	}
	*pid = (pid_t) atol(PQgetvalue(res, 0, 0));
	snprintf(run->app_name, sizeof(run->app_name), "%s", PQgetvalue(res, 0, 1));
	if (atol(PQgetvalue(res, 0, 2)) < setup->nclients)
	{
		PQclear(res);
		monitor_note(run, "%s", "no server statistics: the clients need every free"
					 " connection slot (max_connections)");
		return false;
	}
	m->sql.control = strcmp(PQgetvalue(res, 0, 3), "t") == 0;
	m->force_flush = strcmp(PQgetvalue(res, 0, 4), "t") == 0;
	if (!m->sql.control)
		monitor_note(run, "%s", "the role may not call pg_control_checkpoint() (pg_monitor):"
					 " checkpoints show when they end, not when they began");
	lit = PQescapeLiteral(m->conn, PQgetvalue(res, 0, 1), strlen(PQgetvalue(res, 0, 1)));
	PQclear(res);
	ok = lit != NULL && strlen(lit) < len;
	if (ok)
		snprintf(app_literal, len, "%s", lit);
	PQfreemem(lit);
	return ok;
}

/*
 * Is the server on this host?  Its backend's pid names a postgres process
 * here whose parent is one too, over a socket or a loopback address.
 */
static void
find_local(server_monitor *m, pid_t backend)
{
	const char *host = PQhost(m->conn);
	pid_t		parent;
	bool		near = host == NULL || host[0] == '\0' || host[0] == '/' || host[0] == '@' ||
		strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
		strcmp(host, "::1") == 0;

	if (near && backend > 0 && proc_comm_is(backend, "postgres") &&
		(parent = proc_parent_of(backend)) > 0 && proc_comm_is(parent, "postgres"))
	{
		m->run->local = true;
		m->run->postmaster = parent;
	}
	else
		monitor_note(m->run, "%s", "the server is not on this host (or its processes are"
					 " not visible here): no figures of its processes");
}

server_monitor *
monitor_open(const monitor_setup *setup, server_run *run)
{
	server_monitor *m;
	char		errbuf[1024];
	char		app_literal[160];
	pid_t		backend = -1;

	run->on = true;
	run->sample_us = setup->sample_us;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	m->run = run;
	m->stop_fd = setup->stop_fd;
	m->sample_us = setup->sample_us;
	if ((m->conn = conn_open(setup->params, errbuf, sizeof(errbuf))) == NULL)
	{
		monitor_note(run, "%s", "no server statistics: the monitoring connection failed");
		free(m);
		return NULL;
	}
	m->own = 1;					/* a session's start is a transaction */
	run->version_num = PQserverVersion(m->conn);
	if (!learn(m, setup, &backend, app_literal, sizeof(app_literal)) ||
		!monitor_sql_build(&m->sql, run->version_num, app_literal, m->sql.control))
	{
		monitor_close(m);
		return NULL;
	}
	find_local(m, backend);
	/* the set-up connection's session must end first: its counts then go in */
	if (setup->setup_pid > 0)
		(void) wait_sessions_gone(m, setup->setup_pid, MONITOR_WAIT_US);
	/*
	 * A session of the run's name that is only ending (the backend of a
	 * pgbench -i just before, on a loaded host) is not another's: it gets
	 * a moment to go; one that stays is.
	 */
	if (!m->broken && !wait_sessions_gone(m, 0, MONITOR_LINGER_US) && !m->broken)
	{
		run->others = true;
		monitor_note(run, "other sessions named \"%s\" use this database: the wait events"
					 " and the commit count include theirs", run->app_name);
	}
	if (m->broken || !settled_read(m, &m->before))
	{
		monitor_note(run, "%s", "no server statistics: the counters could not be read");
		monitor_close(m);
		return NULL;
	}
	run->connected = true;
	run->present = m->sql.present;
	run->checkpoint_times = m->sql.control;
	run->wait_all_states = m->sql.all_states;
	m->applied = m->before;
	m->latest = m->before;
	return m;
}

/* ---- after the run ------------------------------------------------------ */

/* The query still in flight, read to its end (or given up). */
static void
drain(server_monitor *m)
{
	pg_time_usec_t deadline = pgb_time_now() + MONITOR_WAIT_US;

	while (!m->broken && m->inflight != MQ_IDLE)
	{
		short		events = POLLIN;
		struct pollfd pfd[2] = {
			{.fd = monitor_socket(m, &events), .events = POLLIN},
			{.fd = m->stop_fd, .events = POLLIN},
		};
		pg_time_usec_t now = pgb_time_now();

		if (now >= deadline ||
			poll(pfd, m->stop_fd >= 0 ? 2 : 1,
				 (int) ((deadline - now + USEC_PER_MSEC - 1) / USEC_PER_MSEC)) < 0 ||
			(pfd[1].revents & POLLIN))
		{
			/* a signal ends the run: not worth a note */
			if (pfd[1].revents & POLLIN)
				m->broken = true;
			monitor_broken(m);
			return;
		}
		monitor_service(m, pgb_time_now());
	}
}

void
monitor_finish(server_monitor *m)
{
	server_run *run;
	monitor_snap a,
				b;

	if (m == NULL)
		return;
	run = m->run;
	m->sample_us = 0;			/* no more samples */
	drain(m);
	if (m->broken)
		return;
	/* with other sessions of the run's name, theirs may last: no wait */
	if (!run->others && !wait_sessions_gone(m, 0, MONITOR_WAIT_US) && !m->broken)
		monitor_note(run, "%s", "the run's sessions had not all ended when the counters"
					 " were read after it");
	if (!settled_read(m, &a))
		return;
	for (int tries = 0; tries < 3; tries++)
	{
		if (!settled_read(m, &b))
			return;
		run->settled = run_commits(&a) == run_commits(&b);
		a = b;
		if (run->settled)
			break;
	}
	run->totals_read = true;
	for (int i = 0; i < SRV_NCOUNTERS; i++)
		run->total[i] = a.value[i] - m->before.value[i];
	run->total[SRV_XACT_COMMIT] = run_commits(&a) - run_commits(&m->before);
	run->own_commits = a.own_before - m->before.own_before;
}
