/*
 * test_merge.c — --merge-reports (merge.h, merge_int.h) without a server:
 * reports written here as JSON text, merged in memory (merge_text,
 * merge_check_groups, merge_report) and, for the messages, through
 * merge_run with the reports as small files in a temporary directory.
 * Accepted reports give exactly the expected figures (summed counts,
 * latency from the exact sums, percentiles from the merged histogram, the
 * series point by point, the time window in the server's clock or each
 * report's own); each refusal gives its one message (file and member
 * path), printed by merge_run alone, with nothing on stdout and no report
 * file left.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgbench/offline/merge.h"
#include "merge_int.h"
#include "tap.h"

/* Two run ids as random_run_id writes them. */
#define RUN_A "0123456789abcdef0123456789abcdef"
#define RUN_B "fedcba9876543210fedcba9876543210"

/* The agreed start of the rendezvous in the tests (server clock, us). */
#define SERVER_START INT64_C(1795600000000000)

/*
 * One report to write: its identity, its place in time and its
 * successful transactions' latencies (each below 128 us, so that a
 * latency is its own histogram bucket: percentiles come out exact).  The
 * first nfirst latencies fall in the series' first second, the rest in
 * the second.
 */
typedef struct report_spec
{
	const char *run_id;			/* NULL: null */
	const char *group;			/* NULL: no rendezvous */
	int			size;			/* the group's size and this member */
	int			member;
	int			clients;
	int			failures;		/* other_failures, in the first second */
	int64_t		start_epoch_us;
	int64_t		conn_elapsed_us;
	int64_t		bench_duration_us;
	int			nlat;
	int			lat[4];
	int			nfirst;
} report_spec;

/* Report a: three transactions, one failure; no rendezvous. */
static const report_spec spec_a = {
	.run_id = RUN_A, .clients = 2, .failures = 1,
	.start_epoch_us = SERVER_START + 3000, .conn_elapsed_us = 100000,
	.bench_duration_us = 1500000, .nlat = 3, .lat = {10, 20, 30}, .nfirst = 2,
};

/* Report b: two transactions; started 2 ms after a. */
static const report_spec spec_b = {
	.run_id = RUN_B, .clients = 3,
	.start_epoch_us = SERVER_START + 5000, .conn_elapsed_us = 200000,
	.bench_duration_us = 1000000, .nlat = 2, .lat = {40, 50}, .nfirst = 1,
};

/* The temporary directory the files go in (the working directory). */
static char tmpdir[] = "/tmp/test_merge_XXXXXX";

/* ---- writing reports ------------------------------------------------------- */

/* "[[v,1],...]" of latencies lat[from .. to) (ascending, distinct). */
static void
put_buckets(FILE *f, const int *lat, int from, int to)
{
	fputc('[', f);
	for (int i = from; i < to; i++)
		fprintf(f, "%s[%d,1]", i > from ? "," : "", lat[i]);
	fputc(']', f);
}

/* A series point of latencies lat[from .. to), with failures. */
static void
put_point(FILE *f, const int *lat, int from, int to, int failures)
{
	int64_t		sum = 0;

	for (int i = from; i < to; i++)
		sum += lat[i];
	fprintf(f, "{\"processed\":%d,\"failures\":%d,\"retries\":0,\"skipped\":0,\"histogram\":",
			to - from, failures);
	if (to == from)
	{
		fputs("null}", f);
		return;
	}
	fprintf(f, "{\"min_us\":%d,\"max_us\":%d,\"latency_sum_us\":%" PRId64
			",\"lag_sum_us\":0,\"lag_max_us\":0,\"buckets\":", lat[from], lat[to - 1], sum);
	put_buckets(f, lat, from, to);
	fputs("}}", f);
}

