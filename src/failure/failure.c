/*
 * failure.c — client failure records: filling them, and the one reporter
 * that prints them in pgbench's words.
 */
#include <stdio.h>
#include <string.h>

#include "pgbench/base/diag.h"
#include "pgbench/failure/failure.h"

void
failure_set(client_failure *f, failure_kind kind, int client, int script, int command)
{
	f->kind = kind;
	f->client = client;
	f->script = script;
	f->command = command;
	f->query = 0;
	f->what[0] = '\0';
	f->sqlstate[0] = '\0';
	f->ncauses = 0;
	f->message[0] = '\0';
}

void
failure_message(client_failure *f, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

void
failure_cause(client_failure *f, const char *fmt,...)
{
	va_list		ap;

	if (f->ncauses >= FAILURE_MAX_CAUSES)
		return;
	va_start(ap, fmt);
	vsnprintf(f->causes[f->ncauses++], FAILURE_TEXT_MAX, fmt, ap);
	va_end(ap);
}

int
failure_format(const client_failure *f, char *buf, size_t len)
{
	switch (f->kind)
	{
		case FAILURE_NONE:
			return snprintf(buf, len, "%s", "");
		case FAILURE_COMMAND:
			return snprintf(buf, len, "client %d aborted in command %d (%s) of script %d; %s",
							f->client, f->command, f->what, f->script, f->message);
		case FAILURE_SQL:
			return snprintf(buf, len, "client %d script %d aborted in command %d query %d: %s",
							f->client, f->script, f->command, f->query, f->message);
		case FAILURE_RESULT:
			return snprintf(buf, len, "client %d script %d command %d query %d: %s",
							f->client, f->script, f->command, f->query, f->message);
		case FAILURE_NO_RESULTS:
			return snprintf(buf, len, "client %d command %d: no results",
							f->client, f->command);
		case FAILURE_CLIENT:
			return snprintf(buf, len, "client %d aborted: %s", f->client, f->message);
		case FAILURE_WHILE:
			return snprintf(buf, len, "client %d aborted while %s", f->client, f->message);
		case FAILURE_CONNECT:
			return snprintf(buf, len, "client %d aborted while establishing connection",
							f->client);
		case FAILURE_PLAIN:
			return snprintf(buf, len, "%s", f->message);
	}
	return snprintf(buf, len, "%s", "");
}

void
failure_report(const client_failure *f)
{
	char		line[FAILURE_TEXT_MAX + 128];

	if (f->kind == FAILURE_NONE)
		return;
	for (int i = 0; i < f->ncauses; i++)
		diag_error("%s", f->causes[i]);
	failure_format(f, line, sizeof(line));
	diag_error("%s", line);
}

const char *
failure_kind_name(failure_kind kind)
{
	switch (kind)
	{
		case FAILURE_NONE:
			return "none";
		case FAILURE_COMMAND:
			return "command";
		case FAILURE_SQL:
			return "sql";
		case FAILURE_RESULT:
			return "result";
		case FAILURE_NO_RESULTS:
			return "no_results";
		case FAILURE_CLIENT:
			return "client";
		case FAILURE_WHILE:
			return "while";
		case FAILURE_CONNECT:
			return "connect";
		case FAILURE_PLAIN:
			return "plain";
	}
	return "none";
}
