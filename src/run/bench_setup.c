/*
 * bench_setup.c — the set-up connection's steps before a run (bench_int.h):
 * the banner, the scale and partitions of the pgbench tables, and the
 * vacuum, with pgbench's messages.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/base/diag.h"
#include "pgbench/conn/conn.h"

#define SQLSTATE_UNDEFINED_TABLE "42P01"

void
setup_print_version(FILE *out, PGconn *conn, char *keep, size_t keep_len)
{
	const char *server = PQparameterStatus(conn, "server_version");
	char		buf[32];

	if (server == NULL)
	{
		int			v = PQserverVersion(conn);

		if (v >= 100000)
			snprintf(buf, sizeof(buf), "%d.%d", v / 10000, v % 10000);
		else
			snprintf(buf, sizeof(buf), "%d.%d.%d", v / 10000, (v / 100) % 100, v % 100);
		server = buf;
	}
	snprintf(keep, keep_len, "%s", server);
	/*
	 * pgbench's banner, "pgbench (CLIENT, server SERVER)", with this
	 * program's name and version as the client's: parsers of the line
	 * still find "pgbench (" and the server's version
	 */
	fprintf(out, "pgbench (%s %s, server %s)\n", PGBENCH_NAME, PGBENCH_VERSION, server);
	fflush(out);
}

/* Whether a builtin script runs: then the scale is pgbench_branches' count. */
bool
setup_uses_builtin_script(const script_set *set)
{
	for (int i = 0; i < set->nscripts; i++)
		if (set->scripts[i].builtin)
			return true;
	return false;
}

bool
setup_read_scale(PGconn *conn, const pgb_options *opts, table_info *info)
{
	PGresult   *res = PQexec(conn, "select count(*) from pgbench_branches");

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		diag_error("could not count number of branches: %s", PQerrorMessage(conn));
		if (state != NULL && strcmp(state, SQLSTATE_UNDEFINED_TABLE) == 0)
			diag_hint("Perhaps you need to do initialization (\"pgbench -i\") in database \"%s\".",
					  PQdb(conn));
		PQclear(res);
		return false;
	}
	info->scale = atoi(PQgetvalue(res, 0, 0));
	if (info->scale < 0)
	{
		diag_error("invalid count(*) from pgbench_branches: \"%s\"", PQgetvalue(res, 0, 0));
		PQclear(res);
		return false;
	}
	PQclear(res);
	if (opts->scale_given)
		diag_warning("scale option ignored, using count from pgbench_branches table (%d)",
					 info->scale);
	return true;
}

/*
 * Partitioning of the pgbench_accounts that search_path finds first: its
 * strategy and how many partitions hang from it.  Any query failure means
 * "not partitioned" (old servers); no table at all is an error.
 */
bool
setup_read_partitions(PGconn *conn, table_info *info)
{
	static const char query[] =
		"select p.partstrat, "
		"(select pg_catalog.count(*) from pg_catalog.pg_inherits i where i.inhparent = c.oid) "
		"from pg_catalog.pg_class c "
		"left join pg_catalog.pg_partitioned_table p on p.partrelid = c.oid "
		"where c.oid = pg_catalog.to_regclass('pgbench_accounts')";
	PGresult   *res = PQexec(conn, query);
	bool		ok = true;

	info->method = PART_NONE;
	info->partitions = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		;
	else if (PQntuples(res) == 0)
	{
		diag_error("no pgbench_accounts table found in \"search_path\"");
		diag_hint("Perhaps you need to do initialization (\"pgbench -i\") in database \"%s\".",
				  PQdb(conn));
		ok = false;
	}
	else if (!PQgetisnull(res, 0, 0))
	{
		const char *strategy = PQgetvalue(res, 0, 0);

		if (strcmp(strategy, "r") == 0)
			info->method = PART_RANGE;
		else if (strcmp(strategy, "h") == 0)
			info->method = PART_HASH;
		else
		{
			diag_error("unexpected partition method: \"%s\"", strategy);
			ok = false;
		}
		info->partitions = atoi(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return ok;
}

/*
 * Wait for the statement sent on conn, or for a signal (stop_fd), and
 * cancel it then.  The handle is made only when needed: one made earlier
 * would stay in the heap and change how malloc serves the run.
 */
static PGresult *
wait_interruptible(PGconn *conn, int stop_fd)
{
	struct pollfd fds[2] = {
		{.fd = PQsocket(conn), .events = POLLIN},
		{.fd = stop_fd, .events = POLLIN},
	};
	bool		cancelled = false;

	while (PQisBusy(conn))
	{
		if (!cancelled && interrupt_signal() != 0)
		{
			PGcancel   *cancel = PQgetCancel(conn);
			char		errbuf[256];

			if (cancel != NULL && !PQcancel(cancel, errbuf, sizeof(errbuf)))
				diag_error("could not send cancel request: %s", errbuf);
			PQfreeCancel(cancel);
			cancelled = true;
			fds[1].fd = -1;		/* no need to wake again */
		}
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		if (!PQconsumeInput(conn))
			break;
	}
	return PQgetResult(conn);
}

/*
 * Run a maintenance statement; complain but carry on if it fails.  A
 * signal cancels it, and the rest are skipped.
 */
static void
try_statement(PGconn *conn, const char *sql, int stop_fd)
{
	PGresult   *res;

	if (interrupt_signal() != 0)
		return;
	/* a failed send leaves res NULL: reported as an error below */
	res = PQsendQuery(conn, sql) ? wait_interruptible(conn, stop_fd) : NULL;
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		diag_error("%s", PQerrorMessage(conn));
		diag_detail("(ignoring this error and continuing anyway)");
	}
	PQclear(res);
	while ((res = PQgetResult(conn)) != NULL)
		PQclear(res);
}

void
setup_vacuum_tables(PGconn *conn, bool vacuum_accounts, int stop_fd)
{
	fprintf(stderr, "starting vacuum...");
	try_statement(conn, "vacuum pgbench_branches", stop_fd);
	try_statement(conn, "vacuum pgbench_tellers", stop_fd);
	try_statement(conn, "truncate pgbench_history", stop_fd);
	fprintf(stderr, "end.\n");
	if (vacuum_accounts)
	{
		fprintf(stderr, "starting vacuum pgbench_accounts...");
		try_statement(conn, "vacuum analyze pgbench_accounts", stop_fd);
		fprintf(stderr, "end.\n");
	}
}
