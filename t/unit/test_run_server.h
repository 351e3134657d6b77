/*
 * test_run_server.h — a scripted PostgreSQL server for the orchestrator's
 * unit tests (test_run_fixture.h describes its rules): one thread
 * listening on DIR/.s.PGSQL.PORT, speaking protocol 3.0 with no
 * authentication, answering the simple and the extended query protocol
 * and cancel requests.  Enough for libpq's connect, PQexec,
 * PQexecParams, PQsendQuery and PQcancel; not a database.
 */
#ifndef TEST_RUN_SERVER_H
#define TEST_RUN_SERVER_H

typedef struct run_server run_server;

/*
 * Listen in dir (a short path: it names a Unix socket) on port, reporting
 * version as server_version ("": none), answering from rules (not
 * copied).  NULL when the socket could not be made.
 */
run_server *rsrv_start(const char *dir, int port, const char *version,
					   const char *const *rules);

/* Stop, write the queries it got (one a line, in order) to log_path, free. */
void		rsrv_stop(run_server *srv, const char *log_path);

#endif
