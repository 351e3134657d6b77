/*
 * figures_commits.c — the server's commit count over the run against what
 * the run should have committed (figures.h, figures_commits).
 *
 * Expected: each script's complete passes times what one pass commits
 * (script_commits_of), one commit per client connection (a session's
 * start is a transaction: the clients connect after the count before the
 * run was read), and under -M prepared one per statement prepared on each
 * connection (outside a pipeline, Parse and Sync are a transaction).
 *
 * Explained (how far the counts may differ and still agree): a pass that
 * failed, was retried or was cut short at the end may have committed part
 * of what a whole pass does; with several scripts, a connection prepares
 * only the statements of the scripts it ran; and the server's own
 * sessions (autovacuum) commit a little on the database too: 20 commits
 * and 1% of the expected count.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/report/figures.h"

/* What the scripts commit, or why that is not known. */
typedef struct run_commits
{
	int64_t		expected;
	int64_t		explained;
	const char *why_not;
} run_commits;

/* Whether s opens a pipeline. */
static bool
has_pipeline(const script *s)
{
	for (int i = 0; i < s->ncommands; i++)
		if (s->commands[i]->type == META_COMMAND && s->commands[i]->meta == META_STARTPIPELINE)
			return true;
	return false;
}

static void
count_scripts(const report_input *in, run_commits *rc)
{
	const run_config *cfg = in->cfg;
	const stats_run *sr = in->stats;
	int64_t		connections,
				statements = 0;
	int			max_pass = 0;
	bool		pipelined = false;

	if (cfg->warmup > 0)
	{
		/* the server's totals restart at an interval's end, read on the fly */
		rc->why_not = "the server's totals after a warm-up are not settled";
		return;
	}
	connections = cfg->connect_each ? sr->total.cnt + stats_data_failures(&sr->total)
		: cfg->nclients + sr->reconnect.reconnects;
	for (int i = 0; i < cfg->scripts->nscripts; i++)
	{
		script_commits sc;
		/* per script only when there are several (or -r): else the total */
		const stats_data *sd = cfg->scripts->nscripts == 1 ? &sr->total : &sr->per_script[i];

		script_commits_of(&cfg->scripts->scripts[i], &sc);
		if (!sc.known)
		{
			rc->why_not = sc.why;
			return;
		}
		if (cfg->query_mode == QUERY_PREPARED && sc.dynamic)
		{
			rc->why_not = "prepared statements whose text depends on variables";
			return;
		}
		rc->expected += sd->cnt * sc.per_pass;
		rc->explained += (stats_data_failures(sd) + sd->retries) * sc.per_pass;
		statements += sc.sql_commands;
		pipelined = pipelined || has_pipeline(&cfg->scripts->scripts[i]);
		if (sc.per_pass > max_pass)
			max_pass = sc.per_pass;
	}
	rc->expected += connections;
	rc->explained += (int64_t) cfg->nclients * max_pass;
	if (cfg->query_mode == QUERY_PREPARED)
	{
		/* in a pipeline, the prepares share its transaction */
		if (pipelined || cfg->scripts->nscripts > 1)
			rc->explained += connections * statements;
		if (!pipelined)
			rc->expected += connections * statements;
	}
	rc->explained += 20 + rc->expected / 100;
}

void
figures_commits_compute(figures_commits *c, const report_input *in)
{
	const server_run *run = in->server_run;
	run_commits rc = {0};

	memset(c, 0, sizeof(*c));
	if (run == NULL)
		return;
	if (!run->totals_read)
	{
		c->why_not = "the server's counts over the run could not be read";
		return;
	}
	c->server = (int64_t) run->total[SRV_XACT_COMMIT];
	count_scripts(in, &rc);
	if (rc.why_not != NULL)
	{
		c->why_not = rc.why_not;
		return;
	}
	if (run->others)
	{
		c->why_not = "other sessions with the run's application_name used the database";
		return;
	}
	c->checked = true;
	c->expected = rc.expected;
	c->explained = rc.explained;
	c->difference = c->server - c->expected;
	c->agrees = llabs(c->difference) <= c->explained;
}
