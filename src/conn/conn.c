/*
 * conn.c — connection parameters from the options, and the connects
 * that wait (for set-up, initialization and the rendezvous): a
 * conn_attempt waited for until it is done or a signal came.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "pgbench/conn/conn.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/conn/conninfo_mask.h"

/*
 * The password typed at the first prompt.  Every conn_params points its
 * "password" value here, so once set-up has asked for it the run's
 * non-blocking connections use it too; it is written only before the
 * worker threads start.  Empty means "not given" to libpq.
 */
static char conn_password[512];

void
conn_params_init(conn_params *params, const char *host, const char *port,
				 const char *user, const char *dbname)
{
	int			n = 0;

#define CONN_PARAM(k, v) (params->keywords[n] = (k), params->values[n] = (v), n++)
	CONN_PARAM("host", host);
	CONN_PARAM("port", port);
	CONN_PARAM("user", user);
	CONN_PARAM("password", conn_password);
	/* dbname last among the expanded ones: a conninfo in it overrides */
	CONN_PARAM("dbname", dbname);
	CONN_PARAM("fallback_application_name", PGBENCH_NAME);
#undef CONN_PARAM
	params->keywords[n] = NULL;
	params->values[n] = NULL;
}

void
conn_error_text(const PGconn *conn, char *buf, size_t len)
{
	const char *msg = conn ? PQerrorMessage(conn) : "out of memory";
	size_t		n = strlen(msg);

	while (n > 0 && msg[n - 1] == '\n')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, msg, n);
	buf[n] = '\0';
}

/*
 * Ask for a password as pgbench does: on the terminal when there is one,
 * without echo, else on standard input.  false when nothing could be read.
 */
static bool
conn_prompt_password(void)
{
	FILE	   *in = fopen("/dev/tty", "r+");
	FILE	   *out = in;
	struct termios saved;
	bool		restore = false;
	bool		ok;

	if (in == NULL)
	{
		in = stdin;
		out = stderr;
	}
	if (isatty(fileno(in)) && tcgetattr(fileno(in), &saved) == 0)
	{
		struct termios quiet = saved;

		quiet.c_lflag &= ~(tcflag_t) ECHO;
		restore = tcsetattr(fileno(in), TCSAFLUSH, &quiet) == 0;
	}
	fputs("Password: ", out);
	fflush(out);
	ok = fgets(conn_password, sizeof(conn_password), in) != NULL;
	if (restore)
	{
		tcsetattr(fileno(in), TCSAFLUSH, &saved);
		fputc('\n', out);
		fflush(out);
	}
	if (in != stdin)
		fclose(in);
	conn_password[strcspn(conn_password, "\r\n")] = '\0';
	return ok;
}

/*
 * When the database name is a connection string libpq rejects, its
 * reason in words that quote none of it (libpq's may quote a password).
 */
static bool
dbname_rejected(const conn_params *params, char *errbuf, size_t errlen)
{
	for (int i = 0; params->keywords[i] != NULL; i++)
		if (strcmp(params->keywords[i], "dbname") == 0 && params->values[i] != NULL)
			return conninfo_reject_text(params->values[i], errbuf, errlen);
	return false;
}

/* The longest conn_open waits before it looks for a signal. */
#define OPEN_CHECK_USEC 100000

/* A listen queue found full: how long conn_open waits before trying again. */
#define OPEN_BUSY_USEC 10000

/*
 * Wait for the attempt's socket, at most until its deadline and never
 * longer than OPEN_CHECK_USEC; whether the socket is ready.
 */
static bool
open_wait(const conn_attempt *a, bool busy)
{
	bool		for_read;
	int			fd = conn_attempt_socket(a, &for_read);
	struct pollfd pfd = {.fd = fd, .events = for_read ? POLLIN : POLLOUT};
	pg_time_usec_t wait = busy ? OPEN_BUSY_USEC : OPEN_CHECK_USEC;
	pg_time_usec_t now = pgb_time_now();

	if (a->deadline > 0 && a->deadline - now < wait)
		wait = a->deadline > now ? a->deadline - now : 0;
	/* a millisecond more: poll rounds down, and the deadline must be past */
	return poll(&pfd, fd >= 0 ? 1 : 0, (int) (wait / 1000) + 1) > 0;
}

/* One attempt over every host; the connection, or NULL (a signal: errbuf ""). */
static PGconn *
open_once(const conn_plan *plan, conn_attempt *a, char *errbuf, size_t errlen)
{
	conn_step	step = conn_attempt_start(a, plan, pgb_time_now());

	while (step == CONN_STEP_WAIT || step == CONN_STEP_BUSY)
	{
		bool		ready;

		if (interrupt_signal() != 0)
		{
			errbuf[0] = '\0';
			return NULL;
		}
		ready = open_wait(a, step == CONN_STEP_BUSY);
		step = step == CONN_STEP_BUSY ? conn_attempt_retry(a, pgb_time_now())
			: conn_attempt_continue(a, pgb_time_now(), ready);
	}
	if (step == CONN_STEP_OK)
		return conn_attempt_take(a);
	conn_attempt_error(a, errbuf, errlen);
	return NULL;
}

PGconn *
conn_open(const conn_params *params, char *errbuf, size_t errlen)
{
	conn_plan	plan;
	PGconn	   *conn = NULL;

	if (!conn_plan_init(&plan, params))
	{
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	for (;;)
	{
		conn_attempt a;

		conn = open_once(&plan, &a, errbuf, errlen);
		/* One prompt at most, and only when the server asked for one. */
		if (conn == NULL && errbuf[0] != '\0' && conn_attempt_needs_password(&a) &&
			conn_password[0] == '\0' && conn_prompt_password() && conn_password[0] != '\0')
		{
			conn_attempt_cancel(&a);
			continue;
		}
		conn_attempt_cancel(&a);
		break;
	}
	/* libpq's words for a bad connection string may quote a password */
	if (conn == NULL && errbuf[0] != '\0')
		(void) dbname_rejected(params, errbuf, errlen);
	conn_plan_free(&plan);
	return conn;
}
