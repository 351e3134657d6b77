/*
 * hoststat.c — the host's and a process tree's figures from /proc
 * (hoststat.h): /proc/stat, meminfo, net/dev and diskstats for the host;
 * /proc/PID/stat, io and status for a root process and its children.
 *
 * Every file goes through a fixed buffer on the stack (a line reader
 * without FILE or heap); every number through parse_i64 (strtoll, errno,
 * and a delimiter after it).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/host/hoststat.h"

/* Longest line the line reader gives; longer ones are skipped. */
#define LR_SIZE 4096

/* Large enough for any /proc/PID/stat line (64-byte comm, 52 fields). */
#define STAT_LINE_SIZE 2048

/* Children's pids read at once (about 4,000), before any is opened. */
#define CHILDREN_BUF_SIZE 32768

/* Passes of proc_tree_read when a listed child is gone when read. */
#define TREE_ATTEMPTS 3

/* A file a line at a time through one fixed buffer. */
typedef struct line_reader
{
	int			fd;
	size_t		start;			/* first unread byte of buf */
	size_t		end;			/* end of the bytes read into buf */
	bool		eof;			/* read gave 0 or failed: no more */
	bool		skipping;		/* inside an overlong line: drop it */
	int			err;			/* errno of a failed open or read; 0 */
	char		buf[LR_SIZE + 1];
} line_reader;

static bool
lr_open(line_reader *lr, const char *path)
{
	lr->fd = open(path, O_RDONLY | O_CLOEXEC);
	lr->start = lr->end = 0;
	lr->eof = lr->skipping = false;
	lr->err = lr->fd < 0 ? errno : 0;
	return lr->fd >= 0;
}

static void
lr_close(line_reader *lr)
{
	if (lr->fd >= 0)
		close(lr->fd);
	lr->fd = -1;
}

/*
 * Move the unread bytes to the start of buf and read after them; false at
 * the end of the file or on an error (lr->err).
 */
static bool
lr_fill(line_reader *lr)
{
	ssize_t		n;

	if (lr->eof)
		return false;
	memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
	lr->end -= lr->start;
	lr->start = 0;
	do
		n = read(lr->fd, lr->buf + lr->end, LR_SIZE - lr->end);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
	{
		lr->eof = true;
		lr->err = n < 0 ? errno : 0;
		return false;
	}
	lr->end += (size_t) n;
	return true;
}

/*
 * The next line, NUL-ended and without its newline, inside lr->buf (valid
 * until the next call); NULL at the end of the file or on a read error
 * (lr->err).  A line longer than LR_SIZE is skipped whole.
 */
static char *
lr_next(line_reader *lr)
{
	for (;;)
	{
		char	   *s = lr->buf + lr->start;
		char	   *nl = memchr(s, '\n', lr->end - lr->start);

		if (nl != NULL)
		{
			lr->start = (size_t) (nl + 1 - lr->buf);
			if (lr->skipping)
			{
				lr->skipping = false;
				continue;
			}
			*nl = '\0';
			return s;
		}
		if (lr->skipping || lr->end - lr->start == LR_SIZE)
		{
			lr->skipping = true;
			lr->start = lr->end = 0;
		}
		if (!lr_fill(lr))
		{
			/* the last line, without a newline */
			if (lr->skipping || lr->err != 0 || lr->start == lr->end)
				return NULL;
			lr->buf[lr->end] = '\0';
			s = lr->buf + lr->start;
			lr->start = lr->end;
			return s;
		}
	}
}

/*
 * The start of a small file (size - 1 bytes at most), NUL-ended in buf:
 * its length, or -1 with errno set.
 */
static ssize_t
read_small(const char *path, char *buf, size_t size)
{
	int			fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t		len = 0;

	if (fd < 0)
		return -1;
	while (len < size - 1)
	{
		ssize_t		n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
		{
			int			saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t) n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t) len;
}

/*
 * The decimal integer at *pp after blanks, which must be followed by a
 * blank, a newline or the end; *pp moves past it.  false (*pp, *out
 * untouched) when there is none or it is out of range.
 */
