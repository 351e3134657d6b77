/*
 * script_sql.c — the substitution plans of an SQL command (script.h):
 * where its variable references are, what kind each is, and the texts
 * each query mode sends.
 *
 * pgbench finds ":name" by a plain search for colons, inside quotes and
 * comments too, and that stays so: every such reference is found where
 * pgbench finds it.  A small SQL scanner runs alongside only to tell where
 * a reference sits: inside a double-quoted identifier ("sbtest:client_id")
 * it is text in every mode, since a parameter cannot be part of a name;
 * and outside quotes and comments psql's ":'name'" and ":"name"" forms are
 * recognised, as psql recognises them.  Commands with neither keep exactly
 * the plans they always had.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/script/script.h"
#include "pgbench/base/xalloc.h"

/* Where the scanner is in the SQL text. */
typedef enum sql_lex_state
{
	LEX_CODE,					/* plain SQL */
	LEX_STRING,					/* '...' (a doubled quote ends and restarts it) */
	LEX_ESTRING,				/* E'...', where a backslash escapes too */
	LEX_IDENT,					/* "..." (a doubled quote ends and restarts it) */
	LEX_LINE_COMMENT,			/* "--" up to the end of the line */
	LEX_BLOCK_COMMENT,			/* C-style, nested: depth levels deep */
	LEX_DOLLAR,					/* $tag$ ... $tag$ */
} sql_lex_state;

typedef struct sql_lexer
{
	const char *text;			/* start of the text, to look behind */
	const char *pos;			/* next byte to scan */
	sql_lex_state state;
	int			depth;			/* LEX_BLOCK_COMMENT nesting */
	const char *tag;			/* LEX_DOLLAR: the opening "$tag$" */
	size_t		tag_len;
} sql_lexer;

/* One variable reference found in the text. */
typedef struct sql_ref
{
	size_t		offset;			/* of the colon in the text */
	size_t		len;			/* ":name" or ":'name'" as written */
	int			slot;
	sql_ref_kind kind;
} sql_ref;

/* A byte that continues an SQL identifier (PostgreSQL allows '$' too). */
static bool
ident_byte(unsigned char ch)
{
	return isalnum(ch) || ch == '_' || ch == '$' || ch >= 0x80;
}

/* Length of a dollar-quote delimiter ("$$", "$tag$") at p, 0 if none. */
static size_t
dollar_tag_len(const char *p)
{
	size_t		n = 1;

	if (isdigit((unsigned char) p[1]))
		return 0;
	while (p[n] != '$')
	{
		if (p[n] == '\0' || p[n] == '$' || !ident_byte((unsigned char) p[n]))
			return 0;
		n++;
	}
	return n + 1;
}

/* Outside quotes: what starts at p, and where the scan goes on. */
static const char *
lex_code(sql_lexer *lx, const char *p)
{
	unsigned char prev = p > lx->text ? (unsigned char) p[-1] : ' ';
	size_t		n;

	switch (*p)
	{
		case '\'':
			/* E'...' only when the E does not end a longer word */
			lx->state = (prev == 'E' || prev == 'e') &&
				(p - 1 == lx->text || !ident_byte((unsigned char) p[-2]))
				? LEX_ESTRING : LEX_STRING;
			return p + 1;
		case '"':
			lx->state = LEX_IDENT;
			return p + 1;
		case '-':
			if (p[1] != '-')
				return p + 1;
			lx->state = LEX_LINE_COMMENT;
			return p + 2;
		case '/':
			if (p[1] != '*')
				return p + 1;
			lx->state = LEX_BLOCK_COMMENT;
			lx->depth = 1;
			return p + 2;
		case '$':
			n = ident_byte(prev) ? 0 : dollar_tag_len(p);
			if (n == 0)
				return p + 1;
			lx->state = LEX_DOLLAR;
			lx->tag = p;
			lx->tag_len = n;
			return p + n;
		default:
			return p + 1;
	}
}

/* Scan the byte (or escape, or delimiter) at p; the next position. */
static const char *
lex_step(sql_lexer *lx, const char *p)
{
	switch (lx->state)
	{
		case LEX_CODE:
			return lex_code(lx, p);
		case LEX_ESTRING:
			if (*p == '\\' && p[1] != '\0')
				return p + 2;
			if (*p == '\'' && p[1] == '\'')
				return p + 2;
			/* FALLTHROUGH */
		case LEX_STRING:
			if (*p == '\'')
				lx->state = LEX_CODE;
			return p + 1;
		case LEX_IDENT:
			if (*p == '"')
				lx->state = LEX_CODE;
			return p + 1;
		case LEX_LINE_COMMENT:
			if (*p == '\n')
				lx->state = LEX_CODE;
			return p + 1;
		case LEX_BLOCK_COMMENT:
			if (p[0] == '/' && p[1] == '*')
				lx->depth++;
			else if (p[0] == '*' && p[1] == '/' && --lx->depth == 0)
				lx->state = LEX_CODE;
			else
				return p + 1;
			return p + 2;
		case LEX_DOLLAR:
			if (strncmp(p, lx->tag, lx->tag_len) != 0)
				return p + 1;
			lx->state = LEX_CODE;
			return p + lx->tag_len;
	}
	return p + 1;
}

/* Scan up to target: lx->state is then the state target is in. */
static void
lex_to(sql_lexer *lx, const char *target)
{
	while (lx->pos < target && *lx->pos != '\0')
		lx->pos = lex_step(lx, lx->pos);
}

