/*
 * test_counters_doc.c — the server's counters, declared once
 * (TIMELINE_SERVER_COUNTERS, timeline.h), against what is said of them:
 * the rows of doc/report-json.md's counters table (group, counter and
 * unit, in the declaration's order).  The schema's server_counters is
 * generated from the declaration (tools/report_format.c).  argv[1] is the
 * source directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/timeline.h"
#include "tap.h"

static const char *srcdir = ".";

/* The table's rows, "| `group` | `key` | unit |", in the declaration's order. */
static void
test_doc(void)
{
	size_t		len;
	char	   *text = tap_read_source(srcdir, "doc/report-json.md", &len);
	const char *p = text != NULL ? strstr(text, "### The server's counters") : NULL;
	int			n = 0;

	if (!tap_ok(p != NULL, "doc/report-json.md has the counters section"))
	{
		free(text);
		return;
	}
	while ((p = strstr(p, "\n| `")) != NULL && n <= SRV_NCOUNTERS)
	{
		char		group[64],
					key[64],
					unit[64];

		p += 1;
		if (sscanf(p, "| `%63[^`]` | `%63[^`]` | %63[^ |] |", group, key, unit) != 3)
			break;
		if (n < SRV_NCOUNTERS)
		{
			const timeline_counter_def *d = &timeline_server_counters[n];

			tap_is_str(group, d->group, "doc row: group");
			tap_is_str(key, d->key, "doc row: counter");
			tap_is_str(unit, d->unit[0] != '\0' ? d->unit : "count", "doc row: unit");
		}
		n++;
	}
	tap_is_int(n, SRV_NCOUNTERS, "doc/report-json.md: one row per counter");
	free(text);
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_doc();
	return tap_done();
}
