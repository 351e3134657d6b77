/*
 * compare_html.c — --compare with --report-html=FILE: one page that
 * overlays the sides (doc/compare.md, "The page"): the comparison's
 * document (its diagnosis included), and for each report its series (tps
 * and latency percentiles per interval), its checkpoints and its latency
 * histogram, embedded as JSON the way the run's page embeds its report
 * (report_html_put_json: nothing in it can end the script element),
 * drawn by compare_html.js with uPlot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_int.h"
#include "pgbench/base/diag.h"
#include "pgbench/report/html_assets.h"
#include "pgbench/report/json_writer.h"
#include "pgbench/report/report.h"

/* A number member of obj, or NAN */
static double
num(const json_value *obj, const char *key)
{
	const json_value *v = obj != NULL && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;

	return v != NULL && v->kind == JSON_NUMBER ? json_num(v) : NAN;
}

/*
 * The report's checkpoints (server_stats.checkpoints) as [start_s or
 * null, ended_by_s]: those without an end are left out.
 */
static void
put_checkpoints(json_writer *jw, const json_value *root)
{
	const json_value *ss = json_get(root, "server_stats");
	const json_value *cps = ss != NULL && ss->kind == JSON_OBJECT ? json_get(ss, "checkpoints") : NULL;

	open_block(jw, "checkpoints", '[');
	for (int i = 0; cps != NULL && cps->kind == JSON_ARRAY && i < cps->n; i++)
	{
		const json_value *cp = json_at(cps, i);

		if (!isfinite(num(cp, "ended_by_s")))
			continue;
		open_block(jw, NULL, '[');
		put_num(jw, NULL, num(cp, "start_s"));
		put_num(jw, NULL, num(cp, "ended_by_s"));
		close_block(jw, ']');
	}
	close_block(jw, ']');
}

/*
 * One report: its side, file, warm-up (s, or null), interval (s, or
 * null), points [t_s, tps, p50, p99, interval_s], checkpoints and
 * histogram buckets.
 */
static void
put_run(json_writer *jw, const char *side, const cmp_run *run)
{
	const json_value *root = &run->doc.root;
	const json_value *series = json_get(root, "series");
	const json_value *points = series != NULL && series->kind == JSON_OBJECT ? json_get(series, "points") : NULL;
	const json_value *histo = json_get(root, "latency_histogram");
	const json_value *buckets = histo != NULL && histo->kind == JSON_OBJECT ? json_get(histo, "buckets") : NULL;

	const json_value *settings = json_get(root, "settings");

	open_block(jw, NULL, '{');
	put_str(jw, "side", side);
	put_str(jw, "file", run->file);
	put_num(jw, "warmup_s", num(settings, "warmup_s"));
	put_num(jw, "interval_s", num(series, "interval_s"));
	open_block(jw, "points", '[');
	for (int i = 0; points != NULL && points->kind == JSON_ARRAY && i < points->n; i++)
	{
		const json_value *p = json_at(points, i);
		const json_value *lat = p->kind == JSON_OBJECT ? json_get(p, "latency_ms") : NULL;

		open_block(jw, NULL, '[');
		put_num(jw, NULL, num(p, "t_s"));
		put_num(jw, NULL, num(p, "tps"));
		put_num(jw, NULL, num(lat, "p50"));
		put_num(jw, NULL, num(lat, "p99"));
		put_num(jw, NULL, num(p, "interval_s"));
		close_block(jw, ']');
	}
	close_block(jw, ']');
	put_checkpoints(jw, root);
	put_num(jw, "sub_bucket_bits", num(histo, "sub_bucket_bits"));
	open_block(jw, "buckets", '[');
	for (int i = 0; buckets != NULL && buckets->kind == JSON_ARRAY && i < buckets->n; i++)
	{
		const json_value *b = json_at(buckets, i);

		if (b->kind != JSON_ARRAY || b->n != 2)
			continue;
		open_block(jw, NULL, '[');
		put_num(jw, NULL, json_num(json_at(b, 0)));
		put_num(jw, NULL, json_num(json_at(b, 1)));
		close_block(jw, ']');
	}
	close_block(jw, ']');
	close_block(jw, '}');
}

/* The page's data: the comparison and the runs, as JSON text (malloc'd) into *json. */
static bool
page_data(const cmp_side *base, const cmp_comparison *c, int n, char **json, size_t *len)
{
	FILE	   *mem = open_memstream(json, len);
	json_writer jw;

	if (mem == NULL)
		return false;
	memset(&jw, 0, sizeof(jw));
	jw.out = mem;
	jw.schema_bad = RM_NONE;
	open_block(&jw, NULL, '{');
	compare_json_put(&jw, "comparison", base, c, n);
	open_block(&jw, "runs", '[');
	for (int k = 0; k < base->nruns; k++)
		put_run(&jw, "base", &base->runs[k]);
	for (int i = 0; i < n; i++)
	{
		char		side[32];

		snprintf(side, sizeof(side), "new %d", i + 1);
		for (int k = 0; k < c[i].other->nruns; k++)
			put_run(&jw, side, &c[i].other->runs[k]);
	}
	close_block(&jw, ']');
	close_block(&jw, '}');
	return fclose(mem) == 0;
}

bool
compare_html_write(const char *path, const cmp_side *base, const cmp_comparison *c, int n)
{
	char	   *json = NULL;
	size_t		len = 0;
	FILE	   *out;

	if (!page_data(base, c, n, &json, &len))
	{
		free(json);
		diag_error("out of memory");
		return false;
	}
	if ((out = fopen(path, "w")) == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		free(json);
		return false;
	}
	report_html_put_page(out, &(report_page) {"pgbench comparison", "comparison", "compare-data",
						 report_asset_compare_js, report_asset_compare_js_len}, json, len);
	free(json);
	return report_file_close(out, path);
}
