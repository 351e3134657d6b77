/*
 * fuzz_report_check_server.c — fr_check_report's checks of the server's
 * side (report_json_server.c, report_json_extra.c: server_stats summed
 * over the records as the writer must sum them, each point's server and
 * host parts, "server" and "client"), the series' points, a merged
 * report's inputs and servers, and the thresholds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report_check.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/threshold.h"

#define FR_RUN_MAX_EVENTS 64		/* as the writer sums the records' events */
#define FR_RUN_MAX_CHECKPOINTS 256

/* s (a wait event's name, at most TIMELINE_WAIT_NAME bytes) as written. */
static void
sanitized(const char *s, char *out)
{
	utf8_sanitize(out, s, strnlen(s, TIMELINE_WAIT_NAME - 1));
}

/* Member i of the object c must be named name. */
static void
want_name_at(const chk *c, int i, const char *name)
{
	const char *got = i < c->v->n ? json_member_name(c->v, i) : NULL;

	if (got == NULL || strcmp(got, name) != 0)
		fr_fail("%s: member %d is \"%.40s\", expected \"%.40s\"", c->path, i,
				got != NULL ? got : "(none)", name);
}

/*
 * The counters of present (TIMELINE_SERVER_COUNTERS): an object per
 * group in the declaration's order, a member per present counter, counts
 * as the integer nearest (llround), times (ms) as measured figures.
 */
static void
want_counters(const chk *c, const char *key, uint64_t present, const double *value)
{
	chk			o = chk_sub(c, key),
				g = {0};
	const char *group = NULL;
	int			ngroups = 0,
				nkeys = 0;

	for (int i = 0; i < SRV_NCOUNTERS; i++)
	{
		const timeline_counter_def *d = &timeline_server_counters[i];

		if (!(present & (UINT64_C(1) << i)))
			continue;
		if (group == NULL || strcmp(group, d->group) != 0)
		{
			if (group != NULL)
				want_members(&g, nkeys);
			want_name_at(&o, ngroups++, d->group);
			g = chk_named(&o, d->group, JSON_OBJECT);
			group = d->group;
			nkeys = 0;
		}
		want_name_at(&g, nkeys++, d->key);
		if (strcmp(d->unit, "ms") == 0)
			want_num(&g, d->key, value[i]);
		else
			want_int(&g, d->key, (int64_t) llround(value[i]));
	}
	if (group != NULL)
		want_members(&g, nkeys);
	want_members(&o, ngroups);
}

/*
 * "wait_events": samples, all_states, counts (n names and counts, in
 * order), other.
 */
static void
want_waits(const chk *c, bool all_states, int64_t samples, const timeline_wait *w, int n,
		   int64_t other)
{
	chk			we = chk_sub(c, "wait_events"),
				counts = chk_sub(&we, "counts");

	want_int(&we, "samples", samples);
	want_bool(&we, "all_states", all_states);
	want_int(&we, "other", other);
	want_members(&we, 4);
	want_members(&counts, n);
	for (int i = 0; i < n; i++)
	{
		char		name[UTF8_SANITIZED_SIZE(TIMELINE_WAIT_NAME)];

		sanitized(w[i].name, name);
		want_name_at(&counts, i, name);
		want_int(&counts, name, w[i].count);
	}
}

static void
want_bytes(const chk *c, const char *key, int64_t v)
{
	if (v >= 0)
		want_int(c, key, v);
	else
		want_null(c, key);
}

