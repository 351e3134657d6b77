/*
 * test_options.c — options_parse on command lines that parse: defaults
 * and the fields derived after parsing (thread clamp, -R delay, -L in
 * microseconds, init steps after -n / --foreign-keys, partitions, -D
 * values, seeds, script weights).  Rejected command lines and their
 * messages are t/cli.pl's job, against the real pgbench.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/options.h"
#include "tap.h"

#define MAX_ARGV 16

/* Parse a NULL-terminated list of arguments after the program name. */
static int
parse(pgb_options *opts, const char *const *args)
{
	char	   *argv[MAX_ARGV + 2];
	int			argc = 0;

	argv[argc++] = (char *) "pgbench";
	for (int i = 0; args[i] != NULL && argc <= MAX_ARGV; i++)
		argv[argc++] = (char *) args[i];
	argv[argc] = NULL;
	return options_parse(opts, argc, argv);
}

typedef struct run_case
{
	const char *name;
	const char *args[MAX_ARGV];
	int			nclients;
	int			nthreads;
	int64_t		nxacts;
	int			duration;
	double		throttle_delay_us;
	int64_t		latency_limit_us;
	query_mode	mode;
	uint32_t	max_tries;
	const char *log_prefix;
	int			nscripts;
	int64_t		total_weight;
	const char *first_desc;
} run_case;

