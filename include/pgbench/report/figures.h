/*
 * figures.h — every number a report shows, computed once: the final
 * report's figures from the merged statistics (figures_compute), and a -P
 * interval's from two snapshots of the totals (figures_interval).  The
 * printers (report.c, report_json.c, progress.c) only format these; no
 * other code does arithmetic on the statistics.
 *
 * Units: milliseconds for times (_ms), seconds for the run (_s),
 * percentages 0..100 (_pct).  Each figure is computed with the operations
 * pgbench's report uses, so a division by zero gives what pgbench prints
 * (NaN or infinity, which the text shows as PostgreSQL's printf does and
 * the JSON as null).  A figure documented "NaN when none" is NaN when
 * there was nothing to average.
 *
 * Ownership: figures_compute allocates the per-script and per-command
 * arrays; figures_free releases them.  The strings point into the
 * report_input's configuration (script names, command lines) or are
 * constants: the figures must not outlive the run_config.  Nothing is
 * shared: a report_figures belongs to its caller.
 */
#ifndef PGBENCH_FIGURES_H
#define PGBENCH_FIGURES_H

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "pgbench/stats/histogram.h"
#include "pgbench/script/random.h"
#include "pgbench/fleet/rendezvous.h"
#include "pgbench/config/runconf.h"
#include "pgbench/server/monitor.h"
#include "pgbench/server/server_info.h"
#include "pgbench/stats/aborts.h"
#include "pgbench/stats/timeline.h"
#include "pgbench/stats/stats.h"

/*
 * The report files' percentiles: this list always, plus --percentiles.
 * At most FIGURES_MAX_PERCENTILES in all.
 */
#define FIGURES_DEFAULT_PERCENTILES {50, 90, 95, 99, 99.9, 100}
#define FIGURES_MAX_PERCENTILES (PGB_MAX_PERCENTILES + 6)

/*
 * A worker thread busier than this (% of one CPU) may have limited the
 * result: the report says so.
 */
#define FIGURES_CLIENT_BOUND_PCT 90.0

/* The latency percentiles of each point of the timeline. */
#define FIGURES_POINT_PERCENTILES TIMELINE_PERCENTILES
#define FIGURES_POINT_NPERCENTILES TIMELINE_NPERCENTILES

/* Where the run connected, as libpq says after the set-up connection. */
typedef struct report_target
{
	char		host[256];		/* PQhost: a name, an address or a socket directory */
	char		port[32];
	char		dbname[256];
} report_target;

/* Read host, port and database of conn into t (never a password). */
void		report_target_read(report_target *t, PGconn *conn);

/*
 * One run a merged report holds (its "inputs", doc/report-json.md): the
 * file it was read from and the identity its report carried.
 */
typedef struct report_source
{
	const char *file;			/* as given to --merge-reports; not owned */
	char		run_id[RANDOM_RUN_ID_LEN + 1];	/* "": none (an older report) */
	bool		in_group;		/* it ran under --rendezvous: */
	rendezvous_info group;		/* group, size, member and start_server_us
								 * set; the clock fields 0 */
	char		system_identifier[24];	/* its server's; "": unknown */
	bool		has_server_totals;	/* the server's counters over the run */
	uint64_t	server_present; /* bit per counter read */
	double		server_totals[SRV_NCOUNTERS];
} report_source;

