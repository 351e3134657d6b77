/*
 * report_json_server.c — the server's and the hosts' side of the report
 * files' JSON (doc/report-json.md): the "server_stats" member (the run as
 * the server counted it, the commit check, checkpoints, wait events, the
 * monitor's notes) and each point's "server" and "host" members.  The
 * counters are written from their one declaration
 * (TIMELINE_SERVER_COUNTERS): an object per group, a member per counter
 * the server has.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_json_int.h"

#define USEC_PER_SEC 1e6

/*
 * The counters of present, by group, as member m (a point's "counters",
 * the run's "totals", an input's "server_totals", a server's "totals");
 * the groups and the counters are named by TIMELINE_SERVER_COUNTERS.
 */
static void
put_counters(json_writer *jw, report_member m, uint64_t present, const double *value)
{
	const char *group = NULL;

	jw_open(jw, m);
	for (int i = 0; i < SRV_NCOUNTERS; i++)
	{
		const timeline_counter_def *d = &timeline_server_counters[i];

		if (!(present & (UINT64_C(1) << i)))
			continue;
		if (group == NULL || strcmp(group, d->group) != 0)
		{
			if (group != NULL)
				close_block(jw, '}');
			open_block(jw, d->group, '{');
			group = d->group;
		}
		if (strcmp(d->unit, "ms") == 0)
			put_num(jw, d->key, value[i]);
		else
			put_int(jw, d->key, (int64_t) llround(value[i]));
	}
	if (group != NULL)
		close_block(jw, '}');
	close_block(jw, '}');
}

/*
 * "wait_events" as member m (a point's, the run's): a WAITS object;
 * all_states: the samples counted idle sessions too (server_run).
 */
static void
put_waits(json_writer *jw, report_member m, bool all_states, int64_t samples,
		  const timeline_wait *waits, int n, int64_t other)
{
	jw_open(jw, m);
	jw_int(jw, RM_WAITS_SAMPLES, samples);
	jw_bool(jw, RM_WAITS_ALL_STATES, all_states);
	jw_open(jw, RM_WAITS_COUNTS);
	for (int i = 0; i < n; i++)
		put_int(jw, waits[i].name, waits[i].count);
	close_block(jw, '}');
	jw_int(jw, RM_WAITS_OTHER, other);
	close_block(jw, '}');
}

/* A count or size; null when unknown (< 0). */
static void
put_count_or_null(json_writer *jw, report_member m, int64_t v)
{
	if (v >= 0)
		jw_int(jw, m, v);
	else
		jw_null(jw, m);
}

static void
put_processes(json_writer *jw, const timeline_server *s)
{
	if (!s->has_proc)
	{
		jw_null(jw, RM_POINT_SERVER_PROCESSES);
		return;
	}
	jw_open(jw, RM_POINT_SERVER_PROCESSES);
	jw_int(jw, RM_PROCESSES_COUNT, s->nprocs);
	jw_num(jw, RM_PROCESSES_CPU_USER_S, s->cpu_user_s);
	jw_num(jw, RM_PROCESSES_CPU_SYSTEM_S, s->cpu_system_s);
	put_count_or_null(jw, RM_PROCESSES_READ_BYTES, s->read_bytes);
	put_count_or_null(jw, RM_PROCESSES_WRITE_BYTES, s->write_bytes);
	jw_int(jw, RM_PROCESSES_CTXSW_VOLUNTARY, s->ctxsw_voluntary);
	jw_int(jw, RM_PROCESSES_CTXSW_INVOLUNTARY, s->ctxsw_involuntary);
	close_block(jw, '}');
}

