/*
 * options.h — the command line: one options struct, filled and validated by
 * options_parse, read-only once the run starts.
 *
 * Scripts (-f, -b, -N, -S) and -D variables are loaded while the command
 * line is read, as pgbench does, so that their errors come in the same order.
 * Each option is one row of the options table (options_table.h), which
 * also writes --help and getopt_long's arrays.
 */
#ifndef PGBENCH_OPTIONS_H
#define PGBENCH_OPTIONS_H

#include "pgbench/base/common.h"
#include "pgbench/script/random.h"
#include "pgbench/script/script.h"
#include "pgbench/script/variables.h"
#include "pgbench/report/threshold.h"

/* What main does after parsing. */
/* --stages: one stage of the plan (doc/stages.md; runconf.h's run_stage). */
typedef struct pgb_stage
{
	int			seconds;		/* its length (0: a step to its target) */
	double		target;			/* clients, or tps in the rate form */
} pgb_stage;

#define PGB_MAX_STAGES 64

/* --sweep: what changes from step to step (doc/sweep.md). */
typedef enum sweep_param
{
	SWEEP_NONE = 0,
	SWEEP_CLIENTS,				/* -c */
	SWEEP_JOBS,					/* -j */
	SWEEP_RATE,					/* -R */
	SWEEP_VAR,					/* a variable given with -D */
} sweep_param;

/* --sweep-stop-on */
typedef enum sweep_stop
{
	SWEEP_STOP_NONE = 0,
	SWEEP_STOP_SLO,				/* after the first step beyond --sweep-slo */
	SWEEP_STOP_KNEE,			/* once the knee is found, by either rule */
} sweep_stop;

#define PGB_SWEEP_MAX_STEPS 64
#define PGB_SWEEP_VALUE_LEN 32

typedef struct pgb_sweep
{
	sweep_param param;
	char		name[64];		/* "clients", "jobs", "rate" or the variable's */
	int			nsteps;
	double		values[PGB_SWEEP_MAX_STEPS];	/* NAN: a variable's text */
	char		texts[PGB_SWEEP_MAX_STEPS][PGB_SWEEP_VALUE_LEN];	/* as shown */
	double		slo_ms;			/* --sweep-slo; 0: none */
	sweep_stop	stop_on;		/* --sweep-stop-on */
} pgb_sweep;

/*
 * Parse --sweep's NAME:LIST (src/cli/options_sweep.c) into sw: NAME is
 * clients, jobs, rate or a variable's name; LIST values and ranges
 * START..END[/STEP] separated by commas.  false with why filled.
 */
bool		sweep_parse(const char *spec, pgb_sweep *sw, char *why, size_t whylen);

/*
 * Parse --stages' DURATION:TARGET,... (src/cli/options_sweep.c): DURATION
 * whole seconds with s (the default), m or h, TARGET clients (a whole
 * number) or a rate (a number > 0 with "tps"), all of one form.  false
 * with why filled.
 */
bool		stages_parse(const char *text, pgb_stage *stages, int *nstages, bool *rate,
						 char *why, size_t whylen);

/* --sweep-slo's LATENCY: a number with us, ms (the default) or s, > 0. */
bool		sweep_parse_slo(const char *text, double *ms);

typedef enum run_action
{
	ACTION_RUN,					/* benchmark */
	ACTION_INIT,				/* -i / -I */
	ACTION_EXIT_OK,				/* --help, -V, -b list, --show-script done: exit 0 */
	ACTION_MERGE,				/* --merge-reports FILE...: no server (merge.h) */
	ACTION_COMPARE,				/* --compare BASE NEW...: no server (compare.h) */
	ACTION_LIST,				/* --list-reports DIR...: no server (list_reports.h) */
} run_action;