/* Everything the report shows, gathered by the orchestrator after join. */
typedef struct report_input
{
	const run_config *cfg;		/* the run's settings */
	int			scale;			/* -s or the count of pgbench_branches */
	partition_method partition_method;	/* as found in the database */
	int			partitions;
	const stats_run *stats;		/* all threads merged */
	pg_time_usec_t bench_duration;	/* end - first thread's start */
	pg_time_usec_t conn_elapsed;	/* start - set-up: initial connections */
	pg_time_usec_t warmup_elapsed;	/* --warmup: the first thread's start to
									 * the figures' start; 0: none */
	const char *server_version; /* as the banner shows it; NULL if unknown */
	bool		aborted;		/* some client did not finish (exit code 2) */
	pg_time_usec_t start_time;	/* the run's start (pgb_time_now clock); 0: unknown */
	const report_target *target;	/* NULL: unknown */
	const rendezvous_info *rendezvous;	/* --rendezvous; NULL: none */
	int			instances;		/* reports merged into this one (merge.h);
								 * 0 or 1: a run of its own */
	bool		start_is_epoch; /* start_time is epoch us, not pgb_time_now's
								 * clock (a merged report) */
	const char *run_id;			/* this run's (random_run_id); NULL or "": none */
	const report_source *sources;	/* a merged report: the runs it holds */
	int			nsources;		/* their number; 0: a run of its own */
	const timeline *timeline;	/* the run over time; NULL: not recorded */
	double		busiest_thread_cpu_pct; /* the highest share of one CPU a
										 * worker thread used while it
										 * benchmarked; < 0: unknown */
	int			busiest_thread; /* which worker that was */
	const server_info *server;	/* the server's identity and settings;
								 * NULL: not read */
	const server_run *server_run;	/* --server-stats: the server over the
									 * run; NULL: not asked for */
} report_input;

/* A series of values (a stats_simple), in milliseconds. */
typedef struct figures_series
{
	int64_t		count;			/* values in the series */
	double		average;		/* NaN when none */
	double		stddev;			/* population stddev; NaN when none */
	double		min;			/* NaN when none */
	double		max;			/* NaN when none */
} figures_series;

/* Latency of successful transactions: the series and its percentiles. */
typedef struct figures_latency
{
	figures_series series;
	bool		has_percentiles;	/* a histogram with values was kept */
	double		percentile_ms[PGB_MAX_PERCENTILES];	/* at report_figures.percentiles */
	double		report_ms[FIGURES_MAX_PERCENTILES];	/* at report_figures.report_percentiles */
} figures_latency;

/*
 * Transaction counts (the STATS_COUNTERS of stats.h) and their shares of
 * all transactions, as the "N (p%)" lines show them.
 */
typedef struct figures_counts
{
#define FIGURES_COUNTER_FIELD(field, json_name, kind) int64_t field;
	STATS_COUNTERS(FIGURES_COUNTER_FIELD)
#undef FIGURES_COUNTER_FIELD
	int64_t		failed;			/* failures of every kind */
	int64_t		total;			/* processed + failed + skipped */
	double		failed_pct;		/* of total (NaN when total is 0) */
	double		serialization_failures_pct;
	double		deadlock_failures_pct;
	double		other_failures_pct;
	double		connection_failures_pct;	/* --reconnect */
	double		skipped_pct;
	double		retried_pct;
} figures_counts;

/*
 * --reconnect's outages (reconnect.h): a client's outage runs from the
 * loss of its connection to its next connection, or to its end.
 */
typedef struct figures_reconnect
{
	bool		enabled;		/* --reconnect: the lines and members show */
	int64_t		losses;			/* connections lost */
	int64_t		reconnects;		/* successful reconnections */
	int64_t		failed;			/* transactions failed by a lost connection */
	int			down_at_end;	/* clients whose run ended while down */
	double		window_ms;		/* the first loss of any client to the last
								 * one back; 0 when none was lost */
	double		first_loss_s;	/* since the run's start; NaN when none */
	double		last_back_s;	/* since the run's start; NaN when none */
	double		downtime_max_ms;	/* the longest one client was down in all */
	double		downtime_total_ms;	/* summed over clients */
} figures_reconnect;