/* A "transactions" object of n successful, failures failed. */
static void
put_counts(FILE *f, int n, int failures, bool late)
{
	fprintf(f, "{\"processed\":%d,\"failed\":%d,\"serialization_failures\":0,"
			"\"deadlock_failures\":0,\"other_failures\":%d,\"connection_failures\":0,"
			"\"skipped\":0,\"retried\":0,\"retries\":0,\"total\":%d%s}",
			n, failures, failures, n + failures, late ? ",\"late\":null" : "");
}

/* The settings every report of the tests shares but for its clients. */
static void
put_settings(FILE *f, int clients)
{
	fprintf(f, "\"settings\":{\"transaction_type\":\"t.sql\",\"scaling_factor\":1,"
			"\"partition_method\":null,\"partitions\":0,\"query_mode\":\"simple\","
			"\"clients\":%d,\"threads\":1,\"max_tries\":1,\"transactions_per_client\":null,"
			"\"duration_s\":2,\"rate_tps\":null,\"latency_limit_ms\":null,"
			"\"connect_each\":false,\"failures_detailed\":false,\"percentiles\":[],"
			"\"random_seed\":1},", clients);
}

/* The JSON report r describes (malloc'd), as a run of ours writes it. */
static char *
report_text(const report_spec *r)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *f = open_memstream(&text, &len);
	int64_t		sum = 0,
				sum2 = 0;

	for (int i = 0; i < r->nlat; i++)
	{
		sum += r->lat[i];
		sum2 += (int64_t) r->lat[i] * r->lat[i];
	}
	fprintf(f, "{\"schema_version\":3,\"outcome\":\"completed\",\"compat\":16,\"run_id\":");
	fprintf(f, r->run_id != NULL ? "\"%s\"," : "null,", r->run_id);
	if (r->group != NULL)
		fprintf(f, "\"rendezvous\":{\"group\":\"%s\",\"size\":%d,\"member\":%d,"
				"\"start_server_epoch_us\":%" PRId64 "},", r->group, r->size, r->member,
				SERVER_START);
	else
		fputs("\"rendezvous\":null,", f);
	fputs("\"server_version\":\"16.0\",\"connection\":{\"host\":\"h\",\"port\":\"5432\","
		  "\"database\":\"d\"},", f);
	put_settings(f, r->clients);
	fputs("\"aborted\":false,\"aborted_clients\":[],\"transactions\":", f);
	put_counts(f, r->nlat, r->failures, true);
	fprintf(f, ",\"latency_ms\":{\"count\":%d,\"min\":%.3f,\"max\":%.3f},\"lag_ms\":null,",
			r->nlat, r->lat[0] / 1000.0, r->lat[r->nlat - 1] / 1000.0);
	fprintf(f, "\"latency_histogram\":{\"layout\":\"log-linear\",\"sub_bucket_bits\":7,"
			"\"highest_us\":3600000000,\"count\":%d,\"clamped\":0,\"min_us\":%d,\"max_us\":%d,"
			"\"sum_us\":%" PRId64 ",\"latency_sum_us\":%" PRId64
			",\"latency_sum_squares_us\":%" PRId64 ",\"buckets\":",
			r->nlat, r->lat[0], r->lat[r->nlat - 1], sum, sum, sum2);
	put_buckets(f, r->lat, 0, r->nlat);
	fputs("},\"scripts\":[{\"name\":\"t.sql\",\"weight\":1,\"transactions\":", f);
	put_counts(f, r->nlat, r->failures, false);
	fputs(",\"commands\":null,\"latency_histogram\":null}],"
		  "\"series\":{\"interval_s\":1,\"incomplete\":false,\"points\":[", f);
	put_point(f, r->lat, 0, r->nfirst, r->failures);
	fputc(',', f);
	put_point(f, r->lat, r->nfirst, r->nlat, 0);
	fprintf(f, "]},\"merge\":{\"instances\":1,\"progress_s\":null,\"start_epoch_us\":%" PRId64
			",\"conn_elapsed_us\":%" PRId64 ",\"bench_duration_us\":%" PRId64
			",\"conn_duration_us\":0,\"lag_sum_us\":0}}",
			r->start_epoch_us, r->conn_elapsed_us, r->bench_duration_us);
	fclose(f);
	return text;
}

