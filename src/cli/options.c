/*
 * options.c — the command line: reads argv (and the few environment
 * variables pgbench reads itself) into a pgb_options through the options
 * table (options_table.c), then applies pgbench's cross-option checks.
 * Scripts and -D variables are loaded as their options come.
 *
 * Every message, its wording and the order in which problems are reported
 * follow pgbench exactly: users' scripts grep these lines and exit codes.
 * Nothing here exits: options_parse returns the exit code to main.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/cli/options_table.h"
#include "pgbench/base/xalloc.h"

/* ---- getopt_long's arrays, from the table ---------------------------------- */

/* Whether def is one of getopt_long's options in mode compat. */
static bool
is_getopt_row(const opt_def *def, int compat)
{
	return def->kind == OPT_ROW_GETOPT && options_row_in_compat(def, compat);
}

void
options_getopt_build(options_getopt *g, int compat)
{
	size_t		nshort = 0;

	g->nlong = 0;
	g->compat = compat;
	for (int i = 0; i < options_table_size; i++)
		if (is_getopt_row(&options_table[i], compat))
			g->nlong++;
	g->short_options = pgb_malloc(3 * (size_t) g->nlong + 1);
	g->long_options = pgb_calloc((size_t) g->nlong + 1, sizeof(struct option));
	for (int i = 0; i < options_table_size; i++)
	{
		const opt_def *def = &options_table[i];
		struct option *lo;

		if (!is_getopt_row(def, compat))
			continue;
		if (def->short_name != 0)
		{
			g->short_options[nshort++] = def->short_name;
			if (def->arg != OPT_ARG_NONE)
				g->short_options[nshort++] = ':';
			if (def->arg == OPT_ARG_OPTIONAL)
				g->short_options[nshort++] = ':';
		}
		/* a rank out of 1..nlong would be a table bug: the unit test checks */
		if (def->getopt_rank < 1 || def->getopt_rank > g->nlong)
			continue;
		lo = &g->long_options[def->getopt_rank - 1];
		lo->name = def->long_name;
		lo->has_arg = (int) def->arg;
		lo->flag = NULL;
		lo->val = def->short_name != 0 ? def->short_name : OPT_CODE_BASE + i;
	}
	g->short_options[nshort] = '\0';
}

void
options_getopt_free(options_getopt *g)
{
	free(g->short_options);
	free(g->long_options);
	g->short_options = NULL;
	g->long_options = NULL;
	g->nlong = 0;
}

const opt_def *
options_getopt_lookup(const options_getopt *g, int code)
{
	if (code >= OPT_CODE_BASE && code - OPT_CODE_BASE < options_table_size)
	{
		const opt_def *def = &options_table[code - OPT_CODE_BASE];

		return is_getopt_row(def, g->compat) ? def : NULL;
	}
	for (int i = 0; i < options_table_size; i++)
		if (is_getopt_row(&options_table[i], g->compat) && options_table[i].short_name != 0 &&
			options_table[i].short_name == code)
			return &options_table[i];
	return NULL;
}

/* ---- before getopt: the first argument and our extensions ------------------ */

/*
 * --help, -?, --version, -V: recognised only as the first argument (after
 * any --compat), exactly.
 */
static const opt_def *
first_argument_option(const char *arg)
{
	for (int i = 0; i < options_table_size; i++)
	{
		const opt_def *def = &options_table[i];

		if (def->kind != OPT_ROW_FIRST)
			continue;
		if ((arg[0] == '-' && def->short_name != 0 && arg[1] == def->short_name &&
			 arg[2] == '\0') ||
			(strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, def->long_name) == 0))
			return def;
	}
	return NULL;
}

/* getopt's words for a misused long option, then pgbench's hint. */
static int
report_getopt_style(const char *argv0, const char *name, const char *problem)
{
	fprintf(stderr, "%s: option '--%s' %s\n", argv0, name, problem);
	diag_usage_hint();
	return OPT_EXIT_FAIL;
}

/*
 * If argv[*i] is one of our extensions by its full name ("--name",
 * "--name=VALUE", or "--name VALUE" for a required argument, or for an
 * optional one when VALUE begins with a digit or '.'), apply it,
 * moving *i past a separate value.  *taken tells whether it was ours;
 * returns OPT_CONTINUE or an exit code.
 */
