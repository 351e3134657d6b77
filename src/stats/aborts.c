/*
 * aborts.c — the list of aborted clients' failure records (aborts.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/stats/aborts.h"

void
run_aborts_init(run_aborts *a, const pg_time_usec_t *origin)
{
	memset(a, 0, sizeof(*a));
	a->origin = origin;
}

void
run_aborts_free(run_aborts *a)
{
	free(a->items);
	memset(a, 0, sizeof(*a));
}

static void
push(run_aborts *a, const client_failure *f, pg_time_usec_t at)
{
	if (a->n == a->capacity)
	{
		int			capacity = a->capacity > 0 ? 2 * a->capacity : 4;
		run_abort  *grown = realloc(a->items, (size_t) capacity * sizeof(run_abort));

		if (grown == NULL)
		{
			a->oom = true;
			return;
		}
		a->items = grown;
		a->capacity = capacity;
	}
	a->items[a->n].at = at;
	a->items[a->n].failure = *f;
	a->n++;
}

void
run_aborts_add(run_aborts *a, const client_failure *f, pg_time_usec_t now)
{
	push(a, f, a->origin != NULL ? now - *a->origin : 0);
}

void
run_aborts_merge(run_aborts *acc, const run_aborts *src)
{
	for (int i = 0; i < src->n; i++)
		push(acc, &src->items[i].failure, src->items[i].at);
	acc->oom = acc->oom || src->oom;
}
