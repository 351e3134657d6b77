/*
 * interrupt.c — the run's SIGINT and SIGTERM handler of interrupt.h: the
 * first signal asks for a graceful stop, the second one exits at once.
 * The handler stores, writes an eventfd, or calls _exit: nothing else.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "pgbench/base/interrupt.h"

/* What the handler reads and writes; all lock-free on our platforms. */
static atomic_int caught_signal;	/* first signal; 0: none */
static atomic_bool *_Atomic stop_flag;
static atomic_int wake_fd = -1;

/* What interrupt_arm replaced, restored by interrupt_disarm. */
static struct sigaction saved_int;
static struct sigaction saved_term;
static bool armed_int;
static bool armed_term;

static void
handle_signal(int signo)
{
	int			saved_errno = errno;
	int			expected = 0;
	atomic_bool *stop;
	int			fd;
	uint64_t	one = 1;

	/* a second signal: the user does not want to wait for the report */
	if (!atomic_compare_exchange_strong(&caught_signal, &expected, signo))
		_exit(128 + signo);

	stop = atomic_load(&stop_flag);
	if (stop != NULL)
		atomic_store(stop, true);
	fd = atomic_load(&wake_fd);
	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0)
	{
		/* the flag alone still stops the threads at their next pass */
	}
	errno = saved_errno;
}

bool
interrupt_ignored(int signo)
{
	struct sigaction old;

	return sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN;
}

/*
 * Install act for signo unless it is ignored: a signal the parent ignored
 * (a background job of a non-interactive shell, nohup) stays ignored, as
 * job control expects.  Whether it was installed; *saved: what it replaced.
 */
static bool
catch_unless_ignored(int signo, const struct sigaction *act, struct sigaction *saved)
{
	if (interrupt_ignored(signo))
		return false;
	return sigaction(signo, act, saved) == 0;
}

void
interrupt_arm(atomic_bool *stop, int fd)
{
	struct sigaction act;

	atomic_store(&caught_signal, 0);
	atomic_store(&stop_flag, stop);
	atomic_store(&wake_fd, fd);
	memset(&act, 0, sizeof(act));
	act.sa_handler = handle_signal;
	sigemptyset(&act.sa_mask);
	/* SIGINT and SIGTERM do not interrupt each other's handler */
	sigaddset(&act.sa_mask, SIGINT);
	sigaddset(&act.sa_mask, SIGTERM);
	act.sa_flags = SA_RESTART;
	armed_int = catch_unless_ignored(SIGINT, &act, &saved_int);
	armed_term = catch_unless_ignored(SIGTERM, &act, &saved_term);
}

void
interrupt_disarm(void)
{
	if (armed_int)
		sigaction(SIGINT, &saved_int, NULL);
	if (armed_term)
		sigaction(SIGTERM, &saved_term, NULL);
	armed_int = armed_term = false;
	atomic_store(&stop_flag, NULL);
	atomic_store(&wake_fd, -1);
}

int
interrupt_signal(void)
{
	return atomic_load(&caught_signal);
}

const char *
interrupt_signal_name(int signo)
{
	/* only these two are ever caught */
	return signo == SIGTERM ? "SIGTERM" : "SIGINT";
}
