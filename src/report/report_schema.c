/*
 * report_schema.c — REPORT_MEMBERS and REPORT_OBJECTS (report_schema.h)
 * as tables.
 */
#include <string.h>

#include "pgbench/report/json_read.h"
#include "pgbench/report/report_schema.h"
#include "pgbench/stats/stats.h"

const report_member_def report_members[RM_COUNT] = {
#define REPORT_MEMBER_DEF(obj, id, key_, type_, nullable_, unit_, use_, flags_, schema_, meaning_) \
	[RM_##obj##_##id] = {.object = RO_##obj, .key = (key_), .type = (type_), \
		.nullable = (nullable_), .unit = (unit_), .use = (use_), \
		.flags = (flags_)},
	REPORT_MEMBERS(REPORT_MEMBER_DEF)
#undef REPORT_MEMBER_DEF
};

const char *const report_object_headings[RO_COUNT] = {
#define REPORT_OBJECT_HEADING(id, heading) [RO_##id] = (heading),
	REPORT_OBJECTS(REPORT_OBJECT_HEADING)
#undef REPORT_OBJECT_HEADING
};

const char *
report_type_text(report_type type, bool nullable)
{
	static const char *const names[][2] = {
		[RT_INT] = {"int", "int or null"},
		[RT_NUMBER] = {"number", "number or null"},
		[RT_STRING] = {"string", "string or null"},
		[RT_BOOL] = {"bool", "bool or null"},
		[RT_OBJECT] = {"object", "object or null"},
		[RT_ARRAY] = {"array", "array or null"},
	};

	return names[type][nullable ? 1 : 0];
}

report_object
report_member_child(report_member m)
{
	static const struct
	{
		report_member member;
		report_object child;
	}			children[] = {
#define REPORT_CHILD_DEF(obj, id, child_) {RM_##obj##_##id, RO_##child_},
		REPORT_CHILDREN(REPORT_CHILD_DEF)
#undef REPORT_CHILD_DEF
	};

	for (size_t i = 0; i < sizeof(children) / sizeof(children[0]); i++)
		if (children[i].member == m)
			return children[i].child;
	return RO_NONE;
}

report_member
report_member_of(report_object o, const char *key)
{
	for (int m = 0; m < RM_COUNT; m++)
		if (report_members[m].object == o && strcmp(report_members[m].key, key) == 0)
			return (report_member) m;
	return RM_NONE;
}

bool
report_value_fits(report_member m, const json_value *v)
{
	const report_member_def *d = &report_members[m];

	switch (v->kind)
	{
		case JSON_NULL:
			return d->nullable;
		case JSON_NUMBER:
			return d->type == RT_NUMBER ||
				(d->type == RT_INT && (v->number == JSON_INT64 || v->number == JSON_UINT64));
		case JSON_STRING:
			return d->type == RT_STRING;
		case JSON_BOOL:
			return d->type == RT_BOOL;
		case JSON_OBJECT:
			return d->type == RT_OBJECT;
		case JSON_ARRAY:
			return d->type == RT_ARRAY;
	}
	return false;
}

/* The value of member key of obj (an object), or NULL. */
static const json_value *
member_value(const json_value *obj, const char *key)
{
	for (int i = 0; i < obj->n; i++)
		if (strcmp(obj->u.items[2 * i].u.string, key) == 0)
			return &obj->u.items[2 * i + 1];
	return NULL;
}

/* A transaction counter of STATS_COUNTERS by its JSON name. */
static bool
is_counter(const char *key)
{
#define COUNTER_IS(field, json_name, kind) \
	if (strcmp(key, json_name) == 0) \
		return true;
	STATS_COUNTERS(COUNTER_IS)
#undef COUNTER_IS
	return false;
}

/* Whether declared member m of an object held by holder must be there. */
static bool
must_be_there(report_member m, report_member holder, bool unstarted)
{
	const report_member_def *d = &report_members[m];

	if (d->flags & RF_OPTIONAL)
		return false;
	if (unstarted)
		return (d->flags & RF_UNSTARTED) != 0;
	if ((d->flags & RF_FIRST_HOLDER) && holder != RM_NONE)
	{
		for (int h = 0; h < RM_COUNT; h++)
			if (report_member_child((report_member) h) == d->object)
				return h == holder;
	}
	return true;
}

report_offence
report_object_check(report_object o, report_member holder, bool unstarted, const json_value *obj,
					const char **key)
{
	for (int i = 0; i < obj->n; i++)
	{
		const json_value *v = &obj->u.items[2 * i + 1];
		report_member m = report_member_of(o, obj->u.items[2 * i].u.string);

		*key = obj->u.items[2 * i].u.string;
		if (m == RM_NONE && o == RO_TRANSACTIONS && is_counter(*key))
		{
			if (v->kind != JSON_NUMBER || v->number != JSON_INT64)
				return RX_MISTYPED;
			continue;
		}
		if (m == RM_NONE || (unstarted && !(report_members[m].flags & RF_UNSTARTED)))
			return RX_UNDECLARED;
		if (!report_value_fits(m, v))
			return RX_MISTYPED;
	}
	for (int m = 0; m < RM_COUNT; m++)
		if (report_members[m].object == o && must_be_there((report_member) m, holder, unstarted) &&
			member_value(obj, report_members[m].key) == NULL)
		{
			*key = report_members[m].key;
			return RX_MISSING;
		}
#define COUNTER_THERE(field, json_name, kind) \
	if (o == RO_TRANSACTIONS && member_value(obj, json_name) == NULL) \
	{ \
		*key = json_name; \
		return RX_MISSING; \
	}
	STATS_COUNTERS(COUNTER_THERE)
#undef COUNTER_THERE
	return RX_NONE;
}
