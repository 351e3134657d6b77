/*
 * bench.c — orchestration of a benchmark run: everything before the worker
 * threads (set-up connection, banner, scale and partitions, vacuum, client
 * variables and random states in pgbench's order), the threads themselves,
 * and after them the merge of their statistics, the report and the exit
 * code.  This is start-up code: it prints pgbench's messages itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pgbench/stats/stats_slot.h"
#include "pgbench/run/bench.h"
#include "pgbench/engine/client.h"
#include "pgbench/conn/conn.h"
#include "pgbench/base/diag.h"
#include "pgbench/base/xalloc.h"
#include "pgbench/base/interrupt.h"
#include "pgbench/report/ticker.h"
#include "pgbench/server/monitor.h"
#include "pgbench/server/server_info.h"
#include "pgbench/fleet/rendezvous.h"
#include "pgbench/report/report.h"
#include "pgbench/report/threshold.h"
#include "pgbench/engine/thread.h"
#include "bench_int.h"

/* Everything a run allocates, released in one place. */
typedef struct bench_state
{
	const pgb_options *opts;
	run_config	cfg;			/* built once, read-only while threads run */
	run_shared	shared;			/* what the threads share */
	bool		cfg_ready;		/* cfg was built (runconf_free) */
	client	   *clients;
	int			nclients_ready; /* clients initialized, to free */
	worker	   *workers;
	int			nworkers_ready; /* workers prepared, to clean up */
	bool		barrier_ready;
	bool		sync_ready;		/* launch_lock and launch_cond initialized */
	stats_gate	gate;			/* the ticker waits for the workers on it */
	bool		gate_ready;
	ticker_source *sources;		/* what the ticker reads of each worker */
	timeline	tl;				/* a report file: the run over time */
	char		server_version[64]; /* as the banner shows it; "" before */
	FILE	   *text_out;		/* banner and text report: stdout, or stderr
								 * when the JSON document goes to stdout */
	pg_time_usec_t began;		/* bench_run's start, for a failed start */
	FILE	   *json_out;		/* --report-json, opened first; stdout for "-" */
	bool		json_written;	/* the document was written (or failed to be) */
	FILE	   *html_out;		/* --report-html, opened before the run */
	report_target target;		/* host, port, database, for the report files */
	server_monitor *mon;		/* --server-stats: the monitoring connection */
	server_run	srun;			/* ... and what it found over the run */
	metrics_server *metrics;	/* --metrics-listen */
	pid_t		setup_pid;		/* the set-up connection's backend */
	pg_time_usec_t joined_at;	/* every worker joined: the run's end */
	server_info server;			/* a report file: the server's identity and
								 * settings, read before the run */
	rendezvous	rv;				/* --rendezvous; rv.conn NULL when none */
	rendezvous_error rv_error;	/* why the rendezvous failed; "": it did not */
	char		run_id[RANDOM_RUN_ID_LEN + 1];	/* the reports' identity; "":
												 * no random bytes */
} bench_state;

/* ---- before the run ----------------------------------------------------- */

