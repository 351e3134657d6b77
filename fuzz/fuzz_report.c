/*
 * fuzz_report.c — libFuzzer target for the report writers: the JSON
 * document of --report-json (report_json_write, report_json_write_ending)
 * and the page of --report-html (report_html_finish_ending), round trip.
 *
 * The input becomes a report_figures as figures_compute leaves it after a
 * run: its strings (file names, SQL lines, the command line, server and
 * failure messages, names of the connection and the rendezvous) are C
 * strings of any bytes, taken from the front of the input, each ended by
 * a NUL; its numbers are taken from the back (so that a dictionary token
 * put into a string leaves the numbers as they were): integers up to the
 * int64 and uint64 extremes, doubles huge, tiny, subnormal, negative
 * zero, and NaN or infinity for the figures that can be (a division by
 * zero: "NaN when none").  The report percentiles come from
 * figures_report_percentiles, as the program makes them, from a list of
 * distinct values 0 to 100 as --percentiles accepts.
 *
 * Last come the server's side (--server-stats) and a merged report's
 * inputs, so that an input made before them leaves them off: each
 * timeline record's server part (counters by their present bits, any
 * finite values, a checkpoint's start or TIMELINE_NO_TIME, wait events
 * with names of any bytes, the local server's processes) and host part
 * (-1: unknown), sometimes FR_MANY_POINTS records (past the 256
 * checkpoints and 64 events the run's sums keep), the server_run and the
 * commit check, and the sources of a merged report (system identifiers
 * that some runs share, server totals).  The wait events have one name
 * per event, as the monitor keeps them: two names that sanitize alike
 * are made one (a member name given twice is refused by our reader).
 *
 * Then both writers run into memory, and
 * - each must write every member of the schema as report_schema.h
 *   declares it: its type, null only where it may be
 *   (report_json_schema_violation);
 * - the JSON document must be valid UTF-8 (utf8_valid) and parse with our
 *   reader (json_read.c, whose UTF-8 check is its own), and every value
 *   must read back (fr_check_report, fuzz_report_check.c);
 * - the page must embed the same document: the text of its
 *   <script type="application/json" id="report-data"> element, up to the
 *   first "</script" as the browser's tokenizer ends it, must hold no
 *   '<' at all (so no "</script", "<!--" or "<script"), no raw U+2028 or
 *   U+2029, and must parse into a tree equal to the JSON document's.
 * Any mismatch aborts with a message (fr_fail).
 *
 * One limit is the fuzzer's, not the writer's: measured figures (six
 * decimals, %.6f) are kept below 1e100 in magnitude.  Printed so, a
 * figure of 1e120 or more takes 128 characters and more, beyond our
 * reader's 127 (json_read.h); no figure the program computes comes near
 * (the largest, a tps of INT64_MAX transactions in a microsecond, is
 * below 1e25).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_common.h"
#include "fuzz_report.h"
#include "pgbench/config/runconf.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/threshold.h"

#define FR_MAX_SCRIPTS 3
#define FR_MAX_COMMANDS 3
#define FR_MAX_ARGS 6
#define FR_MAX_POINTS 3
#define FR_MAX_ABORTS 2
#define FR_MAX_BUCKETS 8
#define FR_MAX_SETTINGS 3
#define FR_MAX_OWNED 256
#define FR_MEASURED_MAX 1e100
#define FR_MAX_SOURCES 4
#define FR_MAX_THRESHOLDS 3
#define FR_MANY_POINTS 260		/* past RUN_MAX_CHECKPOINTS (256) */
#define FR_MANY_ROUNDS 70		/* copies with names of their own: past RUN_MAX_EVENTS (64) */
#define FR_MAX_NAMES 256

/* The input: strings from the front (p), numbers from the back (q). */
typedef struct fr_in
{
	const uint8_t *p;
	const uint8_t *q;
	int			nowned;
	void	   *owned[FR_MAX_OWNED];	/* what to free after the run */
} fr_in;

