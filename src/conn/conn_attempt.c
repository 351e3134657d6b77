/*
 * conn_attempt.c — non-blocking connections with connect_timeout per host
 * and per address, as libpq's blocking connect applies it (conn_attempt.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "pgbench/conn/conn.h"

#include "pgbench/base/xalloc.h"

/*
 * A value of an option that libpq validates after it has read every
 * option and before it opens any socket: the probe made with it stops
 * there, and PQconninfo then tells every option as libpq resolved it.
 */
#define PROBE_KEYWORD "channel_binding"
#define PROBE_VALUE "pgbench-ng-probe"

/* ---- the plan ------------------------------------------------------------ */

/* Number of comma-separated entries of list; 0 for NULL or "". */
static int
list_count(const char *list)
{
	int			n = 1;

	if (list == NULL || list[0] == '\0')
		return 0;
	for (const char *p = list; *p != '\0'; p++)
		n += *p == ',';
	return n;
}

/* Entry i of list (a copy), NULL when list is NULL; false when empty. */
static bool
list_entry(const char *list, int i, char **out)
{
	const char *p = list;
	size_t		len;

	*out = NULL;
	if (list == NULL || list[0] == '\0')
		return true;
	for (; i > 0; i--)
		p = strchr(p, ',') + 1;
	len = strcspn(p, ",");
	if (len == 0)
		return false;
	*out = pgb_malloc(len + 1);
	memcpy(*out, p, len);
	(*out)[len] = '\0';
	return true;
}

/*
 * connect_timeout as libpq reads it: an integer with optional white space
 * around; below 2 (but positive) counts as 2, zero or negative as none.
 */
static void
plan_timeout(conn_plan *plan, const char *value)
{
	char	   *end;
	long		n;

	if (value == NULL || value[0] == '\0')
		return;
	errno = 0;
	n = strtol(value, &end, 10);
	while (end != value && *end != '\0' && isspace((unsigned char) *end))
		end++;
	if (end == value || *end != '\0' || errno != 0 || n < INT_MIN || n > INT_MAX)
	{
		snprintf(plan->timeout_error, sizeof(plan->timeout_error),
				 "invalid integer value \"%.64s\" for connection option \"connect_timeout\"\n",
				 value);
		return;
	}
	if (n > 0)
		plan->timeout = (pg_time_usec_t) (n < 2 ? 2 : n) * 1000000;
}

static const char *
option_value(const PQconninfoOption *opts, const char *keyword)
{
	for (const PQconninfoOption *o = opts; o != NULL && o->keyword != NULL; o++)
		if (strcmp(o->keyword, keyword) == 0)
			return o->val;
	return NULL;
}

/*
 * The host lists, one entry per host, when they are well formed; else
 * nhosts stays 0 and one libpq attempt reports what is wrong with them.
 */
static void
plan_hosts(conn_plan *plan, const char *host, const char *hostaddr, const char *port)
{
	int			n = list_count(host) > 0 ? list_count(host) : list_count(hostaddr);
	int			nports = list_count(port);

	if (n == 0 || (list_count(hostaddr) > 0 && list_count(hostaddr) != n) ||
		(nports > 1 && nports != n))
		return;
	plan->hosts = pgb_calloc((size_t) n, sizeof(conn_host));
	plan->nhosts = n;
	for (int i = 0; i < n; i++)
	{
		conn_host  *h = &plan->hosts[i];

		if (!list_entry(host, i, &h->host) || !list_entry(hostaddr, i, &h->hostaddr) ||
			!list_entry(port, nports > 1 ? i : 0, &h->port))
		{
			/* an empty entry means libpq's default: leave it to libpq */
			conn_plan_free(plan);
			return;
		}
	}
}