/* The slot of a variable pgbench sets itself, unless -D already set it. */
static int
startup_slot(const run_config *cfg, const char *name)
{
	const var_store *defines = cfg->defines;
	int			slot = var_symtab_find(cfg->scripts->symtab, name, strlen(name));

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
	const run_config *ctx = &bs->cfg;
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
 * printing why the run cannot start, or after a signal.
 */
static bool
setup_database(bench_state *bs, random_seed *seed, table_info *info)
{
	const run_config *ctx = &bs->cfg;
	const pgb_options *opts = bs->opts;
	char		errbuf[1024];
	PGconn	   *conn = conn_open(&ctx->params, errbuf, sizeof(errbuf));
	bool		ok = true;

	if (conn == NULL)
	{
		/* a signal: the run ends as one interrupted before it started */
		if (errbuf[0] != '\0')
		{
			diag_error("%s", errbuf);
			diag_error("could not create connection for setup");
		}
		return false;
	}
	setup_print_version(bs->text_out, conn, bs->server_version, sizeof(bs->server_version));
	report_target_read(&bs->target, conn);
	if (ctx->series_interval > 0 && !server_info_read(conn, &bs->server))
	{
		PQfinish(conn);
		diag_error("out of memory");
		return false;
	}
	if (opts->debug)
		diag_log(DIAG_DEBUG, "pghost: %s pgport: %s nclients: %d %s: %d dbName: %s",
				  PQhost(conn), PQport(conn), ctx->nclients,
				  opts->duration <= 0 ? "nxacts" : "duration",
				  opts->duration <= 0 ? (int) opts->nxacts : opts->duration, PQdb(conn));

	info->scale = opts->scale;
	info->method = PART_NONE;
	info->partitions = 0;
	if (setup_uses_builtin_script(opts->scripts))
		ok = setup_read_scale(conn, opts, info) && setup_read_partitions(conn, info);
	if (ok)
	{
		set_startup_variables(bs, info->scale, seed);
		if (!opts->no_vacuum)
			setup_vacuum_tables(conn, opts->vacuum_all, bs->shared.stop_fd);
	}
	bs->setup_pid = (pid_t) PQbackendPID(conn);
	PQfinish(conn);
	return ok && interrupt_signal() == 0;
}

/* ---- the run's shared state -------------------------------------------- */

/*
 * Room for the stop eventfd: option checking made the soft descriptor
 * limit at least -c + 3 (pgbench's count), which leaves none for it.
 * false when the limit is that tight and cannot be raised by one.
 */
static bool
room_for_stop_fd(int nclients)
{
	struct rlimit limit;
	rlim_t		needed = (rlim_t) nclients + 4;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
		limit.rlim_cur >= needed)
		return true;
	if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed)
		return false;
	limit.rlim_cur = needed;
	return setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

