/*
 * merge.h — pgbench --merge-reports FILE...: the JSON reports of several
 * instances (doc/fleet.md) added up into the report one process running
 * all their clients would have printed, with no server.
 *
 * Counts, clients and threads are summed; latency averages and standard
 * deviations come from the exact sums, percentiles from the merged
 * histograms (doc/report-json.md), the series point by point.  The time
 * window goes from the earliest start to the latest end, in the server's
 * clock when every report comes from the same --rendezvous (their
 * intervals then line up), else with each report's series counted from
 * its own start (a warning says so).  Reports of different workloads or
 * modes are refused, naming the first difference.  So are the same run
 * given twice (by its run id, whatever the file's name) and a rendezvous
 * group given in part (unless partial: a warning then names what is
 * missing); the merged report gets a run id of its own and lists the
 * runs it holds ("inputs").
 */
#ifndef PGBENCH_MERGE_H
#define PGBENCH_MERGE_H

#include "pgbench/base/common.h"

/*
 * Read the nfiles reports, print the merged text report on stdout and,
 * when json_path / html_path are not NULL, write the merged JSON / HTML
 * reports there.  Prints pgbench-style messages; returns the exit code:
 * 0; 1 when a file cannot be read, is larger than 256 MiB, is not a
 * report of this pgbench, has a member of the wrong type, out of range or
 * inconsistent ("FILE: PATH: what is wrong"), makes a sum overflow, or
 * differs in workload from the first, holds a run another report holds
 * too, or leaves a rendezvous group incomplete without partial (nothing
 * is printed or written then), or when a merged report file cannot be
 * written (none is left); 2 when any instance aborted; 3 when one of the
 * nthresholds thresholds (threshold.h) does not hold on the merged
 * figures (their lines follow the text report).  The merged report files
 * carry the nlabels labels (--label) of the merge.
 */
struct threshold;
struct run_label;
int			merge_run(int nfiles, char *const *files, const char *json_path,
					  const char *html_path, bool partial, const struct threshold *thresholds,
					  int nthresholds, const struct run_label *labels, int nlabels);

#endif
