/*
 * metacmd.h — meta-commands at run time: \set, \sleep, \shell, \setshell,
 * the \if chain and the pipeline commands.
 *
 * The client state machine hands a meta-command what it runs on (the
 * client's variables, evaluator, connection, position in the script) and
 * gets back what happened: where the script goes next, whether the client
 * sleeps or waits for pipeline results, how many pipeline syncs were sent,
 * or a failure record.  This unit never sees the client itself: it writes
 * only the variable store and connection it is given, and the outcome.
 * Thread-safety: whatever the caller owns; nothing here is shared.
 */
#ifndef PGBENCH_METACMD_H
#define PGBENCH_METACMD_H

#include "pgbench/engine/session.h"

#include "pgbench/script/eval.h"
#include "pgbench/failure/failure.h"
#include "pgbench/script/script.h"
#include "pgbench/script/variables.h"

/* What a meta-command runs on; filled by the caller for each call. */
typedef struct metacmd_env
{
	int			client_id;		/* for messages and traces */
	int			script_index;	/* index of the running script */
	const script *script;		/* the running script */
	int			command;		/* index of the meta-command in it */
	bool		elif_pending;	/* reached this \elif by a false branch */
	var_store  *vars;			/* the client's variables (\set, \setshell write) */
	eval_context *ectx;			/* the client's evaluator context */
	pgb_session	   *conn;			/* the client's connection (pipelines) */
	query_mode	mode;			/* -M */
	bool		debug;			/* -d: trace the command */
	bool		timer_exceeded; /* -T is over: shell failures are quiet */

	/*
	 * -M prepared only: per command of this script, whether it is prepared
	 * on conn (written when \startpipeline prepares the pipeline's
	 * commands) and its statement name.
	 */
	bool	   *prepared;
	char	   *const *prepared_names;
} metacmd_env;

/* Where the client goes after a meta-command. */
typedef enum metacmd_next
{
	METACMD_DONE,				/* on to outcome.next_command */
	METACMD_SLEEP,				/* \sleep until outcome.sleep_until */
	METACMD_PIPELINE_RESULTS,	/* \endpipeline: read results up to the sync */
	METACMD_PREPARING,			/* \startpipeline under -M prepared sent a
								 * PREPARE: read its result, then call
								 * metacmd_pipeline_resume */
	METACMD_FAILED,				/* outcome.failure says why; the client aborts */
} metacmd_next;

/* What happened. */
typedef struct metacmd_outcome
{
	metacmd_next next;
	int			next_command;	/* index of the command to run next */
	bool		elif_pending;	/* next_command is an \elif reached by a false branch */
	int			syncs_sent;		/* pipeline syncs this command sent (0 or 1) */
	pg_time_usec_t sleep_until; /* METACMD_SLEEP: when the sleep ends */
	bool		clock_stale;	/* time passed (evaluation, shell): read it again */
	client_failure *failure;	/* filled on METACMD_FAILED; caller-owned */
} metacmd_outcome;

/*
 * Execute meta-command cmd (env->script's command env->command) at time
 * now.  out->failure must point to a record the caller owns; it is filled
 * only on METACMD_FAILED (with pgbench's cause lines and abort line, see
 * failure.h).  Traces with -d go to stderr as pgbench's debug lines.
 */
void		metacmd_execute(const metacmd_env *env, const command *cmd,
							pg_time_usec_t now, metacmd_outcome *out);

/*
 * After METACMD_PREPARING, once the PREPARE's results are read (a failed
 * one reported with the session's error, as pgbench does): go on with the
 * same \startpipeline (env as for metacmd_execute), which sends the next
 * PREPARE or enters pipeline mode.  No -d trace of the command again.
 */
void		metacmd_pipeline_resume(const metacmd_env *env, metacmd_outcome *out);

/*
 * \set with a valid target and no -d trace to write, the client's hot path
 * (it needs no metacmd_env): evaluate cmd, command index of script
 * script_index, with ectx, whose variables are vars, into its variable.
 * Time has passed, as after metacmd_execute (clock_stale).  false when the
 * evaluation failed; then metacmd_set_failed, with ectx->error as the
 * evaluation left it, fills *out as metacmd_execute would have.
 */
bool		metacmd_set(eval_context *ectx, var_store *vars, int script_index,
						int index, const command *cmd);
void		metacmd_set_failed(const metacmd_env *env, const command *cmd,
							   metacmd_outcome *out);

#endif