/* What the figures point to, beside the strings and arrays in owned. */
typedef struct fr_store
{
	report_figures f;
	figures_script scripts[FR_MAX_SCRIPTS];
	figures_command commands[FR_MAX_SCRIPTS][FR_MAX_COMMANDS];
	hist		hists[1 + FR_MAX_SCRIPTS * (1 + FR_MAX_COMMANDS)];
	int			nhists;
	char	   *argv[FR_MAX_ARGS];
	timeline	tl;				/* the series' records (in memory) */
	server_info server;
	server_setting nondefault[FR_MAX_SETTINGS];
	run_abort	aborts[FR_MAX_ABORTS];
	const run_abort *abort_list[FR_MAX_ABORTS];
	report_target target;
	rendezvous_info rendezvous;
	run_config	cfg;			/* only its percentiles are read */
	server_run	srun;			/* --server-stats */
	report_source sources[FR_MAX_SOURCES];	/* a merged report's inputs */
	threshold	thresholds[FR_MAX_THRESHOLDS];	/* --threshold, checked */
	run_label	labels[3];		/* --label: fixed keys, values of any bytes */
	threshold_result checked[FR_MAX_THRESHOLDS];
	/* the wait event names so far: each sanitized form has one raw name */
	int			nnames;
	struct
	{
		char		raw[TIMELINE_WAIT_NAME];
		char		clean[UTF8_SANITIZED_SIZE(TIMELINE_WAIT_NAME)];
	}			names[FR_MAX_NAMES];
} fr_store;

void
fr_fail(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	dprintf(2, "fuzz_report: ");
	vdprintf(2, fmt, ap);
	dprintf(2, "\n");
	va_end(ap);
	abort();
}

/* ---- the input ------------------------------------------------------------ */

static void *
fr_alloc(fr_in *in, size_t size)
{
	void	   *m = calloc(1, size > 0 ? size : 1);

	if (m == NULL || in->nowned == FR_MAX_OWNED)
		fr_fail("out of memory or of owned slots");
	in->owned[in->nowned++] = m;
	return m;
}

/* The next n (at most 8) bytes from the back, big-endian; 0 when none. */
static uint64_t
take(fr_in *in, int n)
{
	uint64_t	v = 0;

	for (int i = 0; i < n && in->q > in->p; i++)
		v = v << 8 | *--in->q;
	return v;
}

static int64_t
take_i64(fr_in *in)
{
	static const int64_t edges[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT32_MAX,
	(int64_t) INT32_MAX + 1, INT64_C(1) << 53, (INT64_C(1) << 53) + 1, INT64_MAX};

	switch (take(in, 1) % 4)
	{
		case 0:
			return (int8_t) take(in, 1);
		case 1:
			return edges[take(in, 1) % PGB_LENGTHOF(edges)];
		case 2:
			return (int32_t) take(in, 4);
		default:
			return (int64_t) take(in, 8);
	}
}

/* An int: take_i64's, beyond the int range its nearest end. */
static int
take_int(fr_in *in)
{
	int64_t		v = take_i64(in);

	return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int) v;
}

/* Any double, NaN and infinities included. */
static double
take_double(fr_in *in)
{
	static const double edges[] = {0.0, -0.0, 0.1, 0.5, 1e-300, 4.9406564584124654e-324,
		2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993.0, 99.99999,
		123456.7890123456789, 1.0000000000000002, 0.30000000000000004, 1e15 + 0.3,
	1e21, -1e-7, INFINITY, -INFINITY, NAN};
	uint64_t	bits;
	double		d;

	switch (take(in, 1) % 6)
	{
		case 0:
			return (int8_t) take(in, 1);
		case 1:
			return edges[take(in, 1) % PGB_LENGTHOF(edges)];
		case 2:
			return (double) take_i64(in) / pow(10.0, (double) (take(in, 1) % 24));
		case 3:
			return (double) (int32_t) take(in, 4) / 1000.0;
		case 4:
			return ldexp((double) take(in, 7), (int) (take(in, 2) % 2200) - 1100);
		default:
			bits = take(in, 8);
			memcpy(&d, &bits, sizeof(d));
			return d;
	}
}

