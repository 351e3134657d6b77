/*
 * test_hoststat.c — the host and process-tree figures (hoststat.h): a
 * table of /proc/PID/stat lines, good and odd (a comm with spaces and
 * parentheses, overflows, missing fields); this machine's figures twice;
 * this process as the root of a tree of forked children (one burning CPU)
 * before, while a child is a zombie and after it is reaped; a child forked
 * by a second thread (found by the /proc scan); pids that do not exist.
 * Children only read, write and _exit: no cleanup of the harness runs.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/host/hoststat.h"
#include "tap.h"

/* The fields after the state: PPID 7, utime 11, stime 22, cutime 33, cstime 44, 1 thread. */
#define TAIL " 7 42 42 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0 12345 1000 10 0 0 0"

static const struct
{
	const char *name;
	const char *line;
	bool		ok;
	const char *comm;			/* when ok */
	char		state;
	int64_t		ppid;
} stat_rows[] = {
	{"plain", "42 (postgres) S" TAIL "\n", true, "postgres", 'S', 7},
	{"comm 'a) b (c'", "42 (a) b (c) R" TAIL, true, "a) b (c", 'R', 7},
	{"comm holding ') S 999 '", "42 (x) S 999 ) Z" TAIL, true, "x) S 999 ", 'Z', 7},
	{"empty comm", "42 () S" TAIL, true, "", 'S', 7},
	{"comm cut to 63 bytes",
		"42 (0123456789012345678901234567890123456789012345678901234567890123456789) S" TAIL, true,
	"012345678901234567890123456789012345678901234567890123456789012", 'S', 7},
	{"ppid 0", "1 (init) S 0 1 1 0 -1 0 0 0 0 0 1 2 3 4 20 0 1", true, "init", 'S', 0},
	{"empty", "", false, NULL, 0, 0},
	{"pid alone", "42", false, NULL, 0, 0},
	{"no ')'", "42 (postgres S" TAIL, false, NULL, 0, 0},
	{"no '('", "42 postgres) S" TAIL, false, NULL, 0, 0},
	{"pid not a number", "abc (x) S" TAIL, false, NULL, 0, 0},
	{"pid 0", "0 (x) S" TAIL, false, NULL, 0, 0},
	{"negative pid", "-42 (x) S" TAIL, false, NULL, 0, 0},
	{"pid past INT_MAX", "2147483648 (x) S" TAIL, false, NULL, 0, 0},
	{"no space before the state", "42 (x)S" TAIL, false, NULL, 0, 0},
	{"no state", "42 (x)  7 42 42", false, NULL, 0, 0},
	{"cut after ppid", "42 (x) S 7", false, NULL, 0, 0},
	{"cut before num_threads", "42 (x) S 7 42 42 0 -1 0 0 0 0 0 1 2 3 4 20 0", false, NULL, 0, 0},
	{"junk in a number", "42 (x) S 7x 42 42 0 -1 0 0 0 0 0 1 2 3 4 20 0 1", false, NULL, 0, 0},
	{"utime overflows", "42 (x) S 7 42 42 0 -1 0 0 0 0 0 99999999999999999999 2 3 4 20 0 1", false, NULL, 0, 0},
	{"negative stime", "42 (x) S 7 42 42 0 -1 0 0 0 0 0 1 -2 3 4 20 0 1", false, NULL, 0, 0},
	{"negative ppid", "42 (x) S -7 42 42 0 -1 0 0 0 0 0 1 2 3 4 20 0 1", false, NULL, 0, 0},
};

static void
test_parse(void)
{
	proc_stat_fields f;

	for (size_t i = 0; i < PGB_LENGTHOF(stat_rows); i++)
	{
		bool		ok = proc_stat_parse(stat_rows[i].line, &f);

		tap_ok(ok == stat_rows[i].ok, "stat line, %s: %s", stat_rows[i].name,
			   stat_rows[i].ok ? "parsed" : "refused");
		if (!ok || !stat_rows[i].ok)
			continue;
		tap_is_str(f.comm, stat_rows[i].comm, "  its comm");
		tap_ok(f.state == stat_rows[i].state && f.ppid == stat_rows[i].ppid,
			   "  its state %c and ppid %d", f.state, (int) f.ppid);
	}
	proc_stat_parse("42 (a) b (c) S" TAIL, &f);
	tap_ok(f.pid == 42 && f.utime == 11 && f.stime == 22 && f.cutime == 33 && f.cstime == 44 &&
		   f.num_threads == 1, "the times and thread count after the last ')'");
}

static double
cpu_sum(const host_sample *hs)
{
	double		s = 0;

	for (int i = 0; i < HOST_CPU_NSTATES; i++)
		s += hs->cpu_s[i];
	return s;
}