bool
conn_plan_init(conn_plan *plan, const conn_params *params)
{
	const char *keywords[CONN_MAX_PARAMS + 2];
	const char *values[CONN_MAX_PARAMS + 2];
	int			n = 0;
	PGconn	   *probe;
	PQconninfoOption *opts;
	const char *v;

	memset(plan, 0, sizeof(*plan));
	plan->params = params;
	for (; params->keywords[n] != NULL; n++)
	{
		keywords[n] = params->keywords[n];
		values[n] = params->values[n];
	}
	keywords[n] = PROBE_KEYWORD;
	values[n] = PROBE_VALUE;
	keywords[n + 1] = values[n + 1] = NULL;
	probe = PQconnectStartParams(keywords, values, 1);
	if (probe == NULL)
		return false;
	opts = PQconninfo(probe);
	/* a connection string libpq rejects: the attempt will tell why */
	v = option_value(opts, PROBE_KEYWORD);
	if (v != NULL && strcmp(v, PROBE_VALUE) == 0)
	{
		plan_timeout(plan, option_value(opts, "connect_timeout"));
		v = option_value(opts, "target_session_attrs");
		plan->prefer_standby = v != NULL && strcmp(v, "prefer-standby") == 0;
		v = option_value(opts, "load_balance_hosts");
		plan->random_order = v != NULL && strcmp(v, "random") == 0;
		if (plan->timeout > 0)
			plan_hosts(plan, option_value(opts, "host"), option_value(opts, "hostaddr"),
					   option_value(opts, "port"));
	}
	PQconninfoFree(opts);
	PQfinish(probe);
	return true;
}

void
conn_plan_free(conn_plan *plan)
{
	for (int i = 0; i < plan->nhosts; i++)
	{
		free(plan->hosts[i].host);
		free(plan->hosts[i].hostaddr);
		free(plan->hosts[i].port);
	}
	free(plan->hosts);
	plan->hosts = NULL;
	plan->nhosts = 0;
}

/* ---- the attempt --------------------------------------------------------- */

/* A small generator for the random orders; seeded per attempt. */
static uint64_t
next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Shuffle n items of size bytes (at most a pointer's) in place. */
static void
shuffle(void *items, size_t size, int n, uint64_t *state)
{
	char	   *base = items;
	char		t[sizeof(void *)];

	for (int i = n - 1; i > 0; i--)
	{
		int			j = (int) (next_random(state) % (uint64_t) (i + 1));

		memcpy(t, base + (size_t) i * size, size);
		memcpy(base + (size_t) i * size, base + (size_t) j * size, size);
		memcpy(base + (size_t) j * size, t, size);
	}
}

static void
append_error(conn_attempt *a, const char *text)
{
	size_t		len = strlen(text);

	if (a->errors_len + len + 1 > a->errors_cap)
	{
		a->errors_cap = (a->errors_len + len + 1) * 2;
		a->errors = pgb_realloc(a->errors, a->errors_cap);
	}
	memcpy(a->errors + a->errors_len, text, len + 1);
	a->errors_len += len;
}

static void
free_addrs(conn_attempt *a)
{
	for (int i = 0; i < a->naddrs; i++)
		free(a->addrs[i]);
	free(a->addrs);
	a->addrs = NULL;
	a->naddrs = 0;
	a->addr = 0;
}

/*
 * A host name with several addresses is tried one address at a time, as
 * libpq's blocking connect gives each its own timeout; one address (or a
 * name that does not resolve) is left to libpq.
 */
static void
resolve_host(conn_attempt *a, const conn_host *h)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	int			n = 0;
	uint64_t	seed = (uint64_t) (uintptr_t) a ^ (uint64_t) pgb_time_now();

	free_addrs(a);
	if (h->host == NULL || h->hostaddr != NULL || h->host[0] == '/' || h->host[0] == '@' ||
		getaddrinfo(h->host, NULL, &hints, &res) != 0)
		return;
	for (const struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next)
		n++;
	if (n >= 2)
	{
		a->addrs = pgb_calloc((size_t) n, sizeof(char *));
		for (const struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next)
		{
			char		buf[NI_MAXHOST];

			if (getnameinfo(ai->ai_addr, ai->ai_addrlen, buf, sizeof(buf), NULL, 0,
							NI_NUMERICHOST) == 0)
				a->addrs[a->naddrs++] = pgb_strdup(buf);
		}
		if (a->plan->random_order)
			shuffle(a->addrs, sizeof(char *), a->naddrs, &seed);
	}
	freeaddrinfo(res);
	if (a->naddrs < 2)
		free_addrs(a);
}

