/*
 * metrics.h — --metrics-listen=ADDR:PORT: the run's timeline served while
 * it lasts in the Prometheus text format (OpenMetrics when the scraper
 * asks for it), for a dashboard that follows a long run.
 *
 * The ticker (ticker.h) owns it: it waits on the listening socket and the
 * open connections beside its other sockets, and hands over each record
 * it closes (metrics_record), from which the page is rendered once (a
 * few kB); a request is answered with that page.  Bounded: at most
 * METRICS_MAX_CONNS connections at a time (more wait in the listen
 * queue), a request of at most METRICS_MAX_REQUEST bytes, and a
 * connection that has not sent its request within METRICS_IDLE_US is
 * closed.  No thread of its own, no allocation per request but the copy
 * of the page a connection is sent.
 *
 * What it serves (names prefixed pgbench_): transactions by outcome and
 * retries (counters since the start), the last interval's tps, latency
 * average and percentiles, the client's CPU and memory, and with the
 * server's side (--server-stats) the server's counters, its backends'
 * wait events in the last interval and a local server's CPU, and the
 * client host's CPU.  Server-provided names (wait events) are escaped as
 * label values.  Before the first record closes the page holds the
 * families (HELP and TYPE, and OpenMetrics's "# EOF") without samples:
 * an empty body is no valid OpenMetrics document.
 */
#ifndef PGBENCH_METRICS_H
#define PGBENCH_METRICS_H

#include <poll.h>

#include "pgbench/base/common.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/timeline.h"

#define METRICS_MAX_CONNS 4
#define METRICS_MAX_REQUEST 4096
#define METRICS_IDLE_US (INT64_C(2) * 1000000)
/* poll entries metrics_pollfds fills at most */
#define METRICS_NFDS (1 + METRICS_MAX_CONNS)

typedef struct metrics_server metrics_server;

/* The longest HOST of an address, its NUL included. */
#define METRICS_MAX_HOST 256

/*
 * Whether addr has the form metrics_listen takes: "HOST:PORT" or
 * "[V6]:PORT", HOST not empty, PORT decimal digits from 1 to 65535 (0,
 * which would have the system choose a port, is refused); false with
 * the reason in err ("invalid address \"X\": ...").  Nothing is
 * resolved: what the option parser checks before anything connects.
 * Stateless, any thread.
 */
bool		metrics_check_address(const char *addr, char *err, size_t errlen);

/*
 * Listen on addr (checked as metrics_check_address does): NULL with the
 * reason in err (a bad address, a name that does not resolve, a port in
 * use).
 */
metrics_server *metrics_listen(const char *addr, char *err, size_t errlen);

/* The sockets to wait on (into pfd, at most METRICS_NFDS): how many. */
int			metrics_pollfds(const metrics_server *ms, struct pollfd *pfd);

/* Serve what pfd (as metrics_pollfds filled it, after the wait) says. */
void		metrics_service(metrics_server *ms, const struct pollfd *pfd, int n,
							pg_time_usec_t now);

/*
 * A record closed: add it to the totals and render the page (totals: the
 * run's counters since its start; throttled: -R).
 */
void		metrics_record(metrics_server *ms, const timeline_record *r,
						   const stats_data *totals, bool throttled);

/* Close everything; NULL is fine. */
void		metrics_close(metrics_server *ms);

#endif
