/*
 * reconnect.h — --reconnect (beyond pgbench): which failures mean the
 * connection is lost, the backoff between reconnection attempts, and what
 * a run counts about its outages (losses, reconnects, downtime).
 *
 * The unit knows nothing of clients or threads: the state machine
 * (client_reconnect.c) hands it plain values when a client loses its
 * connection and when it has a new one, as client_retry.c does with
 * retry.h.  The counts belong to a worker thread (in its stats_run) and
 * are merged after the join; nothing here locks or allocates.
 */
#ifndef PGBENCH_RECONNECT_H
#define PGBENCH_RECONNECT_H

#include <stdbool.h>

#include "pgbench/base/common.h"

/* The first wait before a new attempt, and the longest (us). */
#define RECONNECT_BACKOFF_MIN 10000
#define RECONNECT_BACKOFF_MAX 1000000

/*
 * Whether an SQLSTATE says the session is gone, or about to go: class 08
 * (connection exception), 57P01 (admin shutdown: a fast shutdown or
 * pg_terminate_backend), 57P02 (crash shutdown), 57P03 (cannot connect
 * now: a server starting or shutting down), 57P05 (idle session timeout).
 * NULL or "" (no SQLSTATE): false.
 */
bool		reconnect_sqlstate_lost(const char *sqlstate);

/*
 * The wait before the next attempt, after a wait of last us (0: this is
 * the first): RECONNECT_BACKOFF_MIN, then doubling, at most
 * RECONNECT_BACKOFF_MAX.
 */
pg_time_usec_t reconnect_backoff(pg_time_usec_t last);

/*
 * One thread's (or, merged, the run's) outages.  A client's outage runs
 * from the moment it lost its connection to its next successful
 * reconnection, or to its end if the run ended first.  Times are
 * pgb_time_now()'s clock.  Invariants: reconnects <= losses;
 * downtime_max <= downtime_total; first_loss <= last_back when both set.
 */
typedef struct reconnect_stats
{
	int64_t		losses;			/* connections lost (outages begun) */
	int64_t		reconnects;		/* successful reconnections */
	pg_time_usec_t first_loss;	/* earliest loss of any client; 0: none */
	pg_time_usec_t last_back;	/* latest reconnection (or end of a client
								 * still down); 0: none */
	pg_time_usec_t downtime_total;	/* summed over clients and outages */
	pg_time_usec_t downtime_max;	/* the most one client was down in all */
	int			down_at_end;	/* clients whose run ended while down */
} reconnect_stats;

/* A client lost its connection at now. */
void		reconnect_note_loss(reconnect_stats *rs, pg_time_usec_t now);

/*
 * A client's outage that began at down_since ended at now: reconnected
 * (back) or the client's run ended first.  *client_downtime is that
 * client's own sum of outages, grown by this one.
 */
void		reconnect_note_end(reconnect_stats *rs, pg_time_usec_t down_since,
							   pg_time_usec_t now, bool back,
							   pg_time_usec_t *client_downtime);

/* Add rs into acc: counts summed, extremes kept.  After the join. */
void		reconnect_stats_merge(reconnect_stats *acc, const reconnect_stats *rs);

#endif
