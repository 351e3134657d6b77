/*
 * compare_rules.c — the ranking of --compare's evidence and the one
 * sentence (compare_diag.h, doc/compare.md "Why").
 *
 * Only evidence that changed beyond its own noise (its 95% interval) and
 * by enough to matter is ranked.  A rule table links what may differ
 * between two runs (a server setting, the clients, the scripts, the
 * connection) to the evidence it moves; the evidence of a rule that fits
 * (its difference is there, its evidence changed) comes first, in the
 * order the rule gives; then the latency's parts by the share of the
 * latency average's change they account for; then the rest by how much
 * they changed (a unit-free ratio).  The sentence names the rule's
 * difference and its evidence, or says that no rule fits.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/xalloc.h"

#define RULE_MAX_TRIGGERS 8
#define RULE_MAX_EVIDENCE 10
/* the ranked lines printed */
#define DIAG_MAX_RANKED 8

/*
 * A rule: what triggers it (a difference's name, or "@kind": "@script"
 * for a script, a script line or a -D variable, "@version", "@clients"
 * for -c or -j, "@client_bound_new" and "@saturated_new" for the client
 * host in the new run only; "!code" for a warning), the evidence it moves
 * in the order it matters (a name, or a prefix ending in '*'), the first
 * key of which are its own (one of them must have changed for the rule to
 * fit; the rest it also moves), and what it means.  evidence_only: it
 * also fits with no trigger, when its first evidence accounts for half
 * the latency's change or more.
 */
typedef struct diag_rule
{
	const char *code;
	const char *triggers[RULE_MAX_TRIGGERS];
	const char *evidence[RULE_MAX_EVIDENCE];
	int			key;
	const char *means;
	bool		evidence_only;
	bool		key_up;			/* its key evidence counts only when it grew */
} diag_rule;

static const diag_rule rules[] = {
	{"synchronous_commit",
		{"synchronous_commit", "fsync", "wal_sync_method", "commit_delay", "wal_writer_delay",
		"synchronous_standby_names"},
		{"IO:WALSync", "LWLock:WALWrite", "IO:WALWrite", "IPC:SyncRep", "LWLock:WAL*", "IO:WAL*"},
	6, "commits wait for the WAL to be flushed", false, false},
	{"shared_buffers", {"shared_buffers"},
		{"database.blks_read", "IO:DataFileRead", "io.reads", "io.evictions", "IO:DataFile*",
		"server processes read", "host disk read", "database.blks_hit", "io.hits"},
	5, "fewer of the data's pages stay in shared buffers, more are read", false, false},
	{"work_mem", {"work_mem", "hash_mem_multiplier"},
		{"database.temp_bytes", "database.temp_files", "IO:BufFileRead", "IO:BufFileWrite",
		"IO:BufFile*", "server processes written", "host disk written"},
	5, "sorts and hashes spill to temporary files", false, false},
	{"checkpoints",
		{"max_wal_size", "min_wal_size", "checkpoint_timeout", "checkpoint_completion_target",
		"full_page_writes", "wal_compression", "!checkpoints_one_side"},
		{"checkpointer.*", "wal.wal_fpi", "io.fsyncs", "IO:DataFileSync", "wal.wal_bytes",
		"LWLock:WAL*", "IO:WAL*", "wal.wal_buffers_full", "server processes written", "host disk written"},
	4, "checkpoints write full-page images and dirty pages", false, false},
	{"locks", {"@script", "@clients"},
		{"Lock:*", "database.deadlocks", "LWLock:LockManager", "database.xact_rollback"},
	2, "sessions wait for each other's locks (a hot row)", true, false},
	/*
	 * The client's key is its busiest thread's share of a CPU: its CPU per
	 * transaction also grows when tps falls for any other reason (its fixed
	 * costs over fewer transactions).
	 */
	{"client", {"@clients", "@client_bound_new", "@saturated_new"},
		{"pgbench CPU, busiest thread", "pgbench CPU", "time outside the server"},
	1, "the client limits the run", false, true},
	{"network", {NULL},
		{"time outside the server", "host CPU besides pgbench and the server"},
	1, "the time is spent outside the server, in the network or the client", true, false},
	{"version", {"@version"},
		{NULL},
	0, "the server version differs", false, false},
};

