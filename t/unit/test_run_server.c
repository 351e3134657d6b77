/*
 * test_run_server.c — the orchestrator tests' scripted server
 * (test_run_server.h): the protocol's messages built and read here, the
 * answers taken from the rules (test_run_fixture.h).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "test_run_server.h"

#define RSRV_MAX_CONNS 16
#define RSRV_MAX_FIELDS 8
#define RSRV_MAX_ROWS 8

#define CODE_PROTOCOL_3 196608
#define CODE_CANCEL 80877102
#define CODE_SSL 80877103
#define CODE_GSSENC 80877104

/* A client's connection. */
typedef struct rconn
{
	int			fd;				/* -1: a free entry */
	bool		started;		/* the startup packet was answered */
	bool		hung;			/* a query waits for a cancel request */
	char	   *parsed;			/* extended protocol: the query Parse'd,
								 * answered at Sync */
} rconn;

struct run_server
{
	int			listen_fd;
	int			stop_fd;		/* an eventfd: rsrv_stop's call */
	pthread_t	thread;
	const char *version;
	const char *const *rules;
	rconn		conns[RSRV_MAX_CONNS];
	FILE	   *log;			/* the queries, into log_text */
	char	   *log_text;
	size_t		log_len;
	int			next_pid;		/* the backend pid the next connection gets */
};

/* ---- messages out --------------------------------------------------------- */

typedef struct msgbuf
{
	char		data[16384];
	size_t		len;
	size_t		start;			/* the message being built */
} msgbuf;

static void
put(msgbuf *m, const void *p, size_t n)
{
	if (m->len + n <= sizeof(m->data))
	{
		memcpy(m->data + m->len, p, n);
		m->len += n;
	}
}

static void
put_int32(msgbuf *m, int32_t v)
{
	uint32_t	u = (uint32_t) v;
	unsigned char b[4] = {u >> 24, (u >> 16) & 0xff, (u >> 8) & 0xff, u & 0xff};

	put(m, b, 4);
}

static void
put_int16(msgbuf *m, int v)
{
	unsigned char b[2] = {((unsigned) v >> 8) & 0xff, (unsigned) v & 0xff};

	put(m, b, 2);
}

static void
put_str(msgbuf *m, const char *s)
{
	put(m, s, strlen(s) + 1);
}

/* Open a message of type; msg_end writes its length. */
static void
msg_begin(msgbuf *m, char type)
{
	put(m, &type, 1);
	m->start = m->len;
	put_int32(m, 0);
}

static void
msg_end(msgbuf *m)
{
	uint32_t	n = (uint32_t) (m->len - m->start);
	unsigned char *p = (unsigned char *) m->data + m->start;

	p[0] = n >> 24;
	p[1] = (n >> 16) & 0xff;
	p[2] = (n >> 8) & 0xff;
	p[3] = n & 0xff;
}

static void
send_all(int fd, const msgbuf *m)
{
	size_t		done = 0;

	while (done < m->len)
	{
		ssize_t		n = write(fd, m->data + done, m->len - done);

		if (n <= 0 && errno != EINTR)
			return;
		if (n > 0)
			done += (size_t) n;
	}
}

static void
put_error(msgbuf *m, const char *code, const char *text)
{
	msg_begin(m, 'E');
	put(m, "S", 1);
	put_str(m, "ERROR");
	put(m, "V", 1);
	put_str(m, "ERROR");
	put(m, "C", 1);
	put_str(m, code);
	put(m, "M", 1);
	put_str(m, text);
	put(m, "", 1);
	msg_end(m);
}

static void
put_ready(msgbuf *m)
{
	msg_begin(m, 'Z');
	put(m, "I", 1);
	msg_end(m);
}

/* ---- answers ---------------------------------------------------------------- */

