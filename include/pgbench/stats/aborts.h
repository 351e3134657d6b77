/*
 * aborts.h — the failure record of every client that aborted, stamped
 * with when it happened, kept for the report files (aborted_clients).
 *
 * Not on the hot path: a client aborts once.  A failed allocation never
 * stops the run: the record is left out and oom says so.
 *
 * Thread-safety: none inside.  A run_aborts belongs to one worker thread,
 * its only writer; run_aborts_merge runs after the join.
 */
#ifndef PGBENCH_ABORTS_H
#define PGBENCH_ABORTS_H

#include "pgbench/base/common.h"
#include "pgbench/failure/failure.h"

/* A client that aborted: when, and its failure record. */
typedef struct run_abort
{
	pg_time_usec_t at;			/* us since the run's start */
	client_failure failure;
} run_abort;

typedef struct run_aborts
{
	const pg_time_usec_t *origin;	/* the run's start (set by the orchestrator
									 * before the threads start); NULL in a
									 * merged list */
	int			n;
	int			capacity;
	run_abort  *items;
	bool		oom;			/* a record could not be kept */
} run_aborts;

/* An empty list whose stamps count from *origin (NULL: merges only). */
void		run_aborts_init(run_aborts *a, const pg_time_usec_t *origin);
void		run_aborts_free(run_aborts *a);

/* Keep a copy of f, stamped now (pgb_time_now clock). */
void		run_aborts_add(run_aborts *a, const client_failure *f, pg_time_usec_t now);

/* Append src's records to acc (after the join). */
void		run_aborts_merge(run_aborts *acc, const run_aborts *src);

#endif
