/*
 * init_base.c — the bottom layer of initialization mode, what both the
 * steps (init.c) and their parallel variants (init_parallel.c) use:
 * cancellation on SIGINT, the error record of a failure (init_error),
 * running one statement, and the progress lines of a table's load.  It calls nothing of
 * init.c or init_parallel.c; they call it.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "pgbench/conn/conn.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/base/xalloc.h"

#include "init_int.h"

/* With -q, progress is shown at most once per this many seconds. */
#define INIT_QUIET_INTERVAL_SEC 5.0

/* ---- cancellation: SIGINT cancels the running statement, like pgbench ---- */

static PGcancel *volatile init_cancel_handle;
volatile sig_atomic_t init_cancel_requested;

/* The parallel steps' connections (-j N > 1), also cancelled on SIGINT. */
static PGcancel **volatile init_cancel_extra;
static volatile sig_atomic_t init_cancel_nextra;

static void
init_write_stderr(const char *text)
{
	ssize_t		rc = write(STDERR_FILENO, text, strlen(text));

	(void) rc;
}

static void
init_handle_sigint(int signo)
{
	int			saved_errno = errno;
	char		errbuf[256];

	(void) signo;
	init_cancel_requested = 1;
	if (init_cancel_handle != NULL)
	{
		if (PQcancel(init_cancel_handle, errbuf, sizeof(errbuf)))
			init_write_stderr("Cancel request sent\n");
		else
		{
			init_write_stderr("Could not send cancel request: ");
			init_write_stderr(errbuf);
		}
	}
	/* the parallel steps' other connections, quietly */
	for (int i = 0; init_cancel_extra != NULL && i < init_cancel_nextra; i++)
		(void) PQcancel(init_cancel_extra[i], errbuf, sizeof(errbuf));
	errno = saved_errno;
}

void
init_cancel_add_extra(PGcancel **handles, int n)
{
	init_cancel_nextra = 0;
	init_cancel_extra = handles;
	init_cancel_nextra = n;
}

/* Whether init_cancel_setup installed its handler (SIGINT not ignored). */
static bool init_cancel_armed;

void
init_cancel_setup(PGconn *conn)
{
	struct sigaction act;

	init_cancel_handle = PQgetCancel(conn);
	/* a SIGINT ignored at start (a background job) stays ignored */
	if (interrupt_ignored(SIGINT))
		return;
	init_cancel_armed = true;
	memset(&act, 0, sizeof(act));
	act.sa_handler = init_handle_sigint;
	sigemptyset(&act.sa_mask);
	act.sa_flags = SA_RESTART;
	sigaction(SIGINT, &act, NULL);
}

void
init_cancel_teardown(void)
{
	PGcancel   *handle = init_cancel_handle;

	if (init_cancel_armed)
		signal(SIGINT, SIG_DFL);
	init_cancel_armed = false;
	init_cancel_handle = NULL;
	init_cancel_add_extra(NULL, 0);
	PQfreeCancel(handle);
}

/* ---- the error record ---- */

void
init_error_add(init_error *err, diag_level level, const char *fmt, ...)
{
	va_list		ap;

	if (err->nlines >= INIT_ERROR_MAX_LINES)
		return;
	va_start(ap, fmt);
	err->text[err->nlines] = pgb_vasprintf(fmt, ap);
	va_end(ap);
	err->level[err->nlines] = level;
	err->nlines++;
}

void
init_error_query(init_error *err, PGconn *conn, const char *sql)
{
	char		msg[4096];

	conn_error_text(conn, msg, sizeof(msg));
	init_error_add(err, DIAG_ERROR, "query failed: %s", msg);
	init_error_add(err, DIAG_DETAIL, "Query was: %s", sql);
}

void
init_error_connect(init_error *err, const char *errbuf)
{
	init_error_add(err, DIAG_ERROR, "%s", errbuf);
	init_error_add(err, DIAG_ERROR, "could not create connection for initialization");
}

void
init_error_free(init_error *err)
{
	for (int i = 0; i < err->nlines; i++)
		free(err->text[i]);
	err->nlines = 0;
}

/* ---- statements ---- */

bool
init_exec_on(PGconn *conn, const char *sql, init_error *err)
{
	PGresult   *res = PQexec(conn, sql);
	bool		ok = PQresultStatus(res) == PGRES_COMMAND_OK;

	PQclear(res);
	if (!ok)
		init_error_query(err, conn, sql);
	return ok;
}

/* ---- progress lines ---- */

static void
init_print_progress(init_progress *prog, int64_t done, double elapsed)
{
	double		remaining = (double) (prog->total - done) * elapsed / (double) done;
	int			percent = (int) (done * 100 / prog->total);

	if (prog->table == NULL)
		prog->chars = fprintf(stderr, "%" PRId64 " of %" PRId64 " tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)",
							  done, prog->total, percent, elapsed, remaining);
	else
		prog->chars = fprintf(stderr, "%" PRId64 " of %" PRId64 " tuples (%d%%) of %s done (elapsed %.2f s, remaining %.2f s)",
							  done, prog->total, percent, prog->table, elapsed, remaining);
	if (prog->pad && prog->prev_chars > prog->chars)
		fprintf(stderr, "%*c", prog->prev_chars - prog->chars, ' ');
	fputc(prog->eol, stderr);
	prog->prev_chars = prog->chars;
}

/* Called by icopy after each batch: pgbench's checks every 100000 rows, or under -q every 100. */
void
init_on_progress(void *arg, int64_t done)
{
	init_progress *prog = arg;
	double		elapsed;

	if (!prog->quiet)
	{
		if (done % 100000 == 0)
			init_print_progress(prog, done, (double) (pgb_time_now() - prog->start) / 1e6);
		return;
	}
	if (done % 100 != 0)
		return;
	elapsed = (double) (pgb_time_now() - prog->start) / 1e6;
	if (done == prog->total || elapsed >= prog->log_interval * INIT_QUIET_INTERVAL_SEC)
	{
		init_print_progress(prog, done, elapsed);
		prog->log_interval = (int) ceil(elapsed / INIT_QUIET_INTERVAL_SEC);
	}
}

void
init_progress_setup(const init_ctx *ctx, icopy_table table, init_progress *prog)
{
	const pgb_options *opts = ctx->opts;

	*prog = (init_progress) {
		.total = icopy_rows_per_scale(table) * opts->scale,
		.quiet = opts->quiet,
		.eol = isatty(fileno(stderr)) ? '\r' : '\n',
		.log_interval = 1,
		.table = opts->compat >= 17 ? icopy_table_name(table) : NULL,
		.pad = opts->compat >= 18,
		.start = pgb_time_now(),
	};
}

void
init_progress_end(const init_progress *prog)
{
	/* leave (16) or blank out (17) the terminal's progress line */
	if (prog->eol != '\n' && prog->table == NULL)
		fputc('\n', stderr);
	else if (prog->eol != '\n' && prog->chars != 0)
		fprintf(stderr, "%*c\r", prog->chars, ' ');
}
