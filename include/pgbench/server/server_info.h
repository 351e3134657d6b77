/*
 * server_info.h — the server a run went to, as the report files show it
 * (doc/report-json.md, "server"): its version, its system identifier, the
 * settings that shape a benchmark, and every setting not at its default.
 *
 * Read once, on the set-up connection, before the run: a few catalog
 * queries, each on its own, so that one the role may not run (the system
 * identifier needs pg_control_system(), which only superusers and
 * pg_monitor may call on most servers) leaves the rest.  What could not
 * be read is named in unreadable; nothing is printed.  Works for any role
 * on PostgreSQL 13 to 18: a setting the role may not see (superuser-only
 * ones without pg_read_all_settings) is absent, not an error.
 *
 * Bounded: at most SERVER_MAX_SETTINGS non-default settings are kept
 * (more sets truncated), each value cut to its field.  Secrets never get
 * in: the value of a setting whose name says it may hold one (conninfo,
 * command, passphrase, password, secret, key) is kept as "********".
 */
#ifndef PGBENCH_SERVER_INFO_H
#define PGBENCH_SERVER_INFO_H

#include <libpq-fe.h>

#include "pgbench/base/common.h"

#define SERVER_MAX_SETTINGS 256
#define SERVER_MAX_UNREADABLE 4

/* The settings every report shows (null when the role cannot see one). */
#define SERVER_KEY_SETTINGS {"shared_buffers", "max_wal_size", "checkpoint_timeout", \
	"wal_level", "synchronous_commit", "fsync", "full_page_writes", "max_connections", \
	"work_mem", "jit", "huge_pages", "data_checksums"}
#define SERVER_NKEY_SETTINGS 12

typedef struct server_setting
{
	char		name[64];
	char		value[256];		/* pg_settings.setting, cut to fit */
	char		unit[16];		/* "" when none */
	char		source[32];		/* "default", "configuration file", ... */
} server_setting;

typedef struct server_info
{
	bool		read;			/* server_info_read ran */
	int			version_num;	/* PQserverVersion */
	char		version[256];	/* version(), cut to fit */
	char		system_identifier[32];	/* "" when it could not be read */
	bool		key_seen[SERVER_NKEY_SETTINGS];
	server_setting key[SERVER_NKEY_SETTINGS];	/* SERVER_KEY_SETTINGS order */
	int			nnondefault;
	server_setting *nondefault; /* owned; source not default or override */
	bool		truncated;		/* more non-default settings than kept */
	int			nunreadable;
	const char *unreadable[SERVER_MAX_UNREADABLE];	/* constants: what the
													 * role could not read */
} server_info;

/*
 * Read what conn's server says into si (zeroed first).  false only when
 * out of memory; a query that fails is named in si->unreadable.  The
 * connection stays usable (each query is a statement of its own).
 */
bool		server_info_read(PGconn *conn, server_info *si);

/* Release what server_info_read allocated; a zeroed record too. */
void		server_info_free(server_info *si);

#endif
