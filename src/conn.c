/*
 * conn.c — connection parameters from the options, blocking connects
 * for set-up and initialization, and what a non-blocking connect must do
 * that libpq leaves to its caller (the timeout, a full listen queue).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "pgbench/conn.h"
#include "pgbench/conninfo_mask.h"

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

PGconn *
conn_open(const conn_params *params, char *errbuf, size_t errlen)
{
	for (;;)
	{
		PGconn	   *conn = PQconnectdbParams(params->keywords, params->values, 1);

		if (conn && PQstatus(conn) == CONNECTION_OK)
			return conn;
		/* One prompt at most, and only when the server asked for one. */
		if (conn && PQconnectionNeedsPassword(conn) && conn_password[0] == '\0' &&
			conn_prompt_password() && conn_password[0] != '\0')
		{
			PQfinish(conn);
			continue;
		}
		/* libpq's words for a bad connection string may quote a password */
		if (!dbname_rejected(params, errbuf, errlen))
			conn_error_text(conn, errbuf, errlen);
		PQfinish(conn);
		return NULL;
	}
}

pg_time_usec_t
conn_timeout_usec(PGconn *conn)
{
	PQconninfoOption *opts = PQconninfo(conn);
	long		seconds = 0;

	if (opts == NULL)
		return 0;
	for (const PQconninfoOption *o = opts; o->keyword != NULL; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val != NULL)
		{
			/* libpq rejects a malformed value before we get here */
			seconds = strtol(o->val, NULL, 10);
			break;
		}
	PQconninfoFree(opts);
	if (seconds <= 0)
		return 0;
	/* libpq insists on two seconds: one could expire at once by rounding */
	if (seconds < 2)
		seconds = 2;
	return (pg_time_usec_t) seconds * 1000000;
}

void
conn_timeout_text(const PGconn *conn, char *buf, size_t len)
{
	size_t		n;

	conn_error_text(conn, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, "timeout expired");
}

bool
conn_failed_busy(const PGconn *conn)
{
	char		buf[128];
	const char *text;

	if (conn == NULL)
		return false;
	/* libpq words errno with strerror, so this matches in any locale */
	text = strerror_r(EAGAIN, buf, sizeof(buf));	/* GNU: may not use buf */
	return strstr(PQerrorMessage(conn), text) != NULL;
}
