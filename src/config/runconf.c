/*
 * runconf.c — the values derived from a run's settings that both the run
 * (runconf_build, src/run/bench_config.c) and the merge of reports
 * (src/offline/merge.c) compute: one formula each.
 */
#include "pgbench/config/runconf.h"

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

double
runconf_stage_target(const run_config *cfg, pg_time_usec_t at)
{
	double		from;
	pg_time_usec_t begin = 0;

	if (cfg->nstages <= 0)
		return 0.0;
	from = cfg->stages_rate ? cfg->stages[0].target : 1.0;
	for (int i = 0; i < cfg->nstages; i++)
	{
		const run_stage *s = &cfg->stages[i];
		pg_time_usec_t end = begin + (pg_time_usec_t) 1000000 * s->seconds;

		if (at < end)
			return from + (s->target - from) * (double) (at - begin) / (double) (end - begin);
		from = s->target;
		begin = end;
	}
	return from;
}

double
runconf_stage_applied(const run_config *cfg, pg_time_usec_t at)
{
	double		t = runconf_stage_target(cfg, at);

	return cfg->stages_rate ? t : (double) (int) (t + 0.5);
}

pg_time_usec_t
runconf_tick_interval(const run_config *cfg)
{
	if (cfg->progress_sec > 0)
		return (pg_time_usec_t) 1000000 * cfg->progress_sec;
	return cfg->series_interval;
}
