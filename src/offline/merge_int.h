/*
 * merge_int.h — what the merge unit's files share (merge.c: the run and
 * its output; merge_read.c: one report checked and added into the
 * accumulator; merge_check.c: typed, checked access to a report's
 * members, and the error record).  Private to those files (and to
 * fuzz/fuzz_merge.c and t/unit/test_merge.c, which drive them).
 *
 * Errors (doc/design.md, "Errors and memory"): every function below
 * merge_run returns a status and, on failure, fills the caller's
 * merge_error; none prints.  merge_run prints the record in pgbench's
 * words; merge_report prints the merged report and its own write errors.
 */
#ifndef PGBENCH_MERGE_INT_H
#define PGBENCH_MERGE_INT_H

#include "pgbench/offline/json_read.h"
#include "pgbench/report/figures.h"
#include "pgbench/report/report_schema.h"

/* The largest report file read (doc/fleet.md): 256 MiB. */
#define MERGE_MAX_FILE_BYTES (INT64_C(256) * 1024 * 1024)

/*
 * The most commands over all scripts under -r: each has a histogram of
 * its own (26 KiB), so this bounds them to 260 MB.
 */
#define MERGE_MAX_COMMANDS 10000

/*
 * The most runs a merge may hold (the reports given and the runs listed
 * in merged reports' "inputs"): each is compared with the others.
 */
#define MERGE_MAX_SOURCES 10000

/* The latest instant a report may name: 9999-12-31T23:59:59Z, in us. */
#define MERGE_MAX_EPOCH_US INT64_C(253402300799999999)

/* The longest time span a report may name (about 73,000 years), in us. */
#define MERGE_MAX_SPAN_US (INT64_C(1) << 61)

/*
 * The longest message kept: diag prints at most 8 KiB of a line, so a
 * message cut here is printed as it would have been uncut.
 */
#define MERGE_MSG_LEN 8192

/*
 * Why the merge stops, and what it warns about while it goes on: owned
 * by the caller (zeroed before use, released with merge_error_free),
 * filled where the problem is found, printed by merge_run alone (the
 * warnings in order, then the message as an error, its detail, its
 * hint).
 */
typedef struct merge_error
{
	char		message[MERGE_MSG_LEN];	/* "FILE: PATH: what"; "" none */
	const char *detail;			/* a constant line, or NULL */
	const char *hint;			/* a constant line, or NULL */
	char	  **warnings;		/* nwarnings lines, each malloc'd */
	int			nwarnings;
} merge_error;

/* The report being read: its name, and the record for its first problem. */
typedef struct merge_reading
{
	const char *file;			/* as the messages show it */
	merge_error *err;			/* the caller's */
	int64_t		version;		/* its schema_version, once checked */
} merge_reading;

/* One instance's place in time (us), for the common window. */
typedef struct merge_window
{
	int64_t		start_epoch_us; /* its start, its own clock */
	int64_t		server_start_us;	/* --rendezvous: the agreed start; else 0 */
	char		group[RENDEZVOUS_MAX_NAME + 1];	/* --rendezvous group; "" none */
	int64_t		conn_elapsed_us;
	int64_t		bench_duration_us;
} merge_window;

/* A report file given, with its own run id ("": none). */
typedef struct merge_input
{
	const char *file;
	char		run_id[RANDOM_RUN_ID_LEN + 1];
} merge_input;

/* The reports read so far, added up. */
typedef struct merge_acc
{
	int			ninstances;
	const char *first_file;		/* the settings every report must share */
	json_doc	first_settings; /* the first report's "settings", copied */
	json_value	first_compat;	/* its "compat", "merge.progress_s" and
								 * "series.interval_s" (numbers or null) */
	json_value	first_progress;
	json_value	first_interval;

	/* the run_config the printers read, rebuilt */
	run_config	cfg;
	script_set	scripts;		/* desc, weight and commands' first_line
								 * only, owned */
	report_figures settings;	/* the settings (REPORT_SETTINGS): the
								 * first report's, the summed ones summed;
								 * strings in first_settings */
	char		server_version[128];
	report_target target;
	bool		aborted;

	stats_run	stats;			/* summed */
	timeline	tl;				/* the series, summed point by point */
	bool		spill;			/* the timeline may go to a temporary file */
	merge_window *windows;		/* one per instance */

	/* which runs the reports hold (merge_ident.c) */
	bool		partial;		/* --merge-partial: an incomplete group only
								 * warns */
	merge_input *inputs;		/* one per report read */
	report_source *sources;		/* the runs held: each report, or the
								 * entries of a merged report's "inputs" */
	int		   *source_input;	/* for each, the index of its report */
	int			nsources;

	const run_label *labels;	/* --label of the merge: the merged report's */
	int			nlabels;
	const struct threshold *thresholds; /* --threshold on the merged figures */
	int			nthresholds;
} merge_acc;

