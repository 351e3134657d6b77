/*
 * test_options.c — the options table (a help line for every option,
 * getopt_long's arrays built to match it) and options_parse on command
 * lines that parse: defaults and the fields derived after parsing (thread
 * clamp, -L in microseconds, init steps after -n / --foreign-keys,
 * partitions, -D values, seeds, script weights, the builtin flag of a
 * script made from a builtin), and what depends on the
 * compatibility mode (-d, --debug, --continue-on-error, getopt's arrays
 * per mode).  Rejected command lines
 * and their messages, and --help, are t/cli.pl's job, against the real
 * pgbench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/cli/options_table.h"
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
	double		rate;
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
	{"threads clamped to clients, -R", {"-c", "3", "-j", "8", "-R", "100", NULL},
	3, 3, 10, 0, 100.0, 0, QUERY_SIMPLE, 1, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
	{"-R with fewer threads", {"-c", "4", "-j", "2", "--rate=10", NULL},
	4, 2, 10, 0, 10.0, 0, QUERY_SIMPLE, 1, "pgbench_log", 1, 1, "<builtin: TPC-B (sort of)>"},
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
	tap_is_double(opts.rate, c->rate, 1e-9, "rate");
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

/*
 * A script made from a builtin (-b, -N, -S, the default) carries the
 * builtin flag, a -f file never does, even one named as a builtin's
 * description (the flag, not the name, makes the run read the scale).
 */
static void
test_builtin_flag(void)
{
	static const char *const builtins[] = {"-b", "select-only", "-N", NULL};
	static const char *const none[] = {NULL};
	static const char fake[] = "<builtin: TPC-B (sort of)>";
	const char *const file[] = {"-f", fake, NULL};
	char		dir[] = "/tmp/test_options_XXXXXX";
	char		cwd[4096];
	pgb_options opts;
	FILE	   *f;

	tap_is_int(parse(&opts, builtins), -1, "builtin flag: -b and -N parse");
	tap_ok(opts.scripts->scripts[0].builtin && opts.scripts->scripts[1].builtin,
		   "builtin flag: set on -b and -N scripts");
	options_free(&opts);
	tap_is_int(parse(&opts, none), -1, "builtin flag: the default parses");
	tap_ok(opts.scripts->scripts[0].builtin, "builtin flag: set on the default script");
	options_free(&opts);

	if (getcwd(cwd, sizeof(cwd)) == NULL || mkdtemp(dir) == NULL || chdir(dir) != 0)
	{
		tap_ok(false, "builtin flag: a temporary directory");
		return;
	}
	f = fopen(fake, "w");
	if (f != NULL)
	{
		fputs("select 1;\n", f);
		fclose(f);
	}
	tap_is_int(parse(&opts, file), -1, "builtin flag: -f parses");
	tap_is_str(opts.scripts->scripts[0].desc, fake, "builtin flag: the file's name reads as a builtin's");
	tap_ok(!opts.scripts->scripts[0].builtin, "builtin flag: not set on a -f file");
	options_free(&opts);
	unlink(fake);
	if (chdir(cwd) != 0 || rmdir(dir) != 0)
		tap_ok(false, "builtin flag: clean up the temporary directory");
}

/* Whether a parse of args gives opts with a debug flag and a database as expected. */
static void
test_mode_case(const char *name, const char *const *args, int rc_expected, bool debug,
			   bool continue_on_error, const char *dbname)
{
	pgb_options opts;
	int			rc = parse(&opts, args);

	tap_is_int(rc, rc_expected, name);
	if (rc != -1)
		return;
	tap_ok(opts.debug == debug, "debug flag");
	tap_ok(opts.continue_on_error == continue_on_error, "continue_on_error flag");
	tap_is_str(opts.dbname, dbname, "database");
	options_free(&opts);
}

