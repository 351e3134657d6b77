/*
 * merge.c — pgbench --merge-reports: the run_config and statistics of the
 * whole fleet rebuilt from the instances' JSON reports (merge_read.c adds
 * each one), then the same figures and printers as a run of our own.
 * merge_run is the mode's top: it alone prints what the files below it
 * (and the reading here) put in a merge_error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/offline/merge.h"
#include "pgbench/report/report.h"
#include "pgbench/report/threshold.h"
#include "merge_int.h"

void
merge_acc_free(merge_acc *acc)
{
	merge_workload_free(acc);
	stats_run_free(&acc->stats);
	timeline_free(&acc->tl);
	free(acc->windows);
	free(acc->inputs);
	free(acc->sources);
	free(acc->source_input);
}

/* ---- the time window --------------------------------------------------- */

/* Every report comes from one --rendezvous start. */
static bool
started_together(const merge_acc *acc)
{
	for (int i = 0; i < acc->ninstances; i++)
		if (acc->windows[i].group[0] == '\0' ||
			strcmp(acc->windows[i].group, acc->windows[0].group) != 0 ||
			acc->windows[i].server_start_us != acc->windows[0].server_start_us)
			return false;
	return true;
}

/*
 * From the earliest start to the latest end: in the server's clock when
 * the reports started together, else each counted from its own start.
 * Whether they started together.
 */
static bool
set_window(const merge_acc *acc, report_input *in)
{
	bool		together = started_together(acc);
	int64_t		start = INT64_MAX,
				bench_start = INT64_MAX,
				end = INT64_MIN,
				first_epoch = INT64_MAX;

	for (int i = 0; i < acc->ninstances; i++)
	{
		const merge_window *w = &acc->windows[i];
		int64_t		frame = together ? w->server_start_us : 0;

		if (frame < start)
			start = frame;
		if (frame + w->conn_elapsed_us < bench_start)
			bench_start = frame + w->conn_elapsed_us;
		if (frame + w->conn_elapsed_us + w->bench_duration_us > end)
			end = frame + w->conn_elapsed_us + w->bench_duration_us;
		if (w->start_epoch_us > 0 && w->start_epoch_us < first_epoch)
			first_epoch = w->start_epoch_us;
	}
	in->conn_elapsed = bench_start - start;
	in->bench_duration = end - bench_start;
	in->start_time = together ? start : first_epoch != INT64_MAX ? first_epoch : 0;
	in->start_is_epoch = true;
	return together;
}

/* ---- reading and writing ------------------------------------------------ */

/* The message for a file over MERGE_MAX_FILE_BYTES. */
static void
too_big(const char *path, merge_error *err)
{
	merge_fail(err, "%s: larger than %" PRId64 " bytes (256 MiB), the most a report may be", path,
			   MERGE_MAX_FILE_BYTES);
}

/*
 * The whole file (malloc'd), at most MERGE_MAX_FILE_BYTES; NULL with err
 * filled.  A regular file's size is known before reading it; another (a
 * pipe, /dev/zero) is read until it ends or passes the limit.
 */
