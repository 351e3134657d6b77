/*
 * stats.c — per-thread transaction statistics and their merge after join.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/aborts.h"
#include "pgbench/stats/stats.h"

#define STATS_CACHE_LINE 64

void
stats_simple_merge(stats_simple *acc, const stats_simple *ss)
{
	if (ss->count == 0)
		return;
	if (acc->count == 0 || ss->min < acc->min)
		acc->min = ss->min;
	if (acc->count == 0 || ss->max > acc->max)
		acc->max = ss->max;
	acc->count += ss->count;
	acc->sum += ss->sum;
	acc->sum2 += ss->sum2;
}

void
stats_data_add_any(stats_data *sd, stats_outcome outcome, double latency,
				   double lag, uint32_t tries, bool keep_lag)
{
	if (outcome == STATS_SKIPPED)
	{
		/* a skipped transaction never ran: no tries, no latency */
		sd->skipped++;
		return;
	}

	if (tries > 1)
	{
		sd->retries += tries - 1;
		sd->retried++;
	}

	switch (outcome)
	{
		case STATS_SUCCESS:
			stats_data_add_success(sd, latency, lag, keep_lag);
			break;
		case STATS_SERIALIZATION_FAILURE:
			sd->serialization_failures++;
			break;
		case STATS_DEADLOCK_FAILURE:
			sd->deadlock_failures++;
			break;
		case STATS_CONNECTION_FAILURE:
			sd->connection_failures++;
			break;
		case STATS_OTHER_FAILURE:
		case STATS_SKIPPED:
			sd->other_failures++;
			break;
	}
}

void
stats_data_merge(stats_data *acc, const stats_data *sd)
{
#define STATS_MERGE_COUNTER(field, json_name, kind) acc->field += sd->field;
	STATS_COUNTERS(STATS_MERGE_COUNTER)
#undef STATS_MERGE_COUNTER
	stats_simple_merge(&acc->latency, &sd->latency);
	stats_simple_merge(&acc->lag, &sd->lag);
}

void
stats_data_delta(stats_data *delta, const stats_data *cur, const stats_data *last)
{
	memset(delta, 0, sizeof(*delta));
#define STATS_DELTA_COUNTER(field, json_name, kind) delta->field = cur->field - last->field;
	STATS_COUNTERS(STATS_DELTA_COUNTER)
#undef STATS_DELTA_COUNTER
#define STATS_DELTA_SUM(name, member) delta->member = cur->member - last->member;
	STATS_SUMS(STATS_DELTA_SUM)
#undef STATS_DELTA_SUM
}

/*
 * Zeroed memory on cache lines of its own: each thread writes its arrays
 * on the hot path, and they must not share a line with another thread's.
 */
static void *
alloc_lines(size_t count, size_t size)
{
	size_t		bytes = (count > 0 ? count : 1) * size;
	void	   *p;

	bytes = (bytes + STATS_CACHE_LINE - 1) / STATS_CACHE_LINE * STATS_CACHE_LINE;
	p = aligned_alloc(STATS_CACHE_LINE, bytes);
	if (p != NULL)
		memset(p, 0, bytes);
	return p;
}

bool
stats_run_init(stats_run *sr, int nscripts, int ncommands)
{
	memset(sr, 0, sizeof(*sr));
	sr->nscripts = nscripts;
	sr->ncommands = ncommands;
	sr->per_script = alloc_lines((size_t) nscripts, sizeof(stats_data));
	sr->per_command = alloc_lines((size_t) ncommands, sizeof(stats_command));
	if (sr->per_script == NULL || sr->per_command == NULL)
	{
		stats_run_free(sr);
		return false;
	}
	return true;
}

static void
free_hists(hist *h, int n)
{
	if (h == NULL)
		return;
	for (int i = 0; i < n; i++)
		hist_free(&h[i]);
	free(h);
}

/* n zeroed histograms; hist_free is safe on any of them even after a failure */
static hist *
alloc_hists(int n)
{
	hist	   *h = calloc((size_t) (n > 0 ? n : 1), sizeof(hist));

	if (h == NULL)
		return NULL;
	for (int i = 0; i < n; i++)
	{
		if (!hist_init(&h[i], HIST_ONE_HOUR_US))
		{
			free_hists(h, n);
			return NULL;
		}
	}
	return h;
}

