/*
 * test_conninfo_mask.c — a database name fit to be shown (conninfo_mask.h):
 * a table of connection strings, conninfo and URI, rebuilt by libpq's
 * parser with their secrets masked or, when libpq rejects them, not shown;
 * libpq's reasons for a rejection as pgbench prints them where they quote
 * a keyword or a URI's part that holds no secret, with "..." where they
 * quote what may (the user info, a value, a word without "="); and which arguments of a command line options_parse
 * shows that way (-d/--dbname's value by mode, the DBNAME argument).
 * No server is needed.  The expected strings follow libpq's order of
 * options (user, password, dbname, host, port, ...), that of libpq 15 and
 * of every version since.
 */
#include <stdlib.h>
#include <string.h>

#include "pgbench/conn/conninfo_mask.h"
#include "pgbench/cli/options_table.h"
#include "tap.h"

#define SECRET "SECRETXYZ"

typedef struct mask_case
{
	const char *name;
	const char *in;
	const char *shown;			/* CONNINFO_NOT_SHOWN: libpq rejects it */
} mask_case;

static const mask_case mask_cases[] = {
	{"plain database name: unchanged", "bench", "bench"},
	{"empty string: unchanged", "", ""},
	{"a name with spaces, no '=': unchanged", "my db", "my db"},
	{"conninfo without a secret: rebuilt", "host=db1 port=5433 dbname=bench",
	"dbname=bench host=db1 port=5433"},
	{"conninfo password", "host=db password=" SECRET " dbname=x",
	"password=" CONNINFO_MASK " dbname=x host=db"},
	{"conninfo sslpassword", "host=h sslpassword=" SECRET, "host=h sslpassword=" CONNINFO_MASK},
	{"password and sslpassword", "sslpassword=" SECRET " password=" SECRET " user=u",
	"user=u password=" CONNINFO_MASK " sslpassword=" CONNINFO_MASK},
	{"spaces around '='", "host = h   password =" SECRET "  user= u",
	"user=u password=" CONNINFO_MASK " host=h"},
	{"quoted password with a space", "password='pa ss " SECRET "' user=u",
	"user=u password=" CONNINFO_MASK},
	{"quoted password with \\'", "password='it\\'s" SECRET "' host=h",
	"password=" CONNINFO_MASK " host=h"},
	{"unquoted password with a backslash escape", "password=a\\ " SECRET " host=h",
	"password=" CONNINFO_MASK " host=h"},
	{"empty password", "password='' host=h", "password=" CONNINFO_MASK " host=h"},
	{"values re-quoted and escaped", "user='it\\'s' application_name='a b' options='-c x=\\\\y'",
	"user='it\\'s' options='-c x=\\\\y' application_name='a b'"},
	{"an empty value is quoted", "host=h application_name=''", "host=h application_name=''"},
	{"mixed with options", "dbname=bench options='-c work_mem=64MB' password=" SECRET
		" sslmode=disable",
	"password=" CONNINFO_MASK " dbname=bench options='-c work_mem=64MB' sslmode=disable"},
	{"URI user:password@", "postgresql://u:" SECRET "@h:5432/db",
	"user=u password=" CONNINFO_MASK " dbname=db host=h port=5432"},
	{"postgres:// URI", "postgres://u:" SECRET "@h/db", "user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"URI without a secret", "postgresql://h/db", "dbname=db host=h"},
	{"URI password= parameter", "postgres://u@h/db?password=" SECRET "&sslmode=disable",
	"user=u password=" CONNINFO_MASK " dbname=db host=h sslmode=disable"},
	{"URI percent-encoded key %70assword", "postgresql://u@h/db?%70assword=" SECRET,
	"user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"URI percent-encoded password", "postgresql://u:%53ECRET%20XYZ@h/db",
	"user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"URI percent-encoded values decoded", "postgresql://%2Ftmp/my%20db?application_name=a%20b",
	"dbname='my db' host=/tmp application_name='a b'"},
	{"URI sslpassword parameter", "postgresql://h/db?sslpassword=" SECRET,
	"dbname=db host=h sslpassword=" CONNINFO_MASK},
	{"URI multiple hosts", "postgresql://u:" SECRET "@host1:5432,host2:5433/db?target_session_attrs=any",
	"user=u password=" CONNINFO_MASK " dbname=db host=host1,host2 port=5432,5433 target_session_attrs=any"},
	{"URI with query parameters", "postgresql:///db?host=/tmp&port=5433&connect_timeout=5",
	"connect_timeout=5 dbname=db host=/tmp port=5433"},
	{"empty URI", "postgresql://", ""},
	{"conninfo: unknown keyword", "host=h password=" SECRET " bogus=1", CONNINFO_NOT_SHOWN},
	{"conninfo: missing '='", "host=h " SECRET " password=x", CONNINFO_NOT_SHOWN},
	{"conninfo: unterminated quote", "host=h password='" SECRET, CONNINFO_NOT_SHOWN},
	{"a name with '=' libpq rejects", "x=1", CONNINFO_NOT_SHOWN},
	{"URI: unknown parameter", "postgresql://u:" SECRET "@h/db?bogus=1", CONNINFO_NOT_SHOWN},
	{"URI: bad percent-encoding in the password", "postgresql://u:" SECRET "%zz@h/db", CONNINFO_NOT_SHOWN},
	{"URI: unclosed IPv6 address", "postgresql://u:" SECRET "@[/db", CONNINFO_NOT_SHOWN},
	{"URI: parameter without '='", "postgresql://h/db?" SECRET, CONNINFO_NOT_SHOWN},
};

static void
test_mask_cases(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(mask_cases); i++)
	{
		const mask_case *c = &mask_cases[i];
		char	   *got = conninfo_mask(c->in);

		tap_is_str(got, c->shown, c->name);
		tap_ok(got != NULL && strstr(got, SECRET) == NULL, "%s: no secret", c->name);
		free(got);
	}
	tap_ok(!conninfo_is_connection_string("bench"), "no '=': a database name");
	tap_ok(conninfo_is_connection_string("a=b"), "'=': a connection string");
	tap_ok(conninfo_is_connection_string("postgres://h"), "postgres://: a URI");
	tap_ok(!conninfo_is_connection_string("POSTGRESQL://h"), "the URI prefix is case-sensitive (as libpq's)");
}

