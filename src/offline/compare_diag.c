/*
 * compare_diag.c — the evidence of --compare's diagnosis (compare_diag.h):
 * every server counter, wait event, process and host figure of the two
 * runs as a series per interval, per transaction, each change told with
 * its interval as the figures' are (compare_ratio.c), and the latency
 * average taken apart from the samples of the run's backends.
 *
 * The reports were checked by the merge reader before; the points are
 * read leniently here (a member missing or of another kind is no
 * evidence, never 0), and the counters are those the schema declares
 * (timeline.h), whatever else a report holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"

/* One evidence while it is gathered: its series and levels on each side. */
typedef struct ev_acc
{
	cmp_ratio_side side[2];
	double		num[2];			/* the current run's sums */
	double		den[2];
	double		tot_num[2];		/* over the side's runs */
	double		tot_den[2];
} ev_acc;

typedef struct gather
{
	cmp_diagnosis *d;
	ev_acc	   *acc;
	int			s;				/* the side: 0 base, 1 new */
	int			k;				/* its run */
	int			nruns;
	int			cap;			/* a series' room (the run's intervals) */
	bool		all_states;		/* the run's backends were sampled idle too */
	double		pending;		/* transactions of points without counters */
} gather;

static const json_value *
member(const json_value *obj, const char *key)
{
	return obj != NULL && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;
}

/* obj.key as a finite number into *v; false when it is none */
static bool
number(const json_value *obj, const char *key, double *v)
{
	const json_value *m = member(obj, key);

	if (m == NULL || m->kind != JSON_NUMBER || !isfinite(json_num(m)))
		return false;
	*v = json_num(m);
	return true;
}

/* The evidence called name (added if new); -1 when there are too many. */
static int
ev_find(cmp_diagnosis *d, const char *name, cmp_ev_source source, cmp_ev_unit unit)
{
	int			e = 0;

	while (e < d->nevidence && strcmp(d->evidence[e].name, name) != 0)
		e++;
	if (e == d->nevidence)
	{
		cmp_evidence *ev = &d->evidence[e];

		if (e == CMP_DIAG_MAX_EVIDENCE)
			return -1;
		memset(ev, 0, sizeof(*ev));
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		utf8_mask_controls(ev->name);
		ev->source = source;
		ev->unit = unit;
		ev->share = NAN;
		d->nevidence++;
	}
	return e;
}

/* Add an interval's amount num over den transactions to evidence e of g's side. */
static void
ev_add(gather *g, int e, double num, double den, double quantum)
{
	ev_acc	   *a = &g->acc[e];
	cmp_ratio_series *s = &a->side[g->s].series;

	if (e < 0 || !isfinite(num) || !isfinite(den))
		return;
	if (g->nruns == 1)
	{
		if (s->num == NULL)
		{
			s->num = pgb_malloc(((size_t) g->cap + 1) * sizeof(double));
			s->den = pgb_malloc(((size_t) g->cap + 1) * sizeof(double));
		}
		if (s->n < g->cap)
		{
			s->num[s->n] = num;
			s->den[s->n++] = den;
		}
		s->quantum = quantum > s->quantum ? quantum : s->quantum;
	}
	a->num[g->s] += num;
	a->den[g->s] += den;
	*(g->s == 0 ? &g->d->evidence[e].has_base : &g->d->evidence[e].has_new) = true;
}

static void
ev_add_named(gather *g, const char *name, cmp_ev_source source, cmp_ev_unit unit, double num,
			 double den, double quantum)
{
	ev_add(g, ev_find(g->d, name, source, unit), num, den, quantum);
}