static int
take_extension(opt_parse *st, int argc, char **argv, int *i, bool *taken)
{
	const char *arg = argv[*i];

	*taken = false;
	if (strncmp(arg, "--", 2) != 0)
		return OPT_CONTINUE;
	for (int r = 0; r < options_table_size; r++)
	{
		const opt_def *def = &options_table[r];
		size_t		len;
		const char *value = NULL;

		if (def->kind != OPT_ROW_OURS || !options_row_in_compat(def, st->opts->compat))
			continue;
		len = strlen(def->long_name);
		if (strncmp(arg + 2, def->long_name, len) != 0 ||
			(arg[2 + len] != '\0' && arg[2 + len] != '='))
			continue;
		*taken = true;
		if (arg[2 + len] == '=')
		{
			if (def->arg == OPT_ARG_NONE)
				return report_getopt_style(argv[0], def->long_name,
										   "doesn't allow an argument");
			value = arg + 3 + len;
		}
		else if (def->arg == OPT_ARG_REQUIRED)
		{
			if (*i + 1 >= argc)
				return report_getopt_style(argv[0], def->long_name,
										   "requires an argument");
			value = argv[++*i];
		}
		else if (def->arg == OPT_ARG_OPTIONAL && *i + 1 < argc &&
				 (isdigit((unsigned char) argv[*i + 1][0]) || argv[*i + 1][0] == '.'))
			value = argv[++*i]; /* "--percentiles 99": a number is its value */
		return options_apply(st, def, value);
	}
	return OPT_CONTINUE;
}

/* Whether the short option c takes an argument. */
static bool
short_takes_argument(const options_getopt *g, char c)
{
	const char *p = c != ':' ? strchr(g->short_options, c) : NULL;

	return p != NULL && p[1] == ':' && p[2] != ':';
}

/*
 * Whether "--name" (without "=") is a long option, by its full name or a
 * unique prefix, that takes the next element as its argument.
 */
static bool
long_takes_next(const options_getopt *g, const char *name)
{
	size_t		len = strlen(name);
	const struct option *found = NULL;

	for (const struct option *o = g->long_options; o->name != NULL; o++)
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

/* How many elements after argv[i] are a pgbench option's separate argument. */
static int
separate_arguments(const options_getopt *g, int argc, char **argv, int i)
{
	const char *arg = argv[i];

	if (i + 1 >= argc)
		return 0;
	if (strncmp(arg, "--", 2) == 0)
		return strchr(arg, '=') == NULL && long_takes_next(g, arg + 2) ? 1 : 0;
	if (arg[0] != '-' || arg[1] == '\0')
		return 0;
	for (const char *c = arg + 1; *c != '\0'; c++)
		if (short_takes_argument(g, *c))
			return c[1] == '\0' ? 1 : 0;
	return 0;
}

/*
 * Copy argv without our extensions into st->argv_copy, applying them as
 * they come: they stay out of getopt's array, so that pgbench's
 * abbreviations ("--report" is --report-per-command) and getopt's
 * "ambiguous" lists stay pgbench's.  An element that is the argument of
 * a pgbench option (-f --percentiles) or comes after "--" is never taken
 * for one of ours.
 */
static int
strip_extensions(opt_parse *st, int argc, char **argv)
{
	char	  **out = pgb_calloc((size_t) argc + 1, sizeof(char *));
	int			n = 0;
	bool		literal = false;

	st->argv_copy = out;
	if (argc > 0)
		out[n++] = argv[0];
	for (int i = 1; i < argc; i++)
	{
		if (!literal)
		{
			bool		taken;
			int			status = take_extension(st, argc, argv, &i, &taken);

			if (status != OPT_CONTINUE)
				return status;
			if (taken)
				continue;
			if (strcmp(argv[i], "--") == 0)
				literal = true;
			else if (separate_arguments(&st->getopt, argc, argv, i) > 0)
				out[n++] = argv[i++];
		}
		out[n++] = argv[i];
	}
	st->argc_copy = n;
	return OPT_CONTINUE;
}

/* ---- after the options ------------------------------------------------------ */

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
	opts->dbname_storage = pgb_strdup(pw->pw_name);
	opts->dbname = opts->dbname_storage;
	return true;
}

