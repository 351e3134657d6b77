/*
 * merge_ident.c — which runs the reports given to --merge-reports hold,
 * and whether they make a whole: each report's run id and rendezvous
 * membership (doc/report-json.md, "run_id", "rendezvous", "inputs") read
 * and checked, the same run given twice refused, and every rendezvous
 * group checked for completeness before the merged report is made
 * (doc/fleet.md, "What the merge refuses").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "merge_int.h"

/* How many missing members a message lists before "and N more". */
#define SHOW_MISSING 10

/*
 * The members that identify a run: those of a report of its own (its
 * "run_id" and "rendezvous") or of an entry of a merged report's
 * "inputs", which have the same keys but are declared apart.
 */
typedef struct ident_members
{
	report_member run_id;
	report_member rendezvous;
	report_member group;		/* those of "rendezvous" */
	report_member size;
	report_member member;
	report_member start;
} ident_members;

static const ident_members of_report = {
	RM_TOP_RUN_ID, RM_TOP_RENDEZVOUS, RM_RENDEZVOUS_GROUP, RM_RENDEZVOUS_SIZE,
	RM_RENDEZVOUS_MEMBER, RM_RENDEZVOUS_START_SERVER_EPOCH_US,
};
static const ident_members of_input = {
	RM_INPUT_RUN_ID, RM_INPUT_RENDEZVOUS, RM_INPUT_RENDEZVOUS_GROUP, RM_INPUT_RENDEZVOUS_SIZE,
	RM_INPUT_RENDEZVOUS_MEMBER, RM_INPUT_RENDEZVOUS_START_SERVER_EPOCH_US,
};

/* A run id as random_run_id writes it: 32 lowercase hexadecimal digits. */
static bool
is_run_id(const char *s)
{
	size_t		n = strspn(s, "0123456789abcdef");

	return n == RANDOM_RUN_ID_LEN && s[n] == '\0';
}

/*
 * "run_id" of obj (its members im) into out ("" for null or, when
 * optional, missing: an unidentified report).  false with rd->err filled.
 */
static bool
read_run_id(const merge_reading *rd, const json_ref *obj, const ident_members *im, bool optional,
			char *out)
{
	json_ref	r = merge_at(obj, im->run_id);
	const char *id;

	out[0] = '\0';
	if (optional && r.v == NULL)
		return true;
	if (!merge_str_null(rd, obj, im->run_id, &id))
		return false;
	if (id == NULL)
		return true;
	if (!is_run_id(id))
		return merge_bad(rd, &r, "expected a run id (%d lowercase hexadecimal digits)",
						 RANDOM_RUN_ID_LEN);
	memcpy(out, id, RANDOM_RUN_ID_LEN + 1);
	return true;
}

/*
 * "rendezvous" of obj (its members im): null (*in_group false), or a
 * group name, its size, this member's index and the agreed start,
 * checked, into *out.
 */
static bool
read_group(const merge_reading *rd, const json_ref *obj, const ident_members *im,
		   rendezvous_info *out, bool *in_group)
{
	json_ref	rv,
				r;
	const char *group;
	int64_t		size,
				member;

	memset(out, 0, sizeof(*out));
	if (!merge_container_null(rd, obj, im->rendezvous, JSON_OBJECT, &rv, in_group))
		return false;
	if (!*in_group)
		return true;
	if (!merge_str(rd, &rv, im->group, &group))
		return false;
	r = merge_at(&rv, im->group);
	if (strlen(group) > RENDEZVOUS_MAX_NAME)
		return merge_bad(rd, &r, "longer than %d bytes", RENDEZVOUS_MAX_NAME);
	if (group[0] == '\0')
		return merge_bad(rd, &r, "empty");
	if (!merge_int(rd, &rv, im->size, 1, RENDEZVOUS_MAX_SIZE, &size) ||
		!merge_int(rd, &rv, im->member, 0, size - 1, &member) ||
		!merge_int(rd, &rv, im->start, 0, MERGE_MAX_EPOCH_US, &out->start_server_us))
		return false;
	snprintf(out->group, sizeof(out->group), "%s", group);
	out->size = (int) size;
	out->member = (int) member;
	return true;
}

