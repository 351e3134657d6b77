/*
 * timeline.c — the records of timeline.h: where they are kept (chunks in
 * memory, full ones in an unlinked temporary file), how a record's
 * latencies are summed up from a fine histogram, and how two records of
 * the same interval add up.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/stats/timeline.h"

const timeline_counter_def timeline_server_counters[SRV_NCOUNTERS] = {
#define COUNTER_DEF(id, group, key, unit) [id] = {group, key, unit},
	TIMELINE_SERVER_COUNTERS(COUNTER_DEF)
#undef COUNTER_DEF
};

#define CHUNK_BYTES (sizeof(timeline_record) * TIMELINE_CHUNK)

/* ---- storage ------------------------------------------------------------- */

void
timeline_init(timeline *tl, pg_time_usec_t interval, bool spill)
{
	memset(tl, 0, sizeof(*tl));
	tl->interval = interval > 0 ? interval : 1;
	tl->fd = -1;
	tl->spill = spill;
}

void
timeline_free(timeline *tl)
{
	for (int c = 0; c < tl->nchunks; c++)
		free(tl->chunks[c].mem);
	free(tl->chunks);
	if (tl->fd_open)
		close(tl->fd);
	memset(tl, 0, sizeof(*tl));
	tl->fd = -1;
}

/* The spill file: made on first use in $TMPDIR (else /tmp), unlinked at once. */
static bool
open_spill(timeline *tl)
{
	const char *dir = getenv("TMPDIR");
	char		path[4096];
	int			fd;

	if (tl->fd_open)
		return true;
	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/pgbench-timeline-XXXXXX", dir) >= (int) sizeof(path))
		return false;
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	unlink(path);
	tl->fd = fd;
	tl->fd_open = true;
	return true;
}

/* Whole-buffer pwrite (write) or pread at off; false on any error or short count. */
static bool
io_at(int fd, void *buf, size_t len, off_t off, bool write)
{
	char	   *p = buf;

	while (len > 0)
	{
		ssize_t		n = write ? pwrite(fd, p, len, off) : pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t) n;
		off += n;
	}
	return true;
}

static off_t
offset_of(int i)
{
	return (off_t) i * (off_t) sizeof(timeline_record);
}

/*
 * Chunk c is full: to the file, its memory then serves chunk c + 1.
 * Returns the buffer to reuse, or NULL when the chunk stays in memory.
 */
static timeline_record *
spill_chunk(timeline *tl, int c)
{
	timeline_record *mem = tl->chunks[c].mem;

	if (!tl->spill || tl->in_memory || mem == NULL)
		return NULL;
	if (!open_spill(tl) ||
		!io_at(tl->fd, mem, CHUNK_BYTES, offset_of(c * TIMELINE_CHUNK), true))
	{
		tl->in_memory = true;
		return NULL;
	}
	tl->chunks[c].mem = NULL;
	return mem;
}

/* Open chunk nchunks (memory for TIMELINE_CHUNK records). */
static bool
add_chunk(timeline *tl)
{
	timeline_record *mem;

	if (tl->nchunks == tl->chunk_capacity)
	{
		int			cap = tl->chunk_capacity > 0 ? 2 * tl->chunk_capacity : 16;
		timeline_chunk *grown = realloc(tl->chunks, sizeof(timeline_chunk) * (size_t) cap);

		if (grown == NULL)
			return false;
		tl->chunks = grown;
		tl->chunk_capacity = cap;
	}
	mem = tl->nchunks > 0 ? spill_chunk(tl, tl->nchunks - 1) : NULL;
	if (mem == NULL && (mem = malloc(CHUNK_BYTES)) == NULL)
		return false;
	tl->chunks[tl->nchunks++].mem = mem;
	return true;
}

bool
timeline_append(timeline *tl, const timeline_record *r)
{
	int			c = tl->n / TIMELINE_CHUNK;

	if (c == tl->nchunks && !add_chunk(tl))
	{
		tl->oom = true;
		return false;
	}
	tl->chunks[c].mem[tl->n % TIMELINE_CHUNK] = *r;
	tl->n++;
	return true;
}

bool
timeline_get(const timeline *tl, int i, timeline_record *r)
{
	const timeline_chunk *ch;

	if (i < 0 || i >= tl->n)
		return false;
	ch = &tl->chunks[i / TIMELINE_CHUNK];
	if (ch->mem != NULL)
	{
		*r = ch->mem[i % TIMELINE_CHUNK];
		return true;
	}
	return io_at(tl->fd, r, sizeof(*r), offset_of(i), false);
}

bool
timeline_put(timeline *tl, int i, const timeline_record *r)
{
	timeline_chunk *ch;

	if (i < 0)
		return false;
	while (tl->n < i)
	{
		timeline_record empty;

		memset(&empty, 0, sizeof(empty));
		empty.start_us = (pg_time_usec_t) tl->n * tl->interval;
		empty.end_us = empty.start_us + tl->interval;
		if (!timeline_append(tl, &empty))
			return false;
	}
	if (i == tl->n)
		return timeline_append(tl, r);
	ch = &tl->chunks[i / TIMELINE_CHUNK];
	if (ch->mem != NULL)
	{
		ch->mem[i % TIMELINE_CHUNK] = *r;
		return true;
	}
	return io_at(tl->fd, (void *) r, sizeof(*r), offset_of(i), true);
}

