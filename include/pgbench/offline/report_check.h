/*
 * report_check.h — a --report-json document read back (json_read.h)
 * against the declaration of its members (report_schema.h): the check the
 * unit tests and the fuzzer walk written reports with.  Pure functions of
 * their arguments; any thread.
 */
#ifndef PGBENCH_OFFLINE_REPORT_CHECK_H
#define PGBENCH_OFFLINE_REPORT_CHECK_H

#include <stdbool.h>

#include "pgbench/report/report_schema.h"

struct json_value;

/* Whether v (json_read.h) is of m's declared type, or null where m may be. */
bool		report_value_fits(report_member m, const struct json_value *v);

/* What report_object_check finds wrong with an object of a document. */
typedef enum report_offence
{
	RX_NONE,					/* as declared */
	RX_UNDECLARED,				/* a member o does not declare */
	RX_MISTYPED,				/* a member not at its declared type */
	RX_MISSING,					/* a declared member absent */
} report_offence;

/*
 * obj, a JSON object held as object o by member holder (RM_NONE: the top
 * level), against o's declaration: its members (and, in `transactions`,
 * the counters of STATS_COUNTERS) declared, at their types, and every
 * member there but those that may be absent (RF_OPTIONAL, RF_FIRST_HOLDER
 * ones outside the first holder's object).  unstarted: the top level of
 * a run that never benchmarked, whose members are the RF_UNSTARTED ones.
 * The first offence, with the member's key in *key; not the objects that
 * obj's members hold.
 */
report_offence report_object_check(report_object o, report_member holder, bool unstarted,
								   const struct json_value *obj, const char **key);

#endif
