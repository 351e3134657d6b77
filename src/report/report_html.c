/*
 * report_html.c — --report-html: one self-contained HTML page that opens
 * offline.  The page carries the JSON document of --report-json
 * (doc/report-json.md) in a <script type="application/json"> element and
 * draws it with the vendored uPlot and our page script, all embedded at
 * build time (pgbench/report/html_assets.h).  This file only assembles the page;
 * doc/report-html.md describes what it shows.  It prints no error: a
 * failed open or write fills the caller's report_file_error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "pgbench/report/html_assets.h"
#include "pgbench/report/report.h"

FILE *
report_html_open(const char *path, report_file_error *err)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
		*err = (report_file_error) {.path = path, .opening = true, .errnum = errno};
	return out;
}

/*
 * The JSON text inside the page's <script> element (report.h): '<', '>'
 * and '&' become \u003c, \u003e and \u0026, U+2028 and U+2029 \u2028
 * and \u2029.  The same string to a JSON parser (they only occur inside
 * strings), but none of "</script", "<!--" or "-->" can appear, so no
 * input can end the element early or open a comment or a script in it.
 */
void
report_html_put_json(FILE *out, const char *json, size_t len)
{
	size_t		run = 0;		/* start of the bytes not yet written */

	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) json[i];

		if (c == '<' || c == '>' || c == '&')
		{
			fwrite(json + run, 1, i - run, out);
			fprintf(out, "\\u%04x", c);
			run = i + 1;
		}
		else if (c == 0xE2 && i + 2 < len && (unsigned char) json[i + 1] == 0x80 &&
				 ((unsigned char) json[i + 2] == 0xA8 || (unsigned char) json[i + 2] == 0xA9))
		{
			fwrite(json + run, 1, i - run, out);
			fprintf(out, "\\u%04x", 0x2000 | ((unsigned char) json[i + 2] & 0x3F));
			i += 2;
			run = i + 1;
		}
	}
	fwrite(json + run, 1, len - run, out);
}

void
report_html_put_page(FILE *out, const report_page *page, const char *json, size_t len)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", out);
	fprintf(out, "<title>%s</title>\n<!-- drawn with uPlot 1.6.32, whose licence follows:\n",
			page->title);
	fwrite(report_asset_uplot_license, 1, report_asset_uplot_license_len, out);
	fputs("-->\n<style>\n", out);
	fwrite(report_asset_uplot_css, 1, report_asset_uplot_css_len, out);
	fputs("\n</style>\n<style>\n", out);
	fwrite(report_asset_page_css, 1, report_asset_page_css_len, out);
	fprintf(out, "</style>\n</head>\n<body>\n<main id=\"report\">\n"
			"<noscript>This %s is drawn by JavaScript; the data is in the "
			"%s element of this file.</noscript>\n</main>\n"
			"<pre id=\"status\">loading</pre>\n"
			"<script type=\"application/json\" id=\"%s\">\n", page->what, page->data_id,
			page->data_id);
	report_html_put_json(out, json, len);
	fputs("</script>\n<script>\n", out);
	fwrite(report_asset_uplot_js, 1, report_asset_uplot_js_len, out);
	fputs("\n</script>\n<script>\n", out);
	/* the pages' shared helpers, then the page's own script: one element */
	fwrite(report_asset_common_js, 1, report_asset_common_js_len, out);
	fputc('\n', out);
	fwrite(page->js, 1, page->js_len, out);
	fputs("</script>\n</body>\n</html>\n", out);
}

bool
report_html_finish(FILE **out, const char *path, const report_figures *f,
				   report_file_error *err)
{
	report_ending end = {.outcome = f->aborted ? REPORT_ABORTED : REPORT_COMPLETED};

	return report_html_finish_ending(out, path, f, &end, err);
}

bool
report_html_finish_ending(FILE **out, const char *path, const report_figures *f,
						  const report_ending *end, report_file_error *err)
{
	char	   *json = NULL;
	size_t		len = 0;
	FILE	   *mem;
	bool		ok;

	if (*out == NULL)
		return true;
	mem = open_memstream(&json, &len);
	ok = mem != NULL && report_json_write_ending(mem, f, end);
	if (mem != NULL && fclose(mem) != 0)
		ok = false;
	if (ok)
	{
		report_html_put_page(*out, &(report_page) {"pgbench report", "report", "report-data",
								 report_asset_page_js, report_asset_page_js_len}, json, len);
		ok = fflush(*out) == 0 && !ferror(*out);
	}
	if (fclose(*out) != 0)
		ok = false;
	*out = NULL;
	if (!ok)
		*err = (report_file_error) {.path = path, .errnum = errno};
	free(json);
	return ok;
}