/* Start libpq on the current host (and address): the params, overridden. */
static PGconn *
start_try(conn_attempt *a)
{
	const conn_params *params = a->plan->params;
	const char *keywords[CONN_MAX_PARAMS + 5];
	const char *values[CONN_MAX_PARAMS + 5];
	int			n = 0;

	for (; params->keywords[n] != NULL; n++)
	{
		keywords[n] = params->keywords[n];
		values[n] = params->values[n];
	}
	if (a->plan->nhosts > 0)
	{
		/* after dbname: these win over what a connection string in it says */
		const conn_host *h = &a->plan->hosts[a->order[a->host]];

#define OVERRIDE(k, v) if ((v) != NULL) (keywords[n] = (k), values[n] = (v), n++)
		OVERRIDE("host", h->host);
		OVERRIDE("hostaddr", a->addrs != NULL ? a->addrs[a->addr] : h->hostaddr);
		OVERRIDE("port", h->port);
		if (a->plan->prefer_standby)
			OVERRIDE("target_session_attrs", a->pass == 0 ? "standby" : "any");
#undef OVERRIDE
	}
	keywords[n] = values[n] = NULL;
	return PQconnectStartParams(keywords, values, 1);
}

/*
 * The current try's message into the attempt's, with what libpq's own
 * walk over the addresses shows: the host name before the address.
 */