bool
stats_run_enable_hist(stats_run *sr, bool per_script)
{
	if (sr->latency_hist == NULL)
		sr->latency_hist = alloc_hists(1);
	if (sr->latency_hist == NULL)
		return false;
	if (per_script && sr->script_hist == NULL)
		sr->script_hist = alloc_hists(sr->nscripts);
	return !per_script || sr->script_hist != NULL;
}

bool
stats_run_enable_report(stats_run *sr, const pg_time_usec_t *origin, bool per_command)
{
	if (sr->aborts == NULL)
	{
		sr->aborts = malloc(sizeof(run_aborts));
		if (sr->aborts == NULL)
			return false;
		run_aborts_init(sr->aborts, origin);
	}
	if (per_command && sr->command_hist == NULL)
		sr->command_hist = alloc_hists(sr->ncommands);
	return !per_command || sr->command_hist != NULL;
}

void
stats_run_reset_measured(stats_run *sr)
{
	memset(&sr->total, 0, sizeof(sr->total));
	sr->latency_late = 0;
	memset(sr->per_script, 0, (size_t) sr->nscripts * sizeof(stats_data));
	memset(sr->per_command, 0, (size_t) sr->ncommands * sizeof(stats_command));
	if (sr->latency_hist != NULL)
		hist_reset_shared(sr->latency_hist);
	for (int i = 0; sr->script_hist != NULL && i < sr->nscripts; i++)
		hist_reset(&sr->script_hist[i]);
	for (int i = 0; sr->command_hist != NULL && i < sr->ncommands; i++)
		hist_reset(&sr->command_hist[i]);
}

/* The report parts of stats_run_merge: aborts and command histograms. */
static void
merge_report(stats_run *acc, const stats_run *sr)
{
	if (sr->aborts != NULL && acc->aborts == NULL)
		(void) stats_run_enable_report(acc, NULL, false);
	if (sr->aborts != NULL && acc->aborts != NULL)
		run_aborts_merge(acc->aborts, sr->aborts);
	if (sr->command_hist != NULL && acc->command_hist == NULL)
		acc->command_hist = alloc_hists(acc->ncommands);
	if (sr->command_hist != NULL && acc->command_hist != NULL)
		for (int i = 0; i < acc->ncommands && i < sr->ncommands; i++)
			hist_merge(&acc->command_hist[i], &sr->command_hist[i]);
}

void
stats_run_free(stats_run *sr)
{
	free(sr->per_script);
	free(sr->per_command);
	free_hists(sr->latency_hist, 1);
	free_hists(sr->script_hist, sr->nscripts);
	free_hists(sr->command_hist, sr->ncommands);
	sr->command_hist = NULL;
	if (sr->aborts != NULL)
		run_aborts_free(sr->aborts);
	free(sr->aborts);
	sr->aborts = NULL;
	sr->per_script = NULL;
	sr->per_command = NULL;
	sr->latency_hist = NULL;
	sr->script_hist = NULL;
}

void
stats_run_merge(stats_run *acc, const stats_run *sr)
{
	stats_data_merge(&acc->total, &sr->total);
	acc->latency_late += sr->latency_late;
	acc->conn_duration += sr->conn_duration;
	reconnect_stats_merge(&acc->reconnect, &sr->reconnect);
	for (int i = 0; i < acc->nscripts && i < sr->nscripts; i++)
		stats_data_merge(&acc->per_script[i], &sr->per_script[i]);
	for (int i = 0; i < acc->ncommands && i < sr->ncommands; i++)
	{
		stats_simple_merge(&acc->per_command[i].latency, &sr->per_command[i].latency);
		acc->per_command[i].failures += sr->per_command[i].failures;
		acc->per_command[i].retries += sr->per_command[i].retries;
	}
	if (acc->latency_hist != NULL && sr->latency_hist != NULL)
		hist_merge(acc->latency_hist, sr->latency_hist);
	if (acc->script_hist != NULL && sr->script_hist != NULL)
		for (int i = 0; i < acc->nscripts && i < sr->nscripts; i++)
			hist_merge(&acc->script_hist[i], &sr->script_hist[i]);
	merge_report(acc, sr);
}
