/*
 * compare_evidence.c — beside --compare's figures (compare.h): what
 * differs between the runs, what breaks the comparison, and what changed
 * most per transaction in the server's and the client's evidence.
 *
 * The reports were checked by the merge reader before; what is read here
 * is read leniently (a member missing or of another kind is no evidence)
 * and every text is printed with its control characters masked, since a
 * report may come from anyone.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"

#define CMP_MAX_CAUSES 5		/* the evidence lines printed */
#define CMP_MAX_EVIDENCE 256	/* counters and wait events weighed */

/* A JSON value as one line of text: strings as they are, control characters masked. */
static const char *
value_text(char *buf, size_t len, const json_value *v)
{
	if (v == NULL)
		snprintf(buf, len, "(none)");
	else if (v->kind == JSON_NULL)
		snprintf(buf, len, "null");
	else if (v->kind == JSON_BOOL)
		snprintf(buf, len, "%s", v->boolean ? "true" : "false");
	else if (v->kind == JSON_STRING || (v->kind == JSON_NUMBER && v->number == JSON_BIGINT))
		snprintf(buf, len, "%s", v->u.string);	/* a big integer's digits, too */
	else if (v->kind == JSON_NUMBER && v->number == JSON_INT64)
		snprintf(buf, len, "%" PRId64, v->u.integer);
	else if (v->kind == JSON_NUMBER && v->number == JSON_UINT64)
		snprintf(buf, len, "%" PRIu64, v->u.uinteger);
	else if (v->kind == JSON_NUMBER)
		snprintf(buf, len, "%g", v->u.real);
	else
		snprintf(buf, len, "(%d %s)", v->n, v->kind == JSON_ARRAY ? "items" : "members");
	utf8_mask_controls(buf);
	return buf;
}

/* obj.key, or NULL when obj is no object or has no such member */
static const json_value *
member(const json_value *obj, const char *key)
{
	return obj != NULL && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;
}

static void
differs_line(FILE *out, const char *what, const json_value *a, const json_value *b, bool *any)
{
	char		ta[256],
				tb[256];

	if (a != NULL && b != NULL && json_equal(a, b))
		return;
	if (a == NULL && b == NULL)
		return;
	if (!*any)
		fprintf(out, "what differs (base | new):\n");
	*any = true;
	fprintf(out, "  %s: %s | %s\n", what, value_text(ta, sizeof(ta), a),
			value_text(tb, sizeof(tb), b));
}

/* Each member of a and b (objects) that differs, as "prefix.name". */
static void
differs_members(FILE *out, const char *prefix, const json_value *a, const json_value *b,
				const char *skip, bool *any)
{
	char		what[160];

	for (int side = 0; side < 2; side++)
	{
		const json_value *o = side == 0 ? a : b;
		const json_value *other = side == 0 ? b : a;

		for (int i = 0; o != NULL && o->kind == JSON_OBJECT && i < o->n; i++)
		{
			const char *name = json_member_name(o, i);

			if (strcmp(name, skip) == 0 || (side == 1 && member(other, name) != NULL))
				continue;		/* the second pass: only what the first lacks */
			snprintf(what, sizeof(what), "%s%s", prefix, name);
			utf8_mask_controls(what);
			differs_line(out, what, side == 0 ? json_member_value(o, i) : member(other, name),
						 side == 0 ? member(other, name) : json_member_value(o, i), any);
		}
	}
}

/* The server settings of a report: name -> value with its unit. */
static void
differs_server_settings(FILE *out, const json_value *a, const json_value *b, bool *any)
{
	const json_value *sa = member(member(a, "server"), "settings");
	const json_value *sb = member(member(b, "server"), "settings");

	for (int i = 0; sa != NULL && sa->kind == JSON_OBJECT && i < sa->n; i++)
	{
		const char *name = json_member_name(sa, i);
		char		what[160];

		snprintf(what, sizeof(what), "server setting %s", name);
		differs_line(out, what, member(json_member_value(sa, i), "value"),
					 member(member(sb, name), "value"), any);
	}
}

/* ---- what breaks the comparison ------------------------------------------- */

static bool
client_bound(const json_value *doc)
{
	const json_value *b = member(member(doc, "client"), "bound");

	return b != NULL && b->kind == JSON_BOOL && b->boolean;
}

