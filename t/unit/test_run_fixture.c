/*
 * test_run_fixture.c — a whole run in a child process against the
 * scripted server and scripted sessions (test_run_fixture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pgbench/base/diag.h"
#include "pgbench/offline/json_read.h"
#include "pgbench/run/bench.h"
#include "tap.h"
#include "test_run_fixture.h"
#include "test_run_server.h"

#define RUN_PORT 5499
#define RUN_CHILD_SECONDS 60	/* a run still going then is killed */

const char *const run_refused[] = {NULL};

/* ---- the child ---------------------------------------------------------------- */

static void
write_text(const char *path, const char *text)
{
	FILE	   *f = fopen(path, "w");

	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

/* fd (1 or 2) into a file of the case's directory. */
static void
redirect(int fd, const char *path)
{
	int			to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (to < 0 || dup2(to, fd) < 0)
		_exit(98);
	close(to);
}

static void *
signal_later(void *arg)
{
	int			ms = *(const int *) arg;
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long) (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
	kill(getpid(), SIGINT);
	return NULL;
}

/* The sessions' verdicts into path: "played", or what went wrong. */
static void
write_verdicts(const char *path, pgb_session *const *sessions, int n)
{
	FILE	   *f = fopen(path, "w");

	if (f == NULL)
		return;
	for (int i = 0; i < n; i++)
	{
		if (sessions[i] == NULL)
			fprintf(f, "refused\n");
		else if (ss_mismatch(sessions[i]) != NULL)
			fprintf(f, "session %d: %s\n", i + 1, ss_mismatch(sessions[i]));
		else if (ss_remaining(sessions[i]) > 0)
			fprintf(f, "session %d: %d lines left, at \"%s\"\n", i + 1,
					ss_remaining(sessions[i]), ss_next_line(sessions[i]));
		else
			fprintf(f, "played\n");
	}
	fprintf(f, "connects left: %d\n", ss_connects_left());
	fclose(f);
}

/* The run of c, as main runs it; the exit code. */
static int
child_run(const run_case *c, const char *dir)
{
	char	   *argv[RUN_MAX_ARGS + 12];
	int			argc = 0;
	pgb_options opts;
	pgb_session *sessions[RUN_MAX_SESSIONS];
	int			nsessions = 0;
	pthread_t	signaller;
	int			rc;

	argv[argc++] = (char *) "pgbench";
	argv[argc++] = (char *) "-h";
	argv[argc++] = (char *) dir;
	argv[argc++] = (char *) "-p";
	argv[argc++] = (char *) "5499";
	argv[argc++] = (char *) "--random-seed=1";
	if (c->script != NULL)
	{
		write_text("s.sql", c->script);
		argv[argc++] = (char *) "-f";
		argv[argc++] = (char *) "s.sql";
	}
	for (int i = 0; c->args[i] != NULL; i++)
		argv[argc++] = (char *) c->args[i];
	argv[argc] = NULL;

	pgb_time_init();
	diag_init("pgbench");
	rc = options_parse(&opts, argc, argv);
	if (rc >= 0)
		return rc;
	for (; nsessions < RUN_MAX_SESSIONS && c->sessions[nsessions] != NULL; nsessions++)
	{
		sessions[nsessions] = c->sessions[nsessions] == run_refused
			? NULL : ss_new(c->sessions[nsessions]);
		ss_queue_connect(sessions[nsessions], 0);
	}
	if (c->signal_after_ms > 0)
		pthread_create(&signaller, NULL, signal_later, (void *) &c->signal_after_ms);
	rc = c->sweep ? sweep_run(&opts) : bench_run(&opts);
	fflush(NULL);
	write_verdicts("sessions.txt", sessions, nsessions);
	for (int i = 0; i < nsessions; i++)
		if (sessions[i] != NULL)
			ss_free(sessions[i]);
	if (c->signal_after_ms > 0)
		pthread_join(signaller, NULL);
	options_free(&opts);
	return rc;
}

/*
 * Nothing of the caller's environment in the run: no PG* variable
 * (libpq's connection settings, PGBENCH_COMPAT, PGBENCH_RANDOM_SEED).
 */
static void
clear_pg_environment(void)
{
	extern char **environ;
	bool		found = true;

	while (found)
	{
		found = false;
		for (char **e = environ; *e != NULL; e++)
		{
			char		name[256];
			size_t		n = strcspn(*e, "=");

			if (strncmp(*e, "PG", 2) != 0 || n >= sizeof(name))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int) n, *e);
			unsetenv(name);
			found = true;
			break;
		}
	}
}

