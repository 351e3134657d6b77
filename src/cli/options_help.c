/*
 * options_help.c — --help and -V.  --help is written from the options table:
 * the text of the pgbench of the compatibility mode byte for byte, then our
 * extensions in a section of their own, then where to report bugs (this
 * project, not PostgreSQL; always, as pgbench's help).  The addresses and
 * names come from meson.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/cli/options_table.h"

/* Where descriptions start; a longer option name puts its own line first. */
#define HELP_COLUMN 27

/* "  -c, --client=NUM", "  --percentiles[=LIST]", ... into buf. */
static void
format_option_name(const opt_def *def, char *buf, size_t len)
{
	char		letter[8] = "";

	if (def->short_name != 0)
		snprintf(letter, sizeof(letter), "-%c, ", def->short_name);
	snprintf(buf, len, "  %s--%s%s%s%s", letter, def->long_name,
			 def->arg == OPT_ARG_REQUIRED ? "=" : def->arg == OPT_ARG_OPTIONAL ? "[=" : "",
			 def->arg_help != NULL ? def->arg_help : "",
			 def->arg == OPT_ARG_OPTIONAL ? "]" : "");
}

/* One option's help: its name, then the description in the column. */
static void
print_option_help(const opt_def *def)
{
	char		name[128];
	const char *text = def->help;
	const char *newline;

	format_option_name(def, name, sizeof(name));
	if (strlen(name) < HELP_COLUMN)
		printf("%-*s", HELP_COLUMN, name);
	else
		printf("%s\n%*s", name, HELP_COLUMN, "");
	while ((newline = strchr(text, '\n')) != NULL)
	{
		printf("%.*s\n%*s", (int) (newline - text), text, HELP_COLUMN, "");
		text = newline + 1;
	}
	printf("%s\n", text);
}

void
options_print_help(const char *progname, int compat)
{
	printf("%s is a benchmarking tool for PostgreSQL.\n\n", progname);
	printf("Usage:\n  %s [OPTION]... [DBNAME]\n", progname);
	for (int i = 0; i < options_table_size; i++)
	{
		const opt_def *def = &options_table[i];

		if (!options_row_in_compat(def, compat) || def->hidden)
			continue;
		if (def->kind == OPT_ROW_SECTION)
			printf("\n%s\n", def->help);
		else
			print_option_help(def);
	}
	/*
	 * Where to report bugs, as pgbench's help ends (PostgreSQL's own test
	 * of --help looks for "Report bugs to"): the build's address, else in
	 * words where they go, since a build that names no address is one
	 * made from the sources (README.md, "Reporting bugs").  Then the home
	 * page, when the build names one.
	 */
	if (PGBENCH_BUG_REPORT[0] != '\0')
		printf("\nReport bugs to <%s>.\n", PGBENCH_BUG_REPORT);
	else
		printf("\nReport bugs to the issue tracker of the repository %s was built from.\n",
			   PGBENCH_NAME);
	if (PGBENCH_HOME_PAGE[0] != '\0')
		printf("%s home page: <%s>\n", PGBENCH_NAME, PGBENCH_HOME_PAGE);
}

/*
 * PostgreSQL's own pgbench prints "pgbench (PostgreSQL) 16.4"; scripts read
 * the major after "(PostgreSQL) ".  Ours prints the major it behaves as
 * there, and its own name and version after it, as distributions add
 * theirs ("15.20 (Debian 15.20-0+deb12u1)").
 */
void
options_print_version(int compat)
{
	printf("pgbench (PostgreSQL) %d (%s %s)\n", compat, PGBENCH_NAME, PGBENCH_VERSION);
}
