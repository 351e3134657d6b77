/*
 * monitor_sql.c — the monitor's queries for one server version, and the
 * reading of their results (monitor_int.h).
 *
 * The snapshot is one row: the server's clock, the time of its last
 * checkpoint (pg_control_checkpoint(), when the role may call it), then
 * every counter the server has, in TIMELINE_SERVER_COUNTERS order, from
 * pg_stat_database (the run's database), pg_stat_wal (14+),
 * pg_stat_checkpointer (17+; pg_stat_bgwriter before) and the totals of
 * pg_stat_io (16+).  All of these views are readable by any role.
 *
 * The sample counts the run's backends in pg_stat_activity by what they
 * do: "Type:Event" when waiting, "CPU" when active and waiting for
 * nothing, so that its counts over the samples are each backend's time.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_int.h"

/* Where each counter comes from, by server version. */
typedef struct counter_source
{
	int			id;
	int			from_version;	/* the first version that has it */
	const char *expr;			/* up to version 16 */
	const char *expr17;			/* from 17 on (NULL: expr) */
} counter_source;

static const counter_source sources[] = {
	{SRV_XACT_COMMIT, 0, "d.xact_commit", NULL},
	{SRV_XACT_ROLLBACK, 0, "d.xact_rollback", NULL},
	{SRV_BLKS_READ, 0, "d.blks_read", NULL},
	{SRV_BLKS_HIT, 0, "d.blks_hit", NULL},
	{SRV_TUP_RETURNED, 0, "d.tup_returned", NULL},
	{SRV_TUP_FETCHED, 0, "d.tup_fetched", NULL},
	{SRV_TUP_INSERTED, 0, "d.tup_inserted", NULL},
	{SRV_TUP_UPDATED, 0, "d.tup_updated", NULL},
	{SRV_TUP_DELETED, 0, "d.tup_deleted", NULL},
	{SRV_TEMP_FILES, 0, "d.temp_files", NULL},
	{SRV_TEMP_BYTES, 0, "d.temp_bytes", NULL},
	{SRV_DEADLOCKS, 0, "d.deadlocks", NULL},
	{SRV_CONFLICTS, 0, "d.conflicts", NULL},
	{SRV_WAL_RECORDS, 140000, "w.wal_records", NULL},
	{SRV_WAL_FPI, 140000, "w.wal_fpi", NULL},
	{SRV_WAL_BYTES, 140000, "w.wal_bytes", NULL},
	{SRV_WAL_BUFFERS_FULL, 140000, "w.wal_buffers_full", NULL},
	{SRV_CKPT_TIMED, 0, "c.checkpoints_timed", "c.num_timed"},
	{SRV_CKPT_REQUESTED, 0, "c.checkpoints_req", "c.num_requested"},
	{SRV_CKPT_DONE, 180000, "c.num_done", NULL},
	{SRV_CKPT_WRITE_TIME, 0, "c.checkpoint_write_time", "c.write_time"},
	{SRV_CKPT_SYNC_TIME, 0, "c.checkpoint_sync_time", "c.sync_time"},
	{SRV_CKPT_BUFFERS, 0, "c.buffers_checkpoint", "c.buffers_written"},
	{SRV_IO_READS, 160000, "io.reads", NULL},
	{SRV_IO_WRITES, 160000, "io.writes", NULL},
	{SRV_IO_EXTENDS, 160000, "io.extends", NULL},
	{SRV_IO_HITS, 160000, "io.hits", NULL},
	{SRV_IO_EVICTIONS, 160000, "io.evictions", NULL},
	{SRV_IO_FSYNCS, 160000, "io.fsyncs", NULL},
};

/* snprintf into buf at *used; false when it does not fit. */
static bool
append(char *buf, size_t len, size_t *used, const char *fmt, const char *arg)
{
	int			n = snprintf(buf + *used, len - *used, fmt, arg);

	if (n < 0 || (size_t) n >= len - *used)
		return false;
	*used += (size_t) n;
	return true;
}

