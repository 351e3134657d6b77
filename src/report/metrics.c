/*
 * metrics.c — the --metrics-listen endpoint (metrics.h): a listening
 * socket and a few connections, served without blocking from the
 * ticker's loop, and the page, rendered when a record closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/metrics.h"

#define PAGE_MAX (64 * 1024)

typedef struct metrics_conn
{
	int			fd;				/* -1: free */
	pg_time_usec_t since;		/* accepted at */
	size_t		got;			/* request bytes read */
	char		request[METRICS_MAX_REQUEST];
	char	   *reply;			/* being sent; NULL: reading the request */
	size_t		reply_len;
	size_t		sent;
} metrics_conn;

struct metrics_server
{
	int			listen_fd;
	metrics_conn conns[METRICS_MAX_CONNS];
	/* the totals since the start, from the records */
	double		server[SRV_NCOUNTERS];
	uint64_t	present;
	bool		monitored;
	double		client_cpu[2];	/* user, system */
	double		host_cpu[TIMELINE_HOST_NCPU_STATES];
	bool		host_ok;
	double		server_cpu[2];
	bool		server_proc;
	double		elapsed_s;
	/* the page: two renderings (text 0.0.4, OpenMetrics) */
	char	   *page[2];
	size_t		page_len[2];
};

/* ---- the socket --------------------------------------------------------- */

/* The largest port number; the smallest is 1 (see split_address). */
#define METRICS_MAX_PORT 65535

static void render_pages(metrics_server *ms, const timeline_record *r, const stats_data *totals,
						 bool throttled);

/*
 * "host:port" or "[v6]:port" into host and *port; false with the reason
 * in err.  The port is decimal digits only, from 1 to 65535: getaddrinfo
 * would take 99999 and bind its low 16 bits (port 34463), and port 0
 * would have the system choose one that no scraper could be told of.
 */
static bool
split_address(const char *addr, char *host, size_t hlen, int *port, char *err, size_t errlen)
{
	const char *colon = strrchr(addr, ':');
	const char *h = addr;
	size_t		n;
	long		value = 0;

	if (colon == NULL || colon[1] == '\0')
		goto malformed;
	n = (size_t) (colon - addr);
	if (n >= 2 && addr[0] == '[' && addr[n - 1] == ']')
	{
		h = addr + 1;
		n -= 2;
	}
	if (n == 0 || n >= hlen)
		goto malformed;
	/* digits only (no sign, no blank), and few enough that value cannot overflow */
	for (const char *d = colon + 1; *d != '\0'; d++)
	{
		if (*d < '0' || *d > '9' || value > METRICS_MAX_PORT)
		{
			value = 0;
			break;
		}
		value = value * 10 + (*d - '0');
	}
	if (value < 1 || value > METRICS_MAX_PORT)
	{
		snprintf(err, errlen, "invalid address \"%s\": the port must be a number from 1 to %d",
				 addr, METRICS_MAX_PORT);
		return false;
	}
	memcpy(host, h, n);
	host[n] = '\0';
	*port = (int) value;
	return true;

malformed:
	snprintf(err, errlen, "invalid address \"%s\": expected HOST:PORT", addr);
	return false;
}

bool
metrics_check_address(const char *addr, char *err, size_t errlen)
{
	char		host[METRICS_MAX_HOST];
	int			port;

	return split_address(addr, host, sizeof(host), &port, err, errlen);
}

metrics_server *
metrics_listen(const char *addr, char *err, size_t errlen)
{
	char		host[METRICS_MAX_HOST];
	char		port[8];
	int			portnum;
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
	.ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *ai = NULL;
	metrics_server *ms;
	int			fd = -1,
				one = 1,
				rc;

	if (!split_address(addr, host, sizeof(host), &portnum, err, errlen))
		return NULL;
	snprintf(port, sizeof(port), "%d", portnum);
	if ((rc = getaddrinfo(host, port, &hints, &ai)) != 0)
	{
		snprintf(err, errlen, "could not resolve \"%s\": %s", addr, gai_strerror(rc));
		return NULL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
		bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 16) != 0 ||
		(ms = calloc(1, sizeof(*ms))) == NULL)
	{
		snprintf(err, errlen, "could not listen on \"%s\": %s", addr, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return NULL;
	}
	freeaddrinfo(ai);
	ms->listen_fd = fd;
	for (int i = 0; i < METRICS_MAX_CONNS; i++)
		ms->conns[i].fd = -1;
	/* a scrape before the first interval closes gets the families, no value yet */
	render_pages(ms, NULL, NULL, false);
	if (ms->page[0] == NULL || ms->page[1] == NULL)
	{
		snprintf(err, errlen, "out of memory");
		metrics_close(ms);
		return NULL;
	}
	return ms;
}

