/*
 * options.c — the command line: reads argv (and the few environment
 * variables pgbench reads itself) into a pgb_options, loads the scripts
 * named by -f / -b / -N / -S and the -D variables as it goes, then applies
 * pgbench's cross-option checks and computes the derived fields.
 *
 * Every message, its wording and the order in which problems are reported
 * follow pgbench exactly: users' scripts grep these lines and exit codes.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pgbench/diag.h"
#include "pgbench/options.h"

/* What the parsing helpers tell their caller. */
#define OPT_CONTINUE (-1)
#define OPT_EXIT_OK 0
#define OPT_EXIT_FAIL 1

#define DEFAULT_INIT_STEPS "dtgvp"
#define ALLOWED_INIT_STEPS "dtgGvpf"
#define DEFAULT_LOG_PREFIX "pgbench_log"
#define DEFAULT_NXACTS 10

/* Codes of the options that have no short form. */
enum long_only_option
{
	OPT_UNLOGGED_TABLES = 1,
	OPT_TABLESPACE,
	OPT_INDEX_TABLESPACE,
	OPT_SAMPLING_RATE,
	OPT_AGGREGATE_INTERVAL,
	OPT_PROGRESS_TIMESTAMP,
	OPT_LOG_PREFIX,
	OPT_FOREIGN_KEYS,
	OPT_RANDOM_SEED,
	OPT_SHOW_SCRIPT,
	OPT_PARTITIONS,
	OPT_PARTITION_METHOD,
	OPT_FAILURES_DETAILED,
	OPT_MAX_TRIES,
	OPT_VERBOSE_ERRORS,
	OPT_EXIT_ON_ABORT,
};

static const char short_options[] = "b:c:CdD:f:F:h:iI:j:lL:M:nNp:P:qrR:s:St:T:U:v";

/*
 * The order of this table is visible to users: getopt_long lists the
 * candidates of an ambiguous prefix ("--p") in table order, so it is
 * pgbench's order, with PostgreSQL 17's --exit-on-abort last as there.
 */
static const struct option long_options[] = {
	{"builtin", required_argument, NULL, 'b'},
	{"client", required_argument, NULL, 'c'},
	{"connect", no_argument, NULL, 'C'},
	{"debug", no_argument, NULL, 'd'},
	{"define", required_argument, NULL, 'D'},
	{"file", required_argument, NULL, 'f'},
	{"fillfactor", required_argument, NULL, 'F'},
	{"host", required_argument, NULL, 'h'},
	{"initialize", no_argument, NULL, 'i'},
	{"init-steps", required_argument, NULL, 'I'},
	{"jobs", required_argument, NULL, 'j'},
	{"log", no_argument, NULL, 'l'},
	{"latency-limit", required_argument, NULL, 'L'},
	{"no-vacuum", no_argument, NULL, 'n'},
	{"port", required_argument, NULL, 'p'},
	{"progress", required_argument, NULL, 'P'},
	{"protocol", required_argument, NULL, 'M'},
	{"quiet", no_argument, NULL, 'q'},
	{"report-per-command", no_argument, NULL, 'r'},
	{"rate", required_argument, NULL, 'R'},
	{"scale", required_argument, NULL, 's'},
	{"select-only", no_argument, NULL, 'S'},
	{"skip-some-updates", no_argument, NULL, 'N'},
	{"time", required_argument, NULL, 'T'},
	{"transactions", required_argument, NULL, 't'},
	{"username", required_argument, NULL, 'U'},
	{"vacuum-all", no_argument, NULL, 'v'},
	{"unlogged-tables", no_argument, NULL, OPT_UNLOGGED_TABLES},
	{"tablespace", required_argument, NULL, OPT_TABLESPACE},
	{"index-tablespace", required_argument, NULL, OPT_INDEX_TABLESPACE},
	{"sampling-rate", required_argument, NULL, OPT_SAMPLING_RATE},
	{"aggregate-interval", required_argument, NULL, OPT_AGGREGATE_INTERVAL},
	{"progress-timestamp", no_argument, NULL, OPT_PROGRESS_TIMESTAMP},
	{"log-prefix", required_argument, NULL, OPT_LOG_PREFIX},
	{"foreign-keys", no_argument, NULL, OPT_FOREIGN_KEYS},
	{"random-seed", required_argument, NULL, OPT_RANDOM_SEED},
	{"show-script", required_argument, NULL, OPT_SHOW_SCRIPT},
	{"partitions", required_argument, NULL, OPT_PARTITIONS},
	{"partition-method", required_argument, NULL, OPT_PARTITION_METHOD},
	{"failures-detailed", no_argument, NULL, OPT_FAILURES_DETAILED},
	{"max-tries", required_argument, NULL, OPT_MAX_TRIES},
	{"verbose-errors", no_argument, NULL, OPT_VERBOSE_ERRORS},
	{"exit-on-abort", no_argument, NULL, OPT_EXIT_ON_ABORT},
	{NULL, 0, NULL, 0},
};

static const char *const query_mode_names[] = {
	[QUERY_SIMPLE] = "simple",
	[QUERY_EXTENDED] = "extended",
	[QUERY_PREPARED] = "prepared",
};