static int
checkpoints(const json_value *doc)
{
	const json_value *c = member(member(doc, "server_stats"), "checkpoints");

	return c != NULL && c->kind == JSON_ARRAY ? c->n : 0;
}

/*
 * Whether reports a and b ran the same scripts: the same texts (their
 * SHA-256, when both reports have them), else the same description
 * (transaction types ta and tb).
 */
static bool
same_scripts(const json_value *a, const json_value *b, const json_value *ta, const json_value *tb)
{
	const json_value *sa = member(a, "scripts"),
			   *sb = member(b, "scripts");
	bool		hashed = sa != NULL && sb != NULL && sa->kind == JSON_ARRAY &&
		sb->kind == JSON_ARRAY && sa->n == sb->n;

	for (int i = 0; hashed && i < sa->n; i++)
	{
		const json_value *ha = member(json_at(sa, i), "sha256"),
				   *hb = member(json_at(sb, i), "sha256");

		hashed = ha != NULL && hb != NULL && ha->kind == JSON_STRING && hb->kind == JSON_STRING;
		if (hashed && !json_equal(ha, hb))
			return false;
	}
	if (hashed)
		return true;
	return ta == NULL || tb == NULL || json_equal(ta, tb);
}

static void
warnings(const cmp_side *base, const cmp_side *other)
{
	const json_value *a = &base->runs[0].doc.root;
	const json_value *b = &other->runs[0].doc.root;
	const json_value *sa = member(a, "settings"),
			   *sb = member(b, "settings");
	const json_value *ta = member(sa, "transaction_type"),
			   *tb = member(sb, "transaction_type");
	const json_value *ca = member(sa, "scaling_factor"),
			   *cb = member(sb, "scaling_factor");

	if (!same_scripts(a, b, ta, tb))
		diag_warning("the runs ran different scripts: the comparison is of two workloads");
	/* a custom script's scale is 1 unless -s: compared only for one script */
	if (ta != NULL && tb != NULL && json_equal(ta, tb) && ca != NULL && cb != NULL &&
		!json_equal(ca, cb))
		diag_warning("the runs used different scales: the comparison is of two data sets");
	for (int s = 0; s < 2; s++)
	{
		const cmp_side *side = s == 0 ? base : other;

		for (int k = 0; k < side->nruns; k++)
			if (client_bound(&side->runs[k].doc.root))
				diag_warning("%s was client-bound: its figures measure the client as much as the server",
							 side->runs[k].file);
	}
	if ((checkpoints(a) > 0) != (checkpoints(b) > 0))
		diag_warning("checkpoints ran during %s only", checkpoints(a) > 0 ? "the base" : "the new run");
}

/* ---- the evidence per transaction ----------------------------------------- */

typedef struct evidence
{
	char		name[96];
	double		base;			/* per transaction, or a share of samples */
	double		other;
	bool		has_base;		/* a side's reports hold it: a figure one side */
	bool		has_other;		/* lacks is unknown there, never 0 */
	bool		share;			/* a wait event: sessions in it, on average */
} evidence;

/* The index of the evidence called name, added if new; -1 when there are too many. */
static int
find_or_add(evidence *ev, int *nev, const char *name)
{
	int			e = 0;

	while (e < *nev && strcmp(ev[e].name, name) != 0)
		e++;
	if (e == *nev && *nev == CMP_MAX_EVIDENCE)
		return -1;
	if (e == *nev)
		snprintf(ev[(*nev)++].name, sizeof(ev[0].name), "%s", name);
	return e;
}

/* Add v (per transaction of side) to the evidence e, which the side has. */
static void
add_to(evidence *e, double v, bool other)
{
	*(other ? &e->other : &e->base) += v;
	*(other ? &e->has_other : &e->has_base) = true;
}

/*
 * Add the sum of obj's number members keys (per transaction of side) to
 * the evidence called name, scaled by scale; nothing when one of them is
 * missing or null (a figure not read is unknown, not 0).
 */