typedef struct reject_case
{
	const char *in;
	const char *text;			/* NULL: not rejected */
} reject_case;

static const reject_case reject_cases[] = {
	{"bench", NULL},
	{"host=h password=" SECRET, NULL},
	/* a keyword is never secret: shown as pgbench shows it */
	{"host=h password=" SECRET " bogus=1", "invalid connection option \"bogus\""},
	{"nosuchkey=1", "invalid connection option \"nosuchkey\""},
	/* ... unless it is found in a value too: a password in a keyword's place */
	{"host=h password=" SECRET " " SECRET "=1", "invalid connection option \"...\""},
	{"a\"b=1", "invalid connection option \"a\"b\""},
	{"postgresql://u:" SECRET "@h/db?nosuch=" SECRET, "invalid URI query parameter: \"nosuch\""},
	{"postgresql://h/db?nosuch=a=" SECRET,
	"extra key/value separator \"=\" in URI query parameter: \"nosuch\""},
	/* a word without "=" may be a misplaced password */
	{"host=h " SECRET " password=x", "missing \"=\" after \"...\" in connection info string"},
	{"host=h password " SECRET, "missing \"=\" after \"password\" in connection info string"},
	{"host=h password='" SECRET, "unterminated quoted string in connection info string"},
	/* a URI's percent-encoded part: shown unless it is the user info or a value */
	{"postgresql://u:" SECRET "@h/%zz", "invalid percent-encoded token: \"%zz\""},
	{"postgresql://u:" SECRET "@h1:5432,h%zz:1/db", "invalid percent-encoded token: \"h1,h%zz\""},
	{"postgresql://[::1]:5%zz/db", "invalid percent-encoded token: \"5%zz\""},
	{"postgresql://h/db?pass%zz=" SECRET, "invalid percent-encoded token: \"pass%zz\""},
	{"postgres://h/db?application_name=%00&x=1", "forbidden value %00 in percent-encoded value: \"...\""},
	{"postgresql://u:" SECRET "%zz@h/db", "invalid percent-encoded token: \"...\""},
	{"postgresql://" SECRET "%zz@h/db", "invalid percent-encoded token: \"...\""},
	{"postgresql://u:%zz@h/%zz", "invalid percent-encoded token: \"...\""},
	{"postgresql://h/db?password=" SECRET "%zz", "invalid percent-encoded token: \"...\""},
	{"postgresql://h/db?sslmode=disable&sslpassword=" SECRET "%zz", "invalid percent-encoded token: \"...\""},
	{"postgresql://u:" SECRET "@[/db",
	"end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"...\""},
	{"postgresql://u:\"" SECRET "\"@[/db",
	"end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"...\""},
	{"postgresql://h/db?" SECRET, "missing key/value separator \"=\" in URI query parameter: \"...\""},
};

