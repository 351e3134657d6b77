/*
 * init_copy.c — COPY FROM STDIN loading of pgbench_branches, _tellers and
 * _accounts for the client-side generation step.
 *
 * pgbench_accounts is the only big table (100,000 rows per scale unit), so
 * its rows get a hand-made formatter: the aid is kept as a decimal string
 * that is incremented in place, the rest of the line is constant for each
 * branch, and every row is assembled with fixed-size copies into slack
 * space.  Batches of a few thousand rows go to the server as one CopyData
 * message each; while libpq blocks sending one batch, the server drains
 * the previous one from the socket, so it never waits for the client.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/init/init_copy.h"

/* Bytes of rows per CopyData message. */
#define ICOPY_BUFFER_SIZE (256 * 1024)

/* A decimal number as text, right-aligned so that it can grow leftwards. */
#define DEC_END 24
typedef struct dec_counter
{
	char		digits[DEC_END + 24];	/* the tail is read-ahead slack */
	int			start;			/* index of the first significant digit */
} dec_counter;

static void
dec_set(dec_counter *counter, int64_t value)
{
	int			pos = DEC_END;

	memset(counter->digits, '0', sizeof(counter->digits));
	do
	{
		counter->digits[--pos] = (char) ('0' + value % 10);
		value /= 10;
	} while (value > 0);
	counter->start = pos;
}

static inline void
dec_increment(dec_counter *counter)
{
	int			pos = DEC_END - 1;

	while (counter->digits[pos] == '9')
		counter->digits[pos--] = '0';
	/* the padding left of the number is '0', so a carry out lands here */
	if (pos < counter->start)
		counter->start = pos;
	counter->digits[pos]++;
}

/* Writes a decimal int64 (non-negative) and returns its length. */
static size_t
format_uint(char *dst, int64_t value)
{
	dec_counter tmp;
	size_t		len;

	dec_set(&tmp, value);
	len = (size_t) (DEC_END - tmp.start);
	memcpy(dst, tmp.digits + tmp.start, len);
	return len;
}

/* The branch of an account: accounts are numbered branch by branch. */
static inline int64_t
account_branch(int64_t aid)
{
	return (aid - 1) / ICOPY_ACCOUNTS_PER_SCALE + 1;
}

size_t
icopy_format_accounts_text(char *dst, int64_t first_aid, int64_t nrows)
{
	char	   *p = dst;
	int64_t		aid = first_aid;
	int64_t		end_aid = first_aid + nrows;
	dec_counter counter;

	dec_set(&counter, aid);
	while (aid < end_aid)
	{
		int64_t		branch = account_branch(aid);
		int64_t		segment_end = branch * ICOPY_ACCOUNTS_PER_SCALE + 1;
		char		tail[32];
		size_t		tail_len;

		/* the rest of the line after the aid: "\t<bid>\t0\t\n", filler empty */
		tail[0] = '\t';
		tail_len = 1 + format_uint(tail + 1, branch);
		memcpy(tail + tail_len, "\t0\t\n", 4);
		tail_len += 4;

		if (segment_end > end_aid)
			segment_end = end_aid;
		for (; aid < segment_end; aid++)
		{
			/* fixed-size copies: cheaper than exact ones, the slack absorbs them */
			memcpy(p, counter.digits + counter.start, 24);
			p += DEC_END - counter.start;
			memcpy(p, tail, sizeof(tail));
			p += tail_len;
			dec_increment(&counter);
		}
	}
	return (size_t) (p - dst);
}

/* Branches and tellers are tiny; their filler is NULL. */
static size_t
format_small_rows(char *dst, icopy_table table, int64_t first_id, int64_t nrows)
{
	char	   *p = dst;

	for (int64_t id = first_id; id < first_id + nrows; id++)
	{
		p += format_uint(p, id);
		*p++ = '\t';
		if (table == ICOPY_TELLERS)
		{
			p += format_uint(p, (id - 1) / ICOPY_TELLERS_PER_SCALE + 1);
			*p++ = '\t';
		}
		memcpy(p, "0\t\\N\n", 5);
		p += 5;
	}
	return (size_t) (p - dst);
}

const char *
icopy_table_name(icopy_table table)
{
	switch (table)
	{
		case ICOPY_BRANCHES:
			return "pgbench_branches";
		case ICOPY_TELLERS:
			return "pgbench_tellers";
		case ICOPY_ACCOUNTS:
			break;
	}
	return "pgbench_accounts";
}