static void
add_members(evidence *ev, int *nev, const char *name, const json_value *obj, const char *const *keys,
			int nkeys, double scale, const cmp_side *side, bool other)
{
	double		sum = 0.0;
	int			e;

	for (int k = 0; k < nkeys; k++)
	{
		const json_value *v = member(obj, keys[k]);

		if (v == NULL || v->kind != JSON_NUMBER || !isfinite(json_num(v)))
			return;
		sum += json_num(v);
	}
	if ((e = find_or_add(ev, nev, name)) >= 0)
		add_to(&ev[e], scale * sum / fmax(side->transactions, 1), other);
}

/*
 * The CPU and I/O of the series' points, summed over side's runs: the
 * server's processes (a local server), the client process, the host.
 */
static void
gather_points(const cmp_side *side, evidence *ev, int *nev, bool other)
{
	static const char *const host_cpu[] = {"user", "nice", "system", "iowait", "irq", "softirq", "steal"};
	static const char *const cpu[] = {"cpu_user_s", "cpu_system_s"};
	static const char *const ctxsw[] = {"ctxsw_voluntary", "ctxsw_involuntary"};
	static const char *const rd[] = {"read_bytes"};
	static const char *const wr[] = {"write_bytes"};
	static const char *const disk_rd[] = {"disk_read_bytes"};
	static const char *const disk_wr[] = {"disk_write_bytes"};

	for (int k = 0; k < side->nruns; k++)
	{
		const json_value *points = member(member(&side->runs[k].doc.root, "series"), "points");

		for (int i = 0; points != NULL && points->kind == JSON_ARRAY && i < points->n; i++)
		{
			const json_value *p = json_at(points, i);
			const json_value *proc = member(member(p, "server"), "processes");
			const json_value *client = member(p, "client");
			const json_value *host = member(p, "host");

			add_members(ev, nev, "server processes CPU (ms)", proc, cpu, 2, 1000.0, side, other);
			add_members(ev, nev, "server processes read (bytes)", proc, rd, 1, 1.0, side, other);
			add_members(ev, nev, "server processes written (bytes)", proc, wr, 1, 1.0, side, other);
			add_members(ev, nev, "server context switches", proc, ctxsw, 2, 1.0, side, other);
			add_members(ev, nev, "client CPU (ms)", client, cpu, 2, 1000.0, side, other);
			add_members(ev, nev, "host CPU (ms)", member(host, "cpu_s"), host_cpu,
						(int) (sizeof(host_cpu) / sizeof(host_cpu[0])), 1000.0, side, other);
			add_members(ev, nev, "host disk written (bytes)", host, disk_wr, 1, 1.0, side, other);
			add_members(ev, nev, "host disk read (bytes)", host, disk_rd, 1, 1.0, side, other);
		}
	}
}

/*
 * side's server counter totals (group.key) and wait event counts, summed
 * over its runs; whether its monitor sampled the wait events.
 */
static bool
gather(const cmp_side *side, evidence *ev, int *nev, bool other)
{
	bool		sampled = false;

	for (int k = 0; k < side->nruns; k++)
	{
		const json_value *st = member(&side->runs[k].doc.root, "server_stats");
		const json_value *totals = member(st, "totals");
		const json_value *waits = member(st, "wait_events");
		const json_value *counts = member(waits, "counts");
		const json_value *samples = member(waits, "samples");
		double		nsamples = samples != NULL && samples->kind == JSON_NUMBER ? json_num(samples) : 0;

		sampled |= nsamples > 0;

		for (int g = 0; totals != NULL && totals->kind == JSON_OBJECT && g < totals->n; g++)
		{
			const json_value *group = json_member_value(totals, g);

			for (int i = 0; group->kind == JSON_OBJECT && i < group->n; i++)
			{
				char		name[96];
				const json_value *v = json_member_value(group, i);
				int			e;

				if (v->kind != JSON_NUMBER)
					continue;
				snprintf(name, sizeof(name), "%s.%s", json_member_name(totals, g),
						 json_member_name(group, i));
				if ((e = find_or_add(ev, nev, name)) < 0)
					continue;
				add_to(&ev[e], json_num(v) / fmax(side->transactions, 1), other);
			}
		}
		for (int i = 0; counts != NULL && counts->kind == JSON_OBJECT && nsamples > 0 && i < counts->n; i++)
		{
			char		name[96];
			int			e;

			snprintf(name, sizeof(name), "wait event %s", json_member_name(counts, i));
			if ((e = find_or_add(ev, nev, name)) < 0)
				continue;
			ev[e].share = true;
			add_to(&ev[e], json_num(json_member_value(counts, i)) / nsamples / side->nruns, other);
		}
	}
	return sampled;
}

