/*
 * test_fastpath.c — the engine's fast paths proven equal to its general
 * path (doc/engine.md, "Fast paths"), on the sessions test_matrix.c does
 * not reach: scripts that begin with SQL (a client going straight on into
 * its next transaction, fused steps), retries, failures, -r, several
 * scripts, \if, expressions the flat program declines, pipelines that
 * fail, -C, --reconnect, \gset and \aset, aborts, \sleep, busy sessions.
 *
 * Each case runs twice, on the fast paths and forced onto the general path
 * (fixture_set_general): each run is checked against its scripted sessions
 * and the clients' ends, the fast run is checked to take the fast paths
 * the case is for, and the two records (every session's transcript, the
 * counts, the clients' ends and variables, stderr) must be equal.
 */
#include <stdio.h>
#include <string.h>

#include "client_fixture.h"
#include "tap.h"

#define FP_MAX_SESSIONS 6

/* What a case sets beyond the fixture's defaults. */
enum
{
	FP_TRIES3 = 1 << 0,			/* --max-tries 3 */
	FP_PER_COMMAND = 1 << 1,	/* -r */
	FP_CONTINUE = 1 << 2,		/* --continue-on-error */
	FP_CONNECT_EACH = 1 << 3,	/* -C */
	FP_RECONNECT = 1 << 4,		/* --reconnect */
	FP_SCRIPTS = 1 << 5,		/* several scripts: counted per script,
								 * latencies taken */
	FP_VERBOSE = 1 << 6,		/* --verbose-errors */
};

/*
 * One case: the script (scripts separated by "--next--"), -M, -t, the
 * clients (0: the single-client fixture; else one worker of that many),
 * the sessions the connections play, in the order they are made (the
 * single-client fixture's first one is its own, unless -C), settings, the
 * fast paths its fast run must take (straight_on, fuse_steps,
 * counts_only) and the state every client ends in.
 */
typedef struct fp_case
{
	const char *name;
	const char *script;
	query_mode	mode;
	int64_t		nxacts;
	int			clients;
	const char *const *sessions[FP_MAX_SESSIONS];
	unsigned	flags;
	bool		straight_on;
	bool		fuse_steps;
	bool		counts_only;
	client_state end;
} fp_case;

/* ---- sessions ------------------------------------------------------------ */

#define ROW_END "< ROWS a | 1", "< END"
#define SEL1 "> Q SELECT 1;", ROW_END
#define SELN "> Q SELECT #;", ROW_END

/* "SELECT 1;\n\set x random(1, 1000)\nSELECT :x;\n" in each mode */
static const char *const sqlfirst_simple[] = {SEL1, SELN, SEL1, SELN, SEL1, SELN, NULL};
static const char *const sqlfirst_extended[] = {
	"> X SELECT 1; |", "~ BUSY 2", ROW_END, "> X SELECT $1; | #", ROW_END,
	"> X SELECT 1; |", ROW_END, "> X SELECT $1; | #", "~ BUSY 1", ROW_END,
	"> X SELECT 1; |", ROW_END, "> X SELECT $1; | #", ROW_END, NULL,
};
static const char *const sqlfirst_prepared[] = {
	"> PREPARE P_0 SELECT 1;", "< OK", "< END", "> EXEC P_0 |", ROW_END,
	"> PREPARE P_1 SELECT $1;", "< OK", "< END", "> EXEC P_1 | #", ROW_END,
	"> EXEC P_0 |", ROW_END, "> EXEC P_1 | #", "~ BUSY 1", ROW_END,
	"> EXEC P_0 |", ROW_END, "> EXEC P_1 | #", ROW_END, NULL,
};

/* BEGIN; UPDATE; END; whose UPDATE fails once with a serialization failure */
#define TX_BEGIN "> Q BEGIN;", "< OK", "< END", "~ TX T"
#define TX_UPDATE "> Q UPDATE t SET v = 1;"
#define TX_ROLLBACK "~ TX E", "> Q ROLLBACK", "< OK", "< END", "~ TX I"
#define TX_PASS TX_BEGIN, TX_UPDATE, "< OK", "< END", "> Q END;", "< OK", "< END", "~ TX I"
#define TX_SERIAL TX_BEGIN, TX_UPDATE, "< ERROR 40001 could not serialize access", "< END", \
	TX_ROLLBACK
static const char *const retried[] = {TX_SERIAL, TX_PASS, TX_SERIAL, TX_PASS, NULL};
static const char *const deadlocked[] = {
	TX_BEGIN, TX_UPDATE, "< ERROR 40P01 deadlock detected", "< END", TX_ROLLBACK,
	TX_PASS, NULL,
};
static const char *const duplicate[] = {
	TX_BEGIN, TX_UPDATE, "< ERROR 23505 duplicate key value", "< END", TX_ROLLBACK,
	TX_PASS, NULL,
};

