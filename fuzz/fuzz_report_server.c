/*
 * fuzz_report_server.c — the server's side of fuzz_report's figures
 * (--server-stats: each record's server and host parts, the server over
 * the run) and a merged report's inputs and thresholds, taken last from
 * the input (take_server_side, fuzz_report_int.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report_int.h"

/* A count the monitor keeps in an int32: 0 .. INT32_MAX. */
static int32_t
take_count(fr_in *in)
{
	static const int32_t edges[] = {0, 1, 2, INT32_MAX, INT32_MAX - 1, INT32_MAX / 2 + 1};

	switch (take(in, 1) % 3)
	{
		case 0:
			return (int32_t) take(in, 1);
		case 1:
			return edges[take(in, 1) % PGB_LENGTHOF(edges)];
		default:
			return (int32_t) (take(in, 4) & INT32_MAX);
	}
}

/* The counters a server has: all of them, none, or any bits. */
static uint64_t
take_present(fr_in *in)
{
	switch (take(in, 1) % 4)
	{
		case 0:
			return (UINT64_C(1) << SRV_NCOUNTERS) - 1;
		case 1:
			return 0;
		default:
			return take(in, 8);
	}
}

/*
 * The values of the present counters (the others 0): any finite double
 * (a counter's growth: negative after a reset of the server's
 * statistics), times (ms, written with six decimals) measured figures.
 */
static void
take_counters(fr_in *in, uint64_t present, double *value)
{
	for (int i = 0; i < SRV_NCOUNTERS; i++)
	{
		double		d = 0.0;

		if (present & (UINT64_C(1) << i))
			d = strcmp(timeline_server_counters[i].unit, "ms") == 0
				? take_measured(in) : take_double(in);
		value[i] = isfinite(d) ? d : 0.0;
	}
}

/*
 * A wait event's name as the records have it: any bytes, but one event
 * one name.  The writer writes the names as member names, sanitized
 * (ill-formed UTF-8 as U+FFFD), and our reader refuses a member name
 * given twice: two names that sanitize alike are made the same event
 * (the first one's bytes).
 */
static void
canon_name(fr_store *st, char *name)
{
	char		clean[UTF8_SANITIZED_SIZE(TIMELINE_WAIT_NAME)];

	utf8_sanitize(clean, name, strlen(name));
	for (int k = 0; k < st->nnames; k++)
		if (strcmp(st->names[k].clean, clean) == 0)
		{
			memcpy(name, st->names[k].raw, TIMELINE_WAIT_NAME);
			return;
		}
	if (st->nnames == FR_MAX_NAMES)
	{
		memcpy(name, st->names[0].raw, TIMELINE_WAIT_NAME);
		return;
	}
	memcpy(st->names[st->nnames].raw, name, TIMELINE_WAIT_NAME);
	memcpy(st->names[st->nnames].clean, clean, sizeof(clean));
	st->nnames++;
}

/* A record's events: each name once (the monitor adds a name's samples). */
static void
canon_waits(fr_store *st, timeline_server *s)
{
	int			n = 0;

	for (int i = 0; i < s->nwaits; i++)
	{
		bool		twice = false;

		canon_name(st, s->waits[i].name);
		for (int j = 0; j < n && !twice; j++)
			twice = strcmp(s->waits[j].name, s->waits[i].name) == 0;
		if (!twice)
			s->waits[n++] = s->waits[i];
	}
	for (int i = n; i < s->nwaits; i++)
		memset(&s->waits[i], 0, sizeof(s->waits[i]));
	s->nwaits = n;
}