static bool
build_snapshot(monitor_sql *q, int version, bool control)
{
	size_t		used = 0;
	bool		ok;

	q->present = 0;
	ok = append(q->snapshot, sizeof(q->snapshot), &used, "%s",
				"SELECT extract(epoch FROM pg_catalog.clock_timestamp())::float8");
	ok = ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s", control
					  ? ", (SELECT extract(epoch FROM checkpoint_time)::float8"
					  " FROM pg_catalog.pg_control_checkpoint())" : ", NULL::float8");
	for (int i = 0; ok && i < (int) PGB_LENGTHOF(sources); i++)
	{
		const counter_source *cs = &sources[i];

		if (version < cs->from_version)
			continue;
		ok = append(q->snapshot, sizeof(q->snapshot), &used, ", %s::text",
					version >= 170000 && cs->expr17 != NULL ? cs->expr17 : cs->expr);
		q->present |= UINT64_C(1) << cs->id;
	}
	ok = ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s",
					  " FROM pg_catalog.pg_stat_database d");
	if (version >= 140000)
		ok = ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s",
						  " CROSS JOIN pg_catalog.pg_stat_wal w");
	ok = ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s", version >= 170000
					  ? " CROSS JOIN pg_catalog.pg_stat_checkpointer c"
					  : " CROSS JOIN pg_catalog.pg_stat_bgwriter c");
	if (version >= 160000)
		ok = ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s",
						  " CROSS JOIN (SELECT coalesce(sum(reads), 0) AS reads,"
						  " coalesce(sum(writes), 0) AS writes,"
						  " coalesce(sum(extends), 0) AS extends,"
						  " coalesce(sum(hits), 0) AS hits,"
						  " coalesce(sum(evictions), 0) AS evictions,"
						  " coalesce(sum(fsyncs), 0) AS fsyncs"
						  " FROM pg_catalog.pg_stat_io) io");
	return ok && append(q->snapshot, sizeof(q->snapshot), &used, "%s",
						" WHERE d.datname = pg_catalog.current_database()");
}

bool
monitor_sql_build(monitor_sql *q, int version, const char *app_literal, bool control)
{
	/* the run's backends: its database, its name, not the monitor */
	static const char *const run_backends =
		"FROM pg_catalog.pg_stat_activity WHERE datname = pg_catalog.current_database()"
		" AND pid <> pg_catalog.pg_backend_pid() AND backend_type = 'client backend'"
		" AND application_name = %s";
	char		where[768];
	int			n;

	memset(q, 0, sizeof(*q));
	q->control = control;
	n = snprintf(where, sizeof(where), run_backends, app_literal);
	if (n < 0 || (size_t) n >= sizeof(where) || !build_snapshot(q, version, control))
		return false;
	/*
	 * Every state: a session idle between statements waits for its client
	 * (13 to 18 name it Client:ClientRead; a NULL event counts as that
	 * too), any other one (active, fastpath function call) is on a CPU
	 * when it waits for nothing.  No state (another role's session) or
	 * "disabled" (track_activities off) says nothing: not counted.
	 */
	n = snprintf(q->sample, sizeof(q->sample),
				 "SELECT coalesce(wait_event_type || ':' || wait_event,"
				 " CASE WHEN state IN ('idle', 'idle in transaction',"
				 " 'idle in transaction (aborted)') THEN 'Client:ClientRead' ELSE 'CPU' END),"
				 " count(*) %s AND state IS NOT NULL AND state <> 'disabled' GROUP BY 1", where);
	if (n < 0 || (size_t) n >= sizeof(q->sample))
		return false;
	q->all_states = true;
	n = snprintf(q->count, sizeof(q->count), "SELECT count(*) %s", where);
	return n >= 0 && (size_t) n < sizeof(q->count);
}

/* A number the server printed; NaN when it is not one. */
static double
number(const PGresult *res, int col)
{
	const char *s;
	char	   *end;
	double		v;

	if (col >= PQnfields(res) || PQgetisnull(res, 0, col))
		return NAN;
	s = PQgetvalue(res, 0, col);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(v))
		return NAN;
	return v;
}

void
monitor_sql_parse_snapshot(const monitor_sql *q, const PGresult *res, monitor_snap *snap)
{
	int			col = 2;

	snap->ok = false;
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		return;
	snap->server_epoch_s = number(res, 0);
	snap->checkpoint_epoch_s = number(res, 1);
	for (int i = 0; i < (int) PGB_LENGTHOF(sources); i++)
	{
		int			id = sources[i].id;

		if (!(q->present & (UINT64_C(1) << id)))
		{
			snap->value[id] = 0;
			continue;
		}
		snap->value[id] = number(res, col++);
		if (isnan(snap->value[id]))
			return;
	}
	snap->ok = col == PQnfields(res) && !isnan(snap->server_epoch_s);
}
