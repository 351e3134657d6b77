/*
 * script_commits.c — how many transactions one pass through a compiled
 * script commits on the server, worked out from its text (script.h).
 *
 * The walk follows the commands in order with three facts: whether an
 * explicit block is open (BEGIN .. COMMIT), whether a pipeline is open, and
 * whether statements outside a block wait in the pipeline's implicit
 * transaction for the next sync.  A statement's kind comes from its first
 * words after blanks and comments (keywords compared without case); a
 * compound ("a \; b") is split at its top-level semicolons by a small
 * scanner that knows quotes, dollar quotes, comments and parentheses, and
 * any transaction control in it makes the count unknown (so does the END
 * of a BEGIN ATOMIC body glued into a compound: unknown is always safe).
 * Everything is bounded by the text's length and allocates nothing.
 */
#include <string.h>

#include "pgbench/script/script.h"

/* Longest keyword compared, plus its NUL ("concurrently", "transaction"). */
#define KW_SIZE 16

/* What a statement does to the transaction state. */
typedef enum tx_kind
{
	TX_OTHER,					/* anything else: a commit unless in a block */
	TX_BEGIN,					/* BEGIN, START TRANSACTION */
	TX_COMMIT,					/* COMMIT, END */
	TX_COMMIT_CHAIN,			/* COMMIT AND CHAIN: commits, stays in a block */
	TX_ROLLBACK,				/* ROLLBACK, ABORT */
	TX_ROLLBACK_CHAIN,			/* ROLLBACK AND CHAIN: stays in a block */
	TX_SAVEPOINT,				/* SAVEPOINT, RELEASE, ROLLBACK TO: need a block */
	TX_PROCEDURE,				/* CALL, DO: may commit unless in a block */
	TX_UNKNOWN,					/* the count depends on what runs: see why */
} tx_kind;

/* Statements that commit more than once, whatever the block state. */
static const struct
{
	const char *word;			/* first word, lower case */
	const char *why;
}			multi_commit_words[] = {
	{"vacuum", "VACUUM"},
	{"analyze", "ANALYZE"},
	{"analyse", "ANALYZE"},
	{"cluster", "CLUSTER"},
	{"reindex", "REINDEX"},
};

/* The state of the walk through one pass. */
typedef struct commit_walk
{
	bool		in_block;		/* an explicit block is open */
	bool		in_pipeline;	/* between \startpipeline and \endpipeline */
	bool		pending;		/* in_pipeline: an implicit transaction waits
								 * for the next sync (never with in_block) */
	int			commits;		/* so far in the pass */
	const char *why;			/* non-NULL: unknown, and the walk stops */
} commit_walk;

static bool
ascii_alpha(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* A byte that continues an SQL identifier ('$' and non-ASCII too). */
static bool
ident_byte(unsigned char ch)
{
	return ascii_alpha(ch) || (ch >= '0' && ch <= '9') || ch == '_' ||
		ch == '$' || ch >= 0x80;
}

/* Past the nested C-style comment opening at p (the end of text if open). */
static const char *
skip_block_comment(const char *p)
{
	int			depth = 1;

	p += 2;
	while (*p != '\0')
	{
		if (p[0] == '/' && p[1] == '*')
		{
			depth++;
			p += 2;
		}
		else if (p[0] == '*' && p[1] == '/')
		{
			p += 2;
			if (--depth == 0)
				return p;
		}
		else
			p++;
	}
	return p;
}

/* Past the "--" comment at p, its newline included. */
static const char *
skip_line_comment(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl != NULL ? nl + 1 : p + strlen(p);
}

/* Past blanks and comments from p. */
static const char *
skip_blank(const char *p)
{
	for (;;)
	{
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
			*p == '\f' || *p == '\v')
			p++;
		else if (p[0] == '-' && p[1] == '-')
			p = skip_line_comment(p);
		else if (p[0] == '/' && p[1] == '*')
			p = skip_block_comment(p);
		else
			return p;
	}
}

/*
 * The next word after blanks and comments, in lower case, into kw; ""
 * when what follows is no plain word or too long to be a keyword.
 * Returns the position after it.
 */