#define NRULES ((int) (sizeof(rules) / sizeof(rules[0])))

/* Whether name matches a rule's pattern (a name, or a prefix and '*'). */
static bool
pattern_matches(const char *pattern, const char *name)
{
	size_t		n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0;
	return strcmp(pattern, name) == 0;
}

/* Whether a difference's name is the setting or option called name. */
static bool
names(const cmp_difference *x, const char *name)
{
	size_t		n = strlen(name),
				w = strlen(x->what);

	return strcmp(x->what, name) == 0 ||
		(w > n && x->what[w - n - 1] == ' ' && strcmp(x->what + w - n, name) == 0) ||
		(strncmp(x->what, name, n) == 0 && x->what[n] == ' ');
}

/* The difference that triggers a rule's trigger t; NULL when none. */
static const cmp_difference *
trigger_difference(const cmp_diagnosis *d, const char *t)
{
	for (int i = 0; i < d->ndiffs; i++)
	{
		const cmp_difference *x = &d->diff[i];

		if (strcmp(t, "@script") == 0 ? x->kind == DK_SCRIPT || x->kind == DK_SCRIPT_LINE ||
			x->kind == DK_VARIABLE
			: strcmp(t, "@version") == 0 ? x->kind == DK_SERVER && strstr(x->what, "version") != NULL
			: strcmp(t, "@clients") == 0 ? x->kind == DK_OPTION &&
			(strncmp(x->what, "clients", 7) == 0 || strncmp(x->what, "threads", 7) == 0)
			: t[0] != '!' && t[0] != '@' && (x->kind == DK_SETTING || x->kind == DK_OPTION) &&
			names(x, t))
			return x;
	}
	return NULL;
}

/* Whether the warning called code was given. */
static bool
warned(const cmp_diagnosis *d, const char *code)
{
	for (int i = 0; i < d->nwarnings; i++)
		if (strcmp(d->warning[i].code, code) == 0)
			return true;
	return false;
}

/*
 * Whether the client host's state differs: a worker thread used 90% of a
 * CPU in the new run only (@client_bound_new), or the host's CPUs were
 * idle under 10% of the time in the new run only (@saturated_new), as the
 * warnings count them (cmp_diag_warnings).
 */
static bool
host_trigger(const cmp_diagnosis *d, const char *t)
{
	const cmp_host_split *a = &d->host[0],
			   *b = &d->host[1];

	if (strcmp(t, "@client_bound_new") == 0)
		return b->busiest_thread_cpu_pct >= 90.0 && !(a->busiest_thread_cpu_pct >= 90.0);
	if (strcmp(t, "@saturated_new") == 0)
		return a->has && b->has && b->idle < 0.1 && !(a->idle < 0.1);
	return false;
}

/* Rule r's trigger that is there (its index), or -1. */
static int
rule_trigger(const cmp_diagnosis *d, const diag_rule *r)
{
	for (int t = 0; t < RULE_MAX_TRIGGERS && r->triggers[t] != NULL; t++)
		if (r->triggers[t][0] == '!' ? warned(d, r->triggers[t] + 1)
			: host_trigger(d, r->triggers[t]) || trigger_difference(d, r->triggers[t]) != NULL)
			return t;
	return -1;
}

/* An evidence's per-transaction level (or share) at which it may matter. */
static double
floor_of(const cmp_evidence *e, double latency)
{
	switch (e->unit)
	{
		case EU_COUNT:
			return 0.01;		/* one in a hundred transactions */
		case EU_BYTES:
			return 16.0;
		case EU_MS:
			return fmax(0.005, 0.01 * latency);	/* 1% of a transaction's time */
		case EU_PERCENT:
			return 5.0;
	}
	return 0.0;
}

/* How much an evidence changed, unit-free: the log of its ratio from its floor. */
static double
effect(const cmp_evidence *e, double latency)
{
	double		f = floor_of(e, latency);

	return fabs(log((fmax(e->new, 0.0) + f) / (fmax(e->base, 0.0) + f)));
}

/*
 * Whether e changed beyond its noise and by enough to matter: above its
 * floor on a side, by a fifth of the larger side at least.
 */