/* -d, --debug, --dbname and --continue-on-error in each mode (no message checks). */
static void
test_mode_options(void)
{
	static const char *const d16[] = {"--compat=16", "-d", "dbx", NULL};
	static const char *const d17[] = {"--compat=17", "-d", "dbx", NULL};
	static const char *const d17_last[] = {"--compat=17", "-d", "a", "--dbname=b", NULL};
	static const char *const d17_extra[] = {"--compat=17", "-d", "a", "b", NULL};
	static const char *const debug17[] = {"--compat=17", "--debug", "dbx", NULL};
	static const char *const debug16[] = {"--compat=16", "--debug", NULL};
	static const char *const coe16[] = {"--compat=16", "--continue-on-error", NULL};
	static const char *const coe18_prefix[] = {"--compat=18", "--continue-on", NULL};
	static const char *const coe19[] = {"--compat=19", "--cont", NULL};
	static const char *const coe_init[] = {"--compat=19", "-i", "--continue-on-error", NULL};

	test_mode_case("16: -d is --debug", d16, -1, true, false, "dbx");
	test_mode_case("17: -d names the database", d17, -1, false, false, "dbx");
	test_mode_case("17: the last -d/--dbname wins", d17_last, -1, false, false, "b");
	test_mode_case("17: with -d, DBNAME is one too many", d17_extra, 1, false, false, NULL);
	test_mode_case("17: --debug", debug17, -1, true, false, "dbx");
	test_mode_case("16: --debug", debug16, -1, true, false, "testdb");
	test_mode_case("16: --continue-on-error by its full name", coe16, -1, false, true, "testdb");
	test_mode_case("18: no abbreviation of --continue-on-error", coe18_prefix, 1, false,
				   false, NULL);
	test_mode_case("19: --cont abbreviates --continue-on-error", coe19, -1, false, true,
				   "testdb");
	test_mode_case("19: --continue-on-error is a benchmarking option", coe_init, 1, false,
				   false, NULL);
}

/* pgbench's short options and long-option order per mode, as its getopt arrays have them. */
static const char short_options_16[] = "b:c:CdD:f:F:h:iI:j:lL:M:nNp:P:qrR:s:St:T:U:v";
static const char short_options_17[] = "b:c:Cd:D:f:F:h:iI:j:lL:M:nNp:P:qrR:s:St:T:U:v";

#define LONG_ORDER_AFTER_D \
	"define", "file", "fillfactor", "host", \
	"initialize", "init-steps", "jobs", "log", "latency-limit", "no-vacuum", "port", \
	"progress", "protocol", "quiet", "report-per-command", "rate", "scale", \
	"select-only", "skip-some-updates", "time", "transactions", "username", \
	"vacuum-all", "unlogged-tables", "tablespace", "index-tablespace", "sampling-rate", \
	"aggregate-interval", "progress-timestamp", "log-prefix", "foreign-keys", \
	"random-seed", "show-script", "partitions", "partition-method", \
	"failures-detailed", "max-tries", "verbose-errors", "exit-on-abort"

static const char *const long_order_16[] = {
	"builtin", "client", "connect", "debug", LONG_ORDER_AFTER_D, NULL,
};
static const char *const long_order_17[] = {
	"builtin", "client", "connect", "dbname", LONG_ORDER_AFTER_D, "debug", NULL,
};
static const char *const long_order_19[] = {
	"builtin", "client", "connect", "dbname", LONG_ORDER_AFTER_D, "debug",
	"continue-on-error", NULL,
};

/* The earlier row of mode compat that lists the option def names again, or NULL. */
static const opt_def *
earlier_row_named(const opt_def *def, int compat)
{
	for (const opt_def *o = options_table; o < def; o++)
		if (o->kind != OPT_ROW_SECTION && options_row_in_compat(o, compat) &&
			strcmp(o->long_name, def->long_name) == 0)
			return o;
	return NULL;
}

