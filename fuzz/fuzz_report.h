/*
 * fuzz_report.h — the parts of fuzz_report (the report writers' round
 * trip): fuzz_report.c makes a report_figures from the input and drives
 * --report-json's and --report-html's writers; fuzz_report_check.c reads
 * what they wrote back with our JSON reader and compares it with the
 * figures, value by value.
 */
#ifndef PGBENCH_FUZZ_REPORT_H
#define PGBENCH_FUZZ_REPORT_H

#include "pgbench/report/figures.h"
#include "pgbench/offline/json_read.h"
#include "pgbench/report/report.h"

/*
 * A mismatch: the message (printf format) on file descriptor 2, which
 * fuzz_quiet leaves to libFuzzer and the sanitizers, then abort().
 */
void		fr_fail(const char *fmt,...)
			__attribute__((noreturn, format(printf, 1, 2)));

/*
 * Check that root, the document report_json_write_ending wrote for f
 * (NULL: no figures) and end, holds every value as the writer must
 * write it: strings as utf8_sanitize makes them, integers exactly,
 * doubles exactly or (figures of six decimals) within half a unit of
 * the sixth decimal, non-finite doubles as null.  fr_fail otherwise.
 */
void		fr_check_report(const json_value *root, const report_figures *f,
							const report_ending *end);

#endif
