/*
 * compare_differs.c — what differs between two runs of --compare
 * (compare_diag.h, cmp_diag_differences): a DBA's checklist of the run
 * settings, the -D variables, the scripts and their lines, the server
 * (version, settings with their units, data checksums), the client host,
 * the labels and the connection.
 *
 * Reports come from anyone: every member is read leniently (a member
 * missing or of another kind is "(none)", never a crash), every text is
 * cut at a character boundary and has its control characters masked, and
 * a server setting whose name marks a secret shows nothing but its mask.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_diag.h"
#include "pgbench/base/utf8.h"
#include "pgbench/base/xalloc.h"

/* The server settings read per report (settings, then non_default: 256). */
#define DIFF_MAX_SETTINGS 512

/* ---- reading and texts ------------------------------------------------------ */

/* obj.key, or NULL when obj is no object or has no such member */
static const json_value *
member(const json_value *obj, const char *key)
{
	return obj != NULL && obj->kind == JSON_OBJECT ? json_get(obj, key) : NULL;
}

/*
 * src into dst (len bytes), controls masked; cut at a character boundary,
 * and a character an earlier snprintf cut at its end left out.
 */
static void
put_text(char *dst, size_t len, const char *src)
{
	size_t		n = strlen(src);

	if (n >= len)
		n = len - 1;
	if (n > 0)
	{
		size_t		k = n - 1;

		/* the start of the last character: it must end at n */
		while (k > 0 && ((unsigned char) src[k] & 0xC0) == 0x80)
			k--;
		if (utf8_next((const unsigned char *) src + k, n - k) != (int) (n - k))
			n = k;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
	utf8_mask_controls(dst);
}

/* A scalar JSON value as text: strings as they are, numbers exactly. */
static void
scalar_text(char *buf, size_t len, const json_value *v)
{
	if (v->kind == JSON_NULL)
		snprintf(buf, len, "null");
	else if (v->kind == JSON_BOOL)
		snprintf(buf, len, "%s", v->boolean ? "true" : "false");
	else if (v->kind == JSON_STRING || (v->kind == JSON_NUMBER && v->number == JSON_BIGINT))
		snprintf(buf, len, "%s", v->u.string);	/* a big integer's digits, too */
	else if (v->kind == JSON_NUMBER && v->number == JSON_INT64)
		snprintf(buf, len, "%" PRId64, v->u.integer);
	else if (v->kind == JSON_NUMBER && v->number == JSON_UINT64)
		snprintf(buf, len, "%" PRIu64, v->u.uinteger);
	else if (v->kind == JSON_NUMBER)
		snprintf(buf, len, "%.15g", v->u.real);
	else
		snprintf(buf, len, "(%d %s)", v->n, v->kind == JSON_ARRAY ? "items" : "members");
}

/*
 * A JSON value as one line (into buf): "(none)" when absent, an array of
 * scalars joined by commas ("50,99"), anything else as scalar_text.
 */
static const char *
value_text(char *buf, size_t len, const json_value *v)
{
	size_t		used = 0;

	if (v == NULL)
		snprintf(buf, len, "(none)");
	else if (v->kind != JSON_ARRAY)
		scalar_text(buf, len, v);
	else
	{
		buf[0] = '\0';
		for (int i = 0; i < v->n && used + 1 < len; i++)
		{
			const json_value *item = json_at(v, i);

			if (item->kind == JSON_ARRAY || item->kind == JSON_OBJECT)
			{
				snprintf(buf, len, "(%d items)", v->n);
				break;
			}
			if (i > 0)
				buf[used++] = ',';
			scalar_text(buf + used, len - used, item);
			used += strlen(buf + used);
		}
	}
	return buf;
}

/* A number member's value, NAN when it is none. */
static double
number_of(const json_value *v)
{
	return v != NULL && v->kind == JSON_NUMBER ? json_num(v) : NAN;
}

/* ---- the list ---------------------------------------------------------------- */

/*
 * One difference into d (texts cut and masked); counted in ndiffs_more
 * when the list is full.
 */
static void
add_diff(cmp_diagnosis *d, cmp_diff_kind kind, const char *what, const char *base_text,
		 const char *new_text, double base_num, double new_num)
{
	cmp_difference *x;

	if (d->ndiffs == CMP_DIAG_MAX_DIFFS)
	{
		d->ndiffs_more++;
		return;
	}
	x = &d->diff[d->ndiffs++];
	x->kind = kind;
	put_text(x->what, sizeof(x->what), what);
	put_text(x->base, sizeof(x->base), base_text);
	put_text(x->new, sizeof(x->new), new_text);
	x->base_num = base_num;
	x->new_num = new_num;
}

/* a and b (either may be absent) as a difference, when they are not equal */
static void
diff_values(cmp_diagnosis *d, cmp_diff_kind kind, const char *what, const json_value *a,
			const json_value *b)
{
	char		ta[CMP_DIAG_TEXT],
				tb[CMP_DIAG_TEXT];

	if ((a == NULL && b == NULL) || (a != NULL && b != NULL && json_equal(a, b)))
		return;
	add_diff(d, kind, what, value_text(ta, sizeof(ta), a), value_text(tb, sizeof(tb), b),
			 number_of(a), number_of(b));
}

/* ---- options, labels, connection ------------------------------------------- */

/* The run settings as pgbench's options name them, where one option sets it. */
static const struct
{
	const char *key;
	const char *name;
}			option_names[] = {
	{"query_mode", "query_mode (-M)"},
	{"clients", "clients (-c)"},
	{"threads", "threads (-j)"},
	{"max_tries", "max_tries (--max-tries)"},
	{"transactions_per_client", "transactions_per_client (-t)"},
	{"duration_s", "duration_s (-T)"},
	{"rate_tps", "rate_tps (-R)"},
	{"latency_limit_ms", "latency_limit_ms (-L)"},
	{"connect_each", "connect_each (-C)"},
	{"failures_detailed", "failures_detailed (--failures-detailed)"},
	{"percentiles", "percentiles (--percentiles)"},
	{"server_stats", "server_stats (--server-stats)"},
	{"server_sample_interval_ms", "server_sample_interval_ms (--server-sample-interval)"},
	{"progress_s", "progress_s (-P)"},
	{"warmup_s", "warmup_s (--warmup)"},
};

/* "PREFIXkey", or for the run settings (prefix NULL) the option's name */
static void
member_what(char *buf, size_t len, const char *prefix, const char *key)
{
	if (prefix == NULL)
		for (size_t i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++)
			if (strcmp(option_names[i].key, key) == 0)
			{
				snprintf(buf, len, "%s", option_names[i].name);
				return;
			}
	snprintf(buf, len, "%s%s", prefix != NULL ? prefix : "", key);
}

/*
 * Each member of objects a and b that differs (one side's only: "(none)"
 * on the other), but skip; named by member_what.
 */
static void
diff_members(cmp_diagnosis *d, cmp_diff_kind kind, const char *prefix, const json_value *a,
			 const json_value *b, const char *skip)
{
	char		what[96];

	for (int side = 0; side < 2; side++)
	{
		const json_value *o = side == 0 ? a : b;
		const json_value *other = side == 0 ? b : a;

		for (int i = 0; o != NULL && o->kind == JSON_OBJECT && i < o->n; i++)
		{
			const char *name = json_member_name(o, i);

			if (strcmp(name, skip) == 0 || (side == 1 && member(other, name) != NULL))
				continue;		/* the second pass: only what the first lacks */
			member_what(what, sizeof(what), prefix, name);
			diff_values(d, kind, what, side == 0 ? json_member_value(o, i) : member(other, name),
						side == 0 ? member(other, name) : json_member_value(o, i));
		}
	}
}

/* ---- -D variables ------------------------------------------------------------- */

/* A -D NAME=VALUE of a command line (pointing into its report). */
typedef struct define
{
	const char *name;
	size_t		name_len;
	const char *value;
	int			order;			/* the later of two of a name wins, as in a run */
} define;

/* pgbench's short options that take an argument (-d from 17 on: --dbname) */
#define SHORT_WITH_ARG "bcDfFhIjLMpPRstTU"

/* The long options (pgbench's and ours) that take an argument. */
static const char *const long_with_arg[] = {
	"builtin", "client", "define", "file", "jobs", "latency-limit", "protocol", "progress",
	"rate", "transactions", "time", "dbname", "host", "port", "username", "scale",
	"fillfactor", "init-steps", "index-tablespace", "partition-method", "partitions",
	"tablespace", "aggregate-interval", "log-prefix", "max-tries", "random-seed",
	"sampling-rate", "show-script", "report-json", "report-html", "warmup", "server-stats",
	"server-sample-interval", "metrics-listen", "rendezvous", "rendezvous-timeout", "stages",
	"sweep", "sweep-slo", "sweep-stop-on", "label", "threshold", "compat",
};

/*
 * Whether --NAME (len bytes) takes an argument: it is one of
 * long_with_arg or, as getopt reads abbreviations, the start (three
 * letters or more) of one; --log, whole, is -l (no argument).
 */
static bool
long_takes_arg(const char *name, size_t len)
{
	if (len == 3 && strncmp(name, "log", 3) == 0)
		return false;
	for (size_t i = 0; i < sizeof(long_with_arg) / sizeof(long_with_arg[0]); i++)
		if (len >= 3 && len <= strlen(long_with_arg[i]) && strncmp(name, long_with_arg[i], len) == 0)
			return true;
	return false;
}

/* arg ("NAME=VALUE") into defs, when it is one */
static void
add_define(define *defs, int *n, const char *arg)
{
	const char *eq = arg != NULL ? strchr(arg, '=') : NULL;

	if (eq == NULL || eq == arg)
		return;					/* the run refused it: none */
	defs[*n].name = arg;
	defs[*n].name_len = (size_t) (eq - arg);
	defs[*n].value = eq + 1;
	defs[*n].order = *n;
	(*n)++;
}

/*
 * The short options of a cluster ("-nD", "-Dx=1", "-c 4"): a -D into
 * defs; whether the next argument is an option's value.
 */
static bool
short_cluster(const char *arg, const char *next, bool dbname_d, define *defs, int *n)
{
	for (const char *p = arg + 1; *p != '\0'; p++)
	{
		if (*p == 'D')
		{
			add_define(defs, n, p[1] != '\0' ? p + 1 : next);
			return p[1] == '\0';
		}
		if (strchr(SHORT_WITH_ARG, *p) != NULL || (*p == 'd' && dbname_d))
			return p[1] == '\0';
	}
	return false;
}

/*
 * The -D variables of a report's command_line (-D NAME=VALUE,
 * -DNAME=VALUE, --define=NAME=VALUE, --define NAME=VALUE) into a new
 * array (*n of them): the arguments read as getopt reads them, up to "--".
 */
static define *
read_defines(const json_value *doc, int *n)
{
	const json_value *cl = member(doc, "command_line");
	int			argc = cl != NULL && cl->kind == JSON_ARRAY ? cl->n : 0;
	bool		dbname_d = json_int(member(doc, "compat"), 16) >= 17;
	define	   *defs = pgb_malloc(sizeof(define) * (size_t) (argc + 1));

	*n = 0;
	for (int i = 1; i < argc; i++)
	{
		const char *arg = json_str(json_at(cl, i));
		const char *next = i + 1 < argc ? json_str(json_at(cl, i + 1)) : NULL;

		if (arg == NULL || arg[0] != '-' || arg[1] == '\0')
			continue;			/* DBNAME, or not a string */
		if (strcmp(arg, "--") == 0)
			break;
		if (arg[1] != '-')
			i += short_cluster(arg, next, dbname_d, defs, n);
		else
		{
			const char *eq = strchr(arg + 2, '=');
			size_t		len = eq != NULL ? (size_t) (eq - arg - 2) : strlen(arg + 2);

			if (len >= 3 && len <= 6 && strncmp(arg + 2, "define", len) == 0)
			{
				add_define(defs, n, eq != NULL ? eq + 1 : next);
				i += eq == NULL;
			}
			else if (eq == NULL && long_takes_arg(arg + 2, len))
				i++;
		}
	}
	return defs;
}

static int
name_cmp(const define *a, const define *b)
{
	int			c = memcmp(a->name, b->name, a->name_len < b->name_len ? a->name_len : b->name_len);

	return c != 0 ? c : (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

/* by name, then by order */
static int
define_cmp(const void *x, const void *y)
{
	const define *a = x,
			   *b = y;
	int			c = name_cmp(a, b);

	return c != 0 ? c : a->order - b->order;
}

/* defs sorted by name, each name once with its last value; their count */
static int
settle_defines(define *defs, int n)
{
	int			kept = 0;

	qsort(defs, (size_t) n, sizeof(define), define_cmp);
	for (int i = 0; i < n; i++)
	{
		if (kept > 0 && name_cmp(&defs[kept - 1], &defs[i]) == 0)
			kept--;				/* a later definition of the name wins */
		defs[kept++] = defs[i];
	}
	return kept;
}

/* One variable on one or both sides (a or b NULL: that side lacks it). */
static void
diff_define(cmp_diagnosis *d, const define *a, const define *b)
{
	const define *x = a != NULL ? a : b;
	char		what[96];

	if (a != NULL && b != NULL && strcmp(a->value, b->value) == 0)
		return;
	snprintf(what, sizeof(what), "-D %.*s", (int) (x->name_len < 80 ? x->name_len : 80), x->name);
	add_diff(d, DK_VARIABLE, what, a != NULL ? a->value : "(none)",
			 b != NULL ? b->value : "(none)", NAN, NAN);
}

/* The -D variables whose values differ, or that one side only defines. */
static void
diff_defines(cmp_diagnosis *d, const json_value *a, const json_value *b)
{
	int			na,
				nb,
				i = 0,
				j = 0;
	define	   *da = read_defines(a, &na),
			   *db = read_defines(b, &nb);

	na = settle_defines(da, na);
	nb = settle_defines(db, nb);
	while (i < na || j < nb)
	{
		int			c = i == na ? 1 : j == nb ? -1 : name_cmp(&da[i], &db[j]);

		diff_define(d, c <= 0 ? &da[i] : NULL, c >= 0 ? &db[j] : NULL);
		i += c <= 0;
		j += c >= 0;
	}
	free(da);
	free(db);
}

/* ---- scripts ------------------------------------------------------------------ */

/* A script as a line: "NAME sha256:0123456789ab" (the hash when known) */
static const char *
script_text(char *buf, size_t len, const json_value *s)
{
	const char *name = json_str(member(s, "name"));
	const char *hash = json_str(member(s, "sha256"));

	if (s == NULL)
		return "(none)";
	if (hash != NULL)
		snprintf(buf, len, "%s sha256:%.12s", name != NULL ? name : "?", hash);
	else
		snprintf(buf, len, "%s", name != NULL ? name : "?");
	return buf;
}

/* Each command line (-r) of scripts sa and sb (number n) that differs. */
static void
diff_script_lines(cmp_diagnosis *d, int n, const json_value *sa, const json_value *sb)
{
	const json_value *ca = member(sa, "commands"),
			   *cb = member(sb, "commands");
	int			lines;

	if (ca == NULL || cb == NULL || ca->kind != JSON_ARRAY || cb->kind != JSON_ARRAY)
		return;					/* not both under -r: the hash says it */
	lines = ca->n > cb->n ? ca->n : cb->n;
	for (int k = 0; k < lines; k++)
	{
		const char *la = json_str(member(json_at(ca, k), "line"));
		const char *lb = json_str(member(json_at(cb, k), "line"));
		char		what[96];

		if (la != NULL && lb != NULL && strcmp(la, lb) == 0)
			continue;
		snprintf(what, sizeof(what), "script %d line %d", n, k + 1);
		add_diff(d, DK_SCRIPT_LINE, what, la != NULL ? la : "(none)", lb != NULL ? lb : "(none)",
				 NAN, NAN);
	}
}

/*
 * Each script (by number) whose text (SHA-256) or name differs, one side's
 * only, or whose weight differs; with -r on both sides, its lines that do.
 */
static void
diff_scripts(cmp_diagnosis *d, const json_value *a, const json_value *b)
{
	const json_value *sa = member(a, "scripts"),
			   *sb = member(b, "scripts");
	int			na = sa != NULL && sa->kind == JSON_ARRAY ? sa->n : 0,
				nb = sb != NULL && sb->kind == JSON_ARRAY ? sb->n : 0;

	for (int i = 0; i < (na > nb ? na : nb); i++)
	{
		const json_value *x = i < na ? json_at(sa, i) : NULL,
				   *y = i < nb ? json_at(sb, i) : NULL;
		const json_value *hx = member(x, "sha256"),
				   *hy = member(y, "sha256");
		bool		hashed = json_str(hx) != NULL && json_str(hy) != NULL;
		char		what[96],
					tx[CMP_DIAG_TEXT],
					ty[CMP_DIAG_TEXT];

		snprintf(what, sizeof(what), "script %d", i + 1);
		if (x == NULL || y == NULL || (hashed && !json_equal(hx, hy)) ||
			!json_equal(member(x, "name"), member(y, "name")))
			add_diff(d, DK_SCRIPT, what, script_text(tx, sizeof(tx), x),
					 script_text(ty, sizeof(ty), y), NAN, NAN);
		if (x != NULL && y != NULL && hashed && !json_equal(hx, hy))
			diff_script_lines(d, i + 1, x, y);
		snprintf(what, sizeof(what), "script %d weight", i + 1);
		if (x != NULL && y != NULL)
			diff_values(d, DK_SCRIPT, what, member(x, "weight"), member(y, "weight"));
	}
}

/* ---- server settings, with their units ------------------------------------------ */

/* A unit of pg_settings: its size in bytes (memory) or milliseconds (time). */
typedef struct unit_def
{
	const char *name;
	double		factor;
	bool		memory;
} unit_def;

/* largest first within each kind: the display takes the first exact one */
static const unit_def units[] = {
	{"TB", 1099511627776.0, true}, {"GB", 1073741824.0, true}, {"MB", 1048576.0, true},
	{"kB", 1024.0, true}, {"B", 1.0, true},
	{"d", 86400000.0, false}, {"h", 3600000.0, false}, {"min", 60000.0, false},
	{"s", 1000.0, false}, {"ms", 1.0, false}, {"us", 0.001, false},
};

#define NUNITS ((int) (sizeof(units) / sizeof(units[0])))

/*
 * A pg_settings unit ("8kB", "kB", "16MB", "s", "min") read: its size in
 * bytes or ms into *factor, its kind into *memory; false when unknown.
 */
static bool
read_unit(const char *unit, double *factor, bool *memory)
{
	char	   *end;
	double		count = strtod(unit, &end);

	if (end == unit)
		count = 1.0;			/* no leading count: "kB" */
	if (!(count > 0.0) || !isfinite(count))
		return false;
	for (int u = 0; u < NUNITS; u++)
		if (strcmp(end, units[u].name) == 0)
		{
			*factor = count * units[u].factor;
			*memory = units[u].memory;
			return true;
		}
	return false;
}

/*
 * v (in bytes or ms) in the largest unit of its kind that holds it
 * exactly, as PostgreSQL shows a setting: 134217728 bytes "128MB",
 * 300000 ms "5min"; else in the smallest.
 */
static void
unit_text(char *buf, size_t len, double v, bool memory)
{
	int			last = -1;

	for (int u = 0; u < NUNITS; u++)
	{
		double		x;

		if (units[u].memory != memory)
			continue;
		last = u;
		x = v / units[u].factor;
		if (x >= 1.0 && fabs(x - rint(x)) <= 1e-9 * x)
		{
			snprintf(buf, len, "%.0f%s", rint(x), units[u].name);
			return;
		}
	}
	snprintf(buf, len, "%.15g%s", v / units[last].factor, units[last].name);
}

/* Whether a setting's name marks a secret (the run wrote its value masked). */
static bool
secret_name(const char *name)
{
	static const char *const marks[] = {"conninfo", "command", "passphrase", "password", "secret", "key"};
	char		lower[128];

	put_text(lower, sizeof(lower), name);
	for (char *p = lower; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char) (*p - 'A' + 'a');
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(lower, marks[i]) != NULL)
			return true;
	/* a name longer than the buffer: its masked start is all shown */
	return strlen(name) >= sizeof(lower);
}

/*
 * A setting (pg_settings' value and unit; NULL: not in the report) as
 * shown, into buf; its value in bytes or ms (a number without a unit as
 * it is) into *num, NAN when it is no number.
 */
static void
setting_text(char *buf, size_t len, const char *name, const json_value *s, double *num)
{
	const char *value = json_str(member(s, "value"));
	const char *unit = json_str(member(s, "unit"));
	char	   *end = NULL;
	double		v = value != NULL ? strtod(value, &end) : NAN,
				factor;
	bool		numeric = value != NULL && end != value && *end == '\0' && isfinite(v),
				memory;

	*num = NAN;
	if (s == NULL)
		snprintf(buf, len, "(none)");
	else if (value == NULL)
		snprintf(buf, len, "(not readable)");
	else if (secret_name(name))
		snprintf(buf, len, "********");
	else if (numeric && unit != NULL && v > 0.0 && read_unit(unit, &factor, &memory))
	{
		*num = v * factor;
		unit_text(buf, len, *num, memory);
	}
	else
	{
		/* -1 and 0 mean "off" or "default": shown bare, as PostgreSQL does */
		if (numeric && unit != NULL && !read_unit(unit, &factor, &memory))
			snprintf(buf, len, "%s %s", value, unit);	/* a unit not known: as it is */
		else
			snprintf(buf, len, "%s", value);
		if (numeric && (unit == NULL || read_unit(unit, &factor, &memory)))
			*num = unit == NULL || v <= 0.0 ? v : v * factor;
	}
}

/* One setting of both reports (NULL: not in that one), when it differs. */
static void
diff_setting(cmp_diagnosis *d, const char *name, const json_value *a, const json_value *b)
{
	char		ta[CMP_DIAG_TEXT],
				tb[CMP_DIAG_TEXT];
	double		na,
				nb;

	setting_text(ta, sizeof(ta), name, a, &na);
	setting_text(tb, sizeof(tb), name, b, &nb);
	if (isfinite(na) && isfinite(nb) ? na == nb : strcmp(ta, tb) == 0)
		return;
	add_diff(d, DK_SETTING, name, ta, tb, na, nb);
}

/* A server setting of a report: its name and its pg_settings object. */
typedef struct setting_ref
{
	const char *name;
	const json_value *v;
} setting_ref;

static const json_value *
find_setting(const setting_ref *s, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0)
			return s[i].v;
	return NULL;
}

/*
 * The settings of a report's server (server.settings, then the
 * non_default items not among them) into s; their count.  data_checksums
 * is left out: it is a line of the server's.
 */
static int
read_settings(const json_value *doc, setting_ref *s)
{
	const json_value *server = member(doc, "server");
	const json_value *set = member(server, "settings"),
			   *nd = member(server, "non_default");
	int			n = 0;

	for (int i = 0; set != NULL && set->kind == JSON_OBJECT && i < set->n && n < DIFF_MAX_SETTINGS; i++)
		if (strcmp(json_member_name(set, i), "data_checksums") != 0)
		{
			s[n].name = json_member_name(set, i);
			s[n++].v = json_member_value(set, i);
		}
	for (int i = 0; nd != NULL && nd->kind == JSON_ARRAY && i < nd->n && n < DIFF_MAX_SETTINGS; i++)
	{
		const char *name = json_str(member(json_at(nd, i), "name"));

		if (name != NULL && strcmp(name, "data_checksums") != 0 && find_setting(s, n, name) == NULL)
		{
			s[n].name = name;
			s[n++].v = json_at(nd, i);
		}
	}
	return n;
}

/* Every server setting that differs, with its unit; one side's only: "(none)". */
static void
diff_server_settings(cmp_diagnosis *d, const json_value *a, const json_value *b)
{
	setting_ref *sa = pgb_malloc(sizeof(setting_ref) * DIFF_MAX_SETTINGS),
			   *sb = pgb_malloc(sizeof(setting_ref) * DIFF_MAX_SETTINGS);
	int			na = read_settings(a, sa),
				nb = read_settings(b, sb);

	for (int i = 0; i < na; i++)
		diff_setting(d, sa[i].name, sa[i].v, find_setting(sb, nb, sa[i].name));
	for (int i = 0; i < nb; i++)
		if (find_setting(sa, na, sb[i].name) == NULL)
			diff_setting(d, sb[i].name, NULL, sb[i].v);
	free(sa);
	free(sb);
}

/* ---- the server and the host --------------------------------------------------- */

/*
 * The server: its version (the banner's; the full version() only when
 * those agree), its cluster (system identifier), its data checksums.
 */
static void
diff_server(cmp_diagnosis *d, const json_value *a, const json_value *b)
{
	const json_value *sa = member(a, "server"),
			   *sb = member(b, "server");
	const json_value *va = member(a, "server_version"),
			   *vb = member(b, "server_version");
	char		ta[CMP_DIAG_TEXT],
				tb[CMP_DIAG_TEXT];
	double		na,
				nb;

	if ((va != NULL || vb != NULL) && !(va != NULL && vb != NULL && json_equal(va, vb)))
		add_diff(d, DK_SERVER, "server version", value_text(ta, sizeof(ta), va),
				 value_text(tb, sizeof(tb), vb), number_of(member(sa, "version_num")),
				 number_of(member(sb, "version_num")));
	else
		diff_values(d, DK_SERVER, "server version()", member(sa, "version"), member(sb, "version"));
	diff_values(d, DK_SERVER, "system identifier", member(sa, "system_identifier"),
				member(sb, "system_identifier"));
	sa = member(member(sa, "settings"), "data_checksums");
	sb = member(member(sb, "settings"), "data_checksums");
	setting_text(ta, sizeof(ta), "data_checksums", sa, &na);
	setting_text(tb, sizeof(tb), "data_checksums", sb, &nb);
	if (strcmp(ta, tb) != 0)
		add_diff(d, DK_SERVER, "data_checksums", ta, tb, NAN, NAN);
}

/* The first of a report's points' host.KEY that is a number: NAN when none. */
static double
host_figure(const json_value *doc, const char *key)
{
	const json_value *points = member(member(doc, "series"), "points");

	for (int i = 0; points != NULL && points->kind == JSON_ARRAY && i < points->n; i++)
	{
		double		v = number_of(member(member(json_at(points, i), "host"), key));

		if (isfinite(v))
			return v;
	}
	return NAN;
}

/* v / scale with unit (decimals of them), or "(none)" when it is none */
static const char *
host_text(char *buf, size_t len, double v, double scale, int decimals, const char *unit)
{
	if (!isfinite(v))
		return "(none)";
	snprintf(buf, len, "%.*f%s", decimals, v / scale, unit);
	return buf;
}

/* The client host: its online CPUs and its total memory. */
static void
diff_host(cmp_diagnosis *d, const json_value *a, const json_value *b)
{
	double		ca = host_figure(a, "cpus"),
				cb = host_figure(b, "cpus"),
				ma = 1024.0 * host_figure(a, "mem_total_kb"),
				mb = 1024.0 * host_figure(b, "mem_total_kb");
	char		ta[CMP_DIAG_TEXT],
				tb[CMP_DIAG_TEXT];

	if (!(ca == cb) && (isfinite(ca) || isfinite(cb)))
		add_diff(d, DK_HOST, "online CPUs", host_text(ta, sizeof(ta), ca, 1.0, 0, ""),
				 host_text(tb, sizeof(tb), cb, 1.0, 0, ""), ca, cb);
	if (!(ma == mb) && (isfinite(ma) || isfinite(mb)))
		add_diff(d, DK_HOST, "total memory", host_text(ta, sizeof(ta), ma, 1073741824.0, 1, "GB"),
				 host_text(tb, sizeof(tb), mb, 1073741824.0, 1, "GB"), ma, mb);
}

/* ---- all of it --------------------------------------------------------------- */

/*
 * Everything that differs between the first reports of base and other:
 * the run settings, the -D variables, the scripts, the server, its
 * settings, the client host, the labels and the connection, in that
 * order.
 */
void
cmp_diag_differences(const cmp_side *base, const cmp_side *other, cmp_diagnosis *d)
{
	const json_value *a = &base->runs[0].doc.root;
	const json_value *b = &other->runs[0].doc.root;

	diff_members(d, DK_OPTION, NULL, member(a, "settings"), member(b, "settings"), "random_seed");
	diff_defines(d, a, b);
	diff_scripts(d, a, b);
	diff_server(d, a, b);
	diff_server_settings(d, a, b);
	diff_host(d, a, b);
	diff_members(d, DK_LABEL, "label ", member(a, "labels"), member(b, "labels"), "");
	diff_members(d, DK_CONNECTION, "connection.", member(a, "connection"), member(b, "connection"), "");
}
