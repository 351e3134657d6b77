/*
 * interrupt.h — SIGINT and SIGTERM during a benchmark run: the first one
 * asks the run to stop, a second one ends the process at once with
 * 128 + its number.
 *
 * The handler only does what is async-signal-safe: it stores the signal
 * number and the stop flag (lock-free atomics) and writes to an eventfd
 * so that threads blocked in a wait wake up.  The run itself then cancels
 * what the server is running for it, stops every client, prints its
 * report and writes its logs (bench.c, thread.c).
 *
 * Thread-safety: interrupt_arm and interrupt_disarm run on the main
 * thread, with no other thread running or after they are joined;
 * interrupt_signal may be called from any thread.
 * Only one run is armed at a time.
 */
#ifndef PGBENCH_INTERRUPT_H
#define PGBENCH_INTERRUPT_H

#include <stdatomic.h>
#include <stdbool.h>

/*
 * Catch SIGINT and SIGTERM from now on, each unless it is ignored (SIG_IGN
 * inherited: it stays ignored).  On the first signal *stop is set and
 * wake_fd (an eventfd; -1: none) is written; stop must outlive the armed
 * period.  Forgets a signal caught before.
 */
void		interrupt_arm(atomic_bool *stop, int wake_fd);

/* Restore what interrupt_arm replaced; the caught signal stays readable. */
void		interrupt_disarm(void);

/* Whether signo is ignored now (SIG_IGN), as when inherited so. */
bool		interrupt_ignored(int signo);

/* The first signal caught since interrupt_arm: SIGINT, SIGTERM, or 0. */
int			interrupt_signal(void);

/* "SIGINT" or "SIGTERM", for messages. */
const char *interrupt_signal_name(int signo);

#endif