static const run_case run_cases[] = {
	{"defaults", {NULL}, 1, 1, 10, 0, 0, 0, QUERY_SIMPLE, 1, "pgbench_log", 1, 1,
	"<builtin: TPC-B (sort of)>"},
	{"threads clamped to clients, -R per thread", {"-c", "3", "-j", "8", "-R", "100", NULL},
	3, 3, 10, 0, 30000.0, 0, QUERY_SIMPLE, 1, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
	{"-R with fewer threads", {"-c", "4", "-j", "2", "--rate=10", NULL},
	4, 2, 10, 0, 200000.0, 0, QUERY_SIMPLE, 1, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
	{"-T clears the default -t", {"-T", "10", "-M", "prepared", NULL},
	1, 1, 0, 10, 0, 0, QUERY_PREPARED, 1, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
	{"-L in microseconds, unlimited tries", {"-L", "2.5", "--max-tries=0", "-t", "7", NULL},
	1, 1, 7, 0, 0, 2500, QUERY_SIMPLE, 0, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
	{"weighted builtins", {"-b", "simple@2", "-S", "--protocol=extended", NULL},
	1, 1, 10, 0, 0, 0, QUERY_EXTENDED, 1, "pgbench_log", 2, 3, "<builtin: simple update>"},
	{"log prefix", {"-l", "--log-prefix=pp", "-N", NULL},
	1, 1, 10, 0, 0, 0, QUERY_SIMPLE, 1, "pp", 1, 1,
	"<builtin: simple update>"},
};

static void
test_run_case(const run_case *c)
{
	pgb_options opts;
	int			rc = parse(&opts, c->args);

	tap_is_int(rc, -1, c->name);
	if (rc != -1)
		return;
	tap_is_int(opts.action, ACTION_RUN, "action is a run");
	tap_is_int(opts.nclients, c->nclients, "nclients");
	tap_is_int(opts.nthreads, c->nthreads, "nthreads");
	tap_is_int(opts.nxacts, c->nxacts, "nxacts");
	tap_is_int(opts.duration, c->duration, "duration");
	tap_is_double(opts.throttle_delay_us, c->throttle_delay_us, 1e-6, "throttle delay");
	tap_is_int(opts.latency_limit_us, c->latency_limit_us, "latency limit");
	tap_is_int(opts.query_mode, c->mode, "query mode");
	tap_is_int(opts.max_tries, c->max_tries, "max tries");
	tap_is_str(opts.log_prefix, c->log_prefix, "log prefix");
	tap_is_int(opts.scripts->nscripts, c->nscripts, "number of scripts");
	tap_is_int(opts.scripts->total_weight, c->total_weight, "total weight");
	tap_is_str(opts.scripts->scripts[0].desc, c->first_desc, "first script");
	tap_is_str(opts.dbname, "testdb", "dbname from PGDATABASE");
	options_free(&opts);
}

typedef struct init_case
{
	const char *name;
	const char *args[MAX_ARGV];
	const char *steps;
	int			partitions;
	partition_method method;
} init_case;

static const init_case init_cases[] = {
	{"default steps", {"-i", NULL}, "dtgvp", 0, PART_NONE},
	{"-n blanks out vacuum", {"-i", "-n", NULL}, "dtg p", 0, PART_NONE},
	{"-n on every v", {"-i", "-n", "-I", "vdvt", NULL}, " d t", 0, PART_NONE},
	{"--foreign-keys appends f", {"-i", "--foreign-keys", NULL}, "dtgvpf", 0, PART_NONE},
	{"--foreign-keys keeps an f", {"-i", "--foreign-keys", "-I", "dft", NULL}, "dft", 0, PART_NONE},
	{"blanks allowed", {"-I", "d t", "-i", NULL}, "d t", 0, PART_NONE},
	{"last -I wins", {"-i", "-I", "dt", "-I", "Gv", NULL}, "Gv", 0, PART_NONE},
	{"partitions default to range", {"-i", "--partitions=3", NULL}, "dtgvp", 3, PART_RANGE},
	{"hash partitions", {"-i", "--partitions=4", "--partition-method=HASH", NULL}, "dtgvp", 4, PART_HASH},
};

static void
test_init_case(const init_case *c)
{
	pgb_options opts;
	int			rc = parse(&opts, c->args);

	tap_is_int(rc, -1, c->name);
	if (rc != -1)
		return;
	tap_is_int(opts.action, ACTION_INIT, "action is init");
	tap_is_str(opts.init_steps, c->steps, "steps");
	tap_is_int(opts.partitions, c->partitions, "partitions");
	tap_is_int(opts.partition_method, c->method, "partition method");
	options_free(&opts);
}

static void
test_defines_and_seed(void)
{
	static const char *const args[] = {
		"-D", "a=1", "-D", "b=x=y", "-D", "a=2", "--random-seed=42", "-s", "5", "dbx", NULL,
	};
	pgb_options opts;
	int			rc = parse(&opts, args);
	int			slot;

	tap_is_int(rc, -1, "-D, seed and scale parse");
	if (rc != -1)
		return;
	slot = var_symtab_find(opts.scripts->symtab, "a", 1);
	tap_ok(slot >= 0 && var_get_string(&opts.defines, slot) != NULL &&
		   strcmp(var_get_string(&opts.defines, slot), "2") == 0, "last -D a wins");
	slot = var_symtab_find(opts.scripts->symtab, "b", 1);
	tap_ok(slot >= 0 && var_get_string(&opts.defines, slot) != NULL &&
		   strcmp(var_get_string(&opts.defines, slot), "x=y") == 0, "-D value keeps later '='");
	tap_is_int((int64_t) opts.seed.seed, 42, "--random-seed value");
	tap_is_int(opts.scale, 5, "-s");
	tap_ok(opts.scale_given, "scale_given");
	tap_is_str(opts.dbname, "dbx", "dbname argument");
	options_free(&opts);
}

static void
test_exit_codes(void)
{
	static const char *const bad[] = {"-c", "x", NULL};
	static const char *const list[] = {"-b", "list", NULL};
	pgb_options opts;

	tap_is_int(parse(&opts, bad), 1, "bad usage returns 1");
	tap_is_int(parse(&opts, list), 0, "-b list returns 0");
	tap_is_int(opts.action, ACTION_EXIT_OK, "-b list action");
}

int
main(void)
{
	setenv("PGDATABASE", "testdb", 1);
	unsetenv("PGBENCH_RANDOM_SEED");

	for (size_t i = 0; i < PGB_LENGTHOF(run_cases); i++)
		test_run_case(&run_cases[i]);
	for (size_t i = 0; i < PGB_LENGTHOF(init_cases); i++)
		test_init_case(&init_cases[i]);
	test_defines_and_seed();
	test_exit_codes();
	return tap_done();
}