/* Initialization mode: its own checks, then the final list of steps. */
static int
finish_init_mode(opt_parse *st)
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

	steps = st->init_steps ? st->init_steps : pgb_strdup(DEFAULT_INIT_STEPS);
	st->init_steps = NULL;
	/* Blank out rather than remove, as pgbench: blanks are skipped later. */
	if (opts->no_vacuum)
		for (char *p = steps; *p != '\0'; p++)
			if (*p == 'v')
				*p = ' ';
	if (opts->foreign_keys && strchr(steps, 'f') == NULL)
	{
		size_t		len = strlen(steps);

		steps = pgb_realloc(steps, len + 2);
		memcpy(steps + len, "f", 2);
	}
	opts->init_steps_storage = steps;
	opts->init_steps = steps;
	opts->action = ACTION_INIT;
	return OPT_CONTINUE;
}

/*
 * --stages: the run lasts their sum; the clients form connects as many
 * clients as the largest target (more when -c says so), the rate form
 * starts at the first stage's rate (the engine follows the plan).
 */
static void
apply_stages(pgb_options *opts)
{
	int			seconds = 0;

	for (int i = 0; i < opts->nstages; i++)
	{
		seconds += opts->stages[i].seconds;
		if (!opts->stages_rate && opts->stages[i].target > opts->nclients)
			opts->nclients = (int) opts->stages[i].target;
	}
	opts->duration = seconds;
	if (opts->stages_rate)
		opts->rate = opts->stages[0].target;
}