/* A double the program computes as a measured figure (see the top). */
static double
take_measured(fr_in *in)
{
	double		d = take_double(in);

	return isfinite(d) && fabs(d) > FR_MEASURED_MAX ? fmod(d, FR_MEASURED_MAX) : d;
}

/*
 * A measured figure the program never leaves NaN or infinite (a reading,
 * a difference of two, a sum of measurements, a share of a total that
 * cannot be 0): take_measured's, 0 for a non-finite one, so that the
 * same input bytes give the same figure otherwise.  The schema declares
 * these members never null (report_schema.h): NaN there would be an
 * input no run makes, which the schema check would refuse.
 */
static double
take_reading(fr_in *in)
{
	double		d = take_measured(in);

	return isfinite(d) ? d : 0.0;
}

/* A double the program keeps exact (sums): any finite one. */
static double
take_finite(fr_in *in)
{
	double		d = take_double(in);

	return isfinite(d) ? d : 0.0;
}

static bool
take_bool(fr_in *in)
{
	return take(in, 1) & 1;
}

/* The next C string from the front, at most max bytes (NUL ends it). */
static char *
take_str(fr_in *in, size_t max)
{
	size_t		avail = (size_t) (in->q - in->p);
	const uint8_t *nul = memchr(in->p, '\0', avail);
	size_t		len = nul != NULL ? (size_t) (nul - in->p) : avail;
	char	   *s;

	if (len > max)
		len = max;
	s = fr_alloc(in, len + 1);
	memcpy(s, in->p, len);
	in->p += len;
	if (in->p < in->q && *in->p == '\0')
		in->p++;
	return s;
}

/* A string into a char array of the figures (as take_str, not owned). */
static void
take_into(fr_in *in, char *buf, size_t size)
{
	size_t		avail = (size_t) (in->q - in->p);
	const uint8_t *nul = memchr(in->p, '\0', avail);
	size_t		len = nul != NULL ? (size_t) (nul - in->p) : avail;

	if (len > size - 1)
		len = size - 1;
	memcpy(buf, in->p, len);
	buf[len] = '\0';
	in->p += len;
	if (in->p < in->q && *in->p == '\0')
		in->p++;
}

/* ---- the figures ---------------------------------------------------------- */

/* A histogram as figures_compute points to (NULL a fourth of the time). */
static const hist *
take_hist(fr_in *in, fr_store *st)
{
	hist	   *h;

	if (take(in, 1) % 4 == 0 || st->nhists == (int) PGB_LENGTHOF(st->hists))
		return NULL;
	h = &st->hists[st->nhists++];
	h->highest = take_i64(in);
	h->nbuckets = 1 + (int) (take(in, 1) % FR_MAX_BUCKETS);
	h->counts = fr_alloc(in, sizeof(int64_t) * (size_t) h->nbuckets);
	for (int i = 0; i < h->nbuckets; i++)
		h->counts[i] = take_bool(in) ? 0 : take_i64(in);
	h->count = take_i64(in);
	h->clamped = take_i64(in);
	h->min = take_i64(in);
	h->max = take_i64(in);
	h->sum = take_finite(in);
	return h;
}

static void
take_series(fr_in *in, figures_series *s)
{
	s->count = take_i64(in);
	s->average = take_measured(in);
	s->stddev = take_measured(in);
	s->min = take_measured(in);
	s->max = take_measured(in);
}

static void
take_latency(fr_in *in, const report_figures *f, figures_latency *fl)
{
	take_series(in, &fl->series);
	fl->has_percentiles = take_bool(in);
	for (int i = 0; i < f->nreport_percentiles; i++)
		fl->report_ms[i] = take_measured(in);
}

static void
take_counts(fr_in *in, figures_counts *c)
{
#define TAKE_COUNTER(field, json_name, kind) c->field = take_i64(in);
	STATS_COUNTERS(TAKE_COUNTER)
#undef TAKE_COUNTER
	c->failed = take_i64(in);
	c->total = take_i64(in);
}

