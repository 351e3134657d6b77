/*
 * merge_server.c — the server each run of a merge went to (merge_int.h):
 * its system identifier and the server's counters over the run, read from
 * a run's own report ("server", "server_stats") or from a merged report's
 * "inputs", so that the merged report can take each server's figures
 * once (doc/report-json.md, "servers").  The counters are read by their
 * one declaration (TIMELINE_SERVER_COUNTERS); a report from before they
 * were written (schema 4 and older) simply has none.
 */
#include <ctype.h>
#include <string.h>

#include "merge_int.h"

/* A system identifier (member m of obj): a decimal number of at most 20 digits. */
static bool
read_identifier(const merge_reading *rd, const json_ref *obj, report_member m, char *out,
				size_t len)
{
	json_ref	r = merge_at(obj, m);
	const char *id;
	size_t		n;

	out[0] = '\0';
	if (r.v == NULL)
		return true;			/* an older report */
	if (!merge_str_null(rd, obj, m, &id))
		return false;
	if (id == NULL)
		return true;
	n = strlen(id);
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char) id[i]))
			return merge_bad(rd, &r, "not a system identifier");
	if (n == 0 || n > 20 || n >= len)
		return merge_bad(rd, &r, "not a system identifier");
	memcpy(out, id, n + 1);
	return true;
}

/*
 * The counters of a totals object (member m of obj; absent or null:
 * none), each under its group by its key (TIMELINE_SERVER_COUNTERS).
 */
static bool
read_totals(const merge_reading *rd, const json_ref *obj, report_member m, report_source *s)
{
	json_ref	totals;
	bool		present = false;

	if (merge_at(obj, m).v == NULL)
		return true;
	if (!merge_container_null(rd, obj, m, JSON_OBJECT, &totals, &present))
		return false;
	if (!present)
		return true;
	for (int i = 0; i < SRV_NCOUNTERS; i++)
	{
		const timeline_counter_def *d = &timeline_server_counters[i];
		json_ref	group = json_ref_member(&totals, d->group);
		json_ref	g;

		if (group.v == NULL || json_ref_member(&group, d->key).v == NULL)
			continue;			/* a counter that server does not have */
		if (!merge_container_key(rd, &totals, d->group, JSON_OBJECT, &g) ||
			!merge_num_key(rd, &g, d->key, -1e18, 1e18, &s->server_totals[i]))
			return false;
		s->server_present |= UINT64_C(1) << i;
	}
	s->has_server_totals = true;
	return true;
}

bool
merge_read_server_of_run(const merge_reading *rd, const json_ref *doc, report_source *s)
{
	json_ref	server = merge_at(doc, RM_TOP_SERVER);
	json_ref	stats = merge_at(doc, RM_TOP_SERVER_STATS);

	if (server.v != NULL && server.v->kind == JSON_OBJECT &&
		!read_identifier(rd, &server, RM_SERVER_SYSTEM_IDENTIFIER, s->system_identifier,
						 sizeof(s->system_identifier)))
		return false;
	if (server.v != NULL && server.v->kind != JSON_OBJECT && server.v->kind != JSON_NULL)
		return merge_bad(rd, &server, "expected an object or null, found %s",
						 json_kind_name(server.v));
	if (stats.v == NULL || stats.v->kind == JSON_NULL)
		return true;
	if (stats.v->kind != JSON_OBJECT)
		return merge_bad(rd, &stats, "expected an object or null, found %s",
						 json_kind_name(stats.v));
	return read_totals(rd, &stats, RM_SERVER_STATS_TOTALS, s);
}

bool
merge_read_server_of_input(const merge_reading *rd, const json_ref *entry, report_source *s)
{
	return read_identifier(rd, entry, RM_INPUT_SYSTEM_IDENTIFIER, s->system_identifier,
						   sizeof(s->system_identifier)) &&
		read_totals(rd, entry, RM_INPUT_SERVER_TOTALS, s);
}