static bool
rankable(const cmp_evidence *e, double latency)
{
	double		hi = fmax(e->base, e->new);

	return e->has_base && e->has_new && e->noise > 1.0 && hi >= floor_of(e, latency) &&
		fabs(e->new - e->base) >= 0.2 * hi && effect(e, latency) >= log(1.2);
}

/* Where a rule puts e: its evidence's index, or -1. */
static int
rule_place(const diag_rule *r, const cmp_evidence *e)
{
	for (int i = 0; i < RULE_MAX_EVIDENCE && r->evidence[i] != NULL; i++)
		if (pattern_matches(r->evidence[i], e->name))
			return i;
	return -1;
}

/* A latency part's share of the latency's change, when it has one. */
static double
share_of(const cmp_evidence *e)
{
	return isfinite(e->share) ? e->share : NAN;
}

/*
 * Whether an evidence-only rule fits without a difference: its first
 * evidence ranked and accounting for half the latency's change or more.
 */
static bool
fits_by_evidence(const cmp_diagnosis *d, const diag_rule *r, double latency)
{
	for (int e = 0; r->evidence_only && e < d->nevidence; e++)
		if (rule_place(r, &d->evidence[e]) == 0 && rankable(&d->evidence[e], latency) &&
			share_of(&d->evidence[e]) >= 0.5)
			return true;
	return false;
}

typedef struct ranked
{
	int			e;
	int			tier;			/* 1: a rule's, 2: a latency part, 3: the rest */
	int			rule;			/* tier 1: its rule's place in the order (order_rules) */
	int			rule_k;			/* and its index in rules[] */
	int			place;
	double		strength;
} ranked;

static int
ranked_cmp(const void *x, const void *y)
{
	const ranked *a = x,
			   *b = y;

	if (a->tier != b->tier)
		return a->tier - b->tier;
	if (a->rule != b->rule)
		return a->rule - b->rule;
	if (a->place != b->place)
		return a->place - b->place;
	if (a->strength != b->strength)
		return a->strength > b->strength ? -1 : 1;
	return a->e - b->e;
}

/* An evidence's weight in the ranking: its share of the latency change, else its effect. */
static double
strength_of(const cmp_evidence *ev, double latency)
{
	return isfinite(share_of(ev)) ? fabs(share_of(ev)) : effect(ev, latency) / 10.0;
}

/* Whether one of rule r's key evidence changed; the strongest's strength. */
static bool
key_changed(const cmp_diagnosis *d, const diag_rule *r, double latency, double *strength)
{
	bool		changed = false;

	*strength = 0.0;
	for (int e = 0; e < d->nevidence; e++)
	{
		int			place = rule_place(r, &d->evidence[e]);

		if (place >= 0 && place < r->key && rankable(&d->evidence[e], latency) &&
			(!r->key_up || d->evidence[e].new > d->evidence[e].base))
		{
			changed = true;
			*strength = fmax(*strength, strength_of(&d->evidence[e], latency));
		}
	}
	return changed;
}

/*
 * The rules that fit, in order (pos[k]: rule k's place, -1 when it does
 * not fit): those a difference triggers and whose key evidence changed
 * first, then those a warning triggers, then those the evidence alone
 * fits, then the one without evidence (the server version); within each,
 * the strongest key evidence first.
 */
static void
order_rules(const cmp_diagnosis *d, double latency, int *pos)
{
	int			prio[NRULES],
				idx[NRULES] = {0},
				n = 0;
	double		str[NRULES];

	for (int k = 0; k < NRULES; k++)
	{
		int			t = rule_trigger(d, &rules[k]);
		bool		changed = rules[k].evidence[0] != NULL && key_changed(d, &rules[k], latency, &str[k]);

		pos[k] = -1;
		if (rules[k].evidence[0] == NULL)
			prio[k] = t >= 0 ? 3 : -1;
		else if (t >= 0 && changed)
			prio[k] = rules[k].triggers[t][0] == '!' ? 1 : 0;
		else
			prio[k] = fits_by_evidence(d, &rules[k], latency) ? 2 : -1;
		if (prio[k] < 0)
			continue;
		if (rules[k].evidence[0] == NULL)
			str[k] = 0.0;
		/* insert k by (prio, strength) */
		{
			int			j = n++;

			while (j > 0 && (prio[idx[j - 1]] > prio[k] ||
							 (prio[idx[j - 1]] == prio[k] && str[idx[j - 1]] < str[k])))
			{
				idx[j] = idx[j - 1];
				j--;
			}
			idx[j] = k;
		}
	}
	for (int i = 0; i < n; i++)
		pos[idx[i]] = i;
}

