/*
 * common.h — basic types and limits shared by every unit of pgbench.
 *
 * Time is one 64-bit microsecond type everywhere (pg_time_usec_t) on a
 * monotonic clock, read once per pass through a state machine.
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

typedef enum query_mode
{
	QUERY_SIMPLE,				/* PQsendQuery with variables substituted as text */
	QUERY_EXTENDED,				/* PQsendQueryParams, variables as $n parameters */
	QUERY_PREPARED,				/* PQsendPrepare once, then PQsendQueryPrepared */
} query_mode;

typedef enum partition_method
{
	PART_NONE,
	PART_RANGE,
	PART_HASH,
} partition_method;

/*
 * The PostgreSQL majors whose pgbench behaviour can be followed
 * (--compat, PGBENCH_COMPAT, the meson option compat_default).
 */
#define PGB_COMPAT_MIN 16
#define PGB_COMPAT_MAX 19

/* Most percentiles --percentiles accepts. */
#define PGB_MAX_PERCENTILES 16

/*
 * The one clock: microseconds on CLOCK_MONOTONIC, for every interval,
 * deadline and schedule, so that a step of the wall clock moves none of
 * them.  Its origin is arbitrary: only differences mean anything.
 */
pg_time_usec_t pgb_time_now(void);

/*
 * A pgb_time_now() value as microseconds since the Unix epoch, for what
 * pgbench prints as epoch time (-l logs, --progress-timestamp).  The
 * offset between the two clocks is taken once, at the first call (made by
 * main before any thread starts, through pgb_time_init); thread-safe
 * afterwards.
 */
pg_time_usec_t pgb_time_to_epoch(pg_time_usec_t mono);

/* Fix the monotonic-to-epoch offset now.  main calls it first thing. */
void		pgb_time_init(void);

/*
 * Milliseconds as whole microseconds, the one conversion of -L (the
 * options, and a merge reading a report back): truncated, as pgbench's
 * cast; INT64_MIN for NaN and values out of int64's range, the result
 * pgbench's cast gives on x86-64, made defined.  PGB_MAX_MSEC: a bound
 * below which every value converts.
 */
int64_t		pgb_usec_from_msec(double msec);

#define PGB_MAX_MSEC 9.2e15

#endif
