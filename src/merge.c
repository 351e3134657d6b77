/*
 * merge.c — pgbench --merge-reports: the run_config and statistics of the
 * whole fleet rebuilt from the instances' JSON reports (merge_read.c adds
 * each one), then the same figures and printers as a run of our own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/diag.h"
#include "pgbench/merge.h"
#include "pgbench/report.h"
#include "pgbench/xalloc.h"
#include "merge_int.h"

static const char *const query_mode_names[] = {"simple", "extended", "prepared"};
static const char *const partition_method_names[] = {"none", "range", "hash"};

/* Index of name in names (n of them); def when absent. */
static int
name_index(const char *const *names, int n, const char *name, int def)
{
	for (int i = 0; name != NULL && i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return def;
}

/*
 * The scripts as the printers need them: name, weight, command lines.
 * With -r (the first script has "commands") every script has them.
 */
static bool
setup_scripts(merge_acc *acc, const json_value *scripts, const char *file)
{
	script_set *set = &acc->scripts;
	int			offset = 0;

	if (scripts == NULL || scripts->kind != JSON_ARRAY || scripts->n < 1 ||
		scripts->n > PGB_MAX_SCRIPTS)
	{
		diag_error("\"%s\" is not a JSON report of pgbench (schema version 2)", file);
		return false;
	}
	acc->cfg.per_command = !json_is_null(json_get(&scripts->items[0], "commands"));
	for (int i = 0; i < scripts->n; i++)
	{
		const json_value *commands = json_get(&scripts->items[i], "commands");

		if (acc->cfg.per_command && (commands == NULL || commands->kind != JSON_ARRAY))
		{
			diag_error("%s: scripts[%d].commands: %s", file, i,
					   json_is_null(commands) ? "missing" : "not an array");
			return false;
		}
	}
	set->nscripts = scripts->n;
	for (int i = 0; i < scripts->n; i++)
	{
		const json_value *s = &scripts->items[i];
		const json_value *commands = json_get(s, "commands");
		script	   *sc = &set->scripts[i];

		sc->desc = (char *) (json_str(json_get(s, "name")) ? json_str(json_get(s, "name")) : "");
		sc->weight = (int) json_int(json_get(s, "weight"), 1);
		set->total_weight += sc->weight;
		acc->cfg.script_offset[i] = offset;
		sc->ncommands = json_is_null(commands) ? 0 : commands->n;
		sc->commands = pgb_calloc((size_t) (sc->ncommands > 0 ? sc->ncommands : 1), sizeof(command *));
		for (int j = 0; j < sc->ncommands; j++)
		{
			const char *line = json_str(json_get(&commands->items[j], "line"));

			sc->commands[j] = pgb_calloc(1, sizeof(command));
			sc->commands[j]->first_line = (char *) (line != NULL ? line : "");
		}
		offset += sc->ncommands;
	}
	acc->cfg.total_commands = offset;
	acc->cfg.scripts = set;
	acc->cfg.per_script_stats = set->nscripts > 1;
	return true;
}

/* The settings of the first report, which every other one shares. */
static void
setup_settings(merge_acc *acc, const json_value *doc)
{
	const json_value *st = json_get(doc, "settings");
	const json_value *pct = json_get(st, "percentiles");
	run_config *cfg = &acc->cfg;
	double		limit_ms = json_num(json_get(st, "latency_limit_ms"));

	cfg->compat = (int) json_int(json_get(doc, "compat"), PGB_COMPAT_MIN);
	cfg->query_mode = (query_mode) name_index(query_mode_names, 3,
											  json_str(json_get(st, "query_mode")), 0);
	cfg->retry.max_tries = (uint32_t) json_int(json_get(st, "max_tries"), 1);
	cfg->nxacts = json_int(json_get(st, "transactions_per_client"), 0);
	cfg->duration = (int) json_int(json_get(st, "duration_s"), 0);
	cfg->latency_limit_ms = limit_ms > 0 ? limit_ms : 0;
	cfg->latency_limit = limit_ms > 0 ? (int64_t) (limit_ms * 1000.0 + 0.5) : 0;
	cfg->connect_each = json_bool(json_get(st, "connect_each"));
	cfg->failures_detailed = json_bool(json_get(st, "failures_detailed"));
	for (int i = 0; pct != NULL && i < pct->n && i < PGB_MAX_PERCENTILES; i++)
		cfg->percentiles[cfg->npercentiles++] = json_num(&pct->items[i]);
	cfg->keep_hist = true;
	cfg->latency_measured = true;
	cfg->progress_sec = (int) json_int(json_get(json_get(doc, "merge"), "progress_s"), 0);
	cfg->random_seed = (uint64_t) json_int(json_get(st, "random_seed"), 0);
	acc->scale = (int) json_int(json_get(st, "scaling_factor"), 0);
	acc->partition_method = (partition_method) name_index(partition_method_names, 3,
														  json_str(json_get(st, "partition_method")),
														  0);
	acc->partitions = (int) json_int(json_get(st, "partitions"), 0);
	snprintf(acc->server_version, sizeof(acc->server_version), "%s",
			 json_str(json_get(doc, "server_version")) ? json_str(json_get(doc, "server_version")) : "");
}

/* Where the first report connected, for the merged report files. */
static void
setup_target(merge_acc *acc, const json_value *doc)
{
	const json_value *c = json_get(doc, "connection");
	const char *host = json_str(json_get(c, "host"));
	const char *port = json_str(json_get(c, "port"));
	const char *db = json_str(json_get(c, "database"));

	snprintf(acc->target.host, sizeof(acc->target.host), "%s", host ? host : "");
	snprintf(acc->target.port, sizeof(acc->target.port), "%s", port ? port : "");
	snprintf(acc->target.dbname, sizeof(acc->target.dbname), "%s", db ? db : "");
}

/* Build the accumulator from the first report (acc->first). */
static bool
setup(merge_acc *acc, const char *file)
{
	const json_value *doc = &acc->first;
	double		interval_s = json_num(json_get(json_get(doc, "series"), "interval_s"));

	if (doc->kind != JSON_OBJECT)
	{
		diag_error("\"%s\" is not a JSON report of pgbench (schema version 2)", file);
		return false;
	}
	if (!setup_scripts(acc, json_get(doc, "scripts"), file))
		return false;
	setup_settings(acc, doc);
	setup_target(acc, doc);
	if (!(interval_s > 0))
		interval_s = 1.0;
	acc->cfg.series_interval = (pg_time_usec_t) (interval_s * 1000000.0 + 0.5);
	if (!stats_run_init(&acc->stats, acc->scripts.nscripts, acc->cfg.total_commands) ||
		!stats_run_enable_hist(&acc->stats, acc->cfg.per_script_stats) ||
		!stats_run_enable_report(&acc->stats, acc->cfg.series_interval, NULL, acc->cfg.per_command))
	{
		diag_error("out of memory");
		return false;
	}
	return true;
}

void
merge_acc_free(merge_acc *acc)
{
	for (int i = 0; i < acc->scripts.nscripts; i++)
	{
		for (int j = 0; j < acc->scripts.scripts[i].ncommands; j++)
			free(acc->scripts.scripts[i].commands[j]);
		free(acc->scripts.scripts[i].commands);
	}
	stats_run_free(&acc->stats);
	free(acc->windows);
	json_free(&acc->first);
}

/* ---- the time window --------------------------------------------------- */

/* Every report comes from one --rendezvous start. */
static bool
started_together(const merge_acc *acc)
{
	for (int i = 0; i < acc->ninstances; i++)
		if (acc->windows[i].group[0] == '\0' ||
			strcmp(acc->windows[i].group, acc->windows[0].group) != 0 ||
			acc->windows[i].server_start_us != acc->windows[0].server_start_us)
			return false;
	return true;
}

/*
 * From the earliest start to the latest end: in the server's clock when
 * the reports started together, else each counted from its own start.
 */
static void
set_window(const merge_acc *acc, report_input *in)
{
	bool		together = started_together(acc);
	int64_t		start = INT64_MAX,
				bench_start = INT64_MAX,
				end = INT64_MIN,
				first_epoch = INT64_MAX;

	if (!together && acc->ninstances > 1)
		diag_warning("the reports did not start together (no common --rendezvous): their series are aligned by their own start times");
	for (int i = 0; i < acc->ninstances; i++)
	{
		const merge_window *w = &acc->windows[i];
		int64_t		frame = together ? w->server_start_us : 0;

		if (frame < start)
			start = frame;
		if (frame + w->conn_elapsed_us < bench_start)
			bench_start = frame + w->conn_elapsed_us;
		if (frame + w->conn_elapsed_us + w->bench_duration_us > end)
			end = frame + w->conn_elapsed_us + w->bench_duration_us;
		if (w->start_epoch_us > 0 && w->start_epoch_us < first_epoch)
			first_epoch = w->start_epoch_us;
	}
	in->conn_elapsed = bench_start - start;
	in->bench_duration = end - bench_start;
	in->start_time = together ? start : first_epoch != INT64_MAX ? first_epoch : 0;
	in->start_is_epoch = true;
}

/* ---- reading and writing ------------------------------------------------ */

/* The whole file, NUL-terminated (malloc'd); NULL after a message. */
static char *
read_all(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf = NULL;
	size_t		cap = 0;

	*len = 0;
	if (f == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	for (;;)
	{
		size_t		got;

		if (*len + 65536 + 1 > cap)
			buf = pgb_realloc(buf, cap = (cap + 65536) * 2);
		got = fread(buf + *len, 1, cap - *len - 1, f);
		*len += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
	{
		diag_error("could not read report file \"%s\": %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	else
		buf[*len] = '\0';
	fclose(f);
	return buf;
}

/*
 * Keep of the first report only what the others are compared with: the
 * series and histograms go (most of a long run's report).
 */
static void
trim_first(merge_acc *acc)
{
	json_value *scripts = (json_value *) json_get(&acc->first, "scripts");

	json_drop((json_value *) json_get(&acc->first, "series"), "points");
	json_drop(&acc->first, "latency_histogram");
	for (int i = 0; scripts != NULL && i < scripts->n; i++)
	{
		json_value *commands = (json_value *) json_get(&scripts->items[i], "commands");

		json_drop(&scripts->items[i], "latency_histogram");
		for (int j = 0; commands != NULL && commands->kind == JSON_ARRAY && j < commands->n; j++)
			json_drop(&commands->items[j], "latency_histogram");
	}
}

/* Read file and add it into acc (the first one sets acc up). */
static bool
merge_file(merge_acc *acc, const char *file)
{
	size_t		len;
	char	   *text = read_all(file, &len);
	char		err[256];
	json_value	doc;
	bool		ok;

	if (text == NULL)
		return false;
	ok = json_parse(text, len, &doc, err, sizeof(err));
	free(text);
	if (!ok)
	{
		diag_error("could not parse report file \"%s\": %s", file, err);
		return false;
	}
	if (acc->ninstances == 0)
	{
		acc->first = doc;
		acc->first_file = file;
		if (!setup(acc, file) || !merge_add(acc, &acc->first, file))
			return false;
		trim_first(acc);
		return true;
	}
	ok = merge_add(acc, &doc, file);
	json_free(&doc);
	return ok;
}

/* --report-json with --merge-reports. */
static bool
write_json(const char *path, const report_figures *f)
{
	FILE	   *out = fopen(path, "w");
	bool		ok;

	if (out == NULL)
	{
		diag_error("could not open report file \"%s\": %s", path, strerror(errno));
		return false;
	}
	ok = report_json_write(out, f);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		diag_error("could not write report file \"%s\": %s", path, strerror(errno));
	return ok;
}

/*
 * Print and write the merged report; the exit code: 1 when a file cannot
 * be written, else 2 when any instance aborted, else 0.
 */
static int
report(merge_acc *acc, int nfiles, char *const *files, const char *json_path,
	   const char *html_path)
{
	report_input in;
	report_figures figures;
	char	  **argv = pgb_calloc((size_t) nfiles + 2, sizeof(char *));
	FILE	   *html = NULL;
	int			rc = 0;

	argv[0] = (char *) "pgbench";
	argv[1] = (char *) "--merge-reports";
	for (int i = 0; i < nfiles; i++)
		argv[i + 2] = files[i];
	acc->cfg.argc = nfiles + 2;
	acc->cfg.argv = argv;
	acc->cfg.throttle_delay = acc->cfg.rate > 0 ? 1000000.0 / acc->cfg.rate : 0.0;
	memset(&in, 0, sizeof(in));
	in.cfg = &acc->cfg;
	in.scale = acc->scale;
	in.partition_method = acc->partition_method;
	in.partitions = acc->partitions;
	in.stats = &acc->stats;
	in.server_version = acc->server_version[0] != '\0' ? acc->server_version : NULL;
	in.aborted = acc->aborted;
	in.target = &acc->target;
	in.instances = acc->ninstances;
	set_window(acc, &in);
	if (html_path != NULL && (html = report_html_open(html_path)) == NULL)
		rc = 1;
	else if (!figures_compute(&in, &figures))
	{
		diag_error("out of memory");
		rc = 1;
	}
	else
	{
		report_print(stdout, &figures);
		fflush(stdout);
		if ((json_path != NULL && !write_json(json_path, &figures)) ||
			!report_html_finish(&html, html_path, &figures))
			rc = 1;
		figures_free(&figures);
		/* as a run with an aborted client: the line, and pgbench's status 2 */
		if (in.aborted)
		{
			diag_error("Run was aborted; the above results are incomplete.");
			if (rc == 0)
				rc = 2;
		}
	}
	if (html != NULL)
		fclose(html);
	free(argv);
	return rc;
}

int
merge_run(int nfiles, char *const *files, const char *json_path, const char *html_path)
{
	merge_acc	acc;
	int			rc = 1;

	memset(&acc, 0, sizeof(acc));
	for (int i = 0; i < nfiles; i++)
		if (!merge_file(&acc, files[i]))
			goto done;
	rc = report(&acc, nfiles, files, json_path, html_path);
done:
	merge_acc_free(&acc);
	return rc;
}
