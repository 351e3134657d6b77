/*
 * report_schema.h — the members of a --report-json document, declared
 * once: for each object of the document, its members in the order the
 * writer writes them, each with its key, its JSON type, whether it may be
 * null, its unit, and what --merge-reports does with it.
 *
 * The list itself is in report_members.h: with each member, what the
 * documents say of it beyond its type (its meaning, the doc's row, in
 * markdown; the JSON Schema's keywords; whether it may be absent).
 *
 * The writer (report_json*.c) names every member it writes by its id
 * (RM_<object>_<member>), the merge reader (merge_*.c) every member it
 * reads.  tools/report_format.c makes from the list, on every build,
 * doc/report-json.schema.json and the member tables of
 * doc/report-json.md (one per object, under the heading REPORT_OBJECTS
 * gives, row for row in this order; the prose around them is kept); the
 * test report_format fails when the committed copies differ from them.
 * t/unit/test_report_schema.c checks that a written report holds every
 * member, each at the type declared, and the Perl tests check real runs'
 * documents against the generated schema.  Members whose names come from
 * data (percentiles, wait events, the server's settings and counters, the
 * settings of REPORT_SETTINGS, the counters of STATS_COUNTERS) are
 * declared by those lists and appear here as the object that holds them;
 * the doc's tables of the settings, of the transaction counters and of
 * the server's counters are generated too, from those lists and the
 * texts report_members.h gives each (REPORT_SETTING_MEANINGS,
 * REPORT_COUNTER_MEANINGS, REPORT_SERVER_COUNTER_SOURCES).
 *
 * Adding a member: one entry in report_members.h (in the writer's order,
 * with its meaning), its put in the writer, its read in the merge if it
 * is an input of the figures; then scripts/report-format.sh --update
 * writes the schema and the doc's table again (the test report_format
 * says so when it was forgotten, test_report_schema when the writer does
 * not write the member).  Adding a setting to REPORT_SETTINGS, a counter
 * to STATS_COUNTERS or TIMELINE_SERVER_COUNTERS: its text in the list of
 * report_members.h beside the others, or the build fails
 * (tools/report_format.c names what has none, and a text that names
 * nothing declared).
 */
#ifndef PGBENCH_REPORT_SCHEMA_H
#define PGBENCH_REPORT_SCHEMA_H

#include <stdbool.h>

/* The JSON type of a member (when not null). */
typedef enum report_type
{
	RT_INT,						/* an integer (int64, or uint64 for the seed) */
	RT_NUMBER,					/* any number */
	RT_STRING,
	RT_BOOL,
	RT_OBJECT,
	RT_ARRAY,
} report_type;

/* What --merge-reports does with a member. */
typedef enum report_use
{
	RU_READ,					/* an input of the merged figures: read and checked */
	RU_CHECKED,					/* read to check the inputs agree (or identify them) */
	RU_SHOWN,					/* computed again from the inputs: not read */
} report_use;

/*
 * The objects, each with the heading of its table in doc/report-json.md
 * (the text up to the first space or parenthesis).
 */
#define REPORT_OBJECTS(X) \
	X(TOP, "Top level") \
	X(CONNECTION, "`connection`") \
	X(TRANSACTIONS, "`transactions`") \
	X(RECONNECT, "`reconnect`") \
	X(LATENCY, "`latency_ms`") \
	X(LAG, "`lag_ms`") \
	X(SCRIPT, "`scripts[]`") \
	X(COMMAND, "`scripts[].commands[]`") \
	X(ABORT, "`aborted_clients[]`") \
	X(SERVER, "`server`") \
	X(SERVER_SETTING, "`server.settings.*`") \
	X(CLIENT, "`client`") \
	X(SERVER_STATS, "`server_stats`") \
	X(COMMITS, "`server_stats.commits`") \
	X(CHECKPOINT, "`server_stats.checkpoints[]`") \
	X(WAITS, "`server_stats.wait_events`") \
	X(SERIES, "`series`") \
	X(POINT, "`series.points[]`") \
	X(POINT_LATENCY, "`series.points[].latency_ms`") \
	X(POINT_LAG, "`series.points[].lag_ms`") \
	X(POINT_CLIENT, "`series.points[].client`") \
	X(POINT_SERVER, "`series.points[].server`") \
	X(PROCESSES, "`series.points[].server.processes`") \
	X(HOST, "`series.points[].host`") \
	X(HOST_CPU, "`series.points[].host.cpu_s`") \
	X(POINT_HIST, "`series.points[].histogram`") \
	X(HISTOGRAM, "`latency_histogram`") \
	X(RENDEZVOUS, "`rendezvous`") \
	X(MERGE, "`merge`") \
	X(INPUT, "`inputs[]`") \
	X(INPUT_RENDEZVOUS, "`inputs[].rendezvous`") \
	X(SERVERS, "`servers[]`") \
	X(THRESHOLD, "`thresholds[]`")

