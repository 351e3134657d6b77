/*
 * monitor_int.h — the monitor's parts (monitor.c, monitor_sql.c): the
 * queries it sends, made once for the server's version, and what it
 * reads from their results.  Private to src/server.
 */
#ifndef PGBENCH_MONITOR_INT_H
#define PGBENCH_MONITOR_INT_H

#include <libpq-fe.h>

#include "pgbench/server/monitor.h"

/* The counters and clocks of one read of the snapshot query. */
typedef struct monitor_snap
{
	bool		ok;
	double		value[SRV_NCOUNTERS];
	double		server_epoch_s; /* clock_timestamp() when read */
	double		checkpoint_epoch_s; /* pg_control_checkpoint()'s time; NaN
									 * when unreadable */
	pg_time_usec_t local_at;	/* pgb_time_now() when it came */
	int64_t		own_before;		/* the monitor's transactions done before */
} monitor_snap;

/* The queries, for one server. */
typedef struct monitor_sql
{
	uint64_t	present;		/* the counters the snapshot reads */
	bool		control;		/* it reads pg_control_checkpoint() */
	char		snapshot[4096];
	char		sample[1024];	/* wait events of the run's backends */
	bool		all_states;		/* ... in every state, idle ones included */
	char		count[1024];	/* how many of the run's backends there are */
} monitor_sql;

/* Distinct wait events counted in one interval (more: "other"). */
#define MONITOR_MAX_EVENTS 64

typedef struct monitor_wait_count
{
	char		name[TIMELINE_WAIT_NAME];
	int64_t		count;
} monitor_wait_count;

/* The open interval's wait events. */
typedef struct monitor_waits
{
	int			n;
	monitor_wait_count e[MONITOR_MAX_EVENTS];
	int64_t		other;
	int32_t		samples;
} monitor_waits;

typedef enum monitor_query
{
	MQ_IDLE,
	MQ_SAMPLE,
	MQ_SNAPSHOT,
} monitor_query;

struct server_monitor
{
	PGconn	   *conn;
	server_run *run;			/* the caller's: notes, totals */
	monitor_sql sql;
	int			stop_fd;
	bool		force_flush;	/* pg_stat_force_next_flush() may be called */
	int64_t		own;			/* the monitor's committed transactions */
	bool		broken;			/* the connection failed */
	/* while the run lasts (monitor.c) */
	bool		started;
	pg_time_usec_t origin;
	pg_time_usec_t sample_us;
	pg_time_usec_t next_sample;
	bool		sample_failed;
	monitor_query inflight;
	int64_t		want_seq;		/* snapshots asked for (one per interval) */
	int64_t		inflight_seq;	/* ... sent */
	int64_t		latest_seq;		/* ... read: latest */
	monitor_waits waits;		/* the open interval's */
	timeline_server closed;		/* the closed interval's, until taken */
	monitor_snap latest;
	monitor_snap applied;		/* the snapshot the last record ends at */
	monitor_snap before;		/* the run's start (monitor_run.c) */
};

/*
 * A wait event's name as kept (dst: TIMELINE_WAIT_NAME bytes): cut to fit,
 * never inside a UTF-8 character, so that one name is always kept alike.
 */
void		monitor_keep_name(char *dst, const char *name);

/* A note for the report, fmt with one %s. */
void		monitor_note(server_run *run, const char *fmt, const char *arg);

/* The connection failed: no more queries. */
void		monitor_broken(server_monitor *m);

/*
 * The queries for a server of version (PQserverVersion) whose run's
 * backends are named app (an escaped literal, quotes included); control:
 * the role may run pg_control_checkpoint().  false when they do not fit.
 */
bool		monitor_sql_build(monitor_sql *q, int version, const char *app_literal,
							  bool control);

/* A snapshot query's result into snap (ok false when malformed). */
void		monitor_sql_parse_snapshot(const monitor_sql *q, const PGresult *res,
									   monitor_snap *snap);

#endif
