/*
 * test_thread_summary.c — worker_summarize: what a worker's run came to,
 * as the orchestrator reads it after the join (finished and aborted
 * clients counted from their end states, the rest stopped by a signal;
 * the worker's counts and start passed through).
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/engine/thread.h"
#include "tap.h"

static void
test_counts(void)
{
	static const client_state states[] = {
		CSTATE_FINISHED, CSTATE_ABORTED, CSTATE_FINISHED, CSTATE_SLEEP, CSTATE_FINISHED,
	};
	const int	n = (int) PGB_LENGTHOF(states);
	client	   *clients = aligned_alloc(CLIENT_ALIGN, (size_t) n * sizeof(client));
	worker		w;
	worker_summary s;

	memset(&w, 0, sizeof(w));
	memset(clients, 0, (size_t) n * sizeof(client));
	for (int i = 0; i < n; i++)
		clients[i].state = states[i];
	w.clients = clients;
	w.nclients = n;
	w.bench_start = 1234;
	s = worker_summarize(&w);
	tap_is_int(s.nclients, 5, "summary: every client of the worker");
	tap_is_int(s.finished, 3, "summary: finished clients");
	tap_is_int(s.aborted, 1, "summary: aborted clients");
	tap_ok(s.stats == &w.stats, "summary: the worker's own counts");
	tap_is_int(s.bench_start, 1234, "summary: the worker's start");

	w.nclients = 0;
	s = worker_summarize(&w);
	tap_is_int(s.nclients + s.finished + s.aborted, 0, "summary: a worker without clients");
	free(clients);
}

int
main(void)
{
	test_counts();
	return tap_done();
}
