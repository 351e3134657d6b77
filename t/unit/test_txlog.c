/*
 * test_txlog.c — unit tests of the -l transaction logs: file names and the
 * open error, per-transaction lines for every option combination,
 * sampling decisions for fixed seeds, aggregate lines with each group,
 * empty and partial intervals, double formatting, big buffers and a write
 * error on /dev/full.
 *
 * Expected lines and sampled transaction numbers were taken from the real
 * pgbench 15 (-l, -R, -L, --max-tries, --failures-detailed,
 * --aggregate-interval, --sampling-rate against a scratch cluster), with
 * our inputs set to the values pgbench logged.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgbench/stats/txlog.h"
#include "tap.h"

#define PID 4242
#define SEC INT64_C(1000000)

static char tmpdir[256];

/* Whole file into a malloc'd string ("" and a diag when unreadable). */
static char *
slurp(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	char	   *text;
	long		size;

	if (f == NULL)
	{
		tap_diag("cannot read %s: %s", path, strerror(errno));
		return calloc(1, 1);
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = malloc((size_t) size + 1);
	if (fread(text, 1, (size_t) size, f) != (size_t) size)
		size = 0;
	text[size] = '\0';
	fclose(f);
	return text;
}

static void
log_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* ---- per-transaction lines ---------------------------------------------- */

typedef struct line_case
{
	const char *name;
	txlog_config cfg;			/* prefix and pid are filled in */
	txlog_txn	tx;
	pg_time_usec_t now;
	const char *expected;		/* the line, without its newline */
} line_case;

#define OK STATS_SUCCESS
#define SKIP STATS_SKIPPED
#define SER STATS_SERIALIZATION_FAILURE
#define DL STATS_DEADLOCK_FAILURE
#define OTHER STATS_OTHER_FAILURE
#define CONN STATS_CONNECTION_FAILURE

/*
 * {prefix, pid, agg, rate, throttled, latency_limit, retries, detailed,
 * other, connection}
 */
static const line_case line_cases[] = {
	{"plain", {NULL, 0, 0, 0, false, false, false, false, false, false},
	{0, 1, 0, OK, 4659, 0, 1}, INT64_C(1795322804071312), "0 1 4659 0 1795322804 71312"},
	{"plain, other client and script", {NULL, 0, 0, 0, false, false, false, false, false, false},
	{17, 123456789012, 3, OK, 61, 0, 1}, INT64_C(1795322804000001), "17 123456789012 61 3 1795322804 1"},
	{"failed", {NULL, 0, 0, 0, false, false, false, false, false, false},
	{0, 1, 0, SER, 0, 0, 1}, INT64_C(1795322809769953), "0 1 failed 0 1795322809 769953"},
	{"failed (deadlock), not detailed", {NULL, 0, 0, 0, false, false, false, false, false, false},
	{0, 6, 0, DL, 0, 0, 1}, INT64_C(1795322809770212), "0 6 failed 0 1795322809 770212"},
	{"detailed deadlock", {NULL, 0, 0, 0, false, false, false, true, false, false},
	{0, 1, 0, DL, 0, 0, 1}, INT64_C(1795322809997305), "0 1 deadlock 0 1795322809 997305"},
	{"detailed serialization", {NULL, 0, 0, 0, false, false, false, true, false, false},
	{2, 0, 0, SER, 0, 0, 1}, INT64_C(1499414498086248), "2 0 serialization 0 1499414498 86248"},
	{"detailed, other failure stays failed", {NULL, 0, 0, 0, false, false, false, true, false, false},
	{0, 4, 0, OTHER, 0, 0, 1}, INT64_C(1499414498086248), "0 4 failed 0 1499414498 86248"},
	{"19: detailed, other failure", {NULL, 0, 0, 0, false, false, false, true, true, false},
	{0, 2, 0, OTHER, 0, 0, 1}, INT64_C(1795355691448004), "0 2 other 0 1795355691 448004"},
	{"19: other failure, not detailed", {NULL, 0, 0, 0, false, false, false, false, true, false},
	{0, 3, 0, OTHER, 0, 0, 1}, INT64_C(1795355691450139), "0 3 failed 0 1795355691 450139"},
	{"19: detailed, serialization unchanged", {NULL, 0, 0, 0, false, false, false, true, true, false},
	{2, 0, 0, SER, 0, 0, 1}, INT64_C(1499414498086248), "2 0 serialization 0 1499414498 86248"},
	{"19: --max-tries, other failure", {NULL, 0, 0, 0, false, false, true, false, true, false},
	{0, 2, 0, OTHER, 0, 0, 1}, INT64_C(1795355692252522), "0 2 failed 0 1795355692 252522 0"},
	{"--reconnect: detailed, connection lost", {NULL, 0, 0, 0, false, false, false, true, false, true},
	{1, 7, 0, CONN, 0, 0, 1}, INT64_C(1795355691448004), "1 7 connection 0 1795355691 448004"},
	{"--reconnect: connection lost, not detailed", {NULL, 0, 0, 0, false, false, false, false, false, true},
	{1, 8, 0, CONN, 0, 0, 1}, INT64_C(1795355691448005), "1 8 failed 0 1795355691 448005"},
	{"--max-tries: failed with retries", {NULL, 0, 0, 0, false, false, true, false, false, false},
	{0, 1, 0, SER, 0, 0, 3}, INT64_C(1795322809921003), "0 1 failed 0 1795322809 921003 2"},
	{"--max-tries: success without retry", {NULL, 0, 0, 0, false, false, true, false, false, false},
	{0, 4, 0, OK, 773, 0, 1}, INT64_C(1795322809921949), "0 4 773 0 1795322809 921949 0"},
	{"-R: lag", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 3, 0, OK, 3914, 3851, 1}, INT64_C(1795322810138512), "0 3 3914 0 1795322810 138512 3851"},
	{"-R: failed shows lag 0", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 1, 0, SER, 0, 1234, 1}, INT64_C(1795322810138264), "0 1 failed 0 1795322810 138264 0"},
	{"-R -L: skipped", {NULL, 0, 0, 0, true, true, false, false, false, false},
	{0, 2, 0, SKIP, 0, 0, 1}, INT64_C(1795322810273885), "0 2 skipped 0 1795322810 273885 0"},
	{"-R -L --max-tries --failures-detailed: deadlock", {NULL, 0, 0, 0, true, true, true, true, false, false},
	{0, 17, 0, DL, 0, 0, 3}, INT64_C(1795322920529032), "0 17 deadlock 0 1795322920 529032 0 2"},
	{"same: success", {NULL, 0, 0, 0, true, true, true, true, false, false},
	{0, 18, 0, OK, 969, 591, 1}, INT64_C(1795322920530067), "0 18 969 0 1795322920 530067 591 0"},
	{"same: skipped shows 0 retries", {NULL, 0, 0, 0, true, true, true, true, false, false},
	{0, 2, 0, SKIP, 0, 0, 1}, INT64_C(1795322920528914), "0 2 skipped 0 1795322920 528914 0 0"},
	{"same: skipped with tries 0", {NULL, 0, 0, 0, true, true, true, true, false, false},
	{0, 3, 0, SKIP, 0, 0, 0}, INT64_C(1795322920528915), "0 3 skipped 0 1795322920 528915 0 0"},
	{"double: 2.5 rounds to even", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 1, 0, OK, 2.5, 3.5, 1}, INT64_C(1000000), "0 1 2 0 1 0 4"},
	{"double: -0 and 0.49", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 1, 0, OK, -0.0, 0.49, 1}, INT64_C(1000000), "0 1 -0 0 1 0 0"},
	{"double: 1e19 and 2^53 + 2", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 1, 0, OK, 1e19, 9007199254740994.0, 1}, INT64_C(1000000),
	"0 1 10000000000000000000 0 1 0 9007199254740994"},
	{"double: NaN and -Infinity", {NULL, 0, 0, 0, true, false, false, false, false, false},
	{0, 1, 0, OK, NAN, -INFINITY, 1}, INT64_C(1000000), "0 1 NaN 0 1 0 -Infinity"},
};

