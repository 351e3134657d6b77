/*
 * server_info.c — the server's identity and settings (server_info.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/server/server_info.h"

static const char *const key_names[SERVER_NKEY_SETTINGS] = SERVER_KEY_SETTINGS;

/* strlcpy: copy what fits, always terminated. */
static void
copy(char *dst, size_t len, const char *src)
{
	size_t		n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void
unreadable(server_info *si, const char *what)
{
	if (si->nunreadable < SERVER_MAX_UNREADABLE)
		si->unreadable[si->nunreadable++] = what;
}

/* One query's result, or NULL (cleared) when it did not return rows. */
static PGresult *
rows(PGconn *conn, const char *sql)
{
	PGresult   *res = PQexec(conn, sql);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		PQclear(res);
		return NULL;
	}
	return res;
}

static void
read_identity(PGconn *conn, server_info *si)
{
	PGresult   *res;

	si->version_num = PQserverVersion(conn);
	if ((res = rows(conn, "SELECT pg_catalog.version()")) != NULL && PQntuples(res) == 1)
		copy(si->version, sizeof(si->version), PQgetvalue(res, 0, 0));
	else
		unreadable(si, "version()");
	PQclear(res);
	res = rows(conn, "SELECT system_identifier::text FROM pg_catalog.pg_control_system()");
	if (res != NULL && PQntuples(res) == 1)
		copy(si->system_identifier, sizeof(si->system_identifier), PQgetvalue(res, 0, 0));
	else
		unreadable(si, "pg_control_system()");
	PQclear(res);
}

/*
 * A setting whose value may hold a secret: a connection string (its
 * password), a shell command (credentials on its command line), a key's
 * passphrase.  Its value is never kept: "********" (empty stays empty).
 */
static bool
may_hold_secret(const char *name)
{
	static const char *const parts[] = {"conninfo", "command", "passphrase", "password",
	"secret", "key"};

	for (int i = 0; i < (int) PGB_LENGTHOF(parts); i++)
		if (strstr(name, parts[i]) != NULL)
			return true;
	return false;
}

static void
take_setting(server_setting *s, PGresult *res, int row)
{
	const char *value = PQgetvalue(res, row, 1);

	copy(s->name, sizeof(s->name), PQgetvalue(res, row, 0));
	copy(s->value, sizeof(s->value),
		 value[0] != '\0' && may_hold_secret(s->name) ? "********" : value);
	copy(s->unit, sizeof(s->unit), PQgetvalue(res, row, 2));
	copy(s->source, sizeof(s->source), PQgetvalue(res, row, 3));
}

/* The key settings and every one not at its default; false: out of memory. */
static bool
read_settings(PGconn *conn, server_info *si)
{
	PGresult   *res = rows(conn,
						   "SELECT name, setting, COALESCE(unit, ''), source,"
						   " source NOT IN ('default', 'override')"
						   " FROM pg_catalog.pg_settings ORDER BY name");
	int			n;

	if (res == NULL)
	{
		unreadable(si, "pg_settings");
		return true;
	}
	n = PQntuples(res);
	si->nondefault = calloc(SERVER_MAX_SETTINGS, sizeof(server_setting));
	if (si->nondefault == NULL)
	{
		PQclear(res);
		return false;
	}
	for (int i = 0; i < n; i++)
	{
		const char *name = PQgetvalue(res, i, 0);

		for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
			if (strcmp(name, key_names[k]) == 0)
			{
				take_setting(&si->key[k], res, i);
				si->key_seen[k] = true;
			}
		if (strcmp(PQgetvalue(res, i, 4), "t") != 0)
			continue;
		if (si->nnondefault == SERVER_MAX_SETTINGS)
			si->truncated = true;
		else
			take_setting(&si->nondefault[si->nnondefault++], res, i);
	}
	PQclear(res);
	return true;
}

bool
server_info_read(PGconn *conn, server_info *si)
{
	memset(si, 0, sizeof(*si));
	si->read = true;
	for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
		copy(si->key[k].name, sizeof(si->key[k].name), key_names[k]);
	read_identity(conn, si);
	return read_settings(conn, si);
}

void
server_info_free(server_info *si)
{
	free(si->nondefault);
	memset(si, 0, sizeof(*si));
}
