/*
 * report_json_int.h — the JSON writer the report unit's JSON files share
 * (report_json.c: the report; report_json_extra.c: the report files'
 * extras).  Private to those files.
 *
 * A streaming writer: one member per line, two spaces per level.  Each
 * put_* writes one member (key NULL inside an array); open_block and
 * close_block bracket an object ('{', '}') or an array ('[', ']').
 * Non-finite numbers are written as null (JSON has no NaN).
 */
#ifndef PGBENCH_REPORT_JSON_INT_H
#define PGBENCH_REPORT_JSON_INT_H

#include <stdio.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/report_schema.h"

#define JSON_MAX_DEPTH 16

typedef struct json_writer
{
	FILE	   *out;
	int			depth;
	bool		has_member[JSON_MAX_DEPTH]; /* a comma is due at this level */
	bool		failed;			/* something could not be read to write it */
	report_member schema_bad;	/* the first member written against its
								 * declaration (RM_NONE: none) */
} json_writer;

/*
 * The members of the schema (report_schema.h), by id: the key is the
 * member's, and what is written is checked against its declaration (its
 * type; null only where it may be).  A member written otherwise is
 * recorded in jw->schema_bad (the report is still written: the tests and
 * the fuzzer check that none is, report_json_schema_violation).
 */
void		jw_open(json_writer *jw, report_member m);	/* '{' or '[' by its type */
void		jw_int(json_writer *jw, report_member m, int64_t v);
void		jw_uint(json_writer *jw, report_member m, uint64_t v);
void		jw_num(json_writer *jw, report_member m, double v);	/* put_num */
void		jw_exact(json_writer *jw, report_member m, double v);	/* put_exact */
void		jw_setting(json_writer *jw, report_member m, double v);	/* put_setting */
void		jw_str(json_writer *jw, report_member m, const char *v);	/* NULL: null */
void		jw_bool(json_writer *jw, report_member m, bool v);
void		jw_null(json_writer *jw, report_member m);

/*
 * The put_* functions below take the key as a string: for an array's
 * items (NULL) and for members whose names come from data (percentiles,
 * wait events, settings, counters, which their own lists declare).
 */

/*
 * Close a report file of --compare or --sweep written with fopen; false
 * (the error printed, the file removed) when it was not all written.
 */
bool		report_file_close(FILE *out, const char *path);

/* Start a member: comma, newline, indent, and "key": unless in an array. */
void		json_member(json_writer *jw, const char *key);
void		open_block(json_writer *jw, const char *key, char brace);
void		close_block(json_writer *jw, char brace);
void		put_int(json_writer *jw, const char *key, int64_t v);
void		put_uint(json_writer *jw, const char *key, uint64_t v);

/* A measured figure: six decimals (nanoseconds for milliseconds). */
void		put_num(json_writer *jw, const char *key, double v);

/*
 * A setting as the user wrote it: the shortest of %.15g, %.16g, %.17g
 * that reads back as v (json_shortest), so a value given with up to 15
 * significant digits prints as given and any other still reads back
 * exactly (--merge-reports).
 */
void		put_setting(json_writer *jw, const char *key, double v);

/* v (finite) as put_setting prints it, into buf (32 bytes are enough). */
void		json_shortest(char *buf, size_t len, double v);

/* A double that must read back exactly (%.17g). */
void		put_exact(json_writer *jw, const char *key, double v);
void		put_str(json_writer *jw, const char *key, const char *v);
void		put_bool(json_writer *jw, const char *key, bool v);
void		put_null(json_writer *jw, const char *key);

/*
 * The extras of the report files, each a group of top-level members
 * (doc/report-json.md): metadata after the versions (e NULL: unknown), the aborted clients
 * after "aborted", the series and the histogram at the end.
 */
void		report_json_meta(json_writer *jw, int compat, const figures_extra *e);
void		report_json_aborts(json_writer *jw, const report_figures *f);
void		report_json_series(json_writer *jw, const report_figures *f);

/* "server": the server's identity and settings (null when not read). */
void		report_json_server(json_writer *jw, const report_figures *f);

/* "client": whether a worker thread was busy enough to limit the result. */
void		report_json_client(json_writer *jw, const report_figures *f);

/*
 * The server's side (report_json_server.c): the top-level "server_stats"
 * member, and a point's "server" and "host" members (run: the monitor's
 * record, NULL when not asked for; the wait events were sampled when it
 * ran, run->connected).
 */
void		report_json_server_stats(json_writer *jw, const report_figures *f);

/*
 * A merged report: an input's server ("system_identifier",
 * "server_totals"), and the top-level "servers", each server once (null
 * for a run of its own).
 */
void		report_json_source_server(json_writer *jw, const report_source *rs);
void		report_json_servers(json_writer *jw, const report_figures *f);
void		report_json_point_server(json_writer *jw, const timeline_record *r,
									 const server_run *run);
void		report_json_histogram(json_writer *jw, const report_figures *f);

/*
 * "latency_histogram" as member m (RM_TOP_, RM_SCRIPT_ or
 * RM_COMMAND_LATENCY_HISTOGRAM): h (null when NULL) with the exact sum
 * and sum of squares of the latencies it counts.
 */
void		report_json_hist(json_writer *jw, report_member m, const hist *h,
							 double sum, double sum2);

/*
 * "rendezvous", "merge" and "inputs": what merging reports needs and
 * what a merged report holds (merge.h).
 */
void		report_json_fleet(json_writer *jw, const report_figures *f);

/* "reconnect": --reconnect's outages, null without the option. */
void		report_json_reconnect(json_writer *jw, const report_figures *f);

/* "percentiles": {"p50": ...} of fl at the report files' list. */
void		report_json_percentiles(json_writer *jw, const report_figures *f,
									const figures_latency *fl);

#endif