static const char *const four_selects[] = {SELN, SELN, SELN, SELN, NULL};
static const char *const three_selects[] = {SELN, SELN, SELN, NULL};
static const char *const two_selects[] = {SEL1, SEL1, NULL};
static const char *const one_select[] = {SEL1, NULL};
static const char *const lost[] = {"> Q SELECT 1;", "~ BREAK", NULL};
static const char *const no_column[] = {
	"> Q SELECT nosuch;", "< ERROR 42703 column \"nosuch\" does not exist", NULL,
};

/* "\set d 2.5\n\set e int(:d * 2)\n\set f :e + 1\n\set g :d + 1\nSELECT :f, :g;\n" */
static const char *const declined[] = {
	SEL1, "> Q SELECT 6, 3.5;", ROW_END, SEL1, "> Q SELECT 6, 3.5;", ROW_END, NULL,
};

/* an error in a pipeline that cannot be left at once: synced and drained */
static const char *const pipeline_discard[] = {
	"> X SELECT 1; |", "> SYNC",
	"< ERROR 40001 could not serialize access", "< END", "< SYNC", "~ NOEXIT",
	"> SYNC", "~ BUSY 1", "< OK", "< END", "< SYNC", "< END", "~ TX I", NULL,
};

/* "SELECT 1 AS a \gset\n\set b :a + 1\nSELECT :b AS c \aset\n" */
static const char *const stored[] = {
	"> Q SELECT 1 AS a ", "< ROWS a | 42", "< END", "> Q SELECT 43 AS c ", "< ROWS c | 7",
	"< END",
	"> Q SELECT 1 AS a ", "< ROWS a | 41", "< END", "> Q SELECT 42 AS c ", "< ROWS c | 7",
	"< END", NULL,
};

static const char *const dynamic[] = {
	"> PREPARE PI_0 SELECT * FROM \"3\";", "< OK", "< END",
	"> EXEC PI_0 |", ROW_END, "> EXEC PI_0 |", ROW_END, NULL,
};

static const char *const sqlfirst_text = "SELECT 1;\n\\set x random(1, 1000)\nSELECT :x;\n";
static const char *const tx_text = "BEGIN;\nUPDATE t SET v = 1;\nEND;\n";

/* ---- the cases ----------------------------------------------------------- */

