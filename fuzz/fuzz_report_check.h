/*
 * fuzz_report_check.h — what the parts of fr_check_report share: a value
 * of the document read back (chk) with the object its declaration says it
 * is, the checks of one value (fuzz_report_values.c), and those of the
 * server's side, the series' points, a merged report's inputs and the
 * thresholds (fuzz_report_check_server.c), which fuzz_report_check.c
 * calls.
 */
#ifndef PGBENCH_FUZZ_REPORT_CHECK_H
#define PGBENCH_FUZZ_REPORT_CHECK_H

#include "fuzz_report.h"
#include "pgbench/offline/report_check.h"
#include "pgbench/report/report_schema.h"

/*
 * A value of the document and its path, for the messages; obj: the
 * object of report_schema.h it is (an object, or the items of an array),
 * RO_NONE when its members are named by data or it holds scalars; holder:
 * the member that holds it (RM_NONE at the top).
 */
typedef struct chk
{
	const json_value *v;
	char		path[192];
	report_object obj;
	report_member holder;
} chk;

/* ---- one value (fuzz_report_values.c) ---------------------------------------- */

/* Member key of c (key NULL: c's value itself); missing: fr_fail. */
const json_value *chk_at(const chk *c, const char *key);

/*
 * Member key of c, a declared object: there, of its declared type, not
 * null; an object held to its own declaration (chk_declared).
 */
chk			chk_sub(const chk *c, const char *key);

/* Member key of c, an object whose members are named by data: of kind. */
chk			chk_named(const chk *c, const char *key, json_kind kind);

/* Item i of the array c, which must have n items (objects: chk_declared). */
chk			chk_item(const chk *c, int i, int n);

/* The object c against its declaration (report_object_check). */
void		chk_declared(const chk *c, bool unstarted);

/*
 * Member key: false when it must be null (!present), else its object in
 * *s (chk_sub).
 */
bool		object_or_null(const chk *c, const char *key, bool present, chk *s);

/* Object c has exactly n members. */
void		want_members(const chk *c, int n);

/* A text that is written as null when empty (not known). */
const char *chk_known(const char *s);

/* The value of member key (NULL: c's own) reads back as the writer must write it. */
void		want_null(const chk *c, const char *key);
void		want_bool(const chk *c, const char *key, bool x);
void		want_int(const chk *c, const char *key, int64_t x);
void		want_uint(const chk *c, const char *key, uint64_t x);
void		want_double(const chk *c, const char *key, double x, double tol);
void		want_exact(const chk *c, const char *key, double x);
void		want_num(const chk *c, const char *key, double x);
void		want_str(const chk *c, const char *key, const char *s);

/* ---- the server's side, points, inputs, thresholds (fuzz_report_check_server.c) */

void		want_server_client(const chk *c, const figures_extra *e);
void		want_server_stats(const chk *c, const figures_extra *e, int warmup);
void		want_point(const chk *c, const timeline_record *r, bool throttled,
					   const server_run *run);
void		want_inputs_servers(const chk *c, const figures_extra *e);
void		want_thresholds(const chk *c, const figures_extra *e);

#endif
