/*
 * merge_int.h — what the merge unit's files share (merge.c: the run and
 * its output; merge_read.c: one report read into the accumulator).
 * Private to those files.
 */
#ifndef PGBENCH_MERGE_INT_H
#define PGBENCH_MERGE_INT_H

#include "pgbench/figures.h"
#include "pgbench/json_read.h"

/* One instance's place in time (us), for the common window. */
typedef struct merge_window
{
	int64_t		start_epoch_us; /* its start, its own clock */
	int64_t		server_start_us;	/* --rendezvous: the agreed start; else 0 */
	char		group[RENDEZVOUS_MAX_NAME + 1];	/* --rendezvous group; "" none */
	int64_t		conn_elapsed_us;
	int64_t		bench_duration_us;
} merge_window;

/* The reports read so far, added up. */
typedef struct merge_acc
{
	int			ninstances;
	const char *first_file;		/* the settings every report must share */
	json_value	first;			/* the first report's settings, scripts'
								 * names, weights and command lines */

	/* the run_config the printers read, rebuilt */
	run_config	cfg;
	script_set	scripts;		/* desc, weight and commands' first_line only */
	char		transaction_type[1024];
	int			scale;
	partition_method partition_method;
	int			partitions;
	char		server_version[128];
	report_target target;
	bool		aborted;

	stats_run	stats;			/* summed */
	merge_window *windows;		/* one per instance */
} merge_acc;

/*
 * Add report doc (read from file) into acc: the first one sets the
 * workload, the others must match it.  Prints why and returns false when
 * doc is not a report this pgbench can merge or differs from the first.
 */
bool		merge_add(merge_acc *acc, const json_value *doc, const char *file);

/* Release what merge_add allocated. */
void		merge_acc_free(merge_acc *acc);

#endif
