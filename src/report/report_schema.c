/*
 * report_schema.c — REPORT_MEMBERS and REPORT_OBJECTS (report_schema.h)
 * as tables.
 */
#include <string.h>

#include "pgbench/report/report_schema.h"

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