/* pgbench's own CPU and the host's, in the interval p of tx transactions. */
static void
gather_host(gather *g, const json_value *p, double tx)
{
	static const char *const busy[] = {"user", "nice", "system", "irq", "softirq", "steal"};
	const json_value *client = member(p, "client"),
			   *proc = member(member(p, "server"), "processes"),
			   *host = member(p, "host");
	double		cu,
				cs,
				pu = 0.0,
				ps = 0.0,
				v,
				hbusy = 0.0;
	bool		has_client = number(client, "cpu_user_s", &cu) && number(client, "cpu_system_s", &cs),
				has_proc = number(proc, "cpu_user_s", &pu) && number(proc, "cpu_system_s", &ps),
				has_host = member(host, "cpu_s") != NULL;

	if (has_client)
		ev_add_named(g, "pgbench CPU", ES_CLIENT, EU_MS, 1000.0 * (cu + cs), tx, 1.0);
	if (number(client, "busiest_thread_cpu_pct", &v))
		ev_add_named(g, "pgbench CPU, busiest thread", ES_CLIENT, EU_PERCENT, v, 1.0, 1.0);
	if (has_proc)
		ev_add_named(g, "server processes CPU", ES_PROCESS, EU_MS, 1000.0 * (pu + ps), tx, 10.0);
	if (number(proc, "read_bytes", &v))
		ev_add_named(g, "server processes read", ES_PROCESS, EU_BYTES, v, tx, 4096.0);
	if (number(proc, "write_bytes", &v))
		ev_add_named(g, "server processes written", ES_PROCESS, EU_BYTES, v, tx, 4096.0);
	for (size_t i = 0; has_host && i < sizeof(busy) / sizeof(busy[0]); i++)
		if (number(member(host, "cpu_s"), busy[i], &v))
			hbusy += v;
		else
			has_host = false;
	if (has_host && has_client && has_proc)
		ev_add_named(g, "host CPU besides pgbench and the server", ES_HOST, EU_MS,
					 fmax(0.0, 1000.0 * (hbusy - cu - cs - pu - ps)), tx, 10.0);
	if (number(host, "disk_read_bytes", &v))
		ev_add_named(g, "host disk read", ES_HOST, EU_BYTES, v, tx, 4096.0);
	if (number(host, "disk_write_bytes", &v))
		ev_add_named(g, "host disk written", ES_HOST, EU_BYTES, v, tx, 4096.0);
}

/*
 * The server's counters of point p: those the schema declares that the
 * point has; a point without counters passes its transactions on to the
 * next one with them (which covers both).
 */
static void
gather_counters(gather *g, const json_value *p, double tx)
{
	const json_value *counters = member(member(p, "server"), "counters");

	if (counters == NULL || counters->kind != JSON_OBJECT)
	{
		g->pending += tx;
		return;
	}
	for (int c = 0; c < SRV_NCOUNTERS; c++)
	{
		const timeline_counter_def *def = &timeline_server_counters[c];
		char		name[96];
		double		v;

		if (!number(member(counters, def->group), def->key, &v))
			continue;
		snprintf(name, sizeof(name), "%s.%s", def->group, def->key);
		ev_add_named(g, name, ES_COUNTER,
					 strcmp(def->unit, "bytes") == 0 ? EU_BYTES :
					 strcmp(def->unit, "ms") == 0 ? EU_MS : EU_COUNT,
					 v, tx + g->pending, 1.0);
	}
	g->pending = 0.0;
}

/* A wait event's name as evidence: the CPU, time outside the server, or itself. */
static const char *
wait_name(const char *event, bool all_states, cmp_ev_source *source)
{
	*source = ES_WAIT;
	if (strcmp(event, "CPU") == 0)
		return "server CPU (sampled)";
	if (all_states && strncmp(event, "Client:", 7) == 0)
	{
		*source = ES_OUTSIDE;
		return "time outside the server";
	}
	return event;
}

/*
 * The wait events of the run of doc (its totals' names) as evidence of
 * the diagnosis, so that an interval that did not see one counts 0.
 */
static void
register_waits(cmp_diagnosis *d, const json_value *doc, bool all_states)
{
	const json_value *counts = member(member(member(doc, "server_stats"), "wait_events"), "counts");

	for (int i = 0; counts != NULL && counts->kind == JSON_OBJECT && i < counts->n; i++)
	{
		cmp_ev_source source;
		const char *name = wait_name(json_member_name(counts, i), all_states, &source);

		ev_find(d, name, source, EU_MS);
	}
}

