/*
 * options_scripts.c — the scripts the command line names (-b, -f, -N, -S):
 * weights, builtin look-up, file reading and compilation, with pgbench's
 * messages.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/diag.h"
#include "pgbench/cli/options_table.h"
#include "pgbench/base/xalloc.h"

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
		*name = pgb_strdup(spec);
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
	*name = pgb_strndup(spec, (size_t) (at - spec));
	*weight = (int) value;
	return true;
}

void
options_list_builtins(void)
{
	fprintf(stderr, "Available builtin scripts:\n");
	for (int i = 0; i < builtin_script_count; i++)
		fprintf(stderr, "%15s: %s\n", builtin_scripts[i].name, builtin_scripts[i].desc);
	fprintf(stderr, "\n");
}

const builtin_script *
options_find_builtin(const char *name)
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
	options_list_builtins();
	return NULL;
}

/* Compile and append a script; builtin marks one made from a builtin. */
static bool
compile_script(pgb_options *opts, const char *source, const char *text, int weight,
			   bool builtin)
{
	script_error err;

	memset(&err, 0, sizeof(err));
	if (!script_compile(opts->scripts, source, text, weight, &err))
	{
		script_error_report(&err);
		script_error_clear(&err);
		return false;
	}
	opts->scripts->scripts[opts->scripts->nscripts - 1].builtin = builtin;
	return true;
}

bool
options_add_builtin(pgb_options *opts, const char *name, int weight)
{
	const builtin_script *builtin = options_find_builtin(name);

	return builtin != NULL &&
		compile_script(opts, builtin->desc, builtin->script, weight, true);
}

/* Whole contents of fp, NUL-terminated; NULL with errno set on a read error. */
static char *
read_stream(FILE *fp)
{
	size_t		cap = 8192;
	size_t		len = 0;
	char	   *buf = pgb_malloc(cap);
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
			buf = pgb_realloc(buf, cap);
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
	ok = compile_script(opts, filename, text, weight, false);
	free(text);
	return ok;
}

bool
options_add_weighted_script(pgb_options *opts, const char *spec, bool is_file)
{
	char	   *name;
	int			weight;
	bool		ok;

	if (!parse_script_weight(spec, &name, &weight))
		return false;
	ok = is_file ? add_file(opts, name, weight) : options_add_builtin(opts, name, weight);
	free(name);
	return ok;
}