/* Where a member may be missing, beyond null (the flags column). */
typedef enum report_flag
{
	RF_OPTIONAL = 1 << 0,		/* may be absent (`signal` when not
								 * interrupted, members added later) */
	RF_UNSTARTED = 1 << 1,		/* a top-level member of the document of a
								 * run that never benchmarked
								 * ($defs/unstarted in the schema) */
	RF_UNSTARTED_SET = 1 << 2,	/* never null in that document */
	RF_FIRST_HOLDER = 1 << 3,	/* only in the object its first holder in
								 * REPORT_CHILDREN holds (the top level's
								 * `transactions` has `expected`, a
								 * script's has not) */
} report_flag;

/* A macro's value as a string literal (the schema column). */
#define REPORT_STR(x) REPORT_STR_(x)
#define REPORT_STR_(x) #x

/*
 * REPORT_MEMBERS: X(object, id, key, type, nullable, unit, use, flags,
 * schema, meaning), in report_members.h: unit "" for counts, flags and
 * text; flags RF_ bits; schema the JSON Schema keywords beyond the type
 * (JSON members' text, "" for none); meaning the doc's row (markdown).
 */
#include "pgbench/report/report_members.h"

/*
 * The object (or, for an array, the object of each item) a member holds:
 * X(object, member, child).  Members not listed hold scalars, arrays of
 * scalars, or objects whose members are named by data.
 */
#define REPORT_CHILDREN(X) \
	X(TOP, CONNECTION, CONNECTION) \
	X(TOP, ABORTED_CLIENTS, ABORT) \
	X(TOP, TRANSACTIONS, TRANSACTIONS) \
	X(TOP, RECONNECT, RECONNECT) \
	X(TOP, LATENCY_MS, LATENCY) \
	X(TOP, LAG_MS, LAG) \
	X(TOP, SCRIPTS, SCRIPT) \
	X(TOP, SERVER, SERVER) \
	X(TOP, CLIENT, CLIENT) \
	X(TOP, SERVER_STATS, SERVER_STATS) \
	X(TOP, SERIES, SERIES) \
	X(TOP, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(TOP, RENDEZVOUS, RENDEZVOUS) \
	X(TOP, MERGE, MERGE) \
	X(TOP, INPUTS, INPUT) \
	X(TOP, SERVERS, SERVERS) \
	X(TOP, THRESHOLDS, THRESHOLD) \
	X(SCRIPT, TRANSACTIONS, TRANSACTIONS) \
	X(SCRIPT, LATENCY_MS, LATENCY) \
	X(SCRIPT, COMMANDS, COMMAND) \
	X(SCRIPT, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(COMMAND, LATENCY_MS, LATENCY) \
	X(COMMAND, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(SERVER, NON_DEFAULT, SERVER_SETTING) \
	X(SERVER_STATS, COMMITS, COMMITS) \
	X(SERVER_STATS, CHECKPOINTS, CHECKPOINT) \
	X(SERVER_STATS, WAIT_EVENTS, WAITS) \
	X(SERIES, POINTS, POINT) \
	X(POINT, LATENCY_MS, POINT_LATENCY) \
	X(POINT, LAG_MS, POINT_LAG) \
	X(POINT, CLIENT, POINT_CLIENT) \
	X(POINT, SERVER, POINT_SERVER) \
	X(POINT, HOST, HOST) \
	X(POINT, HISTOGRAM, POINT_HIST) \
	X(POINT_SERVER, WAIT_EVENTS, WAITS) \
	X(POINT_SERVER, PROCESSES, PROCESSES) \
	X(HOST, CPU_S, HOST_CPU) \
	X(INPUT, RENDEZVOUS, INPUT_RENDEZVOUS)

typedef enum report_object
{
	RO_NONE = -1,				/* scalars, or members named by data */
#define REPORT_OBJECT_ID(id, heading) RO_##id,
	REPORT_OBJECTS(REPORT_OBJECT_ID)
#undef REPORT_OBJECT_ID
	RO_COUNT
} report_object;

typedef enum report_member
{
	RM_NONE = -1,				/* an array's item: no key */
#define REPORT_MEMBER_ID(obj, id, key, type, nullable, unit, use, flags, schema, meaning) \
	RM_##obj##_##id,
	REPORT_MEMBERS(REPORT_MEMBER_ID)
#undef REPORT_MEMBER_ID
	RM_COUNT
} report_member;

typedef struct report_member_def
{
	report_object object;
	const char *key;
	report_type type;
	bool		nullable;
	const char *unit;			/* "" for counts, flags and text */
	report_use	use;
	int			flags;			/* RF_ bits */
} report_member_def;

/* REPORT_MEMBERS and REPORT_OBJECTS as tables, by id (report_schema.c). */
extern const report_member_def report_members[RM_COUNT];
extern const char *const report_object_headings[RO_COUNT];

/* The object member m holds (REPORT_CHILDREN), or RO_NONE. */
report_object report_member_child(report_member m);

/* The member of object o named key, or RM_NONE. */
report_member report_member_of(report_object o, const char *key);

/* The key of member m. */
static inline const char *
report_key(report_member m)
{
	return report_members[m].key;
}

/* "int", "number or null", ...: the type as doc/report-json.md says it. */
const char *report_type_text(report_type type, bool nullable);

#endif
