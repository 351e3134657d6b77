/*
 * fuzz_report_check.c — fr_check_report (fuzz_report.h): the document the
 * JSON writer wrote, read back with our reader, against the figures it
 * was written from, member by member in the order of doc/report-json.md.
 *
 * What each kind of value must read back as:
 * - a string: the C string with each ill-formed UTF-8 subpart replaced
 *   by U+FFFD (utf8_sanitize), byte for byte;
 * - an integer: exactly, int64 or (the random seed) uint64;
 * - a setting (put_setting) or an exact sum (put_exact): the same double,
 *   bit for bit but for the sign of zero;
 * - a measured figure (put_num, six decimals): within half a unit of the
 *   sixth decimal, plus the reading's own rounding;
 * - a non-finite double: null;
 * - a percentile's member name: "p" and a number that reads back as the
 *   percentile exactly (and so no two names alike).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_report.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/threshold.h"

/* A value of the document and its path, for the messages. */
typedef struct chk
{
	const json_value *v;
	char		path[192];
} chk;

/* Member key of c (key NULL: c's value itself); missing: fail. */
static const json_value *
at(const chk *c, const char *key)
{
	const json_value *v = key != NULL ? json_get(c->v, key) : c->v;

	if (v == NULL)
		fr_fail("%s.%s: missing", c->path, key);
	return v;
}

static chk
sub(const chk *c, const char *key, json_kind kind)
{
	chk			s = {.v = at(c, key)};

	snprintf(s.path, sizeof(s.path), "%s.%s", c->path, key);
	if (s.v->kind != kind)
		fr_fail("%s: found %s", s.path, json_kind_name(s.v));
	return s;
}

/* Item i of the array c, which must have n items. */
static chk
item(const chk *c, int i, int n)
{
	chk			s = {.v = json_at(c->v, i)};

	if (c->v->kind != JSON_ARRAY || c->v->n != n)
		fr_fail("%s: expected %d items, found %s of %d", c->path, n, json_kind_name(c->v), c->v->n);
	snprintf(s.path, sizeof(s.path), "%s[%d]", c->path, i);
	return s;
}

static void
want_null(const chk *c, const char *key)
{
	if (at(c, key)->kind != JSON_NULL)
		fr_fail("%s.%s: expected null, found %s", c->path, key ? key : "", json_kind_name(at(c, key)));
}

static void
want_bool(const chk *c, const char *key, bool x)
{
	const json_value *v = at(c, key);

	if (v->kind != JSON_BOOL || v->boolean != x)
		fr_fail("%s.%s: expected %s", c->path, key, x ? "true" : "false");
}

static void
want_int(const chk *c, const char *key, int64_t x)
{
	const json_value *v = at(c, key);

	if (v->kind != JSON_NUMBER || v->number != JSON_INT64 || v->u.integer != x)
		fr_fail("%s.%s: expected %" PRId64 ", found %s %.17g", c->path, key ? key : "", x,
				json_kind_name(v), json_num(v));
}

static void
want_uint(const chk *c, const char *key, uint64_t x)
{
	const json_value *v = at(c, key);

	if (x <= INT64_MAX)
		want_int(c, key, (int64_t) x);
	else if (v->kind != JSON_NUMBER || v->number != JSON_UINT64 || v->u.uinteger != x)
		fr_fail("%s.%s: expected %" PRIu64, c->path, key, x);
}

/* A double: null when x is not finite, else within tol of x. */
static void
want_double(const chk *c, const char *key, double x, double tol)
{
	const json_value *v = at(c, key);

	if (!isfinite(x))
		want_null(c, key);
	else if (v->kind != JSON_NUMBER || !(fabs(json_num(v) - x) <= tol))
		fr_fail("%s.%s: expected %.17g, found %s %.17g", c->path, key ? key : "", x,
				json_kind_name(v), json_num(v));
}

/* A setting or an exact sum: the same double. */
static void
want_exact(const chk *c, const char *key, double x)
{
	want_double(c, key, x, 0.0);
}

