/*
 * compare_evidence.c — beside --compare's figures (compare.h): what
 * breaks the comparison (cmp_diag_warnings), the client host's CPU split
 * (cmp_diag_host), the text of the differences (compare_differs.c), the
 * warnings and the split (cmp_diag_print_differences).
 *
 * The reports were checked by the merge reader before; what is read here
 * is read leniently (a member missing or of another kind is no evidence)
 * and every text is printed with its control characters masked, since a
 * report may come from anyone.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"

/* obj.key, or NULL when obj is no object or has no such member */
static const json_value *
member(const json_value *obj, const char *key)
{
	return obj != NULL && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;
}

/* A number member's value, NAN when it is none. */
static double
number_of(const json_value *v)
{
	return v != NULL && v->kind == JSON_NUMBER ? json_num(v) : NAN;
}

/* ---- the intervals a run's figures come from ------------------------------------ */

/*
 * Whether point p of a series of interval_s seconds counts in a run of
 * warmup_s seconds of warm-up: a whole interval (at least half the
 * series' interval, as compare.c's used_intervals: the short last one is
 * out) that began after the warm-up (its points are not the run's).
 */
static bool
used_point(const json_value *p, double interval_s, double warmup_s)
{
	double		t = number_of(member(p, "t_s")),
				len = number_of(member(p, "interval_s"));

	return isfinite(t) && isfinite(len) && 2.0 * len >= interval_s && t - len >= warmup_s - 1e-3;
}

/* The used points of a report: its series' points, with their interval and warm-up. */
typedef struct used_points
{
	const json_value *points;	/* an array, or NULL */
	double		interval_s;
	double		warmup_s;
} used_points;

static used_points
points_of(const json_value *doc)
{
	const json_value *series = member(doc, "series");
	const json_value *points = member(series, "points");
	used_points u;

	u.points = points != NULL && points->kind == JSON_ARRAY ? points : NULL;
	u.interval_s = number_of(member(series, "interval_s"));
	if (!(u.interval_s > 0.0))
		u.interval_s = 1.0;
	u.warmup_s = number_of(member(member(doc, "settings"), "warmup_s"));
	if (!(u.warmup_s > 0.0))
		u.warmup_s = 0.0;
	return u;
}

/* point i of u when it is used, else NULL */
static const json_value *
used_at(const used_points *u, int i)
{
	const json_value *p = json_at(u->points, i);

	return used_point(p, u->interval_s, u->warmup_s) ? p : NULL;
}

/* The host's CPU seconds of a point by state, summed; false when one is missing. */
static bool
host_seconds(const json_value *p, double *total, double *idle)
{
	static const char *const states[] = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
	const json_value *cpu = member(member(p, "host"), "cpu_s");

	*total = *idle = 0.0;
	for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++)
	{
		double		v = number_of(member(cpu, states[s]));

		if (!isfinite(v) || v < 0.0)
			return false;
		*total += v;
		if (s == 3 || s == 4)
			*idle += v;
	}
	return *total > 0.0;
}

/*
 * The median over a report's used points of its busiest worker thread's
 * share of a CPU (%; which = 0) or of the host's idle share (%, idle and
 * iowait of all its CPU time; which = 1); NAN when no point has it.
 */
static double
median_over_points(const json_value *doc, int which)
{
	used_points u = points_of(doc);
	int			n = 0,
				npoints = u.points != NULL ? u.points->n : 0;
	double	   *v = pgb_malloc(sizeof(double) * (size_t) (npoints + 1));
	double		m;

	for (int i = 0; i < npoints; i++)
	{
		const json_value *p = used_at(&u, i);
		double		total,
					idle,
					x = NAN;

		if (p == NULL)
			continue;
		if (which == 0)
			x = number_of(member(member(p, "client"), "busiest_thread_cpu_pct"));
		else if (host_seconds(p, &total, &idle))
			x = 100.0 * idle / total;
		if (isfinite(x))
			v[n++] = x;
	}
	m = cmp_median(v, n);
	free(v);
	return m;
}

/* ---- what breaks the comparison ------------------------------------------- */

