/*
 * monitor.c — the monitoring connection while the run lasts (monitor.h):
 * one query in flight at a time, sent and read without blocking, either
 * a wait event sample (every sample_us, on a grid from the run's start;
 * a sample that would be late is skipped) or, when an interval closes,
 * the counters' snapshot, which goes first.
 *
 * The blocking steps before and after the run are in monitor_run.c.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_int.h"

/* ---- wait events of the open interval ----------------------------------- */

/*
 * name as it is kept: cut to TIMELINE_WAIT_NAME - 1 bytes, and not inside
 * a UTF-8 character (a cut one would read back as another name).
 */
void
monitor_keep_name(char *dst, const char *name)
{
	size_t		n = strnlen(name, TIMELINE_WAIT_NAME - 1);
	size_t		start = n;

	memcpy(dst, name, n);
	if (name[n] != '\0')
	{
		/* the last character's first byte, and how long it should be */
		while (start > 0 && ((unsigned char) name[start - 1] & 0xC0) == 0x80)
			start--;
		if (start > 0)
		{
			unsigned char lead = (unsigned char) name[start - 1];
			size_t		len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;

			n = start - 1 + len <= n ? n : start - 1;
		}
	}
	dst[n] = '\0';
}

static void
acc_add(monitor_waits *acc, const char *server_name, int64_t count)
{
	char		name[TIMELINE_WAIT_NAME];

	monitor_keep_name(name, server_name);
	for (int i = 0; i < acc->n; i++)
	{
		if (strcmp(acc->e[i].name, name) == 0)
		{
			acc->e[i].count += count;
			return;
		}
	}
	if (acc->n == MONITOR_MAX_EVENTS)
	{
		acc->other += count;
		return;
	}
	memcpy(acc->e[acc->n].name, name, sizeof(name));
	acc->e[acc->n].count = count;
	acc->n++;
}

static int
by_count_desc(const void *a, const void *b)
{
	const monitor_wait_count *x = a,
			   *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The interval's events into srv: the most sampled kept, the rest other. */
static void
acc_close(monitor_waits *acc, timeline_server *srv)
{
	int64_t		other = acc->other;

	qsort(acc->e, (size_t) acc->n, sizeof(acc->e[0]), by_count_desc);
	srv->wait_samples = acc->samples;
	srv->nwaits = 0;
	for (int i = 0; i < acc->n; i++)
	{
		if (srv->nwaits < TIMELINE_NWAITS)
		{
			timeline_wait *w = &srv->waits[srv->nwaits++];

			snprintf(w->name, sizeof(w->name), "%s", acc->e[i].name);
			w->count = (int32_t) (acc->e[i].count > INT32_MAX ? INT32_MAX : acc->e[i].count);
		}
		else
			other += acc->e[i].count;
	}
	srv->waits_other = (int32_t) (other > INT32_MAX ? INT32_MAX : other);
	memset(acc, 0, sizeof(*acc));
}

/* ---- the query in flight ------------------------------------------------ */

void
monitor_note(server_run *run, const char *fmt, const char *arg)
{
	if (run->nnotes < MONITOR_MAX_NOTES)
		snprintf(run->notes[run->nnotes++], MONITOR_NOTE_LEN, fmt, arg);
}

/* The connection failed: no more queries, and the report says so. */
void
monitor_broken(server_monitor *m)
{
	if (!m->broken)
		monitor_note(m->run, "%s", "the monitoring connection was lost during the run:"
					 " the server figures stop there");
	m->broken = true;
	m->inflight = MQ_IDLE;
}

static void
send_query(server_monitor *m, monitor_query kind, const char *sql)
{
	if (!PQsendQuery(m->conn, sql))
	{
		monitor_broken(m);
		return;
	}
	m->inflight = kind;
}

static void
take_sample(server_monitor *m, const PGresult *res)
{
	m->waits.samples++;
	m->run->wait_samples++;
	for (int r = 0; r < PQntuples(res) && PQnfields(res) == 2; r++)
	{
		char	   *end;
		long long	n = strtoll(PQgetvalue(res, r, 1), &end, 10);

		if (*end == '\0' && n > 0)
			acc_add(&m->waits, PQgetvalue(res, r, 0), n);
	}
}

/* One result of the query in flight. */
static void
take_result(server_monitor *m, const PGresult *res, pg_time_usec_t now)
{
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		if (m->inflight == MQ_SAMPLE && !m->sample_failed)
		{
			monitor_note(m->run, "%s", "the wait event samples failed: none from then on");
			m->sample_failed = true;
		}
		return;
	}
	m->own++;
	if (m->inflight == MQ_SAMPLE)
		take_sample(m, res);
	else
	{
		m->latest.own_before = m->own - 1;
		monitor_sql_parse_snapshot(&m->sql, res, &m->latest);
		m->latest.local_at = now;
		m->latest_seq = m->inflight_seq;
	}
}

