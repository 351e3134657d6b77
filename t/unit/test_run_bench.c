/*
 * test_run_bench.c — bench_run whole (src/run/bench.c, bench_setup.c),
 * each run from a command line in a child process against a scripted
 * server and scripted sessions (test_run_fixture.h): the set-up
 * connection's banner, scale, partitions and vacuum and their errors; the
 * start-up variables; how a run ends and what it writes then (completed,
 * a client aborted, --exit-on-abort, a client that cannot connect, a
 * signal before or during the benchmark, a set-up that fails, report
 * files that cannot be opened or written, a failed threshold, a
 * rendezvous), each with its exit code; and a warm-up's figures, which
 * start at its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_run_fixture.h"

#define PARTITION_QUERY "select p.partstrat"
#define COUNT_QUERY "select count(*) from pgbench_branches"

/* The queries of a builtin script's set-up, and pgbench's vacuum. */
#define SETUP_QUERIES \
	COUNT_QUERY "\n" \
	"select p.partstrat, (select pg_catalog.count(*) from pg_catalog.pg_inherits i" \
	" where i.inhparent = c.oid) from pg_catalog.pg_class c left join" \
	" pg_catalog.pg_partitioned_table p on p.partrelid = c.oid where c.oid =" \
	" pg_catalog.to_regclass('pgbench_accounts')\n"
/* A report file's: the server's identity and settings, read before the run. */
#define SERVER_INFO_QUERIES \
	"SELECT pg_catalog.version()\n" \
	"SELECT system_identifier::text FROM pg_catalog.pg_control_system()\n" \
	"SELECT name, setting, COALESCE(unit, ''), source, source NOT IN ('default', 'override')" \
	" FROM pg_catalog.pg_settings ORDER BY name\n"
#define VACUUM_QUERIES \
	"vacuum pgbench_branches\nvacuum pgbench_tellers\ntruncate pgbench_history\n"

/* A server with the pgbench tables at scale 3, not partitioned. */
static const char *const tables[] = {
	COUNT_QUERY, "ROWS count | 3",
	PARTITION_QUERY, "ROWS partstrat,count | NULL,0",
	"vacuum", "OK VACUUM",
	"truncate", "OK TRUNCATE TABLE",
	NULL,
};

static const char *const no_rules[] = {NULL};

/* Sessions: one SELECT 1, select-only's query, and one that sends nothing. */
static const char *const one_select[] = {"> Q SELECT 1;", "< ROWS a | 1", "< END", NULL};
static const char *const select_only[] = {
	"> Q SELECT abalance FROM pgbench_accounts WHERE aid = #;", "< ROWS abalance | 0", "< END",
	NULL,
};
static const char *const silent[] = {NULL};
static const char *const select_fails[] = {
	"> Q SELECT 1;", "< ERROR 42P01 relation \"t\" does not exist", NULL,
};

/* The rules of a group of one, which leads and starts at once. */
static const char *const rendezvous_alone[] = {
	"SELECT (extract(epoch", "ROWS now | @NOW",
	"LISTEN", "OK LISTEN",
	"SELECT i FROM", "ROWS i | 0",
	"SELECT CASE WHEN", "ROWS case | t",
	"SELECT pg_catalog.pg_advisory_lock", "ROWS lock | ",
	"SELECT count(*) FROM pg_catalog.pg_locks", "ROWS count | 1",
	"SELECT v, pg_catalog.pg_notify", "ROWS v,notify | @NOW+50000,",
	"UNLISTEN", "OK UNLISTEN",
	"SELECT pg_catalog.pg_advisory_unlock_all", "ROWS unlock | t",
	NULL,
};

/* A case and what it must leave. */
typedef struct bench_check
{
	run_case	c;
	int			rc;
	const char *out_has[6];
	const char *out_lacks[3];
	const char *err_has[6];
	const char *err_lacks[3];
	const char *queries;		/* exactly the server's queries; NULL: unchecked */
	const char *json[6];		/* "path=value" of r.json */
	bool		unplayed;		/* sessions may stop short (a run stopped them) */
} bench_check;