static void
take_script(fr_in *in, fr_store *st, int i)
{
	report_figures *f = &st->f;
	figures_script *fs = &st->scripts[i];

	fs->name = take_str(in, 1024);
	fs->sha256 = take_bool(in) ? NULL : take_str(in, 64);
	fs->weight = take_int(in);
	fs->weight_pct = take_reading(in);
	take_counts(in, &fs->counts);
	fs->processed_pct = take_measured(in);
	fs->tps = take_measured(in);
	take_latency(in, f, &fs->latency);
	fs->hist = take_hist(in, st);
	fs->latency_sum_us = take_finite(in);
	fs->latency_sum2_us = take_finite(in);
	fs->ncommands = (int) (take(in, 1) % (FR_MAX_COMMANDS + 1));
	fs->commands = st->commands[i];
	for (int j = 0; j < fs->ncommands; j++)
	{
		figures_command *fc = &fs->commands[j];

		fc->line = take_str(in, 1024);
		take_series(in, &fc->latency);
		fc->failures = take_i64(in);
		fc->retries = take_i64(in);
		take_latency(in, f, &fc->percentiles);
		fc->hist = take_hist(in, st);
		fc->latency_sum_us = take_finite(in);
		fc->latency_sum2_us = take_finite(in);
	}
}

/* The settings, and the report percentiles as figures_report_percentiles makes them. */
static void
take_settings(fr_in *in, fr_store *st)
{
	report_figures *f = &st->f;
	int			n = (int) (take(in, 1) % (PGB_MAX_PERCENTILES + 1));

	f->compat = take_int(in);
	f->transaction_type = take_str(in, 1024);
	f->partition_method = take_bool(in) ? NULL : take_str(in, 64);
	f->query_mode = take_str(in, 64);
	f->scale = take_int(in);
	f->partitions = take_int(in);
	f->nclients = take_int(in);
	f->nthreads = take_int(in);
	f->max_tries = (uint32_t) take(in, 4);
	f->nxacts = take_i64(in);
	f->duration = take_int(in);
	f->warmup = take_int(in);
	f->rate = take_double(in);
	f->throttled = take_bool(in);
	f->latency_limit_ms = take_double(in);
	f->latency_limited = take_bool(in);
	f->connect_each = take_bool(in);
	f->failures_detailed = take_bool(in);
	f->per_command = take_bool(in);
	f->server_version = take_bool(in) ? NULL : take_str(in, 256);
	f->aborted = take_bool(in);
	/* --percentiles: distinct numbers 0 .. 100 */
	for (int i = 0; i < n; i++)
	{
		double		p = fabs(fmod(take_finite(in), 100.000001));
		bool		kept = false;

		for (int j = 0; j < f->npercentiles; j++)
			kept = kept || f->percentiles[j] == p;
		if (!kept && p <= 100.0)
			f->percentiles[f->npercentiles++] = p;
	}
	st->cfg.npercentiles = f->npercentiles;
	memcpy(st->cfg.percentiles, f->percentiles, sizeof(f->percentiles));
	figures_report_percentiles(f, &st->cfg);
}

static void
take_run(fr_in *in, fr_store *st)
{
	report_figures *f = &st->f;

	f->duration_s = take_reading(in);
	f->tps = take_measured(in);
	take_counts(in, &f->counts);
	f->expected = take_i64(in);
	f->late = take_i64(in);
	f->latency_average_ms = take_measured(in);
	take_latency(in, f, &f->latency);
	f->lag_average_ms = take_measured(in);
	f->lag_max_ms = take_measured(in);
	f->lag_count = take_i64(in);
	f->initial_connection_ms = take_measured(in);
	f->average_connection_ms = take_measured(in);
	f->nscripts = 1 + (int) (take(in, 1) % FR_MAX_SCRIPTS);
	f->scripts = st->scripts;
	for (int i = 0; i < f->nscripts; i++)
		take_script(in, st, i);
}

