/*
 * monitor.h — the server's side of a run (--server-stats), read through
 * one extra connection that the main thread's ticker (report/ticker.h)
 * drives without ever blocking the run: the server's cumulative counters
 * (timeline.h, TIMELINE_SERVER_COUNTERS) at every tick, the wait events
 * of the run's own backends sampled from pg_stat_activity between ticks
 * (every backend in every state: "CPU" when active and waiting for
 * nothing, an idle one in its wait event, Client:ClientRead),
 * the checkpoints that complete, and the counters over the whole run,
 * read before the clients connect and after they are gone.
 *
 * The run's backends are those of the run's database with the monitoring
 * connection's application_name (the clients connect with the same
 * parameters, so with the same name), the monitor's own excluded.  Other
 * sessions with that name on that database count as the run's: the open
 * says so in a note when it finds some.
 *
 * Its own queries are transactions too: it counts them and takes them out
 * of the run's commit count (the counts are read when they have settled:
 * monitor_open and monitor_finish wait for the server's statistics to take
 * in what the sessions that ended did).  Per interval, the counters are as
 * the server published them, the monitor's own few queries included.
 *
 * It never prints: what it could not do is a note in the run's record
 * (server_run.notes).  It never opens when the extra connection could take
 * a slot a client needs (max_connections), so the run connects as it would
 * without it.  Every wait is bounded (MONITOR_WAIT_US at most, less when a
 * signal comes: stop_fd).  Works on PostgreSQL 13 to 18 and for a role
 * without pg_monitor (what needs it is then a note).
 *
 * Thread-safety: one thread (the main one) uses a monitor.
 */
#ifndef PGBENCH_MONITOR_H
#define PGBENCH_MONITOR_H

#include <sys/types.h>

#include "pgbench/base/common.h"
#include "pgbench/conn/conn.h"
#include "pgbench/stats/timeline.h"

#define MONITOR_MAX_NOTES 6
#define MONITOR_NOTE_LEN 200
/* The longest a blocking step (open, finish, the last interval) waits. */
#define MONITOR_WAIT_US (INT64_C(5) * 1000000)
/* How long sessions of the run's name may take to end before it starts. */
#define MONITOR_LINGER_US (INT64_C(1) * 1000000)
/* Wait events are sampled this often unless told otherwise. */
#define MONITOR_DEFAULT_SAMPLE_US INT64_C(100000)

/* The run as the server saw it, for the report. */
typedef struct server_run
{
	bool		on;				/* --server-stats asked for it */
	bool		connected;		/* the monitor ran */
	bool		totals_read;	/* the counters before and after were read */
	uint64_t	present;		/* bit per counter the server has */
	double		total[SRV_NCOUNTERS];	/* their growth over the run (the
										 * commits without the monitor's own) */
	int64_t		own_commits;	/* the monitor's transactions taken out */
	bool		settled;		/* the last two reads after the run agreed */
	int			version_num;
	char		app_name[64];	/* the run's backends' application_name */
	bool		others;			/* other sessions had that name at the start */
	bool		checkpoint_times;	/* pg_control_checkpoint() was read: a
									 * checkpoint shows when it ends */
	bool		local;			/* the server's processes are on this host */
	pid_t		postmaster;		/* when local */
	int64_t		wait_samples;	/* pg_stat_activity samples over the run */
	bool		wait_all_states;	/* they counted the run's backends in
									 * every state: a session idle between
									 * statements as Client:ClientRead */
	pg_time_usec_t sample_us;	/* their period */
	int			nnotes;
	char		notes[MONITOR_MAX_NOTES][MONITOR_NOTE_LEN];
} server_run;

/* What the monitor needs from the run. */
typedef struct monitor_setup
{
	const conn_params *params;	/* the clients' connection parameters */
	int			nclients;		/* slots the clients will take */
	pg_time_usec_t sample_us;	/* wait event sampling; 0: none */
	int			stop_fd;		/* readable once a signal came; -1: none */
	pid_t		setup_pid;		/* the set-up connection's backend, which
								 * has just ended; 0: none */
} monitor_setup;

typedef struct server_monitor server_monitor;

/*
 * Connect, learn what this server has, wait for the set-up connection's
 * session to be gone, see whether other sessions have the run's name, and
 * read the counters before the run.  NULL when the monitor cannot run: run->notes say why.  Call
 * before the clients connect.
 */
server_monitor *monitor_open(const monitor_setup *setup, server_run *run);

/* The run started at origin: sample from then on. */
void		monitor_begin(server_monitor *m, pg_time_usec_t origin);

/*
 * The connection's socket and the events to wait for on it (-1: nothing
 * to wait for), and the time monitor_service must run even without
 * input (INT64_MAX: none).
 */
int			monitor_socket(const server_monitor *m, short *events);
pg_time_usec_t monitor_due(const server_monitor *m);

/* Read what arrived, and send a query that is due.  Never blocks. */
void		monitor_service(server_monitor *m, pg_time_usec_t now);

/*
 * An interval ends now: its wait events are cut off, and the counters
 * are asked for.  monitor_interval_ready says when they came.
 */
void		monitor_close_interval(server_monitor *m, pg_time_usec_t now);
bool		monitor_interval_ready(const server_monitor *m);

/*
 * The closed interval's figures into srv (its wait events, and its
 * counters when they came; if not, the next interval's cover both).
 */
void		monitor_take_interval(server_monitor *m, timeline_server *srv);

/*
 * --warmup is over: the run's totals (server_run.total) count from the
 * counters the last interval taken ended with, not from before the run.
 * Those were read on the fly, not settled as the reads before and after
 * the run are: the server may publish its sessions' counts up to a
 * second late.
 */
void		monitor_restart_totals(server_monitor *m);

/*
 * After the run, when every client has disconnected: wait for their
 * sessions to end, and read the counters over the run into run.
 */
void		monitor_finish(server_monitor *m);

/* The local server's postmaster; -1 when the server is not on this host. */
pid_t		monitor_postmaster(const server_monitor *m);

/* Disconnect and free; NULL is fine. */
void		monitor_close(server_monitor *m);

#endif
