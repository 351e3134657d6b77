/*
 * report_format.c — the --report-json format as the documents say it,
 * made at build time from its one declaration (REPORT_OBJECTS,
 * REPORT_MEMBERS, REPORT_CHILDREN in report_schema.h and
 * report_members.h; the data-named members from REPORT_SETTINGS,
 * SERVER_KEY_SETTINGS, TIMELINE_SERVER_COUNTERS and STATS_COUNTERS, with
 * their meanings from report_members.h):
 *
 *   report_format schema OUT      the JSON Schema (doc/report-json.schema.json)
 *   report_format doc IN OUT      IN (doc/report-json.md) with the member
 *                                 table of each object, of the settings and
 *                                 of the server's counters written again from
 *                                 the declaration; the prose is kept as it is
 *
 * scripts/report-format.sh --update copies both over the committed files,
 * and the test report_format fails when they differ.  Either fails (exit
 * 1, naming it) when a member, setting or counter has no meaning, or a
 * meaning names none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"
#include "pgbench/report/json_writer.h"
#include "pgbench/report/report.h"
#include "pgbench/report/report_schema.h"
#include "pgbench/server/server_info.h"
#include "pgbench/stats/stats.h"
#include "pgbench/stats/timeline.h"

/* The columns of REPORT_MEMBERS the program itself does not keep. */
static const char *const member_schema[RM_COUNT] = {
#define MEMBER_SCHEMA(obj, id, key, type, nullable, unit, use, flags, schema, meaning) \
	[RM_##obj##_##id] = (schema),
	REPORT_MEMBERS(MEMBER_SCHEMA)
#undef MEMBER_SCHEMA
};

static const char *const member_meaning[RM_COUNT] = {
#define MEMBER_MEANING(obj, id, key, type, nullable, unit, use, flags, schema, meaning) \
	[RM_##obj##_##id] = (meaning),
	REPORT_MEMBERS(MEMBER_MEANING)
#undef MEMBER_MEANING
};

/* REPORT_UNSTARTED_SCHEMA: a top-level member's schema in $defs/unstarted. */
static const char *const unstarted_schema[RM_COUNT] = {
#define UNSTARTED_SCHEMA(id, schema) [RM_TOP_##id] = (schema),
	REPORT_UNSTARTED_SCHEMA(UNSTARTED_SCHEMA)
#undef UNSTARTED_SCHEMA
};

/* TIMELINE_SERVER_COUNTERS, by id. */
static const timeline_counter_def server_counters[SRV_NCOUNTERS] = {
#define COUNTER_DEF(id, group, key, unit) [id] = {group, key, unit},
	TIMELINE_SERVER_COUNTERS(COUNTER_DEF)
#undef COUNTER_DEF
};

static const char *const object_ids[RO_COUNT] = {
#define OBJECT_ID(id, heading) [RO_##id] = #id,
	REPORT_OBJECTS(OBJECT_ID)
#undef OBJECT_ID
};

/* ---- writing JSON, through the reports' own writer ---------------------------- */

static FILE *out;
static json_writer jw;			/* the schema's writer (json_writer.h), on out */

static void
fail(const char *what, const char *detail)
{
	fprintf(stderr, "report_format: %s%s%s\n", what, detail[0] ? ": " : "", detail);
	exit(1);
}

/* "key": raw JSON text. */
static void
put_raw(const char *key, const char *text)
{
	json_member(&jw, key);
	fputs(text, out);
}

/*
 * The schema column: JSON members' text ("a": 1, "b": {...}), each member
 * on a line of its own.
 */
static void
put_members_text(const char *text)
{
	const char *p = text;

	while (*p != '\0')
	{
		const char *start = p;
		int			nest = 0;
		bool		quoted = false;

		for (; *p != '\0' && (quoted || nest > 0 || *p != ','); p++)
		{
			if (quoted && *p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				quoted = !quoted;
			else if (!quoted && (*p == '{' || *p == '['))
				nest++;
			else if (!quoted && (*p == '}' || *p == ']'))
				nest--;
		}
		if (quoted || nest != 0)
			fail("unbalanced schema text", text);
		json_member(&jw, NULL);
		fprintf(out, "%.*s", (int) (p - start), start);
		if (*p == ',')
			p++;
		while (*p == ' ')
			p++;
	}
}

/* ---- the meanings of the members named by data ------------------------------ */

typedef struct named_text
{
	const char *name;
	const char *text;
} named_text;

/*
 * A kind of data-named member: the names its list declares (list), the
 * texts another list of report_members.h gives them (texts_list).
 */
typedef struct text_list
{
	const char *what;			/* "the setting" */
	const char *list;
	const char *texts_list;
	const char *const *names;
	size_t		nnames;
	const named_text *texts;
	size_t		ntexts;
} text_list;

#define LENGTH(a) (sizeof(a) / sizeof((a)[0]))

static const char *const setting_names[] = {
#define SETTING_NAME_(key, kind, field, null, merge, lo, hi) key,
	REPORT_SETTINGS(SETTING_NAME_)
#undef SETTING_NAME_
};
static const named_text setting_texts[] = {
#define SETTING_TEXT(key, meaning) {key, meaning},
	REPORT_SETTING_MEANINGS(SETTING_TEXT)
#undef SETTING_TEXT
};
static const char *const counter_names[] = {
#define COUNTER_NAME_(field, json_name, kind) json_name,
	STATS_COUNTERS(COUNTER_NAME_)
#undef COUNTER_NAME_
};
static const named_text counter_texts[] = {
#define COUNTER_TEXT(json_name, meaning) {json_name, meaning},
	REPORT_COUNTER_MEANINGS(COUNTER_TEXT)
#undef COUNTER_TEXT
};

/* A server counter is named "group.key". */
static const char *const server_counter_names[SRV_NCOUNTERS] = {
#define SERVER_COUNTER_NAME(id, group, key, unit) [id] = group "." key,
	TIMELINE_SERVER_COUNTERS(SERVER_COUNTER_NAME)
#undef SERVER_COUNTER_NAME
};
static const named_text server_counter_texts[] = {
#define SERVER_COUNTER_TEXT(group, key, from) {group "." key, from},
	REPORT_SERVER_COUNTER_SOURCES(SERVER_COUNTER_TEXT)
#undef SERVER_COUNTER_TEXT
};

static const text_list settings_list = {
	"the setting", "REPORT_SETTINGS", "REPORT_SETTING_MEANINGS",
	setting_names, LENGTH(setting_names), setting_texts, LENGTH(setting_texts),
};
static const text_list counters_list = {
	"the transaction counter", "STATS_COUNTERS", "REPORT_COUNTER_MEANINGS",
	counter_names, LENGTH(counter_names), counter_texts, LENGTH(counter_texts),
};
static const text_list server_counters_list = {
	"the server counter", "TIMELINE_SERVER_COUNTERS", "REPORT_SERVER_COUNTER_SOURCES",
	server_counter_names, SRV_NCOUNTERS, server_counter_texts, LENGTH(server_counter_texts),
};

/* The text l gives name: there must be exactly one. */
static const char *
text_of(const text_list *l, const char *name)
{
	const char *text = NULL;
	int			n = 0;
	char		message[256];

	for (size_t i = 0; i < l->ntexts; i++)
		if (strcmp(l->texts[i].name, name) == 0)
			text = l->texts[i].text, n++;
	if (n == 1)
		return text;
	snprintf(message, sizeof(message), "%s %s has %s in %s (include/pgbench/report/report_members.h)",
			 l->what, name, n == 0 ? "no text" : "more than one text", l->texts_list);
	fail(message, "");
	return NULL;
}

/* Every name of l has its text, and every text of l is of one of its names. */
static void
check_texts(const text_list *l)
{
	for (size_t i = 0; i < l->nnames; i++)
		(void) text_of(l, l->names[i]);
	for (size_t i = 0; i < l->ntexts; i++)
	{
		size_t		k = 0;
		char		message[256];

		while (k < l->nnames && strcmp(l->names[k], l->texts[i].name) != 0)
			k++;
		if (k < l->nnames)
			continue;
		snprintf(message, sizeof(message), "%s (include/pgbench/report/report_members.h) has a "
				 "text for %s, which %s does not declare", l->texts_list, l->texts[i].name, l->list);
		fail(message, "");
	}
}

/* ---- the schema ------------------------------------------------------------ */

static const char *const json_types[] = {
	[RT_INT] = "integer", [RT_NUMBER] = "number", [RT_STRING] = "string",
	[RT_BOOL] = "boolean", [RT_OBJECT] = "object", [RT_ARRAY] = "array",
};

/* The type of a setting of kind k (a _PERCENTILES setting's: its items are numbers). */
static const report_type setting_types[] = {
	[SETTING_STRING] = RT_STRING, [SETTING_NAME] = RT_STRING, [SETTING_INT] = RT_INT,
	[SETTING_NUMBER] = RT_NUMBER, [SETTING_BOOL] = RT_BOOL,
	[SETTING_PERCENTILES] = RT_ARRAY, [SETTING_SEED] = RT_INT,
};

static void
put_type(const char *type, bool nullable)
{
	char		text[64];

	if (nullable)
		snprintf(text, sizeof(text), "[\"%s\", \"null\"]", type);
	else
		snprintf(text, sizeof(text), "\"%s\"", type);
	put_raw("type", text);
}

/* The member that holds o first in REPORT_CHILDREN's order, or RM_NONE. */
static report_member
first_holder(report_object o)
{
	for (int m = 0; m < RM_COUNT; m++)
		if (report_member_child((report_member) m) == o)
			return (report_member) m;
	return RM_NONE;
}

static bool
has_first_holder_members(report_object o)
{
	for (int m = 0; m < RM_COUNT; m++)
		if (report_members[m].object == o && (report_members[m].flags & RF_FIRST_HOLDER))
			return true;
	return false;
}

/* Object o's name in $defs: its id in lower case. */
static void
def_name(report_object o, char *buf, size_t len)
{
	size_t		i;

	for (i = 0; object_ids[o][i] != '\0' && i + 1 < len; i++)
		buf[i] = (char) (object_ids[o][i] >= 'A' && object_ids[o][i] <= 'Z' ?
						 object_ids[o][i] - 'A' + 'a' : object_ids[o][i]);
	buf[i] = '\0';
}

/*
 * The $defs name of what holder holds: the object's own, or, for its first
 * holder when it has members only there, "<holder's object>_<key>".
 */
static void
child_def_name(report_member holder, char *buf, size_t len)
{
	report_object c = report_member_child(holder);
	char		own[64];

	def_name(c, own, sizeof(own));
	if (has_first_holder_members(c) && first_holder(c) == holder)
	{
		char		obj[64];

		def_name(report_members[holder].object, obj, sizeof(obj));
		snprintf(buf, len, "%s_%s", obj, report_members[holder].key);
	}
	else
		snprintf(buf, len, "%s", own);
}

/*
 * Writing $defs/unstarted: RF_UNSTARTED_SET members are never null there,
 * and REPORT_UNSTARTED_SCHEMA's members have its schema instead of theirs.
 */
static bool unstarted;

/* The schema of member m: its type, its schema column, what it holds, its meaning. */
static void
put_member(report_member m)
{
	const report_member_def *d = &report_members[m];
	char		ref[128],
				name[64];

	open_block(&jw, d->key, '{');
	put_type(json_types[d->type], d->nullable && !(unstarted && (d->flags & RF_UNSTARTED_SET)));
	put_members_text(unstarted && unstarted_schema[m] != NULL ?
					 unstarted_schema[m] : member_schema[m]);
	if (report_member_child(m) != RO_NONE)
	{
		child_def_name(m, name, sizeof(name));
		snprintf(ref, sizeof(ref), "\"#/$defs/%s\"", name);
		if (d->type == RT_ARRAY)
		{
			open_block(&jw, "items", '{');
			put_raw("type", "\"object\"");
			put_raw("$ref", ref);
			close_block(&jw, '}');
		}
		else
			put_raw("$ref", ref);
	}
	put_str(&jw, "description", member_meaning[m]);
	close_block(&jw, '}');
}

/* A transaction counter of STATS_COUNTERS: an integer, with its meaning. */
static void
put_counter(const char *json_name)
{
	open_block(&jw, json_name, '{');
	put_raw("type", "\"integer\"");
	put_str(&jw, "description", text_of(&counters_list, json_name));
	close_block(&jw, '}');
}

static void
put_counters(stats_counter_kind want)
{
#define COUNTER_PROPERTY(field, json_name, kind) \
	if ((kind) == want) \
		put_counter(json_name);
	STATS_COUNTERS(COUNTER_PROPERTY)
#undef COUNTER_PROPERTY
}

/* Whether member m is in the variant of its object (full: its first holder's). */
static bool
in_variant(int m, report_object o, bool full)
{
	return report_members[m].object == o && (full || !(report_members[m].flags & RF_FIRST_HOLDER));
}

/*
 * The properties of o in the writer's order: `transactions` has the
 * counters of STATS_COUNTERS (put_counts, report_json.c): SUCCESS,
 * `failed`, FAILURE, SKIPPED and RETRY, then its other members.
 */
static void
put_properties(report_object o, bool full, int only_flags)
{
	open_block(&jw, "properties", '{');
	if (o == RO_TRANSACTIONS)
	{
		put_counters(STATS_COUNT_SUCCESS);
		put_member(RM_TRANSACTIONS_FAILED);
		put_counters(STATS_COUNT_FAILURE);
		put_counters(STATS_COUNT_SKIPPED);
		put_counters(STATS_COUNT_RETRY);
	}
	for (int m = 0; m < RM_COUNT; m++)
		if (in_variant(m, o, full) && m != RM_TRANSACTIONS_FAILED &&
			(only_flags == 0 || (report_members[m].flags & only_flags)))
			put_member((report_member) m);
	close_block(&jw, '}');
}

static void
put_counter_names(stats_counter_kind want)
{
#define COUNTER_NAME(field, json_name, kind) \
	if ((kind) == want) \
		put_str(&jw, NULL, json_name);
	STATS_COUNTERS(COUNTER_NAME)
#undef COUNTER_NAME
}

/*
 * The members of o that must be there (of the RF_ only_flags ones, if
 * any), in put_properties's order.
 */
static void
put_required(report_object o, bool full, int only_flags)
{
	open_block(&jw, "required", '[');
	if (o == RO_TRANSACTIONS)
	{
		put_counter_names(STATS_COUNT_SUCCESS);
		put_str(&jw, NULL, report_key(RM_TRANSACTIONS_FAILED));
		put_counter_names(STATS_COUNT_FAILURE);
		put_counter_names(STATS_COUNT_SKIPPED);
		put_counter_names(STATS_COUNT_RETRY);
	}
	for (int m = 0; m < RM_COUNT; m++)
		if (in_variant(m, o, full) && !(report_members[m].flags & RF_OPTIONAL) &&
			m != RM_TRANSACTIONS_FAILED &&
			(only_flags == 0 || (report_members[m].flags & only_flags)))
			put_str(&jw, NULL, report_members[m].key);
	close_block(&jw, ']');
}

/* An object's schema without its type (its holder says whether it may be null). */
static void
put_object_def(const char *name, report_object o, bool full)
{
	open_block(&jw, name, '{');
	put_raw("additionalProperties", "false");
	put_required(o, full, 0);
	put_properties(o, full, 0);
	close_block(&jw, '}');
}

static void
put_object_defs(void)
{
	for (int o = 0; o < RO_COUNT; o++)
	{
		char		name[64];

		if (o == RO_TOP)
			continue;
		def_name((report_object) o, name, sizeof(name));
		put_object_def(name, (report_object) o, false);
		if (has_first_holder_members((report_object) o))
		{
			child_def_name(first_holder((report_object) o), name, sizeof(name));
			put_object_def(name, (report_object) o, true);
		}
	}
}

/* ---- the members named by data ------------------------------------------------ */

static void
put_number(const char *key, double v)
{
	char		text[64];

	snprintf(text, sizeof(text), "%.17g", v);
	put_raw(key, text);
}

/* A setting's type, range (lo, hi: REPORT_SETTINGS's; 0, 0: none) and meaning. */
static void
schema_setting(const char *key, report_setting_kind kind, bool nullable, double lo, double hi)
{
	bool		ranged = (lo != 0 || hi != 0) &&
		(kind == SETTING_INT || kind == SETTING_NUMBER || kind == SETTING_PERCENTILES);

	open_block(&jw, key, '{');
	put_type(json_types[setting_types[kind]], nullable);
	if (kind == SETTING_PERCENTILES)
		open_block(&jw, "items", '{'), put_raw("type", "\"number\"");
	if (ranged)
		put_number("minimum", lo);
	if (ranged && isfinite(hi))
		put_number("maximum", hi);
	if (kind == SETTING_PERCENTILES)
		close_block(&jw, '}');
	put_str(&jw, "description", text_of(&settings_list, key));
	close_block(&jw, '}');
}

/*
 * A range bound of REPORT_SETTINGS as a number: a _NAME setting's lo is its
 * names (not evaluated here), its hi an index, neither a range.
 */
#define SETTING_BOUND(kind, v) \
	((kind) == SETTING_NAME ? 0.0 : _Generic((v), const char *const *: 0.0, default: (v)))

static void
put_settings_def(void)
{
	open_block(&jw, "settings", '{');
	put_raw("additionalProperties", "false");
	open_block(&jw, "required", '[');
#define SETTING_REQUIRED(key, kind, field, null, merge, lo, hi) \
	if (!SETTING_ADDED_##null) \
		put_str(&jw, NULL, key);
	REPORT_SETTINGS(SETTING_REQUIRED)
#undef SETTING_REQUIRED
	close_block(&jw, ']');
	open_block(&jw, "properties", '{');
#define SETTING_PROPERTY(key, kind, field, null, merge, lo, hi) \
	schema_setting(key, kind, SETTING_NULLABLE_##null, SETTING_BOUND(kind, lo), \
				SETTING_BOUND(kind, hi));
	REPORT_SETTINGS(SETTING_PROPERTY)
#undef SETTING_PROPERTY
	close_block(&jw, '}');
	put_str(&jw, "description", "The run's parameters: REPORT_SETTINGS (figures.h), in its order; "
			"those added after a schema version's first reports may be absent.");
	close_block(&jw, '}');
}

/* server.settings: each of SERVER_KEY_SETTINGS, a setting or null. */
static void
put_server_settings_def(void)
{
	static const char *const keys[] = SERVER_KEY_SETTINGS;
	char		name[64],
				ref[128];

	def_name(RO_SERVER_SETTING, name, sizeof(name));
	snprintf(ref, sizeof(ref), "\"#/$defs/%s\"", name);
	open_block(&jw, "server_settings", '{');
	put_raw("additionalProperties", "false");
	open_block(&jw, "required", '[');
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		put_str(&jw, NULL, keys[i]);
	close_block(&jw, ']');
	open_block(&jw, "properties", '{');
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
	{
		open_block(&jw, keys[i], '{');
		put_type("object", true);
		put_raw("$ref", ref);
		close_block(&jw, '}');
	}
	close_block(&jw, '}');
	close_block(&jw, '}');
}

/* The server's counters: an object per group, a member per counter it has. */
static void
put_server_counters_def(void)
{
	const timeline_counter_def *counters = server_counters;
	const char *groups[SRV_NCOUNTERS] = {0};
	int			ngroups = 0;

	for (int c = 0; c < SRV_NCOUNTERS; c++)
		if (ngroups == 0 || strcmp(groups[ngroups - 1], counters[c].group) != 0)
			groups[ngroups++] = counters[c].group;
	open_block(&jw, "server_counters", '{');
	put_raw("additionalProperties", "false");
	open_block(&jw, "properties", '{');
	for (int g = 0; g < ngroups; g++)
	{
		open_block(&jw, groups[g], '{');
		put_raw("type", "\"object\"");
		put_raw("additionalProperties", "false");
		open_block(&jw, "properties", '{');
		for (int c = 0; c < SRV_NCOUNTERS; c++)
			if (strcmp(counters[c].group, groups[g]) == 0)
			{
				open_block(&jw, counters[c].key, '{');
				put_raw("type", strcmp(counters[c].unit, "ms") == 0 ?
						"\"number\"" : "\"integer\"");
				put_str(&jw, "description", text_of(&server_counters_list, server_counter_names[c]));
				close_block(&jw, '}');
			}
		close_block(&jw, '}');
		close_block(&jw, '}');
	}
	close_block(&jw, '}');
	put_str(&jw, "description", "The server's counters (TIMELINE_SERVER_COUNTERS), an object per "
			"group, a member per counter the server has.");
	close_block(&jw, '}');
}

/* ---- the whole schema ---------------------------------------------------------- */

static void
write_schema(void)
{
	char		title[256];

	snprintf(title, sizeof(title),
			 "pgbench --report-json document, schema_version %d (doc/report-json.md); "
			 "a run that never benchmarked: $defs/unstarted", REPORT_JSON_SCHEMA_VERSION);
	open_block(&jw, NULL, '{');
	put_str(&jw, "$schema", "https://json-schema.org/draft/2020-12/schema");
	put_str(&jw, "$id", "pgbench-report-json-schema-3");
	put_str(&jw, "title", title);
	put_str(&jw, "$comment", "Generated by tools/report_format.c from report_members.h: "
			"do not edit; scripts/report-format.sh --update writes it again.");
	put_raw("type", "\"object\"");
	put_raw("additionalProperties", "false");
	put_required(RO_TOP, true, 0);
	put_properties(RO_TOP, true, 0);
	open_block(&jw, "$defs", '{');
	open_block(&jw, "unstarted", '{');
	put_raw("type", "\"object\"");
	put_raw("additionalProperties", "false");
	put_required(RO_TOP, true, RF_UNSTARTED);
	unstarted = true;
	put_properties(RO_TOP, true, RF_UNSTARTED);
	unstarted = false;
	close_block(&jw, '}');
	put_object_defs();
	put_settings_def();
	put_server_settings_def();
	put_server_counters_def();
	close_block(&jw, '}');
	close_block(&jw, '}');
	fputc('\n', out);
}

/* ---- the doc's member tables ------------------------------------------------- */

static char *
read_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	char	   *text;
	long		len;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
		fseek(f, 0, SEEK_SET) != 0)
		fail("cannot read", path);
	text = malloc((size_t) len + 1);
	if (text == NULL || fread(text, 1, (size_t) len, f) != (size_t) len)
		fail("cannot read", path);
	text[len] = '\0';
	fclose(f);
	return text;
}

/*
 * The line after the heading of o's section ("## heading" or "### heading",
 * then the end of the line, a space or a parenthesis), or NULL.
 */
static const char *
find_section(const char *text, const char *heading)
{
	size_t		hlen = strlen(heading);

	for (const char *p = text; p != NULL; p = strchr(p, '\n'))
	{
		const char *h;

		p += *p == '\n';
		h = p + strspn(p, "#");
		if (h == p || h[0] != ' ' || strncmp(h + 1, heading, hlen) != 0 ||
			strchr("\n (", h[1 + hlen]) == NULL)
			continue;
		return strchr(h, '\n') != NULL ? strchr(h, '\n') + 1 : NULL;
	}
	return NULL;
}

static void
put_row(const char *key, const char *type, const char *meaning)
{
	fprintf(out, "| `%s` | %s | %s |\n", key, type, meaning);
}

static void
put_counter_rows(stats_counter_kind want)
{
#define COUNTER_ROW(field, json_name, kind) \
	if ((kind) == want) \
		put_row(json_name, "int", text_of(&counters_list, json_name));
	STATS_COUNTERS(COUNTER_ROW)
#undef COUNTER_ROW
}

static void
put_member_row(report_member m)
{
	const report_member_def *d = &report_members[m];

	put_row(d->key, report_type_text(d->type, d->nullable), member_meaning[m]);
}

/* The rows of o's table, in the order of put_properties. */
static void
put_rows(report_object o)
{
	if (o == RO_TRANSACTIONS)
	{
		put_counter_rows(STATS_COUNT_SUCCESS);
		put_member_row(RM_TRANSACTIONS_FAILED);
		put_counter_rows(STATS_COUNT_FAILURE);
		put_counter_rows(STATS_COUNT_SKIPPED);
		put_counter_rows(STATS_COUNT_RETRY);
	}
	for (int m = 0; m < RM_COUNT; m++)
		if (report_members[m].object == o && m != RM_TRANSACTIONS_FAILED)
			put_member_row((report_member) m);
}

/* The rows of the settings' table: REPORT_SETTINGS, in its order. */
static void
put_setting_rows(void)
{
	const char *type;

#define SETTING_ROW(key, kind, field, null, merge, lo, hi) \
	type = (kind) == SETTING_PERCENTILES ? \
		(SETTING_NULLABLE_##null ? "array of numbers or null" : "array of numbers") : \
		report_type_text(setting_types[kind], SETTING_NULLABLE_##null); \
	put_row(key, type, text_of(&settings_list, key));
	REPORT_SETTINGS(SETTING_ROW)
#undef SETTING_ROW
}

/* The rows of the server's counters' table: TIMELINE_SERVER_COUNTERS, in its order. */
static void
put_server_counter_rows(void)
{
	for (int c = 0; c < SRV_NCOUNTERS; c++)
	{
		const timeline_counter_def *d = &server_counters[c];

		fprintf(out, "| `%s` | `%s` | %s | %s |\n", d->group, d->key,
				d->unit[0] != '\0' ? d->unit : "count",
				text_of(&server_counters_list, server_counter_names[c]));
	}
}

#define MEMBER_TABLE "| field | type | meaning |\n| --- | --- | --- |\n"
#define COUNTER_TABLE "| group | counter | unit | from |\n| --- | --- | --- | --- |\n"

/*
 * The tables of the members named by data, each after the table of an
 * object (the doc's order): the section's heading, the table's head and
 * the writer of its rows.
 */
static const struct
{
	report_object after;
	const char *heading;
	const char *header;
	void		(*put_rows) (void);
}			data_tables[] = {
	{RO_CONNECTION, "`settings`", MEMBER_TABLE, put_setting_rows},
	{RO_WAITS, "The server's counters", COUNTER_TABLE, put_server_counter_rows},
};

/*
 * The table of the section at body: its first header line before the
 * next heading, in *start, and the end of its rows, or NULL when there is
 * none.
 */
static const char *
find_table(const char *body, const char *header, const char **start)
{
	const char *p;

	for (p = body; *p != '\0' && *p != '#'; p = strchr(p, '\n') != NULL ? strchr(p, '\n') + 1 : "")
		if (strncmp(p, header, strlen(header)) == 0)
			break;
	if (strncmp(p, header, strlen(header)) != 0)
		return NULL;
	*start = p + strlen(header);
	for (p = *start; *p == '|'; p = strchr(p, '\n') != NULL ? strchr(p, '\n') + 1 : "")
		;
	return p;
}

/*
 * The doc from done up to the rows of the table with header in the
 * section headed heading (the first after done); the end of those rows,
 * which the caller writes again.
 */
static const char *
put_up_to_rows(const char *done, const char *heading, const char *header)
{
	const char *body = find_section(done, heading);
	const char *rows = NULL;
	const char *end = body != NULL ? find_table(body, header, &rows) : NULL;
	char		head[64];

	if (body == NULL)
		fail("doc: no section headed (after the previous table's)", heading);
	snprintf(head, sizeof(head), "%.*s", (int) strcspn(header, "\n"), header);
	if (end == NULL)
		fail("doc: no such table in the section", head);
	fwrite(done, 1, (size_t) (rows - done), out);
	return end;
}

/*
 * in with the rows of each table written again, the rest as it is: the
 * tables are found in REPORT_OBJECTS's order with data_tables among them,
 * which is the doc's order of the sections.
 */
static void
write_doc(const char *in)
{
	const char *done = in;

	for (int o = 0; o < RO_COUNT; o++)
	{
		done = put_up_to_rows(done, report_object_headings[o], MEMBER_TABLE);
		put_rows((report_object) o);
		for (size_t t = 0; t < sizeof(data_tables) / sizeof(data_tables[0]); t++)
			if (data_tables[t].after == o)
			{
				done = put_up_to_rows(done, data_tables[t].heading, data_tables[t].header);
				data_tables[t].put_rows();
			}
	}
	fputs(done, out);
}

/*
 * Every member, setting and counter has its meaning (its doc row, its
 * schema's description), exactly one, and every meaning is of one of
 * them: a setting or counter added without its text fails the build.
 */
static void
check_meanings(void)
{
	for (int m = 0; m < RM_COUNT; m++)
		if (member_meaning[m] == NULL || member_meaning[m][0] == '\0')
			fail("a member without a meaning in report_members.h", report_members[m].key);
	check_texts(&settings_list);
	check_texts(&counters_list);
	check_texts(&server_counters_list);
}

int
main(int argc, char **argv)
{
	const char *path = argc == 3 ? argv[2] : argc == 4 ? argv[3] : NULL;
	char	   *in = NULL;

	if (path == NULL || (strcmp(argv[1], "schema") != 0 && strcmp(argv[1], "doc") != 0) ||
		(strcmp(argv[1], "doc") == 0) != (argc == 4))
	{
		fprintf(stderr, "usage: report_format schema OUT | report_format doc IN OUT\n");
		return 2;
	}
	check_meanings();
	if (argc == 4)
		in = read_file(argv[2]);
	out = fopen(path, "w");
	if (out == NULL)
		fail("cannot write", path);
	jw.out = out;
	if (in != NULL)
		write_doc(in);
	else
		write_schema();
	if (fclose(out) != 0)
		fail("cannot write", path);
	free(in);
	return 0;
}
