/*
 * test_report_file.c — the report writers' error record (report.h's
 * report_file_error): a --report-html file that cannot be opened, one on a
 * full device (/dev/full) that cannot be written, and one that can; the
 * record each leaves, its words, and that the writers print nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/report/report.h"
#include "tap.h"

/* A run that failed to start: the page needs no figures. */
static const report_ending unstarted = {
	.outcome = REPORT_FAILED_TO_START,
	.error = "the run could not start",
	.compat = 16,
};

static void
check_open(void)
{
	const char *path = "/nonexistent-pgbench-dir/r.html";
	report_file_error err = {0};
	char		msg[512];
	FILE	   *out;
	long		printed;

	tap_stderr_catch();
	out = report_html_open(path, &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(out == NULL, "a path in no directory: not opened");
	tap_is_int(printed, 0, "a path in no directory: nothing printed");
	tap_ok(err.path == path, "the record holds the caller's path");
	tap_ok(err.opening, "the record says opening");
	tap_is_int(err.errnum, ENOENT, "the record holds errno");
	tap_is_str(report_file_error_text(&err, msg, sizeof(msg)),
			   "could not open report file \"/nonexistent-pgbench-dir/r.html\": No such file or directory",
			   "in pgbench's words");
	tap_is_str(report_file_error_text(&err, msg, 12), "could not o", "cut to the buffer");
}

static void
check_full(void)
{
	report_file_error err = {0};
	char		msg[512];
	FILE	   *out;
	bool		ok;
	long		printed;

	tap_stderr_catch();
	out = report_html_open("/dev/full", &err);
	if (!tap_ok(out != NULL, "/dev/full opens"))
	{
		tap_stderr_release(NULL, 0);
		return;
	}
	ok = report_html_finish_ending(&out, "/dev/full", NULL, &unstarted, &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(!ok, "a full device: false");
	tap_ok(out == NULL, "the file is closed all the same");
	tap_is_int(printed, 0, "a full device: nothing printed");
	tap_ok(!err.opening, "the record says writing");
	tap_is_int(err.errnum, ENOSPC, "the record holds ENOSPC");
	tap_is_str(report_file_error_text(&err, msg, sizeof(msg)),
			   "could not write report file \"/dev/full\": No space left on device",
			   "in pgbench's words");
}

static void
check_written(void)
{
	char		path[] = "/tmp/test_report_file_XXXXXX";
	report_file_error err = {.path = "untouched"};
	int			fd = mkstemp(path);
	FILE	   *out;
	bool		ok;
	long		printed;

	if (!tap_ok(fd >= 0, "a temporary file"))
		return;
	close(fd);
	tap_stderr_catch();
	out = report_html_open(path, &err);
	ok = out != NULL && report_html_finish_ending(&out, path, NULL, &unstarted, &err);
	ok = ok && report_html_finish_ending(&out, path, NULL, &unstarted, &err);
	printed = tap_stderr_release(NULL, 0);
	tap_ok(ok, "written, and a second finish does nothing");
	tap_is_int(printed, 0, "written: nothing printed");
	tap_is_str(err.path, "untouched", "written: the record untouched");
	unlink(path);
}

int
main(void)
{
	check_open();
	check_full();
	check_written();
	return tap_done();
}
