/*
 * conninfo_mask.h — a database name fit to be shown: a connection string
 * (conninfo or URI) taken apart with libpq's own parser and rebuilt with
 * every secret option masked, so that no password reaches an output, a
 * log or a report file.
 *
 * libpq reads a database name as a connection string when it contains
 * "=" or begins with postgresql:// or postgres:// (expand_dbname); any
 * other name is shown as it is.  A connection string is parsed with
 * PQconninfoParse, which knows every option of the libpq the program runs
 * with: each one set is rebuilt as keyword=value, in libpq's order, the
 * value quoted as conninfo requires ('...' with \' and \\) when it is
 * empty or holds a space, a quote or a backslash; an option whose
 * PQconninfoOption.dispchar is "*" (password, sslpassword, any that a
 * newer libpq adds) shows CONNINFO_MASK instead of its value.  A URI comes
 * out in conninfo form too (postgresql://u:pw@h/db -> user=u
 * password=******** dbname=db host=h).  A string PQconninfoParse rejects
 * might hide a password anywhere: none of it is shown, only
 * CONNINFO_NOT_SHOWN.
 *
 * Stateless and thread-safe; nothing here connects.
 */
#ifndef PGBENCH_CONNINFO_MASK_H
#define PGBENCH_CONNINFO_MASK_H

#include <stdbool.h>
#include <stddef.h>

/* What a secret option's value is shown as. */
#define CONNINFO_MASK "********"

/* What a connection string that libpq cannot parse is shown as. */
#define CONNINFO_NOT_SHOWN "<connection string not shown: libpq cannot parse it>"

/*
 * Whether libpq reads dbname as a connection string: it contains "=" or
 * begins with postgresql:// or postgres:// (libpq's own test).
 */
bool		conninfo_is_connection_string(const char *dbname);

/*
 * A copy of dbname fit to be shown (see above): unchanged when it is not
 * a connection string, else rebuilt with its secrets masked, or
 * CONNINFO_NOT_SHOWN when libpq rejects it.  Returns a malloc'd string;
 * NULL when out of memory.
 */
char	   *conninfo_mask(const char *dbname);

/*
 * When dbname is a connection string that libpq rejects, why, in
 * pgbench's words where they show no secret: PQconninfoParse's message
 * as it is when what it quotes is a keyword (never secret: 'invalid
 * connection option "nosuchkey"', 'invalid URI query parameter: "x"') or
 * a part of a URI that holds none (the percent-encoded hosts, ports,
 * database name or a parameter's keyword: 'invalid percent-encoded
 * token: "%zz"').  Otherwise the message with every quoted part that is
 * not one of libpq's keywords or punctuation marks (= : / ]) replaced by
 * "..." (from its opening quote to the message's last quote): the whole
 * URI, a URI's user or password, a parameter's value, a word without
 * "=" (a password typed in the wrong place?) may be quoted there, and a
 * message of another libpq or in another language is shown so too.  So
 * 'missing "=" after "password" in connection info string' stays as
 * libpq says it, 'invalid percent-encoded token: "..."' hides a
 * password.  Writes it to buf (len bytes, no trailing newline) and
 * returns true; false (buf untouched) when dbname is not a connection
 * string or libpq accepts it.
 */
bool		conninfo_reject_text(const char *dbname, char *buf, size_t len);

#endif
