/*
 * test_counters_doc.c — the server's counters, declared once
 * (TIMELINE_SERVER_COUNTERS, timeline.h), against what is said of them:
 * the rows of doc/report-json.md's counters table (group, counter and
 * unit, in the declaration's order) and the schema's server_counters
 * (an object per group with exactly its counters, integers but for the
 * times).  argv[1] is the source directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/offline/json_read.h"
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

/* $defs.server_counters: the groups in order, each with its counters. */
static void
test_schema(void)
{
	size_t		len;
	char	   *text = tap_read_source(srcdir, "doc/report-json.schema.json", &len);
	char		why[256];
	json_doc	doc;
	const json_value *groups;
	int			seen = 0;

	if (!tap_ok(text != NULL && json_parse(text, len, &doc, why, sizeof(why)), "the schema reads"))
	{
		free(text);
		return;
	}
	groups = json_get(json_get(json_get(&doc.root, "$defs"), "server_counters"), "properties");
	for (int g = 0; groups != NULL && g < groups->n; g++)
	{
		const json_value *props = json_get(json_member_value(groups, g), "properties");

		for (int k = 0; props != NULL && k < props->n; k++, seen++)
		{
			const timeline_counter_def *d = seen < SRV_NCOUNTERS ? &timeline_server_counters[seen] : NULL;
			const char *type = json_str(json_get(json_member_value(props, k), "type"));

			if (!tap_ok(d != NULL, "schema: counter %s declared", json_member_name(props, k)))
				break;
			tap_is_str(json_member_name(groups, g), d->group, "schema: the counter's group");
			tap_is_str(json_member_name(props, k), d->key, "schema: counter in order");
			tap_is_str(type, strcmp(d->unit, "ms") == 0 ? "number" : "integer",
					   "schema: the counter's type");
		}
	}
	tap_is_int(seen, SRV_NCOUNTERS, "schema: one property per counter");
	json_doc_free(&doc);
	free(text);
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_doc();
	test_schema();
	return tap_done();
}