/* One command of a script, for -r. */
typedef struct figures_command
{
	const char *line;			/* the command's first line */
	figures_series latency;		/* time from sending to done */
	double		column_ms;		/* the -r column: average, 0 when none */
	int64_t		failures;		/* transactions that failed at this command */
	int64_t		retries;		/* retries started from an error here */
	figures_latency percentiles;	/* report files: its histogram's percentiles
									 * (has_percentiles, report_ms) */
	const hist *hist;			/* report files: that histogram; NULL if none */
	double		latency_sum_us; /* exact sums of its latencies */
	double		latency_sum2_us;
} figures_command;

/*
 * One point of the report files' series: an interval of the run, from
 * its timeline record (figures_point_of), with the -P line's formulas.
 */
typedef struct figures_point
{
	double		t_s;			/* end of the interval, s since the start */
	double		interval_s;		/* its length (the last one may be cut short) */
	double		tps;			/* successes per second */
	int64_t		processed;
	int64_t		failures;
	int64_t		retried;
	int64_t		retries;
	int64_t		skipped;
	double		latency_avg_ms; /* NaN when no success */
	double		latency_stddev_ms;	/* NaN when no success */
	double		latency_ms[FIGURES_POINT_NPERCENTILES];	/* NaN when none */
	double		latency_min_ms; /* bucket bounds; NaN when none */
	double		latency_max_ms;
	double		lag_avg_ms;		/* -R; NaN otherwise or when none */
	bool		has_client;		/* the client figures below were read */
	double		cpu_user_s;
	double		cpu_system_s;
	double		busiest_thread_cpu_pct;
	double		stage_target;	/* --stages' target at the end; NaN: none */
	int64_t		rss_kb;
	const timeline_record *raw; /* what it was computed from, for a merge */
} figures_point;

/*
 * The server's commit count over the run against what the transactions
 * processed should have committed (figures_commits.c).
 */
typedef struct figures_commits
{
	bool		checked;		/* the server's count was read and the
								 * scripts' commits are known */
	const char *why_not;		/* when !checked: a constant saying why */
	int64_t		server;			/* the server's count, the monitor's own
								 * commits taken out */
	int64_t		expected;		/* from the scripts, the processed
								 * transactions and the connections */
	int64_t		explained;		/* how far they may differ: transactions
								 * cut short, failed or retried, prepared
								 * statements, sessions of the server */
	int64_t		difference;		/* server - expected */
	bool		agrees;			/* |difference| <= explained */
} figures_commits;

/* The commit check of a run with in->server_run read (figures_commits). */
void		figures_commits_compute(figures_commits *c, const report_input *in);

/* The report files' extras (figures_report.c): metadata, series, aborts. */
typedef struct figures_extra
{
	char		start_iso[32];	/* ISO 8601 UTC, ms; "" when unknown */
	char		end_iso[32];
	double		start_epoch_s;	/* Unix time */
	double		end_epoch_s;
	const run_label *labels;	/* --label, run_config's; NULL: none */
	int			nlabels;
	int			argc;
	char	  **argv;			/* a copy of run_config.argv (a database
								 * name that is a connection string shown
								 * by conninfo_mask: secrets masked); owned */
	const report_target *target;	/* NULL: unknown */
	uint64_t	random_seed;
	double		interval_s;		/* the series' interval; 0: no series */
	bool		series_incomplete;	/* memory ran short while recording */
	const timeline *timeline;	/* the series' records; NULL: no series */
	/* is the client the bottleneck? (FIGURES_CLIENT_BOUND_PCT) */
	double		busiest_thread_cpu_pct; /* NaN: unknown (a merged report) */
	int			busiest_thread;
	bool		client_bound;	/* over the limit, in a run of >= 1 s */
	int			intervals_client_bound; /* timeline records over the limit */
	const server_info *server;	/* NULL: not read (a merged report) */
	const server_run *server_run;	/* NULL: not asked for (or merged) */
	const struct threshold_result *thresholds;	/* --threshold checked; NULL:
												 * none given */
	int			nthresholds;
	figures_commits commits;	/* the server's commits against the run's */
	int			naborts;
	const run_abort **aborts;	/* by client id; owned array of pointers
								 * into the merged stats */
	const hist *latency_hist;	/* all successful latencies; NULL if none kept */
	double		latency_sum_us; /* exact sums of the latencies (not whole us) */
	double		latency_sum2_us;
	/* what a merge of reports needs besides (the "merge" member) */
	const rendezvous_info *rendezvous;	/* NULL: none */
	int			instances;		/* 1, or the number of reports merged */
	int			progress_s;		/* -P; 0: none */
	int64_t		start_epoch_us; /* the run's start; 0: unknown */
	pg_time_usec_t conn_elapsed_us; /* start to the first thread's start */
	pg_time_usec_t bench_duration_us;	/* benchmarking time */
	pg_time_usec_t conn_duration_us;	/* summed connection times (-C) */
	double		lag_sum_us;		/* -R: exact lag sum */
	const char *run_id;			/* report_input.run_id; NULL: none */
	const report_source *sources;	/* report_input.sources, not owned */
	int			nsources;
} figures_extra;