static void
keep_try_error(conn_attempt *a, const char *suffix)
{
	const char *msg = a->conn != NULL ? PQerrorMessage(a->conn) : "out of memory\n";
	const char *at = NULL;
	char		quoted[NI_MAXHOST + 3];

	if (a->conn != NULL && PQconnectionNeedsPassword(a->conn))
		a->needs_password = true;
	if (a->addrs != NULL)
	{
		snprintf(quoted, sizeof(quoted), "\"%s\"", a->addrs[a->addr]);
		at = strstr(msg, quoted);
	}
	if (at != NULL)
	{
		char	   *head = pgb_strdup(msg);

		head[at - msg] = '\0';
		append_error(a, head);
		free(head);
		append_error(a, "\"");
		append_error(a, a->plan->hosts[a->order[a->host]].host);
		append_error(a, "\" (");
		append_error(a, a->addrs[a->addr]);
		append_error(a, ")");
		msg = at + strlen(quoted);
	}
	append_error(a, msg);
	append_error(a, suffix);
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

/* Whether libpq found the listen queue full (see conn_failed_busy). */
static bool
try_busy(conn_attempt *a)
{
	a->busy = conn_failed_busy(a->conn);
	return a->busy;
}

/* Move to the next address, host or pass; false when none is left. */
static bool
advance(conn_attempt *a)
{
	const conn_plan *plan = a->plan;

	if (plan->nhosts == 0)
		return false;
	if (a->addrs != NULL && a->addr + 1 < a->naddrs)
	{
		a->addr++;
		return true;
	}
	if (++a->host >= plan->nhosts)
	{
		if (!plan->prefer_standby || a->pass > 0)
			return false;
		a->pass = 1;
		a->host = 0;
	}
	resolve_host(a, &plan->hosts[a->order[a->host]]);
	return true;
}

/* Start tries until one is under way, busy, or none is left. */
static conn_step
begin_try(conn_attempt *a, pg_time_usec_t now)
{
	for (;;)
	{
		PQfinish(a->conn);
		a->busy = false;
		a->conn = start_try(a);
		a->deadline = a->plan->timeout > 0 ? now + a->plan->timeout : 0;
		if (a->conn != NULL && PQstatus(a->conn) != CONNECTION_BAD)
		{
			/* libpq wants the socket writable before the first PQconnectPoll */
			a->poll = PGRES_POLLING_WRITING;
			return CONN_STEP_WAIT;
		}
		if (try_busy(a))
			return CONN_STEP_BUSY;
		keep_try_error(a, "");
		if (!advance(a))
			return CONN_STEP_FAILED;
	}
}

conn_step
conn_attempt_start(conn_attempt *a, const conn_plan *plan, pg_time_usec_t now)
{
	memset(a, 0, sizeof(*a));
	a->plan = plan;
	if (plan->timeout_error[0] != '\0')
	{
		/* libpq's blocking connect finds it once the first try has begun */
		a->conn = start_try(a);
		keep_try_error(a, plan->timeout_error);
		return CONN_STEP_FAILED;
	}
	if (plan->nhosts > 0)
	{
		uint64_t	seed = (uint64_t) (uintptr_t) a ^ (uint64_t) now ^ 0x9e3779b97f4a7c15u;

		a->order = pgb_malloc(sizeof(int) * (size_t) plan->nhosts);
		for (int i = 0; i < plan->nhosts; i++)
			a->order[i] = i;
		if (plan->random_order)
			shuffle(a->order, sizeof(int), plan->nhosts, &seed);
		resolve_host(a, &plan->hosts[a->order[0]]);
	}
	return begin_try(a, now);
}

conn_step
conn_attempt_retry(conn_attempt *a, pg_time_usec_t now)
{
	if (a->deadline > 0 && now >= a->deadline)
		return conn_attempt_continue(a, now, false);
	return begin_try(a, now);
}

/* The current try failed (suffix: what to add to its message). */
static conn_step
try_failed(conn_attempt *a, pg_time_usec_t now, const char *suffix)
{
	keep_try_error(a, suffix);
	if (!advance(a))
		return CONN_STEP_FAILED;
	return begin_try(a, now);
}

conn_step
conn_attempt_continue(conn_attempt *a, pg_time_usec_t now, bool ready)
{
	/*
	 * A host times out when its deadline finds it with nothing to read or
	 * write, as libpq's blocking connect gives up only when its wait ends
	 * without the socket: an answer that came in time for a process the
	 * machine ran late (a loaded machine, a stopped process) is read.
	 */
	if (a->deadline > 0 && now >= a->deadline && (a->busy || !ready))
	{
		/* a host that was only busy fails with the last try's words */
		return try_failed(a, now, a->busy ? "" : "timeout expired\n");
	}
	if (a->busy || !ready)
		return a->busy ? CONN_STEP_BUSY : CONN_STEP_WAIT;
	a->poll = PQconnectPoll(a->conn);
	if (a->poll == PGRES_POLLING_OK)
		return CONN_STEP_OK;
	if (a->poll != PGRES_POLLING_FAILED)
		return CONN_STEP_WAIT;
	/* a later address of the host may find a full queue too */
	if (try_busy(a))
		return CONN_STEP_BUSY;
	return try_failed(a, now, "");
}

int
conn_attempt_socket(const conn_attempt *a, bool *for_read)
{
	*for_read = a->poll == PGRES_POLLING_READING;
	return a->conn != NULL && !a->busy ? PQsocket(a->conn) : -1;
}

bool
conn_attempt_ready_now(const conn_attempt *a)
{
	bool		for_read;
	int			fd = conn_attempt_socket(a, &for_read);
	struct pollfd pfd = {.fd = fd, .events = for_read ? POLLIN : POLLOUT};

	return fd >= 0 && poll(&pfd, 1, 0) > 0;
}

PGconn *
conn_attempt_take(conn_attempt *a)
{
	PGconn	   *conn = a->conn;

	a->conn = NULL;
	conn_attempt_cancel(a);
	return conn;
}

bool
conn_attempt_needs_password(const conn_attempt *a)
{
	return a->needs_password;
}

void
conn_attempt_error(const conn_attempt *a, char *buf, size_t len)
{
	size_t		n = a->errors_len;

	while (n > 0 && a->errors[n - 1] == '\n')
		n--;
	if (n >= len)
		n = len - 1;
	if (n > 0)
		memcpy(buf, a->errors, n);
	buf[n] = '\0';
}

void
conn_attempt_cancel(conn_attempt *a)
{
	PQfinish(a->conn);
	a->conn = NULL;
	free_addrs(a);
	free(a->order);
	a->order = NULL;
	free(a->errors);
	a->errors = NULL;
	a->errors_len = a->errors_cap = 0;
	a->busy = false;
	a->deadline = 0;
}
