/*
 * list_reports.h — --list-reports DIR... (doc/compare.md): one line per
 * --report-json report found, so that a directory of runs can be told
 * apart and chosen for --compare.
 */
#ifndef PGBENCH_LIST_REPORTS_H
#define PGBENCH_LIST_REPORTS_H

/*
 * For each argument, a directory (its *.json files) or a report file:
 * a header line, then one line per report, by start time (then file
 * name): start time, outcome, tps, latency p99 (ms), labels, file, with
 * control characters masked.  A file that is not a report of this
 * pgbench gets a warning and no line, as does one that is not a regular
 * file (a FIFO, a device: skipped without waiting on it) or is larger
 * than the merge's limit (MERGE_MAX_FILE_BYTES, refused before reading).
 * Returns the exit status: 0, or 1 when an argument cannot be read.
 */
int			list_reports_run(int nargs, char *const *args);

#endif