/* A measured figure: six decimals. */
static void
want_num(const chk *c, const char *key, double x)
{
	want_double(c, key, x, 5e-7 + fabs(x) * DBL_EPSILON);
}

/* A string as the writer must make it valid UTF-8; s NULL: null. */
static void
want_str(const chk *c, const char *key, const char *s)
{
	const json_value *v = at(c, key);
	size_t		n;
	char	   *clean;

	if (s == NULL)
	{
		want_null(c, key);
		return;
	}
	n = strlen(s);
	clean = malloc(UTF8_SANITIZED_SIZE(n));
	if (clean == NULL)
		fr_fail("out of memory");
	n = utf8_sanitize(clean, s, n);
	if (v->kind != JSON_STRING || (size_t) v->n != n || memcmp(v->u.string, clean, n) != 0)
		fr_fail("%s.%s: the string of %zu bytes (%zu sanitized) reads back as %s of %d bytes",
				c->path, key ? key : "", strlen(s), n, json_kind_name(v), v->n);
	free(clean);
}

/* A text that is written as null when empty (not known). */
static const char *
known(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

/* Member key: false when it must be null (!present), else its object in *s. */
static bool
object_or_null(const chk *c, const char *key, bool present, chk *s)
{
	if (!present)
		want_null(c, key);
	else
		*s = sub(c, key, JSON_OBJECT);
	return present;
}

/* ---- the parts ------------------------------------------------------------ */

/* "percentiles": n members, "p<at[i]>": ms[i] (none unless has). */
static void
want_percentiles(const chk *c, bool has, int n, const double *at_pct, const double *ms)
{
	chk			p = sub(c, "percentiles", JSON_OBJECT);

	if (p.v->n != (has ? n : 0))
		fr_fail("%s: %d members, expected %d", p.path, p.v->n, has ? n : 0);
	for (int i = 0; i < p.v->n; i++)
	{
		const char *name = json_member_name(p.v, i);
		char	   *end;

		if (name[0] != 'p' || strtod(name + 1, &end) != at_pct[i] || *end != '\0')
			fr_fail("%s: member %d is \"%s\" for percentile %.17g", p.path, i, name, at_pct[i]);
		want_num(&p, name, ms[i]);
	}
}

static void
want_series(const chk *c, const figures_series *s)
{
	static const char *const names[] = {"average", "stddev", "min", "max"};
	const double v[] = {s->average, s->stddev, s->min, s->max};

	want_int(c, "count", s->count);
	for (int i = 0; i < 4; i++)
		want_num(c, names[i], v[i]);
}

static void
want_latency(const chk *c, const report_figures *f, const figures_latency *fl)
{
	chk			l = sub(c, "latency_ms", JSON_OBJECT);

	want_series(&l, &fl->series);
	want_percentiles(&l, fl->has_percentiles, f->nreport_percentiles, f->report_percentiles,
					 fl->report_ms);
}

static void
want_counts(const chk *c, const figures_counts *fc)
{
#define WANT_COUNTER(field, json_name, kind) want_int(c, json_name, fc->field);
	STATS_COUNTERS(WANT_COUNTER)
#undef WANT_COUNTER
	want_int(c, "failed", fc->failed);
	want_int(c, "total", fc->total);
}

/* "latency_histogram": h (null when NULL), its non-empty buckets. */
static void
want_hist(const chk *c, const hist *h, double sum, double sum2)
{
	chk			hc,
				b;
	int			n = 0,
				k = 0;

	if (!object_or_null(c, "latency_histogram", h != NULL, &hc))
		return;
	want_str(&hc, "layout", "log-linear");
	want_int(&hc, "sub_bucket_bits", HIST_SUB_BITS);
	want_int(&hc, "highest_us", h->highest);
	want_int(&hc, "count", h->count);
	want_int(&hc, "clamped", h->clamped);
	want_int(&hc, "min_us", h->min);
	want_int(&hc, "max_us", h->max);
	want_exact(&hc, "sum_us", h->sum);
	want_exact(&hc, "latency_sum_us", sum);
	want_exact(&hc, "latency_sum_squares_us", sum2);
	b = sub(&hc, "buckets", JSON_ARRAY);
	for (int i = 0; i < h->nbuckets; i++)
		n += h->counts[i] != 0;
	for (int i = 0; i < h->nbuckets; i++)
	{
		chk			pair;

		if (h->counts[i] == 0)
			continue;
		pair = item(&b, k++, n);
		want_int(&(chk) {.v = item(&pair, 0, 2).v}, NULL, i);
		want_int(&(chk) {.v = item(&pair, 1, 2).v}, NULL, h->counts[i]);
	}
	if (n == 0 && b.v->n != 0)
		fr_fail("%s: items of an empty histogram", b.path);
}

static void
want_commands(const chk *c, const report_figures *f, const figures_script *fs)
{
	chk			list;

	if (!f->per_command)
	{
		want_null(c, "commands");
		return;
	}
	list = sub(c, "commands", JSON_ARRAY);
	if (list.v->n != fs->ncommands)
		fr_fail("%s: %d items, expected %d", list.path, list.v->n, fs->ncommands);
	for (int j = 0; j < fs->ncommands; j++)
	{
		const figures_command *fc = &fs->commands[j];
		chk			cc = item(&list, j, fs->ncommands),
					lat = sub(&cc, "latency_ms", JSON_OBJECT);

		want_int(&cc, "number", j);
		want_str(&cc, "line", fc->line);
		want_series(&lat, &fc->latency);
		want_percentiles(&lat, fc->percentiles.has_percentiles, f->nreport_percentiles,
						 f->report_percentiles, fc->percentiles.report_ms);
		want_int(&cc, "failures", fc->failures);
		want_int(&cc, "retries", fc->retries);
		want_hist(&cc, fc->hist, fc->latency_sum_us, fc->latency_sum2_us);
	}
}

static void
want_scripts(const chk *c, const report_figures *f)
{
	chk			list = sub(c, "scripts", JSON_ARRAY);

	for (int i = 0; i < f->nscripts; i++)
	{
		const figures_script *fs = &f->scripts[i];
		chk			s = item(&list, i, f->nscripts),
					tx = sub(&s, "transactions", JSON_OBJECT);

		want_int(&s, "number", i + 1);
		want_str(&s, "name", fs->name);
		want_str(&s, "sha256", fs->sha256);
		want_int(&s, "weight", fs->weight);
		want_num(&s, "weight_pct", fs->weight_pct);
		want_counts(&tx, &fs->counts);
		want_num(&s, "processed_pct", fs->processed_pct);
		want_num(&s, "tps", fs->tps);
		want_latency(&s, f, &fs->latency);
		want_commands(&s, f, fs);
		want_hist(&s, fs->hist, fs->latency_sum_us, fs->latency_sum2_us);
	}
}

static void
want_settings(const chk *c, const report_figures *f)
{
	chk			s = sub(c, "settings", JSON_OBJECT),
				pct = sub(&s, "percentiles", JSON_ARRAY);

	want_str(&s, "transaction_type", f->transaction_type);
	want_int(&s, "scaling_factor", f->scale);
	want_str(&s, "partition_method", f->partition_method);
	want_int(&s, "partitions", f->partitions);
	want_str(&s, "query_mode", f->query_mode);
	want_int(&s, "clients", f->nclients);
	want_int(&s, "threads", f->nthreads);
	want_int(&s, "max_tries", f->max_tries);
	want_int(&s, f->duration <= 0 ? "transactions_per_client" : "duration_s",
			 f->duration <= 0 ? f->nxacts : f->duration);
	want_null(&s, f->duration <= 0 ? "duration_s" : "transactions_per_client");
	want_exact(&s, "rate_tps", f->rate > 0 ? f->rate : NAN);
	want_exact(&s, "latency_limit_ms", f->latency_limited ? f->latency_limit_ms : NAN);
	want_bool(&s, "connect_each", f->connect_each);
	want_bool(&s, "failures_detailed", f->failures_detailed);
	for (int i = 0; i < f->npercentiles; i++)
		want_exact(&(chk) {.v = item(&pct, i, f->npercentiles).v}, NULL, f->percentiles[i]);
	want_uint(&s, "random_seed", f->extra.random_seed);
	if (f->warmup > 0)
		want_int(&s, "warmup_s", f->warmup);
	else
		want_null(&s, "warmup_s");
	want_bool(&s, "server_stats", f->server_stats);
	if (f->server_stats)
		want_int(&s, "server_sample_interval_ms", f->server_sample_ms);
	else
		want_null(&s, "server_sample_interval_ms");
}

/* The run's figures, from "aborted" to "scripts". */
static void
want_figures(const chk *c, const report_figures *f)
{
	chk			tx = sub(c, "transactions", JSON_OBJECT),
				lag;

	want_bool(c, "aborted", f->aborted);
	want_num(c, "duration_s", f->duration_s);
	want_num(c, "tps", f->tps);
	want_num(c, "initial_connection_ms", f->connect_each ? NAN : f->initial_connection_ms);
	want_num(c, "average_connection_ms", f->connect_each ? f->average_connection_ms : NAN);
	want_counts(&tx, &f->counts);
	if (f->duration <= 0)
		want_int(&tx, "expected", f->expected);
	else
		want_null(&tx, "expected");
	if (f->latency_limited)
		want_int(&tx, "late", f->late);
	else
		want_null(&tx, "late");
	want_num(c, "text_latency_average_ms", f->latency_average_ms);
	want_bool(c, "text_latency_average_derived", f->latency_average_derived);
	want_latency(c, f, &f->latency);
	if (object_or_null(c, "lag_ms", f->throttled, &lag))
	{
		want_num(&lag, "average", f->lag_average_ms);
		want_num(&lag, "max", f->lag_count > 0 ? f->lag_max_ms : NAN);
	}
	want_scripts(c, f);
}

/* ---- the extras ----------------------------------------------------------- */

/* A text as the writer puts a server message: without its final newlines. */
static void
want_line(const chk *c, const char *key, const char *text)
{
	size_t		len = strlen(text);
	char	   *copy;

	while (len > 0 && text[len - 1] == '\n')
		len--;
	copy = strndup(text, len);
	if (copy == NULL)
		fr_fail("out of memory");
	want_str(c, key, copy);
	free(copy);
}

static void
want_index(const chk *c, const char *key, bool shown, int v)
{
	if (shown && v >= 0)
		want_int(c, key, v);
	else
		want_null(c, key);
}

static void
want_abort(const chk *c, const run_abort *a)
{
	const client_failure *cf = &a->failure;
	bool		positioned = cf->kind == FAILURE_COMMAND || cf->kind == FAILURE_SQL ||
		cf->kind == FAILURE_RESULT || cf->kind == FAILURE_NO_RESULTS;
	chk			causes = sub(c, "causes", JSON_ARRAY);
	char		line[FAILURE_TEXT_MAX + 256];

	failure_format(cf, line, sizeof(line));
	want_int(c, "client", cf->client);
	want_num(c, "at_s", 0.000001 * (double) a->at);
	want_str(c, "kind", failure_kind_name(cf->kind));
	want_index(c, "script", positioned, cf->script);
	want_index(c, "command", positioned, cf->command);
	want_index(c, "query", cf->kind == FAILURE_SQL || cf->kind == FAILURE_RESULT, cf->query);
	want_str(c, "sqlstate", known(cf->sqlstate));
	for (int i = 0; i < cf->ncauses; i++)
		want_str(&(chk) {.v = item(&causes, i, cf->ncauses).v}, NULL, cf->causes[i]);
	if (cf->ncauses == 0 && causes.v->n != 0)
		fr_fail("%s: causes that were not given", causes.path);
	want_line(c, "message", cf->message);
	want_line(c, "line", line);
}

/* compat, command line, times, connection: of a run or of one that never began */
static void
want_run_meta(const chk *c, int compat, const figures_extra *e)
{
	chk			argv = sub(c, "command_line", JSON_ARRAY),
				t;

	want_int(c, "compat", compat);
	for (int i = 0; i < e->argc; i++)
		want_str(&(chk) {.v = item(&argv, i, e->argc).v}, NULL, e->argv[i]);
	if (e->argc == 0 && argv.v->n != 0)
		fr_fail("%s: arguments that were not given", argv.path);
	want_str(c, "start_time", known(e->start_iso));
	want_num(c, "start_epoch_s", e->start_iso[0] != '\0' ? e->start_epoch_s : NAN);
	want_str(c, "end_time", known(e->end_iso));
	want_num(c, "end_epoch_s", e->end_iso[0] != '\0' ? e->end_epoch_s : NAN);
	if (object_or_null(c, "connection", e->target != NULL, &t))
	{
		want_str(&t, "host", known(e->target->host));
		want_str(&t, "port", known(e->target->port));
		want_str(&t, "database", known(e->target->dbname));
	}
}

static void
want_meta(const chk *c, const report_figures *f)
{
	const figures_extra *e = &f->extra;
	chk			aborts = sub(c, "aborted_clients", JSON_ARRAY);

	want_run_meta(c, f->compat, e);
	for (int i = 0; i < e->naborts; i++)
	{
		chk			a = item(&aborts, i, e->naborts);

		want_abort(&a, e->aborts[i]);
	}
	if (e->naborts == 0 && aborts.v->n != 0)
		fr_fail("%s: aborts that were not given", aborts.path);
}

/* ---- the server's side (report_json_server.c) ----------------------------- */

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

/* Object c has exactly n members. */
static void
want_members(const chk *c, int n)
{
	if (c->v->kind != JSON_OBJECT || c->v->n != n)
		fr_fail("%s: %d members, expected %d", c->path, c->v->n, n);
}

/*
 * The counters of present (TIMELINE_SERVER_COUNTERS): an object per
 * group in the declaration's order, a member per present counter, counts
 * as the integer nearest (llround), times (ms) as measured figures.
 */
static void
want_counters(const chk *c, const char *key, uint64_t present, const double *value)
{
	chk			o = sub(c, key, JSON_OBJECT),
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
			g = sub(&o, d->group, JSON_OBJECT);
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
	chk			we = sub(c, "wait_events", JSON_OBJECT),
				counts = sub(&we, "counts", JSON_OBJECT);

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
	cpu = sub(&ho, "cpu_s", JSON_OBJECT);
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
static void
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
	cm = sub(&ss, "commits", JSON_OBJECT);
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
	ck = sub(&ss, "checkpoints", JSON_ARRAY);
	for (int i = 0; i < sum.ncheckpoints; i++)
	{
		chk			one = item(&ck, i, sum.ncheckpoints);

		want_num(&one, "start_s", sum.start_s[i]);
		want_num(&one, "ended_by_s", sum.end_s[i]);
		want_members(&one, 2);
	}
	if (sum.ncheckpoints == 0 && ck.v->n != 0)
		fr_fail("%s: checkpoints that did not end", ck.path);
	want_bool(&ss, "checkpoints_truncated", sum.truncated);
	want_waits(&ss, run->wait_all_states, sum.samples, sum.events, sum.nevents, sum.other);
	notes = sub(&ss, "notes", JSON_ARRAY);
	nnotes = run->nnotes < 0 ? 0 : run->nnotes > MONITOR_MAX_NOTES ? MONITOR_MAX_NOTES : run->nnotes;
	for (int i = 0; i < nnotes; i++)
		want_str(&(chk) {.v = item(&notes, i, nnotes).v}, NULL, run->notes[i]);
	if (nnotes == 0 && notes.v->n != 0)
		fr_fail("%s: notes that were not given", notes.path);
	want_members(&ss, 12);
}

/* --threshold's verdicts: each expression, whether it passed, its value (null: not measured). */
static void
want_thresholds(const chk *c, const figures_extra *e)
{
	chk			list;

	if (e->thresholds == NULL)
	{
		want_null(c, "thresholds");
		return;
	}
	list = sub(c, "thresholds", JSON_ARRAY);
	for (int i = 0; i < e->nthresholds; i++)
	{
		const threshold_result *r = &e->thresholds[i];
		chk			t = item(&list, i, e->nthresholds);

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
static void
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
	in = sub(c, "inputs", JSON_ARRAY);
	for (int i = 0; i < e->nsources; i++)
	{
		const report_source *s = &e->sources[i];
		chk			one = item(&in, i, e->nsources),
					rv;

		want_str(&one, "file", s->file);
		want_str(&one, "run_id", known(s->run_id));
		if (object_or_null(&one, "rendezvous", s->in_group, &rv))
		{
			want_str(&rv, "group", s->group.group);
			want_int(&rv, "size", s->group.size);
			want_int(&rv, "member", s->group.member);
			want_int(&rv, "start_server_epoch_us", s->group.start_server_us);
			want_members(&rv, 4);
		}
		want_str(&one, "system_identifier", known(s->system_identifier));
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
	sv = sub(c, "servers", JSON_ARRAY);
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
		one = item(&sv, k++, nservers);
		want_str(&one, "system_identifier", known(s->system_identifier));
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
	b = sub(&h, "buckets", JSON_ARRAY);
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
		pair = item(&b, n++, nb);
		want_int(&(chk) {.v = item(&pair, 0, 2).v}, NULL, i);
		want_int(&(chk) {.v = item(&pair, 1, 2).v}, NULL, r->buckets[i]);
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

static void
want_point(const chk *c, const timeline_record *r, bool throttled, const server_run *run)
{
	static const double at_pct[FIGURES_POINT_NPERCENTILES] = FIGURES_POINT_PERCENTILES;
	chk			lat = sub(c, "latency_ms", JSON_OBJECT),
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
	chk			o = key != NULL ? sub(c, key, JSON_OBJECT) : *c;

	if (named)
		want_str(&o, "name", s->name);
	want_str(&o, "value", s->value);
	want_str(&o, "unit", s->unit[0] != '\0' ? s->unit : NULL);
	want_str(&o, "source", s->source);
}

/* "server" and "client" (report_json_extra.c) */
static void
want_server_client(const chk *c, const figures_extra *e)
{
	const server_info *si = e->server;
	chk			sv,
				cl;

	if (object_or_null(c, "server", si != NULL, &sv))
	{
		chk			settings = sub(&sv, "settings", JSON_OBJECT),
					nd = sub(&sv, "non_default", JSON_ARRAY),
					ur = sub(&sv, "unreadable", JSON_ARRAY);

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
			chk			one = item(&nd, i, si->nnondefault);

			want_setting(&one, NULL, &si->nondefault[i], true);
		}
		want_bool(&sv, "non_default_truncated", si->truncated);
		for (int i = 0; i < si->nunreadable; i++)
		{
			chk			one = item(&ur, i, si->nunreadable);

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

static void
want_extra(const chk *c, const report_figures *f)
{
	const figures_extra *e = &f->extra;
	chk			m = sub(c, "merge", JSON_OBJECT),
				s,
				rv;

	want_server_client(c, e);
	want_server_stats(c, e, f->warmup);
	if (object_or_null(c, "series", e->timeline != NULL, &s))
	{
		chk			points = sub(&s, "points", JSON_ARRAY);
		int			n = e->timeline->n;

		want_exact(&s, "interval_s", e->interval_s);
		want_bool(&s, "incomplete", e->series_incomplete);
		want_int(&s, "sub_bucket_bits", TIMELINE_SUB_BITS);
		for (int i = 0; i < n; i++)
		{
			chk			p = item(&points, i, n);
			timeline_record r;

			if (!timeline_get(e->timeline, i, &r))
				fr_fail("record %d cannot be read back", i);
			want_point(&p, &r, f->throttled, e->server_run);
		}
		if (n == 0 && points.v->n != 0)
			fr_fail("%s: points that were not given", points.path);
	}
	want_hist(c, e->latency_hist, e->latency_sum_us, e->latency_sum2_us);
	if (object_or_null(c, "rendezvous", e->rendezvous != NULL, &rv))
	{
		want_str(&rv, "group", e->rendezvous->group);
		want_int(&rv, "size", e->rendezvous->size);
		want_int(&rv, "member", e->rendezvous->member);
		want_int(&rv, "start_server_epoch_us", e->rendezvous->start_server_us);
		want_int(&rv, "clock_offset_us", e->rendezvous->clock_offset_us);
		want_int(&rv, "clock_rtt_us", e->rendezvous->clock_rtt_us);
	}
	want_int(&m, "instances", e->instances);
	if (e->progress_s > 0)
		want_int(&m, "progress_s", e->progress_s);
	else
		want_null(&m, "progress_s");
	want_int(&m, "start_epoch_us", e->start_epoch_us);
	want_int(&m, "conn_elapsed_us", e->conn_elapsed_us);
	want_int(&m, "bench_duration_us", e->bench_duration_us);
	want_int(&m, "conn_duration_us", e->conn_duration_us);
	want_exact(&m, "lag_sum_us", e->lag_sum_us);
	want_inputs_servers(c, e);
	want_thresholds(c, e);
}

/* --label: each key with its value, in order ({} without them) */
static void
want_labels(const chk *c, const figures_extra *e)
{
	chk			l = sub(c, "labels", JSON_OBJECT);

	want_members(&l, e != NULL ? e->nlabels : 0);
	for (int i = 0; e != NULL && i < e->nlabels; i++)
	{
		if (strcmp(json_member_name(l.v, i), e->labels[i].key) != 0)
			fr_fail("%s: member %d is \"%s\", not \"%s\"", l.path, i, json_member_name(l.v, i),
					e->labels[i].key);
		want_str(&l, e->labels[i].key, e->labels[i].value);
	}
}

void
fr_check_report(const json_value *root, const report_figures *f, const report_ending *end)
{
	static const char *const outcomes[] = {
		[REPORT_COMPLETED] = "completed",
		[REPORT_ABORTED] = "aborted",
		[REPORT_INTERRUPTED] = "interrupted",
		[REPORT_FAILED_TO_START] = "failed-to-start",
	};
	chk			c = {.v = root, .path = "$"};
	const char *run_id;

	if (root->kind != JSON_OBJECT)
		fr_fail("the document is %s", json_kind_name(root));
	want_int(&c, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	want_str(&c, "pgbench_version", PGBENCH_VERSION);
	run_id = f != NULL ? f->extra.run_id : end->run_id;
	want_str(&c, "run_id", run_id != NULL && run_id[0] != '\0' ? run_id : NULL);
	want_labels(&c, f != NULL ? &f->extra : end->meta);
	want_str(&c, "server_version", f != NULL ? f->server_version : end->server_version);
	want_str(&c, "outcome", outcomes[end->outcome]);
	if (end->outcome == REPORT_INTERRUPTED)
		want_str(&c, "signal", end->signal);
	want_str(&c, "error", end->error);
	if (f == NULL)
	{
		static const figures_extra unknown;

		want_run_meta(&c, end->compat, end->meta != NULL ? end->meta : &unknown);
		/* versions, run id, labels, outcome, error, and the 7 of the metadata */
		if (root->n != 14 + (end->outcome == REPORT_INTERRUPTED))
			fr_fail("$: %d members without figures", root->n);
		return;
	}
	want_meta(&c, f);
	want_settings(&c, f);
	want_figures(&c, f);
	want_extra(&c, f);
}