static void
test_reject_text(void)
{
	char		buf[256];

	for (size_t i = 0; i < PGB_LENGTHOF(reject_cases); i++)
	{
		const reject_case *c = &reject_cases[i];
		bool		rejected;

		strcpy(buf, "untouched");
		rejected = conninfo_reject_text(c->in, buf, sizeof(buf));
		if (c->text == NULL)
		{
			tap_ok(!rejected, "accepted: %s", c->in);
			tap_is_str(buf, "untouched", "  buffer untouched");
			continue;
		}
		tap_ok(rejected, "rejected: %s", c->in);
		tap_is_str(buf, c->text, "  libpq's reason, nothing secret quoted");
		tap_ok(strstr(buf, SECRET) == NULL, "  no secret");
	}
	tap_ok(conninfo_reject_text("postgresql://u:" SECRET "@[/db", buf, 12) && strlen(buf) < 12,
		   "a short buffer: cut, terminated");
}

/* ---- the command line options_parse shows ----------------------------------- */

#define MAX_ARGV 12

typedef struct argv_case
{
	const char *name;
	const char *args[MAX_ARGV];
	int			at;				/* the argument to check (0: the program) */
	const char *shown;
} argv_case;

static const argv_case argv_cases[] = {
	{"16: DBNAME argument", {"--compat=16", "-n", "host=h password=" SECRET, NULL},
	3, "password=" CONNINFO_MASK " host=h"},
	{"16: -d is --debug, the URI after it the DBNAME", {"--compat=16", "-d", "postgresql://u:" SECRET "@h/db", NULL},
	3, "user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"17: -d VALUE", {"--compat=17", "-d", "password=" SECRET, NULL}, 3, "password=" CONNINFO_MASK},
	{"17: -dVALUE", {"--compat=17", "-dpassword=" SECRET, NULL}, 2, "-dpassword=" CONNINFO_MASK},
	{"17: --dbname=VALUE", {"--compat=17", "--dbname=postgresql://u:" SECRET "@h/db", NULL},
	2, "--dbname=user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"17: --dbname VALUE", {"--compat=17", "--dbname", "host=h sslpassword=" SECRET, NULL},
	3, "host=h sslpassword=" CONNINFO_MASK},
	{"17: --db=VALUE (abbreviated)", {"--compat=17", "--db=password=" SECRET, NULL},
	2, "--db=password=" CONNINFO_MASK},
	{"17: an earlier -d is masked too", {"--compat=17", "-d", "password=" SECRET, "-d", "bench", NULL},
	3, "password=" CONNINFO_MASK},
	{"17: the later -d", {"--compat=17", "-d", "password=" SECRET, "-d", "bench", NULL}, 5, "bench"},
	{"17: a rejected connection string", {"--compat=17", "-d", "bogus=" SECRET, NULL}, 3, CONNINFO_NOT_SHOWN},
	{"a plain DBNAME stays", {"-c", "2", "bench", NULL}, 3, "bench"},
	{"-D's value is no connection string", {"-D", "password=" SECRET, "bench", NULL}, 2, "password=" SECRET},
	{"other arguments stay", {"-D", "password=" SECRET, "bench", NULL}, 1, "-D"},
	{"after --, the DBNAME", {"-n", "--", "postgres://u:" SECRET "@h/db", NULL},
	3, "user=u password=" CONNINFO_MASK " dbname=db host=h"},
	{"with our extensions", {"--report-json=r.json", "host=h password=" SECRET, NULL},
	2, "password=" CONNINFO_MASK " host=h"},
};

static void
test_argv_cases(void)
{
	unsetenv("PGBENCH_COMPAT");
	for (size_t i = 0; i < PGB_LENGTHOF(argv_cases); i++)
	{
		const argv_case *c = &argv_cases[i];
		char	   *argv[MAX_ARGV + 2];
		int			argc = 0;
		pgb_options opts;
		int			rc;

		argv[argc++] = (char *) "pgbench";
		for (int k = 0; c->args[k] != NULL; k++)
			argv[argc++] = (char *) c->args[k];
		argv[argc] = NULL;
		rc = options_parse(&opts, argc, argv);
		tap_is_int(rc, -1, c->name);
		if (rc == -1)
		{
			tap_is_str(opts.argv_shown[c->at], c->shown, "  the argument shown");
			tap_is_str(opts.argv[c->at], c->args[c->at - 1], "  argv itself untouched");
		}
		options_free(&opts);
	}
}

int
main(void)
{
	test_mask_cases();
	test_reject_text();
	test_argv_cases();
	return tap_done();
}
