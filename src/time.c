/*
 * time.c — the one clock of pgbench: microseconds, as a 64-bit integer.
 */
#include <time.h>

#include "pgbench/common.h"

pg_time_usec_t
pgb_time_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (pg_time_usec_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
