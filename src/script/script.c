/*
 * script.c — compiles pgbench scripts (files and builtins) into the command
 * arrays of script.h, and reports compile errors exactly as pgbench does.
 *
 * The scanner (lexer/script_scan.l) splits the text; this file decides what
 * each piece is: SQL commands get their substitution plans, \gset / \aset
 * merge into the SQL before them, meta-commands are checked and their
 * arguments resolved to variable slots, and \if chains get jump targets.
 * The checks, their order and their messages follow pgbench 16, since
 * users and test suites compare them.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgbench/base/sha256.h"
#include "pgbench/base/diag.h"
#include "pgbench/script/script.h"
#include "pgbench/base/xalloc.h"
#include "script_scan_int.h"

/* pgbench keeps at most this much of an SQL command's first line. */
#define SQL_FIRST_LINE_MAX 127

static const struct
{
	const char *name;
	meta_command meta;
}			meta_names[] = {
	{"set", META_SET},
	{"setshell", META_SETSHELL},
	{"shell", META_SHELL},
	{"sleep", META_SLEEP},
	{"gset", META_GSET},
	{"aset", META_ASET},
	{"if", META_IF},
	{"elif", META_ELIF},
	{"else", META_ELSE},
	{"endif", META_ENDIF},
	{"startpipeline", META_STARTPIPELINE},
	{"endpipeline", META_ENDPIPELINE},
	{"syncpipeline", META_SYNCPIPELINE},	/* PostgreSQL 17 */
};

/* State of one script_compile call. */
typedef struct compile_ctx
{
	script_set *set;
	const char *source;
	const char *text;
	size_t		text_len;
	sscan	   *scan;
	command   **cmds;
	int			ncmds;
	int			cap;
	script_error *err;
} compile_ctx;

/* ---- small helpers ------------------------------------------------------ */

/* A growable string for building headlines and parameter text. */
typedef struct strbuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} strbuf;