/* One script: its share of the run, and its figures. */
typedef struct figures_script
{
	const char *name;			/* file name or "<builtin: ...>" */
	const char *sha256;			/* of its text; NULL: unknown (a merge) */
	int			weight;
	double		weight_pct;		/* of the total weight */
	figures_counts counts;		/* its own (several scripts), else the run's */
	double		processed_pct;	/* its successes among all successes (up to 17) */
	double		total_pct;		/* its transactions, every outcome, among all
								 * transactions (18 and later) */
	double		tps;			/* its successes per second */
	figures_latency latency;	/* percentiles from its own histogram, or the
								 * run's when it is the only script */
	const hist *hist;			/* its own histogram (several scripts); NULL
								 * when none or a single script */
	double		latency_sum_us; /* exact sums of its latencies */
	double		latency_sum2_us;
	int			ncommands;
	figures_command *commands;	/* -r only; NULL otherwise */
} figures_script;

/*
 * The report's persisted settings: the JSON document's "settings" object,
 * listed once, in the order it prints them (doc/report-json.md):
 * X(key, kind, field, null, merge, lo, hi).  The JSON writer, the merge's
 * reading, checking and summing of reports, the generated schema and doc
 * table (tools/report_format.c) and the test all loop over this list, so a
 * new setting is one line here, the code that fills its field
 * (figures_compute) and its meaning (REPORT_SETTING_MEANINGS,
 * report_members.h: the build fails without it).
 *
 *   key    its JSON member
 *   kind   a report_setting_kind: how it is written and read back
 *   field  where report_figures holds it: f->field (a _PERCENTILES
 *          field is the array, n<field> its count)
 *   null   ALWAYS_SET, or NULL_WHEN(condition on f, the const
 *          report_figures *), or ADDED_NULL_WHEN(condition) for a
 *          member added to a schema version after its first reports:
 *          those read back a report without it as null
 *   merge  a report_setting_merge: what --merge-reports does with it
 *   lo, hi what a report may hold: _INT and _NUMBER a range; _NAME lo
 *          the names (NULL-terminated, indexed by the enum), hi the
 *          first one a report may name (those before it are written
 *          null); _PERCENTILES each value's range
 */
