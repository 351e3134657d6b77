/*
 * test_matrix.c — the engine matrix of run_matrix.pl without a server:
 * every builtin script in simple, extended and prepared mode and a
 * pipeline script in extended and prepared mode, each run with -t by the
 * single-client fixture and by one worker of 1 to 4 clients through the
 * thread loop (client_fixture.h).  Every session is checked line by line:
 * what the mode sends per transaction, the counts, and the numbers the
 * scripts drew ("#" in session_script.h): in their ranges, the same
 * within a transaction, the last ones the client's variables.
 *
 * Each run is made twice, on the engine's fast paths and forced onto its
 * general path (fixture_set_general), and the two records must be equal:
 * every session's transcript (each message sent, with the values drawn,
 * and each result heard, in order), the counts, the clients' ends and
 * variables, and stderr (doc/engine.md, "Fast paths").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_fixture.h"
#include "tap.h"

#define SCALE 2
#define SCALE_TEXT "2"			/* SCALE, for -D scale= */
#define MAX_STMTS 8

/* The variables the scripts set, and their ranges at scale SCALE. */
enum
{
	V_AID, V_BID, V_TID, V_DELTA, NVARS
};

static const struct
{
	const char *name;
	long long	min;
	long long	max;
}			ranges[NVARS] = {
	[V_AID] = {"aid", 1, 100000 * SCALE},
	[V_BID] = {"bid", 1, SCALE},
	[V_TID] = {"tid", 1, 10 * SCALE},
	[V_DELTA] = {"delta", -5000, 5000},
};

/*
 * One SQL statement of the scripts: as sent in simple mode (each "#" a
 * variable's value), as sent with parameters, the variables behind the
 * numbers in the order sent, the result the session answers and the
 * transaction status after it (NULL: unchanged).
 */
typedef struct matrix_stmt
{
	const char *simple;
	const char *params;
	int			nvars;
	int			var[NVARS];
	const char *result;
	const char *tx;
} matrix_stmt;

enum
{
	S_BEGIN, S_UPDATE_ACCOUNT, S_SELECT_ACCOUNT, S_UPDATE_TELLER, S_UPDATE_BRANCH,
	S_INSERT_HISTORY, S_END, S_COUNT_TELLERS,
};

static const matrix_stmt stmts[] = {
	[S_BEGIN] = {"BEGIN;", "BEGIN;", 0, {0}, "< OK BEGIN", "~ TX T"},
	[S_UPDATE_ACCOUNT] = {
		"UPDATE pgbench_accounts SET abalance = abalance + # WHERE aid = #;",
		"UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;",
		2, {V_DELTA, V_AID}, "< OK UPDATE 1", NULL},
	[S_SELECT_ACCOUNT] = {
		"SELECT abalance FROM pgbench_accounts WHERE aid = #;",
		"SELECT abalance FROM pgbench_accounts WHERE aid = $1;",
		1, {V_AID}, "< ROWS abalance | 0", NULL},
	[S_UPDATE_TELLER] = {
		"UPDATE pgbench_tellers SET tbalance = tbalance + # WHERE tid = #;",
		"UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2;",
		2, {V_DELTA, V_TID}, "< OK UPDATE 1", NULL},
	[S_UPDATE_BRANCH] = {
		"UPDATE pgbench_branches SET bbalance = bbalance + # WHERE bid = #;",
		"UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2;",
		2, {V_DELTA, V_BID}, "< OK UPDATE 1", NULL},
	[S_INSERT_HISTORY] = {
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
		"VALUES (#, #, #, #, CURRENT_TIMESTAMP);",
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
		"VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);",
		4, {V_TID, V_BID, V_AID, V_DELTA}, "< OK INSERT 0 1", NULL},
	[S_END] = {"END;", "END;", 0, {0}, "< OK COMMIT", "~ TX I"},
	[S_COUNT_TELLERS] = {
		"SELECT count(*) FROM pgbench_tellers WHERE tid = # AND bid = #;",
		"SELECT count(*) FROM pgbench_tellers WHERE tid = $1 AND bid = $2;",
		2, {V_TID, V_BID}, "< ROWS count | 1", NULL},
};

/* run_matrix.pl's pipeline.sql: four statements in one pipeline */
static const char pipeline_text[] =
	"\\set aid random(1, 100000 * :scale)\n"
	"\\set tid random(1, 10 * :scale)\n"
	"\\set bid random(1, :scale)\n"
	"\\set delta random(-5000, 5000)\n"
	"\\startpipeline\n"
	"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
	"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
	"SELECT count(*) FROM pgbench_tellers WHERE tid = :tid AND bid = :bid;\n"
	"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
	"VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
	"\\endpipeline\n";