/* A timeline record: any values, a few coarse buckets. */
static void
take_record(fr_in *in, timeline_record *r)
{
	int			nb;

	memset(r, 0, sizeof(*r));
	r->sources = 1;
	r->start_us = take_i64(in);
	r->end_us = take_i64(in);
	/* counters as a run makes them: their sum fits (figures add them) */
#define TAKE_COUNTER(field, json_name, kind) \
	r->delta.field = take_i64(in) & ((INT64_C(1) << 58) - 1);
	STATS_COUNTERS(TAKE_COUNTER)
#undef TAKE_COUNTER
	/* sums and readings as a run makes them: finite measured figures */
	r->delta.latency.sum = take_reading(in);
	r->delta.latency.sum2 = take_reading(in);
	r->delta.lag.sum = take_reading(in);
	r->latency_min_us = take_i64(in);
	r->latency_max_us = take_i64(in);
	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
		r->latency_pct_us[k] = take_measured(in);
	r->has_client = take_bool(in);
	r->cpu_user_s = take_reading(in);
	r->cpu_system_s = take_reading(in);
	r->busiest_thread_cpu = take_reading(in) / 100;
	r->rss_kb = take_i64(in);
	r->staged = take_bool(in);
	r->stage_target = take_reading(in);
	nb = (int) (take(in, 1) % (FR_MAX_BUCKETS + 1));
	for (int i = 0; i < nb; i++)
		r->buckets[take(in, 1) % TIMELINE_NBUCKETS] = (uint32_t) take(in, 4);
}

/* The server's identity and settings (any text; a few settings). */
static void
take_server(fr_in *in, fr_store *st)
{
	static const char *const what[] = {"pg_control_system()", "pg_settings", "version()"};
	static const char *const keys[SERVER_NKEY_SETTINGS] = SERVER_KEY_SETTINGS;
	server_info *si = &st->server;

	si->read = true;
	si->version_num = take_int(in);
	take_into(in, si->version, sizeof(si->version));
	take_into(in, si->system_identifier, sizeof(si->system_identifier));
	for (int k = 0; k < SERVER_NKEY_SETTINGS; k++)
	{
		si->key_seen[k] = take_bool(in);
		snprintf(si->key[k].name, sizeof(si->key[k].name), "%s", keys[k]);	/* as read */
		take_into(in, si->key[k].value, sizeof(si->key[k].value));
		take_into(in, si->key[k].unit, sizeof(si->key[k].unit));
		take_into(in, si->key[k].source, sizeof(si->key[k].source));
	}
	si->nondefault = st->nondefault;
	si->nnondefault = (int) (take(in, 1) % (FR_MAX_SETTINGS + 1));
	for (int i = 0; i < si->nnondefault; i++)
	{
		take_into(in, st->nondefault[i].name, sizeof(st->nondefault[i].name));
		take_into(in, st->nondefault[i].value, sizeof(st->nondefault[i].value));
		take_into(in, st->nondefault[i].unit, sizeof(st->nondefault[i].unit));
		take_into(in, st->nondefault[i].source, sizeof(st->nondefault[i].source));
	}
	si->truncated = take_bool(in);
	si->nunreadable = (int) (take(in, 1) % (SERVER_MAX_UNREADABLE + 1));
	for (int i = 0; i < si->nunreadable; i++)
		si->unreadable[i] = what[take(in, 1) % PGB_LENGTHOF(what)];
	st->f.extra.server = si;
}

static void
take_abort(fr_in *in, run_abort *a)
{
	client_failure *cf = &a->failure;

	a->at = take_i64(in);
	cf->kind = (failure_kind) (take(in, 1) % (FAILURE_PLAIN + 1));
	cf->client = take_int(in);
	cf->script = take_int(in);
	cf->command = take_int(in);
	cf->query = take_int(in);
	take_into(in, cf->what, sizeof(cf->what));
	take_into(in, cf->sqlstate, sizeof(cf->sqlstate));
	cf->ncauses = (int) (take(in, 1) % (FAILURE_MAX_CAUSES + 1));
	for (int i = 0; i < cf->ncauses; i++)
		take_into(in, cf->causes[i], sizeof(cf->causes[i]));
	take_into(in, cf->message, sizeof(cf->message));
}

