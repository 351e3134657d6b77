/*
 * figures_cases.h — the runs test_figures.c feeds through the figures and
 * both printers: settings as the command line would give them, and a
 * deterministic series of transactions accounted with the stats unit.
 * Each case's expected text and JSON are in t/unit/golden/<name>.txt and
 * .json, printed by the program itself (see t/unit/golden/README).
 */
#ifndef PGBENCH_FIGURES_CASES_H
#define PGBENCH_FIGURES_CASES_H

#include <string.h>

#include "pgbench/script/script.h"
#include "pgbench/stats/stats.h"

#define FC_MAX_SCRIPTS 3

/* One script of a case: its name, source text and weight. */
typedef struct fc_script
{
	const char *name;
	const char *text;
	int			weight;
} fc_script;

/* One run: its settings, and how its transactions end. */
typedef struct fc_case
{
	const char *name;			/* golden file stem */

	/* settings */
	int			nclients,
				nthreads;
	int64_t		nxacts;			/* -t (when duration is 0) */
	int			duration;		/* -T */
	double		rate;			/* -R */
	double		latency_limit_ms;	/* -L */
	uint32_t	max_tries;		/* --max-tries */
	int			progress_sec;	/* -P */
	bool		connect_each;	/* -C */
	bool		failures_detailed;
	bool		per_command;	/* -r */
	query_mode	query_mode;
	int			scale;
	partition_method partition_method;
	int			partitions;
	int			npercentiles;
	double		percentiles[4];
	int			nscripts;
	fc_script	scripts[FC_MAX_SCRIPTS];

	/* the run */
	int			ntx;			/* transactions accounted */
	int			skip_every;		/* k % n == 1: skipped (0: never) */
	int			ser_every;		/* k % n == 2: serialization failure */
	int			dead_every;		/* k % n == 3: deadlock failure */
	int			other_every;	/* k % n == 1 % n: other failure, as
								 * --continue-on-error counts it */
	int			retry_every;	/* k % n == 0: 2 + k % 3 tries */
	pg_time_usec_t bench_duration;
	pg_time_usec_t conn_elapsed;
	pg_time_usec_t conn_duration;	/* summed, -C */
	bool		aborted;
} fc_case;

static const fc_case FC_CASES[] = {
	{
		.name = "plain_t", .nclients = 2, .nthreads = 1, .nxacts = 10, .max_tries = 1,
		.scale = 1, .nscripts = 1,
		.scripts = {{"<builtin: select only>", "select 1;\n", 1}},
		.ntx = 20, .bench_duration = 12345, .conn_elapsed = 2345,
	},
	{
		.name = "rate_limit_skipped", .nclients = 4, .nthreads = 2, .duration = 5,
		.rate = 100, .latency_limit_ms = 2.5, .max_tries = 1, .scale = 10,
		.partition_method = PART_RANGE, .partitions = 4, .query_mode = QUERY_PREPARED,
		.nscripts = 1, .scripts = {{"<builtin: TPC-B (sort of)>", "select 1;\n", 1}},
		.ntx = 487, .skip_every = 9, .bench_duration = 5000123, .conn_elapsed = 4711,
	},
	{
		.name = "failures_retries", .nclients = 3, .nthreads = 3, .duration = 2,
		.max_tries = 3, .failures_detailed = true, .per_command = true, .scale = 1,
		.nscripts = 1,
		.scripts = {{"ser.sql",
				"\\set id random(1, 2)\nbegin isolation level repeatable read;\n"
				"select v from ser where id = :id;\nupdate ser set v = v + 1 where id = :id;\nend;\n",
		1}},
		.ntx = 301, .ser_every = 7, .dead_every = 11, .retry_every = 5,
		.bench_duration = 2000456, .conn_elapsed = 1999,
	},
	{
		.name = "scripts_r", .nclients = 5, .nthreads = 2, .nxacts = 40, .max_tries = 0,
		.progress_sec = 1, .per_command = true, .scale = 2, .query_mode = QUERY_EXTENDED,
		.nscripts = 3,
		.scripts = {
			{"one.sql", "select 1;\n", 3},
			{"two.sql", "\\set x random(1, 10)\nselect :x;\n", 2},
			{"half.sql", "\\if :client_id = 0\nselect 1/0;\n\\else\nselect 1;\n\\endif\n", 1},
		},
		.ntx = 200, .ser_every = 13, .retry_every = 6, .bench_duration = 777777,
		.conn_elapsed = 3210,
	},
	{
		.name = "connect_each", .nclients = 2, .nthreads = 2, .nxacts = 25, .max_tries = 1,
		.connect_each = true, .scale = 1, .nscripts = 1,
		.scripts = {{"<builtin: simple update>", "select 1;\n", 1}},
		.ntx = 50, .bench_duration = 98765, .conn_duration = 43210,
	},
	{
		.name = "nothing_aborted", .nclients = 1, .nthreads = 1, .nxacts = 10, .max_tries = 1,
		.scale = 1, .nscripts = 1, .scripts = {{"bad.sql", "select 1/0;\n", 1}},
		.ntx = 0, .bench_duration = 1500, .conn_elapsed = 900, .aborted = true,
	},
	{
		.name = "all_failed", .nclients = 2, .nthreads = 1, .duration = 1, .max_tries = 2,
		.failures_detailed = true, .latency_limit_ms = 10, .scale = 1, .nscripts = 1,
		.scripts = {{"ser.sql", "select 1;\n", 1}},
		.ntx = 6, .ser_every = 1, .retry_every = 2, .bench_duration = 1000321,
		.conn_elapsed = 800, .aborted = true,
	},
	{
		.name = "percentiles", .nclients = 8, .nthreads = 4, .duration = 3, .rate = 500,
		.max_tries = 1, .scale = 1, .npercentiles = 4, .percentiles = {50, 90, 99, 99.9},
		.nscripts = 2,
		.scripts = {
			{"one.sql", "select 1;\n", 1},
			{"two.sql", "\\set x random(1, 10)\nselect :x;\n", 1},
		},
		.ntx = 1500, .bench_duration = 3000002, .conn_elapsed = 12000,
	},
	/* -f bad.sql -t 3 -c 2 --continue-on-error --failures-detailed -r */
	{
		.name = "other_all_failed", .nclients = 2, .nthreads = 1, .nxacts = 3, .max_tries = 1,
		.failures_detailed = true, .per_command = true, .scale = 1, .nscripts = 1,
		.scripts = {{"bad.sql", "select 1/0;\n", 1}},
		.ntx = 6, .other_every = 1, .bench_duration = 5432, .conn_elapsed = 1234,
	},
	/* -f one.sql@1 -f bad.sql@1 -t 20 -c 2 --continue-on-error --max-tries=2 --failures-detailed -r */
	{
		.name = "other_scripts", .nclients = 2, .nthreads = 1, .nxacts = 20, .max_tries = 2,
		.failures_detailed = true, .per_command = true, .scale = 1, .nscripts = 2,
		.scripts = {
			{"one.sql", "select 1;\n", 1},
			{"bad.sql", "select 1/0;\n", 1},
		},
		.ntx = 40, .other_every = 2, .bench_duration = 23456, .conn_elapsed = 2100,
	},
};

