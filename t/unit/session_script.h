/*
 * session_script.h — a scripted implementation of the session port
 * (session.h) for the engine's unit tests: linked in place of
 * src/engine/session_libpq.c, it checks what the engine sends against a script
 * and answers what the script says, in order.
 *
 * A script is an array of lines, ended by NULL:
 *   "> Q text"              the engine sends text (simple protocol)
 *   "> X text | p1,p2"      ... text with parameters (extended; NULL for
 *                           an SQL NULL, nothing after "|" for none)
 *   "> PREPARE name text"   ... a PREPARE of text as name
 *   "> EXEC name | p1,p2"   ... an execution of prepared statement name
 *   "> SYNC"                ... a pipeline sync
 *   "< OK tag"              a command result (tag for the reader only)
 *   "< ROWS a,b | 1,2 | 3,4"  a result with columns a and b and two rows
 *                           ("< ROWS a" has none)
 *   "< ERROR 40001 text"    an error result with that SQLSTATE and message
 *   "< SYNC"                a pipeline sync result
 *   "< ABORTED"             a pipeline-aborted result
 *   "< COPY"                a COPY OUT result (the engine refuses COPY)
 *   "< END"                 the end of a request's results (NULL)
 *   "~ BUSY n"              the next n looks at the session find it busy
 *                           (the engine yields n times)
 *   "~ BREAK"               the connection breaks at the next read
 *   "~ NOSEND"              the engine's next send fails (the connection
 *                           library could not write it)
 *   "~ NOEXIT"              the engine's next try to leave pipeline mode
 *                           fails (as libpq's does with results pending)
 *   "~ TX c"                from here the transaction status is c: I
 *                           (idle), T (in a block), E (failed block)
 * In a "> " line, "#" stands for one number the engine sends, an optional
 * "-" and one or more digits (a value the script drew at random, in the
 * text or as a parameter); the numbers it matched are kept, in order, for
 * ss_numbers.  No script sends a literal "#".
 * The first mismatch (a send that is not the next line, a result asked
 * for where a send is expected) is kept as a message, and the session
 * fails every call after it, so the engine aborts.
 *
 * Readiness: the session's socket is an eventfd that is always readable,
 * so the thread loop's wait (worker_main, ppoll) returns at once and runs
 * unchanged; tests of one client drive client_advance directly and take
 * every socket wait as readiness.
 */
#ifndef SESSION_SCRIPT_H
#define SESSION_SCRIPT_H

#include "pgbench/engine/session.h"

/* A session playing script (not copied: it must outlive the session). */
pgb_session *ss_new(const char *const *script);
void		ss_free(pgb_session *s);

/* NULL while every call matched the script, else the first mismatch. */
const char *ss_mismatch(const pgb_session *s);

/* Lines not reached yet (0 when the script was played to its end). */
int			ss_remaining(const pgb_session *s);

/* The line the session waits at (for messages); "" at the end. */
const char *ss_next_line(const pgb_session *s);

/*
 * The numbers "#" matched so far, in the order sent; *n their count.  Owned
 * by the session.
 */
const long long *ss_numbers(const pgb_session *s, int *n);

/*
 * The transcript: every message the engine sent ("> " and what it sent,
 * with the values it sent; "(not sent)" for a send that failed) and every
 * one it was given ("< " and the scripted result line, "< END"), and the
 * session's events ("= close", "= pipeline mode on", "= the connection
 * broke", ...), in order; NULL-ended, *n lines.  Owned by the session.
 * What the engine looked at without a message (busy, consume, status) is
 * not in it.
 */
const char *const *ss_transcript(const pgb_session *s, int *n);

/* Whether the engine closed the session; cancels requested. */
bool		ss_closed(const pgb_session *s);
int			ss_cancels(const pgb_session *s);

/*
 * Connection attempts (pgb_connect_start...) are played from a queue: the
 * next gives s after its start and waits more CONN_STEP_WAIT answers (its
 * socket is s's), or fails at once when s is NULL.  ss_connects_left: attempts not made yet.
 * The queue holds 64 attempts at once; taken ones make room for more.
 */
void		ss_queue_connect(pgb_session *s, int waits);

/*
 * The same, the attempt first finding the server's listen queue full busy
 * times (CONN_STEP_BUSY: the client waits its backoff and tries again).
 */
void		ss_queue_connect_busy(pgb_session *s, int busy, int waits);
int			ss_connects_left(void);

#endif
