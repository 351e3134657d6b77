/*
 * tap.h — a minimal Test Anything Protocol emitter for the C unit tests.
 */
#ifndef PGBENCH_TAP_H
#define PGBENCH_TAP_H

#include <stdbool.h>
#include <stdint.h>

/* Record one test; prints "ok N - name" or "not ok N - name". Returns ok. */
bool		tap_ok(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Compare and print both values on failure as a diagnostic. */
bool		tap_is_int(int64_t got, int64_t expected, const char *name);
bool		tap_is_str(const char *got, const char *expected, const char *name);
bool		tap_is_double(double got, double expected, double tolerance, const char *name);

/* "# ..." line. */
void		tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the plan "1..N" and return the exit status (0 when all passed). */
int			tap_done(void);

#endif