/*
 * The samples of point p: each wait event's sessions over the samples
 * times the interval, in milliseconds of sessions' time.
 */
static void
gather_waits(gather *g, const json_value *p, double tx)
{
	const json_value *w = member(member(p, "server"), "wait_events"),
			   *counts = member(w, "counts");
	double		samples,
				len;
	double	   *ms;

	if (!number(w, "samples", &samples) || !(samples > 0) || !number(p, "interval_s", &len) ||
		counts == NULL || counts->kind != JSON_OBJECT)
		return;
	ms = pgb_calloc((size_t) g->d->nevidence + 1, sizeof(double));
	for (int i = 0; i < counts->n; i++)
	{
		const json_value *c = json_member_value(counts, i);
		cmp_ev_source source;
		const char *name = wait_name(json_member_name(counts, i), g->all_states, &source);
		int			e = 0;

		while (e < g->d->nevidence && strcmp(g->d->evidence[e].name, name) != 0)
			e++;
		if (e < g->d->nevidence && c->kind == JSON_NUMBER && isfinite(json_num(c)))
			ms[e] += json_num(c) / samples * len * 1000.0;
	}
	for (int e = 0; e < g->d->nevidence; e++)
	{
		const cmp_evidence *ev = &g->d->evidence[e];

		/*
		 * a run whose idle sessions were not sampled knows nothing of the
		 * time outside the server; one whose were counts its client waits
		 * there, not as themselves
		 */
		if (ev->source == ES_OUTSIDE ? g->all_states
			: ev->source == ES_WAIT && (!g->all_states || strncmp(ev->name, "Client:", 7) != 0))
			ev_add(g, e, ms[e], tx, len * 1000.0 / samples);
	}
	free(ms);
}

/* The used intervals of run k of side s. */
static void
gather_run(gather *g, const cmp_run *run)
{
	const json_value *doc = &run->doc.root;
	const json_value *points = member(member(doc, "series"), "points");
	const json_value *all = member(member(member(doc, "server_stats"), "wait_events"), "all_states");

	g->all_states = all != NULL && all->kind == JSON_BOOL && all->boolean;
	g->cap = run->intervals;
	g->pending = 0.0;
	for (int e = 0; e < g->d->nevidence; e++)
		g->acc[e].num[g->s] = g->acc[e].den[g->s] = 0.0;
	for (int i = run->first; points != NULL && points->kind == JSON_ARRAY &&
		 i < run->first + run->intervals && i < points->n; i++)
	{
		const json_value *p = json_at(points, i);
		double		processed,
					failures = 0.0;

		if (!number(p, "processed", &processed))
			continue;
		(void) number(p, "failures", &failures);
		gather_host(g, p, processed + failures);
		gather_counters(g, p, processed + failures);
		gather_waits(g, p, processed + failures);
	}
	for (int e = 0; e < g->d->nevidence; e++)
	{
		ev_acc	   *a = &g->acc[e];

		if (a->side[g->s].run_level != NULL)
			a->side[g->s].run_level[g->k] = a->den[g->s] > 0 ? a->num[g->s] / a->den[g->s] : NAN;
		a->tot_num[g->s] += a->num[g->s];
		a->tot_den[g->s] += a->den[g->s];
	}
}

/* Whether every run of side had its backends sampled in every state. */
static bool
side_all_states(const cmp_side *side)
{
	for (int k = 0; k < side->nruns; k++)
	{
		const json_value *all = member(member(member(&side->runs[k].doc.root, "server_stats"),
											  "wait_events"), "all_states");

		if (all == NULL || all->kind != JSON_BOOL || !all->boolean)
			return false;
	}
	return true;
}

/*
 * Gather both sides: register every wait event first (a side that
 * sampled and never saw one has it at 0), then read the points.
 */
