/*
 * script_scan_int.h — the interface between the script scanner
 * (script_scan.l) and the script compiler (src/script/script.c).  Private to them.
 *
 * The scanner walks one script text and hands out, on request, either the
 * next SQL command (split where pgbench splits: a semicolon outside quotes,
 * comments, parentheses and CREATE FUNCTION ... BEGIN ATOMIC bodies) or the
 * words of a backslash meta-command.  Offsets are byte offsets in the text.
 */
#ifndef PGBENCH_SCRIPTSCAN_INT_H
#define PGBENCH_SCRIPTSCAN_INT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sscan sscan;

/* Why an SQL scan stopped. */
typedef enum sscan_sql_end
{
	SSCAN_SQL_SEMICOLON,		/* a command-ending semicolon (kept in text) */
	SSCAN_SQL_BACKSLASH,		/* a backslash: a meta-command follows */
	SSCAN_SQL_EOF,
} sscan_sql_end;

/* The SQL collected by one sscan_sql call. */
typedef struct sscan_sql_text
{
	const char *text;			/* NUL-terminated; valid until the next call */
	size_t		len;
	size_t		start_offset;	/* where its first byte was in the script */
	int			nstatements;	/* 1 + number of "\;" separators */
} sscan_sql_text;

/*
 * The longest script the scanner takes: flex counts a token's length in
 * an int, and one token may be as long as the text.
 */
#define SSCAN_MAX_TEXT ((size_t) 1 << 30)

/* What sscan_create says. */
typedef enum sscan_status
{
	SSCAN_OK,
	SSCAN_TOO_LONG,				/* text is over SSCAN_MAX_TEXT bytes */
	SSCAN_NO_SCANNER,			/* flex could not make a scanner */
} sscan_status;

/*
 * A scanner over text (NUL-terminated, kept by the caller until
 * sscan_destroy) into *out; *out is NULL unless SSCAN_OK.  Bad input is
 * never an error here: the compiler judges what the scanner hands out.
 * Out of memory stops the process (xalloc.h): scripts are compiled at
 * start-up only.
 */
sscan_status sscan_create(const char *text, sscan **out);
void		sscan_destroy(sscan *scan);

/*
 * Collect SQL up to the next command end.  Leading whitespace and "--"
 * comments are dropped as psql's lexer drops them; "\;" and "\:" put a
 * plain ';' or ':' into the text.
 */
sscan_sql_end sscan_sql(sscan *scan, sscan_sql_text *out);

/*
 * Next word of the meta-command being read (after SSCAN_SQL_BACKSLASH).
 * Returns false at the end of the command line (the newline is consumed)
 * or of the text.  The word is valid until the next call.
 */
bool		sscan_word(sscan *scan, const char **word, size_t *len, size_t *offset);

/*
 * Skip the rest of the meta-command (an expression) up to and including
 * its ending newline, honouring backslash-newline continuations.
 */
void		sscan_skip_line(sscan *scan);

/* Offset of the next byte the scanner will read. */
size_t		sscan_offset(const sscan *scan);

/* 1-based line number of a byte offset (offsets only move forward). */
int			sscan_lineno(sscan *scan, size_t offset);

#endif