/* The metadata: times, command line, connection (also a run that never began). */
static void
take_meta(fr_in *in, fr_store *st)
{
	figures_extra *e = &st->f.extra;

	take_into(in, e->start_iso, sizeof(e->start_iso));
	take_into(in, e->end_iso, sizeof(e->end_iso));
	e->start_epoch_s = take_measured(in);
	e->end_epoch_s = take_measured(in);
	e->argc = (int) (take(in, 1) % (FR_MAX_ARGS + 1));
	e->argv = st->argv;
	for (int i = 0; i < e->argc; i++)
		e->argv[i] = take_str(in, 4096);
	if (take_bool(in))
	{
		take_into(in, st->target.host, sizeof(st->target.host));
		take_into(in, st->target.port, sizeof(st->target.port));
		take_into(in, st->target.dbname, sizeof(st->target.dbname));
		e->target = &st->target;
	}
	e->run_id = take_bool(in) ? NULL : take_str(in, 64);
	/* keys are checked by the option (distinct, [A-Za-z0-9_.-]); values are any text */
	e->nlabels = (int) (take(in, 1) % 4);
	e->labels = st->labels;
	for (int i = 0; i < e->nlabels; i++)
		st->labels[i] = (run_label) {.key = (const char *[]) {"env", "k.1", "a-b_c"}[i],
		.value = take_str(in, RUN_LABEL_VALUE_MAX)};
}

/* The report files' extras: metadata, series, aborts, fleet. */
static void
take_extra(fr_in *in, fr_store *st)
{
	figures_extra *e = &st->f.extra;
	int			npoints;

	take_meta(in, st);
	e->random_seed = take(in, 8);
	e->interval_s = take_bool(in) ? 0.0 : take_finite(in);
	e->series_incomplete = take_bool(in);
	npoints = (int) (take(in, 1) % (FR_MAX_POINTS + 1));
	timeline_init(&st->tl, 1000000, false);
	for (int i = 0; i < npoints; i++)
	{
		timeline_record r;

		take_record(in, &r);
		if (!timeline_append(&st->tl, &r))
			fr_fail("out of memory for a record");
	}
	e->timeline = e->interval_s > 0 ? &st->tl : NULL;
	e->busiest_thread_cpu_pct = take_bool(in) ? NAN : take_reading(in);	/* NaN: not read */
	e->busiest_thread = take_int(in);
	e->client_bound = take_bool(in);
	e->intervals_client_bound = take_int(in);
	if (take_bool(in))
		take_server(in, st);
	e->naborts = (int) (take(in, 1) % (FR_MAX_ABORTS + 1));
	e->aborts = st->abort_list;
	for (int i = 0; i < e->naborts; i++)
	{
		take_abort(in, &st->aborts[i]);
		st->abort_list[i] = &st->aborts[i];
	}
	e->latency_hist = take_hist(in, st);
	e->latency_sum_us = take_finite(in);
	e->latency_sum2_us = take_finite(in);
	if (take_bool(in))
	{
		take_into(in, st->rendezvous.group, sizeof(st->rendezvous.group));
		st->rendezvous.size = take_int(in);
		st->rendezvous.member = take_int(in);
		st->rendezvous.start_server_us = take_i64(in);
		st->rendezvous.clock_offset_us = take_i64(in);
		st->rendezvous.clock_rtt_us = take_i64(in);
		e->rendezvous = &st->rendezvous;
	}
	e->instances = take_int(in);
	e->progress_s = take_int(in);
	e->start_epoch_us = take_i64(in);
	e->conn_elapsed_us = take_i64(in);
	e->bench_duration_us = take_i64(in);
	e->conn_duration_us = take_i64(in);
	e->lag_sum_us = take_finite(in);
}

/* ---- the server's side (--server-stats) and a merged report's inputs ----- */

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
static void
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

/* ---- the writers ---------------------------------------------------------- */

/*
 * Where a writer's output goes: a buffer kept from one input to the next
 * (an open_memstream grows a fresh one for each, and the page's 100 KB
 * made its reallocations, zeroing and ASan's page faults half of the
 * target's time).
 */
typedef struct fr_sink
{
	char	   *buf;
	size_t		len;
	size_t		cap;
} fr_sink;