/* A point's "server" and "host" members. */
void
report_json_point_server(json_writer *jw, const timeline_record *r, const server_run *run)
{
	/*
	 * TIMELINE_HOST_CPU_STATES: a fixed list, so the schema declares each
	 * state as a member of "cpu_s", in its order
	 */
	static const report_member states[] = {
		RM_HOST_CPU_USER, RM_HOST_CPU_NICE, RM_HOST_CPU_SYSTEM, RM_HOST_CPU_IDLE,
		RM_HOST_CPU_IOWAIT, RM_HOST_CPU_IRQ, RM_HOST_CPU_SOFTIRQ, RM_HOST_CPU_STEAL,
	};
	const timeline_server *s = &r->server;
	const timeline_host *h = &r->host;
	bool		monitored = run != NULL && run->connected;

	_Static_assert(PGB_LENGTHOF(states) == TIMELINE_HOST_NCPU_STATES,
				   "a member per CPU state");
	if (!monitored && !s->has_proc)
		jw_null(jw, RM_POINT_SERVER);
	else
	{
		jw_open(jw, RM_POINT_SERVER);
		if (s->has_counters)
			put_counters(jw, RM_POINT_SERVER_COUNTERS, s->present, s->counter);
		else
			jw_null(jw, RM_POINT_SERVER_COUNTERS);
		if (s->has_counters && s->checkpoint_start_us != TIMELINE_NO_TIME)
			jw_num(jw, RM_POINT_SERVER_CHECKPOINT_START_S,
				   (double) s->checkpoint_start_us / USEC_PER_SEC);
		else
			jw_null(jw, RM_POINT_SERVER_CHECKPOINT_START_S);
		if (monitored)
			put_waits(jw, RM_POINT_SERVER_WAIT_EVENTS, run->wait_all_states, s->wait_samples,
					  s->waits, s->nwaits < TIMELINE_NWAITS ? s->nwaits : TIMELINE_NWAITS,
					  s->waits_other);
		else
			jw_null(jw, RM_POINT_SERVER_WAIT_EVENTS);
		put_processes(jw, s);
		close_block(jw, '}');
	}
	if (!h->ok)
	{
		jw_null(jw, RM_POINT_HOST);
		return;
	}
	jw_open(jw, RM_POINT_HOST);
	jw_int(jw, RM_HOST_CPUS, h->ncpus);
	jw_open(jw, RM_HOST_CPU_S);
	for (int i = 0; i < TIMELINE_HOST_NCPU_STATES; i++)
		jw_num(jw, states[i], h->cpu_s[i]);
	close_block(jw, '}');
	put_count_or_null(jw, RM_HOST_MEM_TOTAL_KB, h->mem_total_kb);
	put_count_or_null(jw, RM_HOST_MEM_AVAILABLE_KB, h->mem_available_kb);
	put_count_or_null(jw, RM_HOST_NET_RX_BYTES, h->net_rx_bytes);
	put_count_or_null(jw, RM_HOST_NET_TX_BYTES, h->net_tx_bytes);
	put_count_or_null(jw, RM_HOST_DISK_READ_BYTES, h->disk_read_bytes);
	put_count_or_null(jw, RM_HOST_DISK_WRITE_BYTES, h->disk_write_bytes);
	close_block(jw, '}');
}

/* ---- the run as a whole ------------------------------------------------- */

#define RUN_MAX_EVENTS 64
#define RUN_MAX_CHECKPOINTS 256

/* What the records add up to: wait events, checkpoints. */
typedef struct run_server_sum
{
	int			nevents;
	timeline_wait events[RUN_MAX_EVENTS];	/* count: summed (saturating) */
	int64_t		other;
	int64_t		samples;
	int			ncheckpoints;
	double		checkpoint_start_s[RUN_MAX_CHECKPOINTS];	/* NaN: unknown */
	double		checkpoint_end_s[RUN_MAX_CHECKPOINTS];
	bool		checkpoints_truncated;
} run_server_sum;

static void
sum_event(run_server_sum *sum, const timeline_wait *w)
{
	int			i;

	for (i = 0; i < sum->nevents; i++)
		if (strcmp(sum->events[i].name, w->name) == 0)
			break;
	if (i == sum->nevents)
	{
		if (sum->nevents == RUN_MAX_EVENTS)
		{
			sum->other += w->count;
			return;
		}
		sum->events[sum->nevents++] = (timeline_wait) {.count = 0};
		memcpy(sum->events[i].name, w->name, sizeof(w->name));
		sum->events[i].name[TIMELINE_WAIT_NAME - 1] = '\0';
	}
	sum->events[i].count = (int64_t) sum->events[i].count + w->count > INT32_MAX
		? INT32_MAX : sum->events[i].count + w->count;
}

