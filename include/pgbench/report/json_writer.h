/*
 * json_writer.h — the streaming JSON writer every report file is written
 * with: the run's --report-json document (report_json*.c) and the offline
 * tools' documents (src/offline: --merge-reports, --compare, --sweep).
 *
 * One member per line, two spaces per level.  Each put_* writes one
 * member (key NULL inside an array); open_block and close_block bracket
 * an object ('{', '}') or an array ('[', ']').  Text is written as valid
 * UTF-8 (utf8.h); non-finite numbers are written as null (JSON has no
 * NaN).  A writer belongs to one thread; it prints nothing but its
 * document, except report_file_close.
 */
#ifndef PGBENCH_REPORT_JSON_WRITER_H
#define PGBENCH_REPORT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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

#endif