/* The help text after its first three lines, which carry the program name. */
static const char help_body[] =
	"\nInitialization options:\n"
	"  -i, --initialize         invokes initialization mode\n"
	"  -I, --init-steps=[" ALLOWED_INIT_STEPS "]+ (default \"" DEFAULT_INIT_STEPS "\")\n"
	"                           run selected initialization steps\n"
	"  -F, --fillfactor=NUM     set fill factor\n"
	"  -n, --no-vacuum          do not run VACUUM during initialization\n"
	"  -q, --quiet              quiet logging (one message each 5 seconds)\n"
	"  -s, --scale=NUM          scaling factor\n"
	"  --foreign-keys           create foreign key constraints between tables\n"
	"  --index-tablespace=TABLESPACE\n"
	"                           create indexes in the specified tablespace\n"
	"  --partition-method=(range|hash)\n"
	"                           partition pgbench_accounts with this method (default: range)\n"
	"  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)\n"
	"  --tablespace=TABLESPACE  create tables in the specified tablespace\n"
	"  --unlogged-tables        create tables as unlogged tables\n"
	"\nOptions to select what to run:\n"
	"  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)\n"
	"                           (use \"-b list\" to list available scripts)\n"
	"  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)\n"
	"  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches\n"
	"                           (same as \"-b simple-update\")\n"
	"  -S, --select-only        perform SELECT-only transactions\n"
	"                           (same as \"-b select-only\")\n"
	"\nBenchmarking options:\n"
	"  -c, --client=NUM         number of concurrent database clients (default: 1)\n"
	"  -C, --connect            establish new connection for each transaction\n"
	"  -D, --define=VARNAME=VALUE\n"
	"                           define variable for use by custom script\n"
	"  -j, --jobs=NUM           number of threads (default: 1)\n"
	"  -l, --log                write transaction times to log file\n"
	"  -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late\n"
	"  -M, --protocol=simple|extended|prepared\n"
	"                           protocol for submitting queries (default: simple)\n"
	"  -n, --no-vacuum          do not run VACUUM before tests\n"
	"  -P, --progress=NUM       show thread progress report every NUM seconds\n"
	"  -r, --report-per-command report latencies, failures, and retries per command\n"
	"  -R, --rate=NUM           target rate in transactions per second\n"
	"  -s, --scale=NUM          report this scale factor in output\n"
	"  -t, --transactions=NUM   number of transactions each client runs (default: 10)\n"
	"  -T, --time=NUM           duration of benchmark test in seconds\n"
	"  -v, --vacuum-all         vacuum all four standard tables before tests\n"
	"  --aggregate-interval=NUM aggregate data over NUM seconds\n"
	"  --exit-on-abort          exit when any client is aborted\n"
	"  --failures-detailed      report the failures grouped by basic types\n"
	"  --log-prefix=PREFIX      prefix for transaction time log file\n"
	"                           (default: \"" DEFAULT_LOG_PREFIX "\")\n"
	"  --max-tries=NUM          max number of tries to run transaction (default: 1)\n"
	"  --progress-timestamp     use Unix epoch timestamps for progress\n"
	"  --random-seed=SEED       set random seed (\"time\", \"rand\", integer)\n"
	"  --sampling-rate=NUM      fraction of transactions to log (e.g., 0.01 for 1%)\n"
	"  --show-script=NAME       show builtin script code, then exit\n"
	"  --verbose-errors         print messages of all errors\n"
	"\nCommon options:\n"
	"  -d, --debug              print debugging output\n"
	"  -h, --host=HOSTNAME      database server host or socket directory\n"
	"  -p, --port=PORT          database server port number\n"
	"  -U, --username=USERNAME  connect as specified database user\n"
	"  -V, --version            output version information, then exit\n"
	"  -?, --help               show this help, then exit\n"
	"\n"
	"Report bugs to <pgsql-bugs@lists.postgresql.org>.\n"
	"PostgreSQL home page: <https://www.postgresql.org/>\n";

/* A -D variable, kept until every script has named its variables. */
typedef struct pending_define
{
	int			slot;
	const char *value;
} pending_define;

/* Parsing state that does not outlive options_parse. */
typedef struct parse_state
{
	pgb_options *opts;
	const char *progname;
	bool		is_init_mode;
	bool		benchmarking_option_set;
	bool		initialization_option_set;
	bool		log_prefix_given;
	char	   *init_steps;		/* owned; handed to opts at the end */
	pending_define *defines;
	int			ndefines;
	char	  **argv_copy;		/* argv without our extensions; owned */
	int			argc_copy;
} parse_state;

/* ---- memory ------------------------------------------------------------- */

/* Out of memory at start-up: stop as pgbench's allocation wrappers do. */
static void *
check_alloc(void *ptr)
{
	if (ptr == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(EXIT_FAILURE);
	}
	return ptr;
}

/* ---- small parsers with pgbench's messages ------------------------------ */

/*
 * An int in [min, max]: leading blanks and a sign as strtol takes them,
 * trailing blanks allowed, anything else trailing rejected.
 */
static bool
parse_int_option(const char *text, const char *optname, int min, int max,
				 int *result)
{
	char	   *end;
	long		value;
	bool		out_of_int;

	errno = 0;
	value = strtol(text, &end, 10);
	out_of_int = errno == ERANGE || value < INT_MIN || value > INT_MAX;
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (*end != '\0')
	{
		diag_error("invalid value \"%s\" for option %s", text, optname);
		return false;
	}
	if (out_of_int || value < min || value > max)
	{
		diag_error("%s must be in range %d..%d", optname, min, max);
		return false;
	}
	*result = (int) value;
	return true;
}

