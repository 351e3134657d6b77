/*
 * test_json_read.c — the JSON reader of --merge-reports (json_read.h):
 * every kind of value, exact integers (int64, a seed above INT64_MAX
 * keeps its bits, beyond uint64 a double), string escapes with surrogate
 * pairs, UTF-8, copies, paths, and the errors a damaged or hostile file
 * gives (with their line and column), as rows of a table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/offline/json_read.h"
#include "tap.h"

/* Documents that must be refused, and the message. */
static const struct
{
	const char *text;
	const char *error;
}			bad_rows[] = {
	{"", "line 1, column 1: unexpected end of input"},
	{"{\"a\":", "line 1, column 6: unexpected end of input"},
	{"{\"a\" 1}", "line 1, column 6: expected ':'"},
	{"[1,\n2", "line 2, column 2: expected ',' or ']'"},
	{"[1] 2", "line 1, column 5: unexpected text after the document"},
	{"\"a\\x\"", "line 1, column 3: invalid escape"},
	{"\"\\ud800\"", "line 1, column 2: unpaired surrogate"},
	{"\"\\udc00\"", "line 1, column 2: unpaired surrogate"},
	{"\"\\ud800\\u0041\"", "line 1, column 2: unpaired surrogate"},
	{"\"a\\u0000b\"", "line 1, column 3: a NUL character (\\u0000) in a string"},
	{"\"\\u12\"", "line 1, column 4: truncated \\u escape"},
	{"\"\\u12x4\"", "line 1, column 6: invalid \\u escape"},
	{"nul", "line 1, column 1: invalid literal"},
	{"[1e999]", "line 1, column 2: number out of range"},
	{"[-1e999]", "line 1, column 2: number out of range"},
	{"\"a\nb\"", "line 1, column 3: control character in string"},
	{"[+1]", "line 1, column 2: invalid value"},
	{"[01]", "line 1, column 3: expected ',' or ']'"},
	{"[1.]", "line 1, column 2: invalid number"},
	{"[.5]", "line 1, column 2: invalid value"},
	{"[1e]", "line 1, column 2: invalid number"},
	{"[-]", "line 1, column 2: invalid number"},
	{"[--1]", "line 1, column 2: invalid number"},
	{"[NaN]", "line 1, column 2: invalid value"},
	{"[Infinity]", "line 1, column 2: invalid value"},
	{"[0x10]", "line 1, column 3: expected ',' or ']'"},
	{"\"\xc3\"", "line 1, column 2: invalid UTF-8"},
	{"\"\xc0\xaf\"", "line 1, column 2: invalid UTF-8"},
	{"\"\xed\xa0\x80\"", "line 1, column 2: invalid UTF-8"},
	{"\"\xf4\x90\x80\x80\"", "line 1, column 2: invalid UTF-8"},
	{"\"\xff\"", "line 1, column 2: invalid UTF-8"},
	{"{\"a\": 1,\n \"b\": 2, \"a\": 3}", "line 1, column 1: member \"a\" given twice"},
	{"{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}'"},
	{"{1: 2}", "line 1, column 2: expected a member name"},
	{"[1,]", "line 1, column 4: invalid value"},
	{"\"abc", "line 1, column 2: unterminated string"},
	{"\xef\xbb\xbf{}", "line 1, column 1: invalid value"},
};

static void
test_values(void)
{
	const char *text = "{\"n\": null, \"t\": true, \"f\": false, \"i\": -42, "
		"\"u\": 18446744073709551615, \"min\": -9223372036854775808, \"d\": 1.5e3, "
		"\"big\": 99999999999999999999, \"nbig\": -9223372036854775809, "
		"\"s\": \"a\\\"\\u00e9\\ud83d\\ude00\xe2\x82\xac\", "
		"\"a\": [[7, 3], []], \"o\": {}, \"z\": -0}";
	json_doc	doc;
	const json_value *v = &doc.root;
	char		err[128];

	tap_ok(json_parse(text, strlen(text), &doc, err, sizeof(err)), "a document of every kind parses");
	tap_ok(json_get(v, "n") != NULL && json_is_null(json_get(v, "n")), "null");
	tap_ok(json_bool(json_get(v, "t")) && !json_bool(json_get(v, "f")), "true and false");
	tap_is_int(json_int(json_get(v, "i"), 0), -42, "a negative integer");
	tap_ok(json_get(v, "u")->number == JSON_UINT64 &&
		   json_get(v, "u")->u.uinteger == UINT64_MAX, "an unsigned 64-bit integer keeps its bits");
	tap_is_int(json_int(json_get(v, "u"), 7), 7, "... and is no int64");
	tap_ok(json_int(json_get(v, "min"), 0) == INT64_MIN, "INT64_MIN is an int64");
	tap_is_double(json_num(json_get(v, "d")), 1500.0, 0.0, "a number with an exponent");
	tap_is_int(json_int(json_get(v, "d"), 99), 99, "... is not an integer");
	tap_ok(json_get(v, "big")->number == JSON_BIGINT && json_num(json_get(v, "big")) == 1e20,
		   "an integer beyond uint64: a double, never wrapped");
	tap_ok(json_get(v, "nbig")->number == JSON_BIGINT, "below INT64_MIN too");
	tap_is_str(json_str(json_get(v, "s")), "a\"\xc3\xa9\xf0\x9f\x98\x80\xe2\x82\xac",
			   "escapes, a surrogate pair and raw UTF-8");
	tap_is_int(json_get(v, "s")->n, 11, "... its length in bytes");
	tap_is_int(json_int(json_at(json_at(json_get(v, "a"), 0), 1), 0), 3, "nested arrays");
	tap_is_int(json_at(json_get(v, "a"), 1)->n, 0, "an empty array");
	tap_ok(json_at(json_get(v, "a"), 2) == NULL, "out of range: NULL");
	tap_ok(json_get(v, "missing") == NULL, "a missing member: NULL");
	tap_ok(json_get(v, "z")->number == JSON_INT64 && json_int(json_get(v, "z"), 1) == 0, "-0 is 0");
	tap_is_str(json_member_name(v, 1), "t", "members in order: names");
	tap_ok(json_member_value(v, 1)->boolean, "... and values");
	json_doc_free(&doc);
	tap_ok(doc.root.kind == JSON_NULL && doc.blocks == NULL, "json_doc_free leaves null");
}