#define REPORT_SETTINGS(X) \
	X("transaction_type", SETTING_STRING, transaction_type, ALWAYS_SET, SETTING_SAME, 0, 0) \
	X("scaling_factor", SETTING_INT, scale, ALWAYS_SET, SETTING_SAME, 0, INT_MAX) \
	X("partition_method", SETTING_NAME, partition_method, NULL_WHEN(f->partition_method == NULL), \
	  SETTING_SAME, report_partition_methods, 1) \
	X("partitions", SETTING_INT, partitions, ALWAYS_SET, SETTING_SAME, 0, INT_MAX) \
	X("query_mode", SETTING_NAME, query_mode, ALWAYS_SET, SETTING_SAME, report_query_modes, 0) \
	X("clients", SETTING_INT, nclients, ALWAYS_SET, SETTING_SUMMED, 1, INT_MAX) \
	X("threads", SETTING_INT, nthreads, ALWAYS_SET, SETTING_SUMMED, 1, INT_MAX) \
	X("max_tries", SETTING_INT, max_tries, ALWAYS_SET, SETTING_SAME, 0, UINT32_MAX) \
	X("transactions_per_client", SETTING_INT, nxacts, NULL_WHEN(f->duration > 0), SETTING_SAME, \
	  1, INT_MAX) \
	X("duration_s", SETTING_INT, duration, NULL_WHEN(f->duration <= 0), SETTING_SAME, 1, INT_MAX) \
	X("rate_tps", SETTING_NUMBER, rate, NULL_WHEN(!(f->rate > 0)), SETTING_SUMMED, 0, INFINITY) \
	X("latency_limit_ms", SETTING_NUMBER, latency_limit_ms, NULL_WHEN(!f->latency_limited), \
	  SETTING_SAME, 0, PGB_MAX_MSEC) \
	X("connect_each", SETTING_BOOL, connect_each, ALWAYS_SET, SETTING_SAME, 0, 0) \
	X("failures_detailed", SETTING_BOOL, failures_detailed, ALWAYS_SET, SETTING_SAME, 0, 0) \
	X("percentiles", SETTING_PERCENTILES, percentiles, ALWAYS_SET, SETTING_SAME, 0, 100) \
	X("random_seed", SETTING_SEED, extra.random_seed, ALWAYS_SET, SETTING_FIRST, 0, 0) \
	X("server_stats", SETTING_BOOL, server_stats, ADDED_NULL_WHEN(false), SETTING_FIRST, 0, 0) \
	X("server_sample_interval_ms", SETTING_INT, server_sample_ms, \
	  ADDED_NULL_WHEN(!f->server_stats), SETTING_FIRST, 10, 60000) \
	X("progress_s", SETTING_INT, extra.progress_s, ADDED_NULL_WHEN(f->extra.progress_s <= 0), \
	  SETTING_SAME, 1, INT_MAX) \
	X("warmup_s", SETTING_INT, warmup, ADDED_NULL_WHEN(f->warmup <= 0), SETTING_SAME, 1, INT_MAX) \
	X("stages", SETTING_STRING, stages, ADDED_NULL_WHEN(f->stages == NULL), SETTING_SAME, 0, 0)

/* How a setting is written (report_json.c) and read back (merge). */
typedef enum report_setting_kind
{
	SETTING_STRING,				/* a string (put_str) */
	SETTING_NAME,				/* a string naming an enum's value */
	SETTING_INT,				/* an integer (put_int) */
	SETTING_NUMBER,				/* a number as the user gave it (put_setting) */
	SETTING_BOOL,				/* true or false */
	SETTING_PERCENTILES,		/* an array of numbers (put_setting) */
	SETTING_SEED,				/* an unsigned 64-bit integer (put_uint) */
} report_setting_kind;

/* What --merge-reports does with a setting (doc/fleet.md). */
typedef enum report_setting_merge
{
	SETTING_SAME,				/* every report must have the same value */
	SETTING_SUMMED,				/* the merged report's is the reports' sum
								 * (null in one, null in all) */
	SETTING_FIRST,				/* the merged report takes the first's */
} report_setting_merge;

/* The null column: the condition, whether it can be null, whether it can be absent. */
#define SETTING_NULL_IF_ALWAYS_SET false
#define SETTING_NULL_IF_NULL_WHEN(cond) (cond)
#define SETTING_NULL_IF_ADDED_NULL_WHEN(cond) (cond)
#define SETTING_NULLABLE_ALWAYS_SET false
#define SETTING_NULLABLE_NULL_WHEN(cond) true
#define SETTING_NULLABLE_ADDED_NULL_WHEN(cond) true
#define SETTING_ADDED_ALWAYS_SET false
#define SETTING_ADDED_NULL_WHEN(cond) false
#define SETTING_ADDED_ADDED_NULL_WHEN(cond) true