static ssize_t
sink_write(void *cookie, const char *p, size_t n)
{
	fr_sink    *s = cookie;

	if (n > s->cap - s->len)
	{
		size_t		cap = s->cap > 0 ? s->cap : 1 << 17;

		while (n > cap - s->len)
			cap *= 2;
		s->buf = realloc(s->buf, cap);
		if (s->buf == NULL)
			fr_fail("out of memory for the output");
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return (ssize_t) n;
}

/* A stream that writes into s, emptied first. */
static FILE *
sink_open(fr_sink *s)
{
	cookie_io_functions_t io = {.write = sink_write};
	FILE	   *f;

	s->len = 0;
	f = fopencookie(s, "w", io);
	if (f == NULL)
		fr_fail("fopencookie failed");
	return f;
}

/*
 * The document the last writer wrote (what) kept to report_schema.h: each
 * member at its declared type, null only where it may be.
 */
static void
check_schema(const char *what)
{
	report_member bad = report_json_schema_violation();

	if (bad != RM_NONE)
		fr_fail("%s writes %s \"%s\" against its declaration (report_schema.h)", what,
				report_object_headings[report_members[bad].object], report_key(bad));
}

/*
 * The JSON document of f (NULL: none) and end, checked; its tree in *doc.
 */
static fr_sink json_text;		/* the last document write_json wrote */

static void
write_json(const report_figures *f, const report_ending *end, json_doc *doc)
{
	fr_sink    *text = &json_text;
	FILE	   *mem = sink_open(text);
	bool		ok;
	char		err[256];

	ok = report_json_write_ending(mem, f, end);
	if (fclose(mem) != 0 || !ok)
		fr_fail("report_json_write_ending failed");
	check_schema("the JSON document");
	if (!utf8_valid(text->buf, text->len))
		fr_fail("the JSON document is not valid UTF-8");
	if (!json_parse(text->buf, text->len, doc, err, sizeof(err)))
		fr_fail("the JSON document does not parse: %s", err);
	fr_check_report(&doc->root, f, end);
}

/*
 * What the page must embed for the document text: each '<', '>', '&',
 * U+2028 and U+2029 (found only inside strings of a JSON text) written as
 * its \u escape, every other byte as it is (doc/report-html.md).  Into
 * *out (grown as needed).
 *
 * Not instrumented for coverage: a loop over every byte of the document,
 * whose branches tell the fuzzer nothing the writer's own loop
 * (report_html_put_json) does not, and whose comparisons, each a call
 * into libFuzzer's comparison tracing, were about 14% of an execution;
 * the escapes are written by hand rather than by sprintf.  noinline: so
 * that it is not inlined into an instrumented caller.
 */
__attribute__((noinline, no_sanitize("coverage")))
static void
escaped_for_page(const fr_sink *text, fr_sink *out)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *) text->buf;
	char	   *o;

	if (out->cap < 6 * text->len + 1)
	{
		out->cap = 6 * text->len + 1;
		out->buf = realloc(out->buf, out->cap);
		if (out->buf == NULL)
			fr_fail("out of memory for the expected page data");
	}
	o = out->buf;
	for (size_t i = 0; i < text->len; i++)
	{
		unsigned	code = p[i];

		if (code == 0xE2 && i + 2 < text->len && p[i + 1] == 0x80 &&
			(p[i + 2] == 0xA8 || p[i + 2] == 0xA9))
		{
			code = p[i + 2] == 0xA8 ? 0x2028 : 0x2029;
			i += 2;
		}
		if (code == '<' || code == '>' || code == '&' || code > 0xFF)
		{
			/* "\\u%04x" */
			o[0] = '\\';
			o[1] = 'u';
			o[2] = hex[code >> 12 & 0xF];
			o[3] = hex[code >> 8 & 0xF];
			o[4] = hex[code >> 4 & 0xF];
			o[5] = hex[code & 0xF];
			o += 6;
		}
		else
			*o++ = (char) code;
	}
	out->len = (size_t) (o - out->buf);
}

