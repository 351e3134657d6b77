/*
 * builtin.c — the three scripts pgbench ships (-b name, --show-script) and
 * lookup of a builtin by name or unambiguous prefix.
 *
 * The texts must match pgbench byte for byte: --show-script prints them and
 * users diff them, and per-command reports (-r) show their lines.
 */
#include <string.h>

#include "pgbench/script/script.h"

/* The account/teller counts per branch are those of pgbench -i. */
#define BUILTIN_SET_LINES \
	"\\set aid random(1, 100000 * :scale)\n" \
	"\\set bid random(1, 1 * :scale)\n" \
	"\\set tid random(1, 10 * :scale)\n" \
	"\\set delta random(-5000, 5000)\n"

#define BUILTIN_HISTORY_INSERT \
	"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) " \
	"VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"

const builtin_script builtin_scripts[] = {
	{
		"tpcb-like",
		"<builtin: TPC-B (sort of)>",
		BUILTIN_SET_LINES
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
		"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
		BUILTIN_HISTORY_INSERT
		"END;\n"
	},
	{
		"simple-update",
		"<builtin: simple update>",
		BUILTIN_SET_LINES
		"BEGIN;\n"
		"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
		BUILTIN_HISTORY_INSERT
		"END;\n"
	},
	{
		"select-only",
		"<builtin: select only>",
		"\\set aid random(1, 100000 * :scale)\n"
		"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
	},
};

const int	builtin_script_count = (int) PGB_LENGTHOF(builtin_scripts);

/*
 * pgbench counts every builtin the name is a prefix of, even when it is
 * also an exact name, so an empty name is ambiguous rather than a match.
 */
int
builtin_count_matches(const char *name)
{
	size_t		len = strlen(name);
	int			nmatches = 0;

	for (int i = 0; i < builtin_script_count; i++)
		if (strncmp(builtin_scripts[i].name, name, len) == 0)
			nmatches++;
	return nmatches;
}

const builtin_script *
builtin_find(const char *name, bool *ambiguous)
{
	size_t		len = strlen(name);
	int			nmatches = builtin_count_matches(name);

	if (ambiguous)
		*ambiguous = nmatches > 1;
	if (nmatches != 1)
		return NULL;
	for (int i = 0; i < builtin_script_count; i++)
		if (strncmp(builtin_scripts[i].name, name, len) == 0)
			return &builtin_scripts[i];
	return NULL;
}
