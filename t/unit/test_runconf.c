/*
 * test_runconf.c — the run configuration the engine reads, built from
 * parsed command lines: thread clamp, the per-thread -R delay, -L in
 * microseconds, the retry policy, when latencies are measured, the log
 * configuration, prepared statement names and script offsets.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/run/bench.h"
#include "tap.h"

#define MAX_ARGV 16

/* Parse a NULL-terminated list of arguments, then build the configuration. */
static bool
build(pgb_options *opts, run_config *cfg, const char *const *args)
{
	char	   *argv[MAX_ARGV + 2];
	int			argc = 0;

	argv[argc++] = (char *) "pgbench";
	for (int i = 0; args[i] != NULL && argc <= MAX_ARGV; i++)
		argv[argc++] = (char *) args[i];
	argv[argc] = NULL;
	if (options_parse(opts, argc, argv) != -1)
		return false;
	runconf_build(cfg, opts, 4242);
	return true;
}

typedef struct cfg_case
{
	const char *name;
	const char *args[MAX_ARGV];
	int			nclients;
	int			nthreads;
	double		throttle_delay;	/* us per thread */
	int64_t		latency_limit;	/* us */
	uint32_t	max_tries;
	bool		latency_measured;
	bool		per_script_stats;
	bool		keep_hist;
} cfg_case;

static const cfg_case cases[] = {
	{"defaults", {NULL}, 1, 1, 0, 0, 1, false, false, false},
	{"threads clamped to clients, -R per thread", {"-c", "3", "-j", "8", "-R", "100", NULL},
	3, 3, 30000.0, 0, 1, true, false, false},
	{"-R with fewer threads", {"-c", "4", "-j", "2", "--rate=10", NULL},
	4, 2, 200000.0, 0, 1, true, false, false},
	{"-L in microseconds, unlimited tries", {"-L", "2.5", "--max-tries=0", "-t", "7", NULL},
	1, 1, 0, 2500, 0, true, false, false},
	{"-P measures latency", {"-P", "1", NULL}, 1, 1, 0, 0, 1, true, false, false},
	{"-l measures latency", {"-l", NULL}, 1, 1, 0, 0, 1, true, false, false},
	{"-r alone measures no transaction latency", {"-r", NULL}, 1, 1, 0, 0, 1, false, false, false},
	{"several scripts: per script, measured", {"-b", "simple@2", "-S", NULL},
	1, 1, 0, 0, 1, true, true, false},
	{"--percentiles keeps histograms", {"--percentiles", NULL}, 1, 1, 0, 0, 1, true, false, true},
	{"--report-json keeps histograms", {"--report-json=/dev/null", NULL},
	1, 1, 0, 0, 1, true, false, true},
	{"-L truncated to whole us, as pgbench's cast", {"-L", "2.01", "-t", "1", NULL},
	1, 1, 0, 2009, 1, true, false, false},
};

static void
test_case(const cfg_case *tc)
{
	pgb_options opts;
	run_config	cfg;

	if (!tap_ok(build(&opts, &cfg, tc->args), "%s: parses", tc->name))
		return;
	tap_is_int(cfg.nclients, tc->nclients, "clients");
	tap_is_int(cfg.nthreads, tc->nthreads, "threads after the clamp");
	tap_is_double(cfg.throttle_delay, tc->throttle_delay, 1e-9, "per-thread -R delay");
	tap_is_int(cfg.latency_limit, tc->latency_limit, "-L in us");
	tap_is_int(cfg.retry.latency_limit, tc->latency_limit, "retry policy: -L in us");
	tap_is_int(cfg.retry.max_tries, tc->max_tries, "retry policy: max tries");
	tap_ok(cfg.latency_measured == tc->latency_measured, "%s: latency measured is %d",
		   tc->name, tc->latency_measured);
	tap_ok(cfg.per_script_stats == tc->per_script_stats, "%s: per-script stats", tc->name);
	tap_ok(cfg.keep_hist == tc->keep_hist, "%s: histograms", tc->name);
	runconf_free(&cfg);
	options_free(&opts);
}

/* Prepared names count SQL commands over all scripts, in order. */
static void
test_command_tables(void)
{
	static const char *const args[] = {"-b", "tpcb-like", "-b", "select-only", NULL};
	pgb_options opts;
	run_config	cfg;
	int			sql = 0;

	if (!tap_ok(build(&opts, &cfg, args), "two builtins: parse"))
		return;
	tap_is_int(cfg.script_offset[0], 0, "first script starts at 0");
	tap_is_int(cfg.script_offset[1], cfg.scripts->scripts[0].ncommands,
			   "second script starts after the first");
	tap_is_int(cfg.total_commands, cfg.scripts->scripts[0].ncommands +
			   cfg.scripts->scripts[1].ncommands, "commands over both");
	for (int i = 0; i < cfg.total_commands; i++)
	{
		char		want[32];

		if (cfg.prepared_names[i] == NULL)
			continue;
		snprintf(want, sizeof(want), "P_%d", sql++);
		tap_is_str(cfg.prepared_names[i], want, "prepared name numbered in order");
	}
	tap_ok(cfg.prepared_names[0] == NULL, "tpcb-like's first command is \\set: no name");
	runconf_free(&cfg);
	options_free(&opts);
}