/* The rankable evidence with its tier, in rank order; how many. */
static int
rank_evidence(const cmp_diagnosis *d, const int *pos, double latency, ranked *out)
{
	int			n = 0;

	for (int e = 0; e < d->nevidence; e++)
	{
		const cmp_evidence *ev = &d->evidence[e];
		ranked	   *r = &out[n];

		if (!rankable(ev, latency))
			continue;
		r->e = e;
		r->tier = 3;
		r->rule = r->place = 0;
		r->rule_k = -1;
		r->strength = strength_of(ev, latency);
		/* the first rule in the order that moves it */
		for (int k = 0; k < NRULES; k++)
			if (pos[k] >= 0 && rule_place(&rules[k], ev) >= 0 && (r->tier == 3 || pos[k] < r->rule))
			{
				r->tier = 1;
				r->rule = pos[k];
				r->rule_k = k;
				r->place = rule_place(&rules[k], ev);
			}
		if (r->tier == 3 && share_of(ev) >= 0.1 && latency > 0)
			r->tier = 2;
		n++;
	}
	qsort(out, (size_t) n, sizeof(ranked), ranked_cmp);
	return n;
}

/* d's evidence in rank order: the ranked first (rank 1, 2, ...), then the rest as they were. */
static void
reorder(cmp_diagnosis *d, const ranked *r, int n)
{
	cmp_evidence *copy = pgb_malloc((size_t) d->nevidence * sizeof(cmp_evidence));
	bool	   *taken = pgb_calloc((size_t) d->nevidence + 1, sizeof(bool));
	int			k = 0;

	memcpy(copy, d->evidence, (size_t) d->nevidence * sizeof(cmp_evidence));
	for (int i = 0; i < n; i++)
	{
		d->evidence[k] = copy[r[i].e];
		d->evidence[k++].rank = i + 1;
		taken[r[i].e] = true;
	}
	for (int e = 0; e < d->nevidence; e++)
		if (!taken[e])
		{
			d->evidence[k] = copy[e];
			d->evidence[k++].rank = 0;
		}
	free(copy);
	free(taken);
}

/* An evidence as the sentence says it: "database.blks_read 0.01 -> 3.2 per transaction". */
static void
evidence_words(char *buf, size_t len, const cmp_evidence *e)
{
	const char *unit = e->unit == EU_BYTES ? " bytes per transaction"
		: e->unit == EU_MS ? " ms per transaction"
		: e->unit == EU_PERCENT ? "% of a CPU" : " per transaction";

	snprintf(buf, len, "%s %.3g -> %.3g%s", e->name, e->base, e->new, unit);
}

/* What triggered rule r, in words: "shared_buffers 128MB -> 1MB". */
static void
trigger_words(char *buf, size_t len, const cmp_diagnosis *d, const diag_rule *r)
{
	int			t = rule_trigger(d, r);
	const cmp_difference *x = t >= 0 && r->triggers[t][0] != '!'
		? trigger_difference(d, r->triggers[t]) : NULL;

	if (x != NULL)
		snprintf(buf, len, "%s %s -> %s", x->what, x->base, x->new);
	else if (t >= 0)
		snprintf(buf, len, "%s", strcmp(r->triggers[t], "!checkpoints_one_side") == 0
				 ? "checkpoints in the new run only or the base only"
				 : strcmp(r->triggers[t], "@client_bound_new") == 0
				 ? "a worker thread used 90% of a CPU in the new run only"
				 : strcmp(r->triggers[t], "@saturated_new") == 0
				 ? "the client host was saturated in the new run only" : "a warning above");
	else
		buf[0] = '\0';
}

/*
 * What differs that a user changes on purpose (options, -D variables,
 * scripts, server settings but where the server listens, the server's
 * version): "; the runs differ in threads (-j) 2 -> 1", at most three;
 * "" when nothing does.
 */