char *
merge_read_file(const char *path, size_t *len, merge_error *err)
{
	FILE	   *f = fopen(path, "rb");
	struct stat st;
	char	   *buf = NULL;
	size_t		cap = 0;

	*len = 0;
	if (f == NULL)
	{
		merge_fail(err, "could not open report file \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
	{
		if (st.st_size > MERGE_MAX_FILE_BYTES)
		{
			too_big(path, err);
			fclose(f);
			return NULL;
		}
		cap = (size_t) st.st_size + 1;
		if ((buf = malloc(cap)) == NULL)
		{
			merge_fail(err, "%s: out of memory", path);
			fclose(f);
			return NULL;
		}
	}
	for (;;)
	{
		size_t		got;

		if (*len == cap)
		{
			/* full: grow, up to one byte more than a report may be */
			size_t		grown = cap < 65536 ? 65536 : 2 * cap;
			char	   *more;

			if (cap > (size_t) MERGE_MAX_FILE_BYTES)
			{
				too_big(path, err);
				break;
			}
			if (grown > (size_t) MERGE_MAX_FILE_BYTES + 1)
				grown = (size_t) MERGE_MAX_FILE_BYTES + 1;
			if ((more = realloc(buf, grown)) == NULL)
			{
				merge_fail(err, "%s: out of memory", path);
				break;
			}
			buf = more;
			cap = grown;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got > 0)
			continue;
		if (!ferror(f))
		{
			fclose(f);
			return buf;
		}
		merge_fail(err, "could not read report file \"%s\": %s", path, strerror(errno));
		break;
	}
	free(buf);
	fclose(f);
	return NULL;
}

bool
merge_text(merge_acc *acc, const char *text, size_t len, const char *file, merge_error *err)
{
	char		why[256];
	json_doc	doc;
	bool		ok;

	if (!json_parse(text, len, &doc, why, sizeof(why)))
		return merge_fail(err, "%s: %s", file, why);
	ok = merge_add(acc, &doc.root, file, err);
	json_doc_free(&doc);
	return ok;
}

/* Read file and add it into acc (the first one sets acc up); false with err filled. */
static bool
merge_file(merge_acc *acc, const char *file, merge_error *err)
{
	size_t		len;
	char	   *text = merge_read_file(file, &len, err);
	bool		ok;

	if (text == NULL)
		return false;
	ok = merge_text(acc, text, len, file, err);
	free(text);
	return ok;
}

/* A report file's failed open or write, in pgbench's words. */
static void
print_file_error(const report_file_error *err)
{
	char		msg[8192];

	diag_error("%s", report_file_error_text(err, msg, sizeof(msg)));
}

/*
 * Whether f is a regular file: the only kind a failed merge removes (as
 * root, --report-json=/dev/full once removed the device).
 */
static bool
regular_file(FILE *f)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * --report-json with --merge-reports; *made once the file exists and is a
 * regular file (one to remove if the merge fails).
 */
static bool
write_json(const char *path, const report_figures *f, bool *made)
{
	FILE	   *out = fopen(path, "w");
	bool		ok;

	if (out == NULL)
	{
		print_file_error(&(report_file_error) {.path = path, .opening = true, .errnum = errno});
		return false;
	}
	*made = regular_file(out);
	ok = report_json_write(out, f);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		print_file_error(&(report_file_error) {.path = path, .errnum = errno});
	return ok;
}

/* --report-html with --merge-reports: the page written, or its error printed. */
static bool
write_html(FILE **html, const char *path, const report_figures *f)
{
	report_file_error err;

	if (report_html_finish(html, path, f, &err))
		return true;
	print_file_error(&err);
	return false;
}

bool
merge_report_input(merge_acc *acc, report_input *in)
{
	memset(in, 0, sizeof(*in));
	figures_settings_restore(&acc->settings, &acc->cfg, in);
	in->cfg = &acc->cfg;
	in->stats = &acc->stats;
	in->busiest_thread_cpu_pct = -1;	/* per run: not merged */
	in->timeline = &acc->tl;
	in->server_version = acc->server_version[0] != '\0' ? acc->server_version : NULL;
	in->aborted = acc->aborted;
	in->target = &acc->target;
	in->instances = acc->ninstances;
	in->sources = acc->sources;
	in->nsources = acc->nsources;
	return set_window(acc, in);
}

int
merge_report(merge_acc *acc, int nfiles, char *const *files, const char *json_path,
			 const char *html_path)
{
	report_input in;
	report_figures figures;
	char	  **argv;
	char		run_id[RANDOM_RUN_ID_LEN + 1];
	FILE	   *html = NULL;
	report_file_error file_err;
	bool		together,
				json_made = false,
				html_made = false;
	int			rc = 0,
				argc = 0,
				failed = 0;
	threshold_result *checked = NULL;

	argv = pgb_calloc((size_t) nfiles + 3, sizeof(char *));
	argv[argc++] = (char *) "pgbench";
	argv[argc++] = (char *) "--merge-reports";
	if (acc->partial)
		argv[argc++] = (char *) "--merge-partial";
	for (int i = 0; i < nfiles; i++)
		argv[argc++] = files[i];
	acc->cfg.argc = argc;
	acc->cfg.argv = argv;
	acc->cfg.labels = acc->labels;
	acc->cfg.nlabels = acc->nlabels;
	together = merge_report_input(acc, &in);
	(void) random_run_id(run_id);	/* a new run: the merge's own */
	in.run_id = run_id;
	if (!together && acc->ninstances > 1)
		diag_warning("the reports did not start together (no common --rendezvous): their series are aligned by their own start times");
	if (html_path != NULL)
		html = report_html_open(html_path, &file_err);
	html_made = html != NULL && regular_file(html);
	if (html_path != NULL && html == NULL)
	{
		print_file_error(&file_err);
		rc = 1;
	}
	else if (!figures_compute(&in, &figures))
	{
		diag_error("out of memory");
		rc = 1;
	}
	else
	{
		if (acc->nthresholds > 0)
		{
			checked = pgb_calloc((size_t) acc->nthresholds, sizeof(threshold_result));
			failed = threshold_check_all(acc->thresholds, acc->nthresholds, &figures, checked);
			figures.extra.thresholds = checked;
			figures.extra.nthresholds = acc->nthresholds;
		}
		report_print(stdout, &figures);
		for (int i = 0; i < figures.extra.nthresholds; i++)
			threshold_print(stdout, &checked[i]);
		fflush(stdout);
		if ((json_path != NULL && !write_json(json_path, &figures, &json_made)) ||
			!write_html(&html, html_path, &figures))
			rc = 1;
		figures_free(&figures);
		/* as a run with an aborted client: the line, and pgbench's status 2 */
		if (in.aborted)
		{
			diag_error("Run was aborted; the above results are incomplete.");
			if (rc == 0)
				rc = 2;
		}
		if (failed > 0 && rc == 0)
			rc = THRESHOLD_EXIT_FAILED;
		free(checked);
	}
	if (html != NULL)
		fclose(html);
	if (rc == 1 && json_made)
		unlink(json_path);
	if (rc == 1 && html_made)
		unlink(html_path);
	free(argv);
	return rc;
}

void
merge_print_error(const merge_error *err)
{
	for (int i = 0; i < err->nwarnings; i++)
		diag_warning("%s", err->warnings[i]);
	if (err->message[0] == '\0')
		return;
	diag_error("%s", err->message);
	if (err->detail != NULL)
		diag_detail("%s", err->detail);
	if (err->hint != NULL)
		diag_hint("%s", err->hint);
}

int
merge_run(int nfiles, char *const *files, const char *json_path, const char *html_path,
		  bool partial, const struct threshold *thresholds, int nthresholds,
		  const run_label *labels, int nlabels)
{
	merge_acc	acc;
	merge_error err;
	bool		ok = true;
	int			rc = 1;

	memset(&acc, 0, sizeof(acc));
	memset(&err, 0, sizeof(err));
	acc.partial = partial;
	acc.spill = true;
	acc.thresholds = thresholds;
	acc.nthresholds = nthresholds;
	acc.labels = labels;
	acc.nlabels = nlabels;
	for (int i = 0; ok && i < nfiles; i++)
		ok = merge_file(&acc, files[i], &err);
	ok = ok && merge_check_groups(&acc, &err);
	merge_print_error(&err);
	if (ok)
		rc = merge_report(&acc, nfiles, files, json_path, html_path);
	merge_error_free(&err);
	merge_acc_free(&acc);
	return rc;
}