static void
test_log_config(void)
{
	static const char *const args[] = {"-l", "--log-prefix=x", "--aggregate-interval=5",
	"-R", "10", "-L", "3", "--max-tries=2", "--failures-detailed", "-T", "10", NULL};
	pgb_options opts;
	run_config	cfg;

	if (!tap_ok(build(&opts, &cfg, args), "log options: parse"))
		return;
	tap_ok(cfg.log_enabled, "-l enables the log");
	tap_is_str(cfg.log_cfg.prefix, "x", "log prefix");
	tap_is_int(cfg.log_cfg.pid, 4242, "pid names the files");
	tap_is_int(cfg.log_cfg.agg_interval, 5, "aggregate interval");
	tap_ok(cfg.log_cfg.throttled && cfg.log_cfg.latency_limit && cfg.log_cfg.retries &&
		   cfg.log_cfg.failures_detailed, "log groups follow -R, -L, --max-tries, --failures-detailed");
	tap_is_int(cfg.duration, 10, "-T");
	runconf_free(&cfg);
	options_free(&opts);
}

/*
 * The derived values the merge of reports computes too (runconf.c,
 * pgb_usec_from_msec): the same numbers from the same settings.
 */
static void
test_derived(void)
{
	run_config	cfg = {0};

	tap_is_double(runconf_throttle_delay(100, 3), 30000.0, 1e-9, "-R 100 over 3 threads");
	tap_is_double(runconf_throttle_delay(0, 3), 0.0, 0, "no -R: no delay");
	tap_is_int(pgb_usec_from_msec(2.01), 2009, "2.01 ms: 2009 us (2.01 * 1000 is just below 2010)");
	tap_is_int(pgb_usec_from_msec(2.5), 2500, "2.5 ms");
	tap_is_int(pgb_usec_from_msec(PGB_MAX_MSEC), (int64_t) (PGB_MAX_MSEC * 1000),
			   "PGB_MAX_MSEC converts");
	tap_is_int(pgb_usec_from_msec(1e300), INT64_MIN, "out of range: INT64_MIN, as pgbench's cast");
	tap_ok(!runconf_latency_from_series(&cfg), "no -R, -P, -L: latency derived from the run time");
	cfg.progress_sec = 1;
	tap_ok(runconf_latency_from_series(&cfg), "-P: latency from the series");
}

/* --stages' plan: linear within a stage, from the stage before's target. */
static void
test_stages(void)
{
	run_config	cfg;

	memset(&cfg, 0, sizeof(cfg));
	tap_is_double(runconf_stage_target(&cfg, 0), 0.0, 0, "no stages: 0");
	cfg.nstages = 3;
	cfg.stages[0] = (run_stage) {10, 10};
	cfg.stages[1] = (run_stage) {0, 20};
	cfg.stages[2] = (run_stage) {10, 20};
	tap_is_double(runconf_stage_target(&cfg, 0), 1.0, 1e-12, "clients: the first stage starts from 1");
	tap_is_double(runconf_stage_target(&cfg, 5000000), 5.5, 1e-12, "clients: half way to 10");
	tap_is_double(runconf_stage_target(&cfg, 9999999), 10.0 - 9e-7, 1e-9, "clients: just before 10 s");
	tap_is_double(runconf_stage_target(&cfg, 10000000), 20.0, 1e-12, "clients: a 0 s stage is a step");
	tap_is_double(runconf_stage_target(&cfg, 15000000), 20.0, 1e-12, "clients: a plateau");
	tap_is_double(runconf_stage_applied(&cfg, 5000000), 6.0, 0, "clients: applied, 5.5 rounds to 6 clients");
	tap_is_double(runconf_stage_applied(&cfg, 4000000), 5.0, 0, "clients: applied, 4.6 rounds to 5");
	tap_is_double(runconf_stage_target(&cfg, 99000000), 20.0, 1e-12, "clients: the last target after the end");
	cfg.stages_rate = true;
	cfg.nstages = 2;
	cfg.stages[0] = (run_stage) {4, 100};
	cfg.stages[1] = (run_stage) {4, 300};
	tap_is_double(runconf_stage_target(&cfg, 0), 100.0, 1e-12, "rate: the first stage starts from its own rate");
	tap_is_double(runconf_stage_target(&cfg, 2000000), 100.0, 1e-12, "rate: and holds it");
	tap_is_double(runconf_stage_target(&cfg, 6000000), 200.0, 1e-12, "rate: half way to 300");
	tap_is_double(runconf_stage_applied(&cfg, 5000000), 150.0, 1e-12, "rate: applied as it is");
	tap_is_double(runconf_stage_target(&cfg, 8000000), 300.0, 1e-12, "rate: 300 at the end");
}

int
main(void)
{
	test_derived();
	test_stages();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_case(&cases[i]);
	test_command_tables();
	test_log_config();
	return tap_done();
}