/*
 * text with its first from replaced by to (malloc'd); text itself (a
 * copy) and a failed check when from is not in it.  from NULL: a copy.
 */
static char *
edit(const char *text, const char *from, const char *to)
{
	const char *at = from != NULL ? strstr(text, from) : NULL;
	size_t		head,
				len;
	char	   *out;

	if (from != NULL && !tap_ok(at != NULL, "the report holds %s", from))
		at = NULL;
	if (at == NULL)
		return strdup(text);
	head = (size_t) (at - text);
	len = strlen(text) - strlen(from) + strlen(to);
	out = malloc(len + 1);
	memcpy(out, text, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	return out;
}

/* ---- capturing stdout and stderr ------------------------------------------- */

/* What a call printed: the saved descriptors while it runs. */
typedef struct capture
{
	int			saved_out;
	int			saved_err;
} capture;

/* From now on stdout goes to "out.txt", stderr to "err.txt". */
static void
capture_begin(capture *c)
{
	int			out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int			err = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);

	fflush(stdout);
	fflush(stderr);
	c->saved_out = dup(1);
	c->saved_err = dup(2);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
}

/* The whole of file name (malloc'd; "" when missing). */
static char *
slurp(const char *name)
{
	FILE	   *f = fopen(name, "rb");
	char	   *buf = calloc(1, 1 << 20);
	size_t		n;

	if (f == NULL)
		return buf;
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* stdout and stderr back; what was printed in *out and *err (malloc'd). */
static void
capture_end(capture *c, char **out, char **err)
{
	fflush(stdout);
	fflush(stderr);
	dup2(c->saved_out, 1);
	dup2(c->saved_err, 2);
	close(c->saved_out);
	close(c->saved_err);
	*out = slurp("out.txt");
	*err = slurp("err.txt");
}

/* Write text as the file name. */
static void
write_text(const char *name, const char *text)
{
	FILE	   *f = fopen(name, "wb");

	fputs(text, f);
	fclose(f);
}

/* ---- merging in memory ----------------------------------------------------- */

/*
 * Merge the n texts (named a.json, b.json, ...) into acc, the groups
 * checked, nothing printed (stderr captured: *printed says whether
 * anything came); err filled.  Whether all was accepted.
 */
static bool
merge_in_memory(merge_acc *acc, char *const *texts, int n, bool partial, merge_error *err,
				bool *printed)
{
	static const char *const names[] = {"a.json", "b.json", "c.json"};
	capture		c;
	char	   *out,
			   *errtext;
	bool		ok = true;

	memset(acc, 0, sizeof(*acc));
	memset(err, 0, sizeof(*err));
	acc->partial = partial;
	capture_begin(&c);
	for (int i = 0; ok && i < n; i++)
		ok = merge_text(acc, texts[i], strlen(texts[i]), names[i], err);
	ok = ok && merge_check_groups(acc, err);
	capture_end(&c, &out, &errtext);
	*printed = out[0] != '\0' || errtext[0] != '\0';
	free(out);
	free(errtext);
	return ok;
}

/* ---- accepted reports --------------------------------------------------------- */

/* Member path (dots) of the merged JSON report "m.json", as an integer. */
static int64_t
merged_int(const json_doc *doc, const char *a, const char *b)
{
	const json_value *v = json_get(&doc->root, a);

	return json_int(b != NULL ? json_get(v, b) : v, -1);
}

/* a and b merged: every figure the sum of theirs, exactly. */
static void
test_sums(void)
{
	char	   *texts[2] = {report_text(&spec_a), report_text(&spec_b)};
	merge_acc	acc;
	merge_error err;
	bool		printed;
	const stats_run *sr = &acc.stats;
	timeline_record p;

	tap_ok(merge_in_memory(&acc, texts, 2, false, &err, &printed), "a and b merge");
	tap_is_str(err.message, "", "no error");
	tap_ok(!printed, "nothing printed while merging");
	tap_is_int(acc.ninstances, 2, "two instances");
	tap_is_int(acc.cfg.nclients, 5, "clients summed");
	tap_is_int(acc.cfg.nthreads, 2, "threads summed");
	tap_is_int(sr->total.cnt, 5, "processed summed");
	tap_is_int(sr->total.other_failures, 1, "failures summed");
	tap_is_int(sr->total.latency.count, 5, "latency count summed");
	tap_is_double(sr->total.latency.sum, 150.0, 0.0, "latency sum exact (us)");
	tap_is_double(sr->total.latency.sum2, 5500.0, 0.0, "latency sum of squares exact");
	tap_is_double(sr->total.latency.min, 10.0, 1e-9, "latency min the least of both");
	tap_is_double(sr->total.latency.max, 50.0, 1e-9, "latency max the greatest of both");
	tap_is_int(hist_count(sr->latency_hist), 5, "merged histogram holds 5");
	tap_is_int(hist_value_at_percentile(sr->latency_hist, 0), 10, "p0 from the merged histogram");
	tap_is_int(hist_value_at_percentile(sr->latency_hist, 40), 20, "p40 from the merged histogram");
	tap_is_int(hist_value_at_percentile(sr->latency_hist, 50), 30, "p50 from the merged histogram");
	tap_is_int(hist_value_at_percentile(sr->latency_hist, 90), 50, "p90 from the merged histogram");
	tap_is_int(hist_value_at_percentile(sr->latency_hist, 100), 50, "p100 from the merged histogram");
	tap_is_int(acc.tl.n, 2, "series of two points");
	tap_ok(timeline_get(&acc.tl, 0, &p) && p.delta.cnt == 3 && p.delta.other_failures == 1 &&
		   p.delta.latency.sum == 70.0 && p.latency_min_us == 10 && p.latency_max_us == 40 &&
		   timeline_bucket_count(&p) == 3 && p.sources == 2,
		   "series point 0: a's 10, 20 and failure with b's 40");
	tap_ok(timeline_get(&acc.tl, 1, &p) && p.delta.cnt == 2 && stats_data_failures(&p.delta) == 0 &&
		   p.delta.latency.sum == 80.0 && p.latency_min_us == 30 && p.latency_max_us == 50 &&
		   timeline_bucket_count(&p) == 2, "series point 1: a's 30 with b's 50");
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(texts[0]);
	free(texts[1]);
}

/*
 * a and b merged and reported (as group g when together): the window of
 * the merged JSON report, stdout and stderr.
 */
static void
test_window(bool together)
{
	static char *const names[] = {"a.json", "b.json"};
	report_spec sa = spec_a,
				sb = spec_b;
	char	   *texts[2];
	merge_acc	acc;
	merge_error err;
	capture		c;
	char	   *out,
			   *errtext,
			   *json;
	json_doc	doc;
	char		why[256];
	bool		printed;
	int			rc;
	const char *how = together ? "together" : "apart";

	if (together)
	{
		sa.group = sb.group = "g";
		sa.size = sb.size = 2;
		sb.member = 1;
	}
	texts[0] = report_text(&sa);
	texts[1] = report_text(&sb);
	tap_ok(merge_in_memory(&acc, texts, 2, false, &err, &printed) && !printed,
		   "%s: merged, nothing printed", how);
	unlink("m.json");
	capture_begin(&c);
	rc = merge_report(&acc, 2, names, "m.json", NULL);
	capture_end(&c, &out, &errtext);
	tap_is_int(rc, 0, "merge_report's exit code");
	tap_is_str(errtext, together ? "" : "pgbench: warning: the reports did not start together (no common --rendezvous): their series are aligned by their own start times\n",
			   "the warning only when apart");
	tap_ok(strstr(out, "number of transactions actually processed: 5\n") != NULL,
		   "%s: the text report on stdout", how);
	json = slurp("m.json");
	if (!tap_ok(json_parse(json, strlen(json), &doc, why, sizeof(why)), "%s: m.json parses", how))
		tap_diag("%s", why);
	else
	{
		tap_is_int(merged_int(&doc, "merge", "instances"), 2, "merged: instances");
		tap_is_int(merged_int(&doc, "merge", "start_epoch_us"),
				   together ? SERVER_START : spec_a.start_epoch_us,
				   together ? "start in the server's clock" : "start the earliest own start");
		tap_is_int(merged_int(&doc, "merge", "conn_elapsed_us"), 100000,
				   "connections end at the first report's");
		tap_is_int(merged_int(&doc, "merge", "bench_duration_us"), 1500000,
				   "the run ends at the last report's end");
		tap_is_int(json_get(&doc.root, "inputs")->n, 2, "merged: two inputs listed");
		json_doc_free(&doc);
	}
	free(json);
	free(out);
	free(errtext);
	merge_error_free(&err);
	merge_acc_free(&acc);
	free(texts[0]);
	free(texts[1]);
}

/* ---- refusals -------------------------------------------------------------- */

/* The rendezvous a refusal gives report a (b has none). */
#define GROUP_G "\"rendezvous\":{\"group\":\"g\",\"size\":2,\"member\":0,\"start_server_epoch_us\":1}"

/* The one line of the detail the workload refusals carry. */
#define SAME_WORKLOAD "Only reports of the same workload and mode can be merged."

/*
 * a and b, each with one edit (from NULL: none), refused with message
 * (and its detail and hint lines, NULL when none).
 */
static const struct
{
	const char *name;
	const char *a_from,
			   *a_to,
			   *b_from,
			   *b_to;
	const char *message,
			   *detail,
			   *hint;
}			refusals[] = {
	{"wrong type", NULL, NULL, "\"max_tries\":1", "\"max_tries\":\"1\"",
	"b.json: settings.max_tries: expected an integer, found a string", NULL, NULL},
	{"out of range", "\"clients\":2", "\"clients\":0", NULL, NULL,
	"a.json: settings.clients: 0 is out of range (1 to 2147483647)", NULL, NULL},
	{"negative count", NULL, NULL, "\"retries\":0,\"total\"", "\"retries\":-1,\"total\"",
	"b.json: transactions.retries: -1 is negative", NULL, NULL},
	{"overflowing sum", "\"conn_duration_us\":0", "\"conn_duration_us\":9223372036854775807",
		"\"conn_duration_us\":0", "\"conn_duration_us\":1",
	"b.json: merge: the sum over the reports overflows (above 9223372036854775807)", NULL, NULL},
	{"bucket sums not the count", "[[10,1],[20,1],[30,1]]", "[[10,1],[20,2],[30,1]]", NULL, NULL,
	"a.json: latency_histogram.buckets: the counts add up to 4, not 3", NULL, NULL},
	{"percentile over 100", "\"percentiles\":[]", "\"percentiles\":[50,100.5]", NULL, NULL,
	"a.json: settings.percentiles[1]: 100.5 is out of range (0 to 100)", NULL, NULL},
	{"weight 0", "\"weight\":1", "\"weight\":0", NULL, NULL,
	"a.json: scripts: the weights add up to 0", NULL, NULL},
	{"a script that does not exist", "\"aborted_clients\":[]",
		"\"aborted_clients\":[{\"client\":0,\"script\":1,\"command\":null}]", NULL, NULL,
	"a.json: aborted_clients[0].script: 1 is out of range (0 to 0)", NULL, NULL},
	{"another histogram layout", NULL, NULL, "\"sub_bucket_bits\":7", "\"sub_bucket_bits\":6",
	"b.json: latency_histogram.sub_bucket_bits: another layout than this pgbench's (\"log-linear\", 7 sub-bucket bits, highest 3600000000 us)", NULL, NULL},
	{"another workload", NULL, NULL, "\"scaling_factor\":1", "\"scaling_factor\":2",
	"reports \"a.json\" and \"b.json\" differ in scaling_factor: 1 and 2", SAME_WORKLOAD, NULL},
	{"the same run twice", NULL, NULL, "\"run_id\":\"" RUN_B "\"", "\"run_id\":\"" RUN_A "\"",
	"b.json: the same run as a.json (run id " RUN_A ")", NULL, NULL},
	{"an incomplete rendezvous group", "\"rendezvous\":null", GROUP_G, NULL, NULL,
		"rendezvous group \"g\" is incomplete: 1 of its 2 members given, member 1 missing", NULL,
	"Give every member's report, or --merge-partial to merge them anyway."},
};

/* What merge_run prints for refusal i: its lines, as pgbench prints them. */
static void
expected_stderr(int i, char *buf, size_t len)
{
	int			n = snprintf(buf, len, "pgbench: error: %s\n", refusals[i].message);

	if (refusals[i].detail != NULL)
		n += snprintf(buf + n, len - (size_t) n, "pgbench: detail: %s\n", refusals[i].detail);
	if (refusals[i].hint != NULL)
		snprintf(buf + n, len - (size_t) n, "pgbench: hint: %s\n", refusals[i].hint);
}

/*
 * merge_run of files "a.json" and "b.json" (texts), with "m.json" asked
 * for: its exit code, what it printed (*out, *err, malloc'd) and whether
 * m.json was left.
 */
static int
run_files(char *const *texts, bool partial, char **out, char **err, bool *left)
{
	static char *const names[] = {"a.json", "b.json"};
	capture		c;
	int			rc;

	write_text("a.json", texts[0]);
	write_text("b.json", texts[1]);
	unlink("m.json");
	capture_begin(&c);
	rc = merge_run(2, names, "m.json", NULL, partial, NULL, 0, NULL, 0);
	capture_end(&c, out, err);
	*left = access("m.json", F_OK) == 0;
	unlink("m.json");
	return rc;
}

/* Refusal i: in memory (the record, nothing printed), then by merge_run. */
static void
test_refusal(int i)
{
	const char *name = refusals[i].name;
	char	   *a = report_text(&spec_a),
			   *b = report_text(&spec_b);
	char	   *texts[2] = {edit(a, refusals[i].a_from, refusals[i].a_to),
	edit(b, refusals[i].b_from, refusals[i].b_to)};
	merge_acc	acc;
	merge_error err;
	bool		printed,
				left;
	char	   *out,
			   *errtext,
				want[2048];

	tap_ok(!merge_in_memory(&acc, texts, 2, false, &err, &printed), "%s: refused", name);
	tap_ok(!printed, "%s: nothing printed below merge_run", name);
	tap_is_str(err.message, refusals[i].message, "the message names the file and member");
	tap_is_str(err.detail != NULL ? err.detail : "(none)",
			   refusals[i].detail != NULL ? refusals[i].detail : "(none)", "its detail");
	tap_is_str(err.hint != NULL ? err.hint : "(none)",
			   refusals[i].hint != NULL ? refusals[i].hint : "(none)", "its hint");
	merge_error_free(&err);
	merge_acc_free(&acc);

	expected_stderr(i, want, sizeof(want));
	tap_is_int(run_files(texts, false, &out, &errtext, &left), 1, "merge_run: exit code 1");
	tap_is_str(errtext, want, "merge_run prints the message, in pgbench's words");
	tap_ok(out[0] == '\0' && !left, "%s: nothing on stdout, no report file", name);
	free(out);
	free(errtext);
	free(texts[0]);
	free(texts[1]);
	free(a);
	free(b);
}

/* The incomplete group under --merge-partial: a warning, and the merge. */
static void
test_partial(void)
{
	char	   *a = report_text(&spec_a);
	char	   *texts[2] = {edit(a, "\"rendezvous\":null", GROUP_G), report_text(&spec_b)};
	merge_acc	acc;
	merge_error err;
	bool		printed,
				left;
	char	   *out,
			   *errtext;

	tap_ok(merge_in_memory(&acc, texts, 2, true, &err, &printed) && !printed,
		   "partial: merged, nothing printed below merge_run");
	tap_ok(err.message[0] == '\0' && err.nwarnings == 1, "partial: no error, one warning");
	tap_is_str(err.nwarnings == 1 ? err.warnings[0] : "",
			   "rendezvous group \"g\" is incomplete: 1 of its 2 members given, member 1 missing",
			   "partial: the warning names what is missing");
	merge_error_free(&err);
	merge_acc_free(&acc);
	tap_is_int(run_files(texts, true, &out, &errtext, &left), 0, "partial: merge_run's exit code 0");
	tap_is_str(errtext, "pgbench: warning: rendezvous group \"g\" is incomplete: 1 of its 2 members given, member 1 missing\n"
			   "pgbench: warning: the reports did not start together (no common --rendezvous): their series are aligned by their own start times\n",
			   "partial: the group's warning, then the window's");
	tap_ok(strstr(out, "actually processed: 5\n") != NULL && left,
		   "partial: the report printed and written");
	free(out);
	free(errtext);
	free(texts[0]);
	free(texts[1]);
	free(a);
}

/* A file that cannot be read: merge_run's message, nothing else. */
static void
test_missing_file(void)
{
	static char *const names[] = {"nope.json"};
	capture		c;
	char	   *out,
			   *errtext;
	int			rc;

	capture_begin(&c);
	rc = merge_run(1, names, "m.json", NULL, false, NULL, 0, NULL, 0);
	capture_end(&c, &out, &errtext);
	tap_is_int(rc, 1, "missing file: exit code 1");
	tap_is_str(errtext, "pgbench: error: could not open report file \"nope.json\": No such file or directory\n",
			   "missing file: the message");
	tap_ok(out[0] == '\0' && access("m.json", F_OK) != 0, "missing file: no output");
	free(out);
	free(errtext);
}

/*
 * A merge whose output cannot be written removes the file it made, but
 * never what is not a regular file: outputs through symbolic links to
 * /dev/full (the write fails, ENOSPC) leave the links, and the device.
 */
static void
test_full_device(void)
{
	static char *const names[] = {"a.json", "b.json"};
	char	   *texts[2] = {report_text(&spec_a), report_text(&spec_b)};
	struct stat st;
	capture		c;
	char	   *out,
			   *errtext;
	int			rc;

	write_text("a.json", texts[0]);
	write_text("b.json", texts[1]);
	/* Linux always has the device: a set-up that fails is a failure, not a skip */
	if (!tap_ok(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode) &&
				symlink("/dev/full", "full.json") == 0 && symlink("/dev/full", "full.html") == 0,
				"/dev/full: outputs linked to the full device"))
	{
		tap_diag("/dev/full: %s", stat("/dev/full", &st) == 0 && !S_ISCHR(st.st_mode) ?
				 "not a character device" : strerror(errno));
		free(texts[0]);
		free(texts[1]);
		return;
	}
	capture_begin(&c);
	rc = merge_run(2, names, "full.json", "full.html", false, NULL, 0, NULL, 0);
	capture_end(&c, &out, &errtext);
	tap_is_int(rc, 1, "/dev/full: exit code 1");
	tap_ok(strstr(errtext, "could not write report file \"full.json\": No space left on device") != NULL,
		   "/dev/full: the write error named");
	tap_ok(lstat("full.json", &st) == 0 && S_ISLNK(st.st_mode) && lstat("full.html", &st) == 0 &&
		   S_ISLNK(st.st_mode) && stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode),
		   "/dev/full: the links and the device are left");
	unlink("full.json");
	unlink("full.html");
	free(out);
	free(errtext);
	free(texts[0]);
	free(texts[1]);
}

