/*
 * options_table.h — inside the options unit: the one table of command-line
 * options (what --help lists, what getopt_long reads, what each option
 * sets), the getopt_long arrays built from it, and the parsing state the
 * option handlers share.  Only src/options*.c and the unit test use this;
 * the rest of the program sees options.h.
 *
 * Adding an option is one row in options_table (src/cli/options_table.c) plus
 * its field in pgb_options.
 *
 * The unit's files call one way: options.c (the parse) -> options_help.c
 * (--help, -V) and options_table.c (the table, its handlers, which return
 * what the parse must do) -> options_scripts.c (-b, -f, -N, -S).
 */
#ifndef PGBENCH_OPTIONS_TABLE_H
#define PGBENCH_OPTIONS_TABLE_H

#include <getopt.h>
#include <stddef.h>

#include "pgbench/cli/options.h"

/* What a handler, and each step of the parse, tells its caller. */
#define OPT_CONTINUE (-1)			/* go on */
#define OPT_EXIT_OK 0				/* done (-b list, --show-script, --help): exit 0 */
#define OPT_EXIT_FAIL 1				/* bad usage, message printed: exit 1 */
#define OPT_SHOW_HELP (-2)			/* --help: options_parse prints it, exits 0 */
#define OPT_SHOW_VERSION (-3)		/* -V: options_parse prints it, exits 0 */

#define DEFAULT_INIT_STEPS "dtgvp"
#define ALLOWED_INIT_STEPS "dtgGvpf"
#define DEFAULT_LOG_PREFIX "pgbench_log"
#define DEFAULT_NXACTS 10

/* Where a row of the table takes part. */
typedef enum opt_row_kind
{
	OPT_ROW_SECTION,			/* a --help section header; help is its title */
	OPT_ROW_GETOPT,				/* pgbench's option: in getopt_long's arrays */
	OPT_ROW_FIRST,				/* --help, -V: only as the first argument, exact */
	OPT_ROW_OURS,				/* our extension: full name only, taken out of argv
								 * before getopt so that pgbench's abbreviations
								 * and "ambiguous" lists stay as they are */
	OPT_ROW_SEE_ALSO,			/* a second --help line for an option listed in an
								 * earlier section (-n, -s); parses nothing */
} opt_row_kind;

/* Whether the option takes an argument; the values are getopt's has_arg. */
typedef enum opt_arg
{
	OPT_ARG_NONE = no_argument,
	OPT_ARG_REQUIRED = required_argument,
	OPT_ARG_OPTIONAL = optional_argument,	/* --name=VALUE, or (our extensions)
											 * --name VALUE when VALUE begins
											 * with a digit or '.' */
} opt_arg;

/* Which mode the option belongs to, for pgbench's "cannot be used" checks. */
typedef enum opt_mode
{
	OPT_MODE_ANY,				/* both (-d, -h, -n, -s, ...) */
	OPT_MODE_INIT,				/* only with -i */
	OPT_MODE_BENCH,				/* only without -i */
} opt_mode;

/* A field of pgb_options an option sets by itself, before any handler. */
typedef enum opt_set_kind
{
	OPT_SET_NOTHING,
	OPT_SET_BOOL,				/* bool field := true */
	OPT_SET_INT,				/* int field := the argument, in [min, max] */
	OPT_SET_STRING,				/* const char * field := the argument (argv's) */
} opt_set_kind;

typedef struct opt_set
{
	opt_set_kind kind;
	size_t		offset;			/* offsetof(pgb_options, field) */
	int			min;			/* OPT_SET_INT: the accepted range */
	int			max;
} opt_set;

/* The offset of pgb_options field f, refused at compile time unless it has type t. */
#define OPT_FIELD(f, t) _Generic(((pgb_options *) 0)->f, t: offsetof(pgb_options, f))	/* NOLINT(bugprone-macro-parentheses): f is a member name, t a type name */
#define OPT_SET_BOOL_FIELD(f) {OPT_SET_BOOL, OPT_FIELD(f, bool), 0, 0}
#define OPT_SET_INT_FIELD(f, lo, hi) {OPT_SET_INT, OPT_FIELD(f, int), (lo), (hi)}
#define OPT_SET_STRING_FIELD(f) {OPT_SET_STRING, OPT_FIELD(f, const char *), 0, 0}

/* A -D variable, kept until every script has named its variables. */
typedef struct opt_pending_define
{
	int			slot;
	const char *value;			/* points into argv */
} opt_pending_define;

/* getopt_long's two arrays, built from the table by options_getopt_build. */
typedef struct options_getopt
{
	char	   *short_options;	/* "b:c:C...", owned */
	struct option *long_options;	/* in getopt-rank order, {NULL} ended, owned */
	int			nlong;			/* entries before the terminator */
	int			compat;			/* the mode the arrays were built for */
} options_getopt;

/* Parsing state that does not outlive options_parse. */
typedef struct opt_parse
{
	pgb_options *opts;
	const char *progname;		/* argv[0] without its directory */
	bool		is_init_mode;	/* -i seen */
	bool		benchmarking_option_set;
	bool		initialization_option_set;
	bool		log_prefix_given;
	char	   *init_steps;		/* last -I, owned; handed to opts at the end */
	opt_pending_define *defines;	/* -D in order, owned */
	int			ndefines;
	char	  **argv_copy;		/* argv without our extensions, owned */
	int			argc_copy;
	options_getopt getopt;		/* owned */
	bool		dbname_given;	/* -d/--dbname seen (17+): no positional DBNAME */
} opt_parse;

