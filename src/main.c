/*
 * main.c — pgbench's entry point: options, then initialization or a
 * benchmark run, then the exit code.
 */
#include "pgbench/run/bench.h"
#include "pgbench/base/diag.h"
#include "pgbench/init/init.h"
#include "pgbench/offline/compare.h"
#include "pgbench/offline/list_reports.h"
#include "pgbench/offline/merge.h"
#include "pgbench/cli/options.h"

int
main(int argc, char **argv)
{
	pgb_options opts;
	int			rc;

	pgb_time_init();
	diag_init(argv[0]);
	rc = options_parse(&opts, argc, argv);
	if (rc < 0)
		rc = opts.action == ACTION_INIT ? init_run(&opts)
			: opts.action == ACTION_MERGE ? merge_run(opts.nmerge_files, opts.merge_files,
													  opts.report_json, opts.report_html,
													  opts.merge_partial, opts.thresholds,
													  opts.nthresholds, opts.labels, opts.nlabels)
			: opts.action == ACTION_LIST ? list_reports_run(opts.nmerge_files, opts.merge_files)
			: opts.action == ACTION_COMPARE ? compare_run(opts.nmerge_files, opts.merge_files,
														  opts.report_json, opts.report_html,
														  opts.thresholds,
														  opts.nthresholds,
														  opts.compare_per_instance)
			: opts.sweep.param != SWEEP_NONE ? sweep_run(&opts)
			: bench_run(&opts);
	options_free(&opts);
	return rc;
}