/* A point's "server" (run: NULL when not asked for; monitored when it ran) and "host". */
static void
want_point_server(const chk *c, const timeline_record *r, const server_run *run)
{
	static const char *const states[TIMELINE_HOST_NCPU_STATES] = TIMELINE_HOST_CPU_STATES;
	const timeline_server *s = &r->server;
	const timeline_host *h = &r->host;
	bool		monitored = run != NULL && run->connected;
	chk			sv,
				pr,
				ho,
				cpu;

	if (object_or_null(c, "server", monitored || s->has_proc, &sv))
	{
		int			nwaits = s->nwaits < 0 ? 0 : s->nwaits > TIMELINE_NWAITS ? TIMELINE_NWAITS : s->nwaits;

		if (s->has_counters)
			want_counters(&sv, "counters", s->present, s->counter);
		else
			want_null(&sv, "counters");
		want_num(&sv, "checkpoint_start_s", s->has_counters && s->checkpoint_start_us != TIMELINE_NO_TIME
				 ? (double) s->checkpoint_start_us / 1e6 : NAN);
		if (monitored)
			want_waits(&sv, run->wait_all_states, s->wait_samples, s->waits, nwaits,
					   s->waits_other);
		else
			want_null(&sv, "wait_events");
		if (object_or_null(&sv, "processes", s->has_proc, &pr))
		{
			want_int(&pr, "count", s->nprocs);
			want_num(&pr, "cpu_user_s", s->cpu_user_s);
			want_num(&pr, "cpu_system_s", s->cpu_system_s);
			want_bytes(&pr, "read_bytes", s->read_bytes);
			want_bytes(&pr, "write_bytes", s->write_bytes);
			want_int(&pr, "ctxsw_voluntary", s->ctxsw_voluntary);
			want_int(&pr, "ctxsw_involuntary", s->ctxsw_involuntary);
			want_members(&pr, 7);
		}
		want_members(&sv, 4);
	}
	if (!object_or_null(c, "host", h->ok, &ho))
		return;
	want_int(&ho, "cpus", h->ncpus);
	cpu = chk_sub(&ho, "cpu_s");
	for (int i = 0; i < TIMELINE_HOST_NCPU_STATES; i++)
	{
		want_name_at(&cpu, i, states[i]);
		want_num(&cpu, states[i], h->cpu_s[i]);
	}
	want_members(&cpu, TIMELINE_HOST_NCPU_STATES);
	want_bytes(&ho, "mem_total_kb", h->mem_total_kb);
	want_bytes(&ho, "mem_available_kb", h->mem_available_kb);
	want_bytes(&ho, "net_rx_bytes", h->net_rx_bytes);
	want_bytes(&ho, "net_tx_bytes", h->net_tx_bytes);
	want_bytes(&ho, "disk_read_bytes", h->disk_read_bytes);
	want_bytes(&ho, "disk_write_bytes", h->disk_write_bytes);
	want_members(&ho, 8);
}

/* What the run's "server_stats" must sum up from the records. */
typedef struct fr_run_sum
{
	int64_t		samples;
	int64_t		other;
	int			nevents;
	timeline_wait events[FR_RUN_MAX_EVENTS];	/* count: summed, at most INT32_MAX */
	int			ncheckpoints;
	double		start_s[FR_RUN_MAX_CHECKPOINTS];	/* NaN: unknown */
	double		end_s[FR_RUN_MAX_CHECKPOINTS];
	bool		truncated;
} fr_run_sum;

/* Did a checkpoint end in the record's interval? (doc/report-json.md) */
static bool
fr_checkpoint_ended(const timeline_server *s, bool times)
{
	if (!s->has_counters)
		return false;
	/* with the checkpoints' times read, only a new time is an end */
	if (s->checkpoint_start_us != TIMELINE_NO_TIME || times)
		return s->checkpoint_start_us != TIMELINE_NO_TIME;
	if (s->present & (UINT64_C(1) << SRV_CKPT_DONE))
		return s->counter[SRV_CKPT_DONE] > 0;
	return s->counter[SRV_CKPT_BUFFERS] > 0 &&
		s->counter[SRV_CKPT_TIMED] + s->counter[SRV_CKPT_REQUESTED] > 0;
}