/*
 * Add report root (read from file) into acc: the first one sets the
 * workload up, the others must match it.  Every member read is checked
 * (kind, range, consistency) and every sum for overflow; at the first
 * problem returns false with err filled ("FILE: PATH: what"), acc then
 * fit only for merge_acc_free.
 */
bool		merge_add(merge_acc *acc, const json_value *root, const char *file,
					  merge_error *err);

/*
 * The members of a series point's "latency_ms" that hold the percentiles
 * of TIMELINE_PERCENTILES, in its order (merge_read.c; test_merge.c
 * checks that their keys name the same percentiles).
 */
extern const report_member merge_point_percentiles[TIMELINE_NPERCENTILES];

/* Release what merge_add allocated. */
void		merge_acc_free(merge_acc *acc);

/*
 * The whole of report file path (malloc'd; the caller frees it), at most
 * MERGE_MAX_FILE_BYTES, its length in *len; NULL with err filled.
 */
char	   *merge_read_file(const char *path, size_t *len, merge_error *err);

/*
 * merge.c: parse text (len bytes, the report named file) and merge_add
 * it; false with err filled ("FILE: line L, column C: ..." for a syntax
 * error).  With merge_check_groups and merge_report, what
 * fuzz/fuzz_merge.c and t/unit/test_merge.c run in memory.
 */
bool		merge_text(merge_acc *acc, const char *text, size_t len, const char *file,
					   merge_error *err);

/*
 * The report_input of acc's merged runs (its cfg's settings restored
 * from acc->settings; no run id): what merge_report computes the figures
 * of, acc->cfg's command line set first.  Whether the reports started
 * together (one --rendezvous start), which sets its time window.
 */
bool		merge_report_input(merge_acc *acc, report_input *in);

/*
 * Print the merged report of acc (files: the nfiles report names, for
 * its command line; the groups already checked by merge_check_groups)
 * and write it to json_path / html_path when not NULL.  Prints the
 * warning of reports that did not start together, the write errors and
 * the aborted run's line itself.  The exit code: 1 when a file cannot
 * be written (the report files this made are then removed: none is left
 * half written), else 2 when any instance aborted, else 0.
 */
int			merge_report(merge_acc *acc, int nfiles, char *const *files, const char *json_path,
						 const char *html_path);

/*
 * merge_server.c: the server of a run's own report (its "server" and
 * "server_stats") or of an entry of a merged report's "inputs" into s.
 * Absent members (older reports) leave s unknown.  false with rd->err.
 */
bool		merge_read_server_of_run(const merge_reading *rd, const json_ref *doc,
									 report_source *s);
bool		merge_read_server_of_input(const merge_reading *rd, const json_ref *entry,
									   report_source *s);

/*
 * merge_ident.c: the identity of report doc (read from file): its run id
 * and rendezvous membership (the group and agreed start also into *w),
 * or for a merged report the runs its "inputs" lists, added to acc's
 * sources.  The same run given twice (by run id), a group member given
 * twice and members that disagree on their group's size are refused.
 * false with rd->err filled.
 */
bool		merge_identify(merge_acc *acc, const merge_reading *rd, const json_ref *doc,
						   merge_window *w);

/*
 * Every rendezvous group among acc's sources is whole; else a message
 * naming the group and the missing members: err's message (with its
 * hint), or under acc->partial one of err's warnings per group.  false
 * when refused.
 */
bool		merge_check_groups(const merge_acc *acc, merge_error *err);

/*
 * merge_workload.c: the settings, compatibility mode, -P, series
 * interval and scripts of report doc, checked; the first report's set
 * acc up (cfg, scripts, stats), the others' must equal them.  false with
 * rd->err filled.  merge_workload_free releases what it kept.
 */
bool		merge_workload(merge_acc *acc, const merge_reading *rd, const json_ref *doc);

/*
 * The summed settings of report doc (REPORT_SETTINGS's SETTING_SUMMED,
 * checked by merge_workload) added into acc's, and acc's cfg set from
 * them; the first report's are acc's already.  false with rd->err
 * filled when a sum leaves its range.
 */
bool		merge_settings_sum(merge_acc *acc, const merge_reading *rd, const json_ref *doc);
void		merge_workload_free(merge_acc *acc);

/* ---- merge_check.c: typed access, each failure one message ------------ */

/* Release err's warnings (the record itself is the caller's). */
void		merge_error_free(merge_error *err);

/* err's warnings, then its error (with its detail and hint) if it has one, to stderr. */
void		merge_print_error(const merge_error *err);