static bool
parse_i64(const char **pp, int64_t *out)
{
	const char *p = *pp;
	char	   *end;
	long long	v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char) *p) && !(*p == '-' && isdigit((unsigned char) p[1])))
		return false;
	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno != 0 || end == p)
		return false;
	if (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\n')
		return false;
	*out = (int64_t) v;
	*pp = end;
	return true;
}

/* parse_i64 of a count: false for a negative one too. */
static bool
parse_count(const char **pp, int64_t *out)
{
	const char *p = *pp;
	int64_t		v;

	if (!parse_i64(&p, &v) || v < 0)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* *sum += v; a sum already unknown (-1), v unknown or an overflow: -1. */
static void
add_known(int64_t *sum, int64_t v)
{
	if (*sum < 0 || v < 0 || __builtin_add_overflow(*sum, v, sum))
		*sum = -1;
}

/*
 * The values of the lines "KEY N" of a file (KEY with its colon:
 * "MemTotal:"), into vals (-1 for a key missing or malformed): 0, or the
 * errno that stopped the open or the read.
 */
static int
read_keys(const char *path, const char *const *keys, int64_t *vals, int nkeys)
{
	line_reader lr;
	char	   *line;
	int			err;

	for (int i = 0; i < nkeys; i++)
		vals[i] = -1;
	if (!lr_open(&lr, path))
		return lr.err;
	while ((line = lr_next(&lr)) != NULL)
		for (int i = 0; i < nkeys; i++)
		{
			size_t		klen = strlen(keys[i]);
			const char *p = line + klen;

			if (strncmp(line, keys[i], klen) == 0 && !parse_count(&p, &vals[i]))
				vals[i] = -1;
		}
	err = lr.err;
	lr_close(&lr);
	return err;
}

/* ---- the host ---- */

/* The figures after "cpu" of /proc/stat's "cpu " line; false if malformed. */
static bool
parse_cpu_line(const char *p, host_sample *hs, long tck)
{
	int64_t		v;
	int			n = 0;

	while (n < HOST_CPU_NSTATES && parse_count(&p, &v))
		hs->cpu_s[n++] = (double) v / (double) tck;
	while (n < HOST_CPU_NSTATES && n >= 4)
		hs->cpu_s[n++] = 0;
	return n == HOST_CPU_NSTATES;
}

static void
read_cpu(host_sample *hs)
{
	line_reader lr;
	char	   *line;
	long		tck = sysconf(_SC_CLK_TCK);
	bool		total = false;

	if (tck <= 0 || !lr_open(&lr, "/proc/stat"))
		return;
	while ((line = lr_next(&lr)) != NULL)
	{
		if (strncmp(line, "cpu", 3) != 0)
			continue;
		if (isdigit((unsigned char) line[3]))
			hs->ncpus++;
		else if (line[3] == ' ' && !total)
			total = parse_cpu_line(line + 3, hs, tck);
	}
	hs->ok = total && lr.err == 0;
	lr_close(&lr);
}

static void
read_mem(host_sample *hs)
{
	static const char *const keys[] = {"MemTotal:", "MemAvailable:"};
	int64_t		vals[2];

	if (read_keys("/proc/meminfo", keys, vals, 2) != 0)
		return;
	hs->mem_total_kb = vals[0];
	hs->mem_available_kb = vals[1];
}

/*
 * One line of /proc/net/dev ("NAME: RX_BYTES 7 more TX_BYTES ..."),
 * added to rx, tx unless NAME is lo; lines without a colon (the two
 * headings) are passed over.  false when malformed.
 */
static bool
add_net_line(const char *line, int64_t *rx, int64_t *tx)
{
	const char *colon = strchr(line, ':');
	const char *p = line;
	int64_t		v[9];

	if (colon == NULL)
		return true;
	while (*p == ' ')
		p++;
	if (colon - p == 2 && strncmp(p, "lo", 2) == 0)
		return true;
	p = colon + 1;
	for (int i = 0; i < 9; i++)
		if (!parse_count(&p, &v[i]))
			return false;
	add_known(rx, v[0]);
	add_known(tx, v[8]);
	return true;
}

static void
read_net(host_sample *hs)
{
	line_reader lr;
	char	   *line;
	int64_t		rx = 0,
				tx = 0;
	bool		good = true;

	if (!lr_open(&lr, "/proc/net/dev"))
		return;
	while ((line = lr_next(&lr)) != NULL)
		good = add_net_line(line, &rx, &tx) && good;
	if (good && lr.err == 0)
	{
		hs->net_rx_bytes = rx;
		hs->net_tx_bytes = tx;
	}
	lr_close(&lr);
}

/* Disks by name prefix whose I/O is not a physical device's. */
static const char *const disk_skipped[] = {"loop", "ram", "zram"};

/*
 * Whether a /proc/diskstats device counts (hoststat.h): a whole disk
 * (/sys/block/NAME), not skipped by name, not stacked on other devices.
 */
static bool
disk_is_counted(const char *name)
{
	char		path[128];
	size_t		dir_len = strlen("/sys/block/");
	DIR		   *d;
	struct dirent *e;
	bool		stacked = false;

	if (name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < PGB_LENGTHOF(disk_skipped); i++)
		if (strncmp(name, disk_skipped[i], strlen(disk_skipped[i])) == 0)
			return false;
	if (snprintf(path, sizeof(path), "/sys/block/%s", name) >= (int) sizeof(path) - 8)
		return false;
	for (char *c = path + dir_len; *c != '\0'; c++)
		if (*c == '/')
			*c = '!';
	if (access(path, F_OK) != 0)
		return false;
	/* room for it was kept above */
	memcpy(path + strlen(path), "/slaves", sizeof("/slaves"));
	d = opendir(path);
	if (d == NULL)
		return true;
	while (!stacked && (e = readdir(d)) != NULL)
		stacked = e->d_name[0] != '.';
	closedir(d);
	return !stacked;
}

/*
 * One line of /proc/diskstats ("MAJOR MINOR NAME READS MERGED SECTORS MS
 * WRITES MERGED SECTORS ..."), its sectors x 512 added to rd, wr when the
 * device counts.  false when malformed.
 */
static bool
add_disk_line(const char *line, int64_t *rd, int64_t *wr)
{
	const char *p = line;
	char		name[64];
	size_t		len;
	int64_t		v[7];

	if (!parse_count(&p, &v[0]) || !parse_count(&p, &v[1]))
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	len = strcspn(p, " \t");
	if (len == 0 || len >= sizeof(name))
		return false;
	memcpy(name, p, len);
	name[len] = '\0';
	p += len;
	for (int i = 0; i < 7; i++)
		if (!parse_count(&p, &v[i]))
			return false;
	if (!disk_is_counted(name))
		return true;
	add_known(rd, v[2] <= INT64_MAX / 512 ? v[2] * 512 : -1);
	add_known(wr, v[6] <= INT64_MAX / 512 ? v[6] * 512 : -1);
	return true;
}

static void
read_disk(host_sample *hs)
{
	line_reader lr;
	char	   *line;
	int64_t		rd = 0,
				wr = 0;
	bool		good = true;

	/* without /sys, no device could be told a whole disk: unknown */
	if (access("/sys/block", F_OK) != 0 || !lr_open(&lr, "/proc/diskstats"))
		return;
	while ((line = lr_next(&lr)) != NULL)
		good = add_disk_line(line, &rd, &wr) && good;
	if (good && lr.err == 0)
	{
		hs->disk_read_bytes = rd;
		hs->disk_write_bytes = wr;
	}
	lr_close(&lr);
}

bool
host_sample_read(host_sample *hs)
{
	memset(hs, 0, sizeof(*hs));
	hs->mem_total_kb = hs->mem_available_kb = -1;
	hs->net_rx_bytes = hs->net_tx_bytes = -1;
	hs->disk_read_bytes = hs->disk_write_bytes = -1;
	read_cpu(hs);
	read_mem(hs);
	read_net(hs);
	read_disk(hs);
	return hs->ok;
}

/* ---- processes ---- */

bool
proc_stat_parse(const char *line, proc_stat_fields *out)
{
	const char *p = line;
	const char *close;
	int64_t		v[18];
	size_t		len;

	if (!parse_count(&p, &v[0]) || v[0] < 1 || v[0] > INT_MAX)
		return false;
	out->pid = (pid_t) v[0];
	while (*p == ' ')
		p++;
	close = strrchr(p, ')');
	if (*p != '(' || close == NULL)
		return false;
	len = (size_t) (close - p - 1);
	if (len >= sizeof(out->comm))
		len = sizeof(out->comm) - 1;
	memcpy(out->comm, p + 1, len);
	out->comm[len] = '\0';
	/* " S PPID PGRP SESSION TTY TPGID FLAGS 4 FAULTS UTIME STIME CUTIME
	 * CSTIME PRIORITY NICE NUM_THREADS" */
	p = close + 1;
	if (p[0] != ' ' || p[1] == '\0' || p[1] == ' ' || p[2] != ' ')
		return false;
	out->state = p[1];
	p += 2;
	for (int i = 1; i <= 17; i++)
		if (!parse_i64(&p, &v[i]))
			return false;
	if (v[1] < 0 || v[1] > INT_MAX || v[11] < 0 || v[12] < 0 || v[13] < 0 || v[14] < 0 || v[17] < 0)
		return false;
	out->ppid = (pid_t) v[1];
	out->utime = v[11];
	out->stime = v[12];
	out->cutime = v[13];
	out->cstime = v[14];
	out->num_threads = v[17];
	return true;
}

/* /proc/PID/stat parsed; false when pid is gone, unreadable or odd. */
static bool
read_stat(pid_t pid, proc_stat_fields *st)
{
	char		path[64];
	char		buf[STAT_LINE_SIZE];

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	return read_small(path, buf, sizeof(buf)) > 0 && proc_stat_parse(buf, st) && st->pid == pid;
}

pid_t
proc_parent_of(pid_t pid)
{
	proc_stat_fields st;

	return read_stat(pid, &st) ? st.ppid : -1;
}

bool
proc_comm_is(pid_t pid, const char *comm)
{
	char		path[64];
	char		buf[128];
	ssize_t		n;

	if (pid <= 0 || comm == NULL)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int) pid);
	n = read_small(path, buf, sizeof(buf));
	if (n <= 0 || n == (ssize_t) sizeof(buf) - 1)
		return false;
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return strcmp(buf, comm) == 0;
}

