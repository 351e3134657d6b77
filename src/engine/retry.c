/*
 * retry.c — serialization and deadlock failures: SQLSTATE classification,
 * the retry decision and the --verbose-errors lines.  The state machine
 * that rolls back and restarts transactions is in client.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pgbench/base/diag.h"
#include "pgbench/engine/retry.h"

/* The only two SQLSTATEs pgbench treats as worth another try. */
#define SQLSTATE_SERIALIZATION_FAILURE "40001"
#define SQLSTATE_DEADLOCK_DETECTED "40P01"

retry_error
retry_classify_sqlstate(const char *sqlstate)
{
	if (sqlstate == NULL)
		return RETRY_ERROR_OTHER_SQL;
	if (strcmp(sqlstate, SQLSTATE_SERIALIZATION_FAILURE) == 0)
		return RETRY_ERROR_SERIALIZATION;
	if (strcmp(sqlstate, SQLSTATE_DEADLOCK_DETECTED) == 0)
		return RETRY_ERROR_DEADLOCK;
	return RETRY_ERROR_OTHER_SQL;
}

stats_outcome
retry_outcome(retry_error error)
{
	switch (error)
	{
		case RETRY_ERROR_NONE:
			return STATS_SUCCESS;
		case RETRY_ERROR_SERIALIZATION:
			return STATS_SERIALIZATION_FAILURE;
		case RETRY_ERROR_DEADLOCK:
			return STATS_DEADLOCK_FAILURE;
		case RETRY_ERROR_CONNECTION:
			return STATS_CONNECTION_FAILURE;
		case RETRY_ERROR_META:
		case RETRY_ERROR_OTHER_SQL:
			break;
	}
	return STATS_OTHER_FAILURE;
}

retry_decision
retry_decide(const retry_policy *policy, retry_error error, uint32_t tries,
			 int64_t elapsed, bool timer_exceeded)
{
	/* pgbench looks at -T first: a run that is over accounts nothing more */
	if (timer_exceeded)
		return RETRY_FINISH;
	if (!retry_error_is_retriable(error))
		return RETRY_GIVE_UP;
	if (policy->max_tries != 0 && tries >= policy->max_tries)
		return RETRY_GIVE_UP;
	/* strictly more than the limit: a try ending exactly on it may go again */
	if (policy->latency_limit > 0 && elapsed > policy->latency_limit)
		return RETRY_GIVE_UP;
	return RETRY_AGAIN;
}

void
retry_report_error(int client_id, int command_index, int script_index,
				   const char *message)
{
	diag_info("client %d got an error in command %d (SQL) of script %d; %s",
			  client_id, command_index, script_index, message);
}

/*
 * Append to buf at *used like snprintf: keep counting past the end so the
 * caller learns the length it wanted, never write past len.
 */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
			__attribute__((format(printf, 4, 5)));

static void
append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list		ap;
	int			written;

	va_start(ap, fmt);
	written = vsnprintf(*used < len ? buf + *used : NULL,
						*used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
	if (written > 0)
		*used += (size_t) written;
}

int
retry_format_try(char *buf, size_t len, const retry_policy *policy,
				 int client_id, bool retrying, uint32_t tries, int64_t elapsed)
{
	size_t		used = 0;

	if (len > 0)
		buf[0] = '\0';
	append(buf, len, &used, "client %d %s (try %u", client_id,
		   retrying ? "repeats the transaction after the error"
		   : "ends the failed transaction", tries);
	if (policy->max_tries != 0)
		append(buf, len, &used, "/%u", policy->max_tries);
	if (policy->latency_limit > 0)
		append(buf, len, &used, ", %.3f%% of the maximum time of tries was used",
			   100.0 * (double) elapsed / (double) policy->latency_limit);
	append(buf, len, &used, ")");
	return (int) used;
}

void
retry_report_try(const retry_policy *policy, int client_id, bool retrying,
				 uint32_t tries, int64_t elapsed)
{
	char		line[256];

	retry_format_try(line, sizeof(line), policy, client_id, retrying, tries, elapsed);
	diag_info("%s", line);
}