/* A record's server part: counters, checkpoint, wait events, processes. */
static void
take_record_server(fr_in *in, fr_store *st, timeline_server *s)
{
	memset(s, 0, sizeof(*s));
	s->has_counters = take_bool(in);
	if (s->has_counters)
	{
		s->present = take_present(in);
		take_counters(in, s->present, s->counter);
	}
	s->checkpoint_start_us = take_bool(in) ? TIMELINE_NO_TIME : take_i64(in);
	s->wait_samples = take_count(in);
	s->nwaits = (int32_t) (take(in, 1) % (TIMELINE_NWAITS + 1));
	for (int i = 0; i < s->nwaits; i++)
	{
		take_into(in, s->waits[i].name, TIMELINE_WAIT_NAME);
		s->waits[i].count = take_count(in);
	}
	canon_waits(st, s);
	s->waits_other = take_count(in);
	s->has_proc = take_bool(in);
	if (s->has_proc)
	{
		s->nprocs = take_int(in);
		s->cpu_user_s = take_reading(in);
		s->cpu_system_s = take_reading(in);
		s->read_bytes = take_i64(in);
		s->write_bytes = take_i64(in);
		s->ctxsw_voluntary = take_i64(in);
		s->ctxsw_involuntary = take_i64(in);
	}
}

/* A record's host part (-1: unknown). */
static void
take_record_host(fr_in *in, timeline_host *h)
{
	memset(h, 0, sizeof(*h));
	h->ok = take_bool(in);
	if (!h->ok)
		return;
	h->ncpus = take_int(in);
	for (int i = 0; i < TIMELINE_HOST_NCPU_STATES; i++)
		h->cpu_s[i] = take_reading(in);
	h->mem_total_kb = take_i64(in);
	h->mem_available_kb = take_i64(in);
	h->net_rx_bytes = take_i64(in);
	h->net_tx_bytes = take_i64(in);
	h->disk_read_bytes = take_i64(in);
	h->disk_write_bytes = take_i64(in);
}

/* The server over the run (server_run) and the commit check. */
static void
take_server_run(fr_in *in, fr_store *st)
{
	figures_extra *e = &st->f.extra;
	server_run *run = &st->srun;
	figures_commits *c = &e->commits;

	run->on = take_bool(in);
	run->connected = take_bool(in);
	run->totals_read = take_bool(in);
	if (run->totals_read)
	{
		run->present = take_present(in);
		take_counters(in, run->present, run->total);
	}
	run->own_commits = take_i64(in);
	run->settled = take_bool(in);
	run->version_num = take_int(in);
	take_into(in, run->app_name, sizeof(run->app_name));
	run->others = take_bool(in);
	run->local = take_bool(in);
	run->checkpoint_times = take_bool(in);
	run->postmaster = take_int(in);
	run->wait_samples = take_i64(in);
	run->sample_us = take_i64(in);
	run->nnotes = (int) (take(in, 1) % (MONITOR_MAX_NOTES + 1));
	for (int i = 0; i < run->nnotes; i++)
		take_into(in, run->notes[i], MONITOR_NOTE_LEN);
	e->server_run = run;

	c->checked = take_bool(in);
	c->why_not = take_bool(in) ? NULL : take_str(in, 256);
	c->server = take_i64(in);
	c->expected = take_i64(in);
	c->explained = take_i64(in);
	c->difference = take_i64(in);
	c->agrees = take_bool(in);
}

/* --threshold's verdicts: expressions as given (any bytes), measured or not. */
static void
take_thresholds(fr_in *in, fr_store *st)
{
	figures_extra *e = &st->f.extra;

	e->nthresholds = 1 + (int) (take(in, 1) % FR_MAX_THRESHOLDS);
	e->thresholds = st->checked;
	for (int i = 0; i < e->nthresholds; i++)
	{
		threshold_result *r = &st->checked[i];

		snprintf(st->thresholds[i].text, sizeof(st->thresholds[i].text), "%s",
				 take_str(in, THRESHOLD_TEXT_LEN - 1));
		r->t = &st->thresholds[i];
		r->measured = take_bool(in);
		r->passed = r->measured && take_bool(in);
		r->value = take_measured(in);
	}
}