/* Split text at sep into at most max parts, copied into store (len bytes). */
static int
split(const char *text, const char *sep, char **parts, int max, char *store, size_t len)
{
	int			n = 0;

	snprintf(store, len, "%s", text);
	for (char *p = store; p != NULL && n < max; n++)
	{
		char	   *next = strstr(p, sep);

		parts[n] = p;
		if (next != NULL)
		{
			*next = '\0';
			next += strlen(sep);
		}
		p = next;
	}
	return n;
}

/* A value as sent: "@NOW[+N]" the epoch microseconds (plus N). */
static const char *
value_text(const char *v, char *buf, size_t len)
{
	struct timespec ts;

	if (strncmp(v, "@NOW", 4) != 0)
		return v;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%lld", (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000 +
			 (v[4] == '+' ? atoll(v + 5) : 0));
	return buf;
}

/* "ROWS a,b | 1,2": the row description (unless extended without one) and rows. */
static void
put_rows(msgbuf *m, const char *spec)
{
	char		store[1024];
	char		rowstore[256];
	char	   *lines[RSRV_MAX_ROWS + 1];
	char	   *fields[RSRV_MAX_FIELDS];
	int			nlines = split(spec, " | ", lines, RSRV_MAX_ROWS + 1, store, sizeof(store));
	int			nfields = split(lines[0], ",", fields, RSRV_MAX_FIELDS, rowstore, sizeof(rowstore));
	char		tag[32];

	msg_begin(m, 'T');
	put_int16(m, nfields);
	for (int i = 0; i < nfields; i++)
	{
		put_str(m, fields[i]);
		put_int32(m, 0);		/* no table */
		put_int16(m, 0);
		put_int32(m, 25);		/* text */
		put_int16(m, -1);
		put_int32(m, -1);
		put_int16(m, 0);		/* text format */
	}
	msg_end(m);
	for (int r = 1; r < nlines; r++)
	{
		char		vstore[512];
		char	   *values[RSRV_MAX_FIELDS];
		int			n = split(lines[r], ",", values, RSRV_MAX_FIELDS, vstore, sizeof(vstore));

		msg_begin(m, 'D');
		put_int16(m, n);
		for (int i = 0; i < n; i++)
		{
			char		buf[32];
			const char *v = value_text(values[i], buf, sizeof(buf));

			if (strcmp(v, "NULL") == 0)
				put_int32(m, -1);
			else
			{
				put_int32(m, (int32_t) strlen(v));
				put(m, v, strlen(v));
			}
		}
		msg_end(m);
	}
	snprintf(tag, sizeof(tag), "SELECT %d", nlines - 1);
	msg_begin(m, 'C');
	put_str(m, tag);
	msg_end(m);
}

/* The reply the rules give query. */
static const char *
rule_for(const run_server *srv, const char *query)
{
	for (int i = 0; srv->rules != NULL && srv->rules[i] != NULL; i += 2)
		if (strncmp(query, srv->rules[i], strlen(srv->rules[i])) == 0)
			return srv->rules[i + 1];
	return "ERROR 42601 unscripted query";
}

/*
 * Answer query on c as its rule says, the extended protocol's parse and
 * bind first when extended; false when it hangs (no answer yet).
 */
static bool
answer(run_server *srv, rconn *c, const char *query, bool extended, msgbuf *m)
{
	const char *reply = rule_for(srv, query);

	fprintf(srv->log, "%s\n", query);
	if (strcmp(reply, "HANG") == 0 || strcmp(reply, "SIGNAL") == 0)
	{
		if (reply[0] == 'S')
			kill(getpid(), SIGINT);
		c->hung = true;
		return false;
	}
	if (strncmp(reply, "ERROR ", 6) == 0)
	{
		char		code[6];

		snprintf(code, sizeof(code), "%s", reply + 6);
		put_error(m, code, reply + 12);
		return true;
	}
	if (extended)
	{
		msg_begin(m, '1');
		msg_end(m);
		msg_begin(m, '2');
		msg_end(m);
	}
	if (strncmp(reply, "ROWS ", 5) == 0)
		put_rows(m, reply + 5);
	else
	{
		if (extended)
		{
			msg_begin(m, 'n');
			msg_end(m);
		}
		msg_begin(m, 'C');
		put_str(m, strncmp(reply, "OK ", 3) == 0 ? reply + 3 : reply);
		msg_end(m);
	}
	return true;
}

