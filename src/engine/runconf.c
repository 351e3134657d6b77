/*
 * runconf.c — the values derived from a run's settings that both the run
 * (runconf_build, src/run/bench_config.c) and the merge of reports
 * (src/report/merge.c) compute: one formula each.
 */
#include "pgbench/engine/runconf.h"

double
runconf_throttle_delay(double rate, int nthreads)
{
	/* -R is a total rate: each thread schedules its share */
	return rate > 0 ? 1000000.0 / rate * nthreads : 0.0;
}

bool
runconf_latency_from_series(const run_config *cfg)
{
	return cfg->throttle_delay > 0 || cfg->progress_sec > 0 || cfg->latency_limit > 0;
}

pg_time_usec_t
runconf_tick_interval(const run_config *cfg)
{
	if (cfg->progress_sec > 0)
		return (pg_time_usec_t) 1000000 * cfg->progress_sec;
	return cfg->series_interval;
}
