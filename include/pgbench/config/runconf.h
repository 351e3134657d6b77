/*
 * runconf.h — the run configuration: every setting of a benchmark run and
 * every value derived from the settings, computed once before the worker
 * threads start and read-only afterwards.
 *
 * The engine (thread, client, metacmd), the printers (report, JSON,
 * progress) and the retry and log units read this, never the parsed
 * command line: options.h is for main, options, bench and init only.
 * bench_config.c builds it from pgb_options (runconf_build) and frees
 * what it owns (runconf_free).  Sharing: written by the main thread before
 * any worker exists; afterwards any thread may read it without a lock.
 */
#ifndef PGBENCH_RUNCONF_H
#define PGBENCH_RUNCONF_H

#include "pgbench/base/common.h"
#include "pgbench/conn/conn.h"
#include "pgbench/script/script.h"
#include "pgbench/script/variables.h"
#include "pgbench/stats/txlog.h"

/* The limits on tries, fixed by the options before the run (engine/retry.h
 * applies them). */
typedef struct retry_policy
{
	uint32_t	max_tries;		/* --max-tries; 0: unlimited (then -T or -L bounds it) */
	int64_t		latency_limit;	/* -L in usec; 0: none */
	bool		verbose_errors; /* --verbose-errors: report each error and decision */
} retry_policy;

/* --label KEY=VALUE: a name for the run in its report files. */
typedef struct run_label
{
	const char *key;			/* [A-Za-z0-9_.-], 1 to RUN_LABEL_KEY_MAX bytes */
	const char *value;			/* any text, at most RUN_LABEL_VALUE_MAX bytes */
} run_label;

#define RUN_LABEL_KEY_MAX 63
#define RUN_LABEL_VALUE_MAX 255
#define RUN_MAX_LABELS 32

/* --stages: one stage of the plan (doc/stages.md). */
typedef struct run_stage
{
	int			seconds;		/* its length (0: a step to its target) */
	double		target;			/* clients, or tps in the rate form */
} run_stage;

#define RUN_MAX_STAGES 64

typedef struct run_config
{
	int			compat;			/* PostgreSQL major followed (16..19) */

	/* what runs */
	const script_set *scripts;	/* compiled scripts, owned by the options */
	const var_store *defines;	/* -D values copied into every client */
	query_mode	query_mode;		/* -M */
	int			script_offset[PGB_MAX_SCRIPTS];	/* flattened index of each
												 * script's first command */
	int			total_commands; /* commands over all scripts */
	char	  **prepared_names; /* per flattened command: "P_n", NULL if meta */

	/* who runs it */
	conn_params params;			/* libpq keywords for every connection */
	conn_plan	plan;			/* how the run's connections try the hosts */
	int			nclients;		/* -c, at least 1 */
	int			nthreads;		/* -j clamped to nclients */
	bool		connect_each;	/* -C */

	/* how long and how fast */
	int64_t		nxacts;			/* -t per client; meaningful when duration is 0 */
	int			duration;		/* -T seconds; 0: none (then nxacts) */
	run_stage	stages[RUN_MAX_STAGES]; /* --stages, in order (duration is
										 * their sum) */
	int			nstages;		/* 0: none */
	bool		stages_rate;	/* their targets are -R rates, not clients */
	const char *stages_text;	/* --stages as given, for the report files */
	int			warmup;			/* --warmup seconds run before -T's, counted
								 * in no figure; 0: none (needs -T) */
	double		rate;			/* -R total tps; 0: unthrottled */
	double		throttle_delay; /* mean us between one thread's starts; 0: -R off */
	int64_t		latency_limit;	/* -L in us; 0: none */
	double		latency_limit_ms;	/* -L as given, for the report */
	retry_policy retry;			/* --max-tries, -L, --verbose-errors */
	bool		exit_on_abort;	/* --exit-on-abort */
	bool		continue_on_error;	/* --continue-on-error: an SQL error fails the
									 * transaction instead of aborting the client */
	bool		reconnect;		/* --reconnect: a lost connection fails the
								 * transaction, the client reconnects */

	/* what is measured */
	bool		latency_measured;	/* each transaction's latency is taken:
									 * -P, -R, -L, -l, several scripts, or
									 * histograms (the one formula) */
	bool		per_script_stats;	/* several scripts: counted per script */
	bool		per_command;	/* -r */
	bool		keep_hist;		/* --percentiles or --report-json */
	bool		failures_detailed;	/* --failures-detailed */
	bool		debug;			/* -d: trace on stderr */

	/* where it goes */
	int			progress_sec;	/* -P; 0: none */
	bool		progress_timestamp; /* --progress-timestamp */
	bool		log_enabled;	/* -l */
	txlog_config log_cfg;		/* -l: names and formats; valid if log_enabled */
	int			npercentiles;	/* --percentiles: how many; 0: off */
	double		percentiles[PGB_MAX_PERCENTILES];	/* ascending, 0..100 */
	const char *report_json;	/* --report-json=FILE; NULL: none */
	const char *report_html;	/* --report-html=FILE; NULL: none */
	pg_time_usec_t series_interval; /* a report file: its timeline's interval
									 * in us (-P, or 1 s); 0: no report file */
	const char *rendezvous_name;	/* --rendezvous group; NULL: none */
	int			rendezvous_size;	/* its number of instances */
	int			rendezvous_timeout; /* s */
	bool		server_stats;	/* a report file and --server-stats=on */
	pg_time_usec_t server_sample_us;	/* wait event sampling period */
	const char *metrics_listen; /* --metrics-listen; NULL: none */
	int			argc;			/* the command line, for the report files, */
	char	  **argv;			/* secrets masked (options' argv_shown) */
	uint64_t	random_seed;	/* :random_seed, for the report files */
	const struct run_label *labels; /* --label KEY=VALUE, in order */
	int			nlabels;
	const struct threshold *thresholds; /* --threshold, checked on the
										 * report's figures (threshold.h) */
	int			nthresholds;
} run_config;

/*
 * The values derived from settings that more than one unit needs, each
 * computed here only (src/config/runconf.c): runconf_build and the merge
 * of reports, which rebuilds a run_config from the reports' settings.
 */

/*
 * -R's mean delay in us between the transaction starts of one of
 * nthreads threads sharing a total of rate transactions per second; 0
 * when rate is not positive (no -R).
 */
double		runconf_throttle_delay(double rate, int nthreads);

/*
 * pgbench's report shows the measured latency (average and stddev of the
 * series), not one derived from the run time: under -R, -P or -L.
 * cfg's throttle_delay, progress_sec and latency_limit set.
 */
bool		runconf_latency_from_series(const run_config *cfg);

/*
 * The ticker's period in us (report/ticker.h): -P, else a report file's
 * timeline interval; 0 when neither asks for one (no ticker runs, and the
 * workers publish no snapshot).
 */
pg_time_usec_t runconf_tick_interval(const run_config *cfg);

/*
 * --stages: the target at `at` us after the run's start.  Within a stage
 * it moves linearly from the stage before's target to its own (the first
 * stage from 1 client, or in the rate form from its own rate: no ramp
 * from nothing); after the last stage, the last target.
 */
double		runconf_stage_target(const run_config *cfg, pg_time_usec_t at);

/*
 * The target as the run applies it: in the clients form rounded to the
 * clients that may run (the workers' limit, the timeline's record), in
 * the rate form as it is.
 */
double		runconf_stage_applied(const run_config *cfg, pg_time_usec_t at);

#endif
