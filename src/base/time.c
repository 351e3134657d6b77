/*
 * time.c — the one clock of pgbench: CLOCK_MONOTONIC microseconds as a
 * 64-bit integer, and the single conversion to epoch time for output.
 */
#include <time.h>

#include "pgbench/base/common.h"

/* epoch us minus monotonic us, fixed by pgb_time_init before threads start */
static pg_time_usec_t epoch_offset;
static bool epoch_offset_set;

static pg_time_usec_t
clock_usec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (pg_time_usec_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

pg_time_usec_t
pgb_time_now(void)
{
	return clock_usec(CLOCK_MONOTONIC);
}

void
pgb_time_init(void)
{
	if (epoch_offset_set)
		return;
	/* the two reads are a few ns apart: well within a microsecond */
	epoch_offset = clock_usec(CLOCK_REALTIME) - clock_usec(CLOCK_MONOTONIC);
	epoch_offset_set = true;
}

pg_time_usec_t
pgb_time_to_epoch(pg_time_usec_t mono)
{
	pgb_time_init();
	return mono + epoch_offset;
}

int64_t
pgb_usec_from_msec(double msec)
{
	double		usec = msec * 1000;

	if (!(usec >= -9223372036854775808.0 && usec < 9223372036854775808.0))
		return INT64_MIN;
	return (int64_t) usec;
}