typedef struct opt_def opt_def;

/*
 * value (a database name, pointing into one of opts->argv's strings) is
 * one libpq will read: show that argument in opts->argv_shown with value
 * through conninfo_mask (a connection string's passwords masked).
 */
void		options_show_dbname(pgb_options *opts, const char *value);

/* A malloc'd copy of dbname fit to be shown (conninfo_mask; never NULL). */
char	   *options_shown_dbname(const char *dbname);

/*
 * Set opts->compat from value (a major, 16..19); prints pgbench-style
 * "invalid value ... for WHAT" and returns OPT_EXIT_FAIL when it is not
 * one.  OPT_CONTINUE otherwise.
 */
int			options_set_compat(pgb_options *opts, const char *value, const char *what);

/*
 * Called with the option's argument (NULL when it has none) after its
 * opt_set field, if any, was set; returns OPT_CONTINUE or an exit code,
 * after printing pgbench's message, or OPT_SHOW_HELP / OPT_SHOW_VERSION
 * for options_parse to print (the table lies below the parser and the
 * printers of --help and -V, which read the table: it never calls them).
 */
typedef int (*opt_handler) (opt_parse *st, const opt_def *def, const char *arg);

/* One row of the table: one option, or one --help section header. */
struct opt_def
{
	opt_row_kind kind;
	char		short_name;		/* 'c' of -c; 0 when none */
	const char *long_name;		/* "client" of --client; NULL for a section */
	opt_arg		arg;
	int			getopt_rank;	/* OPT_ROW_GETOPT: 1-based place in getopt_long's
								 * array, pgbench's order (users see it in
								 * "ambiguous" lists); 0 otherwise */
	opt_mode	mode;
	const char *arg_help;		/* "NUM" of "--client=NUM"; NULL without argument */
	const char *help;			/* the --help description ('\n' continues it in
								 * the same column), or the section title */
	opt_set		set;			/* a field set without a handler, or nothing */
	opt_handler handler;		/* what else the option does; may be NULL */

	/*
	 * The compatibility modes (PostgreSQL majors) the row belongs to, both
	 * ends included; 0 leaves that end open.  An option whose meaning, help
	 * line or messages differ between majors has one row per span, and at
	 * most one row of a name or letter is in any mode.
	 */
	int			min_compat;
	int			max_compat;
	const char *error_name;		/* the option's name in range and value
								 * messages ("-c/--clients"); NULL = from
								 * its letter and long name */
	bool		hidden;			/* accepted, but not listed by --help */
};

/* Whether def belongs to compatibility mode compat. */
bool		options_row_in_compat(const opt_def *def, int compat);

/*
 * The table, in --help order: section headers, then the options of each
 * section.  options_table_size counts every row.
 */
extern const opt_def options_table[];
extern const int options_table_size;

/*
 * Apply one option: mark its mode, set its opt_set field (printing
 * pgbench's message for a bad integer), then run its handler.  Returns
 * OPT_CONTINUE, an exit code, OPT_SHOW_HELP or OPT_SHOW_VERSION.
 */
int			options_apply(opt_parse *st, const opt_def *def, const char *arg);

/*
 * Build getopt_long's short-option string and long-option array from the
 * OPT_ROW_GETOPT rows of mode compat (allocates; out of memory stops the
 * process).  A long option's val is its short letter, or OPT_CODE_BASE +
 * its row index.
 */
#define OPT_CODE_BASE 256
void		options_getopt_build(options_getopt *g, int compat);
void		options_getopt_free(options_getopt *g);

/*
 * The OPT_ROW_GETOPT row of g's mode behind a getopt_long return code;
 * NULL for '?'.
 */
const opt_def *options_getopt_lookup(const options_getopt *g, int code);

/*
 * Print --help for mode compat: the text of that major's pgbench from the
 * table, then our extensions, then this project's bug address and home page.
 */
void		options_print_help(const char *progname, int compat);

/*
 * Print -V for mode compat: "pgbench (PostgreSQL) MAJOR (NAME VERSION)", so
 * that what parses pgbench's version reads the major whose behaviour it
 * follows, and a reader sees which program this is.
 */
void		options_print_version(int compat);

/* Seed from text (NULL = "time"), with pgbench's messages naming origin. */
bool		options_set_seed(pgb_options *opts, const char *text, const char *origin);

/* ---- scripts (src/cli/options_scripts.c) ---- */

/* "Available builtin scripts:" and the list, on stderr, as -b list does. */
void		options_list_builtins(void);

/* A builtin by name or prefix; NULL after pgbench's message and the list. */
const builtin_script *options_find_builtin(const char *name);

/* Compile builtin name with weight into opts->scripts; false after a message. */
bool		options_add_builtin(pgb_options *opts, const char *name, int weight);

/* -f FILE[@W] (is_file) or -b NAME[@W]; false after a message. */
bool		options_add_weighted_script(pgb_options *opts, const char *spec, bool is_file);

#endif
