/*
 * report_check.c — a report file read back, object by object, against
 * the declaration of its members (report_check.h).
 */
#include <string.h>

#include "pgbench/offline/json_read.h"
#include "pgbench/offline/report_check.h"
#include "pgbench/stats/stats.h"

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
