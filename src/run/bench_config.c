/*
 * bench_config.c — the run configuration, built once from the parsed
 * options before the run starts: the one place where a setting is turned
 * into what the engine, the printers and the logs use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/run/bench.h"
#include "pgbench/base/xalloc.h"

/* Each script's first command in the flattened index, and the P_n names. */
static void
build_command_tables(run_config *cfg)
{
	const script_set *set = cfg->scripts;
	int			total = 0;
	int			prepared = 0;

	for (int i = 0; i < set->nscripts; i++)
	{
		cfg->script_offset[i] = total;
		total += set->scripts[i].ncommands;
	}
	cfg->total_commands = total;
	cfg->prepared_names = pgb_calloc((size_t) total, sizeof(char *));

	/* pgbench numbers the prepared statements over all scripts in order */
	for (int i = 0; i < set->nscripts; i++)
	{
		for (int j = 0; j < set->scripts[i].ncommands; j++)
		{
			char		name[32];

			if (set->scripts[i].commands[j]->type != SQL_COMMAND)
				continue;
			snprintf(name, sizeof(name), "P_%d", prepared++);
			cfg->prepared_names[cfg->script_offset[i] + j] = pgb_strdup(name);
		}
	}
}

static void
build_log_config(run_config *cfg, const pgb_options *opts, int pid)
{
	cfg->log_enabled = opts->use_log;
	cfg->log_cfg = (txlog_config) {
		.prefix = opts->log_prefix,
		.pid = pid,
		.agg_interval = opts->aggregate_interval,
		.sample_rate = opts->sample_rate,
		.throttled = opts->rate > 0.0,
		.latency_limit = opts->latency_limit_us > 0,
		.retries = opts->max_tries != 1,
		.failures_detailed = opts->failures_detailed,
		.other_failures = opts->compat >= 19,
		.connection_failures = opts->reconnect,
	};
}

void
runconf_build(run_config *cfg, const pgb_options *opts, int pid)
{
	int			nclients = opts->nclients > 0 ? opts->nclients : 1;
	int			nthreads = opts->nthreads > 0 ? opts->nthreads : 1;

	memset(cfg, 0, sizeof(*cfg));
	cfg->compat = opts->compat;
	cfg->scripts = opts->scripts;
	cfg->defines = &opts->defines;
	cfg->query_mode = opts->query_mode;
	build_command_tables(cfg);

	conn_params_init(&cfg->params, opts->host, opts->port, opts->username, opts->dbname);
	/* read once per run, not per connection (a probe: no network) */
	(void) conn_plan_init(&cfg->plan, &cfg->params);
	cfg->nclients = nclients;
	/* more threads than clients would only idle (and skew the -R split) */
	cfg->nthreads = nthreads > nclients ? nclients : nthreads;
	cfg->connect_each = opts->connect_each;

	cfg->nxacts = opts->nxacts;
	cfg->duration = opts->duration;
	cfg->warmup = opts->warmup;
	for (int i = 0; i < opts->nstages && i < RUN_MAX_STAGES; i++)
		cfg->stages[i] = (run_stage) {opts->stages[i].seconds, opts->stages[i].target};
	cfg->nstages = opts->nstages < RUN_MAX_STAGES ? opts->nstages : RUN_MAX_STAGES;
	cfg->stages_rate = opts->stages_rate;
	cfg->stages_text = opts->stages_text;
	cfg->rate = opts->rate;
	cfg->throttle_delay = runconf_throttle_delay(opts->rate, cfg->nthreads);
	cfg->latency_limit = opts->latency_limit_us;
	cfg->latency_limit_ms = opts->latency_limit_ms;
	cfg->retry = (retry_policy) {
		.max_tries = opts->max_tries,
		.latency_limit = opts->latency_limit_us,
		.verbose_errors = opts->verbose_errors,
	};
	cfg->exit_on_abort = opts->exit_on_abort;
	cfg->continue_on_error = opts->continue_on_error;
	cfg->reconnect = opts->reconnect;

	cfg->per_script_stats = opts->scripts->nscripts > 1;
	cfg->per_command = opts->report_per_command;
	cfg->keep_hist = opts->npercentiles > 0 || opts->report_json != NULL ||
		opts->report_html != NULL || opts->metrics_listen != NULL;
	cfg->progress_sec = opts->progress_sec;
	cfg->latency_measured = runconf_latency_from_series(cfg) || opts->use_log ||
		cfg->per_script_stats || cfg->keep_hist;
	cfg->failures_detailed = opts->failures_detailed;
	cfg->debug = opts->debug;

	cfg->progress_timestamp = opts->progress_timestamp;
	build_log_config(cfg, opts, pid);
	cfg->npercentiles = opts->npercentiles;
	memcpy(cfg->percentiles, opts->percentiles, sizeof(cfg->percentiles));
	cfg->report_json = opts->report_json;
	cfg->report_html = opts->report_html;
	/* a threshold may bound the server's counters: the series and the monitor run */
	if (opts->report_json != NULL || opts->report_html != NULL || opts->metrics_listen != NULL ||
		opts->nthresholds > 0)
		cfg->series_interval = (pg_time_usec_t) 1000000 *
			(opts->progress_sec > 0 ? opts->progress_sec : 1);
	cfg->rendezvous_name = opts->rendezvous_name;
	cfg->rendezvous_size = opts->rendezvous_size;
	cfg->rendezvous_timeout = opts->rendezvous_timeout;
	cfg->server_stats = cfg->series_interval > 0 && opts->server_stats;
	cfg->metrics_listen = opts->metrics_listen;
	cfg->server_sample_us = (pg_time_usec_t) 1000 * opts->server_sample_ms;
	cfg->argc = opts->argc;
	cfg->argv = opts->argv_shown;
	cfg->random_seed = opts->seed.seed;
	cfg->labels = opts->labels;
	cfg->nlabels = opts->nlabels;
	cfg->thresholds = opts->thresholds;
	cfg->nthresholds = opts->nthresholds;
}

void
runconf_free(run_config *cfg)
{
	if (cfg->prepared_names != NULL)
		for (int i = 0; i < cfg->total_commands; i++)
			free(cfg->prepared_names[i]);
	free(cfg->prepared_names);
	cfg->prepared_names = NULL;
	conn_plan_free(&cfg->plan);
}
