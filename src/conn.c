/*
 * conn.c — connection parameters from the options, and blocking connects
 * for set-up and initialization.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/conn.h"

void
conn_params_init(conn_params *params, const pgb_options *opts)
{
	int			n = 0;

#define CONN_PARAM(k, v) (params->keywords[n] = (k), params->values[n] = (v), n++)
	CONN_PARAM("host", opts->host);
	CONN_PARAM("port", opts->port);
	CONN_PARAM("user", opts->username);
	/* dbname last among the expanded ones: a conninfo in it overrides */
	CONN_PARAM("dbname", opts->dbname);
	CONN_PARAM("fallback_application_name", "pgbench");
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

PGconn *
conn_open(const conn_params *params, char *errbuf, size_t errlen)
{
	PGconn	   *conn = PQconnectdbParams(params->keywords, params->values, 1);

	if (conn && PQstatus(conn) == CONNECTION_OK)
		return conn;
	conn_error_text(conn, errbuf, errlen);
	PQfinish(conn);
	return NULL;
}
