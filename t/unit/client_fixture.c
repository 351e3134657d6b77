/*
 * client_fixture.c — the engine tests' shared fixture (client_fixture.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client_fixture.h"
#include "pgbench/base/xalloc.h"
#include "tap.h"

#define SCRIPT_SEPARATOR "\n--next--\n"

/*
 * The flattened command index and the P_n statement names (runconf_build
 * makes them from the options; the tests have none).
 */
static void
command_tables(run_config *cfg)
{
	const script_set *set = cfg->scripts;
	int			nsql = 0;
	int			flat = 0;

	for (int i = 0; i < set->nscripts; i++)
	{
		cfg->script_offset[i] = cfg->total_commands;
		cfg->total_commands += set->scripts[i].ncommands;
	}
	cfg->prepared_names = pgb_calloc((size_t) cfg->total_commands, sizeof(char *));
	for (int i = 0; i < set->nscripts; i++)
		for (int j = 0; j < set->scripts[i].ncommands; j++, flat++)
			if (set->scripts[i].commands[j]->type == SQL_COMMAND)
			{
				char	   *name = pgb_malloc(16);

				snprintf(name, 16, "P_%d", nsql++);
				cfg->prepared_names[flat] = name;
			}
}

/* Compile each script of text (separated by SCRIPT_SEPARATOR). */
static bool
compile_scripts(script_set *set, const char *text)
{
	char	   *copy = pgb_strdup(text);
	char	   *part = copy;
	bool		ok = true;
	int			n = 0;

	while (ok && part != NULL)
	{
		char	   *sep = strstr(part, SCRIPT_SEPARATOR);
		char		name[32];
		script_error err;

		if (sep != NULL)
			sep[1] = '\0';
		snprintf(name, sizeof(name), "t%d.sql", n++);
		if (!script_compile(set, name, part, 1, &err))
		{
			tap_diag("script does not compile: %s", err.message);
			script_error_clear(&err);
			ok = false;
		}
		part = sep != NULL ? sep + strlen(SCRIPT_SEPARATOR) : NULL;
	}
	free(copy);
	return ok;
}

/*
 * The general path of expressions: the tree evaluator alone, each flat
 * program (expr.h) freed and taken off its tree, as test_expr_prog.c
 * runs them.
 */
static void
drop_programs(script_set *set)
{
	for (int i = 0; i < set->nscripts; i++)
		for (int j = 0; j < set->scripts[i].ncommands; j++)
		{
			expr_node  *root = set->scripts[i].commands[j]->expr;

			if (root != NULL && root->prog != NULL)
			{
				free(root->prog);
				root->prog = NULL;
			}
		}
}

bool
fixture_init(fixture *fx, const char *text, query_mode mode, int64_t nxacts,
			 const char *const *lines)
{
	memset(fx, 0, sizeof(*fx));
	fx->set = script_set_create();
	if (!compile_scripts(fx->set, text))
	{
		script_set_free(fx->set);
		return false;
	}
	var_store_init(&fx->defines, fx->set->symtab);
	fx->cfg.scripts = fx->set;
	fx->cfg.defines = &fx->defines;
	fx->cfg.query_mode = mode;
	fx->cfg.nclients = 1;
	fx->cfg.nthreads = 1;
	fx->cfg.nxacts = nxacts;
	fx->cfg.retry.max_tries = 1;
	if (engine_general_only)
		drop_programs(fx->set);
	command_tables(&fx->cfg);
	stats_run_init(&fx->stats, fx->set->nscripts, fx->cfg.total_commands);
	fx->env.cfg = &fx->cfg;
	fx->env.sink.stats = &fx->stats;
	prng_seed(&fx->env.choose_rs, 1);
	prng_seed(&fx->env.throttle_rs, 2);
	client_init(&fx->c, 0, &fx->cfg);
	prng_seed(&fx->c.rs, 3);
	fx->s = ss_new(lines);
	fx->c.conn = fx->s;
	fx->c.sock = pgb_session_socket(fx->s);
	return true;
}

void
fixture_free(fixture *fx)
{
	client_free(&fx->c);
	ss_free(fx->s);
	stats_run_free(&fx->stats);
	for (int i = 0; i < fx->cfg.total_commands; i++)
		free(fx->cfg.prepared_names[i]);
	free(fx->cfg.prepared_names);
	var_store_free(&fx->defines);
	script_set_free(fx->set);
}

/* Sleep until the monotonic time at (at most a second: a test's waits are short). */
static void
sleep_until(pg_time_usec_t at)
{
	pg_time_usec_t left = at - pgb_time_now();
	struct timespec ts;

	if (left <= 0)
		return;
	if (left > 1000000)
		left = 1000000;
	ts.tv_sec = (time_t) (left / 1000000);
	ts.tv_nsec = (long) (left % 1000000) * 1000;
	nanosleep(&ts, NULL);
}