/* Whether an earlier row of mode compat has def's short letter. */
static bool
earlier_letter(const opt_def *def, int compat)
{
	for (const opt_def *o = options_table; o < def; o++)
		if (o->kind != OPT_ROW_SECTION && options_row_in_compat(o, compat) &&
			def->short_name != 0 && o->short_name == def->short_name)
			return true;
	return false;
}

/*
 * Every row has its help line; in each mode names and letters are unique,
 * a see-also row repeats an option.
 */
static void
test_table_rows(void)
{
	bool		help_ok = true;
	bool		arg_help_ok = true;
	bool		unique_ok = true;
	bool		see_also_ok = true;
	bool		range_ok = true;
	bool		first_is_section = options_table[0].kind == OPT_ROW_SECTION;

	for (int i = 0; i < options_table_size; i++)
	{
		const opt_def *def = &options_table[i];

		if (def->help == NULL || def->help[0] == '\0')
		{
			tap_diag("row %d (%s) has no help line", i, def->long_name ? def->long_name : "section");
			help_ok = false;
		}
		range_ok &= def->max_compat == 0 || def->max_compat >= def->min_compat;
		if (def->kind == OPT_ROW_SECTION)
			continue;
		if (def->long_name == NULL || (def->arg_help != NULL) != (def->arg != OPT_ARG_NONE))
		{
			tap_diag("row %d: long name or argument name does not fit its argument", i);
			arg_help_ok = false;
			continue;
		}
		for (int compat = PGB_COMPAT_MIN; compat <= PGB_COMPAT_MAX; compat++)
		{
			const opt_def *earlier;

			if (!options_row_in_compat(def, compat))
				continue;
			earlier = earlier_row_named(def, compat);
			if (def->kind == OPT_ROW_SEE_ALSO)
				see_also_ok &= earlier != NULL && earlier->kind == OPT_ROW_GETOPT &&
					earlier->short_name == def->short_name && earlier->arg == def->arg &&
					def->handler == NULL && def->set.kind == OPT_SET_NOTHING;
			else if (earlier != NULL || earlier_letter(def, compat))
			{
				tap_diag("row %d (%s) repeats a name or letter in mode %d", i,
						 def->long_name, compat);
				unique_ok = false;
			}
		}
	}
	tap_ok(first_is_section, "the table starts with a section header");
	tap_ok(help_ok, "every table row has a help line");
	tap_ok(arg_help_ok, "an argument name exactly where there is an argument");
	tap_ok(range_ok, "compatibility ranges are not empty");
	tap_ok(unique_ok, "in each mode, long names and short letters are unique");
	tap_ok(see_also_ok, "see-also rows repeat an earlier pgbench option and do nothing");
}

/* Whether the short-option string gives c exactly the colons its argument needs. */
static bool
short_string_has(const char *shorts, char c, opt_arg arg)
{
	const char *p = strchr(shorts, c);
	int			colons = 0;

	if (p == NULL)
		return false;
	while (p[1 + colons] == ':')
		colons++;
	return colons == (arg == OPT_ARG_NONE ? 0 : arg == OPT_ARG_REQUIRED ? 1 : 2);
}

/* Whether g's long options are exactly order, in that order. */
static bool
long_order_is(const options_getopt *g, const char *const *order)
{
	int			n = 0;

	while (order[n] != NULL)
		n++;
	if (g->nlong != n)
		return false;
	for (int k = 0; k < n; k++)
		if (strcmp(g->long_options[k].name, order[k]) != 0)
			return false;
	return true;
}

/* Whether g's short-option string is pgbench's (same letters and colons, any order). */
static bool
short_options_are(const options_getopt *g, const char *pgbench_shorts)
{
	bool		ok = strlen(g->short_options) == strlen(pgbench_shorts);

	for (const char *c = pgbench_shorts; *c != '\0'; c++)
		if (*c != ':')
			ok &= short_string_has(g->short_options, *c,
								   c[1] == ':' ? OPT_ARG_REQUIRED : OPT_ARG_NONE);
	return ok;
}