/*
 * A checkpoint ended in r's interval: the time of the last checkpoint
 * changed (times: it was read), else the counters say one was made.
 */
static bool
checkpoint_ended(const timeline_server *s, bool times)
{
	if (!s->has_counters)
		return false;
	if (s->checkpoint_start_us != TIMELINE_NO_TIME || times)
		return s->checkpoint_start_us != TIMELINE_NO_TIME;
	if (s->present & (UINT64_C(1) << SRV_CKPT_DONE))
		return s->counter[SRV_CKPT_DONE] > 0;
	/* before 18 a skipped checkpoint counts too: buffers written tell */
	return s->counter[SRV_CKPT_BUFFERS] > 0 &&
		s->counter[SRV_CKPT_TIMED] + s->counter[SRV_CKPT_REQUESTED] > 0;
}

/*
 * The run's wait events (those of the intervals from from_us on: after a
 * warm-up) and its checkpoints (all: the page shades them over time).
 */
static bool
sum_records(json_writer *jw, const timeline *tl, bool times, pg_time_usec_t from_us,
			run_server_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; tl != NULL && i < tl->n; i++)
	{
		timeline_record r;
		const timeline_server *s = &r.server;

		if (!timeline_get(tl, i, &r))
		{
			jw->failed = true;
			return false;
		}
		if (r.start_us >= from_us)
		{
			sum->samples += s->wait_samples;
			sum->other += s->waits_other;
			for (int k = 0; k < s->nwaits && k < TIMELINE_NWAITS; k++)
				sum_event(sum, &s->waits[k]);
		}
		if (!checkpoint_ended(s, times))
			continue;
		if (sum->ncheckpoints == RUN_MAX_CHECKPOINTS)
		{
			sum->checkpoints_truncated = true;
			continue;
		}
		sum->checkpoint_start_s[sum->ncheckpoints] = s->checkpoint_start_us == TIMELINE_NO_TIME
			? NAN : (double) s->checkpoint_start_us / USEC_PER_SEC;
		sum->checkpoint_end_s[sum->ncheckpoints++] = (double) r.end_us / USEC_PER_SEC;
	}
	return true;
}

