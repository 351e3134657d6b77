/*
 * bench.c — orchestration of a benchmark run: everything before the worker
 * threads (set-up connection, banner, scale and partitions, vacuum, client
 * variables and random states in pgbench's order), the threads themselves,
 * and after them the merge of their statistics, the report and the exit
 * code.  This is start-up code: it prints pgbench's messages itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "pgbench/bench.h"
#include "pgbench/client.h"
#include "pgbench/conn.h"
#include "pgbench/diag.h"
#include "pgbench/figures.h"
#include "pgbench/progress.h"
#include "pgbench/report.h"
#include "pgbench/runconf.h"
#include "pgbench/thread.h"

#define SQLSTATE_UNDEFINED_TABLE "42P01"

/* What the database says about the pgbench tables. */
typedef struct table_info
{
	int			scale;
	partition_method method;
	int			partitions;
} table_info;

/* A worker started under -P: it leaves the progress gate when done. */
typedef struct worker_start
{
	worker	   *w;
	progress_gate *gate;
} worker_start;

/* Everything a run allocates, released in one place. */
typedef struct bench_state
{
	run_context *ctx;
	run_config	cfg;			/* the run's settings, as report and progress read them */
	progress_gate gate;			/* -P: the timer waits for the workers on it */
	bool		gate_ready;
	worker_start *starts;		/* -P: one per worker */
	progress_source *sources;	/* -P: one per worker */
	client	   *clients;
	int			nclients_ready; /* clients initialized, to free */
	worker	   *workers;
	int			nworkers_ready; /* workers prepared, to clean up */
	bool		barrier_ready;
	bool		sync_ready;		/* done_lock and done_cond initialized */
	char		server_version[64]; /* as the banner shows it */
	FILE	   *json_out;		/* --report-json, opened before the run */
} bench_state;

/* ---- before the run ----------------------------------------------------- */

static void
print_version(PGconn *conn, char *keep, size_t keep_len)
{
	const char *server = PQparameterStatus(conn, "server_version");
	char		buf[32];

	if (server == NULL)
	{
		int			v = PQserverVersion(conn);

		if (v >= 100000)
			snprintf(buf, sizeof(buf), "%d.%d", v / 10000, v % 10000);
		else
			snprintf(buf, sizeof(buf), "%d.%d.%d", v / 10000, (v / 100) % 100, v % 100);
		server = buf;
	}
	snprintf(keep, keep_len, "%s", server);
	/* our version never equals the server's: always the two-part banner */
	printf("pgbench (%s, server %s)\n", PGBENCH_VERSION, server);
	fflush(stdout);
}

static bool
uses_builtin_script(const script_set *set)
{
	for (int i = 0; i < set->nscripts; i++)
		for (int b = 0; b < builtin_script_count; b++)
			if (strcmp(set->scripts[i].desc, builtin_scripts[b].desc) == 0)
				return true;
	return false;
}

static bool
read_scale(PGconn *conn, const pgb_options *opts, table_info *info)
{
	PGresult   *res = PQexec(conn, "select count(*) from pgbench_branches");

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		diag_error("could not count number of branches: %s", PQerrorMessage(conn));
		if (state != NULL && strcmp(state, SQLSTATE_UNDEFINED_TABLE) == 0)
			diag_hint("Perhaps you need to do initialization (\"pgbench -i\") in database \"%s\".",
					  PQdb(conn));
		PQclear(res);
		return false;
	}
	info->scale = atoi(PQgetvalue(res, 0, 0));
	if (info->scale < 0)
	{
		diag_error("invalid count(*) from pgbench_branches: \"%s\"", PQgetvalue(res, 0, 0));
		PQclear(res);
		return false;
	}
	PQclear(res);
	if (opts->scale_given)
		diag_warning("scale option ignored, using count from pgbench_branches table (%d)",
					 info->scale);
	return true;
}

/*
 * Partitioning of the pgbench_accounts that search_path finds first: its
 * strategy and how many partitions hang from it.  Any query failure means
 * "not partitioned" (old servers); no table at all is an error.
 */
