/*
 * script.h — the compiled form of pgbench scripts.
 *
 * Each script (-f file, -b builtin) is compiled once, before any thread
 * starts, into an immutable command array.  Everything the run needs is
 * worked out here: SQL split into literal text and variable slots (for
 * simple mode) and into "$n" text plus parameter slots (extended and
 * prepared), expression trees, \sleep units, \shell arguments, and the jump
 * targets of \if / \elif / \else / \endif.  The hot path only follows it.
 */
#ifndef PGBENCH_SCRIPT_H
#define PGBENCH_SCRIPT_H

#include "pgbench/base/common.h"
#include "pgbench/script/expr.h"
#include "pgbench/script/variables.h"

#define PGB_MAX_SCRIPTS 128

typedef enum command_type
{
	SQL_COMMAND,
	META_COMMAND,
} command_type;

typedef enum meta_command
{
	META_NONE,					/* an SQL command without \gset / \aset */
	META_SET,
	META_SETSHELL,
	META_SHELL,
	META_SLEEP,
	META_GSET,					/* on an SQL command: store its one row */
	META_ASET,					/* on an SQL command: store all its rows */
	META_IF,
	META_ELIF,
	META_ELSE,
	META_ENDIF,
	META_STARTPIPELINE,
	META_SYNCPIPELINE,
	META_ENDPIPELINE,
} meta_command;

/*
 * How a variable reference in SQL is replaced.  pgbench's ":name" is
 * SQL_REF_PARAM: its value as written in simple mode, a "$n" parameter in
 * extended and prepared modes.  The others are text in every mode:
 * ":name" inside a double-quoted identifier (SQL_REF_TEXT, the value as
 * written), and psql's ":'name'" (a quoted literal) and ":"name"" (a
 * quoted identifier).
 */
typedef enum sql_ref_kind
{
	SQL_REF_PARAM,
	SQL_REF_TEXT,
	SQL_REF_LITERAL,
	SQL_REF_IDENT,
} sql_ref_kind;

/*
 * One piece of an SQL command: literal text, then a variable reference
 * (slot >= 0) that is replaced by the variable's value as kind says, or
 * left as written (ref, ref_len: ":name", ":'name'") when it is unset.
 */
typedef struct sql_part
{
	const char *text;			/* points into the text the plan is for */
	size_t		len;
	int			slot;			/* -1: no variable after this text */
	sql_ref_kind kind;
	const char *ref;
	size_t		ref_len;
} sql_part;

/*
 * A command is "dynamic" when it has a reference of a kind other than
 * SQL_REF_PARAM: its text then depends on variables in every mode, so
 * extended and prepared modes build it at run time from text_parts (the
 * $n text with the text references left in), and prepared mode prepares
 * each distinct text once per connection (client_ident.c).  Static
 * commands, the usual case, never look at text_parts.
 */
typedef struct sql_command
{
	char	   *text;			/* the SQL as written, NUL-terminated */
	int			nparts;
	sql_part   *parts;			/* simple mode substitution plan */
	char	   *param_text;		/* SQL_REF_PARAM ":name" replaced by $1..$n */
	int			nparams;		/* > PGB_MAX_ARGS - 1 only usable in simple
								 * mode: see script_set_check_params */
	int		   *param_slots;	/* slot of $1..$n */
	int			nstatements;	/* > 1 for "a \; b" compounds */
	bool		dynamic;		/* has text references: see above */
	int			ntext_parts;
	sql_part   *text_parts;		/* dynamic only: plan over param_text */
} sql_command;

/* A \shell or \setshell word: literal text, or a variable (":name"). */
typedef struct shell_arg
{
	const char *text;			/* literal, "::x" already reduced to ":x" */
	int			slot;			/* >= 0 for a variable */
} shell_arg;

typedef struct command
{
	int			line;			/* 1-based line of the command in its script */
	char	   *first_line;		/* the command's first line, for messages and -r */
	command_type type;
	meta_command meta;

	/* SQL_COMMAND */
	sql_command sql;
	char	   *varprefix;		/* \gset / \aset prefix ("" for none) */

	/* META_COMMAND: the words as pgbench splits them (argv[0] = "set"...) */
	int			argc;
	char	  **argv;

	/* \set, \if, \elif */
	expr_node  *expr;
	/* \set, \setshell target */
	int			var_slot;
	bool		target_valid;	/* argv[1] is a valid variable name (pgbench
								 * checks it when it assigns; so do we, from
								 * this) */

	/* \sleep: constant or variable, times a unit (1, 1000, 1000000) */
	int64_t		sleep_usec;		/* when sleep_slot < 0, already scaled */
	int			sleep_slot;
	int64_t		sleep_unit_usec;

	/* \shell, \setshell: argument words after the target */
	int			nshell_args;
	shell_arg  *shell_args;

	/*
	 * \if / \elif: index of the next \elif, \else or \endif of the chain,
	 * where to go when the condition is false.  \elif / \else: index of the
	 * chain's \endif, where to go when an earlier branch ran.  (\if has
	 * jump_end too, and \else's jump_false is its \endif; \endif has -1.)
	 */
	int			jump_false;
	int			jump_end;
} command;

typedef struct script
{
	char	   *desc;			/* file name or "<builtin: ...>" */
	bool		builtin;		/* made from a builtin script (-b, -N, -S, the
								 * default): the run reads the scale from
								 * pgbench_branches */
	int			weight;
	int			ncommands;
	command   **commands;
	char		sha256[65];		/* SHA-256 of the script's text (hex); "":
								 * unknown (a merged report's) */
} script;

