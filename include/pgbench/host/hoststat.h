/*
 * hoststat.h — the machine's and one process tree's figures, read from
 * /proc, for a run's per-interval timeline: the host's CPU states, memory,
 * network and disk traffic, and a server process (e.g. a PostgreSQL
 * postmaster) with its children: CPU time, I/O and context switches.
 *
 * Called by the main thread once per second at most, never on a hot path.
 * No function keeps state between calls, allocates beyond what opendir
 * needs, or prints; every file opened is closed before it returns.  The
 * files are read as untrusted text: fixed buffers (a line of 4 kB or more
 * is skipped whole; none of the lines used comes near), checked
 * number conversions, and a malformed figure makes that figure unknown
 * (-1), never a crash.
 *
 * What is counted, and what is not:
 *
 * - Host CPU: the "cpu " line of /proc/stat, every online CPU summed
 *   (guest time is already inside user and nice, so it is not added).
 *   The kernel's idle and iowait may step back a little (NO_HZ accounting):
 *   a caller that takes differences clamps them at 0.
 * - Network: /proc/net/dev of the caller's network namespace, every
 *   interface but lo; traffic that crosses a bridge and a veth, or a
 *   tunnel and the device under it, counts at each.
 * - Disk: /proc/diskstats, whole disks only (NAME has /sys/block/NAME,
 *   with '/' in NAME read as '!'), excluding loop* (their I/O reaches the
 *   disk under the backing file), ram* and zram* (memory), and any device
 *   stacked on others (a non-empty /sys/block/NAME/slaves: dm-*, md*,
 *   bcache*), whose I/O is counted on the devices below it.  So each
 *   request that reaches a physical device counts once per device (a
 *   RAID 1 write counts on each mirror, as it is done twice).
 * - Process tree: the root and its direct children (not grandchildren).
 *   CPU: the root's utime + cutime (the children it has reaped, with
 *   what they had reaped), plus each live child's utime + cutime; a
 *   child's time thus moves into the root's cutime when the root reaps it
 *   (within a tick of rounding), and the sum does not step back.  I/O:
 *   /proc/PID/io read_bytes / write_bytes (bytes that reached the storage
 *   layer); the kernel folds a reaped child's I/O into its parent's
 *   /proc/PID/io, so reaped children are kept there too.  Context
 *   switches: /proc/PID/status counts the task's own only (the kernel
 *   keeps reaped children's in the parent, but /proc does not show them),
 *   so they are summed over the live processes and drop when a child is
 *   reaped: a caller clamps differences at 0.  A child not yet reaped
 *   (zombie) still counts as live.  Children a root leaves to the kernel
 *   to reap (SIGCHLD ignored) take their CPU time with them.
 * - Children are listed from /proc/ROOT/task/ROOT/children when the kernel
 *   has it and the root has a single thread (that file lists the children
 *   of that one thread; a postmaster is single-threaded), else by a scan
 *   of /proc/[0-9]* for PPid == root.  Each child's PPid is checked when
 *   it is read (a recycled pid is skipped); a child that vanishes between
 *   listing and reading is skipped, and the whole read is then made again
 *   (twice at most) so that a child reaped meanwhile is seen in the root's
 *   cutime rather than missed.
 * - /proc/PID/io of another user's process is unreadable without
 *   privileges (a server owned by "postgres" read by another user): the
 *   I/O figures are then -1 while the CPU and context switches still are
 *   read.  With /proc mounted hidepid, another user's root is "gone".
 */
#ifndef PGBENCH_HOSTSTAT_H
#define PGBENCH_HOSTSTAT_H

#include <sys/types.h>

#include "pgbench/base/common.h"

/* user, nice, system, idle, iowait, irq, softirq, steal */
#define HOST_CPU_NSTATES 8

typedef struct host_sample
{
	bool		ok;				/* /proc/stat was read */
	double		cpu_s[HOST_CPU_NSTATES];	/* cumulative CPU seconds of the
											 * whole host, every CPU summed
											 * ("cpu " line of /proc/stat /
											 * sysconf(_SC_CLK_TCK)); states
											 * an old kernel lacks are 0 */
	int			ncpus;			/* online CPUs (cpuN lines) */
	int64_t		mem_total_kb;	/* /proc/meminfo MemTotal; -1 unknown */
	int64_t		mem_available_kb;	/* MemAvailable; -1 unknown */
	int64_t		net_rx_bytes;	/* /proc/net/dev, every interface but lo,
								 * cumulative; -1 unknown */
	int64_t		net_tx_bytes;
	int64_t		disk_read_bytes;	/* /proc/diskstats sectors read x 512,
									 * the disks chosen above; -1 unknown */
	int64_t		disk_write_bytes;	/* sectors written x 512 */
} host_sample;

/*
 * The host now.  false (and hs->ok false) when /proc/stat cannot be read
 * or has no "cpu " line; the other fields are still filled.  Fields that
 * cannot be read are -1.
 */
bool		host_sample_read(host_sample *hs);

typedef struct proc_tree_sample
{
	int			nprocs;			/* processes counted: root and its live
								 * children */
	double		user_s;			/* root's utime + cutime + every live
								 * child's utime + cutime, s */
	double		system_s;		/* same with stime / cstime */
	int64_t		read_bytes;		/* /proc/PID/io read_bytes summed over the
								 * processes; -1 when any one is
								 * unreadable (permissions) */
	int64_t		write_bytes;	/* write_bytes likewise */
	int64_t		ctxsw_voluntary;	/* /proc/PID/status
									 * voluntary_ctxt_switches summed (live
									 * processes only); -1 unknown */
	int64_t		ctxsw_involuntary;	/* nonvoluntary_ctxt_switches */
} proc_tree_sample;

/*
 * root and its direct children now.  false when root is gone or its
 * /proc/ROOT/stat is unreadable (*ts is then zeroed, nprocs 0).  A child
 * that vanishes between listing and reading is skipped.
 */
bool		proc_tree_read(pid_t root, proc_tree_sample *ts);

/* The parent of pid (PPid from /proc/PID/stat); -1 when unknown. */
pid_t		proc_parent_of(pid_t pid);

/*
 * Whether /proc/PID/comm is exactly comm (e.g. "postgres"; the kernel
 * keeps 15 bytes of a longer name); false when unreadable.
 */
bool		proc_comm_is(pid_t pid, const char *comm);

/* The fields of /proc/PID/stat that this unit uses. */
typedef struct proc_stat_fields
{
	pid_t		pid;
	char		comm[64];		/* between the first '(' and the last ')',
								 * cut to 63 bytes */
	char		state;			/* R, S, D, Z, ... */
	pid_t		ppid;
	int64_t		utime;			/* clock ticks (sysconf(_SC_CLK_TCK)) */
	int64_t		stime;
	int64_t		cutime;			/* reaped children's, ticks */
	int64_t		cstime;
	int64_t		num_threads;
} proc_stat_fields;

/*
 * Parse one /proc/PID/stat line ("PID (COMM) S PPID ... NUM_THREADS ...";
 * COMM may hold spaces and parentheses, so the fields are read after the
 * LAST ')').  false, with *out unspecified, when the line is malformed: a
 * missing field, a number out of range or not followed by a space, a
 * negative time.  Exposed for the unit test; pure, thread-safe.
 */
bool		proc_stat_parse(const char *line, proc_stat_fields *out);

#endif
