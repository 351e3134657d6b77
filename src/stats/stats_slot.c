/*
 * stats_slot.c — what the workers share with the -P timer while they run:
 * the totals each one publishes (a seqlock per worker; stats.h says why it
 * is race-free) and the gate each one leaves when done.  The engine's
 * transaction sink and the worker write; the ticker (ticker.c) reads.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/stats/stats.h"
#include "pgbench/stats/stats_slot.h"

#define STORE(field, value) atomic_store_explicit(&slot->field, (value), memory_order_relaxed)
#define LOAD(field) atomic_load_explicit(&slot->field, memory_order_relaxed)

void
stats_slot_init(stats_slot *slot)
{
	atomic_init(&slot->seq, 0);
#define INIT_COUNTER(field, json_name, kind) atomic_init(&slot->field, 0);
	STATS_COUNTERS(INIT_COUNTER)
#undef INIT_COUNTER
#define INIT_SUM(name, member) atomic_init(&slot->name, 0.0); atomic_init(&slot->base_##name, 0.0);
	STATS_SUMS(INIT_SUM)
#undef INIT_SUM
#define INIT_BASE(field, json_name, kind) atomic_init(&slot->base_##field, 0);
	STATS_COUNTERS(INIT_BASE)
#undef INIT_BASE
	slot->base_counts = NULL;
	slot->base_nbuckets = 0;
}

bool
stats_slot_enable_cut(stats_slot *slot, int nbuckets)
{
	slot->base_counts = calloc((size_t) (nbuckets > 0 ? nbuckets : 1), sizeof(int64_t));
	slot->base_nbuckets = slot->base_counts != NULL ? nbuckets : 0;
	return slot->base_counts != NULL;
}

void
stats_slot_release(stats_slot *slot)
{
	free(slot->base_counts);
	slot->base_counts = NULL;
	slot->base_nbuckets = 0;
}

void
stats_slot_cut(stats_slot *slot, stats_run *sr)
{
	const hist *h = sr->latency_hist;

	if (slot == NULL)
	{
		stats_run_reset_measured(sr);
		return;
	}
	stats_slot_write_begin(slot);
#define CUT_COUNTER(field, json_name, kind) STORE(base_##field, LOAD(base_##field) + sr->total.field);
	STATS_COUNTERS(CUT_COUNTER)
#undef CUT_COUNTER
#define CUT_SUM(name, member) STORE(base_##name, LOAD(base_##name) + sr->total.member);
	STATS_SUMS(CUT_SUM)
#undef CUT_SUM
	for (int b = 0; h != NULL && b < slot->base_nbuckets && b < h->nbuckets; b++)
		__atomic_store_n(&slot->base_counts[b], slot->base_counts[b] + h->counts[b],
						 __ATOMIC_RELAXED);
	stats_run_reset_measured(sr);
	stats_slot_write_end(slot, &sr->total);
}

/*
 * The writer half of the seqlock: mark the slot busy (odd), and only then
 * (release fence) store the fields; the final even value is a release
 * store, so a reader that sees it sees every field before it.
 */
void
stats_slot_write_begin(stats_slot *slot)
{
	unsigned	seq = atomic_load_explicit(&slot->seq, memory_order_relaxed);

	atomic_store_explicit(&slot->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
}

void
stats_slot_write_end(stats_slot *slot, const stats_data *total)
{
	unsigned	seq = atomic_load_explicit(&slot->seq, memory_order_relaxed);

#define STORE_COUNTER(field, json_name, kind) STORE(field, total->field);
	STATS_COUNTERS(STORE_COUNTER)
#undef STORE_COUNTER
#define STORE_SUM(name, member) STORE(name, total->member);
	STATS_SUMS(STORE_SUM)
#undef STORE_SUM
	atomic_store_explicit(&slot->seq, seq + 1, memory_order_release);
}

void
stats_slot_publish(stats_slot *slot, const stats_data *total)
{
	stats_slot_write_begin(slot);
	stats_slot_write_end(slot, total);
}

/*
 * The reader half: copy the fields between two reads of an even, equal
 * sequence number; the acquire fence keeps the second read after the
 * copies.  A writer publishes in a few nanoseconds, so retries are rare.
 */
void
stats_slot_collect(stats_slot *slot, stats_data *acc)
{
	stats_slot_collect_hist(slot, acc, NULL, NULL);
}

void
stats_slot_collect_hist(stats_slot *slot, stats_data *acc, const hist *h, int64_t *counts)
{
	stats_data	copy;
	unsigned	before,
				after;

	memset(&copy, 0, sizeof(copy));
	do
	{
		before = atomic_load_explicit(&slot->seq, memory_order_acquire);
#define LOAD_COUNTER(field, json_name, kind) copy.field = LOAD(field) + LOAD(base_##field);
		STATS_COUNTERS(LOAD_COUNTER)
#undef LOAD_COUNTER
#define LOAD_SUM(name, member) copy.member = LOAD(name) + LOAD(base_##name);
		STATS_SUMS(LOAD_SUM)
#undef LOAD_SUM
		for (int b = 0; h != NULL && b < h->nbuckets; b++)
			counts[b] = __atomic_load_n(&h->counts[b], __ATOMIC_RELAXED) +
				(b < slot->base_nbuckets ? __atomic_load_n(&slot->base_counts[b], __ATOMIC_RELAXED) : 0);
		atomic_thread_fence(memory_order_acquire);
		after = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	} while ((before & 1) != 0 || before != after);

#define ADD_COUNTER(field, json_name, kind) acc->field += copy.field;
	STATS_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
#define ADD_SUM(name, member) acc->member += copy.member;
	STATS_SUMS(ADD_SUM)
#undef ADD_SUM
}

#undef STORE
#undef LOAD

/* ---- the gate the -P timer waits on ---- */

bool
stats_gate_init(stats_gate *gate, int nworkers)
{
	atomic_init(&gate->running, nworkers);
	gate->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return gate->fd >= 0;
}

void
stats_gate_leave(stats_gate *gate)
{
	uint64_t	one = 1;

	atomic_fetch_sub(&gate->running, 1);
	/* full (2^64 - 2 wake-ups unread) cannot happen: nothing to do on error */
	if (write(gate->fd, &one, sizeof(one)) < 0)
		return;
}

int
stats_gate_running(stats_gate *gate)
{
	return atomic_load(&gate->running);
}

void
stats_gate_destroy(stats_gate *gate)
{
	close(gate->fd);
}
