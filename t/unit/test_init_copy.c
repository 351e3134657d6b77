/*
 * test_init_copy.c — the pgbench_accounts row formatter of init_copy.c,
 * checked against a plain snprintf rendering across digit carries and
 * branch boundaries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/init/init_copy.h"
#include "tap.h"

/* What pgbench sends for one account: aid, bid, abalance 0, empty filler. */
static size_t
reference_text(char *dst, int64_t first_aid, int64_t nrows)
{
	size_t		len = 0;

	for (int64_t aid = first_aid; aid < first_aid + nrows; aid++)
		len += (size_t) sprintf(dst + len, "%" PRId64 "\t%" PRId64 "\t0\t\n",
								aid, (aid - 1) / ICOPY_ACCOUNTS_PER_SCALE + 1);
	return len;
}

static void
check_text_range(int64_t first_aid, int64_t nrows)
{
	size_t		cap = (size_t) nrows * ICOPY_TEXT_ROW_MAX + ICOPY_SLACK;
	char	   *got = malloc(cap);
	char	   *want = malloc(cap);
	size_t		got_len = icopy_format_accounts_text(got, first_aid, nrows);
	size_t		want_len = reference_text(want, first_aid, nrows);

	got[got_len] = '\0';
	tap_is_int((int64_t) got_len, (int64_t) want_len, "text length");
	tap_ok(got_len == want_len && memcmp(got, want, want_len) == 0,
		   "text rows %" PRId64 "..%" PRId64, first_aid, first_aid + nrows - 1);
	free(got);
	free(want);
}

int
main(void)
{
	static const struct
	{
		int64_t		first_aid;
		int64_t		nrows;
	}			ranges[] = {
		{1, 1},
		{1, 30},				/* 9 -> 10, 19 -> 20 */
		{95, 10},				/* 99 -> 100 */
		{99990, 25},			/* 99999 -> 100000, then branch 2 at 100001 */
		{100000, 1},
		{199999, 200003},		/* across several branches */
		{999990, 20},			/* 999999 -> 1000000 */
		{214748364699990, 20},	/* the largest scale's last accounts */
		{5, 0},
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		check_text_range(ranges[i].first_aid, ranges[i].nrows);
	return tap_done();
}
