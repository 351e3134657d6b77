/*
 * list_reports.c — --list-reports (list_reports.h): each report read
 * whole (at most the merge's 256 MiB), parsed, and summed up in a line.
 * A report is read leniently: a member missing or of another kind shows
 * as "-"; texts are printed with control characters masked.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merge_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/report/list_reports.h"

typedef struct listed
{
	char	   *file;
	char		start[40];		/* start_time, or "-" */
	char		outcome[24];
	char		tps[32];
	char		p99[32];
	char	   *labels;			/* "k=v,k=v", or "-" */
} listed;

/* s into buf (at most len - 1 bytes), control characters masked. */
static void
copy_text(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%s", s != NULL ? s : "-");
	utf8_mask_controls(buf);
}

static void
number_text(char *buf, size_t len, const json_value *v, const char *fmt)
{
	if (v != NULL && v->kind == JSON_NUMBER)
		snprintf(buf, len, fmt, json_num(v));
	else
		snprintf(buf, len, "-");
}

/* The labels object as "k=v,k=v" (malloc'd), "-" when none, control characters masked. */
static char *
labels_text(const json_value *labels)
{
	size_t		len = 2,
				at = 0;
	int			n = labels != NULL && labels->kind == JSON_OBJECT ? labels->n : 0;
	char	   *out;

	for (int i = 0; i < n; i++)
	{
		const char *v = json_str(json_member_value(labels, i));

		len += strlen(json_member_name(labels, i)) + 2 + (v != NULL ? strlen(v) : 0);
	}
	out = pgb_calloc(len, 1);
	for (int i = 0; i < n; i++)
	{
		const char *v = json_str(json_member_value(labels, i));

		at += (size_t) snprintf(out + at, len - at, "%s%s=%s", i > 0 ? "," : "",
								json_member_name(labels, i), v != NULL ? v : "");
	}
	if (n == 0)
		snprintf(out, len, "-");
	utf8_mask_controls(out);
	return out;
}

/* Report file into *l; false (a warning printed) when it is not a report. */
static bool
read_listed(const char *file, listed *l)
{
	merge_error err;
	json_doc	doc;
	char		why[256];
	size_t		len;
	char	   *text;
	const json_value *root,
			   *lat;
	bool		ok;

	memset(&err, 0, sizeof(err));
	text = merge_read_file(file, &len, &err);
	if (text == NULL)
	{
		diag_warning("%s", err.message);
		merge_error_free(&err);
		return false;
	}
	ok = json_parse(text, len, &doc, why, sizeof(why));
	free(text);
	if (!ok || doc.root.kind != JSON_OBJECT || json_get(&doc.root, "schema_version") == NULL ||
		json_get(&doc.root, "outcome") == NULL)
	{
		diag_warning("%s: not a report of pgbench%s%s", file, ok ? "" : ": ", ok ? "" : why);
		if (ok)
			json_doc_free(&doc);
		return false;
	}
	root = &doc.root;
	memset(l, 0, sizeof(*l));
	l->file = pgb_strdup(file);
	copy_text(l->start, sizeof(l->start), json_str(json_get(root, "start_time")));
	copy_text(l->outcome, sizeof(l->outcome), json_str(json_get(root, "outcome")));
	number_text(l->tps, sizeof(l->tps), json_get(root, "tps"), "%.1f");
	lat = json_get(root, "latency_ms");
	lat = lat != NULL && lat->kind == JSON_OBJECT ? json_get(lat, "percentiles") : NULL;
	number_text(l->p99, sizeof(l->p99),
				lat != NULL && lat->kind == JSON_OBJECT ? json_get(lat, "p99") : NULL, "%.3f");
	l->labels = labels_text(json_get(root, "labels"));
	json_doc_free(&doc);
	return true;
}

static int
by_start(const void *a, const void *b)
{
	const listed *x = a,
			   *y = b;
	int			c = strcmp(x->start, y->start);

	return c != 0 ? c : strcmp(x->file, y->file);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Add the reports of path (a directory's *.json, or a file) to *list; false when unreadable. */
static bool
add_path(const char *path, listed **list, int *n)
{
	struct stat st;
	DIR		   *d;
	struct dirent *e;
	char	  **names = NULL;
	int			nnames = 0;

	if (stat(path, &st) != 0)
	{
		diag_error("could not read \"%s\": %s", path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode))
	{
		*list = pgb_realloc(*list, (size_t) (*n + 1) * sizeof(listed));
		*n += read_listed(path, &(*list)[*n]);
		return true;
	}
	if ((d = opendir(path)) == NULL)
	{
		diag_error("could not open directory \"%s\": %s", path, strerror(errno));
		return false;
	}
	while ((e = readdir(d)) != NULL)
	{
		size_t		len = strlen(e->d_name);

		if (len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		names = pgb_realloc(names, (size_t) (nnames + 1) * sizeof(char *));
		names[nnames] = pgb_calloc(strlen(path) + len + 2, 1);
		sprintf(names[nnames++], "%s/%s", path, e->d_name);
	}
	closedir(d);
	if (nnames > 0)
		qsort(names, (size_t) nnames, sizeof(char *), by_name);
	for (int i = 0; i < nnames; i++)
	{
		*list = pgb_realloc(*list, (size_t) (*n + 1) * sizeof(listed));
		*n += read_listed(names[i], &(*list)[*n]);
		free(names[i]);
	}
	free(names);
	return true;
}

int
list_reports_run(int nargs, char *const *args)
{
	listed	   *list = NULL;
	int			n = 0,
				rc = 0;

	for (int i = 0; i < nargs; i++)
		if (!add_path(args[i], &list, &n))
			rc = 1;
	if (rc == 0)
	{
		if (n > 0)
			qsort(list, (size_t) n, sizeof(listed), by_start);
		printf("%-24s  %-15s  %12s  %10s  %-24s  %s\n", "start", "outcome", "tps", "p99 (ms)",
			   "labels", "file");
		for (int i = 0; i < n; i++)
			printf("%-24s  %-15s  %12s  %10s  %-24s  %s\n", list[i].start, list[i].outcome,
				   list[i].tps, list[i].p99, list[i].labels, list[i].file);
	}
	for (int i = 0; i < n; i++)
	{
		free(list[i].file);
		free(list[i].labels);
	}
	free(list);
	return rc;
}