/* One rendezvous: the same name and the same agreed start. */
static bool
same_group(const report_source *a, const report_source *b)
{
	return a->in_group && b->in_group && strcmp(a->group.group, b->group.group) == 0 &&
		a->group.start_server_us == b->group.start_server_us;
}

/*
 * Both runs were given as report files of their own (not inside a merged
 * report), k one of those held so far.
 */
static bool
both_direct(const merge_acc *acc, int input, const report_source *s, int k)
{
	return strcmp(acc->inputs[input].run_id, s->run_id) == 0 &&
		strcmp(acc->inputs[acc->source_input[k]].run_id, s->run_id) == 0;
}

/*
 * Source s (in input number input, described by the object where, of
 * members im: the report, or an entry of its "inputs") against the runs
 * held so far: not one of them, not a member of a group already given,
 * nor of another size.  Then added.  false with rd->err filled.
 */
static bool
add_source(merge_acc *acc, const merge_reading *rd, int input, const report_source *s,
		   const json_ref *where, const ident_members *im)
{
	json_ref	id = merge_at(where, im->run_id);
	json_ref	rv = merge_at(where, im->rendezvous);
	json_ref	size = merge_at(&rv, im->size);
	json_ref	member = merge_at(&rv, im->member);

	for (int k = 0; k < acc->nsources; k++)
	{
		const report_source *o = &acc->sources[k];

		if (s->run_id[0] != '\0' && strcmp(s->run_id, o->run_id) == 0)
		{
			if (acc->source_input[k] == input)
				return merge_bad(rd, &id, "run %s is listed twice", s->run_id);
			if (!both_direct(acc, input, s, k))
				return merge_bad(rd, &id, "run %s is in %s already", s->run_id, o->file);
			return merge_fail(rd->err, "%s: the same run as %s (run id %s)", s->file, o->file,
							  s->run_id);
		}
		if (!same_group(s, o))
			continue;
		if (s->group.size != o->group.size)
			return merge_bad(rd, &size, "%d, but %s gives rendezvous group \"%s\" %d members",
							 s->group.size, o->file, s->group.group, o->group.size);
		if (s->group.member == o->group.member)
			return merge_bad(rd, &member, "member %d of rendezvous group \"%s\" is in %s already",
							 s->group.member, s->group.group, o->file);
	}
	if (acc->nsources >= MERGE_MAX_SOURCES)
		return merge_bad(rd, where, "more than %d runs in the reports", MERGE_MAX_SOURCES);
	acc->sources = pgb_realloc(acc->sources, (size_t) (acc->nsources + 1) * sizeof(report_source));
	acc->source_input = pgb_realloc(acc->source_input, (size_t) (acc->nsources + 1) * sizeof(int));
	acc->sources[acc->nsources] = *s;
	acc->source_input[acc->nsources] = input;
	acc->nsources++;
	return true;
}

/* The entries of a merged report's "inputs": the runs it holds. */
static bool
add_inputs(merge_acc *acc, const merge_reading *rd, const json_ref *inputs, int input)
{
	for (int i = 0; i < inputs->v->n; i++)
	{
		json_ref	e = json_ref_item(inputs, i);
		report_source s = {.file = rd->file};
		const char *name;

		if (e.v->kind != JSON_OBJECT)
			return merge_bad(rd, &e, "expected an object, found %s", json_kind_name(e.v));
		if (!merge_str(rd, &e, RM_INPUT_FILE, &name) ||
			!read_run_id(rd, &e, &of_input, false, s.run_id) ||
			!read_group(rd, &e, &of_input, &s.group, &s.in_group) ||
			!merge_read_server_of_input(rd, &e, &s) ||
			!add_source(acc, rd, input, &s, &e, &of_input))
			return false;
	}
	return true;
}