static void
gather_sides(const cmp_side *const sides[2], cmp_diagnosis *d, ev_acc *acc)
{
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < sides[s]->nruns; k++)
			register_waits(d, &sides[s]->runs[k].doc.root, side_all_states(sides[s]));
	for (int s = 0; s < 2; s++)
	{
		gather		g = {.d = d, .acc = acc, .s = s, .nruns = sides[s]->nruns};

		for (int e = 0; sides[s]->nruns > 1 && e < CMP_DIAG_MAX_EVIDENCE; e++)
		{
			acc[e].side[s].nruns = sides[s]->nruns;
			acc[e].side[s].run_level = pgb_calloc((size_t) sides[s]->nruns, sizeof(double));
		}
		for (int k = 0; k < sides[s]->nruns; k++)
		{
			g.k = k;
			gather_run(&g, &sides[s]->runs[k]);
		}
	}
	for (int e = 0; e < d->nevidence; e++)
		for (int s = 0; s < 2; s++)
		{
			acc[e].side[s].nruns = sides[s]->nruns;
			acc[e].side[s].level = acc[e].tot_den[s] > 0 ? acc[e].tot_num[s] / acc[e].tot_den[s] : NAN;
		}
}

/* A wait evidence, its sides' levels in ms per transaction: a part of the latency. */
static bool
latency_part(const cmp_evidence *e)
{
	return e->source == ES_WAIT || e->source == ES_OUTSIDE;
}

/*
 * The change of each evidence, how far beyond its noise, and for the
 * latency's parts the share of the latency average's change they account
 * for.
 */
static void
judge_evidence(cmp_diagnosis *d, ev_acc *acc, const cmp_side *base, const cmp_side *other)
{
	double		dlat = other->point[CF_LATENCY_AVERAGE] - base->point[CF_LATENCY_AVERAGE];
	bool		lat = base->has_point[CF_LATENCY_AVERAGE] && other->has_point[CF_LATENCY_AVERAGE];

	for (int i = 0; i < d->nevidence; i++)
	{
		cmp_evidence *e = &d->evidence[i];

		e->base = e->has_base ? acc[i].side[0].level : NAN;
		e->new = e->has_new ? acc[i].side[1].level : NAN;
		if (!e->has_base || !e->has_new)
			continue;
		cmp_ratio_change(&acc[i].side[0], &acc[i].side[1], &e->change);
		e->noise = cmp_ratio_noise(&e->change);
		if (latency_part(e) && lat && fabs(dlat) > 0.01 * fmax(base->point[CF_LATENCY_AVERAGE],
																 other->point[CF_LATENCY_AVERAGE]))
			e->share = (e->new - e->base) / dlat;
	}
}

/* Sum the wait series of evidence from into the series into (same intervals). */
static void
series_sum(cmp_ratio_side *into, const cmp_ratio_side *from)
{
	if (into->series.num == NULL && from->series.num != NULL)
	{
		into->series.num = pgb_calloc((size_t) from->series.n + 1, sizeof(double));
		into->series.den = pgb_malloc(((size_t) from->series.n + 1) * sizeof(double));
		memcpy(into->series.den, from->series.den, (size_t) from->series.n * sizeof(double));
		into->series.n = from->series.n;
	}
	for (int i = 0; into->series.num != NULL && from->series.num != NULL &&
		 i < into->series.n && i < from->series.n; i++)
		into->series.num[i] += from->series.num[i];
	into->series.quantum = fmax(into->series.quantum, from->series.quantum);
	for (int k = 0; into->run_level != NULL && k < into->nruns; k++)
		into->run_level[k] += from->run_level[k];
	into->level += from->level;
}

static void
part_add(cmp_breakdown *b, const char *name, const cmp_ratio_side sides[2])
{
	cmp_part   *p = &b->part[b->nparts++];

	snprintf(p->name, sizeof(p->name), "%s", name);
	p->base_ms = sides[0].level;
	p->new_ms = sides[1].level;
	cmp_ratio_change(&sides[0], &sides[1], &p->change);
}