static void
strbuf_append(strbuf *sb, const char *s, size_t len)
{
	if (sb->len + len + 1 > sb->cap)
	{
		size_t		cap = sb->cap ? sb->cap : 64;

		while (cap < sb->len + len + 1)
			cap *= 2;
		sb->data = pgb_realloc(sb->data, cap);
		sb->cap = cap;
	}
	memcpy(sb->data + sb->len, s, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

static void
strbuf_printf(strbuf *sb, const char *fmt, ...)
__attribute__((format(printf, 2, 3)));

static void
strbuf_printf(strbuf *sb, const char *fmt, ...)
{
	va_list		ap;
	char	   *s;

	va_start(ap, fmt);
	s = pgb_vasprintf(fmt, ap);
	va_end(ap);
	strbuf_append(sb, s, strlen(s));
	free(s);
}

static void
copy_truncated(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* A meta-command's text as pgbench shows it: trailing newlines dropped. */
static char *
chomped_copy(const char *text, size_t len)
{
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	return pgb_strndup(text, len);
}

/* ---- errors ------------------------------------------------------------- */

static void
error_init(script_error *err)
{
	memset(err, 0, sizeof(*err));
	err->column = -1;
}

/*
 * The "<source>:<line>: <msg> (<more>) in command "<cmd>"" form, followed
 * when line is given by the command text and a caret under column.
 */
static bool
syntax_error(compile_ctx *ctx, int lineno, const char *line,
			 const char *command_name, const char *msg, const char *more,
			 int column)
{
	script_error *err = ctx->err;
	strbuf		head = {0};

	error_init(err);
	err->positioned = true;
	copy_truncated(err->source, sizeof(err->source), ctx->source);
	err->lineno = lineno;
	copy_truncated(err->message, sizeof(err->message), msg);
	copy_truncated(err->detail, sizeof(err->detail), more);
	copy_truncated(err->command, sizeof(err->command), command_name);
	err->line = line ? pgb_strdup(line) : NULL;
	err->column = column;

	strbuf_printf(&head, "%s:%d: %s", ctx->source, lineno, msg);
	if (more != NULL)
		strbuf_printf(&head, " (%s)", more);
	if (column >= 0 && line == NULL)
		strbuf_printf(&head, " at column %d", column + 1);
	if (command_name != NULL)
		strbuf_printf(&head, " in command \"%s\"", command_name);
	err->headline = head.data;
	return false;
}

static bool
plain_error(script_error *err, const char *fmt,...)
__attribute__((format(printf, 2, 3)));

static bool
plain_error(script_error *err, const char *fmt,...)
{
	va_list		ap;

	error_init(err);
	va_start(ap, fmt);
	err->headline = pgb_vasprintf(fmt, ap);
	va_end(ap);
	copy_truncated(err->message, sizeof(err->message), err->headline);
	return false;
}

void
script_error_report(const script_error *err)
{
	if (err->headline != NULL)
		diag_error("%s", err->headline);
	else if (err->positioned)
		diag_error("%s:%d: %s", err->source, err->lineno, err->message);
	else
		diag_error("%s", err->message);

	if (err->positioned && err->line != NULL)
	{
		fprintf(stderr, "%s\n", err->line);
		if (err->column >= 0)
			fprintf(stderr, "%*c error found here\n", err->column + 1, '^');
	}
}

void
script_error_clear(script_error *err)
{
	free(err->line);
	err->line = NULL;
	free(err->headline);
	err->headline = NULL;
}

/* ---- commands ----------------------------------------------------------- */

static command *
command_new(command_type type, int line)
{
	command    *cmd = pgb_calloc(1, sizeof(command));

	cmd->type = type;
	cmd->meta = META_NONE;
	cmd->line = line;
	cmd->var_slot = -1;
	cmd->sleep_slot = -1;
	cmd->jump_false = -1;
	cmd->jump_end = -1;
	return cmd;
}

static void
command_free(command *cmd)
{
	if (cmd == NULL)
		return;
	for (int i = 0; i < cmd->argc; i++)
		free(cmd->argv[i]);
	free(cmd->argv);
	free(cmd->first_line);
	free(cmd->sql.text);
	free(cmd->sql.parts);
	free(cmd->sql.param_text);
	free(cmd->sql.param_slots);
	free(cmd->sql.text_parts);
	free(cmd->varprefix);
	if (cmd->expr)
		expr_free(cmd->expr);
	free(cmd->shell_args);
	free(cmd);
}

static void
ctx_append(compile_ctx *ctx, command *cmd)
{
	if (ctx->ncmds == ctx->cap)
	{
		ctx->cap = ctx->cap ? ctx->cap * 2 : 16;
		ctx->cmds = pgb_realloc(ctx->cmds, sizeof(command *) * (size_t) ctx->cap);
	}
	ctx->cmds[ctx->ncmds++] = cmd;
}

/* ---- SQL commands ------------------------------------------------------- */

/* Leading blanks and "--" comments; NULL when nothing else is left. */
static const char *
skip_sql_comments(const char *p)
{
	for (;;)
	{
		if (isspace((unsigned char) *p))
			p++;
		else if (strncmp(p, "--", 2) == 0)
		{
			p = strchr(p, '\n');
			if (p == NULL)
				return NULL;
			p++;
		}
		else
			break;
	}
	return *p == '\0' ? NULL : p;
}

static void
add_sql_command(compile_ctx *ctx, const sscan_sql_text *sql)
{
	const char *start = skip_sql_comments(sql->text);
	command    *cmd;
	int			line;
	size_t		first_len;

	if (start == NULL)
		return;

	line = sscan_lineno(ctx->scan, sql->start_offset);
	for (const char *p = sql->text; p < start; p++)
		if (*p == '\n')
			line++;

	cmd = command_new(SQL_COMMAND, line);
	cmd->sql.text = pgb_strdup(start);
	cmd->sql.nstatements = sql->nstatements;
	first_len = strcspn(start, "\n\r");
	if (first_len > SQL_FIRST_LINE_MAX)
		first_len = SQL_FIRST_LINE_MAX;
	cmd->first_line = pgb_strndup(start, first_len);
	script_sql_plan(&cmd->sql, ctx->set->symtab);
	ctx_append(ctx, cmd);
}

/* ---- meta-commands ------------------------------------------------------ */

static meta_command
meta_lookup(const char *name)
{
	for (size_t i = 0; i < PGB_LENGTHOF(meta_names); i++)
		if (strcasecmp(name, meta_names[i].name) == 0)
			return meta_names[i].meta;
	return META_NONE;
}

/* Where a meta-command starts and how its words were found. */
typedef struct meta_scan
{
	size_t		start;			/* offset of the backslash */
	int			lineno;
	size_t		offsets[PGB_MAX_META_ARGS];
} meta_scan;

static void
meta_push_word(command *cmd, const char *word, size_t len)
{
	cmd->argv = pgb_realloc(cmd->argv, sizeof(char *) * (size_t) (cmd->argc + 1));
	cmd->argv[cmd->argc++] = pgb_strndup(word, len);
}

static int
meta_column(const meta_scan *ms, size_t offset)
{
	return (int) (offset - ms->start);
}

static int
intern_name(compile_ctx *ctx, const char *name)
{
	return var_symtab_intern(ctx->set->symtab, name, strlen(name));
}

/* \set, \if, \elif: the rest of the command is an expression. */
static bool
compile_expression(compile_ctx *ctx, command *cmd, meta_scan *ms)
{
	const char *word;
	size_t		len;
	size_t		expr_start;
	size_t		end;
	char	   *raw;
	expr_error	experr;

	if (cmd->meta == META_SET)
	{
		if (!sscan_word(ctx->scan, &word, &len, &ms->offsets[1]))
			return syntax_error(ctx, ms->lineno, NULL, cmd->argv[0],
								"missing argument", NULL, -1);
		meta_push_word(cmd, word, len);
		cmd->var_slot = intern_name(ctx, cmd->argv[1]);
		cmd->target_valid = var_name_is_valid(cmd->argv[1], strlen(cmd->argv[1]));
	}

	expr_start = sscan_offset(ctx->scan);
	sscan_skip_line(ctx->scan);
	end = sscan_offset(ctx->scan);
	cmd->first_line = chomped_copy(ctx->text + ms->start, end - ms->start);

	/*
	 * The parser gets the ending newline too: pgbench's caret for an
	 * expression cut short sits on it.
	 */
	raw = pgb_strndup(ctx->text + ms->start, end - ms->start);
	memset(&experr, 0, sizeof(experr));
	experr.column = -1;
	cmd->expr = expr_parse(raw, expr_start - ms->start, ctx->set->symtab, &experr);
	free(raw);
	if (cmd->expr == NULL)
		return syntax_error(ctx, ms->lineno, cmd->first_line, cmd->argv[0],
							experr.message,
							experr.detail[0] ? experr.detail : NULL,
							experr.column);
	return true;
}

/*
 * \sleep N[unit] | N unit | :var [unit].  A constant is read like atoi()
 * and scaled in int arithmetic, as pgbench does, so huge values wrap the
 * same way.
 */
static bool
compile_sleep(compile_ctx *ctx, command *cmd, meta_scan *ms)
{
	const char *unit = NULL;
	size_t		unit_offset = 0;

	if (cmd->argc < 2)
		return syntax_error(ctx, ms->lineno, cmd->first_line, cmd->argv[0],
							"missing argument", NULL, -1);
	if (cmd->argc > 3)
		return syntax_error(ctx, ms->lineno, cmd->first_line, cmd->argv[0],
							"too many arguments", NULL,
							meta_column(ms, ms->offsets[3]));
	if (cmd->argc == 3)
	{
		unit = cmd->argv[2];
		unit_offset = ms->offsets[2];
	}

	if (cmd->argv[1][0] != ':')
	{
		const char *c = cmd->argv[1];
		bool		have_digit;

		if (*c == '+' || *c == '-')
			c++;
		have_digit = isdigit((unsigned char) *c) != 0;
		while (isdigit((unsigned char) *c))
			c++;
		if (*c != '\0')
		{
			if (cmd->argc != 2 || !have_digit)
				return syntax_error(ctx, ms->lineno, cmd->first_line,
									cmd->argv[0],
									"invalid sleep time, must be an integer",
									cmd->argv[1],
									meta_column(ms, ms->offsets[1]));
			/* "10ms": the unit is glued to the number */
			unit = c;
			unit_offset = ms->offsets[1] + (size_t) (c - cmd->argv[1]);
		}
	}

	cmd->sleep_unit_usec = 1000000;
	if (unit != NULL)
	{
		if (strcasecmp(unit, "us") == 0)
			cmd->sleep_unit_usec = 1;
		else if (strcasecmp(unit, "ms") == 0)
			cmd->sleep_unit_usec = 1000;
		else if (strcasecmp(unit, "s") != 0)
			return syntax_error(ctx, ms->lineno, cmd->first_line, cmd->argv[0],
								"unrecognized time unit, must be us, ms or s",
								unit, meta_column(ms, unit_offset));
	}

	if (cmd->argv[1][0] == ':')
		cmd->sleep_slot = intern_name(ctx, cmd->argv[1] + 1);
	else
	{
		int32_t		count = (int32_t) strtol(cmd->argv[1], NULL, 10);

		cmd->sleep_usec = (int32_t) ((uint32_t) count *
									 (uint32_t) cmd->sleep_unit_usec);
	}
	return true;
}

/*
 * \shell / \setshell words from argv[first]: ":name" is a variable,
 * "::x" the literal ":x", anything else literal.
 */
static void
compile_shell_args(compile_ctx *ctx, command *cmd, int first)
{
	cmd->nshell_args = cmd->argc - first;
	cmd->shell_args = pgb_calloc((size_t) cmd->nshell_args, sizeof(shell_arg));
	for (int i = 0; i < cmd->nshell_args; i++)
	{
		const char *word = cmd->argv[first + i];
		shell_arg  *arg = &cmd->shell_args[i];

		arg->slot = -1;
		if (word[0] != ':')
			arg->text = word;
		else if (word[1] == ':')
			arg->text = word + 1;
		else
		{
			arg->text = word;
			arg->slot = intern_name(ctx, word + 1);
		}
	}
}

static bool
check_word_command(compile_ctx *ctx, command *cmd, meta_scan *ms)
{
	switch (cmd->meta)
	{
		case META_SLEEP:
			return compile_sleep(ctx, cmd, ms);
		case META_SETSHELL:
			if (cmd->argc < 3)
				return syntax_error(ctx, ms->lineno, cmd->first_line,
									cmd->argv[0], "missing argument", NULL, -1);
			cmd->var_slot = intern_name(ctx, cmd->argv[1]);
			cmd->target_valid = var_name_is_valid(cmd->argv[1], strlen(cmd->argv[1]));
			compile_shell_args(ctx, cmd, 2);
			return true;
		case META_SHELL:
			if (cmd->argc < 2)
				return syntax_error(ctx, ms->lineno, cmd->first_line,
									cmd->argv[0], "missing command", NULL, -1);
			compile_shell_args(ctx, cmd, 1);
			return true;
		case META_ELSE:
		case META_ENDIF:
		case META_STARTPIPELINE:
		case META_SYNCPIPELINE:
		case META_ENDPIPELINE:
			if (cmd->argc != 1)
				return syntax_error(ctx, ms->lineno, cmd->first_line,
									cmd->argv[0], "unexpected argument", NULL, -1);
			return true;
		case META_GSET:
		case META_ASET:
			if (cmd->argc > 2)
				return syntax_error(ctx, ms->lineno, cmd->first_line,
									cmd->argv[0], "too many arguments", NULL, -1);
			return true;
		default:
			return syntax_error(ctx, ms->lineno, cmd->first_line,
								cmd->argv[0], "invalid command", NULL, -1);
	}
}

/*
 * Read the meta-command after a backslash.  *out is NULL for a lone
 * backslash, which pgbench ignores.
 */
static bool
read_meta_command(compile_ctx *ctx, command **out)
{
	meta_scan	ms;
	const char *word;
	size_t		len;
	command    *cmd;
	bool		ok;

	*out = NULL;
	ms.start = sscan_offset(ctx->scan) - 1;
	ms.lineno = sscan_lineno(ctx->scan, ms.start);
	if (!sscan_word(ctx->scan, &word, &len, &ms.offsets[0]))
		return true;

	cmd = command_new(META_COMMAND, ms.lineno);
	meta_push_word(cmd, word, len);
	cmd->meta = meta_lookup(cmd->argv[0]);

	if (cmd->meta == META_SET || cmd->meta == META_IF || cmd->meta == META_ELIF)
		ok = compile_expression(ctx, cmd, &ms);
	else
	{
		size_t		offset;

		ok = true;
		while (ok && sscan_word(ctx->scan, &word, &len, &offset))
		{
			if (cmd->argc >= PGB_MAX_META_ARGS)
				ok = syntax_error(ctx, ms.lineno, NULL, cmd->argv[0],
								  "too many arguments", NULL, -1);
			else
			{
				ms.offsets[cmd->argc] = offset;
				meta_push_word(cmd, word, len);
			}
		}
		if (ok)
		{
			cmd->first_line = chomped_copy(ctx->text + ms.start,
										   sscan_offset(ctx->scan) - ms.start);
			ok = check_word_command(ctx, cmd, &ms);
		}
	}

	if (!ok)
	{
		command_free(cmd);
		return false;
	}
	*out = cmd;
	return true;
}

/*
 * \gset and \aset do not take a command slot: they mark the SQL command
 * just before them.  pgbench names \gset in the message for both.
 */
static bool
merge_result_meta(compile_ctx *ctx, command *meta, int scan_lineno)
{
	command    *prev;

	if (ctx->ncmds == 0)
		return syntax_error(ctx, scan_lineno, NULL, NULL,
							"\\gset must follow an SQL command", NULL, -1);
	prev = ctx->cmds[ctx->ncmds - 1];
	if (prev->type != SQL_COMMAND || prev->varprefix != NULL)
		return syntax_error(ctx, scan_lineno, NULL, NULL,
							"\\gset must follow an SQL command",
							prev->type == SQL_COMMAND ? NULL : prev->first_line,
							-1);
	prev->varprefix = pgb_strdup(meta->argc > 1 ? meta->argv[1] : "");
	prev->meta = meta->meta;
	return true;
}

/* ---- conditionals ------------------------------------------------------- */

typedef struct cond_frame
{
	int			if_index;
	int			last_branch;	/* \if, \elif or \else most recently seen */
	bool		in_else;
} cond_frame;

static bool
cond_error(compile_ctx *ctx, int index, const char *msg)
{
	return plain_error(ctx->err, "condition error in script \"%s\" command %d: %s",
					   ctx->source, index + 1, msg);
}

/* Every branch of a finished chain jumps to its \endif once done. */
static void
cond_close_chain(compile_ctx *ctx, const cond_frame *frame, int endif_index)
{
	int			j = frame->if_index;

	ctx->cmds[frame->last_branch]->jump_false = endif_index;
	while (j != endif_index)
	{
		ctx->cmds[j]->jump_end = endif_index;
		j = ctx->cmds[j]->jump_false;
	}
}

static bool
cond_step(compile_ctx *ctx, cond_frame *stack, int *depth, int i)
{
	command    *cmd = ctx->cmds[i];
	cond_frame *top = *depth > 0 ? &stack[*depth - 1] : NULL;

	switch (cmd->meta)
	{
		case META_IF:
			stack[(*depth)++] = (cond_frame) {i, i, false};
			return true;
		case META_ELIF:
		case META_ELSE:
			{
				bool		is_else = cmd->meta == META_ELSE;

				if (top == NULL)
					return cond_error(ctx, i, is_else ? "\\else without matching \\if"
									  : "\\elif without matching \\if");
				if (top->in_else)
					return cond_error(ctx, i, is_else ? "\\else after \\else"
									  : "\\elif after \\else");
				ctx->cmds[top->last_branch]->jump_false = i;
				top->last_branch = i;
				top->in_else = is_else;
				return true;
			}
		case META_ENDIF:
			if (top == NULL)
				return cond_error(ctx, i, "\\endif without matching \\if");
			cond_close_chain(ctx, top, i);
			(*depth)--;
			return true;
		default:
			return true;
	}
}

/* pgbench checks \if nesting once the whole script is read. */
static bool
check_conditionals(compile_ctx *ctx)
{
	cond_frame *stack = pgb_calloc((size_t) ctx->ncmds, sizeof(cond_frame));
	int			depth = 0;
	bool		ok = true;

	for (int i = 0; ok && i < ctx->ncmds; i++)
		if (ctx->cmds[i]->type == META_COMMAND)
			ok = cond_step(ctx, stack, &depth, i);
	if (ok && depth > 0)
		ok = cond_error(ctx, ctx->ncmds, "\\if without matching \\endif");
	free(stack);
	return ok;
}

/* ---- scripts ------------------------------------------------------------ */

/*
 * The line pgbench names in "\gset must follow" errors: it counts the
 * newlines before where the scan of this round starts, but never the
 * text's last byte, and in the first round (its scanner has not marked a
 * position yet) it counts through the whole text.
 */
static int
round_lineno(compile_ctx *ctx, bool first_round)
{
	size_t		limit = ctx->text_len > 0 ? ctx->text_len - 1 : 0;
	size_t		offset = sscan_offset(ctx->scan);

	if (first_round || offset > limit)
		offset = limit;
	return sscan_lineno(ctx->scan, offset);
}

static bool
parse_commands(compile_ctx *ctx)
{
	for (bool first_round = true;; first_round = false)
	{
		sscan_sql_text sql;
		int			scan_lineno = round_lineno(ctx, first_round);
		sscan_sql_end end = sscan_sql(ctx->scan, &sql);
		command    *meta;

		add_sql_command(ctx, &sql);
		if (end == SSCAN_SQL_BACKSLASH)
		{
			if (!read_meta_command(ctx, &meta))
				return false;
			if (meta != NULL && (meta->meta == META_GSET || meta->meta == META_ASET))
			{
				bool		ok = merge_result_meta(ctx, meta, scan_lineno);

				command_free(meta);
				if (!ok)
					return false;
			}
			else if (meta != NULL)
				ctx_append(ctx, meta);
		}
		if (end == SSCAN_SQL_EOF)
			return true;
	}
}

static void
ctx_discard(compile_ctx *ctx)
{
	for (int i = 0; i < ctx->ncmds; i++)
		command_free(ctx->cmds[i]);
	free(ctx->cmds);
	ctx->cmds = NULL;
	ctx->ncmds = 0;
}

bool
script_compile(script_set *set, const char *source, const char *text,
			   int weight, script_error *err)
{
	compile_ctx ctx = {.set = set, .source = source, .text = text, .err = err};
	bool		ok;
	script	   *s;

	error_init(err);
	ctx.text_len = strlen(text);
	switch (sscan_create(text, &ctx.scan))
	{
		case SSCAN_OK:
			break;
		case SSCAN_TOO_LONG:
			return plain_error(err, "script \"%s\" is too long (more than %zu bytes)",
							   source, SSCAN_MAX_TEXT);
		case SSCAN_NO_SCANNER:
			return plain_error(err, "could not make a scanner for script \"%s\"", source);
	}
	ok = parse_commands(&ctx);
	sscan_destroy(ctx.scan);

	/* the order of these checks is pgbench's */
	if (ok && ctx.ncmds == 0)
		ok = plain_error(err, "empty command list for script \"%s\"", source);
	if (ok && set->nscripts >= PGB_MAX_SCRIPTS)
		ok = plain_error(err, "at most %d SQL scripts are allowed", PGB_MAX_SCRIPTS);
	if (ok)
		ok = check_conditionals(&ctx);
	if (!ok)
	{
		ctx_discard(&ctx);
		return false;
	}

	s = &set->scripts[set->nscripts++];
	s->desc = pgb_strdup(source);
	s->builtin = false;
	s->weight = weight;
	s->ncommands = ctx.ncmds;
	s->commands = ctx.cmds;
	sha256_hex(text, ctx.text_len, s->sha256);
	set->total_weight += weight;
	return true;
}

bool
script_set_check_params(const script_set *set, script_error *err)
{
	error_init(err);
	for (int i = 0; i < set->nscripts; i++)
	{
		const script *s = &set->scripts[i];

		for (int j = 0; j < s->ncommands; j++)
		{
			const command *cmd = s->commands[j];

			if (cmd->type == SQL_COMMAND && cmd->sql.nparams > PGB_MAX_ARGS - 1)
				return plain_error(err, "statement has too many arguments (maximum is %d): %s",
								   PGB_MAX_ARGS - 1, cmd->sql.text);
		}
	}
	return true;
}

script_set *
script_set_create(void)
{
	script_set *set = pgb_calloc(1, sizeof(script_set));

	set->symtab = var_symtab_create();
	return set;
}

void
script_set_free(script_set *set)
{
	if (set == NULL)
		return;
	for (int i = 0; i < set->nscripts; i++)
	{
		script	   *s = &set->scripts[i];

		for (int j = 0; j < s->ncommands; j++)
			command_free(s->commands[j]);
		free(s->commands);
		free(s->desc);
	}
	var_symtab_free(set->symtab);
	free(set);
}
