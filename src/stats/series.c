/*
 * series.c — the per-interval record of a run for the reports: opening
 * and closing intervals, keeping aborts, and the exact merge of several
 * threads' series.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/series.h"

#define SERIES_FIRST_CAPACITY 64

bool
series_init(run_series *s, pg_time_usec_t interval, const pg_time_usec_t *origin)
{
	memset(s, 0, sizeof(*s));
	s->interval = interval > 0 ? interval : 1000000;
	s->origin = origin;
	s->current = -1;
	s->capacity = SERIES_FIRST_CAPACITY;
	s->points = calloc((size_t) s->capacity, sizeof(series_point));
	if (s->points == NULL)
		return false;
	/* a merged series never adds values itself: no open histogram */
	return origin == NULL || hist_init(&s->open_hist, HIST_ONE_HOUR_US);
}

void
series_free(run_series *s)
{
	for (int i = 0; s->points != NULL && i < s->npoints; i++)
		free(s->points[i].buckets);
	free(s->points);
	free(s->aborts);
	hist_free(&s->open_hist);
	memset(s, 0, sizeof(*s));
}

/* Room for point index i; false (oom set) when memory is short. */
static bool
reserve(run_series *s, int i)
{
	int			capacity = s->capacity;
	series_point *grown;

	if (i < capacity)
		return true;
	while (capacity <= i)
		capacity *= 2;
	grown = realloc(s->points, (size_t) capacity * sizeof(series_point));
	if (grown == NULL)
	{
		s->oom = true;
		return false;
	}
	memset(grown + s->capacity, 0, (size_t) (capacity - s->capacity) * sizeof(series_point));
	s->points = grown;
	s->capacity = capacity;
	return true;
}

/* Keep the open histogram's non-empty buckets in point p, then clear it. */
static void
close_point(run_series *s, series_point *p)
{
	int			n = hist_nonzero(&s->open_hist);

	if (n > 0)
	{
		p->buckets = malloc((size_t) n * sizeof(hist_bucket));
		if (p->buckets != NULL)
			p->nbuckets = hist_export(&s->open_hist, p->buckets, n);
		else
			s->oom = true;
	}
	hist_reset(&s->open_hist);
}

void
series_roll(run_series *s, pg_time_usec_t now)
{
	pg_time_usec_t since = now - *s->origin;
	int64_t		index = since > 0 ? since / s->interval : 0;

	if (s->current >= 0)
		close_point(s, &s->points[s->current]);
	if (index > INT32_MAX - 1 || !reserve(s, (int) index))
	{
		/* keep counting in the last point we have; roll no more */
		s->oom = true;
		if (s->current < 0)
			s->current = 0;
		s->npoints = s->current + 1;
		s->next_at = INT64_MAX;
		return;
	}
	s->current = (int) index;
	s->npoints = s->current + 1;
	s->next_at = *s->origin + (index + 1) * s->interval;
}

/* Append one abort record (at: us since the start). */
static void
push_abort(run_series *s, const client_failure *f, pg_time_usec_t at)
{
	if (s->naborts == s->abort_capacity)
	{
		int			capacity = s->abort_capacity > 0 ? 2 * s->abort_capacity : 4;
		series_abort *grown = realloc(s->aborts, (size_t) capacity * sizeof(series_abort));

		if (grown == NULL)
		{
			s->oom = true;
			return;
		}
		s->aborts = grown;
		s->abort_capacity = capacity;
	}
	s->aborts[s->naborts].at = at;
	s->aborts[s->naborts].failure = *f;
	s->naborts++;
}

void
series_add_abort(run_series *s, const client_failure *f, pg_time_usec_t now)
{
	push_abort(s, f, s->origin != NULL ? now - *s->origin : 0);
}

/* The union of two sorted bucket lists, into a new list (NULL: out of memory). */
static hist_bucket *
merge_buckets(const hist_bucket *a, int na, const hist_bucket *b, int nb, int *n)
{
	hist_bucket *out = malloc((size_t) (na + nb > 0 ? na + nb : 1) * sizeof(hist_bucket));
	int			i = 0,
				j = 0;

	*n = 0;
	if (out == NULL)
		return NULL;
	while (i < na || j < nb)
	{
		if (j >= nb || (i < na && a[i].index < b[j].index))
			out[(*n)++] = a[i++];
		else if (i >= na || b[j].index < a[i].index)
			out[(*n)++] = b[j++];
		else
		{
			out[*n] = a[i++];
			out[(*n)++].count += b[j++].count;
		}
	}
	return out;
}

/* Add src (its buckets: b, n) into dst. */
static void
merge_point(run_series *acc, series_point *dst, const series_point *src,
			const hist_bucket *b, int n)
{
	bool		had = dst->processed > 0;
	hist_bucket *merged;
	int			nmerged;

	if (src->processed > 0)
	{
		if (!had || src->latency_min < dst->latency_min)
			dst->latency_min = src->latency_min;
		if (!had || src->latency_max > dst->latency_max)
			dst->latency_max = src->latency_max;
	}
	dst->processed += src->processed;
	dst->failures += src->failures;
	dst->retries += src->retries;
	dst->skipped += src->skipped;
	dst->latency_sum += src->latency_sum;
	dst->lag_sum += src->lag_sum;
	if (src->lag_max > dst->lag_max)
		dst->lag_max = src->lag_max;
	if (n == 0)
		return;
	merged = merge_buckets(dst->buckets, dst->nbuckets, b, n, &nmerged);
	if (merged == NULL)
	{
		acc->oom = true;
		return;
	}
	free(dst->buckets);
	dst->buckets = merged;
	dst->nbuckets = nmerged;
}

void
series_merge(run_series *acc, const run_series *sr)
{
	hist_bucket *open = NULL;
	int			nopen = 0;

	acc->oom = acc->oom || sr->oom;
	if (sr->npoints > 0 && !reserve(acc, sr->npoints - 1))
		return;
	if (sr->current >= 0)
	{
		nopen = hist_nonzero(&sr->open_hist);
		open = malloc((size_t) (nopen > 0 ? nopen : 1) * sizeof(hist_bucket));
		if (open == NULL)
			acc->oom = true;
		nopen = open != NULL ? hist_export(&sr->open_hist, open, nopen) : 0;
	}
	for (int i = 0; i < sr->npoints; i++)
	{
		const series_point *src = &sr->points[i];

		if (i == sr->current)
			merge_point(acc, &acc->points[i], src, open, nopen);
		else
			merge_point(acc, &acc->points[i], src, src->buckets, src->nbuckets);
	}
	free(open);
	if (sr->npoints > acc->npoints)
		acc->npoints = sr->npoints;
	for (int i = 0; i < sr->naborts; i++)
		push_abort(acc, &sr->aborts[i].failure, sr->aborts[i].at);
}
