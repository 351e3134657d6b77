/*
 * merge_int.h — what the merge unit's files share (merge.c: the run and
 * its output; merge_read.c: one report checked and added into the
 * accumulator; merge_check.c: typed, checked access to a report's
 * members).  Private to those files.
 */
#ifndef PGBENCH_MERGE_INT_H
#define PGBENCH_MERGE_INT_H

#include "pgbench/report/figures.h"
#include "pgbench/report/json_read.h"

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
	int			scale;
	partition_method partition_method;
	int			partitions;
	char		server_version[128];
	report_target target;
	bool		aborted;

	stats_run	stats;			/* summed */
	merge_window *windows;		/* one per instance */

	/* which runs the reports hold (merge_ident.c) */
	bool		partial;		/* --merge-partial: an incomplete group only
								 * warns */
	merge_input *inputs;		/* one per report read */
	report_source *sources;		/* the runs held: each report, or the
								 * entries of a merged report's "inputs" */
	int		   *source_input;	/* for each, the index of its report */
	int			nsources;
} merge_acc;

/*
 * Add report root (read from file) into acc: the first one sets the
 * workload up, the others must match it.  Every member read is checked
 * (kind, range, consistency) and every sum for overflow; prints one
 * message ("FILE: PATH: what") and returns false at the first problem,
 * acc then fit only for merge_acc_free.
 */
bool		merge_add(merge_acc *acc, const json_value *root, const char *file);

/* Release what merge_add allocated. */
void		merge_acc_free(merge_acc *acc);

/*
 * merge.c: parse text (len bytes, the report named file) and merge_add
 * it; false after a message ("FILE: line L, column C: ..." for a syntax
 * error).  With merge_report, what fuzz/fuzz_merge.c runs in memory.
 */
bool		merge_text(merge_acc *acc, const char *text, size_t len, const char *file);

/*
 * Print the merged report of acc (files: the nfiles report names, for
 * its command line) and write it to json_path / html_path when not NULL.
 * The exit code: 1 when a file cannot be written (the report files this
 * made are then removed: none is left half written), else 2 when any
 * instance aborted, else 0.
 */
int			merge_report(merge_acc *acc, int nfiles, char *const *files, const char *json_path,
						 const char *html_path);

/*
 * merge_ident.c: the identity of report doc (read from file): its run id
 * and rendezvous membership (the group and agreed start also into *w),
 * or for a merged report the runs its "inputs" lists, added to acc's
 * sources.  The same run given twice (by run id), a group member given
 * twice and members that disagree on their group's size are refused.
 * false after a message.
 */
bool		merge_identify(merge_acc *acc, const char *file, const json_ref *doc,
						   merge_window *w);

/*
 * Every rendezvous group among acc's sources is whole; else a message
 * naming the group and the missing members: an error, or a warning under
 * acc->partial.  false when refused.
 */
bool		merge_check_groups(const merge_acc *acc);

/*
 * merge_workload.c: the settings, compatibility mode, -P, series
 * interval and scripts of report doc, checked; the first report's set
 * acc up (cfg, scripts, stats), the others' must equal them.  false after
 * a message.  merge_workload_free releases what it kept.
 */
bool		merge_workload(merge_acc *acc, const char *file, const json_ref *doc);
void		merge_workload_free(merge_acc *acc);

/* ---- merge_check.c: typed access, each failure one message ------------ */

/*
 * Print "pgbench: error: FILE: PATH: what" (FILE: what at the root) for
 * the value at; returns false.
 */
bool		merge_bad(const char *file, const json_ref *at, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/*
 * Member key of obj, which must be there, of the kind asked for, and in
 * range; *out set.  The _null forms also take null, setting *present
 * false (a missing member is still refused); given present NULL they are
 * the plain forms.  false after a message.
 */
bool		merge_int(const char *file, const json_ref *obj, const char *key,
					  int64_t lo, int64_t hi, int64_t *out);
bool		merge_int_null(const char *file, const json_ref *obj, const char *key,
						   int64_t lo, int64_t hi, int64_t *out, bool *present);
bool		merge_uint64(const char *file, const json_ref *obj, const char *key, uint64_t *out);
bool		merge_num(const char *file, const json_ref *obj, const char *key,
					  double lo, double hi, double *out);
bool		merge_num_null(const char *file, const json_ref *obj, const char *key,
						   double lo, double hi, double *out, bool *present);
bool		merge_str(const char *file, const json_ref *obj, const char *key, const char **out);
bool		merge_str_null(const char *file, const json_ref *obj, const char *key,
						   const char **out);
bool		merge_bool(const char *file, const json_ref *obj, const char *key, bool *out);

/* kind is JSON_OBJECT or JSON_ARRAY; *out refers to the member. */
bool		merge_container(const char *file, const json_ref *obj, const char *key,
							json_kind kind, json_ref *out);
bool		merge_container_null(const char *file, const json_ref *obj, const char *key,
								 json_kind kind, json_ref *out, bool *present);

/* *acc += v without overflow; else a message naming at.  false after it. */
bool		merge_sum(const char *file, const json_ref *at, int64_t *acc, int64_t v);

/* acc + v stays finite; else a message naming at. */
bool		merge_sum_real(const char *file, const json_ref *at, double *acc, double v);

/*
 * A histogram block (doc/report-json.md, "latency_histogram") or a
 * series point's "histogram": its buckets checked (the layout of
 * histogram.h with one hour as highest; pairs of integers, indexes
 * ascending, counts positive, adding up to expect) and copied out
 * (out->b malloc'd, out->n entries), with its min_us and max_us (which
 * must lie in the first and last buckets).  false after a message, with
 * nothing allocated.
 */
typedef struct merge_hist
{
	hist_bucket *b;
	int			n;
	int64_t		min_us;
	int64_t		max_us;
} merge_hist;

bool		merge_read_buckets(const char *file, const json_ref *block, int64_t expect,
							   merge_hist *out);

/* The buckets into h (min and max, sums into h->sum); false on overflow. */
bool		merge_import(const char *file, const json_ref *block, hist *h,
						 const merge_hist *mh, double sum);

#endif