static const bench_check checks[] = {
	/* ---- the set-up connection -------------------------------------------- */
	{
		.c = {.name = "builtin", .args = {"-b", "select-only", "-c", "2", "-t", "1", "-s", "5",
		NULL}, .rules = tables, .sessions = {select_only, select_only}},
		.out_has = {"pgbench (pgbench-ng ", ", server 15.4)\n", "scaling factor: 3\n",
		"number of transactions actually processed: 2/2\n"},
		.out_lacks = {"partition method"},
		.err_has = {"pgbench: warning: scale option ignored, using count from pgbench_branches"
			" table (3)\n", "starting vacuum...end.\n"},
		.err_lacks = {"starting vacuum pgbench_accounts"},
		.queries = SETUP_QUERIES VACUUM_QUERIES,
	},
	{
		.c = {.name = "hash partitions, -v", .args = {"-b", "select-only", "-t", "1", "-v",
		NULL}, .rules = (const char *const[]) {PARTITION_QUERY, "ROWS partstrat,count | h,4",
			COUNT_QUERY, "ROWS count | 1", "vacuum", "OK VACUUM", "truncate", "OK TRUNCATE",
		NULL}, .sessions = {select_only}},
		.out_has = {"partition method: hash\n", "partitions: 4\n", "scaling factor: 1\n"},
		.err_has = {"starting vacuum...end.\nstarting vacuum pgbench_accounts...end.\n"},
		.queries = SETUP_QUERIES VACUUM_QUERIES "vacuum analyze pgbench_accounts\n",
	},
	{
		.c = {.name = "range partitions, -n", .args = {"-b", "select-only", "-t", "1", "-n",
		NULL}, .rules = (const char *const[]) {PARTITION_QUERY, "ROWS partstrat,count | r,2",
		COUNT_QUERY, "ROWS count | 1", NULL}, .sessions = {select_only}},
		.out_has = {"partition method: range\n", "partitions: 2\n"},
		.err_lacks = {"vacuum"},
		.queries = SETUP_QUERIES,
	},
	{
		.c = {.name = "partitions unreadable (an old server)", .args = {"-b", "select-only",
		"-t", "1", "-n", NULL}, .rules = (const char *const[]) {COUNT_QUERY, "ROWS count | 1",
		NULL}, .sessions = {select_only}},
		.out_lacks = {"partition method"},
		.err_lacks = {"error"},
	},
	{
		.c = {.name = "custom script: no scale read", .args = {"-t", "1", NULL},
		.script = "SELECT 1;\n", .rules = tables, .sessions = {one_select}},
		.out_has = {"scaling factor: 1\n", "transaction type: s.sql\n"},
		.queries = VACUUM_QUERIES,
	},
	{
		.c = {.name = "vacuum errors ignored", .args = {"-t", "1", NULL},
			.script = "SELECT 1;\n", .rules = (const char *const[]) {"vacuum pgbench_tellers",
				"ERROR 42P01 relation \"pgbench_tellers\" does not exist", "vacuum", "OK VACUUM",
		"truncate", "OK TRUNCATE", NULL}, .sessions = {one_select}},
		.err_has = {"starting vacuum...pgbench: error: ERROR:  relation \"pgbench_tellers\" does"
			" not exist\npgbench: detail: (ignoring this error and continuing anyway)\nend.\n"},
		.out_has = {"number of transactions actually processed: 1/1\n"},
		.queries = VACUUM_QUERIES,
	},
	{
		.c = {.name = "start-up variables", .args = {"-n", "-c", "2", "-t", "1", "-s", "7",
		NULL}, .script = "SELECT :scale, :client_id, :random_seed, :default_seed;\n",
			.rules = no_rules, .sessions = {(const char *const[]) {
			"> Q SELECT 7, 0, 1, #;", "< OK SELECT", "< END", NULL},
			(const char *const[]) {"> Q SELECT 7, 1, 1, #;", "< OK SELECT", "< END", NULL}}},
		.out_has = {"scaling factor: 7\n"},
		.queries = "",
	},
	{
		.c = {.name = "-D keeps its variables", .args = {"-n", "-t", "1", "-D", "scale=9",
			"-D", "client_id=x", "-D", "default_seed=4", NULL},
			.script = "SELECT :scale, :client_id, :default_seed;\n", .rules = no_rules,
			.sessions = {(const char *const[]) {"> Q SELECT 9, x, 4;", "< OK SELECT", "< END",
		NULL}}},
	},
	{
		.c = {.name = "--debug", .args = {"-n", "-t", "1", "--debug", "bench", NULL},
		.script = "SELECT 1;\n", .rules = no_rules, .sessions = {one_select}},
		.err_has = {"pgbench: pghost: /tmp/pgbrun-", " pgport: 5499 nclients: 1 nxacts: 1"
			" dbName: bench\n"},
	},
	{
		.c = {.name = "--debug under -T", .args = {"-n", "-T", "1", "--debug", "bench", NULL},
		.script = "\\sleep 300 ms\n", .rules = no_rules, .sessions = {silent}},
		.err_has = {" nclients: 1 duration: 1 dbName: bench\n"},
	},
	{
		.c = {.name = "no server_version from the server", .args = {"-n", "-t", "1", NULL},
		.script = "SELECT 1;\n", .rules = no_rules, .version = "", .sessions = {one_select}},
		.out_has = {", server 0.0.0)\n"},
	},
	/* ---- a set-up that fails ---------------------------------------------- */
	{
		.c = {.name = "no server", .args = {"-n", "-t", "1", "--report-json=r.json", NULL},
		.script = "SELECT 1;\n", .no_server = true},
		.rc = 1,
		.err_has = {"pgbench: error: connection to server on socket \"/tmp/pgbrun-",
		"pgbench: error: could not create connection for setup\n"},
		.json = {"outcome=failed-to-start", "server_version=null"},
		.queries = "",
	},
	{
		.c = {.name = "no pgbench_branches", .args = {"-b", "select-only", "-t", "1",
			"--report-json=r.json", "--server-stats=off", "bench", NULL},
			.rules = (const char *const[]) {COUNT_QUERY,
		"ERROR 42P01 relation \"pgbench_branches\" does not exist", NULL}},
		.rc = 1,
		.err_has = {"pgbench: error: could not count number of branches: ERROR:  relation"
			" \"pgbench_branches\" does not exist\n", "pgbench: hint: Perhaps you need to do"
		" initialization (\"pgbench -i\") in database \"bench\".\n"},
		.out_lacks = {"number of transactions"},
		.json = {"outcome=failed-to-start", "server_version=15.4"},
		.queries = SERVER_INFO_QUERIES COUNT_QUERY "\n",
	},
	{
		.c = {.name = "pgbench_branches unreadable", .args = {"-b", "select-only", "-t", "1",
			NULL}, .rules = (const char *const[]) {COUNT_QUERY,
		"ERROR 42501 permission denied for table pgbench_branches", NULL}},
		.rc = 1,
		.err_has = {"could not count number of branches: ERROR:  permission denied"},
		.err_lacks = {"hint"},
	},
	{
		.c = {.name = "a negative count", .args = {"-b", "select-only", "-t", "1", NULL},
		.rules = (const char *const[]) {COUNT_QUERY, "ROWS count | -1", NULL}},
		.rc = 1,
		.err_has = {"pgbench: error: invalid count(*) from pgbench_branches: \"-1\"\n"},
	},
	{
		.c = {.name = "no pgbench_accounts", .args = {"-b", "select-only", "-t", "1", "bench",
			NULL}, .rules = (const char *const[]) {COUNT_QUERY, "ROWS count | 1",
		PARTITION_QUERY, "ROWS partstrat,count", NULL}},
		.rc = 1,
		.err_has = {"pgbench: error: no pgbench_accounts table found in \"search_path\"\n"
			"pgbench: hint: Perhaps you need to do initialization (\"pgbench -i\") in database"
		" \"bench\".\n"},
		.err_lacks = {"vacuum"},
	},
	{
		.c = {.name = "an unknown partition method", .args = {"-b", "select-only", "-t", "1",
			NULL}, .rules = (const char *const[]) {COUNT_QUERY, "ROWS count | 1",
		PARTITION_QUERY, "ROWS partstrat,count | l,3", NULL}},
		.rc = 1,
		.err_has = {"pgbench: error: unexpected partition method: \"l\"\n"},
	},
	/* ---- report files that fail before the run ---------------------------- */
	{
		.c = {.name = "--report-json cannot be opened", .args = {"-n", "-t", "1",
		"--report-json=none/r.json", NULL}, .script = "SELECT 1;\n", .rules = no_rules},
		.rc = 1,
		.err_has = {"pgbench: error: could not open report file \"none/r.json\": No such file or"
		" directory\n"},
		.out_lacks = {"pgbench ("},
		.queries = "",
	},
	{
		.c = {.name = "--report-html cannot be opened", .args = {"-n", "-t", "1",
			"--report-json=r.json", "--report-html=none/r.html", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules},
		.rc = 1,
		.err_has = {"could not open report file \"none/r.html\": No such file or directory\n"},
		.json = {"outcome=failed-to-start", "error=could not open report file \"none/r.html\":"
		" No such file or directory"},
		.queries = "",
	},
	{
		.c = {.name = "--metrics-listen cannot listen", .args = {"-n", "-t", "1",
			"--metrics-listen=nowhere.invalid:9187", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules},
		.rc = 1,
		.err_has = {"pgbench: error: could not resolve \"nowhere.invalid:9187\""},
		.queries = "",
	},
	{
		.c = {.name = "-l cannot create its log", .args = {"-n", "-t", "1", "-l",
			"--log-prefix=none/lg", "--report-json=r.json", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules},
		.rc = 1,
		.err_has = {"pgbench: error: could not open logfile \"none/lg."},
		.json = {"outcome=failed-to-start"},
	},
	/* ---- endings ---------------------------------------------------------- */
	{
		.c = {.name = "completed, report files", .args = {"-n", "-c", "2", "-t", "1",
			"--report-json=r.json", "--report-html=r.html", "--server-stats=off", NULL},
		.script = "SELECT 1;\n", .rules = no_rules, .sessions = {one_select, one_select}},
		.out_has = {"number of transactions actually processed: 2/2\n"},
		.json = {"outcome=completed", "transactions.processed=2", "server_version=15.4",
		"error=null", "aborted=false"},
	},
	{
		.c = {.name = "the JSON on stdout", .args = {"-n", "-t", "1", "--report-json=-",
		"--server-stats=off", NULL}, .script = "SELECT 1;\n", .rules = no_rules,
		.sessions = {one_select}},
		.out_has = {"\"outcome\": \"completed\""},
		.out_lacks = {"pgbench ("},
		.err_has = {"pgbench (pgbench-ng ", "number of transactions actually processed: 1/1\n"},
	},
	{
		.c = {.name = "the JSON cannot be written", .args = {"-n", "-t", "1",
		"--report-json=/dev/full", "--server-stats=off", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules, .sessions = {one_select}},
		.rc = 2,
		.err_has = {"pgbench: error: could not write report file \"/dev/full\": No space left"
		" on device\n"},
		.out_has = {"number of transactions actually processed: 1/1\n"},
	},
	{
		.c = {.name = "the server's side given up", .args = {"-n", "-t", "1",
			"--report-json=r.json", NULL}, .script = "SELECT 1;\n", .rules = no_rules,
		.sessions = {one_select}},
		.json = {"outcome=completed", "transactions.processed=1"},
	},
	{
		.c = {.name = "a client aborts", .args = {"-n", "-t", "1", "--report-json=r.json",
			"--server-stats=off", NULL}, .script = "SELECT 1;\n", .rules = no_rules,
		.sessions = {select_fails}},
		.rc = 2,
		.out_has = {"number of transactions actually processed: 0/1\n"},
		.err_has = {"pgbench: error: Run was aborted; the above results are incomplete.\n"},
		.json = {"outcome=aborted", "aborted=true"},
	},
	{
		.c = {.name = "--exit-on-abort", .args = {"-n", "-c", "2", "-t", "1", "--exit-on-abort",
			"--report-json=r.json", "--server-stats=off", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules, .sessions = {select_fails, one_select}},
		.rc = 2,
		.out_lacks = {"number of transactions actually processed"},
		.err_has = {"pgbench: error: Run was aborted due to an error in thread 0\n"},
		.err_lacks = {"Run was aborted;"},
		.json = {"outcome=aborted"},
		.unplayed = true,
	},
	{
		.c = {.name = "a client cannot connect", .args = {"-n", "-c", "2", "-t", "1",
			"--report-json=r.json", "--server-stats=off", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules, .sessions = {one_select, run_refused}},
		.rc = 1,
		.err_has = {"pgbench: error: could not create connection for client 1\n"},
		.out_lacks = {"number of transactions"},
		.json = {"outcome=failed-to-start", "error=connection to server failed: scripted"
		" refusal"},
		.unplayed = true,
	},
	{
		.c = {.name = "a threshold fails", .args = {"-n", "-t", "1", "--threshold=tps>=1e15",
		"--threshold=tps>0", "--server-stats=off", NULL}, .script = "SELECT 1;\n",
		.rules = no_rules, .sessions = {one_select}},
		.rc = 3,
		.out_has = {"threshold tps>=1e15: FAILED (tps = ", "threshold tps>0: passed (tps = "},
	},
	{
		.c = {.name = "a threshold passes", .args = {"-n", "-t", "1", "--threshold=tps>0",
		"--server-stats=off", NULL}, .script = "SELECT 1;\n", .rules = no_rules,
		.sessions = {one_select}},
		.out_has = {"threshold tps>0: passed (tps = "},
	},
	{
		.c = {.name = "-P", .args = {"-n", "-t", "1", "-P", "1", NULL},
		.script = "SELECT 1;\n", .rules = no_rules, .sessions = {one_select}},
		.out_has = {"number of transactions actually processed: 1/1\n"},
	},
	/* ---- a signal --------------------------------------------------------- */
	{
		.c = {.name = "a signal in the vacuum", .args = {"-t", "1", "--report-json=r.json",
			NULL}, .script = "SELECT 1;\n", .rules = (const char *const[]) {
		"vacuum pgbench_branches", "SIGNAL", NULL}},
		.rc = 130,
		.err_has = {"starting vacuum...pgbench: error: ERROR:  canceling statement due to user"
			" request\n", "pgbench: run was interrupted by signal SIGINT before the"
		" benchmark started\n"},
		.out_lacks = {"number of transactions"},
		.json = {"outcome=interrupted", "signal=SIGINT", "error=null"},
		.queries = SERVER_INFO_QUERIES "vacuum pgbench_branches\n",
	},
	{
		.c = {.name = "a signal in the run", .args = {"-n", "-t", "1", "--report-json=r.json",
			"--server-stats=off", NULL}, .script = "\\sleep 20 s\nSELECT 1;\n",
		.rules = no_rules, .sessions = {silent}, .signal_after_ms = 800},
		.rc = 130,
		.out_has = {"SIGINT", "number of transactions actually processed: 0/1\n"},
		.err_has = {"pgbench: run was interrupted by signal SIGINT after "},
		.err_lacks = {"Run was aborted"},
		.json = {"outcome=interrupted", "signal=SIGINT", "aborted=false"},
	},
	/* ---- --rendezvous ----------------------------------------------------- */
	{
		.c = {.name = "a rendezvous that fails", .args = {"-n", "-t", "1",
			"--rendezvous=g:2", "--report-json=r.json", "--server-stats=off", NULL},
		.script = "SELECT 1;\n", .rules = no_rules},
		.rc = 1,
		.err_has = {"pgbench: error: rendezvous \"g\": ERROR:  unscripted query\n"},
		.json = {"outcome=failed-to-start", "error=rendezvous \"g\": ERROR:  unscripted query"},
	},
	{
		.c = {.name = "a rendezvous of one", .args = {"-n", "-t", "1", "--rendezvous=g:1",
			"--report-json=r.json", "--server-stats=off", NULL}, .script = "SELECT 1;\n",
		.rules = rendezvous_alone, .sessions = {one_select}},
		.out_has = {"number of transactions actually processed: 1/1\n"},
		.json = {"outcome=completed", "rendezvous.group=g", "rendezvous.size=1",
		"rendezvous.member=0"},
	},
};

static void
check_json(const run_result *r, const bench_check *k)
{
	for (int i = 0; i < 6 && k->json[i] != NULL; i++)
	{
		char		path[64];
		const char *eq = strchr(k->json[i], '=');
		const char *got;
		char		name[160];

		snprintf(path, sizeof(path), "%.*s", (int) (eq - k->json[i]), k->json[i]);
		got = run_json(r, "r.json", path);
		snprintf(name, sizeof(name), "%s: JSON %s", k->c.name, k->json[i]);
		tap_is_str(got != NULL ? got : "(missing)", eq + 1, name);
	}
}

static void
run_check(const bench_check *k)
{
	run_result	r;
	char		name[160];

	if (!run_case_run(&k->c, &r))
		return;
	if (k->unplayed)
		run_expect_sent(&r, k->c.name, k->rc);
	else
		run_expect(&r, k->c.name, k->rc);
	for (int i = 0; i < 6 && k->out_has[i] != NULL; i++)
	{
		snprintf(name, sizeof(name), "%s: stdout has \"%s\"", k->c.name, k->out_has[i]);
		run_has(r.out, k->out_has[i], name);
	}
	for (int i = 0; i < 3 && k->out_lacks[i] != NULL; i++)
	{
		snprintf(name, sizeof(name), "%s: stdout lacks \"%s\"", k->c.name, k->out_lacks[i]);
		run_lacks(r.out, k->out_lacks[i], name);
	}
	for (int i = 0; i < 6 && k->err_has[i] != NULL; i++)
	{
		snprintf(name, sizeof(name), "%s: stderr has \"%s\"", k->c.name, k->err_has[i]);
		run_has(r.err, k->err_has[i], name);
	}
	for (int i = 0; i < 3 && k->err_lacks[i] != NULL; i++)
	{
		snprintf(name, sizeof(name), "%s: stderr lacks \"%s\"", k->c.name, k->err_lacks[i]);
		run_lacks(r.err, k->err_lacks[i], name);
	}
	if (k->queries != NULL)
	{
		snprintf(name, sizeof(name), "%s: the server's queries", k->c.name);
		tap_is_str(r.queries, k->queries, name);
	}
	check_json(&r, k);
	run_result_free(&r);
}

/*
 * -T 1 --warmup=1: the workers run 2 s; the figures count the second
 * one only (about 10 transactions of 100 ms, of some 20 run), and the
 * series keeps the warm-up's too.
 */
static void
test_warmup(void)
{
	run_case	c = {
		.name = "warm-up", .args = {"-n", "-T", "1", "--warmup=1", "--report-json=r.json",
		"--server-stats=off", NULL}, .script = "\\sleep 100 ms\n", .rules = no_rules,
		.sessions = {silent},
	};
	run_result	r;
	const char *v;
	double		duration;
	double		processed;

	if (!run_case_run(&c, &r))
		return;
	run_expect(&r, c.name, 0);
	run_has(r.out, "duration: 1 s\nwarm-up: 1 s (not counted)\n", "warm-up: the text says so");
	tap_is_str(run_json(&r, "r.json", "settings.warmup_s"), "1", "warm-up: JSON settings.warmup_s");
	v = run_json(&r, "r.json", "duration_s");
	duration = v != NULL ? atof(v) : 0;
	if (!tap_ok(duration > 0.9 && duration < 1.5, "warm-up: measured from its end (%.3f s)",
				duration))
		tap_diag("%s", r.out);
	v = run_json(&r, "r.json", "transactions.processed");
	processed = v != NULL ? atof(v) : 0;
	tap_ok(processed >= 5 && processed <= 11,
		   "warm-up: the transactions after it counted (%.0f of about 20)", processed);
	run_result_free(&r);
}

int
main(void)
{
	for (int i = 0; i < (int) (sizeof(checks) / sizeof(checks[0])); i++)
		run_check(&checks[i]);
	test_warmup();
	return tap_done();
}
