/*
 * report.h — the final report of a benchmark run, printed on stdout with
 * the lines of pgbench 16: test parameters, transaction counts, latency,
 * connection time and tps, then per-script and per-command figures (-r,
 * several scripts).  In compatibility modes 18 and 19 (report_figures.compat)
 * the lines of those versions: 18's per-script block, -r spacing and early
 * stop, 19's "other failures" lines (doc/report.md has the list).  Our --percentiles adds "latency pN = X ms" lines
 * after the latency lines (overall and per script); --report-json writes
 * the same figures as one JSON document (report_json.c, doc/report-json.md).
 *
 * The printers only format: every number they show is computed once, by
 * figures_compute (figures.h), from a report_input.
 */
#ifndef PGBENCH_REPORT_H
#define PGBENCH_REPORT_H

#include <stdio.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report_schema.h"

/* Print the report to out.  Floating point as PostgreSQL's printf ("NaN"). */
void		report_print(FILE *out, const report_figures *f);

/*
 * The "schema_version" of the JSON document (doc/report-json.md), and the
 * oldest one --merge-reports still reads (the members it reads are the
 * same in both).
 */
#define REPORT_JSON_SCHEMA_VERSION 5
#define REPORT_JSON_SCHEMA_OLDEST 2
/* How a run ended: --report-json's "outcome" (doc/report-json.md). */
typedef enum report_outcome
{
	REPORT_COMPLETED,			/* every client finished its run */
	REPORT_ABORTED,				/* a client aborted (--exit-on-abort or not) */
	REPORT_INTERRUPTED,			/* SIGINT or SIGTERM stopped the run */
	REPORT_FAILED_TO_START,		/* no benchmarking happened: set-up failed */
} report_outcome;

/* The ending of a run, beside (or instead of) its figures. */
typedef struct report_ending
{
	report_outcome outcome;
	const char *signal;			/* REPORT_INTERRUPTED: "SIGINT" or "SIGTERM" */
	const char *error;			/* what ended it (the first error printed):
								 * aborted or failed to start; else NULL */
	/* without figures, what stands for them (else f's are used): */
	const char *server_version; /* the server's, or NULL when no connection
								 * was made */
	const char *run_id;			/* the run's; NULL: none */
	int			compat;			/* the compatibility mode */
	const figures_extra *meta;	/* command line, start and end, connection
								 * (figures_meta_compute); NULL: unknown */
} report_ending;

/*
 * The report as report_print prints it, told how the run ended: an
 * interrupted run's report opens with "run interrupted by SIGINT after
 * 3.512 s" (" (of 30 s)" under -T) and its "duration:" line gives the
 * measured time ("duration: 3.512 s"); other endings print exactly
 * report_print's lines (doc/report.md).
 */
void		report_print_ending(FILE *out, const report_figures *f, const report_ending *end);

/*
 * Write the whole report as one JSON document (doc/report-json.md) to out,
 * its outcome "completed" or (f->aborted) "aborted".  Returns false when a
 * write to out failed (ferror).
 */
bool		report_json_write(FILE *out, const report_figures *f);

/*
 * The first member the last report_json_write* wrote against its
 * declaration in report_schema.h (a type or a null it may not have), or
 * RM_NONE: for the tests and the fuzzer, which want none.
 */
report_member report_json_schema_violation(void);

/*
 * The same with the ending given: f may be NULL when nothing ran (failed
 * to start, or interrupted before the start), and the document then holds
 * the versions, the outcome, the signal, the error and end->meta's
 * command line, times and connection.
 */
bool		report_json_write_ending(FILE *out, const report_figures *f,
									 const report_ending *end);

/*
 * Format v with fmt (one floating conversion, e.g. "%.3f") into buf as
 * PostgreSQL's printf does, non-finite values included: "NaN",
 * "Infinity", "-Infinity".  Returns buf or a constant string.
 */
const char *report_num(char *buf, size_t len, const char *fmt, double v);

/*
 * Why a report file could not be opened or written (doc/design.md,
 * "Errors and memory"): owned by the caller, filled by the writer that
 * failed, printed by the caller through diag_error with
 * report_file_error_text's words.  The writers print nothing.
 */
typedef struct report_file_error
{
	const char *path;			/* the file as given (the caller's string) */
	bool		opening;		/* could not open it; else could not write it */
	int			errnum;			/* errno at the failure */
} report_file_error;

/*
 * err in pgbench's words, without "pgbench: error: ": 'could not open
 * report file "PATH": No such file or directory' or 'could not write
 * report file "PATH": No space left on device'.  Written into buf (cut
 * to len), which is returned.
 */
const char *report_file_error_text(const report_file_error *err, char *buf, size_t len);

/*
 * --report-html: open (truncate) path before the run, so that a bad path
 * stops the run at once.  NULL on failure, with *err filled (opening).
 */
FILE	   *report_html_open(const char *path, report_file_error *err);

/*
 * Write the HTML page of f (the JSON document embedded, drawn by the
 * vendored uPlot) to *out, close it and set *out to NULL.  On a write
 * error returns false with *err filled (path, errno).  *out NULL: nothing
 * to do, true.  Prints nothing.
 */
bool		report_html_finish(FILE **out, const char *path, const report_figures *f,
							   report_file_error *err);

/*
 * The same told how the run ended (the page's banner), f NULL when
 * nothing ran (as report_json_write_ending).
 */
bool		report_html_finish_ending(FILE **out, const char *path, const report_figures *f,
									  const report_ending *end, report_file_error *err);

/*
 * The JSON text json[0..len) as the page embeds it in its <script>
 * element: '<', '>', '&', U+2028 and U+2029 written as \u escapes, so
 * that no string in it can end the element or open a comment.
 */
void		report_html_put_json(FILE *out, const char *json, size_t len);

/* A page of report_html_put_page: its title, what it shows, its data element and script. */
typedef struct report_page
{
	const char *title;			/* "pgbench report" */
	const char *what;			/* "report": "This report is drawn by JavaScript" */
	const char *data_id;		/* the id of the element holding the JSON */
	const char *js;				/* the page's own script (after uPlot) */
	size_t		js_len;
} report_page;

/*
 * A whole self-contained page to out: uPlot and its licence, the style,
 * json embedded (report_html_put_json) and page's script.
 */
void		report_html_put_page(FILE *out, const report_page *page, const char *json, size_t len);

#endif