client_state
fixture_run(fixture *fx, const char *name)
{
	client_env_set_flow(&fx->env, &fx->cfg);
	fx->env.throttle_delay = fx->cfg.throttle_delay;	/* as worker_prepare sets it */
	for (int pass = 0; pass < 1000; pass++)
	{
		pg_time_usec_t now = 0;
		pg_time_usec_t wake_at = 0;
		waitset_event event;
		int			fd;
		client_wait_kind kind;

		client_advance(&fx->c, &fx->env, &now);
		kind = client_wait(&fx->c, &fd, &event, &wake_at);
		if (kind == CWAIT_DONE)
			break;
		if (kind == CWAIT_TIMER)
			sleep_until(wake_at);
	}
	if (!tap_ok(ss_mismatch(fx->s) == NULL, "%s: the engine followed the script", name))
		tap_diag("%s", ss_mismatch(fx->s));
	if (!tap_is_int(ss_remaining(fx->s), 0, "script played to its end"))
		tap_diag("waiting at \"%s\"", ss_next_line(fx->s));
	return fx->c.state;
}

void
expect_finished(fixture *fx, const char *name, int64_t ok)
{
	tap_is_int(fixture_run(fx, name), CSTATE_FINISHED, "finished");
	tap_is_int(fx->stats.total.cnt, ok, "transactions counted");
	tap_ok(ss_closed(fx->s), "session closed at the end");
}

void
expect_aborted(fixture *fx, const char *name, const char *message)
{
	tap_is_int(fixture_run(fx, name), CSTATE_ABORTED, "aborted");
	tap_is_str(fx->env.failure.message, message, "abort message");
}

const char *
fixture_var(fixture *fx, const char *name)
{
	return fixture_client_var(fx, &fx->c, name);
}

const char *
fixture_client_var(fixture *fx, client *c, const char *name)
{
	int			slot = var_symtab_find(fx->set->symtab, name, strlen(name));
	const char *value = slot >= 0 ? var_get_string(&c->vars, slot) : NULL;

	return value != NULL ? value : "(unset)";
}

bool
fixture_define(fixture *fx, const char *name, const char *value)
{
	int			slot = var_symtab_find(fx->set->symtab, name, strlen(name));

	return slot >= 0 &&
		var_set_string(&fx->defines, slot, value, strlen(value)) &&
		var_set_string(&fx->c.vars, slot, value, strlen(value));
}

void
played(pgb_session *s, const char *name)
{
	if (!tap_ok(ss_mismatch(s) == NULL && ss_remaining(s) == 0, "%s: script played", name))
		tap_diag("%s / waiting at \"%s\"", ss_mismatch(s) ? ss_mismatch(s) : "", ss_next_line(s));
}

bool
worker_run_prepare(fixture *fx, int n, worker_run *wr)
{
	memset(wr, 0, sizeof(*wr));
	pthread_barrier_init(&wr->sh.barrier, NULL, 1);
	pthread_mutex_init(&wr->sh.launch_lock, NULL);
	pthread_cond_init(&wr->sh.launch_cond, NULL);
	wr->sh.launch = 1;
	wr->sh.stop_fd = -1;
	wr->sh.origin = pgb_time_now();
	wr->w.cfg = &fx->cfg;
	wr->w.shared = &wr->sh;
	wr->w.clients = wr->clients;
	wr->w.nclients = n;
	for (int i = 0; i < n; i++)
	{
		client_init(&wr->clients[i], i, &fx->cfg);
		prng_seed(&wr->clients[i].rs, (uint64_t) i);
	}
	if (!worker_prepare(&wr->w))
		return false;
	prng_seed(&wr->w.env.choose_rs, 1);
	prng_seed(&wr->w.env.throttle_rs, 2);
	return true;
}

void
worker_run_finish(worker_run *wr)
{
	worker_cleanup(&wr->w);
	for (int i = 0; i < wr->w.nclients; i++)
		client_free(&wr->clients[i]);
	pthread_barrier_destroy(&wr->sh.barrier);
	pthread_mutex_destroy(&wr->sh.launch_lock);
	pthread_cond_destroy(&wr->sh.launch_cond);
}

bool
run_worker(fixture *fx, int n, stats_data *total, reconnect_stats *rs)
{
	worker_run	wr;
	bool		ok = worker_run_prepare(fx, n, &wr);

	if (ok)
	{
		worker_main(&wr.w);
		*total = wr.w.stats.total;
		*rs = wr.w.stats.reconnect;
	}
	worker_run_finish(&wr);
	return ok;
}

