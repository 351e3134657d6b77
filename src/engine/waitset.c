/*
 * waitset.c — the wait-set API over ppoll(): microsecond timeouts, one
 * syscall per wait.
 */
#include <assert.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

#include "pgbench/engine/waitset.h"

struct waitset
{
	int			capacity;		/* allocated length of fds[] */
	int			used;			/* entries filled since the last clear */
	struct pollfd fds[];
};

waitset *
waitset_create(int capacity)
{
	waitset    *ws;

	if (capacity < 1)
		capacity = 1;
	ws = malloc(sizeof(waitset) + sizeof(struct pollfd) * (size_t) capacity);
	if (ws == NULL)
		return NULL;
	ws->capacity = capacity;
	ws->used = 0;
	return ws;
}

void
waitset_free(waitset *ws)
{
	free(ws);
}

void
waitset_clear(waitset *ws)
{
	ws->used = 0;
}

int
waitset_add(waitset *ws, int fd, waitset_event event)
{
	struct pollfd *p;

	assert(ws->used < ws->capacity);
	p = &ws->fds[ws->used];
	p->fd = fd;
	p->events = event == WAITSET_WRITE ? POLLOUT : POLLIN;
	p->revents = 0;
	return ws->used++;
}

void
waitset_set(waitset *ws, int index, int fd, waitset_event event)
{
	struct pollfd *p;

	assert(index >= 0 && index < ws->capacity);
	/* ppoll skips negative descriptors: the gaps cost nothing but a scan */
	while (ws->used <= index)
	{
		ws->fds[ws->used].fd = -1;
		ws->fds[ws->used].events = 0;
		ws->fds[ws->used].revents = 0;
		ws->used++;
	}
	p = &ws->fds[index];
	p->fd = fd;
	p->events = event == WAITSET_WRITE ? POLLOUT : POLLIN;
	p->revents = 0;
}

int
waitset_wait(waitset *ws, pg_time_usec_t timeout_usec)
{
	struct timespec ts;

	if (timeout_usec < 0)
		return ppoll(ws->fds, (nfds_t) ws->used, NULL, NULL);
	ts.tv_sec = (time_t) (timeout_usec / 1000000);
	ts.tv_nsec = (long) (timeout_usec % 1000000) * 1000;
	return ppoll(ws->fds, (nfds_t) ws->used, &ts, NULL);
}

bool
waitset_ready(const waitset *ws, int index)
{
	if (index < 0 || index >= ws->used)
		return false;
	/* errors and hang-ups count as ready: the reader finds out what broke */
	return ws->fds[index].revents != 0;
}
