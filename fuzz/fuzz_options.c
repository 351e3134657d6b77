/*
 * fuzz_options.c — libFuzzer target for the command-line parser.  The
 * input is a command line, one argument per line (a NUL also ends an
 * argument); options_parse reads it after the program name, and a command
 * line that parses into a benchmark run is turned into the run
 * configuration (runconf_build) as bench_run would.  --help, -V, -b list
 * and --show-script return exit code 0 without exiting, so they are
 * ordinary inputs here.
 *
 * -f opens files relative to the working directory: scripts/fuzz.sh runs
 * the target in a scratch directory holding one valid script, "s.sql"
 * (the seeds use that name).  Standard input is /dev/null ("-f -"), and
 * inputs with a '/' anywhere are skipped, so that no path can reach
 * /dev/zero or /dev/urandom and turn a call into a read without end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pgbench/run/bench.h"

#define MAX_ARGS 64

/*
 * Split text (NUL-terminated copy of the input, text[size] == '\0') into
 * argv after the program name, at newlines and NULs.  Returns argc, or 0
 * when the input is to be skipped (too many arguments, or a '/').
 */
static int
split_args(char *text, size_t size, char **argv)
{
	int			argc = 0;
	size_t		start = 0;

	argv[argc++] = (char *) "pgbench";
	if (memchr(text, '/', size) != NULL)
		return 0;
	for (size_t i = 0; i <= size; i++)
	{
		if (i < size && text[i] != '\n' && text[i] != '\0')
			continue;
		if (argc == MAX_ARGS)
			return 0;
		text[i] = '\0';
		argv[argc++] = text + start;
		start = i + 1;
	}
	/* a final newline ends the last argument rather than adding "" */
	if (size > 0 && text[size - 1] == '\0' && argv[argc - 1][0] == '\0')
		argc--;
	argv[argc] = NULL;
	return argc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *text = malloc(size + 1);
	char	   *argv[MAX_ARGS + 1];
	int			argc;
	pgb_options opts;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argc = split_args(text, size, argv);
	if (argc > 0)
	{
		if (options_parse(&opts, argc, argv) < 0 && opts.action == ACTION_RUN)
		{
			run_config	cfg;

			runconf_build(&cfg, &opts, 1);
			runconf_free(&cfg);
		}
		options_free(&opts);
	}
	free(text);
	return 0;
}