int64_t
icopy_rows_per_scale(icopy_table table)
{
	switch (table)
	{
		case ICOPY_BRANCHES:
			return ICOPY_BRANCHES_PER_SCALE;
		case ICOPY_TELLERS:
			return ICOPY_TELLERS_PER_SCALE;
		case ICOPY_ACCOUNTS:
			break;
	}
	return ICOPY_ACCOUNTS_PER_SCALE;
}

static size_t
format_rows(const icopy_request *req, char *dst, int64_t first, int64_t nrows)
{
	if (req->table != ICOPY_ACCOUNTS)
		return format_small_rows(dst, req->table, first, nrows);
	return icopy_format_accounts_text(dst, first, nrows);
}

/* How many rows go in the next batch. */
static int64_t
batch_rows(const icopy_request *req, size_t room, int64_t done, int64_t total)
{
	int64_t		n = (int64_t) (room / ICOPY_TEXT_ROW_MAX);

	if (n > total - done)
		n = total - done;
	if (req->progress_every > 0)
	{
		int64_t		to_boundary = req->progress_every - done % req->progress_every;

		if (n > to_boundary)
			n = to_boundary;
	}
	/* whole hundreds, like pgbench's per-100-rows progress checks */
	if (n > 100)
		n -= n % 100;
	return n;
}

static void
error_with_conn(char *errbuf, size_t errlen, const char *what, PGconn *conn)
{
	const char *msg = PQerrorMessage(conn);
	size_t		len = strlen(msg);

	while (len > 0 && msg[len - 1] == '\n')
		len--;
	snprintf(errbuf, errlen, "%s%.*s", what, (int) len, msg);
}

bool
icopy_start(const icopy_request *req, char *errbuf, size_t errlen)
{
	char		sql[128];
	PGresult   *res;
	bool		ok;

	snprintf(sql, sizeof(sql), "copy %s from stdin%s", icopy_table_name(req->table),
			 req->freeze ? " with (freeze on)" : "");
	res = PQexec(req->conn, sql);
	ok = PQresultStatus(res) == PGRES_COPY_IN;
	PQclear(res);
	if (!ok)
		error_with_conn(errbuf, errlen, "unexpected copy in result: ", req->conn);
	return ok;
}

bool
icopy_send_rows(const icopy_request *req, char *errbuf, size_t errlen)
{
	int64_t		total = icopy_rows_per_scale(req->table) * req->scale;
	int64_t		first = 1;
	int64_t		done = 0;
	char	   *buf = malloc(ICOPY_BUFFER_SIZE + ICOPY_SLACK);

	if (buf == NULL)
	{
		snprintf(errbuf, errlen, "out of memory");
		return false;
	}
	if (req->first_row > 0)
	{
		first = req->first_row;
		total = req->nrows;
	}

	while (done < total)
	{
		int64_t		n;
		size_t		len;

		if (req->cancel && *req->cancel)
			break;
		n = batch_rows(req, ICOPY_BUFFER_SIZE, done, total);
		len = format_rows(req, buf, first + done, n);
		done += n;
		if (PQputCopyData(req->conn, buf, (int) len) != 1)
		{
			snprintf(errbuf, errlen, "PQputline failed");
			free(buf);
			return false;
		}
		if (req->progress)
			req->progress(req->progress_arg, done);
	}
	free(buf);
	return true;
}

bool
icopy_finish(const icopy_request *req, char *errbuf, size_t errlen)
{
	/* the end-of-data line, as pgbench sends it */
	if (PQputCopyData(req->conn, "\\.\n", 3) != 1)
	{
		snprintf(errbuf, errlen, "very last PQputline failed");
		return false;
	}
	/* PQendcopy reports a server error as a NOTICE, as pgbench shows it */
	if (PQendcopy(req->conn) != 0)
	{
		snprintf(errbuf, errlen, "PQendcopy failed");
		return false;
	}
	return true;
}

bool
icopy_load(const icopy_request *req, char *errbuf, size_t errlen)
{
	return icopy_start(req, errbuf, errlen) &&
		icopy_send_rows(req, errbuf, errlen) &&
		icopy_finish(req, errbuf, errlen);
}
