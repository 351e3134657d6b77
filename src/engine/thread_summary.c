/*
 * thread_summary.c — what a worker's run came to, for the orchestrator
 * after the join: how many of its clients finished or aborted, its counts
 * and its start.  The orchestrator reads this summary, never the clients.
 */
#include "pgbench/engine/thread.h"

worker_summary
worker_summarize(const worker *w)
{
	worker_summary s = {
		.nclients = w->nclients,
		.stats = &w->stats,
		.bench_start = w->bench_start,
		.measure_start = w->measure_start,
		.busy_share = -1,
	};

	if (w->bench_busy_s >= 0 && w->bench_end > w->bench_start)
		s.busy_share = w->bench_busy_s / (0.000001 * (double) (w->bench_end - w->bench_start));

	for (int i = 0; i < w->nclients; i++)
	{
		if (w->clients[i].state == CSTATE_FINISHED)
			s.finished++;
		else if (w->clients[i].state == CSTATE_ABORTED)
			s.aborted++;
	}
	return s;
}