/* All scripts of a run and the variable symbols they use. */
typedef struct script_set
{
	var_symtab *symtab;
	int			nscripts;
	script		scripts[PGB_MAX_SCRIPTS];
	int64_t		total_weight;
} script_set;

/*
 * A compile error, printed by script_error_report exactly as pgbench:
 *   pgbench: error: <source>:<lineno>: <message>[ (<detail>)][ at column N][ in command "<command>"]
 *   <line>
 *   <spaces>^ error found here
 * (line may be NULL; column -1 for no caret), or, for errors pgbench
 * reports without position, as a plain "pgbench: error: <message>".
 */
typedef struct script_error
{
	bool		positioned;		/* syntax-error form above, else plain */
	char		source[256];
	int			lineno;
	char		message[256];
	char		detail[256];
	char		command[64];
	char	   *line;			/* owned copy, may be NULL */
	int			column;
	char	   *headline;		/* owned: the complete first line, untruncated
								 * (the fixed fields above may be cut short) */
} script_error;

/*
 * An empty set with its own symbol table (never NULL: start-up code, out
 * of memory stops the process as xalloc.h says).  script_set_free releases the scripts, their
 * commands and the symbol table; NULL-safe.
 */
script_set *script_set_create(void);
void		script_set_free(script_set *set);

/*
 * Compile script text (from file source) and append it with weight (not
 * marked builtin; whoever compiles a builtin sets the flag).  Returns false
 * with *err filled; err->line must be freed with script_error_clear.  An
 * empty script is an error, as in pgbench.
 */
bool		script_compile(script_set *set, const char *source, const char *text,
						   int weight, script_error *err);

/*
 * Build sql's substitution plans from sql->text (parts, param_text,
 * param_slots, and for a dynamic command text_parts), interning variable
 * names into symtab.  Where a reference sits (a double-quoted identifier,
 * a string, a comment) is found by a small SQL scanner; ":name" is still
 * found everywhere, as pgbench finds it.  Start-up only (aborts on OOM).
 */
void		script_sql_plan(sql_command *sql, var_symtab *symtab);

/*
 * pgbench turns ":name" into $n parameters for -M extended / prepared only
 * after all options are read, and then fails on a command with more than
 * PGB_MAX_ARGS - 1 of them.  Call once all scripts are loaded, when the
 * query mode is not simple.
 */
bool		script_set_check_params(const script_set *set, script_error *err);

/*
 * Print err as pgbench does: "pgbench: error: " and the headline, then for
 * a positioned error the offending line and a caret under its column.
 * script_error_clear frees what err owns (line, headline); err may then be
 * filled again.
 */
void		script_error_report(const script_error *err);
void		script_error_clear(script_error *err);

/* Builtin scripts: name, description, text. */
typedef struct builtin_script
{
	const char *name;			/* "tpcb-like", ... */
	const char *desc;			/* "<builtin: TPC-B (sort of)>" */
	const char *script;
} builtin_script;

extern const builtin_script builtin_scripts[];
extern const int builtin_script_count;

/*
 * Find a builtin by exact name or unambiguous prefix.  NULL when none or
 * ambiguous; *ambiguous tells which.
 */
const builtin_script *builtin_find(const char *name, bool *ambiguous);

/* How many builtins name is a prefix of (for the "ambiguous" message). */
int			builtin_count_matches(const char *name);

/*
 * What one complete pass through s commits on the server, worked out from
 * its text alone (script_commits.c), for comparing with the server's
 * xact_commit.  Per PostgreSQL's rules: a statement outside an explicit
 * block is one commit (SELECT, SET, SHOW too), and so is a "a \; b"
 * compound; BEGIN / START TRANSACTION .. COMMIT / END is one, ROLLBACK /
 * ABORT none (ROLLBACK TO, SAVEPOINT, RELEASE stay in the block; AND CHAIN
 * commits or not and stays in it); in a pipeline the statements outside a
 * block between two syncs (\syncpipeline, \endpipeline) are one commit at
 * the sync, and a BEGIN there takes them into its block.  Not counted
 * here: the connection's own start-up commit, and with -M prepared one
 * commit per prepared statement per connection (sql_commands, or more when
 * dynamic).
 *
 * The count is unknown (known false, why a constant naming the cause)
 * when it depends on what runs: \if and its chain, \shell and \setshell
 * (the command may itself connect to the server, as psql does), a
 * transaction or pipeline left open at the end, a pipeline command out of
 * place, two-phase commit, COMMIT / ROLLBACK / SAVEPOINT outside a block,
 * a compound holding transaction control, CALL or DO outside a block (a
 * procedure may commit), and the commands that commit per table or phase
 * (VACUUM, ANALYZE, CLUSTER, REINDEX, CREATE / DROP INDEX CONCURRENTLY).
 * A pass cut short (an error, the end of the run) made 0 to per_pass.
 */
typedef struct script_commits
{
	bool		known;			/* false: the count depends on what runs */
	const char *why;			/* !known: a constant ("\\if", "\\shell", "a
								 * transaction left open at the end", "COMMIT
								 * PREPARED", ...); NULL when known */
	int			per_pass;		/* server commits of one complete pass; 0
								 * when !known */
	int			sql_commands;	/* SQL commands in s (what -M prepared
								 * prepares per connection) */
	bool		dynamic;		/* some SQL command is dynamic: prepared mode
								 * prepares each distinct text (unbounded) */
} script_commits;

/*
 * Fill *out for s.  Reads the commands' text only (bounded by its length,
 * no allocation, any text is safe); thread-safe on an immutable script.
 */
void		script_commits_of(const script *s, script_commits *out);

#endif
