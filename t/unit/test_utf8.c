/*
 * test_utf8.c — the UTF-8 sanitizer (utf8.h) and where it is used: a
 * table of well-formed and ill-formed sequences (overlongs, surrogates,
 * code points past U+10FFFF, truncated sequences, lone continuation
 * bytes) with the U+FFFD each maximal subpart becomes; random byte
 * strings against a decoder written from the definition (bit patterns
 * and code point ranges); the JSON writer's strings (report.h) through
 * the JSON reader; and the JSON text as the HTML page embeds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/common.h"
#include "pgbench/offline/json_read.h"
#include "pgbench/report/report.h"
#include "pgbench/base/utf8.h"
#include "tap.h"

#define R UTF8_REPLACEMENT

/* Input bytes (len: strlen unless given) and what the sanitizer makes of them. */
static const struct
{
	const char *name;
	const char *in;
	const char *out;
}			rows[] = {
	{"empty", "", ""},
	{"ASCII", "select 1; </script>", "select 1; </script>"},
	{"U+007F", "\x7f", "\x7f"},
	{"2 bytes: U+0080", "\xc2\x80", "\xc2\x80"},
	{"2 bytes: U+00E9", "caf\xc3\xa9", "caf\xc3\xa9"},
	{"2 bytes: U+07FF", "\xdf\xbf", "\xdf\xbf"},
	{"3 bytes: U+0800", "\xe0\xa0\x80", "\xe0\xa0\x80"},
	{"3 bytes: U+20AC", "\xe2\x82\xac", "\xe2\x82\xac"},
	{"3 bytes: U+D7FF, below the surrogates", "\xed\x9f\xbf", "\xed\x9f\xbf"},
	{"3 bytes: U+E000, above the surrogates", "\xee\x80\x80", "\xee\x80\x80"},
	{"3 bytes: U+FFFD itself", R, R},
	{"3 bytes: U+2028", "\xe2\x80\xa8", "\xe2\x80\xa8"},
	{"3 bytes: U+FFFF", "\xef\xbf\xbf", "\xef\xbf\xbf"},
	{"4 bytes: U+10000", "\xf0\x90\x80\x80", "\xf0\x90\x80\x80"},
	{"4 bytes: U+1F600", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},
	{"4 bytes: U+10FFFF", "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"},
	/* lone continuation bytes and bytes that never start a sequence */
	{"lone continuation 80", "a\x80z", "a" R "z"},
	{"lone continuation BF", "\xbf", R},
	{"two continuation bytes", "\x80\x80", R R},
	{"C0 (always overlong)", "\xc0", R},
	{"C1 (always overlong)", "\xc1\xbf", R R},
	{"F5", "\xf5\x80\x80\x80", R R R R},
	{"FE", "\xfe", R},
	{"FF", "\xff", R},
	/* overlong forms */
	{"overlong '/' in 2 bytes", "\xc0\xaf", R R},
	{"overlong NUL in 2 bytes", "\xc0\x80", R R},
	{"overlong in 3 bytes (U+007F)", "\xe0\x81\xbf", R R R},
	{"overlong in 3 bytes (U+07FF)", "\xe0\x9f\xbf", R R R},
	{"overlong in 4 bytes (U+FFFF)", "\xf0\x8f\xbf\xbf", R R R R},
	{"overlong '<' in 2 bytes", "\xc0\xbc/script>", R R "/script>"},
	/* surrogates encoded in UTF-8 (CESU-8 and the like) */
	{"surrogate U+D800", "\xed\xa0\x80", R R R},
	{"surrogate U+DBFF", "\xed\xaf\xbf", R R R},
	{"surrogate U+DC00", "\xed\xb0\x80", R R R},
	{"surrogate U+DFFF", "\xed\xbf\xbf", R R R},
	{"surrogate pair U+D83D U+DE00", "\xed\xa0\xbd\xed\xb8\x80", R R R R R R},
	/* past U+10FFFF */
	{"U+110000", "\xf4\x90\x80\x80", R R R R},
	{"U+13FFFF", "\xf4\xbf\xbf\xbf", R R R R},
	{"5-byte form", "\xf8\x88\x80\x80\x80", R R R R R},
	{"6-byte form", "\xfc\x84\x80\x80\x80\x80", R R R R R R},
	/* truncated sequences: one U+FFFD for the maximal subpart */
	{"truncated 2 of 2, at the end", "a\xc3", "a" R},
	{"truncated 2 of 2, before ASCII", "\xc3z", R "z"},
	{"truncated 3 of 3", "\xe2\x82", R},
	{"truncated 3 of 3, then ASCII", "\xe2\x82z", R "z"},
	{"truncated 3 of 3, one byte", "\xe2", R},
	{"truncated 4 of 4", "\xf0\x9f\x98", R},
	{"truncated 4 of 4, then a sequence", "\xf0\x9f\xc3\xa9", R "\xc3\xa9"},
	{"truncated 4 of 4, then a lead", "\xf0\x9f\x98\xf0\x9f\x98\x80", R "\xf0\x9f\x98\x80"},
	{"a lead then a lead", "\xc3\xc3\xa9", R "\xc3\xa9"},
	{"a lead then U+FFFD", "\xe2" R, R R},
	/* the classic mix (Markus Kuhn's test, 3.x) */
	{"mixed", "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
	"a" R R R "b" R "c" R R "d"},
};