/* One process's figures, as proc_tree_read sums them. */
typedef struct proc_figures
{
	proc_stat_fields st;
	int64_t		read_bytes;		/* -1: /proc/PID/io unreadable or not read */
	int64_t		write_bytes;
	int64_t		vcsw;			/* -1: missing from /proc/PID/status */
	int64_t		ivcsw;
} proc_figures;

/*
 * pid's figures into *f: its stat (or *known, already read), io when
 * want_io, and status.  false when it is gone (stat or status unreadable),
 * or its parent is not parent (when parent > 0: a recycled pid).  An io
 * unreadable while status is read is a permission (or a kernel without
 * I/O accounting): read_bytes, write_bytes -1.
 */
static bool
read_figures(pid_t pid, pid_t parent, bool want_io, const proc_stat_fields *known,
			 proc_figures *f)
{
	static const char *const io_keys[] = {"read_bytes:", "write_bytes:"};
	static const char *const sw_keys[] = {"voluntary_ctxt_switches:",
	"nonvoluntary_ctxt_switches:"};
	char		path[64];
	int64_t		v[2];

	if (known != NULL)
		f->st = *known;
	else if (!read_stat(pid, &f->st))
		return false;
	if (parent > 0 && f->st.ppid != parent)
		return false;
	f->read_bytes = f->write_bytes = -1;
	if (want_io)
	{
		snprintf(path, sizeof(path), "/proc/%d/io", (int) pid);
		if (read_keys(path, io_keys, v, 2) == 0)
		{
			f->read_bytes = v[0];
			f->write_bytes = v[1];
		}
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
	if (read_keys(path, sw_keys, v, 2) != 0)
		return false;
	f->vcsw = v[0];
	f->ivcsw = v[1];
	return true;
}

/* The sums of one pass of proc_tree_read. */
typedef struct tree_acc
{
	pid_t		root;
	int			nprocs;
	int64_t		utime;			/* ticks, utime + cutime */
	int64_t		stime;			/* ticks, stime + cstime */
	int64_t		rd;				/* bytes; -1 once one is unreadable */
	int64_t		wr;
	int64_t		vcsw;			/* -1 once one is missing */
	int64_t		ivcsw;
	int			gone;			/* children listed but gone when read */
} tree_acc;

static void
acc_add(tree_acc *acc, const proc_figures *f)
{
	acc->nprocs++;
	add_known(&acc->utime, f->st.utime);
	add_known(&acc->utime, f->st.cutime);
	add_known(&acc->stime, f->st.stime);
	add_known(&acc->stime, f->st.cstime);
	add_known(&acc->rd, f->read_bytes);
	add_known(&acc->wr, f->write_bytes);
	add_known(&acc->vcsw, f->vcsw);
	add_known(&acc->ivcsw, f->ivcsw);
}

/* A child of the root, listed: added, or counted gone. */
static void
acc_child(tree_acc *acc, pid_t pid, const proc_stat_fields *known)
{
	proc_figures f;

	if (pid == acc->root)
		return;
	if (read_figures(pid, acc->root, acc->rd >= 0 && acc->wr >= 0, known, &f))
		acc_add(acc, &f);
	else
		acc->gone++;
}

/*
 * The pids of /proc/ROOT/task/ROOT/children, read CHILDREN_BUF_SIZE bytes
 * at a time (so that the list is taken quickly, before any child is
 * opened), each through acc_child.  false when the file cannot be opened.
 */
static bool
children_from_file(tree_acc *acc)
{
	char		path[64];
	char		buf[CHILDREN_BUF_SIZE];
	int64_t		v = -1;			/* the number being read; -1 between */
	bool		more = true;
	int			fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int) acc->root, (int) acc->root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (more)
	{
		size_t		len = 0;

		while (len < sizeof(buf))
		{
			ssize_t		n = read(fd, buf + len, sizeof(buf) - len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
			{
				more = false;
				break;
			}
			len += (size_t) n;
		}
		for (size_t i = 0; i <= len; i++)
		{
			if (i < len && isdigit((unsigned char) buf[i]))
			{
				/* past INT_MAX it stops growing: no pid, skipped */
				if (v < 0)
					v = 0;
				if (v <= INT_MAX)
					v = v * 10 + (buf[i] - '0');
			}
			else if (v >= 0 && (i < len || !more))
			{
				if (v > 0 && v <= INT_MAX)
					acc_child(acc, (pid_t) v, NULL);
				v = -1;
			}
		}
	}
	close(fd);
	return true;
}

/* Every process of /proc whose parent is the root, through acc_child. */
static void
children_from_scan(tree_acc *acc)
{
	DIR		   *d = opendir("/proc");
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
	{
		const char *p = e->d_name;
		int64_t		pid;
		proc_stat_fields st;

		if (!isdigit((unsigned char) *p) || !parse_count(&p, &pid) || *p != '\0' ||
			pid > INT_MAX || pid == acc->root)
			continue;
		if (read_stat((pid_t) pid, &st) && st.ppid == acc->root)
			acc_child(acc, (pid_t) pid, &st);
	}
	closedir(d);
}

/* One pass of proc_tree_read; false when the root is gone. */
static bool
tree_pass(pid_t root, tree_acc *acc)
{
	proc_figures f;

	memset(acc, 0, sizeof(*acc));
	acc->root = root;
	if (!read_figures(root, 0, true, NULL, &f))
		return false;
	acc_add(acc, &f);
	if (f.st.num_threads != 1 || !children_from_file(acc))
		children_from_scan(acc);
	return true;
}

bool
proc_tree_read(pid_t root, proc_tree_sample *ts)
{
	tree_acc	acc;
	long		tck = sysconf(_SC_CLK_TCK);
	int			attempt = 0;

	memset(ts, 0, sizeof(*ts));
	if (root <= 0 || tck <= 0)
		return false;
	do
	{
		if (!tree_pass(root, &acc))
			return false;
	} while (acc.gone > 0 && ++attempt < TREE_ATTEMPTS);
	ts->nprocs = acc.nprocs;
	ts->user_s = (double) acc.utime / (double) tck;
	ts->system_s = (double) acc.stime / (double) tck;
	ts->read_bytes = acc.rd;
	ts->write_bytes = acc.wr;
	ts->ctxsw_voluntary = acc.vcsw;
	ts->ctxsw_involuntary = acc.ivcsw;
	return true;
}
