/*
 * init.h — initialization mode (-i / -I): the steps d t g G v p f that
 * drop, create, fill, vacuum and index the pgbench tables.
 */
#ifndef PGBENCH_INIT_H
#define PGBENCH_INIT_H

#include "pgbench/cli/options.h"

/*
 * Run the steps of opts->init_steps in order, printing pgbench's progress
 * messages.  Returns the process exit code (0, or 1 after a failed step,
 * with a message naming the step).
 */
int			init_run(const pgb_options *opts);

#endif
