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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_common.h"
#include "fuzz_report_int.h"
#include "pgbench/config/runconf.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/threshold.h"


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