static void
test_lines(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];

	log_path(prefix, sizeof(prefix), "lines");
	for (size_t i = 0; i < PGB_LENGTHOF(line_cases); i++)
	{
		const line_case *lc = &line_cases[i];
		txlog_config cfg = lc->cfg;
		txlog		tl = {0};
		char		expected[256];
		char	   *got;

		cfg.prefix = prefix;
		cfg.pid = PID;
		if (!txlog_open(&tl, &cfg, 0, err, sizeof(err)))
		{
			tap_ok(false, "%s: open: %s", lc->name, err);
			continue;
		}
		txlog_add(&tl, &lc->tx, lc->now, NULL);
		txlog_close(&tl, lc->now, err, sizeof(err));
		snprintf(path, sizeof(path), "%s.%d", prefix, PID);
		snprintf(expected, sizeof(expected), "%s\n", lc->expected);
		got = slurp(path);
		tap_is_str(got, expected, lc->name);
		free(got);
	}
}

/* ---- names and open errors ---------------------------------------------- */

static void
test_names(void)
{
	txlog_config cfg = {0};
	txlog		tl = {0};
	char		prefix[300];
	char		path[400];
	char		err[512];
	char		cwd[512];
	struct stat st;

	log_path(prefix, sizeof(prefix), "named");
	cfg.prefix = prefix;
	cfg.pid = PID;
	tap_ok(txlog_open(&tl, &cfg, 0, err, sizeof(err)), "open thread 0");
	snprintf(path, sizeof(path), "%s/named.%d", tmpdir, PID);
	tap_ok(stat(path, &st) == 0, "thread 0 writes <prefix>.<pid>");
	tap_ok(txlog_close(&tl, 0, err, sizeof(err)), "close thread 0");

	tap_ok(txlog_open(&tl, &cfg, 3, err, sizeof(err)), "open thread 3");
	snprintf(path, sizeof(path), "%s/named.%d.3", tmpdir, PID);
	tap_ok(stat(path, &st) == 0, "thread 3 writes <prefix>.<pid>.3");
	tap_ok(txlog_close(&tl, 0, err, sizeof(err)), "close thread 3");

	/* default prefix, relative to the working directory */
	if (getcwd(cwd, sizeof(cwd)) != NULL && chdir(tmpdir) == 0)
	{
		cfg.prefix = NULL;
		tap_ok(txlog_open(&tl, &cfg, 1, err, sizeof(err)), "open with the default prefix");
		txlog_close(&tl, 0, err, sizeof(err));
		snprintf(path, sizeof(path), "pgbench_log.%d.1", PID);
		tap_ok(stat(path, &st) == 0, "default prefix is pgbench_log");
		if (chdir(cwd) != 0)
			tap_diag("cannot go back to %s", cwd);
	}

	cfg.prefix = "/nonexistent/x";
	tap_ok(!txlog_open(&tl, &cfg, 0, err, sizeof(err)), "open fails in a missing directory");
	tap_is_str(err, "could not open logfile \"/nonexistent/x.4242\": No such file or directory",
			   "open error message as pgbench");
	tap_ok(txlog_close(&tl, 0, err, sizeof(err)), "close after a failed open is a no-op");

	memset(&tl, 0, sizeof(tl));
	tap_ok(txlog_close(&tl, 0, err, sizeof(err)), "close of a zeroed log is a no-op");
}

