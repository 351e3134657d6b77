/*
 * common.h — basic types and limits shared by every unit of pgbench.
 *
 * Time is one 64-bit microsecond type everywhere (pg_time_usec_t), read
 * once per pass through a state machine.
 */
#ifndef PGBENCH_COMMON_H
#define PGBENCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>

typedef int64_t pg_time_usec_t;

/* Most parameters a single SQL command may carry (":name" uses). */
#define PGB_MAX_ARGS 256

/* Longest meta-command argument list (\shell and friends). */
#define PGB_MAX_META_ARGS 256

#define PGB_LIKELY(x) __builtin_expect(!!(x), 1)
#define PGB_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define PGB_LENGTHOF(array) (sizeof(array) / sizeof((array)[0]))

/* Current time, microseconds since the epoch (CLOCK_REALTIME like pgbench). */
pg_time_usec_t pgb_time_now(void);

#endif
