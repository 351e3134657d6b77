/*
 * xalloc.h — the one out-of-memory policy of start-up code: allocate or
 * stop the process with pgbench's message ("out of memory", exit 1), as
 * PostgreSQL's pg_malloc family does.  The flex scanners allocate through
 * it too (their yyalloc, yyrealloc and yyfree are ours).
 *
 * Only code that runs before the worker threads start (options, script
 * compilation, init, run set-up) may call these.  Code reachable from a
 * worker thread allocates with malloc and handles NULL: a failed
 * allocation there ends the client with a message, never the process.
 */
#ifndef PGBENCH_XALLOC_H
#define PGBENCH_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/* malloc(size), size 0 allowed; never returns NULL. */
void	   *pgb_malloc(size_t size);

/* calloc(n, size), zeroed, either may be 0; never returns NULL. */
void	   *pgb_calloc(size_t n, size_t size);

/* realloc(ptr, size), size 0 allowed; never returns NULL. */
void	   *pgb_realloc(void *ptr, size_t size);

/* strdup(s); never returns NULL. */
char	   *pgb_strdup(const char *s);

/* A NUL-terminated copy of the first len bytes of s; never returns NULL. */
char	   *pgb_strndup(const char *s, size_t len);

/*
 * fmt formatted with ap into a new string; never returns NULL (an encoding
 * error gives an empty string).  ap is left unused: the caller ends it.
 */
char	   *pgb_vasprintf(const char *fmt, va_list ap)
			__attribute__((format(printf, 1, 0)));

/*
 * Stop the process after an internal error of start-up code that leaves
 * nothing to go on with: "pgbench: error: internal error in WHERE: WHAT",
 * exit 1, as out of memory does.  For the generated scanners' own fatal
 * errors (YY_FATAL_ERROR), none of which the scanners' options let happen;
 * never for bad input, which is a status return with an error record.
 */
void		pgb_fatal_internal(const char *where, const char *what)
			__attribute__((noreturn));

#endif
