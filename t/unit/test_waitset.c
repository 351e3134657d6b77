/*
 * test_waitset.c — the wait-set API: readiness by index, direction,
 * timeouts, a plain sleep without sockets, and clearing.
 */
#include <unistd.h>

#include "pgbench/engine/waitset.h"
#include "tap.h"

int
main(void)
{
	int			p1[2],
				p2[2];
	waitset    *ws = waitset_create(3);
	pg_time_usec_t t0;
	int			i1,
				i2,
				iw;
	int			rc;

	tap_ok(ws != NULL, "create");
	tap_ok(pipe(p1) == 0 && pipe(p2) == 0, "pipes");

	/* nothing to read: the timeout expires */
	i1 = waitset_add(ws, p1[0], WAITSET_READ);
	i2 = waitset_add(ws, p2[0], WAITSET_READ);
	tap_is_int(i1, 0, "first index");
	tap_is_int(i2, 1, "second index");
	t0 = pgb_time_now();
	rc = waitset_wait(ws, 20000);
	tap_is_int(rc, 0, "timeout: nothing ready");
	tap_ok(pgb_time_now() - t0 >= 15000, "timeout: waited about 20 ms");
	tap_ok(!waitset_ready(ws, i1) && !waitset_ready(ws, i2), "timeout: no socket ready");

	/* data on the second pipe only */
	tap_is_int(write(p2[1], "x", 1), 1, "write");
	waitset_clear(ws);
	i1 = waitset_add(ws, p1[0], WAITSET_READ);
	i2 = waitset_add(ws, p2[0], WAITSET_READ);
	iw = waitset_add(ws, p1[1], WAITSET_WRITE);
	rc = waitset_wait(ws, -1);
	tap_is_int(rc, 2, "readable and writable");
	tap_ok(!waitset_ready(ws, i1), "empty pipe not ready");
	tap_ok(waitset_ready(ws, i2), "pipe with data ready");
	tap_ok(waitset_ready(ws, iw), "write end ready for writing");

	/* a cleared set reports nothing, whatever the index */
	waitset_clear(ws);
	tap_ok(!waitset_ready(ws, i2), "cleared set: nothing ready");
	tap_ok(!waitset_ready(ws, -1), "index -1: not ready");

	/* no socket at all: a plain sleep */
	t0 = pgb_time_now();
	rc = waitset_wait(ws, 10000);
	tap_is_int(rc, 0, "empty set: sleeps");
	tap_ok(pgb_time_now() - t0 >= 8000, "empty set: about 10 ms");

	/* zero only looks */
	i2 = waitset_add(ws, p2[0], WAITSET_READ);
	tap_is_int(waitset_wait(ws, 0), 1, "zero timeout sees ready data");

	waitset_free(ws);
	return tap_done();
}