/* Outcome and tries of transaction k of case c. */
static inline stats_outcome
fc_outcome(const fc_case *c, int k, uint32_t *tries)
{
	*tries = c->retry_every > 0 && k % c->retry_every == 0 ? 2 + (uint32_t) (k % 3) : 1;
	if (c->skip_every > 0 && k % c->skip_every == 1)
		return STATS_SKIPPED;
	if (c->ser_every > 0 && k % c->ser_every == 2 % c->ser_every)
		return STATS_SERIALIZATION_FAILURE;
	if (c->dead_every > 0 && k % c->dead_every == 3)
		return STATS_DEADLOCK_FAILURE;
	if (c->other_every > 0 && k % c->other_every == 1 % c->other_every)
		return STATS_OTHER_FAILURE;
	return STATS_SUCCESS;
}

/*
 * Account case c's transactions in sr (sized for the scripts; offset[i]
 * is script i's first flattened command) as the engine would: totals,
 * per script, per command, late count, histograms.
 */
static inline void
fc_fill(stats_run *sr, const fc_case *c, const script_set *set, const int *offset)
{
	int64_t		limit_us = (int64_t) (c->latency_limit_ms * 1000.0);

	for (int k = 0; k < c->ntx; k++)
	{
		int			s = k % c->nscripts;
		const script *sc = &set->scripts[s];
		uint32_t	tries;
		stats_outcome o = fc_outcome(c, k, &tries);
		double		latency = 500.0 + (double) ((k * 7919) % 4000);
		double		lag = c->rate > 0 ? (double) ((k * 31) % 200) : 0.0;

		stats_data_add(&sr->total, o, latency, lag, tries, c->rate > 0);
		stats_data_add(&sr->per_script[s], o, latency, lag, tries, c->rate > 0);
		if (o == STATS_SKIPPED)
			continue;
		if (o == STATS_SUCCESS)
		{
			stats_run_record_latency(sr, s, latency);
			if (limit_us > 0 && latency > (double) limit_us)
				sr->latency_late++;
		}
		for (int j = 0; j < sc->ncommands; j++)
		{
			stats_command *cmd = &sr->per_command[offset[s] + j];

			stats_simple_add(&cmd->latency, latency / sc->ncommands + j);
			if (j == 0)
				cmd->retries += tries - 1;
			if (o != STATS_SUCCESS && j == sc->ncommands - 1)
				cmd->failures++;
		}
	}
	sr->conn_duration = c->conn_duration;
}

#endif