/*
 * Split "NAME@WEIGHT" at its last '@' (file names may contain '@').
 * *name is allocated; without '@' the weight is 1.
 */
static bool
parse_script_weight(const char *spec, char **name, int *weight)
{
	const char *at = strrchr(spec, '@');
	char	   *end;
	long		value;

	if (at == NULL)
	{
		*name = check_alloc(strdup(spec));
		*weight = 1;
		return true;
	}

	errno = 0;
	value = strtol(at + 1, &end, 10);
	if (errno != 0 || end == at + 1 || *end != '\0')
	{
		diag_error("invalid weight specification: %s", at);
		return false;
	}
	if (value < 0 || value > INT_MAX)
	{
		diag_error("weight specification out of range (0 .. %d): %lld",
				   INT_MAX, (long long) value);
		return false;
	}
	*name = check_alloc(strndup(spec, (size_t) (at - spec)));
	*weight = (int) value;
	return true;
}

/* "unrecognized ..." then its detail: random_seed_set's two-line message. */
static void
report_multiline_error(const char *message)
{
	const char *newline = strchr(message, '\n');

	if (newline == NULL)
	{
		diag_error("%s", message);
		return;
	}
	diag_error("%.*s", (int) (newline - message), message);
	diag_detail("%s", newline + 1);
}

/* pgbench announces an explicit seed at info level, shown without -d. */
static void
report_seed(const pgb_options *opts)
{
	diag_info("setting random seed to %" PRIu64, opts->seed.seed);
}

static bool
set_seed(pgb_options *opts, const char *text, const char *origin)
{
	char		errbuf[512];

	if (!random_seed_set(&opts->seed, text, errbuf, sizeof(errbuf)))
	{
		report_multiline_error(errbuf);
		diag_error("error while setting random seed from %s", origin);
		return false;
	}
	if (text != NULL)
		report_seed(opts);
	return true;
}

/* ---- scripts -------------------------------------------------------------- */

static void
list_builtin_scripts(void)
{
	fprintf(stderr, "Available builtin scripts:\n");
	for (int i = 0; i < builtin_script_count; i++)
		fprintf(stderr, "%15s: %s\n", builtin_scripts[i].name, builtin_scripts[i].desc);
	fprintf(stderr, "\n");
}

/* A builtin by name or prefix, or NULL after pgbench's message and the list. */
static const builtin_script *
find_builtin_or_report(const char *name)
{
	const builtin_script *found = builtin_find(name, NULL);
	int			nmatches;

	if (found != NULL)
		return found;
	nmatches = builtin_count_matches(name);
	if (nmatches == 0)
		diag_error("no builtin script found for name \"%s\"", name);
	else
		diag_error("ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
				   nmatches, name);
	list_builtin_scripts();
	return NULL;
}

static bool
compile_script(pgb_options *opts, const char *source, const char *text, int weight)
{
	script_error err;

	memset(&err, 0, sizeof(err));
	if (!script_compile(opts->scripts, source, text, weight, &err))
	{
		script_error_report(&err);
		script_error_clear(&err);
		return false;
	}
	return true;
}

static bool
add_builtin(pgb_options *opts, const char *name, int weight)
{
	const builtin_script *builtin = find_builtin_or_report(name);

	return builtin != NULL &&
		compile_script(opts, builtin->desc, builtin->script, weight);
}

/* Whole contents of fp, NUL-terminated; NULL with errno set on a read error. */
static char *
read_stream(FILE *fp)
{
	size_t		cap = 8192;
	size_t		len = 0;
	char	   *buf = check_alloc(malloc(cap));
	int			saved_errno;

	for (;;)
	{
		len += fread(buf + len, 1, cap - len - 1, fp);
		if (ferror(fp))
			break;
		if (feof(fp))
		{
			buf[len] = '\0';
			return buf;
		}
		if (len + 1 == cap)
		{
			cap *= 2;
			buf = check_alloc(realloc(buf, cap));
		}
	}
	saved_errno = errno;
	free(buf);
	errno = saved_errno;
	return NULL;
}

static bool
add_file(pgb_options *opts, const char *filename, int weight)
{
	bool		use_stdin = strcmp(filename, "-") == 0;
	FILE	   *fp = use_stdin ? stdin : fopen(filename, "r");
	char	   *text;
	bool		ok;

	if (fp == NULL)
	{
		diag_error("could not open file \"%s\": %s", filename, strerror(errno));
		return false;
	}
	text = read_stream(fp);
	if (text == NULL)
		diag_error("could not read file \"%s\": %s", filename, strerror(errno));
	if (!use_stdin)
		fclose(fp);
	if (text == NULL)
		return false;
	ok = compile_script(opts, filename, text, weight);
	free(text);
	return ok;
}

/* -b NAME[@W] and -f FILE[@W]. */
static bool
add_weighted_script(pgb_options *opts, const char *spec, bool is_file)
{
	char	   *name;
	int			weight;
	bool		ok;

	if (!parse_script_weight(spec, &name, &weight))
		return false;
	ok = is_file ? add_file(opts, name, weight) : add_builtin(opts, name, weight);
	free(name);
	return ok;
}

/* ---- individual options --------------------------------------------------- */