/* A script of the matrix: a builtin's name or pipeline.sql, its statements. */
typedef struct matrix_script
{
	const char *name;
	bool		pipeline;
	int			nstmts;
	int			stmt[MAX_STMTS];
} matrix_script;

static const matrix_script tpcb = {"tpcb-like", false, 7,
	{S_BEGIN, S_UPDATE_ACCOUNT, S_SELECT_ACCOUNT, S_UPDATE_TELLER, S_UPDATE_BRANCH,
	S_INSERT_HISTORY, S_END}};
static const matrix_script simple_update = {"simple-update", false, 5,
	{S_BEGIN, S_UPDATE_ACCOUNT, S_SELECT_ACCOUNT, S_INSERT_HISTORY, S_END}};
static const matrix_script select_only = {"select-only", false, 1, {S_SELECT_ACCOUNT}};
static const matrix_script pipeline = {"pipeline", true, 4,
	{S_UPDATE_ACCOUNT, S_SELECT_ACCOUNT, S_COUNT_TELLERS, S_INSERT_HISTORY}};

/* The matrix: each script in each mode it supports (a pipeline needs -M extended or prepared). */
static const struct
{
	const matrix_script *script;
	query_mode	mode;
	const char *mode_name;
}			cases[] = {
	{&tpcb, QUERY_SIMPLE, "simple"},
	{&tpcb, QUERY_EXTENDED, "extended"},
	{&tpcb, QUERY_PREPARED, "prepared"},
	{&simple_update, QUERY_SIMPLE, "simple"},
	{&simple_update, QUERY_EXTENDED, "extended"},
	{&simple_update, QUERY_PREPARED, "prepared"},
	{&select_only, QUERY_SIMPLE, "simple"},
	{&select_only, QUERY_EXTENDED, "extended"},
	{&select_only, QUERY_PREPARED, "prepared"},
	{&pipeline, QUERY_EXTENDED, "extended"},
	{&pipeline, QUERY_PREPARED, "prepared"},
};

/* The shapes each case runs in: clients of one worker (0: the single-client fixture), -t. */
static const struct
{
	int			clients;
	int			nxacts;
}			shapes[] = {{0, 3}, {1, 2}, {2, 3}, {3, 2}, {4, 4}};

/* ---- the session a case expects ------------------------------------------ */

/* "#,#" for n parameters. */
static const char *
param_list(int n)
{
	static const char *const lists[] = {"", " #", " #,#", " #,#,#", " #,#,#,#"};

	return lists[n];
}

/*
 * Statement k of ms prepared as P_k (the fixture names each SQL command
 * of a script P_ and its place among them) and its answer.
 */
static void
add_prepare(text_lines *l, const matrix_script *ms, int k)
{
	lines_add(l, "> PREPARE P_%d %s", k, stmts[ms->stmt[k]].params);
	lines_add(l, "< OK");
	lines_add(l, "< END");
}

/* The send of statement k (its P_k when prepared), without its results. */
static void
add_send(text_lines *l, const matrix_script *ms, int k, query_mode mode)
{
	const matrix_stmt *st = &stmts[ms->stmt[k]];
	const char *params = param_list(st->nvars);

	if (mode == QUERY_SIMPLE)
		lines_add(l, "> Q %s", st->simple);
	else if (mode == QUERY_EXTENDED)
		lines_add(l, "> X %s |%s", st->params, params);
	else
		lines_add(l, "> EXEC P_%d |%s", k, params);
}

static void
add_results(text_lines *l, const matrix_stmt *st)
{
	lines_add(l, "%s", st->result);
	lines_add(l, "< END");
}

/*
 * One transaction of ms in mode; first: the connection's first, when
 * prepared mode sends each statement's PREPARE (before its first
 * execution, or all at \startpipeline).
 */
static void
add_transaction(text_lines *l, const matrix_script *ms, query_mode mode, bool first)
{
	bool		prepare = mode == QUERY_PREPARED && first;

	for (int k = 0; ms->pipeline && prepare && k < ms->nstmts; k++)
		add_prepare(l, ms, k);
	for (int k = 0; k < ms->nstmts; k++)
	{
		const matrix_stmt *st = &stmts[ms->stmt[k]];

		if (!ms->pipeline && prepare)
			add_prepare(l, ms, k);
		add_send(l, ms, k, mode);
		if (ms->pipeline)
			continue;
		add_results(l, st);
		if (st->tx != NULL)
			lines_add(l, "%s", st->tx);
	}
	if (!ms->pipeline)
		return;
	lines_add(l, "> SYNC");
	for (int k = 0; k < ms->nstmts; k++)
		add_results(l, &stmts[ms->stmt[k]]);
	lines_add(l, "< SYNC");
}