/* ---- sampling ----------------------------------------------------------- */

typedef struct sample_case
{
	const char *seed;
	int			draw;			/* which state of the base sequence samples */
	double		rate;
	int			ntxn;
	const char *logged;			/* transaction numbers pgbench logged */
} sample_case;

/*
 * pgbench draws from the base sequence: one state per client, then
 * :default_seed, then per thread choose, throttle, sample.
 */
static const sample_case sample_cases[] = {
	{"1", 5, 0.5, 20, "1 2 5 6 7 8 9 12 14 17 19 20"},	/* -c 1 */
	{"7", 5, 0.3, 40, "1 2 3 8 11 13 16 18 19 20 22 25 29 35 36 39 40"},	/* -c 1 */
	{"1", 6, 0.5, 20, "1 2 6 7 8 10 13 16 18 19"},	/* -c 2 -j 2, thread 0 */
	{"1", 9, 0.5, 20, "3 5 6 7 8 9 10 17 18 19 20"},	/* -c 2 -j 2, thread 1 */
};

static void
test_sampling(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];

	log_path(prefix, sizeof(prefix), "sampled");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	for (size_t i = 0; i < PGB_LENGTHOF(sample_cases); i++)
	{
		const sample_case *sc = &sample_cases[i];
		txlog_config cfg = {prefix, PID, 0, sc->rate, false, false, false, false, false, false};
		random_seed rs;
		prng_state	sample;
		txlog		tl;
		char		numbers[512] = "";
		char	   *text;
		char	   *line;
		char	   *save;

		random_seed_set(&rs, sc->seed, err, sizeof(err));
		for (int d = 0; d < sc->draw; d++)
			random_state_init(&rs, &sample);
		txlog_open(&tl, &cfg, 0, err, sizeof(err));
		for (int n = 1; n <= sc->ntxn; n++)
		{
			txlog_txn	tx = {0, n, 0, OK, 100, 0, 1};

			txlog_add(&tl, &tx, 5 * SEC, &sample);
		}
		txlog_close(&tl, 5 * SEC, err, sizeof(err));

		text = slurp(path);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		{
			char		number[32];

			sscanf(line, "%*s %31s", number);
			if (numbers[0])
				strcat(numbers, " ");
			strcat(numbers, number);
		}
		free(text);
		snprintf(err, sizeof(err), "sampling: seed %s, base draw #%d, rate %g",
				 sc->seed, sc->draw, sc->rate);
		tap_is_str(numbers, sc->logged, err);
	}
}