/* This process's CPU time, s. */
static double
own_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Spend s of CPU time, mostly in user mode. */
static void
burn(double s)
{
	volatile uint64_t x = 0;
	double		start = own_cpu();

	while (own_cpu() - start < s)
		for (int i = 0; i < 1000000; i++)
			x += (uint64_t) i;
	(void) x;					/* read: clang's unused-but-set warning */
}

static void
test_host(void)
{
	host_sample a,
				b;
	bool		monotone = true;

	tap_ok(host_sample_read(&a) && a.ok, "host: /proc/stat read");
	tap_ok(a.ncpus >= 1, "host: %d CPUs", a.ncpus);
	tap_ok(a.mem_total_kb > 0 && a.mem_available_kb > 0 && a.mem_available_kb <= a.mem_total_kb,
		   "host: memory %" PRId64 " kB, %" PRId64 " available", a.mem_total_kb, a.mem_available_kb);
	tap_ok(a.net_rx_bytes >= -1 && a.net_tx_bytes >= -1 && a.disk_read_bytes >= -1 &&
		   a.disk_write_bytes >= -1, "host: traffic figures known or -1");
	tap_diag("net rx %" PRId64 " tx %" PRId64 ", disk read %" PRId64 " written %" PRId64,
			 a.net_rx_bytes, a.net_tx_bytes, a.disk_read_bytes, a.disk_write_bytes);
	burn(0.05);
	tap_ok(host_sample_read(&b), "host: read again");
	/* idle and iowait may step back a little (NO_HZ): not checked alone */
	for (int i = 0; i < HOST_CPU_NSTATES; i++)
		if (i != 3 && i != 4 && b.cpu_s[i] < a.cpu_s[i])
			monotone = false;
	tap_ok(monotone, "host: busy CPU states do not step back");
	tap_ok(cpu_sum(&b) >= cpu_sum(&a) - 0.01 * b.ncpus, "host: total CPU does not step back");
	tap_ok(b.cpu_s[0] + b.cpu_s[1] + b.cpu_s[2] > a.cpu_s[0] + a.cpu_s[1] + a.cpu_s[2],
		   "host: user + nice + system grew while we burned CPU");
	tap_ok(b.ncpus == a.ncpus, "host: same CPUs");
}

/*
 * Fork a child that burns burn_s of CPU, writes a byte to ready_fd and
 * waits for a byte (or EOF) on go_fd, then _exits.
 */