/*
 * Each client needs a socket, plus a few descriptors of our own.  Unlike
 * pgbench 15, raise the soft limit towards the hard one when that is
 * enough; refuse up front, with pgbench's message, only when it is not.
 */
static bool
check_file_limit(int nclients)
{
	struct rlimit limit;
	/* pgbench computes this in wrapping int arithmetic; so do we. */
	int			needed = (int) (unsigned int) ((unsigned int) nclients + 3u);

	if (getrlimit(RLIMIT_NOFILE, &limit) == -1)
	{
		diag_error("getrlimit failed: %s", strerror(errno));
		return false;
	}
	if (limit.rlim_cur >= (rlim_t) needed)
		return true;
	if (needed > 0 && (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= (rlim_t) needed))
	{
		struct rlimit raised = {.rlim_cur = (rlim_t) needed, .rlim_max = limit.rlim_max};

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			return true;
	}
	diag_error("need at least %d open files, but system limit is %ld",
			   needed, (long) limit.rlim_max);
	diag_hint("Reduce number of clients, or use limit/ulimit to increase the system limit.");
	return false;
}

static bool
parse_define(parse_state *st, char *arg)
{
	char	   *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg || eq[1] == '\0')
	{
		diag_error("invalid variable definition: \"%s\"", arg);
		return false;
	}
	if (!var_name_is_valid(arg, (size_t) (eq - arg)))
	{
		diag_error("option: invalid variable name: \"%.*s\"", (int) (eq - arg), arg);
		return false;
	}
	st->defines = check_alloc(realloc(st->defines,
									  sizeof(*st->defines) * (size_t) (st->ndefines + 1)));
	st->defines[st->ndefines].slot =
		var_symtab_intern(st->opts->scripts->symtab, arg, (size_t) (eq - arg));
	st->defines[st->ndefines].value = eq + 1;
	st->ndefines++;
	return true;
}

static bool
parse_init_steps(parse_state *st, const char *steps)
{
	if (steps[0] == '\0')
	{
		diag_error("no initialization steps specified");
		return false;
	}
	for (const char *p = steps; *p != '\0'; p++)
	{
		/* pgbench lets blanks through: they are skipped when steps run. */
		if (*p != ' ' && strchr(ALLOWED_INIT_STEPS, *p) == NULL)
		{
			diag_error("unrecognized initialization step \"%c\"", *p);
			diag_detail("Allowed step characters are: \"" ALLOWED_INIT_STEPS "\".");
			return false;
		}
	}
	free(st->init_steps);
	st->init_steps = check_alloc(strdup(steps));
	return true;
}

static bool
parse_query_mode(pgb_options *opts, const char *arg)
{
	for (int mode = 0; mode < (int) PGB_LENGTHOF(query_mode_names); mode++)
	{
		if (strcmp(arg, query_mode_names[mode]) == 0)
		{
			opts->query_mode = (query_mode) mode;
			return true;
		}
	}
	diag_error("invalid query mode (-M): \"%s\"", arg);
	return false;
}

static bool
parse_partition_method(pgb_options *opts, const char *arg)
{
	if (strcasecmp(arg, "range") == 0)
		opts->partition_method = PART_RANGE;
	else if (strcasecmp(arg, "hash") == 0)
		opts->partition_method = PART_HASH;
	else
	{
		diag_error("invalid partition method, expecting \"range\" or \"hash\", got: \"%s\"",
				   arg);
		return false;
	}
	return true;
}

/* -b NAME: "list" prints the builtins and ends the program successfully. */
static int
option_builtin(parse_state *st, const char *arg)
{
	if (strcmp(arg, "list") == 0)
	{
		list_builtin_scripts();
		return OPT_EXIT_OK;
	}
	st->benchmarking_option_set = true;
	return add_weighted_script(st->opts, arg, false) ? OPT_CONTINUE : OPT_EXIT_FAIL;
}

static int
option_show_script(const char *arg)
{
	const builtin_script *builtin = find_builtin_or_report(arg);

	if (builtin == NULL)
		return OPT_EXIT_FAIL;
	fprintf(stderr, "-- %s: %s\n%s\n", builtin->name, builtin->desc, builtin->script);
	return OPT_EXIT_OK;
}

/*
 * pgbench converts with a plain cast, which on x86-64 gives INT64_MIN for
 * NaN and out-of-range values ("-L nan"); make that result defined here.
 */
static int64_t
usec_from_msec(double msec)
{
	double		usec = msec * 1000;

	if (!(usec >= -9223372036854775808.0 && usec < 9223372036854775808.0))
		return INT64_MIN;
	return (int64_t) usec;
}

/*
 * Options read with atof, as pgbench does: a number prefix counts and
 * anything after it is ignored.
 */
