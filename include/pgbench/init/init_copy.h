/*
 * init_copy.h — bulk loading of the pgbench tables through COPY FROM STDIN
 * for the client-side generation step ('g'), used by init.c; the row
 * formatter is exposed for the unit test.
 *
 * Rows are formatted without printf straight into one large buffer that is
 * handed to libpq in a single CopyData message per batch, so the client
 * spends a few instructions per row and the server gets few, large
 * messages.
 */
#ifndef PGBENCH_INIT_COPY_H
#define PGBENCH_INIT_COPY_H

#include <signal.h>
#include <stddef.h>

#include <libpq-fe.h>

#include "pgbench/base/common.h"

/* Rows per scale unit, as pgbench defines them. */
#define ICOPY_BRANCHES_PER_SCALE 1
#define ICOPY_TELLERS_PER_SCALE 10
#define ICOPY_ACCOUNTS_PER_SCALE 100000

typedef enum icopy_table
{
	ICOPY_BRANCHES,
	ICOPY_TELLERS,
	ICOPY_ACCOUNTS,
} icopy_table;

/* The table's name ("pgbench_accounts" ...), a static string. */
const char *icopy_table_name(icopy_table table);

/* Rows the table gets per scale unit (1, 10 or 100000). */
int64_t		icopy_rows_per_scale(icopy_table table);

/*
 * Called after each batch with the number of rows formatted so far.  Batches
 * end on every multiple of `progress_every` rows (counted from first_row), and are always a multiple
 * of 100 rows, so the caller sees the same row counts pgbench reports.
 */
typedef void (*icopy_progress_fn) (void *arg, int64_t rows_done);

typedef struct icopy_request
{
	PGconn	   *conn;
	icopy_table table;
	int			scale;
	int64_t		first_row;		/* 0: the whole table; else rows first_row.. */
	int64_t		nrows;			/* with first_row: how many */
	bool		freeze;			/* add "with (freeze on)" */
	int64_t		progress_every; /* 0: batches end wherever they fill up */
	icopy_progress_fn progress; /* may be NULL */
	void	   *progress_arg;
	volatile sig_atomic_t *cancel;	/* set by SIGINT: stop sending */
} icopy_request;

/*
 * Load the whole table: icopy_start, icopy_send_rows, icopy_finish.  The
 * three are separate for a caller that must print between sending the last
 * row and ending the COPY.  On failure each returns false with pgbench's
 * message for it in errbuf ("unexpected copy in result: ...", "PQputline
 * failed", "PQendcopy failed").
 */
bool		icopy_load(const icopy_request *req, char *errbuf, size_t errlen);
bool		icopy_start(const icopy_request *req, char *errbuf, size_t errlen);
bool		icopy_send_rows(const icopy_request *req, char *errbuf, size_t errlen);
bool		icopy_finish(const icopy_request *req, char *errbuf, size_t errlen);

/*
 * Format `nrows` pgbench_accounts rows, aids first_aid.. in text COPY form,
 * into dst (exposed for tests).  dst needs ICOPY_TEXT_ROW_MAX bytes per row
 * plus ICOPY_SLACK.  Returns the bytes written.
 */
#define ICOPY_TEXT_ROW_MAX 40
#define ICOPY_SLACK 64
size_t		icopy_format_accounts_text(char *dst, int64_t first_aid, int64_t nrows);

#endif