/* err's message set to fmt formatted, no detail nor hint; returns false. */
bool		merge_fail(merge_error *err, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/* One warning more in err (fmt formatted). */
void		merge_warn(merge_error *err, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/*
 * rd->err's message set to "FILE: PATH: what" (FILE: what at the root)
 * for the value at; returns false.
 */
bool		merge_bad(const merge_reading *rd, const json_ref *at, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/*
 * Member m of obj (REPORT_MEMBERS, report_schema.h), which must be there,
 * of the kind asked for, and in range; *out set.  The _null forms also
 * take null, setting *present false (a missing member is still refused);
 * given present NULL they are the plain forms.  false with rd->err
 * filled.
 *
 * The accessor must fit m's declaration: the JSON type it reads is m's
 * declared type, and a _null form (one given present) reads only a member
 * declared nullable.  Another is a bug of the reader, not of the report:
 * the read fails whatever the input holds, with a message naming the
 * member ("FILE: PATH: this member is declared int, read as number ..."),
 * so that any test that merges a report catches it.
 */
bool		merge_int(const merge_reading *rd, const json_ref *obj, report_member m,
					  int64_t lo, int64_t hi, int64_t *out);
bool		merge_int_null(const merge_reading *rd, const json_ref *obj, report_member m,
						   int64_t lo, int64_t hi, int64_t *out, bool *present);
bool		merge_num(const merge_reading *rd, const json_ref *obj, report_member m,
					  double lo, double hi, double *out);
bool		merge_num_null(const merge_reading *rd, const json_ref *obj, report_member m,
						   double lo, double hi, double *out, bool *present);
bool		merge_str(const merge_reading *rd, const json_ref *obj, report_member m,
					  const char **out);
bool		merge_str_null(const merge_reading *rd, const json_ref *obj, report_member m,
						   const char **out);
bool		merge_bool(const merge_reading *rd, const json_ref *obj, report_member m, bool *out);

/* kind is JSON_OBJECT or JSON_ARRAY; *out refers to the member. */
bool		merge_container(const merge_reading *rd, const json_ref *obj, report_member m,
							json_kind kind, json_ref *out);
bool		merge_container_null(const merge_reading *rd, const json_ref *obj, report_member m,
								 json_kind kind, json_ref *out, bool *present);

/*
 * The same for a member named by data, which REPORT_MEMBERS declares only
 * as the object holding it: a setting (REPORT_SETTINGS), a counter
 * (STATS_COUNTERS, TIMELINE_SERVER_COUNTERS), each list its members' own
 * declaration.  key as the report writes it; nothing checked but the
 * value.  merge_uint64_key: an integer 0 .. UINT64_MAX (the seed).
 */
bool		merge_int_key(const merge_reading *rd, const json_ref *obj, const char *key,
						  int64_t lo, int64_t hi, int64_t *out);
bool		merge_int_null_key(const merge_reading *rd, const json_ref *obj, const char *key,
							   int64_t lo, int64_t hi, int64_t *out, bool *present);
bool		merge_uint64_key(const merge_reading *rd, const json_ref *obj, const char *key,
							 uint64_t *out);
bool		merge_num_key(const merge_reading *rd, const json_ref *obj, const char *key,
						  double lo, double hi, double *out);
bool		merge_num_null_key(const merge_reading *rd, const json_ref *obj, const char *key,
							   double lo, double hi, double *out, bool *present);
bool		merge_str_key(const merge_reading *rd, const json_ref *obj, const char *key,
						  const char **out);
bool		merge_str_null_key(const merge_reading *rd, const json_ref *obj, const char *key,
							   const char **out);
bool		merge_bool_key(const merge_reading *rd, const json_ref *obj, const char *key,
						   bool *out);
bool		merge_container_key(const merge_reading *rd, const json_ref *obj, const char *key,
								json_kind kind, json_ref *out);

/*
 * Member m of obj (v NULL when absent), where a message points: the
 * position of a value read before, or a look before reading.
 */
static inline json_ref
merge_at(const json_ref *obj, report_member m)
{
	return json_ref_member(obj, report_key(m));
}

/* *acc += v without overflow; else false, rd->err naming at. */
bool		merge_sum(const merge_reading *rd, const json_ref *at, int64_t *acc, int64_t v);

/* acc + v stays finite; else false, rd->err naming at. */
bool		merge_sum_real(const merge_reading *rd, const json_ref *at, double *acc, double v);

/*
 * A histogram block (doc/report-json.md, "latency_histogram"): its
 * buckets checked (the layout of histogram.h with one hour as highest;
 * pairs of integers, indexes ascending, counts positive, adding up to
 * expect) and copied out (out->b malloc'd, out->n entries), with its
 * min_us and max_us (which must lie in the first and last buckets).
 * false with rd->err filled and nothing allocated.
 */
typedef struct merge_hist
{
	hist_bucket *b;
	int			n;
	int64_t		min_us;
	int64_t		max_us;
} merge_hist;

bool		merge_read_buckets(const merge_reading *rd, const json_ref *block, int64_t expect,
							   merge_hist *out);

/*
 * The same for a series point's "histogram", of its own layout (bits
 * sub-bucket bits).
 */
bool		merge_read_point_buckets(const merge_reading *rd, const json_ref *block,
									 int64_t expect, int bits, merge_hist *out);

/*
 * The buckets of a "latency_histogram" block into h (min and max, sums
 * into h->sum); false on overflow.
 */
bool		merge_import(const merge_reading *rd, const json_ref *block, hist *h,
						 const merge_hist *mh, double sum);

#endif