/* order[0 .. n - 1] by the evidence's larger side, largest first (a stable insertion sort) */
static void
sort_by_level(const cmp_diagnosis *d, int *order, int n)
{
	for (int i = 1; i < n; i++)
	{
		int			x = order[i],
					j = i;
		double		lx = fmax(d->evidence[x].base, d->evidence[x].new);

		while (j > 0 && fmax(d->evidence[order[j - 1]].base, d->evidence[order[j - 1]].new) < lx)
		{
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
}

/*
 * The latency average taken apart: the server's CPU, each wait that
 * held a session 3% of a transaction's time or more on a side (at most
 * CMP_DIAG_MAX_PARTS - 3 of them), the other waits together, and the
 * time outside the server last.
 */
static void
breakdown(cmp_diagnosis *d, ev_acc *acc, const cmp_side *base, const cmp_side *other)
{
	cmp_breakdown *b = &d->breakdown;
	int			order[CMP_DIAG_MAX_EVIDENCE],
				n = 0,
				outside = -1;
	cmp_ratio_side rest[2];

	memset(rest, 0, sizeof(rest));
	b->has_base = side_all_states(base);
	b->has_new = side_all_states(other);
	b->latency_base_ms = base->has_point[CF_LATENCY_AVERAGE] ? base->point[CF_LATENCY_AVERAGE] : NAN;
	b->latency_new_ms = other->has_point[CF_LATENCY_AVERAGE] ? other->point[CF_LATENCY_AVERAGE] : NAN;
	for (int e = 0; e < d->nevidence; e++)
	{
		if (!latency_part(&d->evidence[e]) || !d->evidence[e].has_base || !d->evidence[e].has_new)
			continue;
		if (d->evidence[e].source == ES_OUTSIDE)
			outside = e;
		else
			order[n++] = e;
	}
	if (n == 0)
		return;
	sort_by_level(d, order, n);
	for (int i = 0; i < n; i++)
	{
		const cmp_evidence *e = &d->evidence[order[i]];
		double		lat = fmax(b->latency_base_ms, b->latency_new_ms);

		bool		cpu = strcmp(e->name, "server CPU (sampled)") == 0;

		if (b->nparts < CMP_DIAG_MAX_PARTS - 2 &&
			(cpu || !(lat > 0) || fmax(e->base, e->new) >= 0.03 * lat))
			part_add(b, cpu ? "server CPU" : e->name, acc[order[i]].side);
		else
			for (int s = 0; s < 2; s++)
				series_sum(&rest[s], &acc[order[i]].side[s]);
	}
	if (rest[0].series.num != NULL || rest[0].run_level != NULL || rest[0].level > 0)
		part_add(b, "other waits", rest);
	if (outside >= 0)
		part_add(b, "outside the server (network and client)", acc[outside].side);
	for (int s = 0; s < 2; s++)
	{
		free(rest[s].series.num);
		free(rest[s].series.den);
	}
}

static void
acc_free(ev_acc *acc)
{
	for (int e = 0; e < CMP_DIAG_MAX_EVIDENCE; e++)
		for (int s = 0; s < 2; s++)
		{
			free(acc[e].side[s].series.num);
			free(acc[e].side[s].series.den);
			free(acc[e].side[s].run_level);
		}
	free(acc);
}

void
cmp_diag_evidence(const cmp_side *base, const cmp_side *other, const cmp_change *figures,
				  cmp_diagnosis *d)
{
	const cmp_side *sides[2] = {base, other};
	ev_acc	   *acc = pgb_calloc(CMP_DIAG_MAX_EVIDENCE, sizeof(ev_acc));

	(void) figures;
	gather_sides(sides, d, acc);
	judge_evidence(d, acc, base, other);
	breakdown(d, acc, base, other);
	acc_free(acc);
}

cmp_diagnosis *
compare_diagnose(const cmp_side *base, const cmp_side *other, const cmp_change *figures)
{
	cmp_diagnosis *d = pgb_calloc(1, sizeof(cmp_diagnosis));

	cmp_diag_differences(base, other, d);
	cmp_diag_warnings(base, other, d);
	cmp_diag_host(base, &d->host[0]);
	cmp_diag_host(other, &d->host[1]);
	cmp_diag_evidence(base, other, figures, d);
	cmp_diag_sentence(figures, d);
	return d;
}