/* The whole session of one connection: nxacts transactions. */
static void
build_session(text_lines *l, const matrix_script *ms, query_mode mode, int nxacts)
{
	memset(l, 0, sizeof(*l));
	for (int t = 0; t < nxacts; t++)
		add_transaction(l, ms, mode, t == 0);
}

/* ---- checks ------------------------------------------------------------- */

/*
 * Walk one transaction's numbers (num[*pos] on) through its statements'
 * variables: each in its range and the same wherever it is sent again.
 * The values into last[] and sent[]; false, and why, at the first that
 * is not.
 */
static bool
check_transaction(const matrix_script *ms, const long long *num, int nnum, int *pos,
				  long long *last, bool *sent, char *why, size_t len)
{
	bool		seen[NVARS] = {false};

	for (int k = 0; k < ms->nstmts; k++)
		for (int i = 0; i < stmts[ms->stmt[k]].nvars; i++, (*pos)++)
		{
			int			v = stmts[ms->stmt[k]].var[i];

			if (*pos >= nnum)
			{
				snprintf(why, len, "number %d missing", *pos);
				return false;
			}
			if (num[*pos] < ranges[v].min || num[*pos] > ranges[v].max ||
				(seen[v] && last[v] != num[*pos]))
			{
				snprintf(why, len, "number %d: %s = %lld", *pos, ranges[v].name, num[*pos]);
				return false;
			}
			seen[v] = sent[v] = true;
			last[v] = num[*pos];
		}
	return true;
}

/*
 * The numbers session s was sent, nxacts transactions of ms: in range and
 * consistent, none left over; then (when they are) the last of each is
 * client c's variable (variables ms never sends stay unset: select-only
 * sets aid alone).
 */
static void
check_numbers(fixture *fx, client *c, pgb_session *s, const matrix_script *ms, int nxacts,
			  const char *name)
{
	int			nnum;
	const long long *num = ss_numbers(s, &nnum);
	long long	last[NVARS] = {0};
	bool		sent[NVARS] = {false};
	int			pos = 0;
	bool		ok = true;
	char		why[128] = "";

	for (int t = 0; ok && t < nxacts; t++)
		ok = check_transaction(ms, num, nnum, &pos, last, sent, why, sizeof(why));
	if (ok && pos != nnum)
	{
		snprintf(why, sizeof(why), "%d numbers sent, %d expected", nnum, pos);
		ok = false;
	}
	if (!tap_ok(ok, "%s: the values drawn, in range and the same within a transaction", name))
		tap_diag("%s", why);
	for (int v = 0; ok && v < NVARS; v++)
	{
		const char *got = fixture_client_var(fx, c, ranges[v].name);
		char		want[32] = "(unset)";

		if (sent[v])
			snprintf(want, sizeof(want), "%lld", last[v]);
		if (strcmp(got, want) != 0)
		{
			snprintf(why, sizeof(why), "%s = %s, last sent %s", ranges[v].name, got, want);
			ok = false;
		}
	}
	if (!tap_ok(ok, "%s: the client's variables are the last values sent", name))
		tap_diag("%s", why);
}

/* ---- runs --------------------------------------------------------------- */

static bool
case_fixture(fixture *fx, int i, int nxacts, const text_lines *l)
{
	const builtin_script *b = builtin_find(cases[i].script->name, NULL);

	if (!fixture_init(fx, b != NULL ? b->script : pipeline_text, cases[i].mode, nxacts,
					  (const char *const *) l->line))
		return false;
	if (!fixture_define(fx, "scale", SCALE_TEXT))
	{
		tap_ok(false, "%s: the script uses :scale", cases[i].script->name);
		fixture_free(fx);
		return false;
	}
	return true;
}

/* What a run printed on stderr (none expected), into rec. */
static void
record_stderr(text_lines *rec, bool sorted)
{
	char		caught[8192];

	tap_stderr_release(caught, sizeof(caught));
	fixture_record_stderr(rec, caught, sorted);
}

