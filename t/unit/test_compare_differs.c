/*
 * test_compare_differs.c — what differs between two reports of --compare,
 * what breaks the comparison and the client host's CPU split
 * (compare_diag.h: cmp_diag_differences, cmp_diag_warnings, cmp_diag_host,
 * cmp_diag_print_differences), on small reports built here as JSON text
 * and parsed by the project's reader into a side of one run each.
 *
 * Checked: server settings shown with their units as PostgreSQL shows them
 * (and their values in bytes or ms), a secret's value never shown, the -D
 * variables in each of their four spellings, a script's line that differs,
 * the client_bound warning from the worker threads' CPU (never from
 * client.bound alone), host_saturated, the host split's shares over the
 * used intervals (warm-up and the short last one left out), the list's
 * bound and the text.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/utf8.h"
#include "tap.h"

/* ---- reports ------------------------------------------------------------------ */

/* One series point: its end, worker thread CPU %, CPU seconds of each part. */
typedef struct point_spec
{
	double		t_s;
	double		interval_s;
	double		thread_pct;		/* client.busiest_thread_cpu_pct */
	double		client_s;		/* client.cpu_user_s (cpu_system_s: a quarter more) */
	double		server_s;		/* server.processes.cpu_user_s; < 0: null */
	double		busy_s;			/* host.cpu_s.user (system: a quarter more) */
	double		idle_s;			/* host.cpu_s.idle (iowait: a quarter more) */
} point_spec;

/* A report: the parts that vary between the tests, as JSON text. */
typedef struct report_spec
{
	const char *command_line;	/* the array's items */
	const char *settings;		/* server.settings' members */
	const char *non_default;	/* server.non_default's items */
	const char *scripts;		/* the array's items */
	bool		bound;			/* client.bound */
	int			warmup_s;		/* 0: null */
	int			npoints;
	point_spec	point[8];
} report_spec;