static const char *
candidates(char *buf, size_t len, const cmp_diagnosis *d)
{
	static const char *const where[] = {"port", "unix_socket_directories", "listen_addresses",
	"data_directory", "config_file", "hba_file", "ident_file", "system identifier"};
	size_t		used = 0;
	int			shown = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->ndiffs && shown < 3 && used < len; i++)
	{
		const cmp_difference *x = &d->diff[i];
		bool		skip = x->kind == DK_CONNECTION || x->kind == DK_HOST || x->kind == DK_LABEL ||
			x->kind == DK_SCRIPT_LINE || (x->kind == DK_SERVER && strstr(x->what, "version") == NULL);
		int			n;

		for (size_t w = 0; !skip && w < sizeof(where) / sizeof(where[0]); w++)
			skip = names(x, where[w]);
		if (skip)
			continue;
		n = snprintf(buf + used, len - used, "%s%s %s -> %s", shown == 0 ? "; the runs differ in " : ", ",
					 x->what, x->base, x->new);
		if (n < 0)
			break;
		used += (size_t) n;
		shown++;
	}
	return buf;
}

/* The sentence: the rule of the first-ranked evidence, or one that fits, or none. */
static void
compose(cmp_diagnosis *d, const int *pos, const ranked *r, int n)
{
	int			rule = n > 0 && r[0].tier == 1 ? r[0].rule_k : -1;
	char		trig[320],
				ev1[200],
				ev2[200];
	int			shown = 0;

	/* else a rule whose evidence is ranked, else one that needs none */
	for (int i = 0; rule < 0 && i < n; i++)
		if (r[i].tier == 1)
			rule = r[i].rule_k;
	for (int k = 0; rule < 0 && k < NRULES; k++)
		if (pos[k] >= 0 && rules[k].evidence[0] == NULL)
			rule = k;
	ev1[0] = ev2[0] = '\0';
	for (int i = 0; i < n && shown < 2; i++)
		if (rule < 0 || rules[rule].evidence[0] == NULL || (r[i].tier == 1 && r[i].rule_k == rule))
			evidence_words(shown++ == 0 ? ev1 : ev2, sizeof(ev1), &d->evidence[i]);
	if (rule < 0 && n == 0)
	{
		char		what[320];

		snprintf(d->sentence, sizeof(d->sentence),
				 "nothing in the server's or the host's evidence changed beyond its noise%s",
				 candidates(what, sizeof(what), d));
		return;
	}
	if (rule < 0)
	{
		snprintf(d->sentence, sizeof(d->sentence),
				 "no rule fits the evidence; what changed most beyond its noise: %s%s%s", ev1,
				 ev2[0] ? ", " : "", ev2);
		return;
	}
	snprintf(d->rule, sizeof(d->rule), "%s", rules[rule].code);
	trigger_words(trig, sizeof(trig), d, &rules[rule]);
	if (trig[0] != '\0')
		snprintf(d->sentence, sizeof(d->sentence), "%s (%s)%s%s%s%s", trig, rules[rule].means,
				 ev1[0] ? ": " : "", ev1, ev2[0] ? ", " : "", ev2);
	else
		snprintf(d->sentence, sizeof(d->sentence), "%s%s%s%s%s",
				 rules[rule].means, ev1[0] ? ": " : "", ev1, ev2[0] ? ", " : "", ev2);
}

void
cmp_diag_sentence(const cmp_change *figures, cmp_diagnosis *d)
{
	double		latency = fmax(d->breakdown.latency_base_ms, d->breakdown.latency_new_ms);
	int			pos[NRULES];
	ranked	   *r = pgb_malloc(((size_t) d->nevidence + 1) * sizeof(ranked));
	int			n;

	(void) figures;
	if (!isfinite(latency))
		latency = 0.0;
	order_rules(d, latency, pos);
	n = rank_evidence(d, pos, latency, r);
	reorder(d, r, n);
	/* the ranks now index d->evidence from 0 */
	for (int i = 0; i < n; i++)
		r[i].e = i;
	compose(d, pos, r, n);
	free(r);
}

/* ---- text ------------------------------------------------------------------ */

/* v in the evidence's unit, as printed */
static const char *
level_text(char *buf, size_t len, const cmp_evidence *e, double v, bool has)
{
	if (!has || !isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.4g%s", v, e->unit == EU_BYTES ? " bytes" : e->unit == EU_MS ? " ms"
				 : e->unit == EU_PERCENT ? "%" : "");
	return buf;
}