static int
by_count_then_name(const void *a, const void *b)
{
	const timeline_wait *x = a,
			   *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The run's wait events (the records from from_us on) and checkpoints (all). */
static void
fr_sum_records(const timeline *tl, bool times, pg_time_usec_t from_us, fr_run_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (int i = 0; tl != NULL && i < tl->n; i++)
	{
		timeline_record r;
		const timeline_server *s = &r.server;

		if (!timeline_get(tl, i, &r))
			fr_fail("record %d cannot be read back", i);
		if (r.start_us >= from_us)
		{
			sum->samples += s->wait_samples;
			sum->other += s->waits_other;
		}
		for (int k = 0; k < s->nwaits && k < TIMELINE_NWAITS && r.start_us >= from_us; k++)
		{
			int			e = 0;

			while (e < sum->nevents && strcmp(sum->events[e].name, s->waits[k].name) != 0)
				e++;
			if (e == FR_RUN_MAX_EVENTS)
			{
				sum->other += s->waits[k].count;
				continue;
			}
			if (e == sum->nevents)
			{
				snprintf(sum->events[e].name, TIMELINE_WAIT_NAME, "%s", s->waits[k].name);
				sum->events[e].count = 0;
				sum->nevents++;
			}
			sum->events[e].count = (int32_t) ((int64_t) sum->events[e].count + s->waits[k].count > INT32_MAX
											  ? INT32_MAX : sum->events[e].count + s->waits[k].count);
		}
		if (!fr_checkpoint_ended(s, times))
			continue;
		if (sum->ncheckpoints == FR_RUN_MAX_CHECKPOINTS)
		{
			sum->truncated = true;
			continue;
		}
		sum->start_s[sum->ncheckpoints] = s->checkpoint_start_us == TIMELINE_NO_TIME
			? NAN : (double) s->checkpoint_start_us / 1e6;
		sum->end_s[sum->ncheckpoints++] = (double) r.end_us / 1e6;
	}
	qsort(sum->events, (size_t) sum->nevents, sizeof(sum->events[0]), by_count_then_name);
}

/* "server_stats": null when --server-stats was not asked for. */
void
want_server_stats(const chk *c, const figures_extra *e, int warmup)
{
	const server_run *run = e->server_run;
	const figures_commits *fc = &e->commits;
	chk			ss,
				cm,
				ck,
				notes;
	static fr_run_sum sum;
	int			nnotes;

	if (!object_or_null(c, "server_stats", run != NULL, &ss))
		return;
	want_bool(&ss, "monitored", run->connected);
	want_str(&ss, "application_name", run->connected ? run->app_name : NULL);
	want_bool(&ss, "local", run->local);
	want_num(&ss, "sample_interval_ms", (double) run->sample_us / 1000);
	if (run->totals_read)
		want_counters(&ss, "totals", run->present, run->total);
	else
		want_null(&ss, "totals");
	want_int(&ss, "own_commits", run->own_commits);
	want_bool(&ss, "settled", run->settled);
	cm = chk_sub(&ss, "commits");
	want_bool(&cm, "checked", fc->checked);
	want_str(&cm, "not_checked_because", fc->checked ? NULL : fc->why_not);
	if (fc->checked)
	{
		want_int(&cm, "server", fc->server);
		want_int(&cm, "expected", fc->expected);
		want_int(&cm, "difference", fc->difference);
		want_int(&cm, "explained", fc->explained);
		want_bool(&cm, "agrees", fc->agrees);
	}
	want_members(&cm, fc->checked ? 7 : 2);
	fr_sum_records(e->timeline, run->checkpoint_times, (pg_time_usec_t) warmup * 1000000, &sum);
	ck = chk_sub(&ss, "checkpoints");
	for (int i = 0; i < sum.ncheckpoints; i++)
	{
		chk			one = chk_item(&ck, i, sum.ncheckpoints);

		want_num(&one, "start_s", sum.start_s[i]);
		want_num(&one, "ended_by_s", sum.end_s[i]);
		want_members(&one, 2);
	}
	if (sum.ncheckpoints == 0 && ck.v->n != 0)
		fr_fail("%s: checkpoints that did not end", ck.path);
	want_bool(&ss, "checkpoints_truncated", sum.truncated);
	want_waits(&ss, run->wait_all_states, sum.samples, sum.events, sum.nevents, sum.other);
	notes = chk_sub(&ss, "notes");
	nnotes = run->nnotes < 0 ? 0 : run->nnotes > MONITOR_MAX_NOTES ? MONITOR_MAX_NOTES : run->nnotes;
	for (int i = 0; i < nnotes; i++)
		want_str(&(chk) {.v = chk_item(&notes, i, nnotes).v}, NULL, run->notes[i]);
	if (nnotes == 0 && notes.v->n != 0)
		fr_fail("%s: notes that were not given", notes.path);
	want_members(&ss, 12);
}

/* --threshold's verdicts: each expression, whether it passed, its value (null: not measured). */
void
want_thresholds(const chk *c, const figures_extra *e)
{
	chk			list;

	if (e->thresholds == NULL)
	{
		want_null(c, "thresholds");
		return;
	}
	list = chk_sub(c, "thresholds");
	for (int i = 0; i < e->nthresholds; i++)
	{
		const threshold_result *r = &e->thresholds[i];
		chk			t = chk_item(&list, i, e->nthresholds);

		want_str(&t, "expression", r->t->text);
		want_bool(&t, "passed", r->passed);
		want_num(&t, "value", r->measured ? r->value : NAN);
		want_members(&t, 3);
	}
}

/*
 * A merged report's "inputs" and "servers": each run's file, run id,
 * group, server and server totals; then each server once: a system
 * identifier listed once (at its first run) with the number of runs that
 * went to it and the totals of the first of them that has any; a run
 * whose server is unknown, a server of its own.
 */
void
want_inputs_servers(const chk *c, const figures_extra *e)
{
	chk			in,
				sv;
	int			nservers = 0,
				k = 0,
				instances_sum = 0;

	if (e->nsources == 0)
	{
		want_null(c, "inputs");
		want_null(c, "servers");
		return;
	}
	in = chk_sub(c, "inputs");
	for (int i = 0; i < e->nsources; i++)
	{
		const report_source *s = &e->sources[i];
		chk			one = chk_item(&in, i, e->nsources),
					rv;

		want_str(&one, "file", s->file);
		want_str(&one, "run_id", chk_known(s->run_id));
		if (object_or_null(&one, "rendezvous", s->in_group, &rv))
		{
			want_str(&rv, "group", s->group.group);
			want_int(&rv, "size", s->group.size);
			want_int(&rv, "member", s->group.member);
			want_int(&rv, "start_server_epoch_us", s->group.start_server_us);
			want_members(&rv, 4);
		}
		want_str(&one, "system_identifier", chk_known(s->system_identifier));
		if (s->has_server_totals)
			want_counters(&one, "server_totals", s->server_present, s->server_totals);
		else
			want_null(&one, "server_totals");
		want_members(&one, 5);
	}
	for (int i = 0; i < e->nsources; i++)
	{
		bool		first = true;

		for (int j = 0; j < i && first && e->sources[i].system_identifier[0] != '\0'; j++)
			first = strcmp(e->sources[j].system_identifier, e->sources[i].system_identifier) != 0;
		nservers += first;
	}
	sv = chk_sub(c, "servers");
	for (int i = 0; i < e->nsources; i++)
	{
		const report_source *s = &e->sources[i];
		const report_source *with = NULL;
		int			instances = 0;
		bool		first = true;
		chk			one;

		for (int j = 0; j < i && first && s->system_identifier[0] != '\0'; j++)
			first = strcmp(e->sources[j].system_identifier, s->system_identifier) != 0;
		if (!first)
			continue;
		for (int j = i; j < e->nsources; j++)
		{
			const report_source *o = &e->sources[j];

			if (j > i && (s->system_identifier[0] == '\0' ||
						  strcmp(o->system_identifier, s->system_identifier) != 0))
				continue;
			instances++;
			if (with == NULL && o->has_server_totals)
				with = o;
		}
		one = chk_item(&sv, k++, nservers);
		want_str(&one, "system_identifier", chk_known(s->system_identifier));
		want_int(&one, "instances", instances);
		instances_sum += instances;
		want_str(&one, "totals_from", with != NULL ? with->file : NULL);
		if (with != NULL)
			want_counters(&one, "totals", with->server_present, with->server_totals);
		else
			want_null(&one, "totals");
		want_members(&one, 4);
	}
	if (k != nservers || instances_sum != e->nsources)
		fr_fail("%s: %d servers of %d runs, expected %d of %d", sv.path, k, instances_sum,
				nservers, e->nsources);
}

/* A point's coarse histogram and exact sums (null with no success). */
static void
want_point_hist(const chk *c, const timeline_record *r)
{
	chk			h,
				b;
	int			n = 0,
				nb = 0;

	if (!object_or_null(c, "histogram", r->delta.cnt != 0, &h))
		return;
	b = chk_sub(&h, "buckets");
	want_int(&h, "min_us", r->latency_min_us);
	want_int(&h, "max_us", r->latency_max_us);
	want_exact(&h, "latency_sum_us", r->delta.latency.sum);
	want_exact(&h, "latency_sum_squares_us", r->delta.latency.sum2);
	want_exact(&h, "lag_sum_us", r->delta.lag.sum);
	for (int i = 0; i < TIMELINE_NBUCKETS; i++)
		nb += r->buckets[i] != 0;
	for (int i = 0; i < TIMELINE_NBUCKETS; i++)
	{
		chk			pair;

		if (r->buckets[i] == 0)
			continue;
		pair = chk_item(&b, n++, nb);
		want_int(&(chk) {.v = chk_item(&pair, 0, 2).v}, NULL, i);
		want_int(&(chk) {.v = chk_item(&pair, 1, 2).v}, NULL, r->buckets[i]);
	}
	if (nb == 0 && b.v->n != 0)
		fr_fail("%s: buckets that were not given", b.path);
}

/* The client figures of a point (null when not read). */
static void
want_client(const chk *c, const figures_point *p)
{
	chk			cl;

	if (!object_or_null(c, "client", p->has_client, &cl))
		return;
	want_num(&cl, "cpu_user_s", p->cpu_user_s);
	want_num(&cl, "cpu_system_s", p->cpu_system_s);
	want_num(&cl, "busiest_thread_cpu_pct", p->busiest_thread_cpu_pct);
	if (p->rss_kb >= 0)
		want_int(&cl, "rss_kb", p->rss_kb);
	else
		want_null(&cl, "rss_kb");
}

void
want_point(const chk *c, const timeline_record *r, bool throttled, const server_run *run)
{
	static const double at_pct[FIGURES_POINT_NPERCENTILES] = FIGURES_POINT_PERCENTILES;
	chk			lat = chk_sub(c, "latency_ms"),
				lag;
	figures_point pt;
	const figures_point *p = &pt;

	figures_point_of(&pt, r, throttled);
	want_num(c, "t_s", p->t_s);
	want_num(c, "interval_s", p->interval_s);
	want_num(c, "tps", p->tps);
	want_int(c, "processed", p->processed);
	want_int(c, "failures", p->failures);
	want_int(c, "retried", p->retried);
	want_int(c, "retries", p->retries);
	want_int(c, "skipped", p->skipped);
	want_num(&lat, "average", p->latency_avg_ms);
	want_num(&lat, "stddev", p->latency_stddev_ms);
	want_num(&lat, "min", p->latency_min_ms);
	for (int k = 0; k < FIGURES_POINT_NPERCENTILES; k++)
	{
		const char *name = json_member_name(lat.v, 3 + k);

		if (name == NULL || name[0] != 'p' || strtod(name + 1, NULL) != at_pct[k])
			fr_fail("%s: member %d is not percentile %g", lat.path, 3 + k, at_pct[k]);
		want_num(&lat, name, p->latency_ms[k]);
	}
	want_num(&lat, "max", p->latency_max_ms);
	if (object_or_null(c, "lag_ms", throttled, &lag))
		want_num(&lag, "average", p->lag_avg_ms);
	want_client(c, p);
	want_num(c, "stage_target", r->staged ? r->stage_target : NAN);
	want_point_server(c, r, run);
	want_point_hist(c, r);
}

static void
want_setting(const chk *c, const char *key, const server_setting *s, bool named)
{
	chk			o = key != NULL ? chk_named(c, key, JSON_OBJECT) : *c;

	if (named)
		want_str(&o, "name", s->name);
	want_str(&o, "value", s->value);
	want_str(&o, "unit", s->unit[0] != '\0' ? s->unit : NULL);
	want_str(&o, "source", s->source);
}

/* "server" and "client" (report_json_extra.c) */
void
want_server_client(const chk *c, const figures_extra *e)
{
	const server_info *si = e->server;
	chk			sv,
				cl;

	if (object_or_null(c, "server", si != NULL, &sv))
	{
		chk			settings = chk_sub(&sv, "settings"),
					nd = chk_sub(&sv, "non_default"),
					ur = chk_sub(&sv, "unreadable");

		want_int(&sv, "version_num", si->version_num);
		want_str(&sv, "version", si->version[0] != '\0' ? si->version : NULL);
		want_str(&sv, "system_identifier", si->system_identifier[0] != '\0' ? si->system_identifier : NULL);
		for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
		{
			if (si->key_seen[k])
				want_setting(&settings, si->key[k].name, &si->key[k], false);
			else
				want_null(&settings, si->key[k].name);
		}
		for (int i = 0; i < si->nnondefault; i++)
		{
			chk			one = chk_item(&nd, i, si->nnondefault);

			want_setting(&one, NULL, &si->nondefault[i], true);
		}
		want_bool(&sv, "non_default_truncated", si->truncated);
		for (int i = 0; i < si->nunreadable; i++)
		{
			chk			one = chk_item(&ur, i, si->nunreadable);

			if (one.v->kind != JSON_STRING || strcmp(one.v->u.string, si->unreadable[i]) != 0)
				fr_fail("%s: expected \"%s\"", one.path, si->unreadable[i]);
		}
	}
	if (object_or_null(c, "client", !isnan(e->busiest_thread_cpu_pct), &cl))
	{
		want_int(&cl, "busiest_thread", e->busiest_thread);
		want_num(&cl, "busiest_thread_busy_pct", e->busiest_thread_cpu_pct);
		want_bool(&cl, "bound", e->client_bound);
		want_int(&cl, "intervals_bound", e->intervals_client_bound);
	}
}