static void
test_equal_clone(void)
{
	const char *text = "{\"a\": [1, 2.0, \"x\", null, {\"k\": 18446744073709551615}], \"b\": 16}";
	const char *other = "{\"a\": [1, 2, \"x\", null, {\"k\": 18446744073709551615}], \"b\": 16.0}";
	json_doc	doc,
				doc2,
				copy;
	char		err[128];

	tap_ok(json_parse(text, strlen(text), &doc, err, sizeof(err)) &&
		   json_parse(other, strlen(other), &doc2, err, sizeof(err)), "two documents parse");
	tap_ok(json_equal(&doc.root, &doc2.root), "equal: 2.0 and 2, 16 and 16.0 alike");
	tap_ok(!json_equal(json_get(&doc.root, "a"), json_get(&doc.root, "b")), "an array is no number");
	tap_ok(json_clone(&copy, json_get(&doc.root, "a")), "a part cloned");
	json_doc_free(&doc);
	tap_ok(json_equal(&copy.root, json_get(&doc2.root, "a")), "the copy outlives its source");
	json_doc_free(&copy);
	json_doc_free(&doc2);
}

static void
test_paths(void)
{
	const char *text = "{\"scripts\": [{\"name\": \"a\"}, {\"commands\": [{}]}]}";
	json_doc	doc;
	char		err[128],
				path[64];
	json_ref	root,
				scripts,
				s1,
				commands,
				c0,
				absent;

	tap_ok(json_parse(text, strlen(text), &doc, err, sizeof(err)), "a report-like document");
	root = json_ref_root(&doc.root);
	scripts = json_ref_member(&root, "scripts");
	s1 = json_ref_item(&scripts, 1);
	commands = json_ref_member(&s1, "commands");
	c0 = json_ref_item(&commands, 0);
	absent = json_ref_member(&c0, "line");
	json_ref_path(&root, path, sizeof(path));
	tap_is_str(path, "", "the root's path is empty");
	json_ref_path(&absent, path, sizeof(path));
	tap_is_str(path, "scripts[1].commands[0].line", "a path of members and items");
	tap_ok(absent.v == NULL && c0.v != NULL && c0.v->kind == JSON_OBJECT, "refs find their values");
	json_ref_path(&absent, path, 12);
	tap_is_str(path, "scripts[1].", "a path is truncated to its buffer");
	tap_is_str(json_kind_name(c0.v), "an object", "kind names");
	tap_is_str(json_kind_name(NULL), "nothing", "... of nothing");
	json_doc_free(&doc);
}

/* An object of 1000 members, k0 .. k999, the last one named last. */
static char *
big_object(const char *last)
{
	size_t		cap = 1 << 16;
	char	   *text = malloc(cap);
	size_t		n = 0;

	n += (size_t) snprintf(text + n, cap - n, "{");
	for (int i = 0; i < 999; i++)
		n += (size_t) snprintf(text + n, cap - n, "\"k%d\": [%d, %d], ", i, i, i);
	snprintf(text + n, cap - n, "\"%s\": [999, 999]}", last);
	return text;
}

/* A big object: the duplicate check sorts its names. */
static void
test_sizes(void)
{
	char	   *text = big_object("k999");
	json_doc	doc;
	char		err[128];

	tap_ok(json_parse(text, strlen(text), &doc, err, sizeof(err)) && doc.root.n == 1000,
		   "an object of 1000 members");
	tap_is_int(json_int(json_at(json_get(&doc.root, "k999"), 1), 0), 999, "its last member");
	json_doc_free(&doc);
	free(text);
	text = big_object("k3");
	tap_ok(!json_parse(text, strlen(text), &doc, err, sizeof(err)) &&
		   strcmp(err, "line 1, column 1: member \"k3\" given twice") == 0,
		   "... with a name twice: refused");
	free(text);
}

int
main(void)
{
	char		deep[2 * JSON_MAX_NESTING + 8];
	json_doc	doc;
	char		err[128];

	test_values();
	test_equal_clone();
	test_paths();
	test_sizes();
	for (int i = 0; i < (int) (sizeof(bad_rows) / sizeof(bad_rows[0])); i++)
	{
		bool		ok = json_parse(bad_rows[i].text, strlen(bad_rows[i].text), &doc, err, sizeof(err));

		tap_ok(!ok, "refused: row %d", i);
		tap_is_str(ok ? "" : err, bad_rows[i].error, "its message");
		if (ok)
			json_doc_free(&doc);
	}
	memset(deep, '[', sizeof(deep));
	tap_ok(!json_parse(deep, sizeof(deep), &doc, err, sizeof(err)) &&
		   strcmp(err, "line 1, column 66: nested more than 64 levels deep") == 0, "nesting is bounded");
	tap_ok(!json_parse("[1] ", 2, &doc, err, sizeof(err)), "len bounds the text, no NUL needed");
	return tap_done();
}