/* The child: the server, the redirections, the run; exits with its code. */
static void
child_main(const run_case *c, const char *dir)
{
	run_server *srv = NULL;
	int			rc;

	alarm(RUN_CHILD_SECONDS);
	if (chdir(dir) != 0)
		_exit(97);
	clear_pg_environment();
	setenv("PG_COLOR", "never", 1);
	setenv("TMPDIR", c->tmpdir != NULL ? c->tmpdir : dir, 1);
	if (!c->no_server &&
		(srv = rsrv_start(dir, RUN_PORT, c->version != NULL ? c->version : "15.4",
						  c->rules)) == NULL)
		_exit(96);
	redirect(1, "out.txt");
	redirect(2, "err.txt");
	rc = child_run(c, dir);
	if (srv != NULL)
		rsrv_stop(srv, "queries.txt");
	else
		write_text("queries.txt", "");
	exit(rc);					/* exit, not _exit: coverage counters are written */
}

/* ---- the parent --------------------------------------------------------------- */

static char *
read_file(const char *dir, const char *name)
{
	char		path[256];
	FILE	   *f;
	char	   *text = NULL;
	size_t		len = 0;
	size_t		got;
	char		buf[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
	{
		char	   *grown = realloc(text, len + got + 1);

		if (grown == NULL)
			break;
		text = grown;
		memcpy(text + len, buf, got);
		len += got;
	}
	fclose(f);
	if (text == NULL)
		text = calloc(1, 1);
	else
		text[len] = '\0';
	return text;
}

bool
run_case_run(const run_case *c, run_result *r)
{
	pid_t		pid;
	int			status;

	memset(r, 0, sizeof(*r));
	r->rc = -1;
	snprintf(r->dir, sizeof(r->dir), "/tmp/pgbrun-XXXXXX");
	if (mkdtemp(r->dir) == NULL)
		return tap_ok(false, "%s: a directory (%s)", c->name, strerror(errno));
	fflush(NULL);				/* nothing of the parent's printed twice */
	pid = fork();
	if (pid < 0)
	{
		tap_ok(false, "%s: fork (%s)", c->name, strerror(errno));
		run_result_free(r);
		return false;
	}
	if (pid == 0)
		child_main(c, r->dir);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		r->rc = WEXITSTATUS(status);
	else
		tap_diag("%s: the child died of signal %d", c->name, WTERMSIG(status));
	r->out = read_file(r->dir, "out.txt");
	r->err = read_file(r->dir, "err.txt");
	r->queries = read_file(r->dir, "queries.txt");
	r->sessions = read_file(r->dir, "sessions.txt");
	if (r->out == NULL || r->err == NULL || r->queries == NULL)
	{
		tap_ok(false, "%s: the child ran (status %d)", c->name, status);
		tap_diag("stderr:\n%s", r->err != NULL ? r->err : "(none)");
		run_result_free(r);
		return false;
	}
	if (r->sessions == NULL)
		r->sessions = calloc(1, 1);
	return true;
}

char *
run_file(const run_result *r, const char *name)
{
	return read_file(r->dir, name);
}

void
run_result_free(run_result *r)
{
	char		cmd[128];

	free(r->out);
	free(r->err);
	free(r->queries);
	free(r->sessions);
	if (r->dir[0] != '\0')
	{
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
		if (system(cmd) != 0)
			tap_diag("could not remove %s", r->dir);
	}
	memset(r, 0, sizeof(*r));
}

/* ---- checks ----------------------------------------------------------------- */

bool
run_has(const char *text, const char *want, const char *name)
{
	bool		ok = text != NULL && strstr(text, want) != NULL;

	if (!tap_ok(ok, "%s", name))
		tap_diag("wanted \"%s\" in:\n%s", want, text != NULL ? text : "(nothing)");
	return ok;
}

bool
run_lacks(const char *text, const char *unwanted, const char *name)
{
	bool		ok = text != NULL && strstr(text, unwanted) == NULL;

	if (!tap_ok(ok, "%s", name))
		tap_diag("did not want \"%s\" in:\n%s", unwanted, text != NULL ? text : "(nothing)");
	return ok;
}

void
run_expect(const run_result *r, const char *name, int rc)
{
	char		label[256];
	const char *p = r->sessions;
	bool		played = true;

	snprintf(label, sizeof(label), "%s: exit code %d", name, rc);
	if (!tap_is_int(r->rc, rc, label))
		tap_diag("stderr:\n%s", r->err);
	/* every session line "played" or "refused", then "connects left: 0" */
	while (p != NULL && *p != '\0' && strncmp(p, "connects left: ", 15) != 0)
	{
		if (strncmp(p, "played\n", 7) != 0 && strncmp(p, "refused\n", 8) != 0)
			played = false;
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	if (p == NULL || strcmp(p, "connects left: 0\n") != 0)
		played = false;
	snprintf(label, sizeof(label), "%s: every session played, every connection made", name);
	if (!tap_ok(played, "%s", label))
		tap_diag("%s", r->sessions);
}

void
run_expect_sent(const run_result *r, const char *name, int rc)
{
	char		label[256];
	const char *left = strstr(r->sessions, "connects left: ");

	snprintf(label, sizeof(label), "%s: exit code %d", name, rc);
	if (!tap_is_int(r->rc, rc, label))
		tap_diag("stderr:\n%s", r->err);
	/* a mismatch reads "session N: line L ...", lines left "session N: K lines left" */
	snprintf(label, sizeof(label), "%s: every session sent what it expected, every connection"
			 " made", name);
	if (!tap_ok(strstr(r->sessions, ": line ") == NULL && left != NULL &&
				strcmp(left, "connects left: 0\n") == 0, "%s", label))
		tap_diag("%s", r->sessions);
}

/* The value at path (members separated by ".") as text. */
const char *
run_json(const run_result *r, const char *file, const char *path)
{
	static char value[512];
	char	   *text = run_file(r, file);
	json_doc	doc;
	char		err[256];
	char		key[128];
	const json_value *v;
	const char *p = path;
	bool		found;

	if (text == NULL)
		return NULL;
	if (!json_parse(text, strlen(text), &doc, err, sizeof(err)))
	{
		tap_diag("%s: %s", file, err);
		free(text);
		return NULL;
	}
	free(text);
	v = &doc.root;
	while (v != NULL && *p != '\0')
	{
		size_t		n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int) n, p);
		v = v->kind == JSON_ARRAY ? json_at(v, atoi(key)) : json_get(v, key);
		p += n + (p[n] == '.');
	}
	if (v == NULL)
		value[0] = '\0';
	else if (json_is_null(v))
		snprintf(value, sizeof(value), "null");
	else if (v->kind == JSON_STRING)
		snprintf(value, sizeof(value), "%s", json_str(v));
	else if (v->kind == JSON_BOOL)
		snprintf(value, sizeof(value), "%s", json_bool(v) ? "true" : "false");
	else if (v->kind == JSON_NUMBER)
		snprintf(value, sizeof(value), "%.17g", json_num(v));
	else
		snprintf(value, sizeof(value), "(%s)", json_kind_name(v));
	found = v != NULL;
	json_doc_free(&doc);
	return found ? value : NULL;
}
