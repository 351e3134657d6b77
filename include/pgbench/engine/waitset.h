/*
 * waitset.h — the one place a benchmark thread blocks: a set of sockets and
 * a timeout, waited on with a single ppoll() per pass of the thread loop.
 *
 * Two ways to fill it.  Rebuilt per pass: waitset_clear, waitset_add for
 * every socket that matters (remember the returned index), waitset_wait
 * once, then waitset_ready with the remembered index.  Persistent: give each
 * socket owner a fixed index and call waitset_set only when what it waits
 * for changes; a pass then costs one waitset_wait and nothing else.  Hiding
 * the syscall here keeps the loop free of poll details and lets the
 * implementation change (poll, epoll) alone.
 *
 * A waitset belongs to one thread; nothing here locks.
 */
#ifndef PGBENCH_WAITSET_H
#define PGBENCH_WAITSET_H

#include <stdbool.h>

#include "pgbench/base/common.h"

typedef struct waitset waitset;

/* What a socket is waited for. */
typedef enum waitset_event
{
	WAITSET_READ,
	WAITSET_WRITE,
} waitset_event;

/*
 * A set with room for capacity sockets.  Returns NULL when out of memory.
 * Free with waitset_free.
 */
waitset    *waitset_create(int capacity);
void		waitset_free(waitset *ws);

/* Forget every socket: the set is empty and nothing is ready. */
void		waitset_clear(waitset *ws);

/*
 * Add fd, waited for event.  Returns its index for waitset_ready; at most
 * capacity sockets may be added between two clears (checked by assert).
 */
int			waitset_add(waitset *ws, int fd, waitset_event event);

/*
 * Set the entry at index (below capacity) to fd and event, growing the set
 * to cover it; entries skipped over stay out of the wait.  fd < 0 leaves
 * the entry out of the wait (it never reports ready) without moving the
 * others.
 */
void		waitset_set(waitset *ws, int index, int fd, waitset_event event);

/*
 * Wait until a socket is ready or timeout_usec passes; timeout_usec < 0
 * waits without limit and 0 only looks.  With no socket it is a plain
 * sleep.  Returns the number of ready sockets, 0 on timeout, -1 with errno
 * set (EINTR included: callers loop).
 */
int			waitset_wait(waitset *ws, pg_time_usec_t timeout_usec);

/*
 * Whether the socket added at index is ready (readable, writable, or in
 * error or hang-up, which the caller discovers by reading).  False for an
 * index beyond the current set, so a cleared set reports nothing ready.
 */
bool		waitset_ready(const waitset *ws, int index);

#endif