bool
merge_identify(merge_acc *acc, const merge_reading *rd, const json_ref *doc, merge_window *w)
{
	int			input = acc->ninstances;
	report_source self = {.file = rd->file};
	json_ref	inputs = merge_at(doc, RM_TOP_INPUTS);
	bool		merged = false;

	if (!read_run_id(rd, doc, &of_report, true, self.run_id) ||
		!read_group(rd, doc, &of_report, &self.group, &self.in_group) ||
		(inputs.v != NULL &&
		 !merge_container_null(rd, doc, RM_TOP_INPUTS, JSON_ARRAY, &inputs, &merged)))
		return false;
	acc->inputs = pgb_realloc(acc->inputs, (size_t) (input + 1) * sizeof(merge_input));
	acc->inputs[input].file = rd->file;
	memcpy(acc->inputs[input].run_id, self.run_id, sizeof(self.run_id));
	if (self.in_group)
	{
		snprintf(w->group, sizeof(w->group), "%s", self.group.group);
		w->server_start_us = self.group.start_server_us;
	}
	if (!merged)
		return merge_read_server_of_run(rd, doc, &self) &&
			add_source(acc, rd, input, &self, doc, &of_report);

	/* a merged report's own id first: given twice, it is one run twice */
	for (int i = 0; self.run_id[0] != '\0' && i < input; i++)
		if (strcmp(acc->inputs[i].run_id, self.run_id) == 0)
		{
			return merge_fail(rd->err, "%s: the same run as %s (run id %s)", rd->file,
							  acc->inputs[i].file, self.run_id);
		}
	return add_inputs(acc, rd, &inputs, input);
}

/* "member 2", "members 0, 1 and 2", "members 0, 1, ... and 9990 more". */
static void
list_missing(const bool *seen, int size, int nmissing, char *buf, size_t len)
{
	size_t		used = 0;
	int			shown = 0;

	used += (size_t) snprintf(buf, len, "member%s", nmissing > 1 ? "s" : "");
	for (int m = 0; m < size && shown < SHOW_MISSING && used < len; m++)
	{
		if (seen[m])
			continue;
		shown++;
		used += (size_t) snprintf(buf + used, len - used, "%s %d",
								  shown == 1 ? "" : shown == nmissing ? " and" : ",", m);
	}
	if (shown < nmissing && used < len)
		snprintf(buf + used, len - used, " and %d more", nmissing - shown);
}

/*
 * The group of source first (every source of it from first on marked in
 * done): whole, or a message naming what is missing, err's error unless
 * acc->partial (then one of its warnings).  false when refused.
 */
static bool
check_group(const merge_acc *acc, int first, bool *done, merge_error *err)
{
	const report_source *g = &acc->sources[first];
	bool	   *seen = pgb_calloc((size_t) g->group.size, sizeof(bool));
	int			given = 0;
	char		missing[256];

	for (int k = first; k < acc->nsources; k++)
		if (same_group(g, &acc->sources[k]))
		{
			done[k] = true;
			seen[acc->sources[k].group.member] = true;
			given++;
		}
	if (given < g->group.size)
		list_missing(seen, g->group.size, g->group.size - given, missing, sizeof(missing));
	free(seen);
	if (given == g->group.size)
		return true;
	if (acc->partial)
	{
		merge_warn(err, "rendezvous group \"%s\" is incomplete: %d of its %d members given, %s missing",
				   g->group.group, given, g->group.size, missing);
		return true;
	}
	merge_fail(err, "rendezvous group \"%s\" is incomplete: %d of its %d members given, %s missing",
			   g->group.group, given, g->group.size, missing);
	err->hint = "Give every member's report, or --merge-partial to merge them anyway.";
	return false;
}

bool
merge_check_groups(const merge_acc *acc, merge_error *err)
{
	bool	   *done = pgb_calloc((size_t) (acc->nsources > 0 ? acc->nsources : 1), sizeof(bool));
	bool		ok = true;

	for (int k = 0; ok && k < acc->nsources; k++)
		if (acc->sources[k].in_group && !done[k])
			ok = check_group(acc, k, done, err);
	free(done);
	return ok;
}