static void
append(char **buf, size_t *len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
append(char **buf, size_t *len, size_t *used, const char *fmt, ...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(*buf + *used, *len - *used, fmt, ap);
	va_end(ap);
	if ((size_t) n >= *len - *used)
	{
		*len = 2 * (*len + (size_t) n);
		*buf = realloc(*buf, *len);
		va_start(ap, fmt);
		vsnprintf(*buf + *used, *len - *used, fmt, ap);
		va_end(ap);
	}
	*used += (size_t) n;
}

static void
append_point(char **buf, size_t *len, size_t *used, const point_spec *p)
{
	append(buf, len, used, "{\"t_s\": %g, \"interval_s\": %g, \"client\": {\"cpu_user_s\": %g, "
		   "\"cpu_system_s\": %g, \"busiest_thread_cpu_pct\": %g, \"rss_kb\": 1000}, ",
		   p->t_s, p->interval_s, p->client_s, p->client_s / 4, p->thread_pct);
	if (p->server_s < 0)
		append(buf, len, used, "\"server\": {\"processes\": null}, ");
	else
		append(buf, len, used, "\"server\": {\"processes\": {\"count\": 5, \"cpu_user_s\": %g, "
			   "\"cpu_system_s\": 0}}, ", p->server_s);
	append(buf, len, used, "\"host\": {\"cpus\": 4, \"mem_total_kb\": 16384000, \"cpu_s\": "
		   "{\"user\": %g, \"nice\": 0, \"system\": %g, \"idle\": %g, \"iowait\": %g, \"irq\": 0, "
		   "\"softirq\": 0, \"steal\": 0}}}", p->busy_s, p->busy_s / 4, p->idle_s, p->idle_s / 4);
}

/* The report of r as JSON text (malloc'd). */
static char *
report_text(const report_spec *r)
{
	size_t		len = 4096,
				used = 0;
	char	   *buf = malloc(len);

	append(&buf, &len, &used, "{\"outcome\": \"completed\", \"compat\": 17, \"server_version\": \"16.4\", "
		   "\"command_line\": [\"pgbench\", %s], \"labels\": {\"n\": \"1\"}, "
		   "\"connection\": {\"host\": \"/tmp\", \"port\": \"5432\", \"database\": \"bench\"}, "
		   "\"settings\": {\"transaction_type\": \"t.sql\", \"scaling_factor\": 1, "
		   "\"query_mode\": \"simple\", \"clients\": 4, \"threads\": 2, \"percentiles\": [50, 99], "
		   "\"random_seed\": 1, \"warmup_s\": %s}, \"scripts\": [%s], "
		   "\"client\": {\"busiest_thread\": 0, \"busiest_thread_busy_pct\": 50, \"bound\": %s}, ",
		   r->command_line, r->warmup_s > 0 ? "5" : "null", r->scripts, r->bound ? "true" : "false");
	append(&buf, &len, &used, "\"server\": {\"version_num\": 160004, \"version\": \"PostgreSQL 16.4\", "
		   "\"system_identifier\": \"7\", \"settings\": {%s}, \"non_default\": [%s]}, "
		   "\"server_stats\": {\"checkpoints\": []}, \"series\": {\"interval_s\": 1, \"points\": [",
		   r->settings, r->non_default);
	for (int i = 0; i < r->npoints; i++)
	{
		if (i > 0)
			append(&buf, &len, &used, ", ");
		append_point(&buf, &len, &used, &r->point[i]);
	}
	append(&buf, &len, &used, "]}}");
	return buf;
}

/* A side of one run: r parsed into run (the caller frees run->doc). */
static bool
side_of(cmp_side *side, cmp_run *run, const char *file, const report_spec *r)
{
	char	   *text = report_text(r);
	char		err[256];
	bool		ok;

	memset(side, 0, sizeof(*side));
	memset(run, 0, sizeof(*run));
	ok = json_parse(text, strlen(text), &run->doc, err, sizeof(err));
	if (!ok)
		tap_diag("%s: %s", file, err);
	free(text);
	run->file = file;
	side->nruns = 1;
	side->runs = run;
	return ok;
}

/* ---- the two reports ------------------------------------------------------------ */

#define SCRIPT(hash, line2) \
	"{\"number\": 1, \"name\": \"t.sql\", \"sha256\": \"" hash "\", \"weight\": 1, " \
	"\"commands\": [{\"number\": 0, \"line\": \"\\\\set a 1\"}, {\"number\": 1, \"line\": \"" line2 "\"}]}"
#define HASH_A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HASH_B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define SETTING(name, value, unit) \
	"\"" name "\": {\"value\": \"" value "\", \"unit\": " unit ", \"source\": \"configuration file\"}"

/*
 * Base: a host half idle, the client at 25% of it, the server at 12.5%;
 * new: a saturated host, a worker thread at 95% of a CPU.  Base's first
 * point is in its 5 s warm-up and its last one is short: both left out.
 */
static const report_spec base_spec = {
	.command_line = "\"-c\", \"4\", \"-D\", \"a=1\", \"-Db=2\", \"--define=c=3\", \"--define\", \"d=4\", "
	"\"-D\", \"x=1\", \"-D\", \"x=2\", \"-f\", \"t.sql\", \"-r\"",
	.settings = SETTING("shared_buffers", "16384", "\"8kB\"") ", "
	SETTING("work_mem", "65536", "\"kB\"") ", "
	SETTING("checkpoint_timeout", "30", "\"s\"") ", "
	SETTING("max_connections", "100", "null") ", "
	SETTING("autovacuum_work_mem", "-1", "\"kB\"") ", "
	SETTING("log_rotation_age", "1440", "\"min\"") ", "
	SETTING("vacuum_cost_delay", "0.5", "\"ms\"") ", "
	SETTING("data_checksums", "off", "null"),
	.non_default = "{\"name\": \"my.secret_key\", \"value\": \"hunter2\", \"unit\": null, \"source\": \"session\"}, "
	"{\"name\": \"shared_buffers\", \"value\": \"1\", \"unit\": \"8kB\", \"source\": \"session\"}",
	.scripts = SCRIPT(HASH_A, "select :a"),
	.warmup_s = 5,
	.npoints = 5,
	.point = {
		{5, 1, 99, 8, 8, 8, 0},	/* in the warm-up: a saturated second */
		{6, 1, 40, 1.6, 1, 3.2, 3.2},
		{7, 1, 50, 1.6, 1, 3.2, 3.2},
		{8, 1, 60, 1.6, 1, 3.2, 3.2},
		{8.2, 0.2, 99, 8, 8, 8, 0},	/* short: left out */
	},
};

static const report_spec new_spec = {
	.command_line = "\"-c\", \"4\", \"-D\", \"a=1\", \"-Db=5\", \"--define=c=3\", \"-nDe=6\", "
	"\"-Dx=2\", \"--defi\", \"y=7\", \"--log\", \"-Dw=1\", \"--log-prefix\", \"-Dq=1\", "
	"\"-f\", \"t.sql\", \"-r\", \"--\", \"-Dz=1\"",
	.settings = SETTING("shared_buffers", "16", "\"8kB\"") ", "
	SETTING("work_mem", "4096", "\"kB\"") ", "
	SETTING("checkpoint_timeout", "3600", "\"s\"") ", "
	SETTING("max_connections", "100", "null") ", "
	SETTING("autovacuum_work_mem", "1048576", "\"kB\"") ", "
	SETTING("log_rotation_age", "60", "\"min\"") ", "
	SETTING("vacuum_cost_delay", "2", "\"ms\"") ", "
	SETTING("data_checksums", "on", "null"),
	.non_default = "{\"name\": \"max_wal_size\", \"value\": \"1024\", \"unit\": \"MB\", \"source\": \"session\"}",
	.scripts = SCRIPT(HASH_B, "select :a + 1"),
	.bound = false,
	.npoints = 3,
	.point = {
		{1, 1, 95, 2, -1, 7, 0.4},
		{2, 1, 96, 2, -1, 7, 0.4},
		{3, 1, 20, 2, -1, 7, 0.4},
	},
};

/* ---- checks ------------------------------------------------------------------- */

static const cmp_difference *
find_diff(const cmp_diagnosis *d, const char *what)
{
	for (int i = 0; i < d->ndiffs; i++)
		if (strcmp(d->diff[i].what, what) == 0)
			return &d->diff[i];
	return NULL;
}

/* The difference called what is of kind and shows base | new. */
static void
is_diff(const cmp_diagnosis *d, const char *what, cmp_diff_kind kind, const char *base,
		const char *new_text)
{
	const cmp_difference *x = find_diff(d, what);

	if (!tap_ok(x != NULL, "%s: listed", what))
		return;
	tap_ok(x->kind == kind && strcmp(x->base, base) == 0 && strcmp(x->new, new_text) == 0,
		   "%s: %s | %s (got kind %d, %s | %s)", what, base, new_text, (int) x->kind, x->base, x->new);
}

static bool
has_warning(const cmp_diagnosis *d, const char *code, const char *text)
{
	for (int i = 0; i < d->nwarnings; i++)
		if (strcmp(d->warning[i].code, code) == 0 &&
			(text == NULL || strcmp(d->warning[i].text, text) == 0))
			return true;
	return false;
}

static void
test_settings(const cmp_diagnosis *d)
{
	const cmp_difference *x;

	is_diff(d, "shared_buffers", DK_SETTING, "128MB", "128kB");
	x = find_diff(d, "shared_buffers");
	tap_ok(x != NULL && x->base_num == 134217728.0 && x->new_num == 131072.0,
		   "shared_buffers: in bytes");
	is_diff(d, "work_mem", DK_SETTING, "64MB", "4MB");
	is_diff(d, "checkpoint_timeout", DK_SETTING, "30s", "1h");
	x = find_diff(d, "checkpoint_timeout");
	tap_ok(x != NULL && x->base_num == 30000.0 && x->new_num == 3600000.0, "checkpoint_timeout: in ms");
	is_diff(d, "max_wal_size", DK_SETTING, "(none)", "1GB");
	is_diff(d, "autovacuum_work_mem", DK_SETTING, "-1", "1GB");
	is_diff(d, "log_rotation_age", DK_SETTING, "1d", "1h");
	is_diff(d, "vacuum_cost_delay", DK_SETTING, "500us", "2ms");
	is_diff(d, "my.secret_key", DK_SETTING, "********", "(none)");
	tap_ok(find_diff(d, "max_connections") == NULL, "an equal setting: not listed");
	is_diff(d, "data_checksums", DK_SERVER, "off", "on");
	tap_ok(find_diff(d, "server version") == NULL, "the same server version: not listed");
	for (int i = 0; i < d->ndiffs; i++)
		if (d->diff[i].kind == DK_SETTING && strcmp(d->diff[i].what, "data_checksums") == 0)
			tap_ok(false, "data_checksums: listed once, as the server's");
}

static void
test_defines(const cmp_diagnosis *d)
{
	tap_ok(find_diff(d, "-D a") == NULL, "-D a (-D NAME=VALUE): the same, not listed");
	is_diff(d, "-D b", DK_VARIABLE, "2", "5");	/* -DNAME=VALUE */
	tap_ok(find_diff(d, "-D c") == NULL, "-D c (--define=NAME=VALUE): the same, not listed");
	is_diff(d, "-D d", DK_VARIABLE, "4", "(none)");	/* --define NAME=VALUE */
	is_diff(d, "-D e", DK_VARIABLE, "(none)", "6");	/* in a cluster: -nDe=6 */
	tap_ok(find_diff(d, "-D x") == NULL, "-D x: the last definition counts");
	is_diff(d, "-D y", DK_VARIABLE, "(none)", "7");	/* --defi: as getopt abbreviates */
	is_diff(d, "-D w", DK_VARIABLE, "(none)", "1");	/* after --log (no argument) */
	tap_ok(find_diff(d, "-D q") == NULL, "--log-prefix's value: no -D");
	tap_ok(find_diff(d, "-D z") == NULL, "-D after --: no option");
	tap_ok(find_diff(d, "-D 4") == NULL && find_diff(d, "-D t.sql") == NULL, "options' values: no -D");
}

static void
test_scripts(const cmp_diagnosis *d)
{
	is_diff(d, "script 1", DK_SCRIPT, "t.sql sha256:0123456789ab", "t.sql sha256:fedcba987654");
	is_diff(d, "script 1 line 2", DK_SCRIPT_LINE, "select :a", "select :a + 1");
	tap_ok(find_diff(d, "script 1 line 1") == NULL, "an equal line: not listed");
	tap_ok(find_diff(d, "script 1 weight") == NULL, "an equal weight: not listed");
	tap_ok(find_diff(d, "clients (-c)") == NULL && find_diff(d, "percentiles (--percentiles)") == NULL,
		   "equal options: not listed");
	tap_ok(find_diff(d, "warmup_s (--warmup)") != NULL, "the warm-up: listed as its option");
}

static void
test_warnings(const cmp_diagnosis *d)
{
	tap_ok(has_warning(d, "client_bound", "new.json was client-bound: a worker thread used 95% of a "
					   "CPU (median interval)"), "client_bound from the worker threads' CPU");
	tap_ok(!has_warning(d, "client_bound", "base.json was client-bound: a worker thread used 50% of a "
						"CPU (median interval)"), "base (median 50%%): not client-bound");
	tap_ok(has_warning(d, "host_saturated", "the client host was saturated during new.json: its CPUs "
					   "were idle 5% of the time (median interval); pgbench, the server and other "
					   "processes competed for them"), "host_saturated");
	tap_ok(has_warning(d, "different_scripts", NULL), "different_scripts: the hashes differ");
	tap_ok(!has_warning(d, "checkpoints_one_side", NULL), "no checkpoint on either side");
}

static void
test_host(const cmp_diagnosis *d)
{
	const cmp_host_split *a = &d->host[0],
			   *b = &d->host[1];

	/* base: per used point 8 s of CPU, idle 4, client 2, server 1 */
	tap_ok(a->has && a->has_server && a->cpus == 4, "base: host and server read");
	tap_is_double(a->client, 0.25, 1e-12, "base: pgbench's share");
	tap_is_double(a->server, 0.125, 1e-12, "base: the server's share");
	tap_is_double(a->idle, 0.5, 1e-12, "base: idle");
	tap_is_double(a->rest, 0.125, 1e-12, "base: the rest");
	tap_is_double(a->busiest_thread_cpu_pct, 50.0, 1e-12, "base: the median thread (warm-up out)");
	/* new: 9.25 s of CPU, idle 0.5, client 2.5, no server processes */
	tap_ok(b->has && !b->has_server, "new: host read, no server processes");
	tap_is_double(b->client, 2.5 / 9.25, 1e-12, "new: pgbench's share");
	tap_is_double(b->idle, 0.5 / 9.25, 1e-12, "new: idle");
	tap_is_double(b->rest, 6.25 / 9.25, 1e-12, "new: the rest (server in it)");
}

/* client.bound alone (a thread waiting for a CPU) is no client_bound */
static void
test_bound_alone(void)
{
	report_spec spec = base_spec;
	cmp_side	a,
				b;
	cmp_run		ra,
				rb;
	cmp_diagnosis *d = calloc(1, sizeof(cmp_diagnosis));

	spec.bound = true;
	if (side_of(&a, &ra, "a.json", &spec) && side_of(&b, &rb, "b.json", &spec))
	{
		cmp_diag_differences(&a, &b, d);
		cmp_diag_warnings(&a, &b, d);
		tap_ok(d->nwarnings == 0, "client.bound alone: no warning (got %d)", d->nwarnings);
		tap_ok(d->ndiffs == 0, "the same report: nothing differs (got %d)", d->ndiffs);
	}
	json_doc_free(&ra.doc);
	json_doc_free(&rb.doc);
	free(d);
}

/* Many -D that differ: the list stops at its bound and counts the rest; texts masked. */
static void
test_bound_and_mask(void)
{
	report_spec sa = base_spec,
				sb = base_spec;
	char		line[8192];
	size_t		used = 0;
	cmp_side	a,
				b;
	cmp_run		ra,
				rb;
	cmp_diagnosis *d = calloc(1, sizeof(cmp_diagnosis));
	const cmp_difference *x;

	used += (size_t) snprintf(line, sizeof(line), "\"-D\", \"evil=\\u001b[2J\\nx\", \"-Dlong=");
	for (int i = 0; i < 100; i++)
		used += (size_t) snprintf(line + used, sizeof(line) - used, "\xc3\xa9");
	used += (size_t) snprintf(line + used, sizeof(line) - used, "\"");
	for (int i = 0; i < CMP_DIAG_MAX_DIFFS + 10; i++)
		used += (size_t) snprintf(line + used, sizeof(line) - used, ", \"-Dv%d=%d\"", i, i);
	sa.command_line = line;
	sb.command_line = "\"-c\", \"4\"";
	if (side_of(&a, &ra, "a.json", &sa) && side_of(&b, &rb, "b.json", &sb))
	{
		cmp_diag_differences(&a, &b, d);
		tap_is_int(d->ndiffs, CMP_DIAG_MAX_DIFFS, "the list: at its bound");
		tap_is_int(d->ndiffs + d->ndiffs_more, CMP_DIAG_MAX_DIFFS + 12, "the rest counted");
		is_diff(d, "-D evil", DK_VARIABLE, "?[2J?x", "(none)");
		x = find_diff(d, "-D long");
		tap_ok(x != NULL && strlen(x->base) == CMP_DIAG_TEXT - 2 &&
			   utf8_valid(x->base, strlen(x->base)), "a long text: cut between two characters");
	}
	json_doc_free(&ra.doc);
	json_doc_free(&rb.doc);
	free(d);
}

/* How many times needle is in s. */
static int
count_of(const char *s, const char *needle)
{
	int			n = 0;

	for (const char *p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The text: the list, each warning once on stderr, the host line. */
static void
test_print(const cmp_diagnosis *d)
{
	char	   *out = NULL;
	size_t		len = 0;
	FILE	   *f = open_memstream(&out, &len);
	char		err[4096];

	tap_stderr_catch();
	cmp_diag_print_differences(f, d);
	tap_stderr_release(err, sizeof(err));
	fclose(f);
	tap_ok(strncmp(out, "what differs (base | new):\n", 27) == 0, "text: the list's head");
	tap_ok(strstr(out, "\n  server setting shared_buffers: 128MB | 128kB\n") != NULL,
		   "text: a server setting");
	tap_ok(strstr(out, "\n  -D b: 2 | 5\n") != NULL, "text: a variable");
	tap_ok(strstr(out, "\nhost CPU (share of its CPUs, base | new): pgbench 25% | 27%, server 12% | -, "
				  "rest 12% | 68%, idle 50% | 5%\n") != NULL, "text: the host line");
	tap_ok(strstr(err, "pgbench: warning: new.json was client-bound: a worker thread used 95% of a CPU "
				  "(median interval)\n") != NULL, "stderr: client_bound");
	tap_is_int(count_of(err, "client-bound"), 1, "stderr: client_bound once");
	tap_is_int(count_of(err, "saturated"), 1, "stderr: host_saturated once");
	tap_is_int(count_of(err, "pgbench: warning: "), d->nwarnings, "stderr: every warning, once");
	if (out != NULL && strstr(out, "host CPU") == NULL)
		tap_diag("%s", out);
	free(out);
}

int
main(void)
{
	cmp_side	base,
				other;
	cmp_run		rb,
				ro;
	cmp_diagnosis *d = calloc(1, sizeof(cmp_diagnosis));

	if (tap_ok(side_of(&base, &rb, "base.json", &base_spec) &&
			   side_of(&other, &ro, "new.json", &new_spec), "the reports parse"))
	{
		cmp_diag_differences(&base, &other, d);
		cmp_diag_warnings(&base, &other, d);
		cmp_diag_host(&base, &d->host[0]);
		cmp_diag_host(&other, &d->host[1]);
		test_settings(d);
		test_defines(d);
		test_scripts(d);
		test_warnings(d);
		test_host(d);
		test_print(d);
	}
	test_bound_alone();
	test_bound_and_mask();
	json_doc_free(&rb.doc);
	json_doc_free(&ro.doc);
	free(d);
	return tap_done();
}