static int
option_latency_limit(parse_state *st, const char *arg)
{
	double		limit_ms = atof(arg);

	if (limit_ms <= 0.0)
	{
		diag_error("invalid latency limit: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->benchmarking_option_set = true;
	st->opts->latency_limit_ms = limit_ms;
	st->opts->latency_limit_us = usec_from_msec(limit_ms);
	return OPT_CONTINUE;
}

static int
option_rate(parse_state *st, const char *arg)
{
	double		rate = atof(arg);

	st->benchmarking_option_set = true;
	if (rate <= 0.0)
	{
		diag_error("invalid rate limit: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->rate = rate;
	st->opts->throttle_delay_us = 1000000.0 / rate;
	return OPT_CONTINUE;
}

static int
option_sampling_rate(parse_state *st, const char *arg)
{
	double		rate = atof(arg);

	st->benchmarking_option_set = true;
	if (rate <= 0.0 || rate > 1.0)
	{
		diag_error("invalid sampling rate: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->sample_rate = rate;
	return OPT_CONTINUE;
}

static int
option_max_tries(parse_state *st, const char *arg)
{
	/* atoi semantics: garbage reads as 0, i.e. unlimited, as in pgbench. */
	int			tries = (int) strtol(arg, NULL, 10);

	if (tries < 0)
	{
		diag_error("invalid number of maximum tries: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->benchmarking_option_set = true;
	st->opts->max_tries = (uint32_t) tries;
	return OPT_CONTINUE;
}

/* Turn a helper's success flag into a parse status. */
static int
status_of(bool ok)
{
	return ok ? OPT_CONTINUE : OPT_EXIT_FAIL;
}

/* Options that select scripts or only set up the benchmark run. */
static int
handle_benchmark_option(parse_state *st, int code, char *arg)
{
	pgb_options *opts = st->opts;

	st->benchmarking_option_set = true;
	switch (code)
	{
		case 'c':
			return status_of(parse_int_option(arg, "-c/--client", 1, INT_MAX, &opts->nclients) &&
							 check_file_limit(opts->nclients));
		case 'C':
			opts->connect_each = true;
			break;
		case 'D':
			return status_of(parse_define(st, arg));
		case 'f':
			return status_of(add_weighted_script(opts, arg, true));
		case 'N':
			return status_of(add_builtin(opts, "simple-update", 1));
		case 'S':
			return status_of(add_builtin(opts, "select-only", 1));
		case 'j':
			return status_of(parse_int_option(arg, "-j/--jobs", 1, INT_MAX, &opts->nthreads));
		case 'l':
			opts->use_log = true;
			break;
		case 'M':
			return status_of(parse_query_mode(opts, arg));
		case 'P':
			return status_of(parse_int_option(arg, "-P/--progress", 1, INT_MAX, &opts->progress_sec));
		case 'r':
			opts->report_per_command = true;
			break;
		case 't':
			{
				int			nxacts;

				if (!parse_int_option(arg, "-t/--transactions", 1, INT_MAX, &nxacts))
					return OPT_EXIT_FAIL;
				opts->nxacts = nxacts;
				break;
			}
		case 'T':
			return status_of(parse_int_option(arg, "-T/--time", 1, INT_MAX, &opts->duration));
		case 'v':
			opts->vacuum_all = true;
			break;
		case OPT_AGGREGATE_INTERVAL:
			return status_of(parse_int_option(arg, "--aggregate-interval", 1, INT_MAX,
											  &opts->aggregate_interval));
		case OPT_PROGRESS_TIMESTAMP:
			opts->progress_timestamp = true;
			break;
		case OPT_LOG_PREFIX:
			opts->log_prefix = arg;
			st->log_prefix_given = true;
			break;
		case OPT_RANDOM_SEED:
			return status_of(set_seed(opts, arg, "--random-seed option"));
		case OPT_FAILURES_DETAILED:
			opts->failures_detailed = true;
			break;
		case OPT_VERBOSE_ERRORS:
			opts->verbose_errors = true;
			break;
		case OPT_EXIT_ON_ABORT:
			opts->exit_on_abort = true;
			break;
	}
	return OPT_CONTINUE;
}

/* Options that only make sense with -i. */
static int
handle_init_option(parse_state *st, int code, char *arg)
{
	pgb_options *opts = st->opts;

	st->initialization_option_set = true;
	switch (code)
	{
		case 'F':
			return status_of(parse_int_option(arg, "-F/--fillfactor", 10, 100, &opts->fillfactor));
		case 'I':
			return status_of(parse_init_steps(st, arg));
		case 'q':
			opts->quiet = true;
			break;
		case OPT_UNLOGGED_TABLES:
			opts->unlogged_tables = true;
			break;
		case OPT_TABLESPACE:
			opts->tablespace = arg;
			break;
		case OPT_INDEX_TABLESPACE:
			opts->index_tablespace = arg;
			break;
		case OPT_FOREIGN_KEYS:
			opts->foreign_keys = true;
			break;
		case OPT_PARTITIONS:
			return status_of(parse_int_option(arg, "--partitions", 0, INT_MAX, &opts->partitions));
		case OPT_PARTITION_METHOD:
			return status_of(parse_partition_method(opts, arg));
	}
	return OPT_CONTINUE;
}

/* One option from getopt_long; returns OPT_CONTINUE or an exit code. */
static int
handle_option(parse_state *st, int code, char *arg)
{
	pgb_options *opts = st->opts;

	switch (code)
	{
		case 'b':
			return option_builtin(st, arg);
		case 'd':
			opts->debug = true;
			diag_set_verbose(true);
			return OPT_CONTINUE;
		case 'h':
			opts->host = arg;
			return OPT_CONTINUE;
		case 'i':
			st->is_init_mode = true;
			return OPT_CONTINUE;
		case 'n':
			opts->no_vacuum = true;
			return OPT_CONTINUE;
		case 'p':
			opts->port = arg;
			return OPT_CONTINUE;
		case 's':
			opts->scale_given = true;
			return status_of(parse_int_option(arg, "-s/--scale", 1, INT_MAX, &opts->scale));
		case 'U':
			opts->username = arg;
			return OPT_CONTINUE;
		case 'L':
			return option_latency_limit(st, arg);
		case 'R':
			return option_rate(st, arg);
		case OPT_SAMPLING_RATE:
			return option_sampling_rate(st, arg);
		case OPT_MAX_TRIES:
			return option_max_tries(st, arg);
		case OPT_SHOW_SCRIPT:
			return option_show_script(arg);
		case 'F':
		case 'I':
		case 'q':
		case OPT_UNLOGGED_TABLES:
		case OPT_TABLESPACE:
		case OPT_INDEX_TABLESPACE:
		case OPT_FOREIGN_KEYS:
		case OPT_PARTITIONS:
		case OPT_PARTITION_METHOD:
			return handle_init_option(st, code, arg);
		case 'c':
		case 'C':
		case 'D':
		case 'f':
		case 'j':
		case 'l':
		case 'M':
		case 'N':
		case 'P':
		case 'r':
		case 'S':
		case 't':
		case 'T':
		case 'v':
		case OPT_AGGREGATE_INTERVAL:
		case OPT_PROGRESS_TIMESTAMP:
		case OPT_LOG_PREFIX:
		case OPT_RANDOM_SEED:
		case OPT_FAILURES_DETAILED:
		case OPT_VERBOSE_ERRORS:
		case OPT_EXIT_ON_ABORT:
			return handle_benchmark_option(st, code, arg);
		default:
			/* getopt_long has already said what was wrong. */
			diag_usage_hint();
			return OPT_EXIT_FAIL;
	}
}

/* ---- after the options ---------------------------------------------------- */

/* The database when none is named: PGDATABASE, else PGUSER, else our user. */
static bool
default_dbname(pgb_options *opts)
{
	const char *env = getenv("PGDATABASE");
	struct passwd *pw;
	uid_t		uid;

	if (env != NULL && env[0] != '\0')
	{
		opts->dbname = env;
		return true;
	}
	env = getenv("PGUSER");
	if (env != NULL && env[0] != '\0')
	{
		opts->dbname = env;
		return true;
	}
	uid = geteuid();
	errno = 0;
	pw = getpwuid(uid);
	if (pw == NULL)
	{
		diag_error("could not look up effective user ID %ld: %s", (long) uid,
				   errno ? strerror(errno) : "user does not exist");
		return false;
	}
	/* Static storage of getpwuid would be overwritten by later lookups. */
	opts->dbname_storage = check_alloc(strdup(pw->pw_name));
	opts->dbname = opts->dbname_storage;
	return true;
}

/* Initialization mode: its own checks, then the final list of steps. */
static int
finish_init_mode(parse_state *st)
{
	pgb_options *opts = st->opts;
	char	   *steps;

	if (st->benchmarking_option_set)
	{
		diag_error("some of the specified options cannot be used in initialization (-i) mode");
		return OPT_EXIT_FAIL;
	}
	if (opts->partitions == 0 && opts->partition_method != PART_NONE)
	{
		diag_error("--partition-method requires greater than zero --partitions");
		return OPT_EXIT_FAIL;
	}
	if (opts->partitions > 0 && opts->partition_method == PART_NONE)
		opts->partition_method = PART_RANGE;

	steps = st->init_steps ? st->init_steps : check_alloc(strdup(DEFAULT_INIT_STEPS));
	st->init_steps = NULL;
	/* Blank out rather than remove, as pgbench: blanks are skipped later. */
	if (opts->no_vacuum)
		for (char *p = steps; *p != '\0'; p++)
			if (*p == 'v')
				*p = ' ';
	if (opts->foreign_keys && strchr(steps, 'f') == NULL)
	{
		size_t		len = strlen(steps);

		steps = check_alloc(realloc(steps, len + 2));
		memcpy(steps + len, "f", 2);
	}
	opts->init_steps_storage = steps;
	opts->init_steps = steps;
	opts->action = ACTION_INIT;
	return OPT_CONTINUE;
}

/* Benchmark mode: pgbench's cross-option checks, in pgbench's order. */
static int
check_benchmark_options(parse_state *st)
{
	pgb_options *opts = st->opts;

	if (st->initialization_option_set)
		diag_error("some of the specified options cannot be used in benchmarking mode");
	else if (opts->nxacts > 0 && opts->duration > 0)
		diag_error("specify either a number of transactions (-t) or a duration (-T), not both");
	else if (opts->sample_rate > 0.0 && !opts->use_log)
		diag_error("log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
	else if (opts->sample_rate > 0.0 && opts->aggregate_interval > 0)
		diag_error("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
	else if (opts->aggregate_interval > 0 && !opts->use_log)
		diag_error("log aggregation is allowed only when actually logging transactions");
	else if (st->log_prefix_given && !opts->use_log)
		diag_error("log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
	else if (opts->duration > 0 && opts->aggregate_interval > opts->duration)
		diag_error("number of seconds for aggregation (%d) must not be higher than test duration (%d)",
				   opts->aggregate_interval, opts->duration);
	else if (opts->duration > 0 && opts->aggregate_interval > 0 &&
			 opts->duration % opts->aggregate_interval != 0)
		diag_error("duration (%d) must be a multiple of aggregation interval (%d)",
				   opts->duration, opts->aggregate_interval);
	else if (opts->progress_timestamp && opts->progress_sec == 0)
		diag_error("--progress-timestamp is allowed only under --progress");
	else if (opts->max_tries == 0 && opts->latency_limit_us == 0 && opts->duration <= 0)
		diag_error("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
	else
	{
		if (opts->nxacts <= 0 && opts->duration <= 0)
			opts->nxacts = DEFAULT_NXACTS;
		opts->action = ACTION_RUN;
		return OPT_CONTINUE;
	}
	return OPT_EXIT_FAIL;
}

/*
 * The variables pgbench itself sets in every client; naming them now lets
 * the -D store cover every slot the run will use.
 */
static const char *const automatic_variables[] = {
	"scale", "client_id", "random_seed", "default_seed",
};

static void
build_defines(parse_state *st)
{
	var_symtab *symtab = st->opts->scripts->symtab;

	for (size_t i = 0; i < PGB_LENGTHOF(automatic_variables); i++)
		var_symtab_intern(symtab, automatic_variables[i], strlen(automatic_variables[i]));
	var_store_init(&st->opts->defines, symtab);
	st->opts->defines_ready = true;
	for (int i = 0; i < st->ndefines; i++)
		var_set_string(&st->opts->defines, st->defines[i].slot,
					   st->defines[i].value, strlen(st->defines[i].value));
}

static int
finish_parsing(parse_state *st, int argc, char **argv)
{
	pgb_options *opts = st->opts;

	if (opts->scripts->nscripts == 0 && !st->is_init_mode)
	{
		if (!add_builtin(opts, "tpcb-like", 1))
			return OPT_EXIT_FAIL;
		st->benchmarking_option_set = true;
	}
	/* pgbench checks "$n" limits here, once -M is known, even with -i. */
	if (opts->query_mode != QUERY_SIMPLE)
	{
		script_error err;

		if (!script_set_check_params(opts->scripts, &err))
		{
			script_error_report(&err);
			script_error_clear(&err);
			return OPT_EXIT_FAIL;
		}
	}
	if (opts->scripts->total_weight == 0 && !st->is_init_mode)
	{
		diag_error("total script weight must not be zero");
		return OPT_EXIT_FAIL;
	}

	/* Extra threads would have no clients, and would skew the -R delay. */
	if (opts->nthreads > opts->nclients)
		opts->nthreads = opts->nclients;
	opts->throttle_delay_us *= opts->nthreads;

	if (optind < argc)
		opts->dbname = argv[optind++];
	else if (!default_dbname(opts))
		return OPT_EXIT_FAIL;
	if (optind < argc)
	{
		diag_error("too many command-line arguments (first is \"%s\")", argv[optind]);
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}

	build_defines(st);
	if (st->is_init_mode)
		return finish_init_mode(st);
	return check_benchmark_options(st);
}

/* ---- entry points --------------------------------------------------------- */

static void
set_defaults(pgb_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->action = ACTION_RUN;
	opts->fillfactor = 100;
	opts->partition_method = PART_NONE;
	opts->nclients = 1;
	opts->nthreads = 1;
	opts->query_mode = QUERY_SIMPLE;
	opts->scale = 1;
	opts->log_prefix = DEFAULT_LOG_PREFIX;
	opts->max_tries = 1;
	opts->scripts = script_set_create();
}

/* --help and --version are recognised only as the first argument. */
static bool
handle_first_argument(const char *progname, const char *arg)
{
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-?") == 0)
	{
		printf("%s is a benchmarking tool for PostgreSQL.\n\n", progname);
		printf("Usage:\n  %s [OPTION]... [DBNAME]\n", progname);
		fputs(help_body, stdout);
		return true;
	}
	if (strcmp(arg, "--version") == 0 || strcmp(arg, "-V") == 0)
	{
		puts("pgbench (PostgreSQL) " PGBENCH_VERSION);
		return true;
	}
	return false;
}

/* ---- our extensions: --percentiles[=LIST], --report-json=FILE ----------- */

/*
 * These are not in getopt's table on purpose: any new long option would
 * change what pgbench's abbreviations mean ("--report" is
 * --report-per-command) and the lists in getopt's "ambiguous" messages.
 * They are taken out of argv first, by their full names only.
 */
static const double default_percentiles[] = {50, 90, 99, 99.9};

static bool
parse_percentiles(pgb_options *opts, const char *list)
{
	const char *p = list;
	int			n = 0;

	for (;;)
	{
		char	   *end;
		double		value;

		errno = 0;
		value = strtod(p, &end);
		/* the comparisons also refuse NaN */
		if (end == p || errno != 0 || !(value >= 0.0 && value <= 100.0) ||
			n == PGB_MAX_PERCENTILES)
			break;
		opts->percentiles[n++] = value;
		if (*end == '\0')
		{
			opts->npercentiles = n;
			return true;
		}
		if (*end != ',')
			break;
		p = end + 1;
	}
	diag_error("invalid percentile list: \"%s\"", list);
	return false;
}

/*
 * If argv[*i] is one of our options, apply it (moving *i past a separate
 * value) and return 1; 0 when it is not ours; -1 after an error message.
 */
static int
take_extension(parse_state *st, int argc, char **argv, int *i)
{
	pgb_options *opts = st->opts;
	const char *arg = argv[*i];
	const char *file;

	if (strcmp(arg, "--percentiles") == 0)
	{
		memcpy(opts->percentiles, default_percentiles, sizeof(default_percentiles));
		opts->npercentiles = (int) PGB_LENGTHOF(default_percentiles);
	}
	else if (strncmp(arg, "--percentiles=", 14) == 0)
	{
		if (!parse_percentiles(opts, arg + 14))
			return -1;
	}
	else if (strcmp(arg, "--report-json") == 0 || strncmp(arg, "--report-json=", 14) == 0)
	{
		if (arg[13] == '=')
			file = arg + 14;
		else if (*i + 1 < argc)
			file = argv[++*i];
		else
		{
			/* worded as getopt words it for pgbench's own options */
			fprintf(stderr, "%s: option '--report-json' requires an argument\n", argv[0]);
			diag_usage_hint();
			return -1;
		}
		if (file[0] == '\0')
		{
			diag_error("invalid report file name: \"\"");
			return -1;
		}
		opts->report_json = file;
	}
	else
		return 0;
	st->benchmarking_option_set = true;
	return 1;
}

/* Whether the short option c takes an argument. */
static bool
short_takes_argument(char c)
{
	const char *p = c != ':' ? strchr(short_options, c) : NULL;

	return p != NULL && p[1] == ':';
}

/*
 * Whether "--name" (without "=") is a long option, by its full name or a
 * unique prefix, that takes the next element as its argument.
 */
static bool
long_takes_next(const char *name)
{
	size_t		len = strlen(name);
	const struct option *found = NULL;

	for (const struct option *o = long_options; o->name != NULL; o++)
	{
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o->has_arg == required_argument;
		if (found != NULL)
			return false;		/* ambiguous: getopt will say so */
		found = o;
	}
	return found != NULL && found->has_arg == required_argument;
}

/*
 * Copy argv without our extensions into st->argv_copy.  An element that
 * is the argument of a pgbench option (-f --percentiles) or comes after
 * "--" is never taken for one of ours.
 */
static int
strip_extensions(parse_state *st, int argc, char **argv)
{
	char	  **out = check_alloc(calloc((size_t) argc + 1, sizeof(char *)));
	int			n = 0;
	bool		literal = false;

	st->argv_copy = out;
	if (argc > 0)
		out[n++] = argv[0];
	for (int i = 1; i < argc; i++)
	{
		const char *arg = argv[i];

		if (!literal)
		{
			int			rc = take_extension(st, argc, argv, &i);

			if (rc < 0)
				return OPT_EXIT_FAIL;
			if (rc > 0)
				continue;
			if (strcmp(arg, "--") == 0)
				literal = true;
			else if (strncmp(arg, "--", 2) == 0)
			{
				if (strchr(arg, '=') == NULL && long_takes_next(arg + 2) && i + 1 < argc)
					out[n++] = argv[i++];
			}
			else if (arg[0] == '-' && arg[1] != '\0')
			{
				for (const char *c = arg + 1; *c != '\0'; c++)
				{
					if (!short_takes_argument(*c))
						continue;
					if (c[1] == '\0' && i + 1 < argc)
						out[n++] = argv[i++];
					break;
				}
			}
		}
		out[n++] = argv[i];
	}
	st->argc_copy = n;
	return OPT_CONTINUE;
}

static int
parse_arguments(parse_state *st, int argc, char **argv)
{
	int			code;
	int			status;

	if (argc > 1 && handle_first_argument(st->progname, argv[1]))
		return OPT_EXIT_OK;

	/* pgbench seeds from the environment before reading any option. */
	if (!set_seed(st->opts, getenv("PGBENCH_RANDOM_SEED"),
				  "PGBENCH_RANDOM_SEED environment variable"))
		return OPT_EXIT_FAIL;

	if (strip_extensions(st, argc, argv) != OPT_CONTINUE)
		return OPT_EXIT_FAIL;
	argc = st->argc_copy;
	argv = st->argv_copy;

	optind = 0;					/* glibc: a full reset, should we run twice */
	while ((code = getopt_long(argc, argv, short_options, long_options, NULL)) != -1)
	{
		status = handle_option(st, code, optarg);
		if (status != OPT_CONTINUE)
			return status;
	}
	return finish_parsing(st, argc, argv);
}

int
options_parse(pgb_options *opts, int argc, char **argv)
{
	parse_state st;
	const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int			status;

	set_defaults(opts);
	memset(&st, 0, sizeof(st));
	st.opts = opts;
	st.progname = argc > 0 ? (slash ? slash + 1 : argv[0]) : "pgbench";

	status = parse_arguments(&st, argc, argv);

	free(st.init_steps);
	free(st.defines);
	free(st.argv_copy);
	if (status != OPT_CONTINUE)
	{
		options_free(opts);
		opts->action = ACTION_EXIT_OK;	/* nothing left to run either way */
	}
	return status;
}

void
options_free(pgb_options *opts)
{
	if (opts->defines_ready)
		var_store_free(&opts->defines);
	opts->defines_ready = false;
	if (opts->scripts != NULL)
		script_set_free(opts->scripts);
	opts->scripts = NULL;
	free(opts->init_steps_storage);
	opts->init_steps_storage = NULL;
	opts->init_steps = NULL;
	free(opts->dbname_storage);
	opts->dbname_storage = NULL;
}