static int
event_desc(const void *a, const void *b)
{
	const timeline_wait *x = a,
			   *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
put_commits(json_writer *jw, const figures_commits *c)
{
	jw_open(jw, RM_SERVER_STATS_COMMITS);
	jw_bool(jw, RM_COMMITS_CHECKED, c->checked);
	jw_str(jw, RM_COMMITS_NOT_CHECKED_BECAUSE, c->checked ? NULL : c->why_not);
	if (c->checked)
	{
		jw_int(jw, RM_COMMITS_SERVER, c->server);
		jw_int(jw, RM_COMMITS_EXPECTED, c->expected);
		jw_int(jw, RM_COMMITS_DIFFERENCE, c->difference);
		jw_int(jw, RM_COMMITS_EXPLAINED, c->explained);
		jw_bool(jw, RM_COMMITS_AGREES, c->agrees);
	}
	close_block(jw, '}');
}

static void
put_run_sums(json_writer *jw, const server_run *run, run_server_sum *sum)
{
	jw_open(jw, RM_SERVER_STATS_CHECKPOINTS);
	for (int i = 0; i < sum->ncheckpoints; i++)
	{
		open_block(jw, NULL, '{');
		jw_num(jw, RM_CHECKPOINT_START_S, sum->checkpoint_start_s[i]);
		jw_num(jw, RM_CHECKPOINT_ENDED_BY_S, sum->checkpoint_end_s[i]);
		close_block(jw, '}');
	}
	close_block(jw, ']');
	jw_bool(jw, RM_SERVER_STATS_CHECKPOINTS_TRUNCATED, sum->checkpoints_truncated);
	qsort(sum->events, (size_t) sum->nevents, sizeof(sum->events[0]), event_desc);
	put_waits(jw, RM_SERVER_STATS_WAIT_EVENTS, run->wait_all_states, sum->samples, sum->events,
			  sum->nevents, sum->other);
}

void
report_json_server_stats(json_writer *jw, const report_figures *f)
{
	const server_run *run = f->extra.server_run;
	run_server_sum sum;

	if (run == NULL)
	{
		jw_null(jw, RM_TOP_SERVER_STATS);
		return;
	}
	jw_open(jw, RM_TOP_SERVER_STATS);
	jw_bool(jw, RM_SERVER_STATS_MONITORED, run->connected);
	jw_str(jw, RM_SERVER_STATS_APPLICATION_NAME, run->connected ? run->app_name : NULL);
	jw_bool(jw, RM_SERVER_STATS_LOCAL, run->local);
	jw_num(jw, RM_SERVER_STATS_SAMPLE_INTERVAL_MS, (double) run->sample_us / 1000);
	if (run->totals_read)
		put_counters(jw, RM_SERVER_STATS_TOTALS, run->present, run->total);
	else
		jw_null(jw, RM_SERVER_STATS_TOTALS);
	jw_int(jw, RM_SERVER_STATS_OWN_COMMITS, run->own_commits);
	jw_bool(jw, RM_SERVER_STATS_SETTLED, run->settled);
	put_commits(jw, &f->extra.commits);
	if (sum_records(jw, f->extra.timeline, run->checkpoint_times,
					(pg_time_usec_t) f->warmup * 1000000, &sum))
		put_run_sums(jw, run, &sum);
	jw_open(jw, RM_SERVER_STATS_NOTES);
	for (int i = 0; i < run->nnotes && i < MONITOR_MAX_NOTES; i++)
		put_str(jw, NULL, run->notes[i]);
	close_block(jw, ']');
	close_block(jw, '}');
}

/* ---- a merged report ---------------------------------------------------- */

void
report_json_source_server(json_writer *jw, const report_source *rs)
{
	jw_str(jw, RM_INPUT_SYSTEM_IDENTIFIER,
		   rs->system_identifier[0] != '\0' ? rs->system_identifier : NULL);
	if (rs->has_server_totals)
		put_counters(jw, RM_INPUT_SERVER_TOTALS, rs->server_present, rs->server_totals);
	else
		jw_null(jw, RM_INPUT_SERVER_TOTALS);
}

/*
 * Each server once: the runs that went to one system identifier share its
 * figures (those of the first run that has them); runs whose server is
 * unknown are each a server of their own.
 */
void
report_json_servers(json_writer *jw, const report_figures *f)
{
	const figures_extra *e = &f->extra;

	if (e->sources == NULL || e->nsources == 0)
	{
		jw_null(jw, RM_TOP_SERVERS);
		return;
	}
	jw_open(jw, RM_TOP_SERVERS);
	for (int i = 0; i < e->nsources; i++)
	{
		const report_source *s = &e->sources[i];
		const report_source *with = s->has_server_totals ? s : NULL;
		int			instances = 1;
		bool		seen = false;

		if (s->system_identifier[0] != '\0')
		{
			for (int k = 0; k < i && !seen; k++)
				seen = strcmp(e->sources[k].system_identifier, s->system_identifier) == 0;
			if (seen)
				continue;
			for (int k = i + 1; k < e->nsources; k++)
			{
				if (strcmp(e->sources[k].system_identifier, s->system_identifier) != 0)
					continue;
				instances++;
				if (with == NULL && e->sources[k].has_server_totals)
					with = &e->sources[k];
			}
		}
		open_block(jw, NULL, '{');
		jw_str(jw, RM_SERVERS_SYSTEM_IDENTIFIER,
			   s->system_identifier[0] != '\0' ? s->system_identifier : NULL);
		jw_int(jw, RM_SERVERS_INSTANCES, instances);
		jw_str(jw, RM_SERVERS_TOTALS_FROM, with != NULL ? with->file : NULL);
		if (with != NULL)
			put_counters(jw, RM_SERVERS_TOTALS, with->server_present, with->server_totals);
		else
			jw_null(jw, RM_SERVERS_TOTALS);
		close_block(jw, '}');
	}
	close_block(jw, ']');
}