/* Benchmark mode: pgbench's cross-option checks, in pgbench's order. */
static int
check_benchmark_options(opt_parse *st)
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
	else if (opts->warmup > 0 && opts->duration <= 0)
		diag_error("--warmup needs a duration (-T): the warm-up is time before it");
	else if (opts->warmup > INT_MAX - opts->duration)
		diag_error("--warmup and -T make more than %d seconds", INT_MAX);
	else if (opts->nstages > 0 && (opts->duration > 0 || opts->nxacts > 0))
		diag_error("--stages sets the run's duration: it cannot be used with -T or -t");
	else if (opts->nstages > 0 && (opts->warmup > 0 || opts->sweep.param != SWEEP_NONE))
		diag_error("--stages cannot be used with --warmup or --sweep");
	else if (opts->nstages > 0 && opts->stages_rate && opts->rate > 0)
		diag_error("--stages with rates sets -R: it cannot be given too");
	else if (opts->sweep.param != SWEEP_NONE && opts->duration <= 0)
		diag_error("--sweep needs a duration (-T): each step runs for it");
	else if (opts->sweep.param == SWEEP_NONE &&
			 (opts->sweep.slo_ms > 0 || opts->sweep.stop_on != SWEEP_STOP_NONE))
		diag_error("--sweep-slo and --sweep-stop-on need --sweep");
	else if (opts->sweep.stop_on == SWEEP_STOP_SLO && !(opts->sweep.slo_ms > 0))
		diag_error("--sweep-stop-on=slo needs --sweep-slo");
	else if (opts->sweep.param != SWEEP_NONE && opts->report_json != NULL &&
			 strcmp(opts->report_json, "-") == 0)
		diag_error("--sweep writes its report to a file: --report-json=- is not supported");
	else
	{
		if (opts->nstages > 0)
			apply_stages(opts);
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
build_defines(opt_parse *st)
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

/* The default script, then the checks pgbench makes on the script set. */
static int
finish_scripts(opt_parse *st)
{
	pgb_options *opts = st->opts;

	if (opts->scripts->nscripts == 0 && !st->is_init_mode)
	{
		if (!options_add_builtin(opts, "tpcb-like", 1))
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
	return OPT_CONTINUE;
}

/* The arguments left, report files of action (--merge-reports, --compare). */
static int
take_files(pgb_options *opts, int argc, char **argv, run_action action)
{
	opts->nmerge_files = argc - optind;
	opts->merge_files = pgb_calloc((size_t) opts->nmerge_files, sizeof(char *));
	for (int i = 0; i < opts->nmerge_files; i++)
		opts->merge_files[i] = argv[optind + i];
	opts->action = action;
	return OPT_CONTINUE;
}

/* --merge-reports: every argument is a report file (merge.h). */
static int
finish_merge(pgb_options *opts, int argc, char **argv)
{
	if (optind >= argc)
	{
		diag_error("no report files given to --merge-reports");
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}
	return take_files(opts, argc, argv, ACTION_MERGE);
}

/*
 * Whether every --threshold bounds a change (--compare) or none does
 * (a run, --merge-reports); the error printed when not.
 */
static bool
thresholds_fit(const pgb_options *opts, bool compare)
{
	for (int i = 0; i < opts->nthresholds; i++)
		if (opts->thresholds[i].change != compare)
		{
			if (compare)
				diag_error("with --compare, a threshold bounds a change (%s.change): \"%s\"",
						   opts->thresholds[i].name, opts->thresholds[i].text);
			else
				diag_error("a threshold on a change is only for --compare: \"%s\"",
						   opts->thresholds[i].text);
			diag_usage_hint();
			return false;
		}
	return true;
}

/* --compare: BASE and at least one NEW, each a report or reports joined by commas (compare.h). */
static int
finish_compare(pgb_options *opts, int argc, char **argv)
{
	if (opts->merge_reports || opts->merge_partial)
	{
		diag_error("--compare cannot be used with --merge-reports or --merge-partial");
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}
	if (argc - optind < 2)
	{
		diag_error("--compare needs two reports or more (BASE NEW...)");
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}
	if (!thresholds_fit(opts, true))
		return OPT_EXIT_FAIL;
	return take_files(opts, argc, argv, ACTION_COMPARE);
}

static int
finish_parsing(opt_parse *st, int argc, char **argv)
{
	pgb_options *opts = st->opts;
	int			status;

	if (opts->compare_per_instance && !opts->compare)
	{
		diag_error("--compare-per-instance is only for --compare");
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}
	if (opts->compare)
		return finish_compare(opts, argc, argv);
	if (opts->list_reports)
	{
		if (optind >= argc || opts->merge_reports)
		{
			diag_error(optind >= argc ? "no directory given to --list-reports"
					   : "--list-reports cannot be used with --merge-reports");
			diag_usage_hint();
			return OPT_EXIT_FAIL;
		}
		return take_files(opts, argc, argv, ACTION_LIST);
	}
	if (!thresholds_fit(opts, false))
		return OPT_EXIT_FAIL;
	if (opts->merge_reports)
		return finish_merge(opts, argc, argv);
	if (opts->merge_partial)
	{
		diag_error("--merge-partial is only for --merge-reports");
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}
	status = finish_scripts(st);
	if (status != OPT_CONTINUE)
		return status;

	/* Extra threads would have no clients (with -i, -j counts connections). */
	if (!st->is_init_mode && opts->nthreads > opts->nclients)
		opts->nthreads = opts->nclients;

	/* -d/--dbname (17+) wins: a DBNAME argument is then one too many */
	if (!st->dbname_given && optind < argc)
	{
		opts->dbname = argv[optind++];
		options_show_dbname(opts, opts->dbname);
	}
	else if (!st->dbname_given && !default_dbname(opts))
		return OPT_EXIT_FAIL;
	if (optind < argc)
	{
		/* it may be a connection string meant for libpq: masked the same way */
		char	   *shown = options_shown_dbname(argv[optind]);

		diag_error("too many command-line arguments (first is \"%s\")", shown);
		free(shown);
		diag_usage_hint();
		return OPT_EXIT_FAIL;
	}

	build_defines(st);
	if (st->is_init_mode)
		return finish_init_mode(st);
	return check_benchmark_options(st);
}

/* ---- entry points ------------------------------------------------------------ */

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
	opts->rendezvous_timeout = 60;
	opts->server_stats = true;
	opts->server_sample_ms = 100;
}

/*
 * The compatibility mode, before any other option: PGBENCH_COMPAT, then
 * the last --compat=MAJOR or --compat MAJOR before "--" (applied again,
 * to the same effect, when the extensions are taken out of argv).
 */
static int
read_compat(opt_parse *st, int argc, char **argv)
{
	const char *env = getenv("PGBENCH_COMPAT");
	int			status = OPT_CONTINUE;

	st->opts->compat = PGBENCH_COMPAT_DEFAULT;
	if (env != NULL && env[0] != '\0')
		status = options_set_compat(st->opts, env, "PGBENCH_COMPAT environment variable");
	for (int i = 1; i < argc && status == OPT_CONTINUE; i++)
	{
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strncmp(argv[i], "--compat=", 9) == 0)
			status = options_set_compat(st->opts, argv[i] + 9, "--compat");
		else if (strcmp(argv[i], "--compat") == 0 && i + 1 < argc)
			status = options_set_compat(st->opts, argv[++i], "--compat");
	}
	return status;
}