/*
 * The page of f must embed the document json wrote (json_text): the text
 * of its report-data element, which the browser ends at the first
 * "</script" (any case), holds no '<' at all, so it ends at the first
 * '<', where "</script" must be; it holds no raw U+2028 or U+2029; and it
 * is, byte for byte, the document with those characters escaped (so it
 * parses into the same tree: they occur only in strings).  The rest of
 * the page is the same for every input.
 */
static void
check_html(const report_figures *f, const report_ending *end)
{
	static const char open_tag[] = "<script type=\"application/json\" id=\"report-data\">";
	static fr_sink sink,
				expected;
	FILE	   *out = sink_open(&sink);
	const char *page,
			   *data,
			   *close;
	size_t		len;
	report_file_error file_err;

	if (!report_html_finish_ending(&out, "page.html", f, end, &file_err))
		fr_fail("report_html_finish_ending failed");
	check_schema("the page's document");
	page = sink.buf;
	len = sink.len;
	data = memmem(page, len, open_tag, strlen(open_tag));
	if (data == NULL)
		fr_fail("the page has no report-data element");
	data += strlen(open_tag);
	if (*data++ != '\n')
		fr_fail("the report-data element does not begin with a newline");
	close = memchr(data, '<', len - (size_t) (data - page));
	if (close == NULL || strncasecmp(close, "</script>", 9) != 0)
		fr_fail("the report-data element holds '<' (\"%.20s\")", close != NULL ? close : "");
	if (memmem(data, (size_t) (close - data), "\xe2\x80\xa8", 3) != NULL ||
		memmem(data, (size_t) (close - data), "\xe2\x80\xa9", 3) != NULL)
		fr_fail("the embedded data holds a raw U+2028 or U+2029");
	escaped_for_page(&json_text, &expected);
	if (expected.len != (size_t) (close - data) || memcmp(expected.buf, data, expected.len) != 0)
	{
		size_t		at = 0,
					n = (size_t) (close - data);

		while (at < expected.len && at < n && expected.buf[at] == data[at])
			at++;
		fr_fail("the embedded data is not the JSON document, escaped: at byte %zu of %zu, \"%.30s\" instead of \"%.30s\"",
				at, n, data + at, expected.buf + at);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fr_store st;
	fr_in		in = {.p = data, .q = data + size};
	report_ending end = {.outcome = REPORT_COMPLETED};
	uint64_t	mode = take(&in, 1);
	json_doc	doc;

	/*
	 * Everything but the wait event names (66 KB): only the first nnames
	 * of them are read, and nnames is reset here.
	 */
	memset(&st, 0, offsetof(fr_store, names));
	if (mode % 8 == 0)
	{
		/* nothing ran: versions, outcome, error, command line, times */
		end.outcome = take_bool(&in) ? REPORT_FAILED_TO_START : REPORT_INTERRUPTED;
		end.signal = take_str(&in, 64);
		end.server_version = take_bool(&in) ? NULL : take_str(&in, 256);
		end.error = take_bool(&in) ? NULL : take_str(&in, 1024);
		end.compat = (int) take(&in, 1);
		take_meta(&in, &st);
		end.run_id = st.f.extra.run_id;
		end.meta = take_bool(&in) ? NULL : &st.f.extra;
		write_json(NULL, &end, &doc);
		check_html(NULL, &end);
	}
	else
	{
		take_settings(&in, &st);
		take_run(&in, &st);
		take_extra(&in, &st);
		end.outcome = st.f.aborted ? REPORT_ABORTED : REPORT_COMPLETED;
		if (st.f.aborted && take_bool(&in))
			end.error = take_str(&in, 1024);
		if (mode % 8 == 1)
		{
			end.outcome = REPORT_INTERRUPTED;
			end.signal = take_str(&in, 64);
		}
		take_server_side(&in, &st);
		write_json(&st.f, &end, &doc);
		check_html(&st.f, &end);
	}
	json_doc_free(&doc);
	timeline_free(&st.tl);
	for (int i = 0; i < in.nowned; i++)
		free(in.owned[i]);
	return 0;
}