/* One setting of the list, for the code that needs it at run time. */
typedef struct report_setting
{
	const char *key;
	report_setting_kind kind;
	bool		nullable;		/* null in some reports */
	bool		added;			/* absent from the first reports of its schema */
	report_setting_merge merge;
} report_setting;

/* REPORT_SETTINGS as a table, in its order (figures_settings.c). */
extern const report_setting report_settings[];
extern const int report_nsettings;

/* The names of query_mode and partition_method values, NULL-terminated. */
extern const char *const report_query_modes[];
extern const char *const report_partition_methods[];

/* Everything the final report shows. */
typedef struct report_figures
{
	/* the settings, as the report shows them */
	int			compat;			/* the PostgreSQL major whose layout the text
								 * follows (run_config.compat, 16..19) */
	const char *transaction_type;	/* the script's name or "multiple scripts" */
	int			scale;
	const char *partition_method;	/* "range", "hash"; NULL when none */
	int			partitions;		/* 0 when not partitioned */
	const char *query_mode;		/* "simple", "extended", "prepared" */
	int			nclients;
	int			nthreads;
	uint32_t	max_tries;		/* 0: unlimited */
	bool		retries_shown;	/* max_tries != 1: retry lines and columns */
	int64_t		nxacts;			/* -t per client; meaningful when duration is 0 */
	int			duration;		/* -T seconds; 0: -t */
	int			warmup;			/* --warmup seconds before -T's; 0: none */
	const char *stages;			/* --stages as given; NULL: none */
	double		rate;			/* -R as given; 0: none */
	bool		throttled;		/* -R: lag figures */
	double		latency_limit_ms;	/* -L as given; 0: none */
	double		late_threshold_ms;	/* -L in whole us, in ms, as the late line shows it */
	bool		latency_limited;	/* -L: late (and with -R skipped) figures */
	bool		connect_each;	/* -C */
	bool		failures_detailed;	/* --failures-detailed */
	bool		server_stats;	/* --server-stats with a report file */
	int			server_sample_ms;	/* --server-sample-interval */
	bool		per_script;		/* several scripts: the script sections */
	bool		per_command;	/* -r: the command lines */
	int			npercentiles;	/* --percentiles; 0: none */
	double		percentiles[PGB_MAX_PERCENTILES];
	int			nreport_percentiles;	/* the report files': ascending */
	double		report_percentiles[FIGURES_MAX_PERCENTILES];
	const char *server_version; /* NULL if unknown */
	bool		aborted;		/* some client did not finish */

	/* the run */
	bool		failures_shown; /* the text report prints the failure lines:
								 * always up to 17; from 18 only when some
								 * transaction was accounted */
	bool		ran;			/* the text report goes past the failure
								 * lines: up to 17 when a transaction
								 * succeeded or was skipped, from 18 when any
								 * was accounted (all failed included) */
	double		duration_s;		/* benchmarking time */
	double		tps;			/* successes per second */
	figures_counts counts;
	int64_t		expected;		/* -t: nxacts * clients */
	int64_t		late;			/* successes over the -L limit */
	double		late_pct;		/* of successes; 0 when none */

	/*
	 * The "latency average" line.  pgbench shows the measured latency
	 * (average and stddev of the series) only under -R, -P or -L, however
	 * else it was measured; otherwise the average derived from the run
	 * time, duration x clients / transactions, failures included.
	 */
	bool		latency_from_series;	/* -R, -P or -L */
	double		latency_average_ms; /* the series' (NaN when none) or derived */
	bool		latency_average_derived;	/* derived from the run time */
	figures_latency latency;	/* the measured series, whatever the line */

	double		lag_average_ms; /* lag sum / successes (-R) */
	double		lag_max_ms;		/* 0 when no lag was measured */
	int64_t		lag_count;		/* lag values measured */

	double		initial_connection_ms;	/* start - set-up (not -C) */
	double		average_connection_ms;	/* -C: per transaction that ran */
	figures_reconnect reconnect;	/* --reconnect */

	int			nscripts;
	figures_script *scripts;	/* one per script, also for a single one */

	figures_extra extra;		/* for the report files */
} report_figures;