/* ---- messages in -------------------------------------------------------------- */

static bool
read_full(int fd, void *buf, size_t n)
{
	size_t		done = 0;

	while (done < n)
	{
		ssize_t		got = read(fd, (char *) buf + done, n - done);

		if (got == 0 || (got < 0 && errno != EINTR))
			return false;
		if (got > 0)
			done += (size_t) got;
	}
	return true;
}

static int32_t
get_int32(const unsigned char *p)
{
	return (int32_t) ((uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3]);
}

/* A cancel request: every hung query gets the cancel's error. */
static void
cancel_all(run_server *srv)
{
	for (int i = 0; i < RSRV_MAX_CONNS; i++)
	{
		rconn	   *c = &srv->conns[i];
		msgbuf		m = {.len = 0};

		if (c->fd < 0 || !c->hung)
			continue;
		c->hung = false;
		put_error(&m, "57014", "canceling statement due to user request");
		put_ready(&m);
		send_all(c->fd, &m);
	}
}

/* The startup packet: answered, or (cancel, refused encryption) not; false: close. */
static bool
startup(run_server *srv, rconn *c, const unsigned char *body, size_t len)
{
	msgbuf		m = {.len = 0};
	int32_t		code = len >= 4 ? get_int32(body) : 0;
	static const char *const params[] = {"server_encoding", "UTF8", "client_encoding", "UTF8",
	"standard_conforming_strings", "on", "integer_datetimes", "on", "DateStyle", "ISO, MDY"};

	if (code == CODE_CANCEL)
	{
		cancel_all(srv);
		return false;
	}
	if (code == CODE_SSL || code == CODE_GSSENC)
	{
		put(&m, "N", 1);
		send_all(c->fd, &m);
		return true;
	}
	if (code != CODE_PROTOCOL_3)
		return false;
	msg_begin(&m, 'R');
	put_int32(&m, 0);			/* AuthenticationOk */
	msg_end(&m);
	for (int i = 0; i < (int) (sizeof(params) / sizeof(params[0])); i += 2)
	{
		msg_begin(&m, 'S');
		put_str(&m, params[i]);
		put_str(&m, params[i + 1]);
		msg_end(&m);
	}
	if (srv->version[0] != '\0')
	{
		msg_begin(&m, 'S');
		put_str(&m, "server_version");
		put_str(&m, srv->version);
		msg_end(&m);
	}
	msg_begin(&m, 'K');
	put_int32(&m, srv->next_pid++);
	put_int32(&m, 42);
	msg_end(&m);
	put_ready(&m);
	send_all(c->fd, &m);
	c->started = true;
	return true;
}

/* One message of a started connection; false: close it. */
static bool
message(run_server *srv, rconn *c, char type, const char *body, size_t len)
{
	msgbuf		m = {.len = 0};

	switch (type)
	{
		case 'Q':				/* simple query */
			if (answer(srv, c, body, false, &m))
				put_ready(&m);
			break;
		case 'P':				/* Parse: name, then the query */
			free(c->parsed);
			c->parsed = strdup(body + strlen(body) + 1);
			break;
		case 'S':				/* Sync: the parsed query's answer */
			if (c->parsed == NULL || answer(srv, c, c->parsed, true, &m))
				put_ready(&m);
			free(c->parsed);
			c->parsed = NULL;
			break;
		case 'X':
			return false;
		default:				/* Bind, Describe, Execute, Close, Flush */
			break;
	}
	(void) len;
	send_all(c->fd, &m);
	return true;
}