/* The relative change and its interval: "+120% [+100%, +140%]", or "from 0". */
static const char *
change_text(char *buf, size_t len, const cmp_evidence *e)
{
	const cmp_change *c = &e->change;

	if (!(e->base > 0))
		snprintf(buf, len, "from 0");
	else if (e->new == 0.0)
		snprintf(buf, len, "-100%% (gone)");
	else if (c->has_interval)
		snprintf(buf, len, "%+.0f%% [%+.0f%%, %+.0f%%]", 100.0 * c->change / e->base,
				 100.0 * c->lo / e->base, 100.0 * c->hi / e->base);
	else
		snprintf(buf, len, "%+.0f%%", 100.0 * (e->new - e->base) / e->base);
	return buf;
}

static void
print_ranked(FILE *out, const cmp_diagnosis *d)
{
	for (int i = 0; i < d->nevidence && d->evidence[i].rank > 0 && i < DIAG_MAX_RANKED; i++)
	{
		const cmp_evidence *e = &d->evidence[i];
		char		a[48],
					b[48],
					c[96];

		if (i == 0)
			fprintf(out, "what changed beyond its noise (base -> new, per transaction):\n");
		fprintf(out, "  %d. %-40s %s -> %s  %s", e->rank, e->name, level_text(a, sizeof(a), e, e->base, true),
				level_text(b, sizeof(b), e, e->new, true), change_text(c, sizeof(c), e));
		if (isfinite(e->share) && fabs(e->share) >= 0.05)
			fprintf(out, ", %.0f%% of the latency change", 100.0 * e->share);
		fputc('\n', out);
	}
}

static void
print_breakdown(FILE *out, const cmp_breakdown *b)
{
	double		sum[2] = {0.0, 0.0};

	if (b->nparts == 0)
		return;
	fprintf(out, "latency per transaction taken apart (ms, base -> new):\n");
	for (int i = 0; i < b->nparts; i++)
	{
		const cmp_part *p = &b->part[i];
		bool		outside = i == b->nparts - 1 && strncmp(p->name, "outside", 7) == 0;
		bool		hb = !outside || b->has_base,
					hn = !outside || b->has_new;

		fprintf(out, "  %-40s ", p->name);
		fprintf(out, hb ? "%.3f" : "n/a", p->base_ms);
		fprintf(out, " -> ");
		fprintf(out, hn ? "%.3f" : "n/a", p->new_ms);
		if (hb && hn && p->change.has_interval &&
			(p->change.verdict == CV_BETTER || p->change.verdict == CV_WORSE))
			fprintf(out, "  %+.3f [%+.3f, %+.3f]", p->change.change, p->change.lo, p->change.hi);
		fputc('\n', out);
		sum[0] += hb ? p->base_ms : 0.0;
		sum[1] += hn ? p->new_ms : 0.0;
	}
	fprintf(out, "  %-40s %.3f -> %.3f (latency average %.3f -> %.3f)\n", "sum of the parts", sum[0],
			sum[1], b->latency_base_ms, b->latency_new_ms);
}

/* The evidence one side lacks: a line per side, never ranked. */
static void
print_unavailable(FILE *out, const cmp_diagnosis *d)
{
	for (int s = 0; s < 2; s++)
	{
		int			shown = 0,
					more = 0;

		for (int e = 0; e < d->nevidence; e++)
		{
			const cmp_evidence *ev = &d->evidence[e];

			if ((s == 0 ? ev->has_base : ev->has_new) || !(s == 0 ? ev->has_new : ev->has_base))
				continue;
			if (shown == 6)
			{
				more++;
				continue;
			}
			fprintf(out, "%s%s", shown == 0 ? (s == 0 ? "not available on base (not ranked): "
											  : "not available on new (not ranked): ") : ", ",
					ev->name);
			shown++;
		}
		if (more > 0)
			fprintf(out, " and %d more", more);
		if (shown > 0)
			fputc('\n', out);
	}
}

void
cmp_diag_print(FILE *out, const cmp_diagnosis *d)
{
	cmp_diag_print_differences(out, d);
	print_ranked(out, d);
	print_breakdown(out, &d->breakdown);
	print_unavailable(out, d);
	fprintf(out, "likely cause: %s\n", d->sentence);
}