/*
 * Compute every figure of the final report from in (merged statistics,
 * settings, durations) into f.  Returns false when out of memory (f is
 * then freeable and holds no arrays).  Only reads in and only writes f:
 * any thread, after the statistics are merged.
 */
bool		figures_compute(const report_input *in, report_figures *f);

/* Release what figures_compute allocated; f may be passed again. */
void		figures_free(report_figures *f);

/*
 * The way back (figures_settings.c): the settings of s (the fields of
 * REPORT_SETTINGS, as a report's are read back) into the run_config and
 * the report_input they stand for, so that figures_compute gives the
 * same settings again.  Only the settings' own fields of cfg and in
 * (scale, partitions) are written; cfg's derived throttle_delay and
 * latency_limit too.  The strings of s are not kept.
 */
void		figures_settings_restore(const report_figures *s, run_config *cfg,
									 report_input *in);

/*
 * The extras of the report files (figures_report.c): the report
 * percentile list (settings), then metadata, series and aborts.  false
 * when out of memory.  figures_extra_free releases them.
 */
void		figures_report_percentiles(report_figures *f, const run_config *cfg);
bool		figures_extra_compute(const report_input *in, report_figures *f);
void		figures_extra_free(figures_extra *e);

/*
 * The point of record r (figures_extra.timeline's): the -P line's
 * figures of that interval (figures_interval), its percentiles, extremes
 * and client figures.  throttled: -R (the lag average).
 */
void		figures_point_of(figures_point *fp, const timeline_record *r, bool throttled);

/*
 * Only the metadata of the extras, into e (zeroed by the caller): the
 * command line of cfg (shown form), and, unless start is 0, the start
 * (pgb_time_now clock) and the end length us later.  What a run that
 * never benchmarked reports.  false when out of memory;
 * figures_extra_free releases it.
 */
bool		figures_meta_compute(figures_extra *e, const run_config *cfg,
								 pg_time_usec_t start, pg_time_usec_t length);

/* The figures of one -P interval: what happened between two reports. */
typedef struct interval_figures
{
	double		tps;			/* successes per second of the interval */
	double		latency_ms;		/* mean over its successes; 0 when none */
	double		stddev_ms;		/* 0 when none */
	double		lag_ms;			/* mean lag over its successes; 0 when none */
	stats_data	delta;			/* the counters' growth (STATS_COUNTERS) */
	int64_t		failed;			/* failures of every kind */
	bool		has_percentiles;	/* percentile_ms is filled */
	double		percentile_ms[PGB_MAX_PERCENTILES];
} interval_figures;

/*
 * The interval from the totals at the previous report (last) to those at
 * this one (cur), elapsed us long.  Means are pgbench's: over the
 * interval's successful transactions.  No percentiles (see below).
 */
void		figures_interval(const stats_data *cur, const stats_data *last,
							 pg_time_usec_t elapsed, interval_figures *iv);

/*
 * The interval's latency percentiles (n values at p, ascending) from h, a
 * histogram of the interval's latencies alone.
 */
void		figures_interval_percentiles(interval_figures *iv, const hist *h,
										 int n, const double *p);

/*
 * figures_interval from the counters' growth itself (delta, as a timeline
 * record keeps it).
 */
void		figures_interval_delta(const stats_data *delta, pg_time_usec_t elapsed,
								   interval_figures *iv);

#endif
