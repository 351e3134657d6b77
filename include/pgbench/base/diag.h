/*
 * diag.h — pgbench-style diagnostics on stderr: "pgbench: error: ...",
 * "pgbench: warning: ...", "pgbench: hint: ...", "pgbench: detail: ...".
 *
 * Honours PG_COLOR (always/auto/never) and PG_COLORS like PostgreSQL's
 * logging.  Start-up code (options, script loading, init), the report
 * path and the run engine's client messages print through here; library
 * units (eval, variables, random, txlog, ...) return errors instead.
 * Thread-safety: diag_init and diag_set_verbose run before any thread
 * starts; each message is then written with a single fwrite, so lines
 * from different threads do not interleave.
 */
#ifndef PGBENCH_DIAG_H
#define PGBENCH_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

typedef enum diag_level
{
	DIAG_DEBUG,
	DIAG_INFO,
	DIAG_WARNING,
	DIAG_ERROR,
	DIAG_DETAIL,				/* follows an error: "pgbench: detail: " */
	DIAG_HINT,					/* follows an error: "pgbench: hint: " */
} diag_level;

/*
 * Set the program name shown before each message (default "pgbench"; a
 * path is cut to its last component, progname must outlive the program)
 * and read PG_COLOR / PG_COLORS.  Start-up only.
 */
void diag_init(const char *progname);

/* DIAG_INFO always shows; DIAG_DEBUG only when verbose (set by -d). */
void diag_set_verbose(bool verbose);

/*
 * Print one message: "pgbench: " (coloured as the locus), the level's
 * label, then fmt formatted, ending with exactly one newline (added when
 * fmt lacks it).  A message longer than 8 KiB is cut.  DIAG_DEBUG prints
 * nothing unless verbose.  Any thread.
 */
void diag_log(diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_vlog(diag_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#define diag_error(...) diag_log(DIAG_ERROR, __VA_ARGS__)
#define diag_warning(...) diag_log(DIAG_WARNING, __VA_ARGS__)
#define diag_info(...) diag_log(DIAG_INFO, __VA_ARGS__)
#define diag_debug(...) diag_log(DIAG_DEBUG, __VA_ARGS__)
#define diag_detail(...) diag_log(DIAG_DETAIL, __VA_ARGS__)
#define diag_hint(...) diag_log(DIAG_HINT, __VA_ARGS__)

/*
 * The message of the first DIAG_ERROR printed (without "pgbench: error: "
 * or the newline; cut at 1 KiB), or NULL when none was: what the report
 * files give as the reason a run failed to start or aborted.  Any
 * thread; complete once returned.
 */
const char *diag_first_error(void);

/* The standard usage hint: 'Try "pgbench --help" for more information.' */
void diag_usage_hint(void);

#endif