/* ---- the fast paths against the general path ---------------------------- */

void
lines_add(text_lines *l, const char *fmt,...)
{
	va_list		ap;

	if (l->n + 2 > l->cap)
	{
		l->cap = l->cap * 2 + 64;
		l->line = pgb_realloc(l->line, (size_t) l->cap * sizeof(char *));
	}
	va_start(ap, fmt);
	l->line[l->n++] = pgb_vasprintf(fmt, ap);
	va_end(ap);
	l->line[l->n] = NULL;
}

void
lines_free(text_lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

void
fixture_set_general(bool general)
{
	engine_general_only = general;
}

const char *
fixture_path_name(void)
{
	return engine_general_only ? " [general]" : "";
}

void
fixture_record_session(text_lines *rec, const char *label, const pgb_session *s)
{
	int			n;
	int			nnumbers;
	const char *const *heard = ss_transcript(s, &n);

	(void) ss_numbers(s, &nnumbers);
	lines_add(rec, "%s: %d lines heard, %d numbers sent, closed %d, %d cancels", label, n,
			  nnumbers, ss_closed(s), ss_cancels(s));
	for (int i = 0; heard[i] != NULL; i++)
		lines_add(rec, "%s: %s", label, heard[i]);
}

/* The counts of one stats_data (no sums: they hold times). */
static void
record_data(text_lines *rec, const char *label, const stats_data *sd)
{
#define RECORD_COUNTER(field, json_name, kind) \
	lines_add(rec, "%s %s %lld", label, json_name, (long long) sd->field);
	STATS_COUNTERS(RECORD_COUNTER)
#undef RECORD_COUNTER
	lines_add(rec, "%s latencies %lld, lags %lld", label, (long long) sd->latency.count,
			  (long long) sd->lag.count);
}

void
fixture_record_counts(text_lines *rec, const stats_run *st)
{
	record_data(rec, "total", &st->total);
	lines_add(rec, "late %lld", (long long) st->latency_late);
	lines_add(rec, "reconnect: losses %lld, reconnects %lld, down at end %d",
			  (long long) st->reconnect.losses, (long long) st->reconnect.reconnects,
			  st->reconnect.down_at_end);
	for (int i = 0; st->per_script != NULL && i < st->nscripts; i++)
	{
		char		label[32];

		snprintf(label, sizeof(label), "script %d", i);
		record_data(rec, label, &st->per_script[i]);
	}
	for (int i = 0; st->per_command != NULL && i < st->ncommands; i++)
		lines_add(rec, "command %d: latencies %lld, failures %lld, retries %lld", i,
				  (long long) st->per_command[i].latency.count,
				  (long long) st->per_command[i].failures,
				  (long long) st->per_command[i].retries);
	if (st->latency_hist != NULL)
		lines_add(rec, "histogram: %lld", (long long) hist_count(st->latency_hist));
}

void
fixture_record_client(text_lines *rec, client *c)
{
	lines_add(rec, "client %d: state %d, %lld transactions, command %d, tries %u", c->id,
			  (int) c->state, (long long) c->cnt, c->command, c->tries);
	for (int slot = 0; slot < c->vars.nslots; slot++)
	{
		const char *value = var_get_string(&c->vars, slot);

		lines_add(rec, "client %d: variable %d = %s", c->id, slot,
				  value != NULL ? value : "(unset)");
	}
}

static int
compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

void
fixture_record_stderr(text_lines *rec, const char *text, bool sorted)
{
	int			first = rec->n;

	while (*text != '\0')
	{
		size_t		len = strcspn(text, "\n");

		lines_add(rec, "stderr: %.*s", (int) len, text);
		text += len + (text[len] == '\n');
	}
	/* nothing recorded: no array to sort (qsort of NULL is undefined) */
	if (sorted && rec->n > first)
		qsort(rec->line + first, (size_t) (rec->n - first), sizeof(char *), compare_lines);
}

bool
fixture_records_same(const text_lines *fast, const text_lines *general, const char *name)
{
	int			i = 0;

	while (i < fast->n && i < general->n && strcmp(fast->line[i], general->line[i]) == 0)
		i++;
	if (tap_ok(i == fast->n && i == general->n,
			   "%s: the fast paths and the general path send, hear, count and leave the same",
			   name))
		return true;
	tap_diag("first difference at line %d of %d / %d:", i + 1, fast->n, general->n);
	tap_diag("  fast:    %s", i < fast->n ? fast->line[i] : "(end)");
	tap_diag("  general: %s", i < general->n ? general->line[i] : "(end)");
	return false;
}