static const fp_case cases[] = {
	{"SQL first, simple", "", QUERY_SIMPLE, 3, 0, {sqlfirst_simple}, 0,
	true, true, true, CSTATE_FINISHED},
	{"SQL first, simple, 3 clients", "", QUERY_SIMPLE, 3, 3,
		{sqlfirst_simple, sqlfirst_simple, sqlfirst_simple}, 0,
	true, true, true, CSTATE_FINISHED},
	{"SQL first, extended, busy", "", QUERY_EXTENDED, 3, 0, {sqlfirst_extended}, 0,
	true, true, true, CSTATE_FINISHED},
	{"SQL first, extended, busy, 2 clients", "", QUERY_EXTENDED, 3, 2,
		{sqlfirst_extended, sqlfirst_extended}, 0,
	true, true, true, CSTATE_FINISHED},
	{"SQL first, prepared, -r", "", QUERY_PREPARED, 3, 0, {sqlfirst_prepared},
		FP_PER_COMMAND, true, true, true, CSTATE_FINISHED},
	{"SQL first, prepared, -r, 3 clients", "", QUERY_PREPARED, 3, 3,
		{sqlfirst_prepared, sqlfirst_prepared, sqlfirst_prepared}, FP_PER_COMMAND,
	true, true, true, CSTATE_FINISHED},
	{"retried, -r, --verbose-errors", NULL, QUERY_SIMPLE, 2, 0, {retried},
		FP_TRIES3 | FP_PER_COMMAND | FP_VERBOSE, true, true, true, CSTATE_FINISHED},
	{"retried, 2 clients", NULL, QUERY_SIMPLE, 2, 2, {retried, retried},
		FP_TRIES3 | FP_VERBOSE, true, true, true, CSTATE_FINISHED},
	{"deadlock failure, -r", NULL, QUERY_SIMPLE, 2, 0, {deadlocked}, FP_PER_COMMAND,
	true, true, true, CSTATE_FINISHED},
	{"--continue-on-error, 2 clients", NULL, QUERY_SIMPLE, 2, 2, {duplicate, duplicate},
		FP_CONTINUE | FP_PER_COMMAND, true, true, true, CSTATE_FINISHED},
	{"two scripts", "SELECT 1;\n--next--\nSELECT 2;\n", QUERY_SIMPLE, 4, 0, {four_selects},
		FP_SCRIPTS, true, true, false, CSTATE_FINISHED},
	{"two scripts, 3 clients", "SELECT 1;\n--next--\nSELECT 2;\n", QUERY_SIMPLE, 4, 3,
		{four_selects, four_selects, four_selects}, FP_SCRIPTS | FP_PER_COMMAND,
	true, true, false, CSTATE_FINISHED},
	{"\\if chain", "\\set x random(1, 4)\n\\if :x > 2\nSELECT 1;\n\\elif :x = 2\nSELECT 2;\n"
		"\\else\nSELECT 3;\n\\endif\n", QUERY_SIMPLE, 3, 2, {three_selects, three_selects},
		FP_PER_COMMAND, false, false, true, CSTATE_FINISHED},
	{"expressions the program declines",
		"SELECT 1;\n\\set d 2.5\n\\set e int(:d * 2)\n\\set f :e + 1\n\\set g :d + 1\n"
		"SELECT :f, :g;\n", QUERY_SIMPLE, 2, 0, {declined}, 0,
	true, true, true, CSTATE_FINISHED},
	{"pipeline error, drained", "\\startpipeline\nSELECT 1;\n\\endpipeline\n",
		QUERY_EXTENDED, 1, 1, {pipeline_discard}, FP_PER_COMMAND,
	false, false, true, CSTATE_FINISHED},
	{"-C", "SELECT 1;\n", QUERY_SIMPLE, 2, 0, {one_select, one_select}, FP_CONNECT_EACH,
	true, true, true, CSTATE_FINISHED},
	{"-C, 2 clients", "SELECT 1;\n", QUERY_SIMPLE, 2, 2,
		{one_select, one_select, one_select, one_select}, FP_CONNECT_EACH,
	true, true, true, CSTATE_FINISHED},
	{"--reconnect", "SELECT 1;\n", QUERY_SIMPLE, 2, 1, {lost, one_select}, FP_RECONNECT,
	true, false, true, CSTATE_FINISHED},
	{"\\gset, \\aset", "SELECT 1 AS a \\gset\n\\set b :a + 1\nSELECT :b AS c \\aset\n",
		QUERY_SIMPLE, 2, 0, {stored}, 0, true, true, true, CSTATE_FINISHED},
	{"dynamic SQL, prepared", "\\set n 3\nSELECT * FROM :\"n\";\n", QUERY_PREPARED, 2, 2,
		{dynamic, dynamic}, 0, false, false, true, CSTATE_FINISHED},
	{"\\sleep, 2 clients", "SELECT 1;\n\\sleep 1 us\n", QUERY_SIMPLE, 2, 2,
		{two_selects, two_selects}, FP_PER_COMMAND, true, true, true, CSTATE_FINISHED},
	{"aborted", "SELECT nosuch;\n", QUERY_SIMPLE, 1, 0, {no_column}, 0,
	true, true, true, CSTATE_ABORTED},
	{"aborted, 2 clients", "SELECT nosuch;\n", QUERY_SIMPLE, 1, 2, {no_column, no_column}, 0,
	true, true, true, CSTATE_ABORTED},
};

/* ---- runs ---------------------------------------------------------------- */

/* The script text of case k (NULL and "" name the two shared ones). */
static const char *
case_script(const fp_case *k)
{
	if (k->script == NULL)
		return tx_text;
	return k->script[0] == '\0' ? sqlfirst_text : k->script;
}

/* Case k's settings on fx (before its clients are made). */
static void
configure(fixture *fx, const fp_case *k)
{
	fx->cfg.retry.max_tries = k->flags & FP_TRIES3 ? 3 : 1;
	fx->cfg.retry.verbose_errors = (k->flags & FP_VERBOSE) != 0;
	fx->cfg.per_command = (k->flags & FP_PER_COMMAND) != 0;
	fx->cfg.continue_on_error = (k->flags & FP_CONTINUE) != 0;
	fx->cfg.connect_each = (k->flags & FP_CONNECT_EACH) != 0;
	fx->cfg.reconnect = (k->flags & FP_RECONNECT) != 0;
	fx->cfg.per_script_stats = (k->flags & FP_SCRIPTS) != 0;
	fx->cfg.latency_measured = (k->flags & FP_SCRIPTS) != 0;
	fx->env.sink.per_script = fx->cfg.per_script_stats;
}