/* The single-client fixture: case i with -t nxacts, recorded into rec. */
static void
run_single(int i, int nxacts, const char *name, text_lines *rec)
{
	fixture		fx;
	text_lines		l;

	build_session(&l, cases[i].script, cases[i].mode, nxacts);
	if (case_fixture(&fx, i, nxacts, &l))
	{
		tap_stderr_catch();
		expect_finished(&fx, name, nxacts);
		record_stderr(rec, false);
		tap_ok(fx.env.counts_only == !engine_general_only,
			   "%s: a transaction only counted on the fast path alone", name);
		if (cases[i].script->pipeline)
			tap_is_int(fx.c.num_syncs, 0, "every sync's results read");
		check_numbers(&fx, &fx.c, fx.s, cases[i].script, nxacts, name);
		fixture_record_session(rec, "session", fx.s);
		fixture_record_counts(rec, &fx.stats);
		fixture_record_client(rec, &fx.c);
		fixture_free(&fx);
	}
	lines_free(&l);
}

/*
 * One worker of n clients through the thread loop: case i with -t
 * nxacts, recorded into rec.
 */
static void
run_clients(int i, int n, int nxacts, const char *name, text_lines *rec)
{
	fixture		fx;
	worker_run	wr;
	text_lines		l;
	pgb_session *s[MAX_WORKER_CLIENTS];
	char		what[160];

	build_session(&l, cases[i].script, cases[i].mode, nxacts);
	if (!case_fixture(&fx, i, nxacts, &l))
	{
		lines_free(&l);
		return;
	}
	for (int k = 0; k < n; k++)
		ss_queue_connect(s[k] = ss_new((const char *const *) l.line), 0);
	if (tap_ok(worker_run_prepare(&fx, n, &wr), "%s: prepared", name))
	{
		tap_stderr_catch();
		worker_main(&wr.w);
		record_stderr(rec, n > 1);
		fixture_record_counts(rec, &wr.w.stats);
		tap_is_int(wr.w.stats.total.cnt, (int64_t) n * nxacts, "processed = clients x -t");
		tap_is_int(wr.w.stats.total.other_failures + wr.w.stats.total.serialization_failures +
				   wr.w.stats.total.deadlock_failures + wr.w.stats.total.connection_failures,
				   0, "no failures");
		for (int k = 0; k < n; k++)
		{
			snprintf(what, sizeof(what), "%s, client %d", name, k);
			played(s[k], what);
			tap_ok(wr.clients[k].state == CSTATE_FINISHED && wr.clients[k].cnt == nxacts &&
				   ss_closed(s[k]), "%s: finished its -t, closed", what);
			check_numbers(&fx, &wr.clients[k], s[k], cases[i].script, nxacts, what);
			snprintf(what, sizeof(what), "session %d", k);
			fixture_record_session(rec, what, s[k]);
			fixture_record_client(rec, &wr.clients[k]);
		}
	}
	worker_run_finish(&wr);
	tap_is_int(ss_connects_left(), 0, "every connection taken");
	for (int k = 0; k < n; k++)
		ss_free(s[k]);
	fixture_free(&fx);
	lines_free(&l);
}

/*
 * Case i in shape j, on the fast paths and then on the general path: each
 * run checked as always, and their records compared.
 */
static void
run_both(int i, int j)
{
	char		name[128];
	text_lines		rec[2] = {{0}};

	snprintf(name, sizeof(name), "%s -M %s -c %d -t %d%s", cases[i].script->name,
			 cases[i].mode_name, shapes[j].clients > 0 ? shapes[j].clients : 1,
			 shapes[j].nxacts, shapes[j].clients > 0 ? " (thread loop)" : "");
	for (int path = 0; path < 2; path++)
	{
		char		pathname[160];

		fixture_set_general(path == 1);
		snprintf(pathname, sizeof(pathname), "%s%s", name, fixture_path_name());
		if (shapes[j].clients == 0)
			run_single(i, shapes[j].nxacts, pathname, &rec[path]);
		else
			run_clients(i, shapes[j].clients, shapes[j].nxacts, pathname, &rec[path]);
	}
	fixture_set_general(false);
	fixture_records_same(&rec[0], &rec[1], name);
	lines_free(&rec[0]);
	lines_free(&rec[1]);
}

int
main(void)
{
	for (int i = 0; i < (int) PGB_LENGTHOF(cases); i++)
		for (int j = 0; j < (int) PGB_LENGTHOF(shapes); j++)
			run_both(i, j);
	return tap_done();
}