/* ---- latencies ----------------------------------------------------------- */

static void
bucket_add(uint32_t *b, int64_t n)
{
	uint64_t	sum = (uint64_t) *b + (uint64_t) n;

	*b = sum > UINT32_MAX ? UINT32_MAX : (uint32_t) sum;
}

void
timeline_record_latencies(timeline_record *r, const hist *h)
{
	static const double at[TIMELINE_NPERCENTILES] = TIMELINE_PERCENTILES;

	memset(r->buckets, 0, sizeof(r->buckets));
	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
		r->latency_pct_us[k] = 0;
	r->latency_min_us = r->latency_max_us = 0;
	if (h == NULL || h->count == 0)
		return;
	for (int b = 0; b < h->nbuckets; b++)
		if (h->counts[b] > 0)
			bucket_add(&r->buckets[timeline_bucket_of(hist_bucket_lowest(b))], h->counts[b]);
	r->latency_min_us = h->min;
	r->latency_max_us = h->max;
	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
		r->latency_pct_us[k] = (double) hist_value_at_percentile(h, at[k]);
}

int64_t
timeline_bucket_count(const timeline_record *r)
{
	int64_t		n = 0;

	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
		n += r->buckets[b];
	return n;
}

double
timeline_bucket_percentile(const timeline_record *r, double p)
{
	int64_t		count = timeline_bucket_count(r);
	int64_t		rank,
				seen = 0;

	if (count == 0)
		return 0;
	if (p <= 0)
		return (double) r->latency_min_us;
	if (p >= 100)
		return (double) r->latency_max_us;
	rank = (int64_t) ceil(p / 100.0 * (double) count);
	if (rank < 1)
		rank = 1;
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
	{
		seen += r->buckets[b];
		if (seen >= rank)
		{
			int64_t		lo = hist_layout_lowest(b, TIMELINE_SUB_BITS);
			int64_t		v = lo + (hist_layout_highest(b, TIMELINE_SUB_BITS) - lo) / 2;

			if (v < r->latency_min_us)
				v = r->latency_min_us;
			if (v > r->latency_max_us)
				v = r->latency_max_us;
			return (double) v;
		}
	}
	return (double) r->latency_max_us;
}

/* ---- merging -------------------------------------------------------------- */

/* acc's counters plus r's into sum; false on overflow. */
static bool
add_counters(stats_data *sum, const stats_data *acc, const stats_data *r)
{
	bool		ok = true;

	*sum = *acc;
#define ADD_COUNTER(field, json_name, kind) \
	ok = ok && !__builtin_add_overflow(acc->field, r->field, &sum->field);
	STATS_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
	sum->latency.sum += r->latency.sum;
	sum->latency.sum2 += r->latency.sum2;
	sum->lag.sum += r->lag.sum;
	return ok;
}

bool
timeline_record_merge(timeline_record *acc, const timeline_record *r)
{
	static const double at[TIMELINE_NPERCENTILES] = TIMELINE_PERCENTILES;
	stats_data	sum;
	bool		acc_lat = acc->delta.cnt > 0,
				r_lat = r->delta.cnt > 0;

	if (r->sources == 0)
		return true;
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
		if ((uint64_t) acc->buckets[b] + r->buckets[b] > UINT32_MAX)
			return false;
	if (!add_counters(&sum, &acc->delta, &r->delta))
		return false;
	if (acc->sources == 0)
	{
		*acc = *r;
		return true;
	}
	acc->delta = sum;
	for (int b = 0; b < TIMELINE_NBUCKETS; b++)
		acc->buckets[b] += r->buckets[b];
	if (r_lat && (!acc_lat || r->latency_min_us < acc->latency_min_us))
		acc->latency_min_us = r->latency_min_us;
	if (r_lat && (!acc_lat || r->latency_max_us > acc->latency_max_us))
		acc->latency_max_us = r->latency_max_us;
	if (r->start_us < acc->start_us)
		acc->start_us = r->start_us;
	if (r->end_us > acc->end_us)
		acc->end_us = r->end_us;
	acc->has_client = acc->has_client && r->has_client;
	acc->cpu_user_s += r->cpu_user_s;
	acc->cpu_system_s += r->cpu_system_s;
	if (r->busiest_thread_cpu > acc->busiest_thread_cpu)
		acc->busiest_thread_cpu = r->busiest_thread_cpu;
	acc->rss_kb += r->rss_kb;
	acc->staged = acc->staged && r->staged;
	acc->stage_target += r->stage_target;
	acc->sources += r->sources;
	/* the servers' and hosts' figures are each run's own: not added */
	memset(&acc->server, 0, sizeof(acc->server));
	memset(&acc->host, 0, sizeof(acc->host));
	for (int k = 0; k < TIMELINE_NPERCENTILES; k++)
		acc->latency_pct_us[k] = timeline_bucket_percentile(acc, at[k]);
	return true;
}