static const char *
next_word(const char *p, char kw[KW_SIZE])
{
	size_t		n = 0;

	p = skip_blank(p);
	kw[0] = '\0';
	if (!ascii_alpha((unsigned char) *p))
		return p;
	for (; ident_byte((unsigned char) *p); p++)
	{
		if (n < KW_SIZE - 1)
			kw[n] = (char) (*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
		n++;
	}
	kw[n < KW_SIZE ? n : 0] = '\0';
	return p;
}

/*
 * After COMMIT, END, ROLLBACK or ABORT (p past it, rollback telling
 * which): PREPARED, [WORK | TRANSACTION] TO, [WORK | TRANSACTION] AND
 * [NO] CHAIN.
 */
static tx_kind
classify_end(const char *p, bool rollback, const char **why)
{
	char		kw[KW_SIZE];
	bool		commit_word = !rollback;

	p = next_word(p, kw);
	if (strcmp(kw, "prepared") == 0)
	{
		*why = commit_word ? "COMMIT PREPARED" : "ROLLBACK PREPARED";
		return TX_UNKNOWN;
	}
	if (strcmp(kw, "work") == 0 || strcmp(kw, "transaction") == 0)
		p = next_word(p, kw);
	if (rollback && strcmp(kw, "to") == 0)
		return TX_SAVEPOINT;
	if (strcmp(kw, "and") == 0)
	{
		next_word(p, kw);
		if (strcmp(kw, "chain") == 0)
			return rollback ? TX_ROLLBACK_CHAIN : TX_COMMIT_CHAIN;
	}
	return rollback ? TX_ROLLBACK : TX_COMMIT;
}

/*
 * CREATE [UNIQUE] INDEX CONCURRENTLY or DROP INDEX CONCURRENTLY (p past
 * CREATE or DROP).
 */
static bool
index_concurrently(const char *p)
{
	char		kw[KW_SIZE];

	p = next_word(p, kw);
	if (strcmp(kw, "unique") == 0)
		p = next_word(p, kw);
	if (strcmp(kw, "index") != 0)
		return false;
	next_word(p, kw);
	return strcmp(kw, "concurrently") == 0;
}

/* The kind of the statement at p; *why set for TX_UNKNOWN. */
static tx_kind
classify(const char *p, const char **why)
{
	char		kw[KW_SIZE];

	p = next_word(p, kw);
	if (strcmp(kw, "begin") == 0)
		return TX_BEGIN;
	if (strcmp(kw, "start") == 0)
	{
		next_word(p, kw);
		return strcmp(kw, "transaction") == 0 ? TX_BEGIN : TX_OTHER;
	}
	if (strcmp(kw, "commit") == 0 || strcmp(kw, "end") == 0)
		return classify_end(p, false, why);
	if (strcmp(kw, "rollback") == 0 || strcmp(kw, "abort") == 0)
		return classify_end(p, true, why);
	if (strcmp(kw, "savepoint") == 0 || strcmp(kw, "release") == 0)
		return TX_SAVEPOINT;
	if (strcmp(kw, "call") == 0 || strcmp(kw, "do") == 0)
		return TX_PROCEDURE;
	if (strcmp(kw, "prepare") == 0)
	{
		next_word(p, kw);
		*why = "PREPARE TRANSACTION";
		return strcmp(kw, "transaction") == 0 ? TX_UNKNOWN : TX_OTHER;
	}
	if ((strcmp(kw, "create") == 0 || strcmp(kw, "drop") == 0) &&
		index_concurrently(p))
	{
		*why = "CREATE or DROP INDEX CONCURRENTLY";
		return TX_UNKNOWN;
	}
	for (size_t i = 0; i < PGB_LENGTHOF(multi_commit_words); i++)
		if (strcmp(kw, multi_commit_words[i].word) == 0)
		{
			*why = multi_commit_words[i].why;
			return TX_UNKNOWN;
		}
	return TX_OTHER;
}

/* Past the quoted string whose opening quote is at p (escape: E'...'). */
static const char *
skip_string(const char *p, bool escape)
{
	for (p++; *p != '\0'; p++)
	{
		if ((escape && *p == '\\' && p[1] != '\0') ||
			(*p == '\'' && p[1] == '\''))
			p++;
		else if (*p == '\'')
			return p + 1;
	}
	return p;
}

/* Past the dollar-quoted text at p ("$tag$"..."$tag$"), or p + 1 if none. */
static const char *
skip_dollar(const char *text, const char *p)
{
	size_t		n = 1;

	if (p > text && ident_byte((unsigned char) p[-1]))
		return p + 1;
	while (p[n] != '$')
	{
		if (p[n] == '\0' || !ident_byte((unsigned char) p[n]) ||
			(n == 1 && p[n] >= '0' && p[n] <= '9'))
			return p + 1;
		n++;
	}
	n++;
	for (const char *q = p + n; (q = strchr(q, '$')) != NULL; q++)
		if (strncmp(q, p, n) == 0)
			return q + n;
	return p + strlen(p);
}

/* Past the double-quoted identifier at p ("" inside reopens it). */
static const char *
skip_ident(const char *p)
{
	const char *close = strchr(p + 1, '"');

	return close != NULL ? close + 1 : p + strlen(p);
}

/*
 * The start of the statement after the one at p in a compound (past its
 * top-level semicolon), or NULL when p's statement is the last.
 */
static const char *
next_statement(const char *text, const char *p)
{
	int			parens = 0;

	while (*p != '\0')
	{
		unsigned char prev = p > text ? (unsigned char) p[-1] : ' ';

		if (*p == '\'')
			p = skip_string(p, (prev == 'E' || prev == 'e') &&
							(p - 1 == text || !ident_byte((unsigned char) p[-2])));
		else if (*p == '"')
			p = skip_ident(p);
		else if (p[0] == '-' && p[1] == '-')
			p = skip_line_comment(p);
		else if (p[0] == '/' && p[1] == '*')
			p = skip_block_comment(p);
		else if (*p == '$')
			p = skip_dollar(text, p);
		else if (*p == ';' && parens <= 0)
			return p + 1;
		else
		{
			parens += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			p++;
		}
	}
	return NULL;
}

/*
 * Why a compound's count is unknown (transaction control, or a statement
 * that commits per table, in any of its statements), NULL when it is
 * none: then it runs as one implicit transaction.
 */
static const char *
compound_why(const char *text)
{
	for (const char *p = text; p != NULL; p = next_statement(text, p))
	{
		const char *why = NULL;

		switch (classify(p, &why))
		{
			case TX_OTHER:
			case TX_PROCEDURE:	/* atomic in the implicit block */
				break;
			case TX_UNKNOWN:
				return why;
			default:
				return "a compound with transaction control";
		}
	}
	return NULL;
}

/* A statement that is not transaction control. */
static void
walk_statement(commit_walk *w)
{
	if (w->in_block)
		return;
	if (w->in_pipeline)
		w->pending = true;
	else
		w->commits++;
}

/* The block must be open for kind; the reason when it is not. */
static const char *
outside_block_why(tx_kind kind)
{
	switch (kind)
	{
		case TX_COMMIT:
		case TX_COMMIT_CHAIN:
			return "COMMIT outside a transaction block";
		case TX_ROLLBACK:
		case TX_ROLLBACK_CHAIN:
			return "ROLLBACK outside a transaction block";
		case TX_SAVEPOINT:
			return "SAVEPOINT outside a transaction block";
		case TX_PROCEDURE:
			return "CALL or DO outside a transaction block";
		default:
			return NULL;
	}
}

/* One SQL command. */
static void
walk_sql(commit_walk *w, const sql_command *sql)
{
	const char *why = NULL;
	tx_kind		kind;

	if (sql->nstatements > 1)
	{
		w->why = compound_why(sql->text);
		if (w->why == NULL)
			walk_statement(w);
		return;
	}
	kind = classify(sql->text, &why);
	if (kind == TX_UNKNOWN)
		w->why = why;
	else if (kind == TX_OTHER || (kind == TX_PROCEDURE && w->in_block))
		walk_statement(w);
	else if (kind == TX_BEGIN)
	{
		/* in a block only a warning; in a pipeline it takes the pending */
		w->in_block = true;
		w->pending = false;
	}
	else if (!w->in_block)
		w->why = outside_block_why(kind);
	else if (kind == TX_COMMIT || kind == TX_COMMIT_CHAIN)
	{
		w->commits++;
		w->in_block = kind == TX_COMMIT_CHAIN;
	}
	else if (kind == TX_ROLLBACK)
		w->in_block = false;
	/* ROLLBACK AND CHAIN, SAVEPOINT, RELEASE, ROLLBACK TO: still in it */
}

/* A pipeline sync: the implicit transaction waiting, if any, commits. */
static void
walk_sync(commit_walk *w)
{
	if (w->pending)
		w->commits++;
	w->pending = false;
}

/* One meta-command. */
static void
walk_meta(commit_walk *w, meta_command meta)
{
	switch (meta)
	{
		case META_IF:
		case META_ELIF:
		case META_ELSE:
		case META_ENDIF:
			w->why = "\\if";
			break;
		case META_SHELL:
			w->why = "\\shell";
			break;
		case META_SETSHELL:
			w->why = "\\setshell";
			break;
		case META_STARTPIPELINE:
			if (w->in_pipeline)
				w->why = "a pipeline command out of place";
			w->in_pipeline = true;
			break;
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			if (!w->in_pipeline)
				w->why = "a pipeline command out of place";
			walk_sync(w);
			w->in_pipeline = meta == META_SYNCPIPELINE;
			break;
		default:
			break;
	}
}

void
script_commits_of(const script *s, script_commits *out)
{
	commit_walk w = {0};

	out->sql_commands = 0;
	out->dynamic = false;
	for (int i = 0; i < s->ncommands; i++)
	{
		const command *cmd = s->commands[i];

		if (cmd->type == SQL_COMMAND)
		{
			out->sql_commands++;
			out->dynamic |= cmd->sql.dynamic;
			if (w.why == NULL)
				walk_sql(&w, &cmd->sql);
		}
		else if (w.why == NULL)
			walk_meta(&w, cmd->meta);
	}
	if (w.why == NULL && w.in_pipeline)
		w.why = "a pipeline left open at the end";
	if (w.why == NULL && w.in_block)
		w.why = "a transaction left open at the end";
	out->known = w.why == NULL;
	out->why = w.why;
	out->per_pass = out->known ? w.commits : 0;
}
