/*
 * compare.h — --compare BASE NEW [NEW ...] (doc/compare.md): whether the
 * runs of JSON reports differ by more than their noise.  Each argument
 * is one side: a report, or several reports of repeated runs joined by
 * commas (pooled).  Every NEW is compared with BASE: for tps and each
 * latency figure and the failures, the change with a 95% confidence
 * interval from batch means (compare_stats.h) and a verdict; then what
 * differs between the runs (server, settings, workload, host), warnings
 * for what breaks the comparison, and the server's evidence that changed
 * most per transaction.  No server is needed.
 */
#ifndef PGBENCH_COMPARE_H
#define PGBENCH_COMPARE_H

#include <stdbool.h>

struct threshold;

/*
 * Compare the sides (nsides >= 2), printing to stdout, then check the
 * nthresholds change thresholds (threshold.h) on each comparison; with
 * json_path, write the comparisons there as JSON, with html_path as a
 * page (doc/compare.md).
 * Returns the exit status: 0; 1 when a report cannot be read (its error
 * printed, in the merge's words: "FILE: PATH: what"); 3 when a threshold
 * does not hold, 4 when none failed but some could not be told.
 * per_instance (--compare-per-instance): a merged report's tps is
 * divided by its instances, so that it compares with a single run's
 * (without it such a pair is refused).
 */
int			compare_run(int nsides, char *const *sides, const char *json_path,
						const char *html_path, const struct threshold *thresholds,
						int nthresholds, bool per_instance);

#endif