/* The generated getopt_long arrays of mode compat match the table, and pgbench's own. */
static void
test_getopt_arrays(int compat, const char *pgbench_shorts, const char *const *long_order)
{
	options_getopt g;
	int			ngetopt = 0;
	size_t		short_len = 0;
	bool		long_ok = true;
	bool		short_ok = true;

	options_getopt_build(&g, compat);
	for (int i = 0; i < options_table_size; i++)
	{
		const opt_def *def = &options_table[i];
		bool		in_long = false;

		if (!options_row_in_compat(def, compat))
		{
			/* a row of another mode must not be reachable by its code */
			if (def->kind == OPT_ROW_GETOPT && def->short_name == 0)
				long_ok &= options_getopt_lookup(&g, OPT_CODE_BASE + i) == NULL;
			continue;
		}
		for (int k = 0; k < g.nlong; k++)
			in_long |= g.long_options[k].name != NULL &&
				def->long_name != NULL && strcmp(g.long_options[k].name, def->long_name) == 0;
		if (def->kind != OPT_ROW_GETOPT)
		{
			/* --help, -V, our extensions and see-also rows stay out of getopt */
			if (def->kind != OPT_ROW_SEE_ALSO)
				long_ok &= !in_long;
			if (def->kind != OPT_ROW_SEE_ALSO && def->short_name != 0)
				short_ok &= strchr(g.short_options, def->short_name) == NULL;
			continue;
		}
		ngetopt++;
		if (def->short_name != 0)
		{
			short_ok &= short_string_has(g.short_options, def->short_name, def->arg);
			short_len += 1 + (def->arg == OPT_ARG_NONE ? 0 : def->arg == OPT_ARG_REQUIRED ? 1 : 2);
		}
		long_ok &= def->getopt_rank >= 1 && def->getopt_rank <= g.nlong;
		if (!long_ok)
			continue;
		{
			const struct option *o = &g.long_options[def->getopt_rank - 1];

			long_ok &= o->name != NULL && strcmp(o->name, def->long_name) == 0 &&
				o->has_arg == (int) def->arg && o->flag == NULL &&
				options_getopt_lookup(&g, o->val) == def;
		}
	}
	short_ok &= strlen(g.short_options) == short_len;
	tap_diag("mode %d", compat);
	tap_is_int(g.nlong, ngetopt, "one long option per getopt row");
	tap_ok(g.long_options[g.nlong].name == NULL, "long options end with {NULL}");
	tap_ok(long_ok, "long options match the table: name, argument, rank, code");
	tap_ok(short_ok, "short-option string matches the table, nothing else in it");

	/* pgbench's own arrays, which its messages and abbreviations depend on */
	tap_ok(short_options_are(&g, pgbench_shorts), "short options are pgbench's");
	tap_ok(long_order_is(&g, long_order),
		   "long options in pgbench's order (getopt's \"ambiguous\" lists)");
	tap_ok(options_getopt_lookup(&g, '?') == NULL, "'?' is getopt's error, not an option");
	options_getopt_free(&g);
}

int
main(void)
{
	setenv("PGDATABASE", "testdb", 1);
	unsetenv("PGBENCH_RANDOM_SEED");
	unsetenv("PGBENCH_COMPAT");

	for (size_t i = 0; i < PGB_LENGTHOF(run_cases); i++)
		test_run_case(&run_cases[i]);
	for (size_t i = 0; i < PGB_LENGTHOF(init_cases); i++)
		test_init_case(&init_cases[i]);
	test_defines_and_seed();
	test_exit_codes();
	test_builtin_flag();
	test_mode_options();
	test_table_rows();
	test_getopt_arrays(16, short_options_16, long_order_16);
	test_getopt_arrays(17, short_options_17, long_order_17);
	test_getopt_arrays(18, short_options_17, long_order_17);
	test_getopt_arrays(19, short_options_17, long_order_19);
	return tap_done();
}
