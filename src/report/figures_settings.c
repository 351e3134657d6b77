/*
 * figures_settings.c — the report's settings (REPORT_SETTINGS, figures.h)
 * as a table, the names its _NAME settings take, and the way back from a
 * report's settings to the run_config they stand for (what a merge of
 * reports rebuilds).
 */
#include <string.h>

#include "pgbench/report/figures.h"

const char *const report_query_modes[] = {"simple", "extended", "prepared", NULL};
const char *const report_partition_methods[] = {"none", "range", "hash", NULL};

const report_setting report_settings[] = {
#define SETTING_ROW(key, kind, field, null, merge, lo, hi) \
	{key, kind, SETTING_NULLABLE_##null, SETTING_ADDED_##null, merge},
	REPORT_SETTINGS(SETTING_ROW)
#undef SETTING_ROW
};

const int	report_nsettings = (int) PGB_LENGTHOF(report_settings);

/* The index of name in names (NULL-terminated); 0 when NULL or absent. */
static int
name_index(const char *const *names, const char *name)
{
	for (int i = 0; name != NULL && names[i] != NULL; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return 0;
}

void
figures_settings_restore(const report_figures *s, run_config *cfg, report_input *in)
{
	in->scale = s->scale;
	in->partition_method = (partition_method) name_index(report_partition_methods,
														 s->partition_method);
	in->partitions = s->partitions;
	cfg->query_mode = (query_mode) name_index(report_query_modes, s->query_mode);
	cfg->nclients = s->nclients;
	cfg->nthreads = s->nthreads;
	cfg->retry.max_tries = s->max_tries;
	cfg->nxacts = s->nxacts;
	cfg->duration = s->duration;
	cfg->warmup = s->warmup;
	cfg->stages_text = s->stages;
	cfg->rate = s->rate;
	cfg->throttle_delay = runconf_throttle_delay(s->rate, s->nthreads);
	cfg->latency_limit_ms = s->latency_limit_ms;
	cfg->latency_limit = s->latency_limit_ms > 0 ? pgb_usec_from_msec(s->latency_limit_ms) : 0;
	cfg->connect_each = s->connect_each;
	cfg->failures_detailed = s->failures_detailed;
	cfg->server_stats = s->server_stats;
	cfg->server_sample_us = (pg_time_usec_t) 1000 * s->server_sample_ms;
	cfg->npercentiles = s->npercentiles;
	memcpy(cfg->percentiles, s->percentiles, sizeof(cfg->percentiles));
	cfg->random_seed = s->extra.random_seed;
}
