/*
 * procstat.c — the client's own CPU and memory (procstat.h): getrusage,
 * /proc/self/statm and the threads' CPU clocks.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/host/procstat.h"

static double
seconds(struct timeval tv)
{
	return (double) tv.tv_sec + 0.000001 * (double) tv.tv_usec;
}

/* Resident pages from /proc/self/statm (its second field), in kB. */
static int64_t
rss_kb(void)
{
	FILE	   *f = fopen("/proc/self/statm", "re");
	long long	size,
				resident;
	long		page = sysconf(_SC_PAGESIZE);
	int			got;

	if (f == NULL)
		return -1;
	got = fscanf(f, "%lld %lld", &size, &resident);
	fclose(f);
	if (got != 2 || page <= 0 || resident < 0)
		return -1;
	return (int64_t) resident * (page / 1024);
}

bool
proc_sample_self(proc_sample *ps)
{
	struct rusage ru;

	ps->rss_kb = rss_kb();
	if (getrusage(RUSAGE_SELF, &ru) != 0)
	{
		ps->user_s = ps->system_s = 0;
		return false;
	}
	ps->user_s = seconds(ru.ru_utime);
	ps->system_s = seconds(ru.ru_stime);
	return true;
}

bool
proc_thread_self_sched(double *run_s, double *wait_s)
{
	FILE	   *f = fopen("/proc/thread-self/schedstat", "re");
	unsigned long long run,
				wait;
	int			got;

	if (f == NULL)
		return false;
	got = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	if (got != 2)
		return false;
	*run_s = 1e-9 * (double) run;
	*wait_s = 1e-9 * (double) wait;
	return true;
}

double
proc_thread_cpu_s(pthread_t thread)
{
	clockid_t	clock;
	struct timespec ts;

	if (pthread_getcpuclockid(thread, &clock) != 0 || clock_gettime(clock, &ts) != 0)
		return -1;
	return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}