/* The fast paths env took (all of them off on the general path). */
static void
check_flow(const client_env *env, const fp_case *k, const char *name)
{
	bool		general = engine_general_only;
	bool		ok = env->general_only == general &&
		env->straight_on == (k->straight_on && !general) &&
		env->fuse_steps == (k->fuse_steps && !general) &&
		env->counts_only == (k->counts_only && !general);

	if (!tap_ok(ok, "%s: the fast paths taken", name))
		tap_diag("general %d, straight_on %d, fuse_steps %d, counts_only %d", env->general_only,
				 env->straight_on, env->fuse_steps, env->counts_only);
}

/* What a run printed on stderr, into rec. */
static void
record_stderr(text_lines *rec, bool sorted)
{
	char		caught[16384];

	tap_stderr_release(caught, sizeof(caught));
	fixture_record_stderr(rec, caught, sorted);
}

/* The sessions of case k, each made and queued for a connection. */
static int
queue_sessions(const fp_case *k, pgb_session **s, int first)
{
	int			n = first;

	for (; n < FP_MAX_SESSIONS && k->sessions[n] != NULL; n++)
		ss_queue_connect(s[n] = ss_new(k->sessions[n]), 0);
	return n;
}

/* Every session played through, and recorded into rec. */
static void
check_sessions(pgb_session **s, int n, const char *name, text_lines *rec)
{
	for (int i = 0; i < n; i++)
	{
		char		what[160];

		snprintf(what, sizeof(what), "%s, session %d", name, i);
		played(s[i], what);
		snprintf(what, sizeof(what), "session %d", i);
		fixture_record_session(rec, what, s[i]);
	}
}

/* The single-client fixture on case k, recorded into rec. */
static void
run_single(fixture *fx, const fp_case *k, const char *name, text_lines *rec)
{
	pgb_session *s[FP_MAX_SESSIONS] = {fx->s};
	int			n;

	if (k->flags & FP_CONNECT_EACH)
	{
		fx->c.conn = NULL;
		ss_queue_connect(fx->s, 0);
	}
	n = queue_sessions(k, s, 1);
	tap_stderr_catch();
	fixture_run(fx, name);
	record_stderr(rec, false);
	check_flow(&fx->env, k, name);
	tap_is_int(fx->c.state, k->end, "the client's end");
	check_sessions(s, n, name, rec);
	fixture_record_counts(rec, &fx->stats);
	fixture_record_client(rec, &fx->c);
	for (int i = 1; i < n; i++)
		ss_free(s[i]);
}

/* One worker of k->clients clients on case k, recorded into rec. */
static void
run_clients(fixture *fx, const fp_case *k, const char *name, text_lines *rec)
{
	worker_run	wr;
	pgb_session *s[FP_MAX_SESSIONS] = {NULL};
	int			n = queue_sessions(k, s, 0);

	if (tap_ok(worker_run_prepare(fx, k->clients, &wr), "%s: prepared", name))
	{
		tap_stderr_catch();
		worker_main(&wr.w);
		record_stderr(rec, k->clients > 1);
		check_flow(&wr.w.env, k, name);
		fixture_record_counts(rec, &wr.w.stats);
		for (int i = 0; i < k->clients; i++)
		{
			tap_is_int(wr.clients[i].state, k->end, "a client's end");
			fixture_record_client(rec, &wr.clients[i]);
		}
		check_sessions(s, n, name, rec);
	}
	worker_run_finish(&wr);
	tap_is_int(ss_connects_left(), 0, "every connection taken");
	for (int i = 0; i < n; i++)
		ss_free(s[i]);
}

/* Case k on the current path, recorded into rec. */
static void
run_case(const fp_case *k, text_lines *rec)
{
	fixture		fx;
	char		name[160];

	snprintf(name, sizeof(name), "%s%s", k->name, fixture_path_name());
	if (!fixture_init(&fx, case_script(k), k->mode, k->nxacts, k->sessions[0]))
	{
		tap_ok(false, "%s: the script compiles", name);
		return;
	}
	configure(&fx, k);
	if (k->clients == 0)
		run_single(&fx, k, name, rec);
	else
		run_clients(&fx, k, name, rec);
	fixture_free(&fx);
}

int
main(void)
{
	for (int i = 0; i < (int) PGB_LENGTHOF(cases); i++)
	{
		text_lines	rec[2] = {{0}};

		for (int path = 0; path < 2; path++)
		{
			fixture_set_general(path == 1);
			run_case(&cases[i], &rec[path]);
		}
		fixture_set_general(false);
		fixture_records_same(&rec[0], &rec[1], cases[i].name);
		lines_free(&rec[0]);
		lines_free(&rec[1]);
	}
	return tap_done();
}