/*
 * psql's ":'name'" or ":"name"" at colon (a lone colon outside quotes and
 * comments): the length of the whole form, 0 if there is none.
 */
static size_t
quoted_ref_len(const char *colon)
{
	char		quote = colon[1];
	size_t		namelen;

	if (quote != '\'' && quote != '"')
		return 0;
	namelen = var_name_span(colon + 2);
	if (namelen == 0 || colon[2 + namelen] != quote)
		return 0;
	return namelen + 3;
}

/* Every reference of text, in order; *nrefs is their count. */
static sql_ref *
find_refs(const char *text, var_symtab *symtab, int *nrefs)
{
	sql_lexer	lx = {.text = text, .pos = text, .state = LEX_CODE};
	sql_ref    *refs = NULL;
	int			cap = 0;
	const char *p = text;
	const char *colon;

	*nrefs = 0;
	while ((colon = strchr(p, ':')) != NULL)
	{
		size_t		namelen = var_name_span(colon + 1);
		sql_ref		ref = {.offset = (size_t) (colon - text), .kind = SQL_REF_PARAM};

		lex_to(&lx, colon);
		if (namelen > 0)
		{
			ref.len = namelen + 1;
			ref.slot = var_symtab_intern(symtab, colon + 1, namelen);
			if (lx.state == LEX_IDENT)
				ref.kind = SQL_REF_TEXT;
		}
		else if (lx.state == LEX_CODE && (ref.len = quoted_ref_len(colon)) > 0)
		{
			ref.slot = var_symtab_intern(symtab, colon + 2, ref.len - 3);
			ref.kind = colon[1] == '\'' ? SQL_REF_LITERAL : SQL_REF_IDENT;
		}
		else
		{
			/* not a variable: the whole run of colons stays ("::type") */
			while (*colon == ':')
				colon++;
			p = colon;
			continue;
		}
		if (*nrefs == cap)
		{
			cap = cap ? cap * 2 : 8;
			refs = pgb_realloc(refs, sizeof(sql_ref) * (size_t) cap);
		}
		refs[(*nrefs)++] = ref;
		/* the scanner does not look into a reference: ":'x'" is no string */
		p = lx.pos = colon + ref.len;
	}
	return refs;
}

/* Append a part to a plan sized for all of them. */
static void
add_part(sql_part *parts, int *nparts, const char *text, size_t len,
		 const sql_ref *ref, const char *ref_text)
{
	sql_part   *part = &parts[(*nparts)++];

	part->text = text;
	part->len = len;
	part->slot = ref ? ref->slot : -1;
	part->kind = ref ? ref->kind : SQL_REF_PARAM;
	part->ref = ref_text;
	part->ref_len = ref ? ref->len : 0;
}

/*
 * The $n text: each SQL_REF_PARAM becomes $1, $2..., the other references
 * stay as written, and for a dynamic command text_parts points at them.
 */
static void
build_param_text(sql_command *sql, const sql_ref *refs, int nrefs)
{
	size_t		len = strlen(sql->text);
	char	   *o;
	const char *segment;
	size_t		from = 0;
	int			n = 0;

	for (int i = 0; i < nrefs; i++)
		if (refs[i].kind == SQL_REF_PARAM)
			len = len - refs[i].len + (size_t) snprintf(NULL, 0, "$%d", ++n);
	segment = o = sql->param_text = pgb_malloc(len + 1);
	if (sql->dynamic)
		sql->text_parts = pgb_calloc((size_t) nrefs + 1, sizeof(sql_part));
	n = 0;
	for (int i = 0; i < nrefs; i++)
	{
		const sql_ref *ref = &refs[i];

		memcpy(o, sql->text + from, ref->offset - from);
		o += ref->offset - from;
		from = ref->offset + ref->len;
		if (ref->kind == SQL_REF_PARAM)
		{
			o += sprintf(o, "$%d", ++n);
			continue;
		}
		add_part(sql->text_parts, &sql->ntext_parts, segment,
				 (size_t) (o - segment), ref, o);
		memcpy(o, sql->text + ref->offset, ref->len);
		segment = o += ref->len;
	}
	memcpy(o, sql->text + from, strlen(sql->text + from) + 1);
	if (sql->dynamic)
		add_part(sql->text_parts, &sql->ntext_parts, segment, strlen(segment),
				 NULL, NULL);
}

void
script_sql_plan(sql_command *sql, var_symtab *symtab)
{
	int			nrefs;
	sql_ref    *refs = find_refs(sql->text, symtab, &nrefs);
	const char *from = sql->text;

	sql->parts = pgb_calloc((size_t) nrefs + 1, sizeof(sql_part));
	sql->param_slots = nrefs > 0 ? pgb_calloc((size_t) nrefs, sizeof(int)) : NULL;
	for (int i = 0; i < nrefs; i++)
	{
		const char *at = sql->text + refs[i].offset;

		add_part(sql->parts, &sql->nparts, from, (size_t) (at - from), &refs[i], at);
		from = at + refs[i].len;
		if (refs[i].kind == SQL_REF_PARAM)
			sql->param_slots[sql->nparams++] = refs[i].slot;
		else
			sql->dynamic = true;
	}
	add_part(sql->parts, &sql->nparts, from, strlen(from), NULL, NULL);
	build_param_text(sql, refs, nrefs);
	free(refs);
}
