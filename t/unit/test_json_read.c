/*
 * test_json_read.c — the JSON reader of --merge-reports (json_read.h):
 * every kind of value, exact integers (a seed above INT64_MAX keeps its
 * bits), string escapes with surrogate pairs, and the errors a damaged
 * or hostile file gives (with their line), as rows of a table.
 */
#include <string.h>

#include "pgbench/json_read.h"
#include "tap.h"

/* Documents that must be refused, and the start of the message. */
static const struct
{
	const char *text;
	const char *error;
}			bad_rows[] = {
	{"", "line 1: unexpected end of input"},
	{"{\"a\":", "line 1: unexpected end of input"},
	{"{\"a\" 1}", "line 1: expected ':'"},
	{"[1,\n2", "line 2: expected ',' or ']'"},
	{"[1] 2", "line 1: unexpected text after the document"},
	{"\"a\\x\"", "line 1: invalid escape"},
	{"\"\\ud800\"", "line 1: unpaired surrogate"},
	{"nul", "line 1: invalid literal"},
	{"[1e999]", "line 1: invalid number"},
	{"\"a\nb\"", "line 1: control character in string"},
};

static void
test_values(void)
{
	const char *text = "{\"n\": null, \"t\": true, \"f\": false, \"i\": -42, "
		"\"u\": 18446744073709551615, \"d\": 1.5e3, \"s\": \"a\\\"\\u00e9\\ud83d\\ude00\", "
		"\"a\": [[7, 3], []], \"o\": {}}";
	json_value v;
	char		err[128];

	tap_ok(json_parse(text, strlen(text), &v, err, sizeof(err)), "a document of every kind parses");
	tap_ok(json_get(&v, "n") != NULL && json_is_null(json_get(&v, "n")), "null");
	tap_ok(json_bool(json_get(&v, "t")) && !json_bool(json_get(&v, "f")), "true and false");
	tap_is_int(json_int(json_get(&v, "i"), 0), -42, "a negative integer");
	tap_is_int(json_int(json_get(&v, "u"), 0), -1, "an unsigned 64-bit integer keeps its bits");
	tap_is_double(json_num(json_get(&v, "d")), 1500.0, 0.0, "a number with an exponent");
	tap_is_int(json_int(json_get(&v, "d"), 99), 99, "... is not an integer");
	tap_is_str(json_str(json_get(&v, "s")), "a\"\xc3\xa9\xf0\x9f\x98\x80", "escapes and a surrogate pair");
	tap_is_int(json_int(json_at(json_at(json_get(&v, "a"), 0), 1), 0), 3, "nested arrays");
	tap_is_int(json_at(json_get(&v, "a"), 1)->n, 0, "an empty array");
	tap_ok(json_at(json_get(&v, "a"), 2) == NULL, "out of range: NULL");
	tap_ok(json_get(&v, "missing") == NULL, "a missing member: NULL");
	json_drop(&v, "a");
	tap_ok(json_is_null(json_get(&v, "a")), "json_drop leaves null");
	json_free(&v);
}

int
main(void)
{
	char		deep[2 * JSON_MAX_NESTING + 8];
	json_value	v;
	char		err[128];

	test_values();
	for (int i = 0; i < (int) (sizeof(bad_rows) / sizeof(bad_rows[0])); i++)
	{
		bool		ok = json_parse(bad_rows[i].text, strlen(bad_rows[i].text), &v, err, sizeof(err));

		tap_ok(!ok, "refused: row %d", i);
		tap_is_str(ok ? "" : err, bad_rows[i].error, "its message");
	}
	memset(deep, '[', sizeof(deep));
	tap_ok(!json_parse(deep, sizeof(deep), &v, err, sizeof(err)) &&
		   strcmp(err, "line 1: nested too deeply") == 0, "nesting is bounded");
	return tap_done();
}