/* A warning into d (dropped when d has CMP_DIAG_MAX_WARNINGS). */
static void
add_warning(cmp_diagnosis *d, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
add_warning(cmp_diagnosis *d, const char *code, const char *fmt, ...)
{
	va_list		ap;
	cmp_warning *w;

	if (d->nwarnings == CMP_DIAG_MAX_WARNINGS)
		return;
	w = &d->warning[d->nwarnings++];
	snprintf(w->code, sizeof(w->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
	utf8_mask_controls(w->text);
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

/* The server's major version of a report (160004: 16, 90624: 906); -1 when unknown. */
static int64_t
server_major(const json_value *doc)
{
	int64_t		v = json_int(member(member(doc, "server"), "version_num"), -1);

	return v <= 0 ? -1 : v >= 100000 ? v / 10000 : v / 100;
}

/* "16", or "9.6" for a major before 10 */
static const char *
major_text(char *buf, size_t len, int64_t major)
{
	/* 10 on: the major is one number; before, two (906: 9.6) */
	if (major < 100)
		snprintf(buf, len, "%" PRId64, major);
	else
		snprintf(buf, len, "%" PRId64 ".%" PRId64, major / 100, major % 100);
	return buf;
}

/* The workload: different scripts, scales, server majors. */
static void
warn_workload(const json_value *a, const json_value *b, cmp_diagnosis *d)
{
	const json_value *sa = member(a, "settings"),
			   *sb = member(b, "settings");
	const json_value *ta = member(sa, "transaction_type"),
			   *tb = member(sb, "transaction_type");
	const json_value *ca = member(sa, "scaling_factor"),
			   *cb = member(sb, "scaling_factor");
	int64_t		ma = server_major(a),
				mb = server_major(b);
	char		x[16],
				y[16];

	if (!same_scripts(a, b, ta, tb))
		add_warning(d, "different_scripts", "the runs ran different scripts: the comparison is of two workloads");
	/* a custom script's scale is 1 unless -s: compared only for one script */
	if (ta != NULL && tb != NULL && json_equal(ta, tb) && ca != NULL && cb != NULL &&
		!json_equal(ca, cb))
		add_warning(d, "different_scales", "the runs used different scales: the comparison is of two data sets");
	if (ma > 0 && mb > 0 && ma != mb)
		add_warning(d, "different_server", "the runs went to servers of different major versions (%s and "
					"%s): the comparison is of two servers", major_text(x, sizeof(x), ma),
					major_text(y, sizeof(y), mb));
}

/*
 * What weakens a side's figures, each the first of its runs where it
 * happened (and how many more): a run not completed, a worker thread that
 * used a whole CPU (its median interval's busiest thread at 90% or more;
 * never client.bound, which counts a thread waiting for a CPU as busy
 * and so flags every run on a saturated host), a saturated client host
 * (its CPUs idle under 10% of the median interval), commits the run's
 * transactions do not explain.
 */
static void
warn_side(const cmp_side *side, cmp_diagnosis *d)
{
	int			first[4] = {-1, -1, -1, -1},
				count[4] = {0};
	double		value[4] = {0};
	char		more[64];

	for (int k = 0; k < side->nruns; k++)
	{
		const json_value *doc = &side->runs[k].doc.root;
		const char *outcome = json_str(member(doc, "outcome"));
		const json_value *commits = member(member(doc, "server_stats"), "commits");
		double		v[4];
		bool		hit[4];

		v[0] = 0.0;
		hit[0] = outcome != NULL && strcmp(outcome, "completed") != 0;
		v[1] = median_over_points(doc, 0);
		hit[1] = v[1] >= 90.0;
		v[2] = median_over_points(doc, 1);
		hit[2] = v[2] < 10.0;
		v[3] = number_of(member(commits, "difference"));
		hit[3] = json_bool(member(commits, "checked")) && member(commits, "agrees") != NULL &&
			!json_bool(member(commits, "agrees"));
		for (int w = 0; w < 4; w++)
			if (hit[w] && count[w]++ == 0)
			{
				first[w] = k;
				value[w] = v[w];
			}
	}
	for (int w = 0; w < 4; w++)
	{
		const char *file;

		if (first[w] < 0)
			continue;
		file = side->runs[first[w]].file;
		more[0] = '\0';
		if (count[w] > 1)
			snprintf(more, sizeof(more), " (and %d more of its runs)", count[w] - 1);
		if (w == 0)
			add_warning(d, "run_not_completed", "%s%s did not complete (%s): its figures cover part of a run",
						file, more, json_str(member(&side->runs[first[w]].doc.root, "outcome")));
		else if (w == 1)
			add_warning(d, "client_bound", "%s%s was client-bound: a worker thread used %.0f%% of a CPU "
						"(median interval)", file, more, value[w]);
		else if (w == 2)
			add_warning(d, "host_saturated", "the client host was saturated during %s%s: its CPUs were "
						"idle %.0f%% of the time (median interval); pgbench, the server and other "
						"processes competed for them", file, more, value[w]);
		else
			add_warning(d, "commits_unexplained", "the server counted commits during %s%s that its "
						"transactions do not explain (a difference of %.0f): other sessions used the "
						"server", file, more, value[w]);
	}
}

/* Whether a run of side saw a checkpoint end. */
static bool
side_checkpoints(const cmp_side *side)
{
	for (int k = 0; k < side->nruns; k++)
		if (checkpoints(&side->runs[k].doc.root) > 0)
			return true;
	return false;
}

/*
 * What breaks or weakens the comparison of other with base, into d (at
 * most CMP_DIAG_MAX_WARNINGS, the gravest first): the workload, each
 * side's runs, checkpoints on one side only.  Printed by
 * cmp_diag_print_differences, not here.
 */
void
cmp_diag_warnings(const cmp_side *base, const cmp_side *other, cmp_diagnosis *d)
{
	bool		ca = side_checkpoints(base),
				cb = side_checkpoints(other);

	warn_workload(&base->runs[0].doc.root, &other->runs[0].doc.root, d);
	warn_side(base, d);
	warn_side(other, d);
	if (ca != cb)
		add_warning(d, "checkpoints_one_side", "checkpoints ran during %s only",
					ca ? "the base" : "the new run");
}

/* ---- the client host's CPU ------------------------------------------------- */

/*
 * The client host's CPU split over side's used intervals (those its
 * figures come from: whole, after the warm-up), as shares of all its CPU
 * time: this process (client.cpu_user_s + cpu_system_s), the local
 * server's processes (server.processes; has_server only when every point
 * has them, else the server is in rest), the rest of the busy time
 * (floored at 0) and idle (idle + iowait).  A point without the host's
 * CPU or the client's is left out.  For a side of several runs, its
 * first run's (the runs of a side are repeats of one set-up).
 */
void
cmp_diag_host(const cmp_side *side, cmp_host_split *h)
{
	const json_value *doc = &side->runs[0].doc.root;
	used_points u = points_of(doc);
	double		total = 0.0,
				idle = 0.0,
				client = 0.0,
				server = 0.0;
	int			n = 0,
				nserver = 0;

	memset(h, 0, sizeof(*h));
	h->busiest_thread_cpu_pct = median_over_points(doc, 0);
	for (int i = 0; u.points != NULL && i < u.points->n; i++)
	{
		const json_value *p = used_at(&u, i);
		const json_value *c = member(p, "client"),
				   *proc = member(member(p, "server"), "processes");
		double		pt,
					pi,
					cu = number_of(member(c, "cpu_user_s")) + number_of(member(c, "cpu_system_s")),
					su = number_of(member(proc, "cpu_user_s")) + number_of(member(proc, "cpu_system_s"));

		if (p == NULL || !host_seconds(p, &pt, &pi) || !isfinite(cu))
			continue;
		if (h->cpus == 0)
			h->cpus = (int) json_int(member(member(p, "host"), "cpus"), 0);
		total += pt;
		idle += pi;
		client += cu;
		n++;
		if (isfinite(su))
		{
			server += su;
			nserver++;
		}
	}
	if (n == 0 || !(total > 0.0))
		return;
	h->has = true;
	h->has_server = nserver == n;
	h->client = client / total;
	h->server = h->has_server ? server / total : 0.0;
	h->idle = idle / total;
	h->rest = fmax(0.0, (total - idle - client - (h->has_server ? server : 0.0)) / total);
}

/* ---- text ------------------------------------------------------------------ */

/* "12%", or "-" when not read */
static const char *
share_text(char *buf, size_t len, bool has, double share)
{
	if (!has)
		return "-";
	snprintf(buf, len, "%.0f%%", 100.0 * share);
	return buf;
}

/* The host's CPU split of both sides, a line. */
static void
print_host(FILE *out, const cmp_host_split *h)
{
	static const char *const names[] = {"pgbench", "server", "rest", "idle"};
	char		x[16],
				y[16];

	fprintf(out, "host CPU (share of its CPUs, base | new):");
	for (int k = 0; k < 4; k++)
	{
		double		a = k == 0 ? h[0].client : k == 1 ? h[0].server : k == 2 ? h[0].rest : h[0].idle;
		double		b = k == 0 ? h[1].client : k == 1 ? h[1].server : k == 2 ? h[1].rest : h[1].idle;

		fprintf(out, "%s %s %s | %s", k > 0 ? "," : "", names[k],
				share_text(x, sizeof(x), k != 1 || h[0].has_server, a),
				share_text(y, sizeof(y), k != 1 || h[1].has_server, b));
	}
	fputc('\n', out);
}

/*
 * The differences ("what differs (base | new):", a line each: a server
 * setting's as "server setting NAME"), the warnings on stderr (each once,
 * through diag_warning), and the host's CPU split when both sides have it.
 */
void
cmp_diag_print_differences(FILE *out, const cmp_diagnosis *d)
{
	for (int i = 0; i < d->ndiffs; i++)
	{
		const cmp_difference *x = &d->diff[i];

		if (i == 0)
			fprintf(out, "what differs (base | new):\n");
		fprintf(out, "  %s%s: %s | %s\n", x->kind == DK_SETTING ? "server setting " : "", x->what,
				x->base, x->new);
	}
	if (d->ndiffs_more > 0)
		fprintf(out, "  and %d more\n", d->ndiffs_more);
	fflush(out);				/* before the warnings, when out is stderr */
	for (int i = 0; i < d->nwarnings; i++)
		diag_warning("%s", d->warning[i].text);
	if (d->host[0].has && d->host[1].has)
		print_host(out, d->host);
}