/*
 * The evidence one side has and the other lacks (a view its server has
 * not, a remote server's processes): a line per side, never ranked.
 */
static void
unavailable(FILE *out, const evidence *ev, int nev)
{
	for (int s = 0; s < 2; s++)
	{
		int			shown = 0,
					more = 0;

		for (int e = 0; e < nev; e++)
		{
			if ((s == 0 ? ev[e].has_base : ev[e].has_other) || !(s == 0 ? ev[e].has_other : ev[e].has_base))
				continue;
			if (shown == 6)
			{
				more++;
				continue;
			}
			fprintf(out, "%s%s", shown == 0 ? (s == 0 ? "not available on base (not ranked): "
											  : "not available on new (not ranked): ") : ", ",
					ev[e].name);
			shown++;
		}
		if (more > 0)
			fprintf(out, " and %d more", more);
		if (shown > 0)
			fputc('\n', out);
	}
}

/*
 * How much an evidence changed: the log of the ratio, from a floor that
 * keeps rare things out (a wait event held by 0.05 sessions on average,
 * a counter under 1 in 100 transactions).
 */
static double
weight(const evidence *e)
{
	double		lo = fmin(e->base, e->other),
				hi = fmax(e->base, e->other);

	if (e->share)
		return hi - lo >= 0.05 ? log((hi + 0.05) / (lo + 0.05)) : 0.0;
	if (hi <= 0.0 || hi < 0.01)
		return 0.0;				/* too rare to weigh: under 1 in 100 transactions */
	return log((hi + 0.01) / (lo + 0.01));
}

static void
causes(FILE *out, const cmp_side *base, const cmp_side *other)
{
	static evidence ev[CMP_MAX_EVIDENCE];
	int			nev = 0;
	bool		used[CMP_MAX_EVIDENCE] = {false};

	bool		sampled[2];

	memset(ev, 0, sizeof(ev));
	sampled[0] = gather(base, ev, &nev, false);
	sampled[1] = gather(other, ev, &nev, true);
	gather_points(base, ev, &nev, false);
	gather_points(other, ev, &nev, true);
	/* a wait event not seen on a side that sampled: none there */
	for (int e = 0; e < nev; e++)
		if (ev[e].share)
		{
			ev[e].has_base = sampled[0];
			ev[e].has_other = sampled[1];
		}
	for (int line = 0; line < CMP_MAX_CAUSES; line++)
	{
		int			best = -1;

		for (int e = 0; e < nev; e++)
			if (!used[e] && ev[e].has_base && ev[e].has_other && weight(&ev[e]) > log(1.2) &&
				(best < 0 || weight(&ev[e]) > weight(&ev[best])))
				best = e;
		if (best < 0)
			break;
		used[best] = true;
		if (line == 0)
			fprintf(out, "what changed most (server and host evidence; base -> new):\n");
		utf8_mask_controls(ev[best].name);
		if (ev[best].share)
			fprintf(out, "  %-40s %.2f -> %.2f sessions in it, on average\n", ev[best].name,
					ev[best].base, ev[best].other);
		else
			fprintf(out, "  %-40s %.4g -> %.4g per transaction\n", ev[best].name,
					ev[best].base, ev[best].other);
	}
	unavailable(out, ev, nev);
}

void
compare_evidence(FILE *out, const cmp_side *base, const cmp_side *other)
{
	const json_value *a = &base->runs[0].doc.root;
	const json_value *b = &other->runs[0].doc.root;
	bool		any = false;

	differs_line(out, "server", member(member(a, "server"), "version"),
				 member(member(b, "server"), "version"), &any);
	differs_members(out, "", member(a, "settings"), member(b, "settings"), "random_seed", &any);
	differs_members(out, "label ", member(a, "labels"), member(b, "labels"), "", &any);
	differs_members(out, "connection.", member(a, "connection"), member(b, "connection"), "", &any);
	differs_server_settings(out, a, b, &any);
	warnings(base, other);
	causes(out, base, other);
}