/* Read and handle what c sent; false: close it. */
static bool
serve(run_server *srv, rconn *c)
{
	unsigned char head[5];
	char	   *body;
	size_t		len;
	bool		ok;
	size_t		headlen = c->started ? 5 : 4;

	if (!read_full(c->fd, head, headlen))
		return false;
	len = (size_t) get_int32(head + headlen - 4);
	if (len < 4 || len > (1 << 20))
		return false;
	len -= 4;
	body = calloc(1, len + 1);
	if (body == NULL || !read_full(c->fd, body, len))
	{
		free(body);
		return false;
	}
	ok = c->started ? message(srv, c, (char) head[0], body, len)
		: startup(srv, c, (unsigned char *) body, len);
	free(body);
	return ok;
}

static void
close_conn(rconn *c)
{
	close(c->fd);
	c->fd = -1;
	c->started = c->hung = false;
	free(c->parsed);
	c->parsed = NULL;
}

static void *
server_main(void *arg)
{
	run_server *srv = arg;

	for (;;)
	{
		struct pollfd fds[RSRV_MAX_CONNS + 2];
		int			n = 0;

		fds[n++] = (struct pollfd) {.fd = srv->stop_fd, .events = POLLIN};
		fds[n++] = (struct pollfd) {.fd = srv->listen_fd, .events = POLLIN};
		for (int i = 0; i < RSRV_MAX_CONNS; i++)
			fds[n++] = (struct pollfd) {.fd = srv->conns[i].fd, .events = POLLIN};
		if (poll(fds, (nfds_t) n, -1) < 0)
			continue;
		if (fds[0].revents != 0)
			break;
		for (int i = 0; i < RSRV_MAX_CONNS; i++)
			if (fds[i + 2].revents != 0 && !serve(srv, &srv->conns[i]))
				close_conn(&srv->conns[i]);
		if (fds[1].revents != 0)
		{
			int			fd = accept(srv->listen_fd, NULL, NULL);

			for (int i = 0; fd >= 0 && i < RSRV_MAX_CONNS; i++)
				if (srv->conns[i].fd < 0)
				{
					srv->conns[i].fd = fd;
					fd = -1;
				}
			if (fd >= 0)
				close(fd);		/* too many at once */
		}
	}
	return NULL;
}

run_server *
rsrv_start(const char *dir, int port, const char *version, const char *const *rules)
{
	run_server *srv = calloc(1, sizeof(*srv));
	struct sockaddr_un addr = {.sun_family = AF_UNIX};

	if (srv == NULL)
		return NULL;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/.s.PGSQL.%d", dir, port);
	srv->version = version;
	srv->rules = rules;
	srv->next_pid = 4242;
	for (int i = 0; i < RSRV_MAX_CONNS; i++)
		srv->conns[i].fd = -1;
	srv->log = open_memstream(&srv->log_text, &srv->log_len);
	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	srv->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (srv->log == NULL || srv->listen_fd < 0 || srv->stop_fd < 0 ||
		bind(srv->listen_fd, (struct sockaddr *) &addr, sizeof(addr)) != 0 ||
		listen(srv->listen_fd, 16) != 0 ||
		pthread_create(&srv->thread, NULL, server_main, srv) != 0)
	{
		perror("test_run_server");
		return NULL;
	}
	return srv;
}

void
rsrv_stop(run_server *srv, const char *log_path)
{
	uint64_t	one = 1;
	FILE	   *f;

	if (write(srv->stop_fd, &one, sizeof(one)) != sizeof(one))
		perror("test_run_server");
	pthread_join(srv->thread, NULL);
	for (int i = 0; i < RSRV_MAX_CONNS; i++)
		if (srv->conns[i].fd >= 0)
			close_conn(&srv->conns[i]);
	fclose(srv->log);
	if ((f = fopen(log_path, "w")) != NULL)
	{
		fwrite(srv->log_text, 1, srv->log_len, f);
		fclose(f);
	}
	free(srv->log_text);
	close(srv->listen_fd);
	close(srv->stop_fd);
	free(srv);
}