static void
drop(metrics_conn *c)
{
	close(c->fd);
	free(c->reply);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

int
metrics_pollfds(const metrics_server *ms, struct pollfd *pfd)
{
	int			n = 0,
				used = 0;

	if (ms == NULL)
		return 0;
	for (int i = 0; i < METRICS_MAX_CONNS; i++)
	{
		const metrics_conn *c = &ms->conns[i];

		if (c->fd < 0)
			continue;
		used++;
		pfd[n++] = (struct pollfd) {.fd = c->fd, .events = c->reply != NULL ? POLLOUT : POLLIN};
	}
	/* a full house leaves the next ones in the listen queue */
	if (used < METRICS_MAX_CONNS)
		pfd[n++] = (struct pollfd) {.fd = ms->listen_fd, .events = POLLIN};
	return n;
}

/* The reply to a complete request: the page, or 404 / 405. */
static void
answer(metrics_server *ms, metrics_conn *c)
{
	static const char *const types[2] = {
		"text/plain; version=0.0.4; charset=utf-8",
		"application/openmetrics-text; version=1.0.0; charset=utf-8",
	};
	bool		get = strncmp(c->request, "GET ", 4) == 0;
	bool		path = get && (strncmp(c->request + 4, "/metrics ", 9) == 0 ||
							   strncmp(c->request + 4, "/ ", 2) == 0);
	int			om = strstr(c->request, "application/openmetrics-text") != NULL;
	const char *body = ms->page[om];	/* rendered since metrics_listen */
	size_t		body_len = ms->page_len[om];
	size_t		cap = body_len + 512;
	int			n;

	if ((c->reply = malloc(cap)) == NULL)
	{
		drop(c);
		return;
	}
	if (!path)
		n = snprintf(c->reply, cap, "HTTP/1.1 %s\r\nContent-Type: text/plain\r\n"
					 "Content-Length: 10\r\nConnection: close\r\n\r\nnot found\n",
					 get ? "404 Not Found" : "405 Method Not Allowed");
	else
		n = snprintf(c->reply, cap, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\n"
					 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
					 types[om], body_len, body);
	c->reply_len = n > 0 && (size_t) n < cap ? (size_t) n : 0;
	c->sent = 0;
}

static void
serve_conn(metrics_server *ms, metrics_conn *c, short revents, pg_time_usec_t now)
{
	ssize_t		n;

	if (c->reply == NULL && (revents & (POLLIN | POLLHUP | POLLERR)))
	{
		n = read(c->fd, c->request + c->got, sizeof(c->request) - 1 - c->got);
		if (n <= 0)
		{
			if (n == 0 || (errno != EAGAIN && errno != EINTR))
				drop(c);
			return;
		}
		c->got += (size_t) n;
		c->request[c->got] = '\0';
		if (strstr(c->request, "\r\n\r\n") != NULL || strstr(c->request, "\n\n") != NULL)
			answer(ms, c);
		else if (c->got == sizeof(c->request) - 1)
			drop(c);			/* a request too long to be ours */
		return;
	}
	if (c->reply != NULL && (revents & (POLLOUT | POLLHUP | POLLERR)))
	{
		n = send(c->fd, c->reply + c->sent, c->reply_len - c->sent, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0 || (c->sent += (size_t) n) == c->reply_len)
			drop(c);
		return;
	}
	(void) now;
}

void
metrics_service(metrics_server *ms, const struct pollfd *pfd, int n, pg_time_usec_t now)
{
	if (ms == NULL)
		return;
	for (int k = 0; k < n; k++)
	{
		if (pfd[k].revents == 0)
			continue;
		for (int i = 0; i < METRICS_MAX_CONNS; i++)
			if (ms->conns[i].fd == pfd[k].fd)
				serve_conn(ms, &ms->conns[i], pfd[k].revents, now);
		if (pfd[k].fd == ms->listen_fd)
		{
			for (int i = 0; i < METRICS_MAX_CONNS; i++)
			{
				metrics_conn *c = &ms->conns[i];

				if (c->fd >= 0)
					continue;
				if ((c->fd = accept4(ms->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) < 0)
				{
					c->fd = -1;
					break;
				}
				c->since = now;
			}
		}
	}
	/* a connection that does not send its request in time is let go */
	for (int i = 0; i < METRICS_MAX_CONNS; i++)
		if (ms->conns[i].fd >= 0 && ms->conns[i].reply == NULL &&
			now - ms->conns[i].since > METRICS_IDLE_US)
			drop(&ms->conns[i]);
}

void
metrics_close(metrics_server *ms)
{
	if (ms == NULL)
		return;
	for (int i = 0; i < METRICS_MAX_CONNS; i++)
		if (ms->conns[i].fd >= 0)
			drop(&ms->conns[i]);
	close(ms->listen_fd);
	free(ms->page[0]);
	free(ms->page[1]);
	free(ms);
}

/* ---- the page ------------------------------------------------------------ */

typedef struct page
{
	char	   *buf;
	size_t		len;
	bool		om;				/* OpenMetrics */
	bool		full;
	bool		bare;			/* before the first interval: families, no sample */
} page;

static void
put(page *p, const char *fmt,...)
{
	va_list		ap;
	int			n;

	if (p->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p->buf + p->len, PAGE_MAX - p->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= PAGE_MAX - p->len)
		p->full = true;
	else
		p->len += (size_t) n;
}

/* A metric's header: counters are NAME_total, in OpenMetrics typed NAME. */
static void
family(page *p, const char *name, bool counter, const char *help)
{
	put(p, "# HELP %s%s %s\n", name, counter && !p->om ? "_total" : "", help);
	put(p, "# TYPE %s%s %s\n", name, counter && !p->om ? "_total" : "",
		counter ? "counter" : "gauge");
}

/* A value; NaN as the formats spell it. */
static void
sample(page *p, const char *name, const char *labels, double v)
{
	if (p->bare)
		return;
	if (isnan(v))
		put(p, "%s%s NaN\n", name, labels);
	else if (v == floor(v) && fabs(v) < 1e15)
		put(p, "%s%s %.0f\n", name, labels, v);
	else
		put(p, "%s%s %.9g\n", name, labels, v);
}

/* A label value from the server: \, " and newline escaped, cut to fit. */
static void
escape_label(char *dst, size_t len, const char *src)
{
	size_t		o = 0;

	for (; *src != '\0' && o + 3 < len; src++)
	{
		if (*src == '\\' || *src == '"')
			dst[o++] = '\\';
		else if (*src == '\n')
		{
			dst[o++] = '\\';
			dst[o++] = 'n';
			continue;
		}
		dst[o++] = *src;
	}
	dst[o] = '\0';
}

static void
render_run(page *p, const timeline_record *r, const stats_data *t, bool throttled,
		   const metrics_server *ms)
{
	static const double at[] = FIGURES_POINT_PERCENTILES;
	figures_point fp;
	char		labels[64];

	figures_point_of(&fp, r, throttled);
	family(p, "pgbench_transactions", true, "transactions since the start, by outcome");
	sample(p, "pgbench_transactions_total", "{outcome=\"processed\"}", (double) t->cnt);
	sample(p, "pgbench_transactions_total", "{outcome=\"failed\"}", (double) stats_data_failures(t));
	sample(p, "pgbench_transactions_total", "{outcome=\"skipped\"}", (double) t->skipped);
	family(p, "pgbench_retries", true, "retries since the start");
	sample(p, "pgbench_retries_total", "", (double) t->retries);
	family(p, "pgbench_elapsed_seconds", false, "time since the start, at the last interval's end");
	sample(p, "pgbench_elapsed_seconds", "", ms->elapsed_s);
	family(p, "pgbench_tps", false, "successful transactions per second in the last interval");
	sample(p, "pgbench_tps", "", fp.tps);
	family(p, "pgbench_latency_average_seconds", false, "average latency in the last interval");
	sample(p, "pgbench_latency_average_seconds", "", fp.latency_avg_ms / 1000);
	family(p, "pgbench_latency_seconds", false, "latency percentiles in the last interval");
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
	{
		snprintf(labels, sizeof(labels), "{quantile=\"%g\"}", at[k] / 100);
		sample(p, "pgbench_latency_seconds", labels, fp.latency_ms[k] / 1000);
	}
	if (throttled)
	{
		family(p, "pgbench_lag_average_seconds", false, "average schedule lag in the last interval (-R)");
		sample(p, "pgbench_lag_average_seconds", "", fp.lag_avg_ms / 1000);
	}
	family(p, "pgbench_client_cpu_seconds", true, "the client process's CPU time");
	sample(p, "pgbench_client_cpu_seconds_total", "{mode=\"user\"}", ms->client_cpu[0]);
	sample(p, "pgbench_client_cpu_seconds_total", "{mode=\"system\"}", ms->client_cpu[1]);
	if (r->has_client && r->rss_kb >= 0)
	{
		family(p, "pgbench_client_resident_bytes", false, "the client process's resident memory");
		sample(p, "pgbench_client_resident_bytes", "", 1024.0 * (double) r->rss_kb);
	}
}

static void
render_server(page *p, const timeline_record *r, const metrics_server *ms)
{
	static const char *const states[TIMELINE_HOST_NCPU_STATES] = TIMELINE_HOST_CPU_STATES;
	char		name[128],
				labels[160],
				event[TIMELINE_WAIT_NAME * 2];

	for (int i = 0; i < SRV_NCOUNTERS; i++)
	{
		const timeline_counter_def *d = &timeline_server_counters[i];
		bool		ms_unit = strcmp(d->unit, "ms") == 0;

		if (!(ms->present & (UINT64_C(1) << i)))
			continue;
		snprintf(name, sizeof(name), "pgbench_server_%s_%s%s", d->group, d->key,
				 ms_unit ? "_seconds" : "");
		family(p, name, true, "the server's counter since the start");
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "_total");
		sample(p, name, "", ms_unit ? ms->server[i] / 1000 : ms->server[i]);
	}
	if (ms->monitored && r->server.wait_samples > 0)
	{
		family(p, "pgbench_server_wait_backends", false,
			   "the run's backends in each wait event, on average over the last interval");
		for (int i = 0; i < r->server.nwaits && i < TIMELINE_NWAITS; i++)
		{
			escape_label(event, sizeof(event), r->server.waits[i].name);
			snprintf(labels, sizeof(labels), "{event=\"%s\"}", event);
			sample(p, "pgbench_server_wait_backends", labels,
				   (double) r->server.waits[i].count / r->server.wait_samples);
		}
	}
	if (ms->server_proc)
	{
		family(p, "pgbench_server_cpu_seconds", true, "the local server's processes' CPU time");
		sample(p, "pgbench_server_cpu_seconds_total", "{mode=\"user\"}", ms->server_cpu[0]);
		sample(p, "pgbench_server_cpu_seconds_total", "{mode=\"system\"}", ms->server_cpu[1]);
	}
	if (ms->host_ok)
	{
		family(p, "pgbench_host_cpu_seconds", true, "the client host's CPU time, all CPUs");
		for (int i = 0; i < TIMELINE_HOST_NCPU_STATES; i++)
		{
			snprintf(labels, sizeof(labels), "{mode=\"%s\"}", states[i]);
			sample(p, "pgbench_host_cpu_seconds_total", labels, ms->host_cpu[i]);
		}
	}
}

void
metrics_record(metrics_server *ms, const timeline_record *r, const stats_data *totals,
			   bool throttled)
{
	if (ms == NULL)
		return;
	ms->elapsed_s = (double) r->end_us / 1e6;
	ms->client_cpu[0] += r->cpu_user_s;
	ms->client_cpu[1] += r->cpu_system_s;
	if (r->server.has_counters)
	{
		ms->present |= r->server.present;
		for (int i = 0; i < SRV_NCOUNTERS; i++)
			ms->server[i] += r->server.counter[i];
	}
	ms->monitored = ms->monitored || r->server.wait_samples > 0 || r->server.has_counters;
	if (r->server.has_proc)
	{
		ms->server_proc = true;
		ms->server_cpu[0] += r->server.cpu_user_s;
		ms->server_cpu[1] += r->server.cpu_system_s;
	}
	if (r->host.ok)
	{
		ms->host_ok = true;
		for (int i = 0; i < TIMELINE_HOST_NCPU_STATES; i++)
			ms->host_cpu[i] += r->host.cpu_s[i];
	}
	render_pages(ms, r, totals, throttled);
}

/*
 * Both renderings of the page from record r, or before the first one (r
 * NULL) the families alone: a valid document all the same (OpenMetrics
 * parsers refuse an empty one, which has no "# EOF").  A page that
 * cannot be allocated stays NULL.
 */
static void
render_pages(metrics_server *ms, const timeline_record *r, const stats_data *totals,
			 bool throttled)
{
	static const timeline_record no_record;
	static const stats_data no_totals;

	for (int om = 0; om < 2; om++)
	{
		page		p = {.buf = ms->page[om], .om = om == 1, .bare = r == NULL};

		if (p.buf == NULL && (p.buf = ms->page[om] = malloc(PAGE_MAX)) == NULL)
			continue;
		render_run(&p, r != NULL ? r : &no_record, totals != NULL ? totals : &no_totals,
				   throttled, ms);
		render_server(&p, r != NULL ? r : &no_record, ms);
		if (p.om)
			put(&p, "# EOF\n");
		ms->page_len[om] = p.len;
	}
}