/* A merged report's inputs: their runs, groups, servers and server totals. */
static void
take_sources(fr_in *in, fr_store *st)
{
	static const char *const ids[] = {"", "7312345678901234567", "7312345678901234568", "1",
	"18446744073709551615", "99999999999999999999", "0"};
	figures_extra *e = &st->f.extra;

	e->nsources = 1 + (int) (take(in, 1) % FR_MAX_SOURCES);
	e->sources = st->sources;
	for (int i = 0; i < e->nsources; i++)
	{
		report_source *s = &st->sources[i];

		s->file = take_str(in, 256);
		take_into(in, s->run_id, sizeof(s->run_id));
		s->in_group = take_bool(in);
		if (s->in_group)
		{
			take_into(in, s->group.group, sizeof(s->group.group));
			s->group.size = take_int(in);
			s->group.member = take_int(in);
			s->group.start_server_us = take_i64(in);
		}
		switch (take(in, 1) % 4)
		{
			case 0:
			case 1:
				/* a few servers, so that runs share one */
				snprintf(s->system_identifier, sizeof(s->system_identifier), "%s",
						 ids[take(in, 1) % PGB_LENGTHOF(ids)]);
				break;
			case 2:
				{
					int			n = (int) (take(in, 1) % 21);

					for (int k = 0; k < n; k++)
						s->system_identifier[k] = (char) ('0' + take(in, 1) % 10);
					s->system_identifier[n] = '\0';
				}
				break;
			default:
				/* not one the merge reads: any bytes */
				take_into(in, s->system_identifier, sizeof(s->system_identifier));
				break;
		}
		s->has_server_totals = take_bool(in);
		if (s->has_server_totals)
		{
			s->server_present = take_present(in);
			take_counters(in, s->server_present, s->server_totals);
		}
	}
}

/* name with "#k" at its end (within TIMELINE_WAIT_NAME): another event. */
static void
rename_wait(char *name, int k)
{
	char		suffix[8];
	size_t		n = strlen(name),
				m = (size_t) snprintf(suffix, sizeof(suffix), "#%d", k);

	if (n + m > TIMELINE_WAIT_NAME - 1)
		n = TIMELINE_WAIT_NAME - 1 - m;
	memcpy(name + n, suffix, m + 1);
}

/*
 * The server's side of the run: each record's server and host parts,
 * sometimes a run of FR_MANY_POINTS records (copies of those, the first
 * rounds with names of their own: more checkpoints and events than the
 * run's sums keep), the server over the run, a merged report's inputs.
 * Taken after everything else, so that an input from before leaves them
 * all off.
 */
void
take_server_side(fr_in *in, fr_store *st)
{
	uint64_t	flags = take(in, 1);
	int			n = st->tl.n;

	for (int i = 0; i < n; i++)
	{
		timeline_record r;

		if (!timeline_get(&st->tl, i, &r))
			fr_fail("record %d cannot be read back", i);
		take_record_server(in, st, &r.server);
		take_record_host(in, &r.host);
		if (!timeline_put(&st->tl, i, &r))
			fr_fail("record %d cannot be replaced", i);
	}
	if (flags & 1)
		take_server_run(in, st);
	if (flags & 2)
		take_sources(in, st);
	if (flags & 4)
		take_thresholds(in, st);
	if ((flags >> 4) == 0xf && n > 0)
	{
		for (int k = 0; st->tl.n < FR_MANY_POINTS; k++)
		{
			timeline_record r;

			if (!timeline_get(&st->tl, k % n, &r))
				fr_fail("record %d cannot be read back", k % n);
			if (k / n < FR_MANY_ROUNDS)
			{
				for (int j = 0; j < r.server.nwaits; j++)
					rename_wait(r.server.waits[j].name, k / n);
				canon_waits(st, &r.server);
			}
			if (!timeline_append(&st->tl, &r))
				fr_fail("out of memory for a record");
		}
	}
}
