/*
 * stats_slot.h — what the workers share with the main thread while they
 * run: each worker's published totals (a seqlock the worker alone writes
 * and the ticker reads) and the gate the ticker waits on for the end of
 * the run.  Used by the workers (engine), the transaction sink and the
 * ticker; never by what reads report files back (src/offline).
 */
#ifndef PGBENCH_STATS_SLOT_H
#define PGBENCH_STATS_SLOT_H

#include <stdatomic.h>

#include "pgbench/base/common.h"
#include "pgbench/stats/histogram.h"
#include "pgbench/stats/stats.h"

/*
 * One worker's published totals (src/stats/stats_slot.c): every counter of
 * STATS_COUNTERS and every sum of STATS_SUMS, the subset of stats_data
 * that -P shows.  The engine's transaction sink publishes here after each
 * transaction; the -P timer (progress.h) collects.
 *
 * A slot is a seqlock: its owner (one worker) is the only writer and never
 * waits; a reader retries while a write is under way, so it always sums
 * totals of whole transactions.  Every field is an atomic accessed with
 * relaxed ordering plus the two fences of the seqlock: no lock, no
 * read-modify-write, and no data race for the compiler or TSan.
 */
typedef struct stats_slot
{
	_Alignas(64) atomic_uint seq;	/* odd while the owner is writing */
#define SLOT_COUNTER_FIELD(field, json_name, kind) _Atomic int64_t field;
	STATS_COUNTERS(SLOT_COUNTER_FIELD)
#undef SLOT_COUNTER_FIELD
/* a member name cannot be parenthesized */
#define SLOT_SUM_FIELD(name, member) _Atomic double name;	/* NOLINT(bugprone-macro-parentheses) */
	STATS_SUMS(SLOT_SUM_FIELD)
#undef SLOT_SUM_FIELD

	/*
	 * --warmup: what the owner had published when it forgot its warm-up
	 * (stats_slot_cut), added to every read so that the readers' totals
	 * never go back; and the latency histogram's counters then
	 * (stats_slot_enable_cut; NULL: none).  Written inside the seqlock.
	 */
#define SLOT_BASE_COUNTER(field, json_name, kind) _Atomic int64_t base_##field;
	STATS_COUNTERS(SLOT_BASE_COUNTER)
#undef SLOT_BASE_COUNTER
#define SLOT_BASE_SUM(name, member) _Atomic double base_##name;
	STATS_SUMS(SLOT_BASE_SUM)
#undef SLOT_BASE_SUM
	int64_t    *base_counts;
	int			base_nbuckets;
} stats_slot;

/* Zero a slot before its worker starts. */
void		stats_slot_init(stats_slot *slot);

/*
 * Make room for the base of a latency histogram of nbuckets counters, for
 * a run with a warm-up whose slot is read with a histogram.  false when
 * out of memory.  stats_slot_release frees it.
 */
bool		stats_slot_enable_cut(stats_slot *slot, int nbuckets);
void		stats_slot_release(stats_slot *slot);

/*
 * The end of the warm-up, owner thread: sr forgets what it counted
 * (stats_run_reset_measured), and in the same seqlock write the slot
 * keeps it as its base, so the slot's readers (the timeline, -P) see
 * totals and histogram counters that go on growing.  slot NULL: only the
 * reset (nobody reads the totals).
 */
void		stats_slot_cut(stats_slot *slot, stats_run *sr);

/* Publish the owner's current totals.  Owner thread only; never blocks. */
void		stats_slot_publish(stats_slot *slot, const stats_data *total);

/*
 * stats_slot_publish in two halves, for an owner that changes what the
 * slot guards besides its fields between them (its shared latency
 * histogram, read by stats_slot_collect_hist): begin marks the slot busy,
 * end stores the totals and marks it done.  Owner thread only.
 */
void		stats_slot_write_begin(stats_slot *slot);
void		stats_slot_write_end(stats_slot *slot, const stats_data *total);

/*
 * Add a consistent copy of the slot's totals into acc (counts, sums of
 * latency, latency squared and lag; min and max are not published).  Any
 * thread.
 */
void		stats_slot_collect(stats_slot *slot, stats_data *acc);

/*
 * stats_slot_collect, and in the same consistent read the bucket counters
 * of h (the owner's shared histogram, changed only between
 * stats_slot_write_begin and _end) into counts (h->nbuckets long): the
 * histogram then holds exactly the successes the totals count.  h NULL:
 * no histogram.  Any thread.
 */
void		stats_slot_collect_hist(stats_slot *slot, stats_data *acc, const hist *h,
									int64_t *counts);

/*
 * The end of the run, as the ticker (report/ticker.h) waits for it: the
 * count of workers still running, and an eventfd each one writes when it
 * is done, which the ticker waits on beside its other sockets.
 */
typedef struct stats_gate
{
	atomic_int	running;		/* workers not yet done */
	int			fd;				/* eventfd, non-blocking */
} stats_gate;

/*
 * Set up gate for nworkers workers.  Returns false when the eventfd cannot
 * be made (then nothing needs destroying).  Main thread, before the
 * workers start.
 */
bool		stats_gate_init(stats_gate *gate, int nworkers);

/*
 * A worker is done (after its last publish and its log): one fewer runs,
 * and the ticker wakes up.  Each worker calls it exactly once; any thread.
 */
void		stats_gate_leave(stats_gate *gate);

/* Workers still running (any thread). */
int			stats_gate_running(stats_gate *gate);

/* Release the gate's eventfd, after the joins. */
void		stats_gate_destroy(stats_gate *gate);

#endif