static void
init_shared(bench_state *bs)
{
	run_shared *sh = &bs->shared;

	atomic_init(&sh->setup_failed, false);
	atomic_init(&sh->stop, false);
	atomic_init(&sh->abort_stop, false);

	/*
	 * Wakes the threads for --exit-on-abort and a signal (interrupt.h);
	 * without it they still see the flag, at their next wake-up.
	 */
	sh->stop_fd = -1;
	if (room_for_stop_fd(bs->cfg.nclients) || bs->cfg.exit_on_abort)
		sh->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/*
 * -l: create every thread's log file now, before any thread starts, so
 * that a bad prefix stops the run as pgbench does (exit 1).
 */
static bool
open_logs(bench_state *bs)
{
	const run_config *cfg = &bs->cfg;
	char		errbuf[TXLOG_PATH_MAX + 128];

	if (!cfg->log_enabled)
		return true;
	for (int i = 0; i < cfg->nthreads; i++)
	{
		if (!txlog_open(&bs->workers[i].log, &cfg->log_cfg, i, errbuf, sizeof(errbuf)))
		{
			diag_error("%s", errbuf);
			return false;
		}
	}
	return true;
}

/* A report file's failed open or write, in pgbench's words. */
static void
print_file_error(const report_file_error *err)
{
	char		msg[8192];

	diag_error("%s", report_file_error_text(err, msg, sizeof(msg)));
}

/*
 * --report-json: open (truncate) the file first of all, so that a bad
 * path fails early and no document of an earlier run survives this one.
 */
static bool
open_json(bench_state *bs)
{
	const char *path = bs->cfg.report_json;

	if (path == NULL)
		return true;
	if (strcmp(path, "-") == 0)
	{
		bs->json_out = stdout;
		return true;
	}
	bs->json_out = fopen(path, "w");
	if (bs->json_out == NULL)
	{
		print_file_error(&(report_file_error) {.path = path, .opening = true, .errnum = errno});
		return false;
	}
	return true;
}

static bool
init_clients(bench_state *bs, random_seed *seed)
{
	const run_config *ctx = &bs->cfg;

	/* client_init zeroes each one; aligned so threads share no line */
	bs->clients = aligned_alloc(CLIENT_ALIGN, (size_t) ctx->nclients * sizeof(client));
	if (bs->clients == NULL)
		return false;
	for (int i = 0; i < ctx->nclients; i++)
	{
		client_init(&bs->clients[i], i, ctx);
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
	const run_config *ctx = &bs->cfg;
	int			dealt = 0;

	bs->workers = aligned_alloc(_Alignof(worker), (size_t) ctx->nthreads * sizeof(worker));
	if (bs->workers == NULL)
		return false;
	memset(bs->workers, 0, (size_t) ctx->nthreads * sizeof(worker));
	for (int i = 0; i < ctx->nthreads; i++)
	{
		worker	   *w = &bs->workers[i];

		w->tid = i;
		w->cfg = ctx;
		w->shared = &bs->shared;
		w->clients = &bs->clients[dealt];
		w->nclients = bench_deal(ctx->nclients, ctx->nthreads, i, dealt);
		random_state_init(seed, &w->env.choose_rs);
		random_state_init(seed, &w->env.throttle_rs);
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
		pthread_barrier_destroy(&bs->shared.barrier);
	if (bs->sync_ready)
	{
		pthread_cond_destroy(&bs->shared.launch_cond);
		pthread_mutex_destroy(&bs->shared.launch_lock);
	}
	if (bs->gate_ready)
		stats_gate_destroy(&bs->gate);
	free(bs->sources);
	timeline_free(&bs->tl);
	server_info_free(&bs->server);
	monitor_close(bs->mon);
	metrics_close(bs->metrics);
	if (bs->json_out != NULL && bs->json_out != stdout)
		fclose(bs->json_out);
	if (bs->html_out != NULL)
		fclose(bs->html_out);
	if (bs->shared.stop_fd >= 0)
		close(bs->shared.stop_fd);
	rendezvous_close(&bs->rv);
	if (bs->cfg_ready)
		runconf_free(&bs->cfg);
}

/* ---- the run and after -------------------------------------------------- */

/*
 * The rendezvous's failure, if any (rendezvous_open's, or the wait's in
 * rendezvous_pass, told after the workers are joined): the words it would
 * have printed where it failed; nothing after a signal, which the ending
 * tells.  The first error printed, it is also the reason the report files
 * give (diag_first_error).
 */
static void
report_rendezvous_error(const bench_state *bs)
{
	if (bs->rv_error.message[0] != '\0')
		diag_error("%s", bs->rv_error.message);
}

/* The gate the ticker waits on, and what it reads of each worker. */
static bool
init_ticker(bench_state *bs)
{
	int			n = bs->cfg.nthreads;

	bs->sources = calloc((size_t) n, sizeof(ticker_source));
	if (bs->sources == NULL || !stats_gate_init(&bs->gate, n))
		return false;
	bs->gate_ready = true;
	bs->shared.gate = &bs->gate;
	for (int i = 0; i < n; i++)
		bs->sources[i] = (ticker_source) {
			.slot = &bs->workers[i].progress,
			.latency_hist = bs->workers[i].stats.latency_hist,
		};
	return true;
}

/* Open the launch gate the workers wait at: 1 go, -1 the run is off. */
static void
launch_workers(run_shared *sh, int launch)
{
	pthread_mutex_lock(&sh->launch_lock);
	sh->launch = launch;
	pthread_cond_broadcast(&sh->launch_cond);
	pthread_mutex_unlock(&sh->launch_lock);
}

/*
 * Start the workers on threads of their own; the main thread keeps the -P
 * timer (so no report waits for a busy worker), or else runs worker 0.
 */
static bool
run_workers(bench_state *bs, pg_time_usec_t *start_time)
{
	const run_config *ctx = &bs->cfg;
	run_shared *sh = &bs->shared;
	int			err;
	int			first_thread;	/* workers before it run on this thread */
	bool		ticking = runconf_tick_interval(ctx) > 0;

	if ((err = pthread_barrier_init(&sh->barrier, NULL, (unsigned) ctx->nthreads)) != 0)
	{
		diag_error("could not initialize barrier: %s", strerror(err));
		return false;
	}
	bs->barrier_ready = true;
	if (pthread_mutex_init(&sh->launch_lock, NULL) != 0 ||
		pthread_cond_init(&sh->launch_cond, NULL) != 0)
	{
		diag_error("could not initialize thread synchronization");
		return false;
	}
	bs->sync_ready = true;
	if (ticking && !init_ticker(bs))
	{
		diag_error("out of memory");
		return false;
	}

	*start_time = pgb_time_now();
	sh->origin = *start_time;
	sh->end_time = bench_deadline(ctx, *start_time);	/* 0: no -T */

	/*
	 * Without -P the main thread has nothing to do but join, so it runs
	 * worker 0 itself, as pgbench does: under -j 1 the process then never
	 * becomes multi-threaded, and libc keeps its single-thread fast paths
	 * (no cancellation bookkeeping around every send, recv and ppoll, no
	 * arena locking in malloc), worth a good hundred instructions per
	 * transaction.
	 */
	first_thread = ticking ? 0 : 1;
	for (int i = first_thread; i < ctx->nthreads; i++)
	{
		worker	   *w = &bs->workers[i];

		w->create_time = pgb_time_now();
		if ((err = pthread_create(&w->handle, NULL, worker_main, w)) != 0)
		{
			/* the barrier cannot fill: send the threads made so far home */
			diag_error("could not create thread: %s", strerror(err));
			launch_workers(sh, -1);
			for (int j = first_thread; j < i; j++)
				pthread_join(bs->workers[j].handle, NULL);
			return false;
		}
		if (ticking)
			bs->sources[i].thread = w->handle;
	}
	launch_workers(sh, 1);
	if (ticking)
	{
		/* --rendezvous: the reports count from the agreed start */
		bool		started = true;

		if (sh->rendezvous != NULL)
		{
			started = rendezvous_start(sh->rendezvous) != 0;
			*start_time = sh->origin;
		}
		/* a rendezvous that failed or was interrupted: the run never began */
		if (started)
			ticker_run(ctx, bs->sources, ctx->nthreads, &bs->gate, *start_time,
					   ctx->series_interval > 0 ? &bs->tl : NULL, bs->mon, bs->metrics);
	}
	else
	{
		bs->workers[0].create_time = pgb_time_now();
		worker_main(&bs->workers[0]);
	}
	for (int i = first_thread; i < ctx->nthreads; i++)
		pthread_join(bs->workers[i].handle, NULL);
	*start_time = sh->origin;	/* moved by a rendezvous */
	bs->joined_at = pgb_time_now();
	/* every client has disconnected: the server's counters over the run */
	if (interrupt_signal() == 0)
		monitor_finish(bs->mon);
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

	for (int i = 0; i < bs->cfg.nthreads; i++)
	{
		if (bs->workers[i].log_error[0] != '\0')
		{
			diag_error("%s", bs->workers[i].log_error);
			failed = true;
		}
	}
	return failed;
}

/*
 * --report-json: the document (f NULL when nothing ran), written at most
 * once, or an error message.  false when it could not be written.
 */
static bool
write_json(bench_state *bs, const report_figures *f, const report_ending *end)
{
	bool		ok;

	if (bs->json_out == NULL || bs->json_written)
		return true;
	bs->json_written = true;
	ok = report_json_write_ending(bs->json_out, f, end);
	if (bs->json_out != stdout && fclose(bs->json_out) != 0)
		ok = false;
	bs->json_out = NULL;
	if (!ok)
		print_file_error(&(report_file_error) {.path = bs->cfg.report_json, .errnum = errno});
	return ok;
}

/*
 * --report-html: the page (f NULL when nothing ran), or the writer's
 * error printed.  false when it could not be written.
 */
static bool
write_html(bench_state *bs, const report_figures *f, const report_ending *end)
{
	report_file_error err;

	if (report_html_finish_ending(&bs->html_out, bs->cfg.report_html, f, end, &err))
		return true;
	print_file_error(&err);
	return false;
}

/*
 * Sum the workers' statistics into total and fill in what the figures
 * need (bench_window: when they start, whether the run was aborted).
 * false when out of memory.
 */
static bool
merge_workers(bench_state *bs, const table_info *info, stats_run *total, report_input *in,
			  int signo)
{
	const run_config *ctx = &bs->cfg;
	bench_window win;

	if (!stats_run_init(total, ctx->scripts->nscripts, ctx->total_commands) ||
		(ctx->keep_hist && !stats_run_enable_hist(total, ctx->per_script_stats)))
		return false;
	memset(in, 0, sizeof(*in));
	bench_window_init(&win);
	for (int i = 0; i < ctx->nthreads; i++)
	{
		worker_summary ws = worker_summarize(&bs->workers[i]);

		bench_window_add(&win, &ws, i, signo);
		stats_run_merge(total, ws.stats);
	}
	/* the run ends at the join: the monitor's reads after it are not in it */
	bench_window_report(&win, bs->shared.origin, bs->joined_at, in);
	in->cfg = ctx;
	in->scale = info->scale;
	in->partition_method = info->method;
	in->partitions = info->partitions;
	in->stats = total;
	in->server_version = bs->server_version;
	in->target = &bs->target;
	in->rendezvous = bs->shared.rendezvous != NULL ? &bs->rv.info : NULL;
	in->run_id = bs->run_id;
	in->timeline = ctx->series_interval > 0 ? &bs->tl : NULL;
	in->server = bs->server.read ? &bs->server : NULL;
	in->server_run = bs->srun.on ? &bs->srun : NULL;
	return true;
}

/*
 * After the run: the report files, the text report (not after
 * --exit-on-abort, as pgbench), the thresholds, log errors, and the exit
 * code (bench_exit_code).
 */
static int
finish_run(bench_state *bs, const table_info *info)
{
	int			signo = interrupt_signal();
	bool		exit_on_abort = signo == 0 && atomic_load(&bs->shared.abort_stop);
	bool		files_failed;
	bool		logs_failed;
	stats_run	total;
	report_input in;
	report_figures figures;
	report_ending end = {.outcome = REPORT_COMPLETED};
	double		shown_s;		/* the report's duration, for the stderr line */
	threshold_result *thresholds = NULL;
	int			thresholds_failed = 0;

	if (!merge_workers(bs, info, &total, &in, signo) || !figures_compute(&in, &figures))
	{
		stats_run_free(&total);
		diag_error("out of memory");
		return 1;
	}
	if (signo != 0)
		end = (report_ending) {REPORT_INTERRUPTED, .signal = interrupt_signal_name(signo)};
	else if (in.aborted)
		end = (report_ending) {REPORT_ABORTED, .error = diag_first_error()};
	if (bs->cfg.nthresholds > 0)
	{
		thresholds = pgb_calloc((size_t) bs->cfg.nthresholds, sizeof(threshold_result));
		thresholds_failed = threshold_check_all(bs->cfg.thresholds, bs->cfg.nthresholds, &figures,
												thresholds);
		figures.extra.thresholds = thresholds;
		figures.extra.nthresholds = bs->cfg.nthresholds;
	}

	/* the report files first: a closed stdout ends the text, nothing else */
	signal(SIGPIPE, SIG_IGN);
	files_failed = !write_json(bs, &figures, &end);
	files_failed = !write_html(bs, &figures, &end) || files_failed;
	if (!exit_on_abort)
		report_print_ending(bs->text_out, &figures, &end);
	for (int i = 0; i < figures.extra.nthresholds; i++)
		threshold_print(bs->text_out, &thresholds[i]);
	fflush(bs->text_out);
	if (figures.extra.client_bound)
		diag_warning("the client may have limited the result: worker thread %d was busy %.1f%% of the time (on a CPU or waiting for one)",
					 figures.extra.busiest_thread, figures.extra.busiest_thread_cpu_pct);
	if (figures.extra.commits.checked && !figures.extra.commits.agrees)
		diag_warning("the server counted %" PRId64 " commits on the database during the run, %" PRId64
					 " were expected from the transactions processed (a difference of %" PRId64
					 "; %" PRId64 " would be explained)",
					 figures.extra.commits.server, figures.extra.commits.expected,
					 figures.extra.commits.difference, figures.extra.commits.explained);
	shown_s = figures.duration_s;
	figures_free(&figures);
	stats_run_free(&total);
	free(thresholds);

	logs_failed = report_log_errors(bs);
	if (in.aborted && !exit_on_abort)
		diag_error("Run was aborted; the above results are incomplete.");
	if (signo != 0)
		diag_info("run was interrupted by signal %s after %.3f s", end.signal, shown_s);
	return bench_exit_code(signo, in.aborted, files_failed, logs_failed, thresholds_failed);
}

/*
 * A run that never benchmarked: the report files say why (a signal, or
 * the first error of a failed start), with the command line and when it
 * began and ended, and a signal makes the exit code 128 + its number.
 */
static int
finish_unstarted(bench_state *bs, int rc)
{
	int			signo = interrupt_signal();
	bool		connected = bs->server_version[0] != '\0';
	figures_extra meta;
	report_ending end = {
		.outcome = signo != 0 ? REPORT_INTERRUPTED : REPORT_FAILED_TO_START,
		.signal = signo != 0 ? interrupt_signal_name(signo) : NULL,
		.error = signo != 0 ? NULL : diag_first_error(),
		.server_version = connected ? bs->server_version : NULL,
		.run_id = bs->run_id,
		.compat = bs->cfg.compat,
		.meta = &meta,
	};

	if (signo != 0)
	{
		diag_info("run was interrupted by signal %s before the benchmark started",
				  end.signal);
		rc = 128 + signo;
	}
	else if (end.error == NULL)
		end.error = "the run could not start";
	memset(&meta, 0, sizeof(meta));
	meta.target = connected ? &bs->target : NULL;
	signal(SIGPIPE, SIG_IGN);
	if (figures_meta_compute(&meta, &bs->cfg, bs->began, pgb_time_now() - bs->began))
	{
		write_json(bs, NULL, &end);
		write_html(bs, NULL, &end);
	}
	else
		diag_error("out of memory");
	figures_extra_free(&meta);
	return rc;
}

int
bench_run(const pgb_options *opts)
{
	bench_state bs;
	random_seed seed = opts->seed;	/* our copy advances with every draw */
	table_info	info;
	pg_time_usec_t start_time = 0;
	bool		ran = false;
	int			rc = 1;
	report_file_error file_err;
	char		errbuf[512];

	memset(&bs, 0, sizeof(bs));
	bs.opts = opts;
	(void) random_run_id(bs.run_id);	/* none ("") without random bytes */
	bs.began = pgb_time_now();
	runconf_build(&bs.cfg, opts, (int) getpid());
	bs.text_out = bs.cfg.report_json != NULL && strcmp(bs.cfg.report_json, "-") == 0
		? stderr : stdout;
	bs.cfg_ready = true;
	timeline_init(&bs.tl, bs.cfg.series_interval, true);
	init_shared(&bs);
	interrupt_arm(&bs.shared.stop, bs.shared.stop_fd);
	if (!open_json(&bs))
		goto done;
	if (bs.cfg.report_html != NULL &&
		(bs.html_out = report_html_open(bs.cfg.report_html, &file_err)) == NULL)
	{
		print_file_error(&file_err);
		goto done;
	}
	if (bs.cfg.metrics_listen != NULL &&
		(bs.metrics = metrics_listen(bs.cfg.metrics_listen, errbuf, sizeof(errbuf))) == NULL)
	{
		diag_error("%s", errbuf);
		goto done;
	}
	if (!init_clients(&bs, &seed))
	{
		diag_error("out of memory");
		goto done;
	}
	if (!setup_database(&bs, &seed, &info))
		goto done;
	if (!init_workers(&bs, &seed))
	{
		diag_error("out of memory");
		goto done;
	}
	if (!open_logs(&bs) || interrupt_signal() != 0)
		goto done;
	if (bs.cfg.rendezvous_name != NULL)
	{
		if (rendezvous_open(&bs.rv, &bs.cfg.params, bs.cfg.rendezvous_name,
							bs.cfg.rendezvous_size, bs.cfg.rendezvous_timeout,
							&bs.rv_error) != RENDEZVOUS_OK)
		{
			report_rendezvous_error(&bs);
			goto done;
		}
		rendezvous_bind(&bs.rv, &bs.shared.origin, &bs.shared.end_time,
						bench_run_seconds(&bs.cfg), &bs.rv_error);
		bs.shared.rendezvous = &bs.rv;
	}
	if (bs.cfg.server_stats)
		bs.mon = monitor_open(&(monitor_setup) {
			.params = &bs.cfg.params, .nclients = bs.cfg.nclients,
			.sample_us = bs.cfg.server_sample_us, .stop_fd = bs.shared.stop_fd,
			.setup_pid = bs.setup_pid}, &bs.srun);
	if (!run_workers(&bs, &start_time))
		goto done;
	/* a failed wait at the rendezvous, before anything the ending prints */
	report_rendezvous_error(&bs);

	if (atomic_load(&bs.shared.setup_failed))
	{
		rc = 1;					/* a client could not connect: no report */
		report_log_errors(&bs);
	}
	else
	{
		rc = finish_run(&bs, &info);
		ran = true;
	}

done:
	if (!ran)
		rc = finish_unstarted(&bs, rc);
	interrupt_disarm();
	free_state(&bs);
	return rc;
}