/*
 * The accessors check the reader against the declaration: one of another
 * type, or a _null one on a member not nullable, fails (naming the
 * member) however the report looks; one that fits reads.
 */
static void
test_declared(void)
{
	static const double at[TIMELINE_NPERCENTILES] = TIMELINE_PERCENTILES;
	char	   *text = report_text(&spec_a);
	json_doc	doc;
	char		why[256];
	merge_error err = {0};
	merge_reading rd = {.file = "a.json", .err = &err};
	json_ref	root,
				tx,
				r;
	int64_t		i = -1;
	double		d = -1;
	bool		present = false;

	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
	{
		char		key[32];

		snprintf(key, sizeof(key), "p%g", at[k]);
		tap_is_str(report_key(merge_point_percentiles[k]), key,
				   "the point's percentile member names TIMELINE_PERCENTILES's");
	}
	if (!tap_ok(json_parse(text, strlen(text), &doc, why, sizeof(why)), "report a parses"))
	{
		free(text);
		return;
	}
	root = json_ref_root(&doc.root);
	tap_ok(merge_container(&rd, &root, RM_TOP_TRANSACTIONS, JSON_OBJECT, &tx) &&
		   merge_int(&rd, &tx, RM_TRANSACTIONS_FAILED, 0, INT64_MAX, &i) && i == 1,
		   "declared: an int read as declared");
	tap_ok(merge_int_null(&rd, &tx, RM_TRANSACTIONS_LATE, 0, INT64_MAX, &i, &present) && !present,
		   "declared: a nullable int (null here) read with its _null form");
	tap_ok(!merge_num(&rd, &tx, RM_TRANSACTIONS_FAILED, 0, INFINITY, &d) && d == -1,
		   "declared: an int read as a number fails");
	tap_is_str(err.message, "a.json: transactions.failed: this member is declared int, read as number (report_schema.h): a bug in the merge",
			   "declared: the message names the member and both types");
	tap_ok(!merge_int_null(&rd, &tx, RM_TRANSACTIONS_TOTAL, 0, INT64_MAX, &i, &present),
		   "declared: a _null read of a member not nullable fails");
	tap_is_str(err.message, "a.json: transactions.total: this member is declared int, read as int or null (report_schema.h): a bug in the merge",
			   "declared: the message says so");
	tap_ok(!merge_container(&rd, &root, RM_TOP_SCRIPTS, JSON_OBJECT, &r),
		   "declared: an array read as an object fails");
	tap_is_str(err.message, "a.json: scripts: this member is declared array, read as object (report_schema.h): a bug in the merge",
			   "declared: the message names the container types");
	tap_ok(!merge_str(&rd, &root, RM_TOP_CLIENT, &(const char *) {NULL}),
		   "declared: checked before the value (an absent member too)");
	tap_is_str(err.message, "a.json: client: this member is declared object or null, read as string (report_schema.h): a bug in the merge",
			   "declared: the message for an absent member");
	json_doc_free(&doc);
	free(text);
}

int
main(void)
{
	static const char *const files[] = {"a.json", "b.json", "m.json", "out.txt", "err.txt"};

	if (mkdtemp(tmpdir) == NULL || chdir(tmpdir) != 0)
	{
		perror(tmpdir);
		return 1;
	}
	test_sums();
	test_declared();
	test_window(false);
	test_window(true);
	for (int i = 0; i < (int) PGB_LENGTHOF(refusals); i++)
		test_refusal(i);
	test_partial();
	test_missing_file();
	test_full_device();
	for (int i = 0; i < (int) PGB_LENGTHOF(files); i++)
		unlink(files[i]);
	if (chdir("/") != 0 || rmdir(tmpdir) != 0)
		tap_diag("could not remove %s", tmpdir);
	return tap_done();
}
