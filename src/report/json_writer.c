/*
 * json_writer.c — the streaming JSON writer (json_writer.h) every report
 * file is written with.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/report/json_writer.h"

/*
 * A JSON string: control characters, '"' and '\\' escaped; every other
 * byte of well-formed UTF-8 as is, and each ill-formed subpart as one
 * U+FFFD (utf8.h), so the document is valid UTF-8 whatever the bytes of
 * the file names, SQL, variable values and server messages it carries.
 */
static void
put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t		n = strlen(s);
	size_t		run = 0;		/* start of the bytes not yet written */

	fputc('"', out);
	for (size_t i = 0; i < n;)
	{
		unsigned char c = p[i];
		int			k = 0;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
		{
			i++;
			continue;
		}
		if (c >= 0x80)
		{
			k = utf8_next(p + i, n - i);
			if (k > 0)
			{
				i += (size_t) k;
				continue;
			}
		}
		/* an escape or a replacement: the plain bytes before it first */
		fwrite(p + run, 1, i - run, out);
		if (c >= 0x80)
		{
			fputs(UTF8_REPLACEMENT, out);
			i += (size_t) -k;
			run = i;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else
			fprintf(out, "\\u%04x", c);
		run = ++i;
	}
	fwrite(p + run, 1, n - run, out);
	fputc('"', out);
}

/* Start a member: comma, newline, indent, and "key": unless in an array. */
void
json_member(json_writer *jw, const char *key)
{
	if (jw->has_member[jw->depth])
		fputc(',', jw->out);
	/* the document itself starts the file, without a blank line */
	if (jw->depth > 0 || jw->has_member[0])
		fprintf(jw->out, "\n%*s", 2 * jw->depth, "");
	jw->has_member[jw->depth] = true;
	if (key != NULL)
	{
		put_string(jw->out, key);
		fputs(": ", jw->out);
	}
}

void
open_block(json_writer *jw, const char *key, char brace)
{
	json_member(jw, key);
	fputc(brace, jw->out);
	if (jw->depth + 1 < JSON_MAX_DEPTH)
		jw->depth++;
	jw->has_member[jw->depth] = false;
}

void
close_block(json_writer *jw, char brace)
{
	bool		had = jw->has_member[jw->depth];

	jw->depth--;
	if (had)
		fprintf(jw->out, "\n%*s", 2 * jw->depth, "");
	fputc(brace, jw->out);
}

void
put_int(json_writer *jw, const char *key, int64_t v)
{
	json_member(jw, key);
	fprintf(jw->out, "%" PRId64, v);
}

/* A number in fmt; JSON has no NaN or infinity: null. */
static void
put_num_fmt(json_writer *jw, const char *key, double v, const char *fmt)
{
	json_member(jw, key);
	if (isfinite(v))
		fprintf(jw->out, fmt, v);
	else
		fputs("null", jw->out);
}

/* A measured figure: six decimals (nanoseconds for milliseconds). */
void
put_num(json_writer *jw, const char *key, double v)
{
	put_num_fmt(jw, key, v, "%.6f");
}

void
json_shortest(char *buf, size_t len, double v)
{
	for (int precision = 15; precision < 17; precision++)
	{
		snprintf(buf, len, "%.*g", precision, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* A setting as the user wrote it: the shortest form that reads back. */
void
put_setting(json_writer *jw, const char *key, double v)
{
	char		buf[32];

	json_member(jw, key);
	if (isfinite(v))
	{
		json_shortest(buf, sizeof(buf), v);
		fputs(buf, jw->out);
	}
	else
		fputs("null", jw->out);
}

void
put_str(json_writer *jw, const char *key, const char *v)
{
	json_member(jw, key);
	if (v != NULL)
		put_string(jw->out, v);
	else
		fputs("null", jw->out);
}

void
put_bool(json_writer *jw, const char *key, bool v)
{
	json_member(jw, key);
	fputs(v ? "true" : "false", jw->out);
}

void
put_null(json_writer *jw, const char *key)
{
	json_member(jw, key);
	fputs("null", jw->out);
}

void
put_uint(json_writer *jw, const char *key, uint64_t v)
{
	json_member(jw, key);
	fprintf(jw->out, "%" PRIu64, v);
}

void
put_exact(json_writer *jw, const char *key, double v)
{
	put_num_fmt(jw, key, v, "%.17g");
}

/* ---- members of the schema ------------------------------------------------ */

/* Whether writing m as type (null: is_null) keeps to its declaration. */
static void
jw_check(json_writer *jw, report_member m, report_type type, bool is_null)
{
	const report_member_def *d = &report_members[m];

	if (jw->schema_bad != RM_NONE)
		return;
	if (is_null ? !d->nullable : d->type != type)
		jw->schema_bad = m;
}

void
jw_open(json_writer *jw, report_member m)
{
	bool		array = report_members[m].type == RT_ARRAY;

	jw_check(jw, m, array ? RT_ARRAY : RT_OBJECT, false);
	open_block(jw, report_key(m), array ? '[' : '{');
}

void
jw_int(json_writer *jw, report_member m, int64_t v)
{
	jw_check(jw, m, RT_INT, false);
	put_int(jw, report_key(m), v);
}

void
jw_uint(json_writer *jw, report_member m, uint64_t v)
{
	jw_check(jw, m, RT_INT, false);
	put_uint(jw, report_key(m), v);
}

void
jw_num(json_writer *jw, report_member m, double v)
{
	jw_check(jw, m, RT_NUMBER, !isfinite(v));
	put_num(jw, report_key(m), v);
}

void
jw_exact(json_writer *jw, report_member m, double v)
{
	jw_check(jw, m, RT_NUMBER, !isfinite(v));
	put_exact(jw, report_key(m), v);
}

void
jw_setting(json_writer *jw, report_member m, double v)
{
	jw_check(jw, m, RT_NUMBER, !isfinite(v));
	put_setting(jw, report_key(m), v);
}

void
jw_str(json_writer *jw, report_member m, const char *v)
{
	jw_check(jw, m, RT_STRING, v == NULL);
	put_str(jw, report_key(m), v);
}

void
jw_bool(json_writer *jw, report_member m, bool v)
{
	jw_check(jw, m, RT_BOOL, false);
	put_bool(jw, report_key(m), v);
}

void
jw_null(json_writer *jw, report_member m)
{
	jw_check(jw, m, report_members[m].type, true);
	put_null(jw, report_key(m));
}

bool
report_file_close(FILE *out, const char *path)
{
	bool		ok = fflush(out) == 0 && !ferror(out);

	if (fclose(out) != 0)
		ok = false;
	if (!ok)
	{
		diag_error("could not write report file \"%s\": %s", path, strerror(errno));
		unlink(path);
	}
	return ok;
}