static bool
read_partitions(PGconn *conn, table_info *info)
{
	static const char query[] =
		"select p.partstrat, "
		"(select pg_catalog.count(*) from pg_catalog.pg_inherits i where i.inhparent = c.oid) "
		"from pg_catalog.pg_class c "
		"left join pg_catalog.pg_partitioned_table p on p.partrelid = c.oid "
		"where c.oid = pg_catalog.to_regclass('pgbench_accounts')";
	PGresult   *res = PQexec(conn, query);
	bool		ok = true;

	info->method = PART_NONE;
	info->partitions = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		;
	else if (PQntuples(res) == 0)
	{
		diag_error("no pgbench_accounts table found in \"search_path\"");
		diag_hint("Perhaps you need to do initialization (\"pgbench -i\") in database \"%s\".",
				  PQdb(conn));
		ok = false;
	}
	else if (!PQgetisnull(res, 0, 0))
	{
		const char *strategy = PQgetvalue(res, 0, 0);

		if (strcmp(strategy, "r") == 0)
			info->method = PART_RANGE;
		else if (strcmp(strategy, "h") == 0)
			info->method = PART_HASH;
		else
		{
			diag_error("unexpected partition method: \"%s\"", strategy);
			ok = false;
		}
		info->partitions = atoi(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return ok;
}

/* Run a maintenance statement; complain but carry on if it fails. */
static void
try_statement(PGconn *conn, const char *sql)
{
	PGresult   *res = PQexec(conn, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		diag_error("%s", PQerrorMessage(conn));
		diag_detail("(ignoring this error and continuing anyway)");
	}
	PQclear(res);
}

static void
vacuum_tables(PGconn *conn, bool vacuum_accounts)
{
	fprintf(stderr, "starting vacuum...");
	try_statement(conn, "vacuum pgbench_branches");
	try_statement(conn, "vacuum pgbench_tellers");
	try_statement(conn, "truncate pgbench_history");
	fprintf(stderr, "end.\n");
	if (vacuum_accounts)
	{
		fprintf(stderr, "starting vacuum pgbench_accounts...");
		try_statement(conn, "vacuum analyze pgbench_accounts");
		fprintf(stderr, "end.\n");
	}
}

/* The slot of a variable pgbench sets itself, unless -D already set it. */
static int
startup_slot(const run_context *ctx, const char *name)
{
	const var_store *defines = &ctx->opts->defines;
	int			slot = var_symtab_find(ctx->scripts->symtab, name, strlen(name));

	if (slot >= 0 && slot < defines->nslots && var_is_set(defines, slot))
		return -2;				/* defined by -D: keep it */
	return slot;				/* -1: no script reads it */
}

static void
set_for_all(client *clients, int n, int slot, int64_t value)
{
	if (slot < 0)
		return;
	for (int i = 0; i < n; i++)
		var_set_value(&clients[i].vars, slot, pgb_value_int(value));
}

/*
 * :scale, :client_id, :default_seed and :random_seed, as pgbench sets them.
 * The default_seed draw happens even when no script reads it, so that
 * every later stream gets the same seed as in pgbench.
 */
static void
set_startup_variables(bench_state *bs, int scale, random_seed *seed)
{
	const run_context *ctx = bs->ctx;
	int			n = ctx->nclients;
	int			slot;

	set_for_all(bs->clients, n, startup_slot(ctx, "scale"), scale);

	slot = startup_slot(ctx, "client_id");
	for (int i = 0; slot >= 0 && i < n; i++)
		var_set_value(&bs->clients[i].vars, slot, pgb_value_int(i));

	slot = startup_slot(ctx, "default_seed");
	if (slot != -2)
		set_for_all(bs->clients, n, slot, (int64_t) prng_uint64(&seed->base));

	set_for_all(bs->clients, n, startup_slot(ctx, "random_seed"), (int64_t) seed->seed);
}

/*
 * Open the set-up connection, print the banner, and learn scale and
 * partitions; then set the start-up variables and vacuum.  false after
 * printing why the run cannot start.
 */
static bool
setup_database(bench_state *bs, random_seed *seed, table_info *info)
{
	const run_context *ctx = bs->ctx;
	const pgb_options *opts = ctx->opts;
	char		errbuf[1024];
	PGconn	   *conn = conn_open(&ctx->params, errbuf, sizeof(errbuf));
	bool		ok = true;

	if (conn == NULL)
	{
		diag_error("%s", errbuf);
		diag_error("could not create connection for setup");
		return false;
	}
	print_version(conn, bs->server_version, sizeof(bs->server_version));
	if (opts->debug)
		diag_log(DIAG_DEBUG, "pghost: %s pgport: %s nclients: %d %s: %d dbName: %s",
				  PQhost(conn), PQport(conn), ctx->nclients,
				  opts->duration <= 0 ? "nxacts" : "duration",
				  opts->duration <= 0 ? (int) opts->nxacts : opts->duration, PQdb(conn));

	info->scale = opts->scale;
	info->method = PART_NONE;
	info->partitions = 0;
	if (uses_builtin_script(opts->scripts))
		ok = read_scale(conn, opts, info) && read_partitions(conn, info);
	if (ok)
	{
		set_startup_variables(bs, info->scale, seed);
		if (!opts->no_vacuum)
			vacuum_tables(conn, opts->vacuum_all);
	}
	PQfinish(conn);
	return ok;
}

/* ---- the run context ---------------------------------------------------- */

static bool
build_command_tables(run_context *ctx)
{
	const script_set *set = ctx->scripts;
	int			total = 0;
	int			prepared = 0;

	for (int i = 0; i < set->nscripts; i++)
	{
		ctx->script_offset[i] = total;
		total += set->scripts[i].ncommands;
	}
	ctx->total_commands = total;
	ctx->prepared_names = calloc((size_t) (total > 0 ? total : 1), sizeof(char *));
	if (ctx->prepared_names == NULL)
		return false;

	/* pgbench numbers the prepared statements over all scripts in order */
	for (int i = 0; i < set->nscripts; i++)
	{
		for (int j = 0; j < set->scripts[i].ncommands; j++)
		{
			char		name[32];

			if (set->scripts[i].commands[j]->type != SQL_COMMAND)
				continue;
			snprintf(name, sizeof(name), "P_%d", prepared++);
			ctx->prepared_names[ctx->script_offset[i] + j] = strdup(name);
			if (ctx->prepared_names[ctx->script_offset[i] + j] == NULL)
				return false;
		}
	}
	return true;
}

static bool
init_context(run_context *ctx, const pgb_options *opts)
{
	int			nclients = opts->nclients > 0 ? opts->nclients : 1;
	int			nthreads = opts->nthreads > 0 ? opts->nthreads : 1;

	ctx->opts = opts;
	ctx->scripts = opts->scripts;
	ctx->nclients = nclients;
	/* more threads than clients would only idle (and skew the -R split) */
	ctx->nthreads = nthreads > nclients ? nclients : nthreads;
	conn_params_init(&ctx->params, opts->host, opts->port, opts->username, opts->dbname);

	/* -R is a total rate: each thread schedules its share */
	ctx->throttle_delay = opts->rate > 0 ? 1000000.0 / opts->rate * ctx->nthreads : 0.0;
	ctx->latency_limit = opts->latency_limit_us;
	ctx->retry = (retry_policy) {
		.max_tries = opts->max_tries,
		.latency_limit = opts->latency_limit_us,
		.verbose_errors = opts->verbose_errors,
	};
	ctx->per_script_stats = opts->scripts->nscripts > 1;
	ctx->per_command = opts->report_per_command;
	ctx->debug = opts->debug;
	ctx->keep_hist = opts->npercentiles > 0 || opts->report_json != NULL;
	ctx->detailed = opts->progress_sec > 0 || ctx->throttle_delay > 0 ||
		ctx->latency_limit > 0 || opts->use_log || ctx->per_script_stats ||
		ctx->keep_hist;
	ctx->publish_progress = opts->progress_sec > 0;
	ctx->after_transaction = ctx->keep_hist || ctx->publish_progress || opts->use_log;
	if (opts->use_log)
		ctx->log_cfg = (txlog_config) {
			.prefix = opts->log_prefix,
			.pid = (int) getpid(),
			.agg_interval = opts->aggregate_interval,
			.sample_rate = opts->sample_rate,
			.throttled = opts->rate > 0.0,
			.latency_limit = opts->latency_limit_us > 0,
			.retries = opts->max_tries != 1,
			.failures_detailed = opts->failures_detailed,
		};
	atomic_init(&ctx->setup_failed, false);
	atomic_init(&ctx->stop, false);
	ctx->stop_fd = -1;
	if (opts->exit_on_abort)
		ctx->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return build_command_tables(ctx);
}

/* The run_config the report and progress units read, from the context. */
static void
fill_run_config(run_config *cfg, const run_context *ctx)
{
	const pgb_options *opts = ctx->opts;

	memset(cfg, 0, sizeof(*cfg));
	cfg->scripts = ctx->scripts;
	cfg->defines = &opts->defines;
	cfg->query_mode = opts->query_mode;
	memcpy(cfg->script_offset, ctx->script_offset, sizeof(cfg->script_offset));
	cfg->total_commands = ctx->total_commands;
	cfg->prepared_names = ctx->prepared_names;
	cfg->params = ctx->params;
	cfg->nclients = ctx->nclients;
	cfg->nthreads = ctx->nthreads;
	cfg->connect_each = opts->connect_each;
	cfg->nxacts = opts->nxacts;
	cfg->duration = opts->duration;
	cfg->rate = opts->rate;
	cfg->throttle_delay = ctx->throttle_delay;
	cfg->latency_limit = ctx->latency_limit;
	cfg->latency_limit_ms = opts->latency_limit_ms;
	cfg->retry = ctx->retry;
	cfg->exit_on_abort = opts->exit_on_abort;
	cfg->latency_measured = ctx->detailed;
	cfg->per_script_stats = ctx->per_script_stats;
	cfg->per_command = ctx->per_command;
	cfg->keep_hist = ctx->keep_hist;
	cfg->failures_detailed = opts->failures_detailed;
	cfg->debug = opts->debug;
	cfg->progress_sec = opts->progress_sec;
	cfg->progress_timestamp = opts->progress_timestamp;
	cfg->log_enabled = opts->use_log;
	cfg->log_cfg = ctx->log_cfg;
	cfg->npercentiles = opts->npercentiles;
	memcpy(cfg->percentiles, opts->percentiles, sizeof(cfg->percentiles));
	cfg->report_json = opts->report_json;
}

static void
free_context(run_context *ctx)
{
	if (ctx->prepared_names != NULL)
		for (int i = 0; i < ctx->total_commands; i++)
			free(ctx->prepared_names[i]);
	free(ctx->prepared_names);
	if (ctx->stop_fd >= 0)
		close(ctx->stop_fd);
	free(ctx);
}

/*
 * -l: create every thread's log file now, before any thread starts, so
 * that a bad prefix stops the run as pgbench does (exit 1).
 */
static bool
open_logs(bench_state *bs)
{
	run_context *ctx = bs->ctx;
	char		errbuf[TXLOG_PATH_MAX + 128];

	if (!ctx->opts->use_log)
		return true;
	for (int i = 0; i < ctx->nthreads; i++)
	{
		if (!txlog_open(&bs->workers[i].log, &ctx->log_cfg, i, errbuf, sizeof(errbuf)))
		{
			diag_error("%s", errbuf);
			return false;
		}
	}
	return true;
}

/* --report-json: open (truncate) the file before the run, so a bad path fails early. */
static bool
open_json(bench_state *bs)
{
	const char *path = bs->ctx->opts->report_json;

	if (path == NULL)
		return true;
	bs->json_out = fopen(path, "w");
	if (bs->json_out == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		return false;
	}
	return true;
}

static bool
init_clients(bench_state *bs, random_seed *seed)
{
	run_context *ctx = bs->ctx;

	/* client_init zeroes each one; aligned so threads share no line */
	bs->clients = aligned_alloc(CLIENT_ALIGN, (size_t) ctx->nclients * sizeof(client));
	if (bs->clients == NULL)
		return false;
	for (int i = 0; i < ctx->nclients; i++)
	{
		if (!client_init(&bs->clients[i], i, ctx))
			return false;
		bs->nclients_ready++;
		/* one draw per client, in client order, as pgbench */
		random_state_init(seed, &bs->clients[i].rs);
	}
	return true;
}

/* Deal the clients out to the threads as pgbench does, and seed each. */
static bool
init_workers(bench_state *bs, random_seed *seed)
{
	run_context *ctx = bs->ctx;
	int			dealt = 0;

	bs->workers = aligned_alloc(_Alignof(worker), (size_t) ctx->nthreads * sizeof(worker));
	if (bs->workers == NULL)
		return false;
	memset(bs->workers, 0, (size_t) ctx->nthreads * sizeof(worker));
	for (int i = 0; i < ctx->nthreads; i++)
	{
		worker	   *w = &bs->workers[i];

		w->tid = i;
		w->ctx = ctx;
		w->clients = &bs->clients[dealt];
		w->nclients = (ctx->nclients - dealt + ctx->nthreads - i - 1) / (ctx->nthreads - i);
		random_state_init(seed, &w->choose_rs);
		random_state_init(seed, &w->throttle_rs);
		random_state_init(seed, &w->sample_rs);
		if (!worker_prepare(w))
			return false;
		bs->nworkers_ready++;
		dealt += w->nclients;
	}
	return true;
}

static void
free_state(bench_state *bs)
{
	for (int i = 0; i < bs->nworkers_ready; i++)
		worker_cleanup(&bs->workers[i]);
	free(bs->workers);
	for (int i = 0; i < bs->nclients_ready; i++)
		client_free(&bs->clients[i]);
	free(bs->clients);
	if (bs->barrier_ready)
		pthread_barrier_destroy(&bs->ctx->barrier);
	if (bs->sync_ready)
	{
		pthread_cond_destroy(&bs->ctx->done_cond);
		pthread_mutex_destroy(&bs->ctx->done_lock);
	}
	if (bs->gate_ready)
		progress_gate_destroy(&bs->gate);
	free(bs->starts);
	free(bs->sources);
	if (bs->json_out != NULL)
		fclose(bs->json_out);
	free_context(bs->ctx);
}

/* ---- the run and after -------------------------------------------------- */

/* A condition variable whose timed waits use pgb_time_now's clock. */
static bool
init_monotonic_cond(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	bool		ok;

	if (pthread_condattr_init(&attr) != 0)
		return false;
	ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
		pthread_cond_init(cond, &attr) == 0;
	pthread_condattr_destroy(&attr);
	return ok;
}

/* The thread body under -P: the worker, then leave the progress gate. */
static void *
worker_with_gate(void *arg)
{
	worker_start *start = arg;

	worker_main(start->w);
	progress_gate_leave(start->gate);
	return NULL;
}

/* -P: the gate, and what the timer reads of each worker. */
static bool
init_progress(bench_state *bs)
{
	run_context *ctx = bs->ctx;

	bs->starts = calloc((size_t) ctx->nthreads, sizeof(worker_start));
	bs->sources = calloc((size_t) ctx->nthreads, sizeof(progress_source));
	if (bs->starts == NULL || bs->sources == NULL ||
		!progress_gate_init(&bs->gate, ctx->nthreads))
		return false;
	bs->gate_ready = true;
	for (int i = 0; i < ctx->nthreads; i++)
	{
		bs->starts[i] = (worker_start) {.w = &bs->workers[i], .gate = &bs->gate};
		bs->sources[i] = (progress_source) {
			.slot = &bs->workers[i].progress,
			.latency_hist = bs->workers[i].stats.latency_hist,
		};
	}
	return true;
}

/*
 * Start the workers on threads of their own; the main thread keeps the -P
 * timer (so no report waits for a busy worker), or else runs worker 0.
 */
static bool
run_workers(bench_state *bs, pg_time_usec_t *start_time)
{
	run_context *ctx = bs->ctx;
	int			err;
	int			first_thread;	/* workers before it run on this thread */

	if ((err = pthread_barrier_init(&ctx->barrier, NULL, (unsigned) ctx->nthreads)) != 0)
	{
		diag_error("could not initialize barrier: %s", strerror(err));
		return false;
	}
	bs->barrier_ready = true;
	if (pthread_mutex_init(&ctx->done_lock, NULL) != 0 ||
		!init_monotonic_cond(&ctx->done_cond))
	{
		diag_error("could not initialize thread synchronization");
		return false;
	}
	bs->sync_ready = true;
	ctx->workers_running = ctx->nthreads;
	if (ctx->opts->progress_sec > 0 && !init_progress(bs))
	{
		diag_error("could not initialize thread synchronization");
		return false;
	}

	*start_time = pgb_time_now();
	if (ctx->opts->duration > 0)
		ctx->end_time = *start_time + (pg_time_usec_t) 1000000 * ctx->opts->duration;

	/*
	 * Without -P the main thread has nothing to do but join, so it runs
	 * worker 0 itself, as pgbench does: under -j 1 the process then never
	 * becomes multi-threaded, and libc keeps its single-thread fast paths
	 * (no cancellation bookkeeping around every send, recv and ppoll, no
	 * arena locking in malloc), worth a good hundred instructions per
	 * transaction.
	 */
	first_thread = ctx->opts->progress_sec > 0 ? 0 : 1;
	for (int i = first_thread; i < ctx->nthreads; i++)
	{
		worker	   *w = &bs->workers[i];

		w->create_time = pgb_time_now();
		if (bs->starts != NULL)
			err = pthread_create(&w->handle, NULL, worker_with_gate, &bs->starts[i]);
		else
			err = pthread_create(&w->handle, NULL, worker_main, w);
		if (err != 0)
		{
			/* the barrier can never fill: nothing to do but leave */
			diag_error("could not create thread: %s", strerror(err));
			exit(1);
		}
	}
	if (ctx->opts->progress_sec > 0)
		progress_run(&bs->cfg, bs->sources, ctx->nthreads, &bs->gate, *start_time);
	else
	{
		bs->workers[0].create_time = pgb_time_now();
		worker_main(&bs->workers[0]);
	}
	for (int i = first_thread; i < ctx->nthreads; i++)
		pthread_join(bs->workers[i].handle, NULL);
	return true;
}

/*
 * Log write errors (a full disk), one line per thread, after whatever
 * the run printed.  Returns true when there was one: the exit code is 2.
 */
static bool
report_log_errors(const bench_state *bs)
{
	bool		failed = false;

	for (int i = 0; i < bs->ctx->nthreads; i++)
	{
		if (bs->workers[i].log_error[0] != '\0')
		{
			diag_error("%s", bs->workers[i].log_error);
			failed = true;
		}
	}
	return failed;
}

/* --report-json: the document, or an error message (exit code 2). */
static bool
write_json(bench_state *bs, const report_figures *f)
{
	bool		ok;

	if (bs->json_out == NULL)
		return true;
	ok = report_json_write(bs->json_out, f);
	if (fclose(bs->json_out) != 0)
		ok = false;
	bs->json_out = NULL;
	if (!ok)
		diag_error("could not write report file \"%s\": %s", bs->ctx->opts->report_json,
				   strerror(errno));
	return ok;
}

static int
finish_run(bench_state *bs, const table_info *info, pg_time_usec_t start_time)
{
	run_context *ctx = bs->ctx;
	stats_run	total;
	pg_time_usec_t bench_start = 0;
	int			exit_code = 0;
	report_input in;
	report_figures figures;

	if (!stats_run_init(&total, ctx->scripts->nscripts, ctx->total_commands) ||
		(ctx->keep_hist && !stats_run_enable_hist(&total, ctx->per_script_stats)))
	{
		stats_run_free(&total);
		diag_error("out of memory");
		return 1;
	}
	for (int i = 0; i < ctx->nthreads; i++)
	{
		const worker *w = &bs->workers[i];

		for (int j = 0; j < w->nclients; j++)
			if (w->clients[j].state != CSTATE_FINISHED)
				exit_code = 2;
		stats_run_merge(&total, &w->stats);
		if (bench_start == 0 || w->bench_start < bench_start)
			bench_start = w->bench_start;
	}

	memset(&in, 0, sizeof(in));
	in.cfg = &bs->cfg;
	in.scale = info->scale;
	in.partition_method = info->method;
	in.partitions = info->partitions;
	in.stats = &total;
	in.bench_duration = pgb_time_now() - bench_start;
	in.conn_elapsed = bench_start - start_time;
	in.server_version = bs->server_version;
	in.aborted = exit_code != 0;
	if (!figures_compute(&in, &figures))
	{
		stats_run_free(&total);
		diag_error("out of memory");
		return 1;
	}
	report_print(stdout, &figures);
	fflush(stdout);
	if (!write_json(bs, &figures))
		exit_code = 2;
	figures_free(&figures);
	stats_run_free(&total);

	if (report_log_errors(bs))
		exit_code = 2;
	if (in.aborted)
		diag_error("Run was aborted; the above results are incomplete.");
	return exit_code;
}

int
bench_run(const pgb_options *opts)
{
	bench_state bs;
	random_seed seed = opts->seed;	/* our copy advances with every draw */
	table_info	info;
	pg_time_usec_t start_time = 0;
	int			rc = 1;

	memset(&bs, 0, sizeof(bs));
	bs.ctx = calloc(1, sizeof(run_context));
	if (bs.ctx == NULL || !init_context(bs.ctx, opts) || !init_clients(&bs, &seed))
	{
		diag_error("out of memory");
		goto done;
	}
	fill_run_config(&bs.cfg, bs.ctx);
	if (!setup_database(&bs, &seed, &info))
		goto done;
	if (!init_workers(&bs, &seed))
	{
		diag_error("out of memory");
		goto done;
	}
	if (!open_logs(&bs) || !open_json(&bs))
		goto done;
	if (!run_workers(&bs, &start_time))
		goto done;

	if (atomic_load(&bs.ctx->setup_failed))
	{
		rc = 1;					/* a client could not connect: no report */
		report_log_errors(&bs);
	}
	else if (atomic_load(&bs.ctx->stop))
	{
		rc = 2;					/* --exit-on-abort: no report either */
		report_log_errors(&bs);
	}
	else
		rc = finish_run(&bs, &info, start_time);

done:
	if (bs.ctx != NULL)
		free_state(&bs);
	return rc;
}