/*
 * The first argument, --help or -V, may follow --compat=MAJOR or
 * --compat MAJOR ("--compat=19 --help"): the first element that is not
 * one of those, or NULL when it is not a first-argument option.
 */
static const opt_def *
first_after_compat(int argc, char **argv)
{
	int			i = 1;

	while (i < argc)
	{
		if (strncmp(argv[i], "--compat=", 9) == 0)
			i++;
		else if (strcmp(argv[i], "--compat") == 0 && i + 1 < argc)
			i += 2;
		else
			return first_argument_option(argv[i]);
	}
	return NULL;
}

static int
parse_arguments(opt_parse *st, int argc, char **argv)
{
	const opt_def *first = first_after_compat(argc, argv);
	int			code;
	int			status;

	/* the mode decides what the other options mean: read it first */
	status = read_compat(st, argc, argv);
	if (status != OPT_CONTINUE)
		return status;
	if (first != NULL)
		return options_apply(st, first, NULL);

	/* pgbench seeds from the environment before reading any option. */
	if (!options_set_seed(st->opts, getenv("PGBENCH_RANDOM_SEED"),
						  "PGBENCH_RANDOM_SEED environment variable"))
		return OPT_EXIT_FAIL;

	options_getopt_build(&st->getopt, st->opts->compat);
	status = strip_extensions(st, argc, argv);
	if (status != OPT_CONTINUE)
		return status;
	argc = st->argc_copy;
	argv = st->argv_copy;

	optind = 0;					/* glibc: a full reset, should we run twice */
	while ((code = getopt_long(argc, argv, st->getopt.short_options,
							   st->getopt.long_options, NULL)) != -1)
	{
		const opt_def *def = options_getopt_lookup(&st->getopt, code);

		if (def == NULL)
		{
			/* getopt_long has already said what was wrong. */
			diag_usage_hint();
			return OPT_EXIT_FAIL;
		}
		status = options_apply(st, def, optarg);
		if (status != OPT_CONTINUE)
			return status;
	}
	return finish_parsing(st, argc, argv);
}

int
options_parse(pgb_options *opts, int argc, char **argv)
{
	opt_parse	st;
	const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int			status;

	set_defaults(opts);
	opts->argc = argc;
	opts->argv = argv;
	opts->argv_shown = pgb_calloc((size_t) argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
		opts->argv_shown[i] = pgb_strdup(argv[i]);
	memset(&st, 0, sizeof(st));
	st.opts = opts;
	st.progname = argc > 0 ? (slash ? slash + 1 : argv[0]) : "pgbench";

	status = parse_arguments(&st, argc, argv);
	if (status == OPT_SHOW_HELP || status == OPT_SHOW_VERSION)
	{
		if (status == OPT_SHOW_HELP)
			options_print_help(st.progname, opts->compat);
		else
			options_print_version(opts->compat);
		status = OPT_EXIT_OK;
	}

	free(st.init_steps);
	free(st.defines);
	free(st.argv_copy);
	options_getopt_free(&st.getopt);
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
	free(opts->rendezvous_storage);
	opts->rendezvous_storage = NULL;
	opts->rendezvous_name = NULL;
	free(opts->merge_files);
	opts->merge_files = NULL;
	free(opts->thresholds);
	opts->thresholds = NULL;
	for (int i = 0; i < opts->nlabels; i++)
		free((char *) opts->labels[i].key);
	free(opts->labels);
	opts->labels = NULL;
	opts->nlabels = 0;
	opts->nthresholds = 0;
	for (int i = 0; opts->argv_shown != NULL && i < opts->argc; i++)
		free(opts->argv_shown[i]);
	free(opts->argv_shown);
	opts->argv_shown = NULL;
}