static pid_t
spawn(double burn_s, int ready_fd, int go_fd)
{
	pid_t		pid;
	char		c = 'r';

	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return pid;
	burn(burn_s);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	while (read(go_fd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* n bytes read from fd, one a child; false at EOF or an error. */
static bool
wait_ready(int fd, int n)
{
	char		c;

	while (n > 0)
	{
		ssize_t		got = read(fd, &c, 1);

		if (got < 0 && errno == EINTR)
			continue;
		if (got != 1)
			return false;
		n--;
	}
	return true;
}

static double
tree_cpu(const proc_tree_sample *ts)
{
	return ts->user_s + ts->system_s;
}

/* Read the tree of this process into *ts and check it has nprocs. */
static void
tree_is(proc_tree_sample *ts, int nprocs, const char *when)
{
	bool		ok = proc_tree_read(getpid(), ts);

	tap_ok(ok && ts->nprocs == nprocs, "tree %s: %d processes (%d)", when, nprocs, ts->nprocs);
}

static void
test_tree(const char *comm)
{
	proc_tree_sample s0,
				s1,
				s2,
				s3,
				s4;
	int			ready[2],
				go_a[2],
				go_b[2];
	pid_t		a,
				b;
	siginfo_t	si;
	double		tick = 1.0 / (double) sysconf(_SC_CLK_TCK);

	if (pipe(ready) != 0 || pipe(go_a) != 0 || pipe(go_b) != 0)
	{
		tap_ok(false, "pipes");
		return;
	}
	tree_is(&s0, 1, "alone");
	a = spawn(0.2, ready[1], go_a[0]);
	b = spawn(0, ready[1], go_b[0]);
	if (!tap_ok(a > 0 && b > 0 && wait_ready(ready[0], 2), "two children forked and ready"))
		return;
	tree_is(&s1, 3, "with two children");
	tap_ok(s1.user_s > s0.user_s && tree_cpu(&s1) >= tree_cpu(&s0) + 0.1,
		   "tree: CPU grew by the child's burn (%.2f -> %.2f s)", tree_cpu(&s0), tree_cpu(&s1));
	tap_ok(s1.ctxsw_voluntary > 0 && s1.ctxsw_involuntary >= 0, "tree: context switches counted");
	if (access("/proc/self/io", R_OK) == 0)
		tap_ok(s1.read_bytes >= 0 && s1.write_bytes >= 0, "tree: our own I/O is readable");
	else
		tap_ok(s1.read_bytes == -1, "tree: no /proc/self/io, I/O unknown");
	tap_is_int(proc_parent_of(a), getpid(), "proc_parent_of(child) is us");
	tap_is_int(proc_parent_of(getpid()), getppid(), "proc_parent_of(us) is getppid()");
	tap_ok(proc_comm_is(getpid(), comm) && proc_comm_is(a, comm), "proc_comm_is(us and child, \"%s\")", comm);

	tap_ok(write(go_a[1], "g", 1) == 1 && waitid(P_PID, (id_t) a, &si, WEXITED | WNOWAIT) == 0,
		   "the burning child exited, not reaped");
	tree_is(&s2, 3, "with a zombie");
	tap_ok(tree_cpu(&s2) >= tree_cpu(&s1) - 2 * tick, "tree: zombie's CPU still counted");
	tap_is_int(waitpid(a, NULL, 0), a, "reaped it");
	tree_is(&s3, 2, "after reaping");
	tap_ok(tree_cpu(&s3) >= tree_cpu(&s2) - 2 * tick && tree_cpu(&s3) >= tree_cpu(&s0) + 0.1,
		   "tree: its CPU moved into our cutime (%.3f -> %.3f s)", tree_cpu(&s2), tree_cpu(&s3));
	tap_ok(write(go_b[1], "g", 1) == 1 && waitpid(b, NULL, 0) == b, "other child reaped");
	tree_is(&s4, 1, "alone again");
	tap_ok(tree_cpu(&s4) >= tree_cpu(&s3) - 2 * tick, "tree: CPU did not step back");
	tap_ok(proc_parent_of(a) != getpid(), "a reaped child is no longer ours");
	for (int i = 0; i < 2; i++)
	{
		close(ready[i]);
		close(go_a[i]);
		close(go_b[i]);
	}
}

/* A second thread: forks a child, then waits for main's word to end. */
typedef struct forker
{
	int			ready[2];		/* the child writes a byte when up */
	int			go[2];			/* a byte releases the child */
	int			quit[2];		/* a byte ends the thread */
	pid_t		child;
} forker;

/*
 * The child signals this thread, which tells the main thread only once
 * fk->child is stored (the child's own byte could come first: a race).
 */
static void *
forker_main(void *arg)
{
	forker	   *fk = arg;
	int			mine[2];
	char		c;

	if (pipe(mine) != 0)
		return NULL;
	fk->child = spawn(0, mine[1], fk->go[0]);
	if (wait_ready(mine[0], 1) && write(fk->ready[1], "r", 1) != 1)
		fk->child = -1;
	close(mine[0]);
	close(mine[1]);
	while (read(fk->quit[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/*
 * A child forked by another thread is not in the main thread's children
 * file: with two threads, proc_tree_read scans /proc.
 */
static void
test_threaded(void)
{
	forker		fk;
	pthread_t	th;
	proc_tree_sample ts;

	if (pipe(fk.ready) != 0 || pipe(fk.go) != 0 || pipe(fk.quit) != 0 ||
		pthread_create(&th, NULL, forker_main, &fk) != 0)
	{
		tap_ok(false, "forker thread");
		return;
	}
	if (!tap_ok(wait_ready(fk.ready[0], 1), "a second thread forked a child"))
		return;
	tree_is(&ts, 2, "with a child of the second thread");
	tap_is_int(proc_parent_of(fk.child), getpid(), "its parent is our process");
	tap_ok(write(fk.go[1], "g", 1) == 1 && waitpid(fk.child, NULL, 0) == fk.child, "reaped it");
	tap_ok(write(fk.quit[1], "q", 1) == 1 && pthread_join(th, NULL) == 0, "second thread ended");
	tree_is(&ts, 1, "single-threaded again");
	for (int i = 0; i < 2; i++)
	{
		close(fk.ready[i]);
		close(fk.go[i]);
		close(fk.quit[i]);
	}
}

static void
test_missing(const char *comm)
{
	static const pid_t pids[] = {INT_MAX, 0, -1};
	proc_tree_sample ts;

	for (size_t i = 0; i < PGB_LENGTHOF(pids); i++)
	{
		tap_ok(!proc_tree_read(pids[i], &ts) && ts.nprocs == 0, "pid %d: no tree", (int) pids[i]);
		tap_is_int(proc_parent_of(pids[i]), -1, "  no parent");
		tap_ok(!proc_comm_is(pids[i], comm), "  no comm");
	}
}

int
main(int argc, char **argv)
{
	char		comm[16];
	const char *base = strrchr(argv[0], '/');
	char		longer[32];

	/* the kernel keeps 15 bytes of the program's name */
	snprintf(comm, sizeof(comm), "%s", base != NULL ? base + 1 : argv[0]);
	snprintf(longer, sizeof(longer), "%sx", comm);
	test_parse();
	test_host();
	test_tree(comm);
	tap_ok(!proc_comm_is(getpid(), "postgres") && !proc_comm_is(getpid(), longer) &&
		   !proc_comm_is(getpid(), "test_"), "proc_comm_is: other names, longer, a prefix: false");
	test_threaded();
	test_missing(comm);
	return tap_done();
}
