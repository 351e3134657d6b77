/*
 * procstat.h — what the client process costs while it runs, read from
 * the system: its CPU time (user and system), its resident memory, and
 * one thread's CPU time.  For the timeline's client figures (timeline.h);
 * never on a hot path (once per tick).
 */
#ifndef PGBENCH_PROCSTAT_H
#define PGBENCH_PROCSTAT_H

#include <pthread.h>

#include "pgbench/base/common.h"

typedef struct proc_sample
{
	double		user_s;			/* CPU time of every thread so far */
	double		system_s;
	int64_t		rss_kb;			/* resident set now; -1: unknown */
} proc_sample;

/* The process's figures now.  false when the CPU times cannot be read. */
bool		proc_sample_self(proc_sample *ps);

/*
 * The calling thread's time on a CPU and waiting for one (runnable but
 * not running) so far, s, from /proc/thread-self/schedstat.  false when
 * the kernel does not keep it.
 */
bool		proc_thread_self_sched(double *run_s, double *wait_s);

/* CPU time (user + system) thread has used so far, s; -1 when unknown. */
double		proc_thread_cpu_s(pthread_t thread);

#endif