/* ---- aggregation -------------------------------------------------------- */

typedef struct agg_event
{
	pg_time_usec_t at;			/* offset from the base time */
	stats_outcome outcome;
	double		latency;
	double		lag;
	uint32_t	tries;
} agg_event;

typedef struct agg_case
{
	const char *name;
	txlog_config cfg;
	pg_time_usec_t begin;		/* offset of the bench start */
	agg_event	events[8];
	int			nevents;
	pg_time_usec_t close_at;
	const char *expected;
} agg_case;

#define BASE INT64_C(1795322816000000)

/* One interval full of everything, seen through each set of options. */
#define MIXED_EVENTS \
	{{100, OK, 1000, 10, 1}, {200, OK, 3000, 30, 2}, {300, SKIP, 0, 0, 1}, \
	 {400, SER, 0, 0, 3}, {500, DL, 0, 0, 1}, {600, OK, 2000, 20, 1}, \
	 {700, OTHER, 0, 0, 2}}, 7

static const agg_case agg_cases[] = {
	{"aggregate, no option: groups are zeros", {NULL, 0, 1, 0, false, false, false, false, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 0 0 0 0 0 0 0 0 0\n"},
	{"aggregate, -R: lag group", {NULL, 0, 1, 0, true, false, false, false, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 60 1400 10 30 0 0 0 0 0\n"},
	{"aggregate, -R -L: skipped", {NULL, 0, 1, 0, true, true, false, false, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 60 1400 10 30 1 0 0 0 0\n"},
	{"aggregate, --max-tries: retried retries", {NULL, 0, 1, 0, false, false, true, false, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 0 0 0 0 0 3 4 0 0\n"},
	{"aggregate, --failures-detailed", {NULL, 0, 1, 0, false, false, false, true, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 0 0 0 0 0 0 0 1 1\n"},
	{"aggregate, everything", {NULL, 0, 1, 0, true, true, true, true, false, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 60 1400 10 30 1 3 4 1 1\n"},
	{"--reconnect: aggregate, a last field", {NULL, 0, 1, 0, false, false, false, false, false, true},
		300000, {{100, OK, 1000, 10, 1}, {200, CONN, 0, 0, 1}}, 2, 1 * SEC,
	"1795322816 1 1000 1000000 1000 1000 0 0 0 0 0 0 0 0 0 0\n"},
	{"--reconnect --failures-detailed: connection failures", {NULL, 0, 1, 0, false, false, false, true, true, true},
		300000, {{100, OK, 1000, 10, 1}, {200, CONN, 0, 0, 1}, {300, CONN, 0, 0, 1}}, 3, 1 * SEC,
	"1795322816 1 1000 1000000 1000 1000 0 0 0 0 0 0 0 0 0 0 2\n"},
	{"19: aggregate, no option: 16 fields", {NULL, 0, 1, 0, false, false, false, false, true, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 0 0 0 0 0 0 0 0 0 0\n"},
	{"19: aggregate, --failures-detailed: other failures", {NULL, 0, 1, 0, false, false, false, true, true, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 0 0 0 0 0 0 0 1 1 1\n"},
	{"19: aggregate, everything", {NULL, 0, 1, 0, true, true, true, true, true, false},
		300000, MIXED_EVENTS, 1 * SEC,
	"1795322816 3 6000 14000000 1000 3000 60 1400 10 30 1 3 4 1 1 1\n"},
	{"aggregate: empty intervals in the middle, partial at close",
		{NULL, 0, 1, 0, false, false, false, false, false, false},
		300000, {{500000, OK, 700, 0, 1}, {3200000, OK, 900, 0, 1}}, 2, 3900000,
	"1795322816 1 700 490000 700 700 0 0 0 0 0 0 0 0 0\n"
	"1795322817 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"1795322818 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"1795322819 1 900 810000 900 900 0 0 0 0 0 0 0 0 0\n"},
	{"aggregate: close writes ended intervals, skips an empty partial one",
		{NULL, 0, 2, 0, false, false, false, false, false, false},
		900000, {{1500000, OK, 5, 0, 1}}, 1, 6100000,
	"1795322816 1 5 25 5 5 0 0 0 0 0 0 0 0 0\n"
	"1795322818 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"1795322820 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"},
	{"aggregate: interval boundary belongs to the next interval",
		{NULL, 0, 1, 0, false, false, false, false, false, false},
		0, {{999999, OK, 1, 0, 1}, {1000000, OK, 2, 0, 1}}, 2, 1500000,
	"1795322816 1 1 1 1 1 0 0 0 0 0 0 0 0 0\n"
	"1795322817 1 2 4 2 2 0 0 0 0 0 0 0 0 0\n"},
	{"aggregate: only failures, partial interval still written",
		{NULL, 0, 5, 0, false, false, true, true, false, false},
		0, {{100, SER, 0, 0, 2}}, 1, 2000000,
	"1795322816 0 0 0 0 0 0 0 0 0 0 1 1 1 0\n"},
};

static void
test_aggregate(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];

	log_path(prefix, sizeof(prefix), "agg");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	for (size_t i = 0; i < PGB_LENGTHOF(agg_cases); i++)
	{
		const agg_case *ac = &agg_cases[i];
		txlog_config cfg = ac->cfg;
		txlog		tl;
		char	   *got;

		cfg.prefix = prefix;
		cfg.pid = PID;
		txlog_open(&tl, &cfg, 0, err, sizeof(err));
		txlog_begin(&tl, BASE + ac->begin);
		for (int e = 0; e < ac->nevents; e++)
		{
			const agg_event *ev = &ac->events[e];
			txlog_txn	tx = {1, e + 1, 0, ev->outcome, ev->latency, ev->lag, ev->tries};

			txlog_add(&tl, &tx, BASE + ev->at, NULL);
		}
		txlog_close(&tl, BASE + ac->close_at, err, sizeof(err));
		got = slurp(path);
		tap_is_str(got, ac->expected, ac->name);
		free(got);
	}
}

/* The bench start of the -R run above: 5 s intervals start on the second. */
static void
test_aggregate_alignment(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];
	txlog_config cfg = {NULL, PID, 5, 0, false, false, false, false, false, false};
	txlog		tl;
	txlog_txn	tx = {0, 1, 0, OK, 42, 0, 1};
	char	   *got;

	log_path(prefix, sizeof(prefix), "align");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	cfg.prefix = prefix;
	txlog_open(&tl, &cfg, 0, err, sizeof(err));
	/* no txlog_begin: the first transaction's second starts the log */
	txlog_add(&tl, &tx, INT64_C(1795322835618323), NULL);
	txlog_add(&tl, &tx, INT64_C(1795322840618323), NULL);
	txlog_close(&tl, INT64_C(1795322841000000), err, sizeof(err));
	got = slurp(path);
	tap_is_str(got,
			   "1795322835 1 42 1764 42 42 0 0 0 0 0 0 0 0 0\n"
			   "1795322840 1 42 1764 42 42 0 0 0 0 0 0 0 0 0\n",
			   "aggregate without txlog_begin starts at the first transaction's second");
	free(got);
}

/* ---- the once-a-second flush ---------------------------------------------- */

static void
test_tick(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];
	txlog_config cfg = {NULL, PID, 0, 0, false, false, false, false, false, false};
	txlog		tl;
	txlog_txn	tx = {3, 1, 0, OK, 42, 0, 1};
	char	   *got;

	log_path(prefix, sizeof(prefix), "tick");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	cfg.prefix = prefix;
	txlog_open(&tl, &cfg, 0, err, sizeof(err));
	txlog_add(&tl, &tx, INT64_C(1795322835618323), NULL);
	got = slurp(path);
	tap_is_str(got, "", "tick: a line stays in the buffer until a tick");
	free(got);
	tap_ok(txlog_tick(&tl, INT64_C(1795322836000000)), "tick: succeeds");
	got = slurp(path);
	tap_is_str(got, "3 1 42 0 1795322835 618323\n", "tick: the line is in the file, before close");
	free(got);
	tap_ok(txlog_tick(&tl, INT64_C(1795322837000000)), "tick: with nothing buffered, succeeds");
	txlog_close(&tl, INT64_C(1795322837000000), err, sizeof(err));
	got = slurp(path);
	tap_is_str(got, "3 1 42 0 1795322835 618323\n", "tick: the line is written once");
	free(got);

	/* aggregates: an interval reaches the file at the first tick after its end */
	cfg.agg_interval = 1;
	txlog_open(&tl, &cfg, 0, err, sizeof(err));
	txlog_begin(&tl, INT64_C(1795322835000000));
	txlog_add(&tl, &tx, INT64_C(1795322835618323), NULL);
	txlog_tick(&tl, INT64_C(1795322835900000));
	got = slurp(path);
	tap_is_str(got, "", "tick: an open interval is not written");
	free(got);
	txlog_tick(&tl, INT64_C(1795322837000000));
	got = slurp(path);
	tap_is_str(got,
			   "1795322835 1 42 1764 42 42 0 0 0 0 0 0 0 0 0\n"
			   "1795322836 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
			   "tick: the ended intervals are written, an idle one as zeros");
	free(got);
	txlog_close(&tl, INT64_C(1795322837500000), err, sizeof(err));
	got = slurp(path);
	tap_ok(strlen(got) > 0 && strchr(got, '\n') != NULL && strstr(got, "1795322837") == NULL,
		   "tick: close adds no empty last interval");
	free(got);
	unlink(path);
}

/* ---- buffering and errors ----------------------------------------------- */

static void
test_big_log(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];
	txlog_config cfg = {NULL, PID, 0, 0, true, false, true, false, false, false};
	txlog		tl;
	char	   *got;
	size_t		lines = 0;
	bool		all_ok = true;
	const int	n = 100000;
	char		last[128];

	log_path(prefix, sizeof(prefix), "big");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	cfg.prefix = prefix;
	txlog_open(&tl, &cfg, 0, err, sizeof(err));
	for (int i = 1; i <= n; i++)
	{
		txlog_txn	tx = {i % 7, i, i % 3, OK, 1000 + i, i % 50, 1};

		all_ok &= txlog_add(&tl, &tx, BASE + i, NULL);
	}
	tap_ok(all_ok, "100000 lines: every add succeeds");
	tap_ok(txlog_close(&tl, BASE + n, err, sizeof(err)), "100000 lines: close succeeds");
	got = slurp(path);
	for (char *p = got; *p; p++)
		lines += *p == '\n';
	tap_is_int((int64_t) lines, n, "100000 lines: all there after several flushes");
	snprintf(last, sizeof(last), "%d %d %d %d %d %d %d 0\n",
			 n % 7, n, 1000 + n, n % 3, 1795322816, n, n % 50);
	tap_ok(strlen(got) > strlen(last) && strcmp(got + strlen(got) - strlen(last), last) == 0,
		   "100000 lines: last line intact");
	free(got);
}

static void
test_write_error(void)
{
	char		prefix[300];
	char		path[400];
	char		err[512];
	char		expected[512];
	txlog_config cfg = {NULL, PID, 0, 0, false, false, false, false, false, false};
	txlog		tl;
	int			first_false = 0;
	int			falses = 0;

	/* the log file name is fixed by the prefix: make it a link to /dev/full */
	log_path(prefix, sizeof(prefix), "full");
	snprintf(path, sizeof(path), "%s.%d", prefix, PID);
	unlink(path);
	if (symlink("/dev/full", path) != 0)
	{
		tap_ok(false, "cannot link %s to /dev/full: %s", path, strerror(errno));
		return;
	}
	snprintf(expected, sizeof(expected),
			 "could not write to log file \"%s\": No space left on device", path);
	cfg.prefix = prefix;

	tap_ok(txlog_open(&tl, &cfg, 0, err, sizeof(err)), "/dev/full: open succeeds");
	for (int i = 1; i <= 20000; i++)
	{
		txlog_txn	tx = {0, i, 0, OK, 1234, 0, 1};

		if (!txlog_add(&tl, &tx, BASE, NULL))
		{
			falses++;
			if (first_false == 0)
				first_false = i;
		}
	}
	tap_ok(first_false > 1000, "/dev/full: the first adds only buffer (first failure at %d)",
		   first_false);
	tap_is_int(falses, 1, "/dev/full: exactly one add reports the error");
	tap_ok(txlog_failed(&tl), "/dev/full: txlog_failed");
	txlog_error_message(&tl, err, sizeof(err));
	tap_is_str(err, expected, "/dev/full: message");
	err[0] = '\0';
	tap_ok(!txlog_close(&tl, BASE, err, sizeof(err)), "/dev/full: close returns false");
	tap_is_str(err, expected, "/dev/full: close gives the message");

	/* an error found only by the final flush */
	txlog_open(&tl, &cfg, 0, err, sizeof(err));
	{
		txlog_txn	tx = {0, 1, 0, OK, 1, 0, 1};

		tap_ok(txlog_add(&tl, &tx, BASE, NULL), "/dev/full: one line buffers fine");
	}
	tap_ok(!txlog_close(&tl, BASE, err, sizeof(err)), "/dev/full: close reports the final flush");
	tap_is_str(err, expected, "/dev/full: final flush message");
	unlink(path);
}

int
main(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_txlog_XXXXXX", base ? base : "/tmp");
	if (mkdtemp(tmpdir) == NULL)
	{
		tap_ok(false, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	test_names();
	test_lines();
	test_sampling();
	test_aggregate();
	test_aggregate_alignment();
	test_tick();
	test_big_log();
	test_write_error();
	if (getenv("TXLOG_KEEP") == NULL)
	{
		char		cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			tap_diag("could not remove %s", tmpdir);
	}
	return tap_done();
}
