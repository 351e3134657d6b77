/*
 * interrupt.h — SIGINT and SIGTERM during a benchmark run: the first one
 * asks the run to stop (and cancels the set-up statement running, if any),
 * a second one ends the process at once with 128 + its number.
 *
 * The handler only does what is async-signal-safe: it stores the signal
 * number and the stop flag (lock-free atomics), writes to an eventfd so
 * that threads blocked in ppoll wake up, and calls PQcancel (documented
 * as safe in a signal handler).  The run itself then stops every client,
 * prints its report and writes its logs (bench.c, thread.c).
 *
 * Thread-safety: interrupt_arm and interrupt_disarm run on the main
 * thread, with no other thread running or after they are joined;
 * interrupt_signal and interrupt_set_cancel may be called from any thread.
 * Only one run is armed at a time.
 */
#ifndef PGBENCH_INTERRUPT_H
#define PGBENCH_INTERRUPT_H

#include <stdatomic.h>
#include <stdbool.h>

#include <libpq-fe.h>

/*
 * Catch SIGINT and SIGTERM from now on.  On the first signal *stop is set
 * and wake_fd (an eventfd; -1: none) is written; stop must outlive the
 * armed period.  Forgets a signal caught before.
 */
void		interrupt_arm(atomic_bool *stop, int wake_fd);

/* Restore the default dispositions; the caught signal stays readable. */
void		interrupt_disarm(void);

/* The first signal caught since interrupt_arm: SIGINT, SIGTERM, or 0. */
int			interrupt_signal(void);

/*
 * The set-up statement a signal should cancel: cancel, as made by
 * PQgetCancel, or NULL for none.  The caller frees it, after setting NULL
 * here.  Only while the main thread is the only one (set-up), so that
 * the handler, which then runs on it, never sees a freed handle.
 */
void		interrupt_set_cancel(PGcancel *cancel);

/* "SIGINT" or "SIGTERM", for messages. */
const char *interrupt_signal_name(int signo);

#endif
