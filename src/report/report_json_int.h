/*
 * report_json_int.h — the groups of members the run's --report-json
 * document is written in (report_json.c: the report; report_json_extra.c
 * and report_json_server.c: the report files' extras), over the writer of
 * json_writer.h.  Private to those files.
 */
#ifndef PGBENCH_REPORT_JSON_INT_H
#define PGBENCH_REPORT_JSON_INT_H

#include <stdio.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/json_writer.h"
#include "pgbench/report/report_schema.h"

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
