/*
 * tap.h — a minimal Test Anything Protocol emitter for the C unit tests.
 */
#ifndef PGBENCH_TAP_H
#define PGBENCH_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record one test; prints "ok N - name" or "not ok N - name". Returns ok. */
bool		tap_ok(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Compare and print both values on failure as a diagnostic. */
bool		tap_is_int(int64_t got, int64_t expected, const char *name);
bool		tap_is_str(const char *got, const char *expected, const char *name);
bool		tap_is_double(double got, double expected, double tolerance, const char *name);

/* "# ..." line. */
void		tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * stderr caught: from tap_stderr_catch on it goes to a temporary file;
 * tap_stderr_release puts it back and returns how many bytes were written
 * meanwhile, their start copied into buf (len bytes, NUL-ended) when buf
 * is not NULL.
 */
void		tap_stderr_catch(void);
long		tap_stderr_release(char *buf, size_t len);

/*
 * The whole file dir/name (a test's source tree, argv[1]), NUL-terminated
 * and malloc'd, at most 1 MiB of it; NULL when unreadable.
 */
char	   *tap_read_source(const char *dir, const char *name, size_t *len);

/* Print the plan "1..N" and return the exit status (0 when all passed). */
int			tap_done(void);

#endif
