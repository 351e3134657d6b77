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

#include "pgbench/base/common.h"


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
 * Hosts are tried as libpq's blocking connect tries them, connect_timeout
 * applying to each host and address (conn_attempt.h).  A SIGINT or
 * SIGTERM caught by interrupt.h's handler ends the wait within a tenth
 * of a second: NULL with errbuf "" (nothing to print but the signal).
 */
PGconn	   *conn_open(const conn_params *params, char *errbuf, size_t errlen);

/* Copy PQerrorMessage(conn) to buf without its trailing newline. */
void		conn_error_text(const PGconn *conn, char *buf, size_t len);

/*
 * ---- non-blocking connections: what libpq leaves to its caller ----
 * (the deadlines are conn_attempt.h's; this is stateless and thread-safe)
 */

/*
 * Whether a failed attempt found the server's listen queue full: connect()
 * on a Unix socket then fails with EAGAIN at once, which libpq reports as
 * a failure although the server is fine and only busy accepting.
 */
bool		conn_failed_busy(const PGconn *conn);

/*
 * ---- conn_attempt.c: a non-blocking connection that follows libpq's
 * multi-host rules with connect_timeout applied to each host and to each
 * address of a host, as libpq's own blocking connect applies it.
 *
 * libpq enforces connect_timeout only in its blocking connect and offers
 * no call to give up on one host of a PQconnectPoll attempt and go on to
 * the next.  So when a timeout is in force and there is more than one
 * host (or a host name with several addresses), the attempt tries the
 * hosts itself, one libpq attempt per host (per address: host=NAME
 * hostaddr=ADDR), each with its own deadline, in libpq's order:
 *   - hosts in the order given (load_balance_hosts=random, when the linked
 *     libpq knows it: a random order of hosts, and of each host's
 *     addresses);
 *   - target_session_attrs is checked by each host's libpq attempt;
 *     prefer-standby makes two passes: "standby" first, then "any";
 *   - the message of a failure is every host's message in turn, a host
 *     that ran out of time ending in "timeout expired", as libpq words it.
 * Without a timeout, or with one host of one address, one libpq attempt
 * does everything itself.  What the attempt needs of the connection
 * parameters is read once (conn_plan), not per connection.
 *
 * Thread-safety: a plan is read-only once made and may be shared; an
 * attempt belongs to one thread.
 */

/* One entry of the host lists: any of the three may be NULL (not given). */
typedef struct conn_host
{
	char	   *host;
	char	   *hostaddr;
	char	   *port;
} conn_host;

/* What every attempt from the same parameters shares. */
typedef struct conn_plan
{
	const conn_params *params;	/* not owned; must outlive the plan */
	pg_time_usec_t timeout;		/* connect_timeout per host and address;
								 * 0: none */
	char		timeout_error[160]; /* a malformed connect_timeout: libpq's
									 * message; empty when none */
	int			nhosts;			/* 0: one libpq attempt does it all */
	conn_host  *hosts;			/* nhosts entries */
	bool		prefer_standby; /* target_session_attrs=prefer-standby */
	bool		random_order;	/* load_balance_hosts=random */
} conn_plan;

/*
 * Read the effective connection options (the parameters, the environment,
 * a service file: as libpq resolves them, without connecting) and decide
 * how attempts go.  false only when out of memory.  Free with
 * conn_plan_free.
 */
bool		conn_plan_init(conn_plan *plan, const conn_params *params);
void		conn_plan_free(conn_plan *plan);

/* What conn_attempt_continue found. */
typedef enum conn_step
{
	CONN_STEP_WAIT,				/* under way: wait for the socket or the wake */
	CONN_STEP_OK,				/* connected: take the connection */
	CONN_STEP_FAILED,			/* every host failed: read the message */
	CONN_STEP_BUSY,				/* the host's listen queue was full: call
								 * conn_attempt_retry later (before the
								 * wake time) to try it again */
} conn_step;

typedef struct conn_attempt
{
	const conn_plan *plan;
	PGconn	   *conn;			/* the current host's try; NULL: none */
	PostgresPollingStatusType poll; /* its last poll */
	pg_time_usec_t deadline;	/* of the current host or address; 0: none */
	int			pass;			/* prefer-standby: 0 standby, 1 any */
	int			host;			/* position in order[] */
	int		   *order;			/* plan->nhosts host indexes */
	char	  **addrs;			/* the current host name's addresses, when
								 * tried one by one; NULL otherwise */
	int			naddrs;
	int			addr;			/* the address tried */
	bool		busy;			/* the try found the listen queue full */
	bool		needs_password; /* a host asked for a password */
	char	   *errors;			/* the messages of the hosts tried */
	size_t		errors_len;
	size_t		errors_cap;
} conn_attempt;

/*
 * Begin connecting at now.  Returns CONN_STEP_WAIT, CONN_STEP_BUSY, or
 * CONN_STEP_FAILED (every host refused at once).  The attempt must end with
 * conn_attempt_take (after OK) or conn_attempt_cancel.
 */
conn_step	conn_attempt_start(conn_attempt *a, const conn_plan *plan, pg_time_usec_t now);

/*
 * Move the attempt on at now: ready says whether its socket was found
 * ready in the direction conn_attempt_wait gave (polling a socket not
 * ready could take an unfinished connect() for done).  At the host's
 * deadline, when its socket is not ready, the host is given up and the
 * next one tried; a ready socket is still read, as libpq's blocking
 * connect reads one its wait found ready, however late.
 */
conn_step	conn_attempt_continue(conn_attempt *a, pg_time_usec_t now, bool ready);

/* After CONN_STEP_BUSY: try the same host again (its deadline kept). */
conn_step	conn_attempt_retry(conn_attempt *a, pg_time_usec_t now);

/*
 * The socket to wait for and its direction (-1 when none, as after
 * BUSY).  The attempt is due again regardless of its socket at
 * a->deadline, the current host's (0: none).
 */
int			conn_attempt_socket(const conn_attempt *a, bool *for_read);

/*
 * Whether the attempt's socket is ready now in its direction (a poll that
 * does not wait): for a caller woken by the clock that must tell
 * conn_attempt_continue whether the socket is ready.
 */
bool		conn_attempt_ready_now(const conn_attempt *a);

/* The connection after CONN_STEP_OK; the attempt is over. */
PGconn	   *conn_attempt_take(conn_attempt *a);

/* Whether a failed attempt met a server asking for a password. */
bool		conn_attempt_needs_password(const conn_attempt *a);

/*
 * The message of a failed attempt, without its trailing newline: every
 * host's message, as libpq's blocking connect gives it.
 */
void		conn_attempt_error(const conn_attempt *a, char *buf, size_t len);

/* Give up, close and free everything; the attempt may start again. */
void		conn_attempt_cancel(conn_attempt *a);

#endif
