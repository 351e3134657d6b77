/*
 * list_reports.c — --list-reports (list_reports.h): each report read
 * whole (a regular file of at most the merge's 256 MiB), parsed, and
 * summed up in a line.  A report is read leniently: a member missing or
 * of another kind shows as "-"; texts, file names among them, are
 * printed with control characters masked.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/offline/list_reports.h"

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

/* A file name as printed (malloc'd): its control characters masked, as a label's. */
static char *
shown_name(const char *path)
{
	char	   *shown = pgb_strdup(path);

	utf8_mask_controls(shown);
	return shown;
}

/*
 * The whole of report file path (malloc'd, its length in *len), or NULL
 * after a warning naming it as shown.  A directory given to the listing
 * may be shared: anything may be dropped into it under a name ending in
 * .json.  So only a regular file is opened (a FIFO would block the open
 * or the read for ever, a device such as /dev/zero never ends), and it
 * is opened without blocking and checked again once open, in case the
 * name was replaced in between; a file over MERGE_MAX_FILE_BYTES is
 * refused before any of it is read, and no more than the size it had
 * when opened is read.
 */
static char *
read_report(const char *path, const char *shown, size_t *len)
{
	struct stat st;
	int			fd;
	char	   *text = NULL;
	size_t		size;

	*len = 0;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
	{
		diag_warning("%s: not a regular file, skipped", shown);
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0)
	{
		diag_warning("could not open report file \"%s\": %s", shown, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0)
		diag_warning("could not read report file \"%s\": %s", shown, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		diag_warning("%s: not a regular file, skipped", shown);
	else if (st.st_size > MERGE_MAX_FILE_BYTES)
		diag_warning("%s: larger than %" PRId64 " bytes (256 MiB), the most a report may be",
					 shown, MERGE_MAX_FILE_BYTES);
	else
	{
		size = (size_t) st.st_size;
		text = pgb_malloc(size + 1);
		while (*len < size)
		{
			ssize_t		got = read(fd, text + *len, size - *len);

			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
			{
				diag_warning("could not read report file \"%s\": %s", shown, strerror(errno));
				free(text);
				text = NULL;
				break;
			}
			if (got == 0)
				break;			/* it shrank meanwhile: the parse will say */
			*len += (size_t) got;
		}
	}
	close(fd);
	return text;
}

/* Report file into *l; false (a warning printed) when it is not a report. */
static bool
read_listed(const char *file, listed *l)
{
	json_doc	doc;
	char		why[256];
	size_t		len;
	char	   *shown = shown_name(file);
	char	   *text = read_report(file, shown, &len);
	const json_value *root,
			   *lat;
	bool		ok;

	if (text == NULL)
	{
		free(shown);
		return false;
	}
	ok = json_parse(text, len, &doc, why, sizeof(why));
	free(text);
	if (!ok || doc.root.kind != JSON_OBJECT || json_get(&doc.root, "schema_version") == NULL ||
		json_get(&doc.root, "outcome") == NULL)
	{
		diag_warning("%s: not a report of pgbench%s%s", shown, ok ? "" : ": ", ok ? "" : why);
		if (ok)
			json_doc_free(&doc);
		free(shown);
		return false;
	}
	root = &doc.root;
	memset(l, 0, sizeof(*l));
	l->file = shown;
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

/* An error about path, errno's reason after it, the path shown masked. */
static void
path_error(const char *what, const char *path)
{
	int			saved = errno;
	char	   *shown = shown_name(path);

	diag_error("%s \"%s\": %s", what, shown, strerror(saved));
	free(shown);
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
		path_error("could not read", path);
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
		path_error("could not open directory", path);
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
