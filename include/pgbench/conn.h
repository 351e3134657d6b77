/*
 * conn.h — connection parameters and blocking connections.
 *
 * The parameters come from the options (-h -p -U, dbname) and libpq's own
 * environment handling (PGHOST, PGPORT, PGUSER, PGDATABASE, ...); a dbname
 * that is a conninfo string or a URI is expanded by libpq (expand_dbname),
 * exactly as pgbench connects.  The run engine starts non-blocking
 * connections from the same conn_params; init and set-up use the blocking
 * conn_open.
 */
#ifndef PGBENCH_CONN_H
#define PGBENCH_CONN_H

#include <libpq-fe.h>

#include "pgbench/common.h"


#define CONN_MAX_PARAMS 8

/*
 * conn_open prompts once for a password when the server asks for one and
 * none was given (PGPASSWORD and ~/.pgpass are libpq's); later
 * connections made from any conn_params reuse it.
 */


typedef struct conn_params
{
	const char *keywords[CONN_MAX_PARAMS];	/* NULL-terminated */
	const char *values[CONN_MAX_PARAMS];
} conn_params;

/*
 * Fill params from -h, -p, -U and the database name (any may be NULL for
 * libpq's default); the strings stay owned by the caller.
 */
void		conn_params_init(conn_params *params, const char *host, const char *port,
							 const char *user, const char *dbname);

/*
 * Open a connection and wait for it.  On failure returns NULL and copies
 * libpq's message (possibly several lines, no trailing newline) to errbuf;
 * when the database name is a connection string libpq cannot parse, the
 * message with what it quotes of the string hidden (conninfo_reject_text
 * in conninfo_mask.h: a URI or a token libpq quotes may hold a password).
 */
PGconn	   *conn_open(const conn_params *params, char *errbuf, size_t errlen);

/* Copy PQerrorMessage(conn) to buf without its trailing newline. */
void		conn_error_text(const PGconn *conn, char *buf, size_t len);

/*
 * ---- non-blocking connections: what libpq leaves to its caller ----
 *
 * libpq enforces connect_timeout only in its blocking connect; a caller of
 * PQconnectPoll must keep the deadline itself (libpq's documentation says
 * so).  These helpers let the run engine behave as the blocking connect
 * does, with libpq's own words.  They are stateless and thread-safe.
 */

/*
 * The connect_timeout in force for conn, from wherever libpq took it (the
 * conninfo string or URI, PGCONNECT_TIMEOUT, a service file), as libpq
 * reads it: 0 (none) when unset, zero or negative, at least 2 s otherwise.
 * In microseconds.  Reads PQconninfo, so once per attempt, not per poll.
 */
pg_time_usec_t conn_timeout_usec(PGconn *conn);

/*
 * The message of an attempt that ran out of time, as libpq's blocking
 * connect words it: what PQerrorMessage holds so far (the attempt's
 * "connection to server ... failed: " and any earlier host's error)
 * followed by "timeout expired".
 */
void		conn_timeout_text(const PGconn *conn, char *buf, size_t len);

/*
 * Whether a failed attempt found the server's listen queue full: connect()
 * on a Unix socket then fails with EAGAIN at once, which libpq reports as
 * a failure although the server is fine and only busy accepting.
 */
bool		conn_failed_busy(const PGconn *conn);

#endif
