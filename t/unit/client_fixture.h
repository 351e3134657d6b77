/*
 * client_fixture.h — what the engine's unit tests (test_client.c,
 * test_client_more.c, test_thread.c, test_matrix.c, test_fastpath.c)
 * share: one client of one compiled script on a scripted session
 * (session_script.h), run to its end and checked against the script; a
 * worker of several clients run through the thread loop; and the record
 * of a run (transcripts, counts, the clients' ends, stderr) that a run
 * on the fast paths and one forced onto the general path must both give.
 */
#ifndef CLIENT_FIXTURE_H
#define CLIENT_FIXTURE_H

#include "pgbench/engine/client.h"
#include "pgbench/engine/thread.h"
#include "session_script.h"

typedef struct fixture
{
	script_set *set;
	var_store	defines;
	run_config	cfg;
	stats_run	stats;
	client_env	env;
	client		c;
	pgb_session *s;
} fixture;

/*
 * A client of script text (scripts separated by a line "--next--", each
 * of weight 1) in mode, -t nxacts, on a session playing lines; false (and
 * a diagnostic) when the text does not compile.
 */
bool		fixture_init(fixture *fx, const char *text, query_mode mode, int64_t nxacts,
						 const char *const *lines);
void		fixture_free(fixture *fx);

/*
 * Advance the client until it is done, every socket wait taken as the
 * socket being readable and every timed wait slept through; check that
 * the session's script was played through without a mismatch.  The final
 * state.
 */
client_state fixture_run(fixture *fx, const char *name);

/* Run and expect the client to finish -t with ok transactions counted. */
void		expect_finished(fixture *fx, const char *name, int64_t ok);

/* Run and expect an abort whose message is message. */
void		expect_aborted(fixture *fx, const char *name, const char *message);

/* A variable of the client as text; "(unset)" when it has none. */
const char *fixture_var(fixture *fx, const char *name);

/* The same for client c (one of a worker's, see below). */
const char *fixture_client_var(fixture *fx, client *c, const char *name);

/*
 * Set variable name (one the scripts use) to value, as -D does: for the
 * fixture's client and every client made from fx's configuration later.
 * false when no script uses name.
 */
bool		fixture_define(fixture *fx, const char *name, const char *value);

/* Check that session s played its whole script without a mismatch. */
void		played(pgb_session *s, const char *name);

#define MAX_WORKER_CLIENTS 4

/* A worker of clients on fx's configuration, for the thread loop. */
typedef struct worker_run
{
	run_shared	sh;
	worker		w;
	client		clients[MAX_WORKER_CLIENTS];
} worker_run;

/*
 * Set up a worker of n clients on fx's configuration, its connections to
 * be taken from the queue the caller fills (ss_queue_connect); the caller
 * may then adjust wr (a -T deadline, a log, a stop eventfd) and run
 * worker_main(&wr->w).  false when the worker could not be prepared
 * (worker_run_finish must still be called).
 */
bool		worker_run_prepare(fixture *fx, int n, worker_run *wr);

/* Release what worker_run_prepare made. */
void		worker_run_finish(worker_run *wr);

/* Prepare, run and finish: the worker's counts into *total and *rs. */
bool		run_worker(fixture *fx, int n, stats_data *total, reconnect_stats *rs);

/* ---- the fast paths against the general path ---------------------------- */

/* A growing NULL-ended array of owned lines (zeroed: empty). */
typedef struct text_lines
{
	char	  **line;
	int			n;
	int			cap;
} text_lines;

void		lines_add(text_lines *l, const char *fmt,...) __attribute__((format(printf, 2, 3)));
void		lines_free(text_lines *l);

/*
 * Force the engine's general path (engine_general_only, client.h) for
 * the fixtures made from now on, or give the fast paths back.  While it
 * is forced, fixture_init also takes the flat programs off the compiled
 * expressions (expr.h), so that \set and \if run the tree evaluator: the
 * one fast path outside the engine.
 */
void		fixture_set_general(bool general);

/* The mode's name in test names: "" on the fast paths, " [general]" on the general one. */
const char *fixture_path_name(void);

/*
 * Into rec: session s's transcript (ss_transcript), each line prefixed
 * with label; the counts of st that both paths must give alike
 * (transaction counters, latency and lag counts, -L late count, per
 * script, per command, --reconnect's losses and reconnections: no time);
 * client c's end (state, -t count, variables); and stderr caught
 * meanwhile (text, its lines sorted when sorted: clients of one thread
 * may print in another order on another path).
 */
void		fixture_record_session(text_lines *rec, const char *label, const pgb_session *s);
void		fixture_record_counts(text_lines *rec, const stats_run *st);
void		fixture_record_client(text_lines *rec, client *c);
void		fixture_record_stderr(text_lines *rec, const char *text, bool sorted);

/*
 * Whether the record of a run on the fast paths equals that of the same
 * run on the general path; a TAP line named name, and the first
 * difference as a diagnostic when they differ.
 */
bool		fixture_records_same(const text_lines *fast, const text_lines *general, const char *name);

#endif