void
monitor_service(server_monitor *m, pg_time_usec_t now)
{
	if (m == NULL || m->broken)
		return;
	if (m->inflight != MQ_IDLE)
	{
		PGresult   *res;

		if (!PQconsumeInput(m->conn))
		{
			monitor_broken(m);
			return;
		}
		while (!PQisBusy(m->conn))
		{
			if ((res = PQgetResult(m->conn)) == NULL)
			{
				m->inflight = MQ_IDLE;
				break;
			}
			take_result(m, res, now);
			PQclear(res);
		}
		if (m->inflight != MQ_IDLE)
			return;
	}
	if (m->want_seq > m->inflight_seq)
	{
		m->inflight_seq = m->want_seq;
		send_query(m, MQ_SNAPSHOT, m->sql.snapshot);
	}
	else if (m->sample_us > 0 && !m->sample_failed && m->started && now >= m->next_sample)
	{
		send_query(m, MQ_SAMPLE, m->sql.sample);
		/* on the grid; a sample that would come late is skipped */
		while (m->next_sample <= now)
			m->next_sample += m->sample_us;
	}
}

int
monitor_socket(const server_monitor *m, short *events)
{
	if (m == NULL || m->broken || m->inflight == MQ_IDLE)
		return -1;
	*events = POLLIN;
	return PQsocket(m->conn);
}

pg_time_usec_t
monitor_due(const server_monitor *m)
{
	if (m == NULL || m->broken || m->inflight != MQ_IDLE)
		return INT64_MAX;
	if (m->want_seq > m->inflight_seq)
		return 0;
	if (m->sample_us > 0 && !m->sample_failed && m->started)
		return m->next_sample;
	return INT64_MAX;
}

void
monitor_begin(server_monitor *m, pg_time_usec_t origin)
{
	if (m == NULL)
		return;
	m->origin = origin;
	m->next_sample = origin;
	m->started = true;
	memset(&m->waits, 0, sizeof(m->waits));
}

/* ---- intervals ---------------------------------------------------------- */

void
monitor_close_interval(server_monitor *m, pg_time_usec_t now)
{
	(void) now;
	if (m == NULL)
		return;
	memset(&m->closed, 0, sizeof(m->closed));
	acc_close(&m->waits, &m->closed);
	if (!m->broken)
		m->want_seq++;
}

bool
monitor_interval_ready(const server_monitor *m)
{
	return m == NULL || m->broken || m->latest_seq == m->want_seq;
}

/* When the checkpoint that completed since the last record began. */
static pg_time_usec_t
checkpoint_start(const server_monitor *m, const monitor_snap *last, const monitor_snap *cur)
{
	double		ago_s;

	if (isnan(cur->checkpoint_epoch_s) || cur->checkpoint_epoch_s == last->checkpoint_epoch_s)
		return TIMELINE_NO_TIME;
	ago_s = cur->server_epoch_s - cur->checkpoint_epoch_s;
	return cur->local_at - m->origin - (pg_time_usec_t) llround(ago_s * 1e6);
}

void
monitor_take_interval(server_monitor *m, timeline_server *srv)
{
	const monitor_snap *cur;

	if (m == NULL)
		return;
	cur = &m->latest;
	/* the process figures are the ticker's */
	srv->wait_samples = m->closed.wait_samples;
	srv->nwaits = m->closed.nwaits;
	memcpy(srv->waits, m->closed.waits, sizeof(srv->waits));
	srv->waits_other = m->closed.waits_other;
	srv->checkpoint_start_us = TIMELINE_NO_TIME;
	if (m->broken || m->latest_seq != m->want_seq || !cur->ok || !m->applied.ok)
		return;					/* late: the next record's counters cover both */
	srv->has_counters = true;
	srv->present = m->sql.present;
	for (int i = 0; i < SRV_NCOUNTERS; i++)
		srv->counter[i] = cur->value[i] - m->applied.value[i];
	srv->checkpoint_start_us = checkpoint_start(m, &m->applied, cur);
	m->applied = *cur;
}

void
monitor_restart_totals(server_monitor *m)
{
	if (m != NULL && !m->broken && m->applied.ok)
		m->before = m->applied;
}

pid_t
monitor_postmaster(const server_monitor *m)
{
	return m != NULL && m->run->local ? m->run->postmaster : -1;
}

void
monitor_close(server_monitor *m)
{
	if (m == NULL)
		return;
	PQfinish(m->conn);
	free(m);
}