typedef struct pgb_options
{
	run_action	action;

	/* connection */
	const char *host;			/* -h or PGHOST, NULL for libpq's default */
	const char *port;			/* -p or PGPORT */
	const char *username;		/* -U or PGUSER */
	const char *dbname;			/* -d/--dbname (17+), else the argument, else
								 * PGDATABASE; may be a conninfo/URI */

	/* initialization */
	const char *init_steps;		/* -I, default "dtgvp" (after -n / --foreign-keys edits) */
	int			fillfactor;		/* -F, 10..100, default 100 */
	bool		no_vacuum;		/* -n */
	bool		quiet;			/* -q */
	bool		foreign_keys;	/* --foreign-keys */
	bool		unlogged_tables;	/* --unlogged-tables */
	const char *tablespace;		/* --tablespace */
	const char *index_tablespace;	/* --index-tablespace */
	int			partitions;		/* --partitions, 0 = none */
	partition_method partition_method;	/* --partition-method; PART_NONE unless partitions */

	/* what to run */
	script_set *scripts;		/* -f, -b, -N, -S; the default tpcb-like when none */

	/* benchmarking */
	int			nclients;		/* -c, default 1 */
	int			nthreads;		/* -j, default 1 */
	bool		connect_each;	/* -C */
	bool		debug;			/* --debug (-d up to 16) */
	bool		use_log;		/* -l */
	double		latency_limit_ms;	/* -L, 0 = none */
	int64_t		latency_limit_us;	/* the same in microseconds */
	query_mode	query_mode;		/* -M */
	int			progress_sec;	/* -P, 0 = none */
	bool		report_per_command;	/* -r */
	double		rate;			/* -R transactions per second, 0 = unthrottled */
	int			scale;			/* -s; for a run, only reported */
	bool		scale_given;	/* -s was on the command line */
	int64_t		nxacts;			/* -t, default 10 unless -T */
	int			duration;		/* -T seconds, 0 = none */
	bool		vacuum_all;		/* -v */
	int			aggregate_interval;	/* --aggregate-interval seconds, 0 = none */
	bool		failures_detailed;	/* --failures-detailed */
	const char *log_prefix;		/* --log-prefix, default "pgbench_log" */
	uint32_t	max_tries;		/* --max-tries, default 1, 0 = unlimited (with -T or -L) */
	bool		progress_timestamp;	/* --progress-timestamp */
	double		sample_rate;	/* --sampling-rate, (0, 1], 0 = log everything */
	bool		verbose_errors;	/* --verbose-errors */
	bool		exit_on_abort;	/* --exit-on-abort (PostgreSQL 17) */
	bool		continue_on_error;	/* --continue-on-error (PostgreSQL 19; full
									 * name only in modes 16-18) */

	/*
	 * Our extensions, not in pgbench (full names only, so that pgbench's
	 * abbreviations and messages stay as they are; see doc/report.md).
	 */
	int			npercentiles;	/* --percentiles: how many; 0 = off */
	double		percentiles[PGB_MAX_PERCENTILES];	/* ascending as given, 0..100 */
	const char *report_json;	/* --report-json=FILE; NULL = none */
	const char *report_html;	/* --report-html=FILE; NULL = none */
	const char *rendezvous_name;	/* --rendezvous=NAME:N; NULL = none */
	int			rendezvous_size;	/* N */
	int			rendezvous_timeout; /* --rendezvous-timeout, s (default 60) */
	bool		server_stats;	/* --server-stats=on|off (default on): with a
								 * report file, the server's side of the run */
	int			server_sample_ms;	/* --server-sample-interval, ms (100) */
	int			warmup;			/* --warmup=SECONDS before -T; 0 = none */
	const char *metrics_listen; /* --metrics-listen=ADDR:PORT; NULL = none */
	bool		merge_reports;	/* --merge-reports: the arguments are reports */
	bool		compare;		/* --compare: the arguments are sides of reports */
	bool		compare_per_instance;	/* --compare-per-instance: a merged
										 * report's tps per instance */
	bool		list_reports;	/* --list-reports: the arguments are directories */
	run_label  *labels;			/* --label KEY=VALUE, in order; the array
								 * owned, the texts into argv */
	int			nlabels;
	threshold  *thresholds;		/* --threshold=EXPR, in order; owned */
	int			nthresholds;
	bool		merge_partial;	/* --merge-partial: an incomplete rendezvous
								 * group only warns */
	bool		reconnect;		/* --reconnect: clients reconnect after a lost
								 * connection instead of aborting */
	int			nmerge_files;	/* their number (--merge-reports, --compare) */
	char	  **merge_files;	/* into argv, not owned */
	char	   *rendezvous_storage; /* owned copy behind rendezvous_name */

	/* the command line as given (not owned) */
	int			argc;
	char	  **argv;

	/*
	 * The command line as the report files show it: argv with every
	 * database name (-d/--dbname's value, the DBNAME argument) that is a
	 * connection string rebuilt by conninfo_mask (passwords masked);
	 * argc strings, owned.
	 */
	char	  **argv_shown;

	/*
	 * Whose behaviour is followed where PostgreSQL majors differ (16..19):
	 * --compat, else PGBENCH_COMPAT, else the build's compat_default.
	 * Known before any other option is read, as it decides their meaning.
	 */
	int			compat;

	/* seeding: --random-seed or PGBENCH_RANDOM_SEED */
	random_seed seed;

	/* -D variables, in the order given; copied into every client */
	var_store	defines;
	pgb_sweep	sweep;			/* --sweep (ours); param SWEEP_NONE: none */
	pgb_stage	stages[PGB_MAX_STAGES]; /* --stages (ours) */
	int			nstages;
	bool		stages_rate;	/* targets with "tps": -R rates */
	const char *stages_text;	/* --stages as given; NULL: none */
	bool		defines_ready;	/* defines was initialised (options_free) */

	/* storage behind init_steps and a looked-up dbname, owned */
	char	   *init_steps_storage;
	char	   *dbname_storage;
} pgb_options;

/*
 * Parse argv into opts.  Never exits (except through xalloc.h when memory
 * runs out): it prints pgbench's messages itself, in pgbench's words and
 * order, as start-up code does, and returns the exit code to use: -1 to
 * go on (opts->action says with what), 0 after --help / -V / -b list /
 * --show-script, 1 on bad usage.  On any return, opts may be given to
 * options_free.
 */
int			options_parse(pgb_options *opts, int argc, char **argv);

/*
 * Release what options_parse allocated (scripts, defines, strings).  Safe
 * to call more than once, and after options_parse returned 0 or 1.
 */
void		options_free(pgb_options *opts);

#endif