static void
test_table(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(rows); i++)
	{
		size_t		n = strlen(rows[i].in);
		char	   *out = malloc(UTF8_SANITIZED_SIZE(n));
		size_t		len = utf8_sanitize(out, rows[i].in, n);
		bool		valid = strcmp(rows[i].in, rows[i].out) == 0;

		tap_is_str(out, rows[i].out, rows[i].name);
		tap_ok(len == strlen(rows[i].out) && utf8_valid(out, len), "%s: the result is valid", rows[i].name);
		tap_ok(utf8_valid(rows[i].in, n) == valid, "%s: %s", rows[i].name, valid ? "valid" : "invalid");
		free(out);
	}
	tap_ok(utf8_valid("a\0b", 3), "a NUL byte is U+0000");
}

/*
 * Whether s[0..n) is UTF-8, from the definition: a lead byte's bit
 * pattern gives the length, continuation bytes are 10xxxxxx, and the
 * code point must need that length, be no surrogate and be at most
 * U+10FFFF.
 */
static bool
reference_valid(const unsigned char *s, size_t n)
{
	static const unsigned long min_of[] = {0, 0, 0x80, 0x800, 0x10000};

	for (size_t i = 0; i < n;)
	{
		unsigned long cp;
		size_t		len;

		if (s[i] < 0x80)
			len = 1, cp = s[i];
		else if ((s[i] & 0xE0) == 0xC0)
			len = 2, cp = s[i] & 0x1F;
		else if ((s[i] & 0xF0) == 0xE0)
			len = 3, cp = s[i] & 0x0F;
		else if ((s[i] & 0xF8) == 0xF0)
			len = 4, cp = s[i] & 0x07;
		else
			return false;
		if (i + len > n)
			return false;
		for (size_t k = 1; k < len; k++)
		{
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min_of[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			return false;
		i += len;
	}
	return true;
}

/* Random strings, biased towards bytes that make or break sequences. */
static void
test_random(void)
{
	static const unsigned char pick[] = {
		'a', '<', 0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF,
	};
	unsigned	seed = 20;
	int			wrong_valid = 0,
				wrong_out = 0,
				changed_valid = 0;
	int			nvalid = 0;

	for (int t = 0; t < 200000; t++)
	{
		unsigned char in[8];
		char		out[UTF8_SANITIZED_SIZE(sizeof(in))];
		size_t		n = (size_t) (rand_r(&seed) % (sizeof(in) + 1));
		size_t		len;
		bool		valid;

		for (size_t i = 0; i < n; i++)
			in[i] = rand_r(&seed) % 2 ? pick[rand_r(&seed) % sizeof(pick)] : (unsigned char) rand_r(&seed);
		valid = reference_valid(in, n);
		nvalid += valid;
		wrong_valid += utf8_valid((const char *) in, n) != valid;
		len = utf8_sanitize(out, (const char *) in, n);
		wrong_out += !reference_valid((const unsigned char *) out, len);
		changed_valid += valid && (len != n || memcmp(out, in, n) != 0);
	}
	tap_is_int(wrong_valid, 0, "200000 random strings: utf8_valid agrees with the definition");
	tap_is_int(wrong_out, 0, "... every sanitized string is valid");
	tap_is_int(changed_valid, 0, "... a valid one is left as it is");
	tap_ok(nvalid > 1000 && nvalid < 190000, "... of which some are valid and some not (%d valid)", nvalid);
}

/* A JSON string written by the writer, read back. */
static void
test_writer(void)
{
	static const char hostile[] = "a\xff</script><!--<script>\"&'\n\xed\xa0\x80\xc3\xa9\xe2\x80\xa8\x01";
	static const char expected[] = "a" R "</script><!--<script>\"&'\n" R R R "\xc3\xa9\xe2\x80\xa8\x01";
	report_ending end = {.outcome = REPORT_FAILED_TO_START, .server_version = hostile};
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&text, &len);
	json_doc	doc;
	char		err[128];
	bool		ok;

	ok = report_json_write_ending(mem, NULL, &end);
	fclose(mem);
	tap_ok(ok, "the writer writes a document with a hostile string");
	tap_ok(utf8_valid(text, len), "the document is valid UTF-8");
	if (!tap_ok(json_parse(text, len, &doc, err, sizeof(err)), "the document parses"))
		tap_diag("%s", err);
	tap_is_str(json_str(json_get(&doc.root, "server_version")), expected,
			   "the string reads back with U+FFFD for each ill-formed subpart");
	json_doc_free(&doc);
	free(text);
}

/* The JSON text as the page embeds it. */
static void
test_embed(void)
{
	static const char json[] = "{\"a\": \"</script><!--<script>-->&amp;\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\"}";
	static const char expected[] = "{\"a\": \"\\u003c/script\\u003e\\u003c!--\\u003cscript\\u003e--\\u003e"
		"\\u0026amp;\\u2028\\u2029\xe2\x80\xaa\"}";
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&text, &len);
	json_doc	doc;
	char		err[128];

	report_html_put_json(mem, json, strlen(json));
	fclose(mem);
	tap_is_str(text, expected, "embedded: <, >, &, U+2028 and U+2029 as \\u escapes");
	tap_ok(json_parse(text, len, &doc, err, sizeof(err)), "embedded: still JSON");
	tap_is_str(json_str(json_get(&doc.root, "a")), "</script><!--<script>-->&amp;\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa",
			   "embedded: the same string");
	json_doc_free(&doc);
	free(text);
}

/* Controls and DEL masked, UTF-8 and the rest kept. */
static void
test_mask_controls(void)
{
	char		s[] = "a\nb\tc\x1b[2J\x7f\xc3\xa9 ok";

	utf8_mask_controls(s);
	tap_is_str(s, "a?b?c?[2J?\xc3\xa9 ok", "controls and DEL masked, the rest kept");
}

int
main(void)
{
	test_mask_controls();
	test_table();
	test_random();
	test_writer();
	test_embed();
	return tap_done();
}
