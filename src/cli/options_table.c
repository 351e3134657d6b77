/*
 * options_table.c — the one table of command-line options and what each
 * option does: its --help line, its getopt form, the field it sets and
 * its handler, all with pgbench's messages.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "pgbench/conn/conninfo_mask.h"
#include "pgbench/base/diag.h"
#include "pgbench/cli/options_table.h"
#include "pgbench/fleet/rendezvous.h"
#include "pgbench/report/metrics.h"
#include "pgbench/base/xalloc.h"

/* ---- integers and the generic setters ------------------------------------ */

/*
 * An int in [min, max]: leading blanks and a sign as strtol takes them,
 * trailing blanks allowed, anything else trailing rejected.  The messages
 * name the option as "-c/--client", or "--partitions" without a letter.
 * A value without a digit ("-c ''") is 0 for pgbench's options, as
 * pgbench reads it; ours refuse it as invalid ("--warmup=" is no 0).
 */
static bool
parse_int_arg(const opt_def *def, const char *text, int min, int max, int *result)
{
	char		optname[64];
	char	   *end;
	long		value;
	bool		out_of_int,
				no_digit;

	if (def->error_name != NULL)
		snprintf(optname, sizeof(optname), "%s", def->error_name);
	else if (def->short_name != 0)
		snprintf(optname, sizeof(optname), "-%c/--%s", def->short_name, def->long_name);
	else
		snprintf(optname, sizeof(optname), "--%s", def->long_name);
	errno = 0;
	value = strtol(text, &end, 10);
	out_of_int = errno == ERANGE || value < INT_MIN || value > INT_MAX;
	no_digit = end == text;
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (*end != '\0' || (no_digit && def->kind == OPT_ROW_OURS))
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

/* Set def's opt_set field from arg; false after a message. */
static bool
set_field(pgb_options *opts, const opt_def *def, const char *arg)
{
	char	   *field = (char *) opts + def->set.offset;

	switch (def->set.kind)
	{
		case OPT_SET_NOTHING:
			break;
		case OPT_SET_BOOL:
			*(bool *) field = true;
			break;
		case OPT_SET_INT:
			return parse_int_arg(def, arg, def->set.min, def->set.max, (int *) field);
		case OPT_SET_STRING:
			*(const char **) field = arg;
			break;
	}
	return true;
}

int
options_apply(opt_parse *st, const opt_def *def, const char *arg)
{
	if (def->mode == OPT_MODE_INIT)
		st->initialization_option_set = true;
	else if (def->mode == OPT_MODE_BENCH)
		st->benchmarking_option_set = true;
	if (!set_field(st->opts, def, arg))
		return OPT_EXIT_FAIL;
	return def->handler != NULL ? def->handler(st, def, arg) : OPT_CONTINUE;
}

/* Turn a helper's success flag into a parse status. */
static int
status_of(bool ok)
{
	return ok ? OPT_CONTINUE : OPT_EXIT_FAIL;
}

/* ---- random seed ---------------------------------------------------------- */

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

bool
options_set_seed(pgb_options *opts, const char *text, const char *origin)
{
	char		errbuf[512];

	if (!random_seed_set(&opts->seed, text, errbuf, sizeof(errbuf)))
	{
		report_multiline_error(errbuf);
		diag_error("error while setting random seed from %s", origin);
		return false;
	}
	/* pgbench announces an explicit seed at info level, shown without -d. */
	if (text != NULL)
		diag_info("setting random seed to %" PRIu64, opts->seed.seed);
	return true;
}

/* ---- handlers: common and initialization options ------------------------- */

static int
show_help(opt_parse *st, const opt_def *def, const char *arg)
{
	return OPT_SHOW_HELP;
}

static int
show_version(opt_parse *st, const opt_def *def, const char *arg)
{
	return OPT_SHOW_VERSION;
}

static int
handle_debug(opt_parse *st, const opt_def *def, const char *arg)
{
	diag_set_verbose(true);
	return OPT_CONTINUE;
}

/* -d/--dbname (17+): the database, as the DBNAME argument would name it. */
static int
handle_dbname(opt_parse *st, const opt_def *def, const char *arg)
{
	st->opts->dbname = arg;
	st->dbname_given = true;
	options_show_dbname(st->opts, arg);
	return OPT_CONTINUE;
}

static int
handle_initialize(opt_parse *st, const opt_def *def, const char *arg)
{
	st->is_init_mode = true;
	return OPT_CONTINUE;
}

static int
handle_scale(opt_parse *st, const opt_def *def, const char *arg)
{
	st->opts->scale_given = true;
	return OPT_CONTINUE;
}

static int
handle_init_steps(opt_parse *st, const opt_def *def, const char *steps)
{
	if (steps[0] == '\0')
	{
		diag_error("no initialization steps specified");
		return OPT_EXIT_FAIL;
	}
	for (const char *p = steps; *p != '\0'; p++)
	{
		/* pgbench lets blanks through: they are skipped when steps run. */
		if (*p != ' ' && strchr(ALLOWED_INIT_STEPS, *p) == NULL)
		{
			diag_error("unrecognized initialization step \"%c\"", *p);
			diag_detail("Allowed step characters are: \"" ALLOWED_INIT_STEPS "\".");
			return OPT_EXIT_FAIL;
		}
	}
	free(st->init_steps);
	st->init_steps = pgb_strdup(steps);
	return OPT_CONTINUE;
}

static int
handle_partition_method(opt_parse *st, const opt_def *def, const char *arg)
{
	if (strcasecmp(arg, "range") == 0)
		st->opts->partition_method = PART_RANGE;
	else if (strcasecmp(arg, "hash") == 0)
		st->opts->partition_method = PART_HASH;
	else
	{
		diag_error("invalid partition method, expecting \"range\" or \"hash\", got: \"%s\"",
				   arg);
		return OPT_EXIT_FAIL;
	}
	return OPT_CONTINUE;
}

/* ---- handlers: what to run ----------------------------------------------- */

/* -b NAME: "list" prints the builtins and ends the program successfully. */
static int
handle_builtin(opt_parse *st, const opt_def *def, const char *arg)
{
	if (strcmp(arg, "list") == 0)
	{
		options_list_builtins();
		return OPT_EXIT_OK;
	}
	return status_of(options_add_weighted_script(st->opts, arg, false));
}

static int
handle_file(opt_parse *st, const opt_def *def, const char *arg)
{
	return status_of(options_add_weighted_script(st->opts, arg, true));
}

static int
handle_skip_some_updates(opt_parse *st, const opt_def *def, const char *arg)
{
	return status_of(options_add_builtin(st->opts, "simple-update", 1));
}

static int
handle_select_only(opt_parse *st, const opt_def *def, const char *arg)
{
	return status_of(options_add_builtin(st->opts, "select-only", 1));
}

static int
handle_show_script(opt_parse *st, const opt_def *def, const char *arg)
{
	const builtin_script *builtin = options_find_builtin(arg);

	if (builtin == NULL)
		return OPT_EXIT_FAIL;
	fprintf(stderr, "-- %s: %s\n%s\n", builtin->name, builtin->desc, builtin->script);
	return OPT_EXIT_OK;
}

/* ---- handlers: benchmarking options --------------------------------------- */

/*
 * After -c: each client needs a socket, plus a few descriptors of our own.
 * Unlike pgbench 15, raise the soft limit towards the hard one when that
 * is enough; refuse up front, with pgbench's message, only when it is not.
 */
static int
check_file_limit(opt_parse *st, const opt_def *def, const char *arg)
{
	struct rlimit limit;
	/* pgbench computes this in wrapping int arithmetic; so do we. */
	int			needed = (int) (unsigned int) ((unsigned int) st->opts->nclients + 3u);

	if (getrlimit(RLIMIT_NOFILE, &limit) == -1)
	{
		diag_error("getrlimit failed: %s", strerror(errno));
		return OPT_EXIT_FAIL;
	}
	if (limit.rlim_cur >= (rlim_t) needed)
		return OPT_CONTINUE;
	if (needed > 0 && (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= (rlim_t) needed))
	{
		struct rlimit raised = {.rlim_cur = (rlim_t) needed, .rlim_max = limit.rlim_max};

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			return OPT_CONTINUE;
	}
	diag_error("need at least %d open files, but system limit is %ld",
			   needed, (long) limit.rlim_max);
	diag_hint("Reduce number of clients, or use limit/ulimit to increase the system limit.");
	return OPT_EXIT_FAIL;
}

static int
handle_define(opt_parse *st, const opt_def *def, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg || eq[1] == '\0')
	{
		diag_error("invalid variable definition: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	if (!var_name_is_valid(arg, (size_t) (eq - arg)))
	{
		diag_error("option: invalid variable name: \"%.*s\"", (int) (eq - arg), arg);
		return OPT_EXIT_FAIL;
	}
	st->defines = pgb_realloc(st->defines, sizeof(*st->defines) * (size_t) (st->ndefines + 1));
	st->defines[st->ndefines].slot =
		var_symtab_intern(st->opts->scripts->symtab, arg, (size_t) (eq - arg));
	st->defines[st->ndefines].value = eq + 1;
	st->ndefines++;
	return OPT_CONTINUE;
}

static const char *const query_mode_names[] = {
	[QUERY_SIMPLE] = "simple",
	[QUERY_EXTENDED] = "extended",
	[QUERY_PREPARED] = "prepared",
};

static int
handle_protocol(opt_parse *st, const opt_def *def, const char *arg)
{
	for (int mode = 0; mode < (int) PGB_LENGTHOF(query_mode_names); mode++)
	{
		if (strcmp(arg, query_mode_names[mode]) == 0)
		{
			st->opts->query_mode = (query_mode) mode;
			return OPT_CONTINUE;
		}
	}
	diag_error("invalid query mode (-M): \"%s\"", arg);
	return OPT_EXIT_FAIL;
}

/* -t NUM into the 64-bit transaction count. */
static int
handle_transactions(opt_parse *st, const opt_def *def, const char *arg)
{
	int			nxacts;

	if (!parse_int_arg(def, arg, 1, INT_MAX, &nxacts))
		return OPT_EXIT_FAIL;
	st->opts->nxacts = nxacts;
	return OPT_CONTINUE;
}

/*
 * -L, -R and --sampling-rate are read with atof, as pgbench does: a
 * number prefix counts and anything after it is ignored.
 */
static int
handle_latency_limit(opt_parse *st, const opt_def *def, const char *arg)
{
	double		limit_ms = atof(arg);

	if (limit_ms <= 0.0)
	{
		diag_error("invalid latency limit: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->latency_limit_ms = limit_ms;
	st->opts->latency_limit_us = pgb_usec_from_msec(limit_ms);
	return OPT_CONTINUE;
}

static int
handle_rate(opt_parse *st, const opt_def *def, const char *arg)
{
	double		rate = atof(arg);

	if (rate <= 0.0)
	{
		diag_error("invalid rate limit: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->rate = rate;
	return OPT_CONTINUE;
}

static int
handle_sampling_rate(opt_parse *st, const opt_def *def, const char *arg)
{
	double		rate = atof(arg);

	if (rate <= 0.0 || rate > 1.0)
	{
		diag_error("invalid sampling rate: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->sample_rate = rate;
	return OPT_CONTINUE;
}

static int
handle_max_tries(opt_parse *st, const opt_def *def, const char *arg)
{
	/* atoi semantics: garbage reads as 0, i.e. unlimited, as in pgbench. */
	int			tries = (int) strtol(arg, NULL, 10);

	if (tries < 0)
	{
		diag_error("invalid number of maximum tries: \"%s\"", arg);
		return OPT_EXIT_FAIL;
	}
	st->opts->max_tries = (uint32_t) tries;
	return OPT_CONTINUE;
}

static int
handle_log_prefix(opt_parse *st, const opt_def *def, const char *arg)
{
	st->log_prefix_given = true;
	return OPT_CONTINUE;
}

static int
handle_random_seed(opt_parse *st, const opt_def *def, const char *arg)
{
	return status_of(options_set_seed(st->opts, arg, "--random-seed option"));
}

/* ---- handlers: our extensions ---------------------------------------------- */

static const double default_percentiles[] = {50, 90, 99, 99.9};

/* Whether value is among the first n percentiles already kept. */
static bool
percentile_kept(const pgb_options *opts, int n, double value)
{
	for (int i = 0; i < n; i++)
		if (opts->percentiles[i] == value)
			return true;
	return false;
}

/*
 * --percentiles[=LIST]: numbers 0..100 separated by commas; a value given
 * twice is kept (and printed) once.
 */
static int
handle_percentiles(opt_parse *st, const opt_def *def, const char *list)
{
	pgb_options *opts = st->opts;
	const char *p = list;
	int			n = 0;

	if (list == NULL)
	{
		memcpy(opts->percentiles, default_percentiles, sizeof(default_percentiles));
		opts->npercentiles = (int) PGB_LENGTHOF(default_percentiles);
		return OPT_CONTINUE;
	}
	for (;;)
	{
		char	   *end;
		double		value;

		errno = 0;
		value = strtod(p, &end);
		/* the comparisons also refuse NaN */
		if (end == p || errno != 0 || !(value >= 0.0 && value <= 100.0))
			break;
		if (!percentile_kept(opts, n, value))
		{
			if (n == PGB_MAX_PERCENTILES)
				break;
			opts->percentiles[n++] = value;
		}
		if (*end == '\0')
		{
			opts->npercentiles = n;
			return OPT_CONTINUE;
		}
		if (*end != ',')
			break;
		p = end + 1;
	}
	diag_error("invalid percentile list: \"%s\"", list);
	diag_detail("Percentiles are numbers from 0 to 100 separated by commas, at most %d different ones.",
				PGB_MAX_PERCENTILES);
	return OPT_EXIT_FAIL;
}

/*
 * A compatibility mode: a PostgreSQL major from PGB_COMPAT_MIN to
 * PGB_COMPAT_MAX, written as plain digits.  what names the source in the
 * message ("--compat", "PGBENCH_COMPAT environment variable").
 */
int
options_set_compat(pgb_options *opts, const char *value, const char *what)
{
	char	   *end;
	long		major;

	errno = 0;
	major = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno != 0 ||
		major < PGB_COMPAT_MIN || major > PGB_COMPAT_MAX)
	{
		diag_error("invalid value \"%s\" for %s: must be a PostgreSQL major from %d to %d",
				   value, what, PGB_COMPAT_MIN, PGB_COMPAT_MAX);
		return OPT_EXIT_FAIL;
	}
	opts->compat = (int) major;
	return OPT_CONTINUE;
}

static int
handle_compat(opt_parse *st, const opt_def *def, const char *value)
{
	return options_set_compat(st->opts, value, "--compat");
}

static int
handle_report_json(opt_parse *st, const opt_def *def, const char *file)
{
	if (file[0] == '\0')
	{
		diag_error("invalid report file name: \"\"");
		return OPT_EXIT_FAIL;
	}
	st->opts->report_json = file;
	return OPT_CONTINUE;
}

/* --report-html=FILE: the file name is checked as --report-json's. */
static int
handle_report_html(opt_parse *st, const opt_def *def, const char *file)
{
	if (file[0] == '\0')
	{
		diag_error("invalid report file name: \"\"");
		return OPT_EXIT_FAIL;
	}
	st->opts->report_html = file;
	return OPT_CONTINUE;
}

/* --server-stats=on|off */
static int
handle_server_stats(opt_parse *st, const opt_def *def, const char *value)
{
	if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0)
	{
		st->opts->server_stats = strcmp(value, "on") == 0;
		return OPT_CONTINUE;
	}
	diag_error("invalid value \"%s\" for --server-stats: must be on or off", value);
	return OPT_EXIT_FAIL;
}

/* --rendezvous=NAME:N: a group name and its size (rendezvous.h). */
static int
handle_rendezvous(opt_parse *st, const opt_def *def, const char *value)
{
	const char *colon = strrchr(value, ':');
	char	   *end;
	long		size = colon != NULL ? strtol(colon + 1, &end, 10) : 0;

	if (colon == NULL || colon == value || colon - value > RENDEZVOUS_MAX_NAME ||
		colon[1] == '\0' || *end != '\0' || size < 1 || size > RENDEZVOUS_MAX_SIZE)
	{
		diag_error("invalid rendezvous: \"%s\"", value);
		diag_detail("Expected NAME:N, a name of at most %d bytes and a number of instances from 1 to %d.",
					RENDEZVOUS_MAX_NAME, RENDEZVOUS_MAX_SIZE);
		return OPT_EXIT_FAIL;
	}
	free(st->opts->rendezvous_storage);
	st->opts->rendezvous_storage = pgb_strndup(value, (size_t) (colon - value));
	st->opts->rendezvous_name = st->opts->rendezvous_storage;
	st->opts->rendezvous_size = (int) size;
	return OPT_CONTINUE;
}

/* --label KEY=VALUE, repeatable: a key of [A-Za-z0-9_.-] given once. */
static int
handle_label(opt_parse *st, const opt_def *def, const char *value)
{
	pgb_options *opts = st->opts;
	const char *eq = strchr(value, '=');
	size_t		klen = eq != NULL ? (size_t) (eq - value) : 0;
	char	   *key;

	(void) def;
	for (size_t i = 0; i < klen; i++)
		if (!isalnum((unsigned char) value[i]) && strchr("_.-", value[i]) == NULL)
			klen = 0;
	if (klen == 0 || klen > RUN_LABEL_KEY_MAX || strlen(eq + 1) > RUN_LABEL_VALUE_MAX)
	{
		diag_error("invalid label: \"%s\"", value);
		diag_detail("Expected KEY=VALUE, a key of 1 to %d letters, digits, '_', '.' or '-' and a value of at most %d bytes.",
					RUN_LABEL_KEY_MAX, RUN_LABEL_VALUE_MAX);
		return OPT_EXIT_FAIL;
	}
	key = pgb_strndup(value, klen);
	for (int i = 0; i < opts->nlabels; i++)
		if (strcmp(opts->labels[i].key, key) == 0)
		{
			diag_error("label \"%s\" given twice", key);
			free(key);
			return OPT_EXIT_FAIL;
		}
	if (opts->nlabels >= RUN_MAX_LABELS)
	{
		diag_error("more than %d labels", RUN_MAX_LABELS);
		free(key);
		return OPT_EXIT_FAIL;
	}
	opts->labels = pgb_realloc(opts->labels, (size_t) (opts->nlabels + 1) * sizeof(run_label));
	opts->labels[opts->nlabels++] = (run_label) {.key = key, .value = eq + 1};
	return OPT_CONTINUE;
}

/* --threshold=EXPR, repeatable (threshold.h). */
static int
handle_threshold(opt_parse *st, const opt_def *def, const char *value)
{
	pgb_options *opts = st->opts;
	char		why[160];
	threshold	t;

	(void) def;
	if (!threshold_parse(value, &t, why, sizeof(why)))
	{
		diag_error("invalid threshold \"%s\": %s", value, why);
		diag_detail("Expected NAME OP NUMBER[UNIT], e.g. \"tps>=1500\", \"latency.p99<=20ms\" or, with --compare, \"tps.change>=-2%%\".");
		return OPT_EXIT_FAIL;
	}
	opts->thresholds = pgb_realloc(opts->thresholds,
								   (size_t) (opts->nthresholds + 1) * sizeof(threshold));
	opts->thresholds[opts->nthresholds++] = t;
	return OPT_CONTINUE;
}

/*
 * --metrics-listen=ADDR:PORT: its form checked here, so that a bad
 * address or port fails before anything connects (metrics.h; a name that
 * does not resolve or a port in use is found when the run listens).
 */
static int
handle_metrics_listen(opt_parse *st, const opt_def *def, const char *value)
{
	char		why[METRICS_MAX_HOST + 128];

	(void) st;
	(void) def;
	if (!metrics_check_address(value, why, sizeof(why)))
	{
		diag_error("%s", why);
		return OPT_EXIT_FAIL;
	}
	return OPT_CONTINUE;
}

/* --sweep=NAME:LIST, --sweep-slo=LATENCY, --sweep-stop-on=slo|knee */
static int
handle_sweep(opt_parse *st, const opt_def *def, const char *value)
{
	char		why[160];
	double		slo = st->opts->sweep.slo_ms;
	sweep_stop	stop = st->opts->sweep.stop_on;

	(void) def;
	if (!sweep_parse(value, &st->opts->sweep, why, sizeof(why)))
	{
		diag_error("invalid sweep \"%s\": %s", value, why);
		diag_detail("Expected NAME:LIST, NAME clients, jobs, rate or a variable set with -D, e.g. \"clients:1,2,4,8\" or \"rate:100..500/100\".");
		return OPT_EXIT_FAIL;
	}
	st->opts->sweep.slo_ms = slo;
	st->opts->sweep.stop_on = stop;
	return OPT_CONTINUE;
}

static int
handle_sweep_slo(opt_parse *st, const opt_def *def, const char *value)
{
	(void) def;
	if (!sweep_parse_slo(value, &st->opts->sweep.slo_ms))
	{
		diag_error("invalid latency for --sweep-slo: \"%s\" (a number > 0 of ms, or with us, ms or s)", value);
		return OPT_EXIT_FAIL;
	}
	return OPT_CONTINUE;
}

static int
handle_sweep_stop_on(opt_parse *st, const opt_def *def, const char *value)
{
	(void) def;
	if (strcmp(value, "slo") == 0)
		st->opts->sweep.stop_on = SWEEP_STOP_SLO;
	else if (strcmp(value, "knee") == 0)
		st->opts->sweep.stop_on = SWEEP_STOP_KNEE;
	else
	{
		diag_error("invalid --sweep-stop-on: \"%s\" (slo or knee)", value);
		return OPT_EXIT_FAIL;
	}
	return OPT_CONTINUE;
}

/* --stages=DURATION:TARGET,... */
static int
handle_stages(opt_parse *st, const opt_def *def, const char *value)
{
	pgb_options *opts = st->opts;
	char		why[160];

	(void) def;
	if (!stages_parse(value, opts->stages, &opts->nstages, &opts->stages_rate, why, sizeof(why)))
	{
		diag_error("invalid stages \"%s\": %s", value, why);
		diag_detail("Expected DURATION:TARGET separated by commas, DURATION seconds (or with s, m or h), TARGET clients or a rate with \"tps\", e.g. \"30s:10,60s:10,30s:50\".");
		return OPT_EXIT_FAIL;
	}
	opts->stages_text = value;
	return OPT_CONTINUE;
}

/* ---- the table --------------------------------------------------------------- */

/* Row heads: kind, short letter, long name, argument, getopt rank, mode. */
#define SECTION(title) .kind = OPT_ROW_SECTION, .help = (title)
#define PG(s, l, a, rank, m) \
	.kind = OPT_ROW_GETOPT, .short_name = (s), .long_name = (l), .arg = OPT_ARG_##a, \
	.getopt_rank = (rank), .mode = OPT_MODE_##m
#define FIRST(s, l) .kind = OPT_ROW_FIRST, .short_name = (s), .long_name = (l), .arg = OPT_ARG_NONE
#define OURS(l, a, m) \
	.kind = OPT_ROW_OURS, .long_name = (l), .arg = OPT_ARG_##a, .mode = OPT_MODE_##m
#define SEE_ALSO(s, l, a) \
	.kind = OPT_ROW_SEE_ALSO, .short_name = (s), .long_name = (l), .arg = OPT_ARG_##a
#define BOOL(f) .set = OPT_SET_BOOL_FIELD(f)
/* The modes a row belongs to: up to major hi, or from major lo on. */
#define UNTIL(hi) .max_compat = (hi)
#define SINCE(lo) .min_compat = (lo)
#define INT(f, lo, hi) .set = OPT_SET_INT_FIELD(f, lo, hi)
#define STRING(f) .set = OPT_SET_STRING_FIELD(f)

/*
 * In --help order.  The getopt ranks keep pgbench's long-option order,
 * which users see in getopt's "ambiguous" lists: a new pgbench option
 * takes the next rank.  In each mode the ranks of its rows run from 1
 * without a gap: 17 gave -d's rank to --dbname and appended --debug (44)
 * after --exit-on-abort (43), 19 appended --continue-on-error (45).
 */
#define INIT_STEPS_ARG "[" ALLOWED_INIT_STEPS "]+ (default \"" DEFAULT_INIT_STEPS "\")"
#define CLIENT_ROW INT(nclients, 1, INT_MAX), .handler = check_file_limit, \
	.arg_help = "NUM", .help = "number of concurrent database clients (default: 1)"
#define CONTINUE_ON_ERROR_HELP "continue running after an SQL error"

const opt_def options_table[] = {
	{SECTION("Initialization options:")},
	{PG('i', "initialize", NONE, 9, ANY), .handler = handle_initialize,
		.help = "invokes initialization mode"},
	{PG('I', "init-steps", REQUIRED, 10, INIT), .handler = handle_init_steps, UNTIL(16),
		.arg_help = INIT_STEPS_ARG, .help = "run selected initialization steps"},
	/* 17 lists the steps */
	{PG('I', "init-steps", REQUIRED, 10, INIT), .handler = handle_init_steps, SINCE(17),
		.arg_help = INIT_STEPS_ARG,
		.help = "run selected initialization steps, in the specified order\n"
			"d: drop any existing pgbench tables\n"
			"t: create the tables used by the standard pgbench scenario\n"
			"g: generate data, client-side\n"
			"G: generate data, server-side\n"
			"v: invoke VACUUM on the standard tables\n"
			"p: create primary key indexes on the standard tables\n"
			"f: create foreign keys between the standard tables"},
	{PG('F', "fillfactor", REQUIRED, 7, INIT), INT(fillfactor, 10, 100),
		.arg_help = "NUM", .help = "set fill factor"},
	{PG('n', "no-vacuum", NONE, 14, ANY), BOOL(no_vacuum),
		.help = "do not run VACUUM during initialization"},
	{PG('q', "quiet", NONE, 18, INIT), BOOL(quiet),
		.help = "quiet logging (one message each 5 seconds)"},
	{PG('s', "scale", REQUIRED, 21, ANY), INT(scale, 1, INT_MAX), .handler = handle_scale,
		.arg_help = "NUM", .help = "scaling factor"},
	{PG(0, "foreign-keys", NONE, 35, INIT), BOOL(foreign_keys),
		.help = "create foreign key constraints between tables"},
	{PG(0, "index-tablespace", REQUIRED, 30, INIT), STRING(index_tablespace),
		.arg_help = "TABLESPACE", .help = "create indexes in the specified tablespace"},
	{PG(0, "partition-method", REQUIRED, 39, INIT), .handler = handle_partition_method,
		.arg_help = "(range|hash)",
		.help = "partition pgbench_accounts with this method (default: range)"},
	{PG(0, "partitions", REQUIRED, 38, INIT), INT(partitions, 0, INT_MAX),
		.arg_help = "NUM", .help = "partition pgbench_accounts into NUM parts (default: 0)"},
	{PG(0, "tablespace", REQUIRED, 29, INIT), STRING(tablespace),
		.arg_help = "TABLESPACE", .help = "create tables in the specified tablespace"},
	{PG(0, "unlogged-tables", NONE, 28, INIT), BOOL(unlogged_tables),
		.help = "create tables as unlogged tables"},

	{SECTION("Options to select what to run:")},
	{PG('b', "builtin", REQUIRED, 1, BENCH), .handler = handle_builtin,
		.arg_help = "NAME[@W]",
		.help = "add builtin script NAME weighted at W (default: 1)\n"
			"(use \"-b list\" to list available scripts)"},
	{PG('f', "file", REQUIRED, 6, BENCH), .handler = handle_file,
		.arg_help = "FILENAME[@W]", .help = "add script FILENAME weighted at W (default: 1)"},
	{PG('N', "skip-some-updates", NONE, 23, BENCH), .handler = handle_skip_some_updates,
		.help = "skip updates of pgbench_tellers and pgbench_branches\n"
			"(same as \"-b simple-update\")"},
	{PG('S', "select-only", NONE, 22, BENCH), .handler = handle_select_only,
		.help = "perform SELECT-only transactions\n(same as \"-b select-only\")"},

	{SECTION("Benchmarking options:")},
	{PG('c', "client", REQUIRED, 2, BENCH), CLIENT_ROW, UNTIL(16)},
	/* 17 to 19 name the option "-c/--clients" in its messages */
	{PG('c', "client", REQUIRED, 2, BENCH), CLIENT_ROW, SINCE(17),
		.error_name = "-c/--clients"},
	{PG('C', "connect", NONE, 3, BENCH), BOOL(connect_each),
		.help = "establish new connection for each transaction"},
	{PG('D', "define", REQUIRED, 5, BENCH), .handler = handle_define,
		.arg_help = "VARNAME=VALUE", .help = "define variable for use by custom script"},
	/* ANY: with -i, our extension loads with this many connections */
	{PG('j', "jobs", REQUIRED, 11, ANY), INT(nthreads, 1, INT_MAX),
		.arg_help = "NUM", .help = "number of threads (default: 1)"},
	{PG('l', "log", NONE, 12, BENCH), BOOL(use_log),
		.help = "write transaction times to log file"},
	{PG('L', "latency-limit", REQUIRED, 13, BENCH), .handler = handle_latency_limit,
		.arg_help = "NUM", .help = "count transactions lasting more than NUM ms as late"},
	{PG('M', "protocol", REQUIRED, 17, BENCH), .handler = handle_protocol,
		.arg_help = "simple|extended|prepared",
		.help = "protocol for submitting queries (default: simple)"},
	{SEE_ALSO('n', "no-vacuum", NONE), .help = "do not run VACUUM before tests"},
	{PG('P', "progress", REQUIRED, 16, BENCH), INT(progress_sec, 1, INT_MAX),
		.arg_help = "NUM", .help = "show thread progress report every NUM seconds"},
	{PG('r', "report-per-command", NONE, 19, BENCH), BOOL(report_per_command),
		.help = "report latencies, failures, and retries per command"},
	{PG('R', "rate", REQUIRED, 20, BENCH), .handler = handle_rate,
		.arg_help = "NUM", .help = "target rate in transactions per second"},
	{SEE_ALSO('s', "scale", REQUIRED), .arg_help = "NUM",
		.help = "report this scale factor in output"},
	{PG('t', "transactions", REQUIRED, 25, BENCH), .handler = handle_transactions,
		.arg_help = "NUM", .help = "number of transactions each client runs (default: 10)"},
	{PG('T', "time", REQUIRED, 24, BENCH), INT(duration, 1, INT_MAX),
		.arg_help = "NUM", .help = "duration of benchmark test in seconds"},
	{PG('v', "vacuum-all", NONE, 27, BENCH), BOOL(vacuum_all),
		.help = "vacuum all four standard tables before tests"},
	{PG(0, "aggregate-interval", REQUIRED, 32, BENCH), INT(aggregate_interval, 1, INT_MAX),
		.arg_help = "NUM", .help = "aggregate data over NUM seconds"},
	/* 19's option; before 19 by its full name only, and not in --help */
	{OURS("continue-on-error", NONE, BENCH), BOOL(continue_on_error), UNTIL(18),
		.hidden = true, .help = CONTINUE_ON_ERROR_HELP},
	{PG(0, "continue-on-error", NONE, 45, BENCH), BOOL(continue_on_error), SINCE(19),
		.help = CONTINUE_ON_ERROR_HELP},
	{PG(0, "exit-on-abort", NONE, 43, BENCH), BOOL(exit_on_abort),
		.help = "exit when any client is aborted"},
	{PG(0, "failures-detailed", NONE, 40, BENCH), BOOL(failures_detailed),
		.help = "report the failures grouped by basic types"},
	{PG(0, "log-prefix", REQUIRED, 34, BENCH), STRING(log_prefix), .handler = handle_log_prefix,
		.arg_help = "PREFIX",
		.help = "prefix for transaction time log file\n(default: \"" DEFAULT_LOG_PREFIX "\")"},
	{PG(0, "max-tries", REQUIRED, 41, BENCH), .handler = handle_max_tries,
		.arg_help = "NUM", .help = "max number of tries to run transaction (default: 1)"},
	{PG(0, "progress-timestamp", NONE, 33, BENCH), BOOL(progress_timestamp),
		.help = "use Unix epoch timestamps for progress"},
	{PG(0, "random-seed", REQUIRED, 36, BENCH), .handler = handle_random_seed,
		.arg_help = "SEED", .help = "set random seed (\"time\", \"rand\", integer)"},
	{PG(0, "sampling-rate", REQUIRED, 31, BENCH), .handler = handle_sampling_rate,
		.arg_help = "NUM", .help = "fraction of transactions to log (e.g., 0.01 for 1%)"},
	{PG(0, "show-script", REQUIRED, 37, ANY), .handler = handle_show_script,
		.arg_help = "NAME", .help = "show builtin script code, then exit"},
	{PG(0, "verbose-errors", NONE, 42, BENCH), BOOL(verbose_errors),
		.help = "print messages of all errors"},

	{SECTION("Common options:")},
	{PG('d', "debug", NONE, 4, ANY), BOOL(debug), .handler = handle_debug, UNTIL(16),
		.help = "print debugging output"},
	/* 17: -d is --dbname, --debug has no letter */
	{PG(0, "debug", NONE, 44, ANY), BOOL(debug), .handler = handle_debug, SINCE(17),
		.help = "print debugging output"},
	{PG('d', "dbname", REQUIRED, 4, ANY), .handler = handle_dbname, SINCE(17),
		.arg_help = "DBNAME", .help = "database name to connect to"},
	{PG('h', "host", REQUIRED, 8, ANY), STRING(host),
		.arg_help = "HOSTNAME", .help = "database server host or socket directory"},
	{PG('p', "port", REQUIRED, 15, ANY), STRING(port),
		.arg_help = "PORT", .help = "database server port number"},
	{PG('U', "username", REQUIRED, 26, ANY), STRING(username),
		.arg_help = "USERNAME", .help = "connect as specified database user"},
	{FIRST('V', "version"), .handler = show_version,
		.help = "output version information, then exit"},
	{FIRST('?', "help"), .handler = show_help, .help = "show this help, then exit"},

	{SECTION("Options of this pgbench (not in PostgreSQL's):")},
	{OURS("percentiles", OPTIONAL, BENCH), .handler = handle_percentiles,
		.arg_help = "LIST",
		.help = "latency percentiles to report (default: 50,90,99,99.9)"},
	{OURS("report-json", REQUIRED, BENCH), .handler = handle_report_json,
		.arg_help = "FILE", .help = "also write the final report as JSON to FILE"},
	{OURS("report-html", REQUIRED, BENCH), .handler = handle_report_html,
		.arg_help = "FILE", .help = "also write the final report as an HTML page to FILE"},
	{OURS("warmup", REQUIRED, BENCH), INT(warmup, 0, 86400 * 365),
		.arg_help = "SECONDS", .help = "run SECONDS before -T's time, out of every figure"},
	{OURS("server-stats", REQUIRED, BENCH), .handler = handle_server_stats,
		.arg_help = "on|off",
		.help = "record the server's side with a report file (default: on)"},
	{OURS("server-sample-interval", REQUIRED, BENCH), INT(server_sample_ms, 10, 60000),
		.arg_help = "MS", .help = "sample wait events every MS ms (default: 100)"},
	{OURS("metrics-listen", REQUIRED, BENCH), STRING(metrics_listen), .handler = handle_metrics_listen,
		.arg_help = "ADDR:PORT",
		.help = "serve live metrics (Prometheus format) on ADDR:PORT"},
	{OURS("rendezvous", REQUIRED, BENCH), .handler = handle_rendezvous,
		.arg_help = "NAME:N", .help = "start together with the other N-1 instances of group NAME"},
	{OURS("rendezvous-timeout", REQUIRED, BENCH), INT(rendezvous_timeout, 1, 86400),
		.arg_help = "SECONDS", .help = "give up the rendezvous after SECONDS (default: 60)"},
	{OURS("reconnect", NONE, BENCH), BOOL(reconnect),
		.help = "reconnect a lost connection instead of aborting the client"},
	{OURS("merge-reports", NONE, ANY), BOOL(merge_reports),
		.help = "merge the JSON reports given as arguments"},
	{OURS("merge-partial", NONE, ANY), BOOL(merge_partial),
		.help = "with --merge-reports, merge an incomplete rendezvous group"},
	{OURS("stages", REQUIRED, BENCH), .handler = handle_stages,
		.arg_help = "LIST", .help = "change the clients (or the rate) over the run, e.g. 30s:10,60s:50"},
	{OURS("sweep", REQUIRED, BENCH), .handler = handle_sweep,
		.arg_help = "NAME:LIST", .help = "run a step per value of NAME (clients, jobs, rate, a -D variable)"},
	{OURS("sweep-slo", REQUIRED, BENCH), .handler = handle_sweep_slo,
		.arg_help = "LATENCY", .help = "a sweep's knee: the last step with latency p99 within LATENCY"},
	{OURS("sweep-stop-on", REQUIRED, BENCH), .handler = handle_sweep_stop_on,
		.arg_help = "slo|knee", .help = "end a sweep after its knee (slo: beyond --sweep-slo)"},
	{OURS("label", REQUIRED, BENCH), .handler = handle_label,
		.arg_help = "KEY=VALUE", .help = "name the run in its report files (repeatable)"},
	{OURS("threshold", REQUIRED, BENCH), .handler = handle_threshold,
		.arg_help = "EXPR", .help = "fail (exit status 3) unless EXPR holds, e.g. tps>=1500"},
	{OURS("list-reports", NONE, BENCH), BOOL(list_reports),
		.help = "list the JSON reports in the directories given as arguments"},
	{OURS("compare", NONE, ANY), BOOL(compare),
		.help = "compare the JSON reports given as arguments (BASE NEW...)"},
	{OURS("compare-per-instance", NONE, ANY), BOOL(compare_per_instance),
		.help = "--compare a merged report's tps per instance"},
	{OURS("compat", REQUIRED, ANY), .handler = handle_compat,
		.arg_help = "MAJOR", .help = "behave as the pgbench of PostgreSQL MAJOR (16-19)"},
};

const int	options_table_size = (int) PGB_LENGTHOF(options_table);

bool
options_row_in_compat(const opt_def *def, int compat)
{
	return (def->min_compat == 0 || compat >= def->min_compat) &&
		(def->max_compat == 0 || compat <= def->max_compat);
}

/* ---- the database name as the report files show it ---- */

/* conninfo_mask(dbname), out of memory handled as xalloc.h does. */
char *
options_shown_dbname(const char *dbname)
{
	char	   *shown = conninfo_mask(dbname);

	return shown != NULL ? shown : pgb_strdup(CONNINFO_NOT_SHOWN);
}

void
options_show_dbname(pgb_options *opts, const char *value)
{
	uintptr_t	v = (uintptr_t) value;

	for (int i = 0; opts->argv_shown != NULL && i < opts->argc; i++)
	{
		uintptr_t	a = (uintptr_t) opts->argv[i];

		/* -d VALUE, DBNAME: the whole argument; --dbname=VALUE, -dVALUE: its end */
		if (v >= a && v <= a + strlen(opts->argv[i]))
		{
			char	   *masked = options_shown_dbname(value);
			size_t		prefix = (size_t) (v - a);
			size_t		len = strlen(masked);
			char	   *shown = pgb_malloc(prefix + len + 1);

			memcpy(shown, opts->argv[i], prefix);
			memcpy(shown + prefix, masked, len + 1);
			free(masked);
			free(opts->argv_shown[i]);
			opts->argv_shown[i] = shown;
			return;
		}
	}
}
