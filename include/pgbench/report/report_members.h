/*
 * report_members.h — every member of a --report-json document, declared
 * once (included by report_schema.h, which says what the columns mean and
 * how the program uses them):
 *
 *   X(object, id, key, type, nullable, unit, use, flags, schema, meaning)
 *
 * in the order the writer writes them, object by object (REPORT_OBJECTS).
 * flags: 0 or RF_ bits; schema: JSON Schema keywords beyond the type (a
 * pattern, an enum, a const, a minimum, the items of an array of scalars,
 * the members of an object named by data), written as the text of JSON
 * members, "" for none; meaning: the member's row in doc/report-json.md
 * (markdown).  tools/report_format.c makes doc/report-json.schema.json and
 * the member tables of doc/report-json.md from this list, and the tables
 * of the members named by data from their own lists (REPORT_SETTINGS,
 * STATS_COUNTERS, TIMELINE_SERVER_COUNTERS) with their texts from the
 * lists at the end of this file.  Only the generator expands the doc
 * texts: the program carries none of them.
 */
#ifndef PGBENCH_REPORT_MEMBERS_H
#define PGBENCH_REPORT_MEMBERS_H

#define REPORT_MEMBERS(X) \
	X(TOP, SCHEMA_VERSION, "schema_version", RT_INT, false, "", RU_CHECKED, RF_UNSTARTED, \
	  "\"const\": " REPORT_STR(REPORT_JSON_SCHEMA_VERSION), \
	  "5: the layout this page describes (5 added `server_stats`, `servers`, the points' " \
	  "`server` and `host`, and the inputs' `system_identifier` and `server_totals`; " \
	  "`--merge-reports` reads 2 to 5: a report of 4 or older simply has no server figures)") \
	X(TOP, PGBENCH_VERSION, "pgbench_version", RT_STRING, false, "", RU_SHOWN, RF_UNSTARTED, "", \
	  "our version (`pgbench -V`)") \
	X(TOP, RUN_ID, "run_id", RT_STRING, true, "", RU_CHECKED, RF_UNSTARTED, \
	  "\"pattern\": \"^[0-9a-f]{32}$\"", \
	  "this run's identity: 128 random bits (`getrandom()`) as 32 lowercase hexadecimal " \
	  "digits, drawn once per run (so the JSON and HTML reports of one run carry the " \
	  "same), also when the run never started; a merged report has one of its own. " \
	  "`--merge-reports` refuses the same run id twice (doc/fleet.md). Null only if the " \
	  "system gave no random bytes; absent in reports written before it was added (they " \
	  "still merge)") \
	X(TOP, LABELS, "labels", RT_OBJECT, false, "", RU_SHOWN, RF_UNSTARTED, \
	  "\"additionalProperties\": {\"type\": \"string\"}, \"propertyNames\": {\"pattern\": " \
	  "\"^[A-Za-z0-9_.-]{1,63}$\"}", \
	  "`--label KEY=VALUE`: each key (letters, digits, `_`, `.`, `-`; at most 63 bytes) " \
	  "with its value (a string of at most 255 bytes), in the order given; `{}` when none " \
	  "(a merged report: the merge's own `--label`s)") \
	X(TOP, SERVER_VERSION, "server_version", RT_STRING, true, "", RU_READ, RF_UNSTARTED, "", \
	  "the server's, as in the banner; null when no connection was made") \
	X(TOP, OUTCOME, "outcome", RT_STRING, false, "", RU_CHECKED, RF_UNSTARTED, \
	  "\"enum\": [\"completed\", \"aborted\", \"interrupted\", \"failed-to-start\"]", \
	  "how the run ended: `\"completed\"`, `\"aborted\"`, `\"interrupted\"` or " \
	  "`\"failed-to-start\"` (above)") \
	X(TOP, SIGNAL, "signal", RT_STRING, false, "", RU_SHOWN, RF_UNSTARTED | RF_OPTIONAL, \
	  "\"enum\": [\"SIGINT\", \"SIGTERM\"]", \
	  "only when interrupted: `\"SIGINT\"` or `\"SIGTERM\"`") \
	X(TOP, ERROR, "error", RT_STRING, true, "", RU_SHOWN, RF_UNSTARTED, "", \
	  "why the run failed to start or aborted: the first error message the run printed on " \
	  "stderr, without `pgbench: error: ` (for an abort, the first client's abort line); " \
	  "null when completed or interrupted") \
	X(TOP, COMPAT, "compat", RT_INT, false, "", RU_CHECKED, RF_UNSTARTED, "", \
	  "the compatibility mode (`--compat`, 16..19)") \
	X(TOP, COMMAND_LINE, "command_line", RT_ARRAY, false, "", RU_SHOWN, RF_UNSTARTED, \
	  "\"items\": {\"type\": \"string\"}", \
	  "the arguments (strings) as given, `argv[0]` first, except a database name that " \
	  "libpq reads as a connection string (the value of `-d`/`--dbname` from `--compat=17` " \
	  "on, else the DBNAME argument, when it contains `=` or begins with `postgresql://` " \
	  "or `postgres://`): that one is taken apart by libpq's own parser " \
	  "(`PQconninfoParse`) and rebuilt as `keyword=value` pairs in libpq's order, quoted " \
	  "as conninfo requires, with the value of every secret option (`password`, " \
	  "`sslpassword`, any whose `dispchar` is `*` in the libpq used) as `********` — a URI " \
	  "too: `postgresql://u:pw@h/db?sslmode=disable` becomes `user=u password=******** " \
	  "dbname=db host=h sslmode=disable`, and `--dbname=postgresql://u:pw@h/db` becomes " \
	  "`--dbname=user=u password=******** dbname=db host=h`. A string libpq cannot parse " \
	  "is not shown at all: `<connection string not shown: libpq cannot parse it>`. Other " \
	  "arguments are as given. Neither `PGPASSWORD` nor a password file's passwords appear " \
	  "anywhere in the report") \
	X(TOP, START_TIME, "start_time", RT_STRING, true, "", RU_SHOWN, RF_UNSTARTED | RF_UNSTARTED_SET, "", \
	  "the run's start (threads started; `-P` counts from here), ISO 8601 UTC with " \
	  "milliseconds, e.g. `\"2025-01-31T12:00:00.123Z\"`") \
	X(TOP, START_EPOCH_S, "start_epoch_s", RT_NUMBER, true, "s", RU_SHOWN, RF_UNSTARTED | RF_UNSTARTED_SET, "", \
	  "the same as Unix time in seconds") \
	X(TOP, END_TIME, "end_time", RT_STRING, true, "", RU_SHOWN, RF_UNSTARTED | RF_UNSTARTED_SET, "", \
	  "the end of the benchmark, ISO 8601 UTC") \
	X(TOP, END_EPOCH_S, "end_epoch_s", RT_NUMBER, true, "s", RU_SHOWN, RF_UNSTARTED | RF_UNSTARTED_SET, "", \
	  "the same as Unix time") \
	X(TOP, CONNECTION, "connection", RT_OBJECT, true, "", RU_READ, RF_UNSTARTED, "", \
	  "where the set-up connection went, below; null when no connection was made") \
	X(TOP, SETTINGS, "settings", RT_OBJECT, false, "", RU_READ, 0, \
	  "\"$ref\": \"#/$defs/settings\"", \
	  "the run's parameters, below") \
	X(TOP, ABORTED, "aborted", RT_BOOL, false, "", RU_READ, 0, "", \
	  "some client aborted (the text report ends with \"Run was aborted\")") \
	X(TOP, ABORTED_CLIENTS, "aborted_clients", RT_ARRAY, false, "", RU_CHECKED, 0, "", \
	  "one failure record per aborted client, by client id, below") \
	X(TOP, DURATION_S, "duration_s", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "benchmarking time: end minus the first thread's start (connections excluded)") \
	X(TOP, TPS, "tps", RT_NUMBER, true, "", RU_SHOWN, 0, "", \
	  "successful transactions / `duration_s`, the `tps =` line; null when `duration_s` is " \
	  "0 (a merge of reports that benchmarked for no time)") \
	X(TOP, INITIAL_CONNECTION_MS, "initial_connection_ms", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the \"initial connection time\" line; null under `-C`") \
	X(TOP, AVERAGE_CONNECTION_MS, "average_connection_ms", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "under `-C`, the \"average connection time\" line: connection time / (successful + " \
	  "failed)") \
	X(TOP, TRANSACTIONS, "transactions", RT_OBJECT, false, "", RU_READ, 0, "", \
	  "counts, below") \
	X(TOP, RECONNECT, "reconnect", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "`--reconnect`'s outages, below (null without the option)") \
	X(TOP, TEXT_LATENCY_AVERAGE_MS, "text_latency_average_ms", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the figure of the text report's \"latency average\" line, whatever it is: the " \
	  "measured average when `-R`, `-P` or `-L` is given, otherwise derived from the run " \
	  "time as pgbench does (`duration × clients / transactions`, failures included). Not " \
	  "a measurement without those options: `latency_ms.average` is the measured one") \
	X(TOP, TEXT_LATENCY_AVERAGE_DERIVED, "text_latency_average_derived", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "`text_latency_average_ms` was derived from the run time (no `-R`, `-P` or `-L`), " \
	  "not measured") \
	X(TOP, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ, 0, "", \
	  "measured latency of successful transactions, below; its `average` is *the* measured " \
	  "average latency") \
	X(TOP, LAG_MS, "lag_ms", RT_OBJECT, true, "ms", RU_READ, 0, "", \
	  "under `-R`, the schedule lag, below; else null") \
	X(TOP, SCRIPTS, "scripts", RT_ARRAY, false, "", RU_READ, 0, "", \
	  "one object per script, below (also with a single script)") \
	X(TOP, SERVER, "server", RT_OBJECT, true, "", RU_CHECKED, 0, "", \
	  "the server the run went to, below; null in a merged report") \
	X(TOP, CLIENT, "client", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "was the client the bottleneck? below; null in a merged report (per run)") \
	X(TOP, SERVER_STATS, "server_stats", RT_OBJECT, true, "", RU_CHECKED, 0, "", \
	  "the server's side of the run (`--server-stats`, on by default with a report file), " \
	  "below; null with `--server-stats=off` and in a merged report") \
	X(TOP, SERIES, "series", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "the run over time, below; null when not recorded") \
	X(TOP, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "the latency histogram of the successful transactions, exactly mergeable, below; " \
	  "null when none was kept") \
	X(TOP, RENDEZVOUS, "rendezvous", RT_OBJECT, true, "", RU_CHECKED, 0, "", \
	  "under `--rendezvous`, the group this run started with, below; else null") \
	X(TOP, MERGE, "merge", RT_OBJECT, false, "", RU_READ, 0, "", \
	  "the exact figures `--merge-reports` needs besides the above, below") \
	X(TOP, INPUTS, "inputs", RT_ARRAY, true, "", RU_CHECKED, 0, "", \
	  "a merged report: the runs it holds, below; null for a run of its own") \
	X(TOP, SERVERS, "servers", RT_ARRAY, true, "", RU_SHOWN, 0, "", \
	  "a merged report: each server its runs went to, once, below; null for a run of its " \
	  "own") \
	X(TOP, THRESHOLDS, "thresholds", RT_ARRAY, true, "", RU_SHOWN, 0, "", \
	  "`--threshold`: each one checked on this report's figures, below; null when none was " \
	  "given") \
	\
	X(CONNECTION, HOST, "host", RT_STRING, true, "", RU_READ, 0, "", \
	  "`PQhost`: a name, an address or the socket directory; null when libpq gives none") \
	X(CONNECTION, PORT, "port", RT_STRING, true, "", RU_READ, 0, "", \
	  "`PQport`; null when libpq gives none") \
	X(CONNECTION, DATABASE, "database", RT_STRING, true, "", RU_READ, 0, "", \
	  "`PQdb`; null when libpq gives none") \
	\
	X(TRANSACTIONS, FAILED, "failed", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "failed for good: `serialization_failures + deadlock_failures + other_failures + " \
	  "connection_failures`") \
	X(TRANSACTIONS, TOTAL, "total", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "`processed + failed + skipped`: the denominator of the text's percentages") \
	X(TRANSACTIONS, EXPECTED, "expected", RT_INT, true, "", RU_SHOWN, RF_FIRST_HOLDER, "", \
	  "top level only: `-t × clients` (null under `-T`)") \
	X(TRANSACTIONS, LATE, "late", RT_INT, true, "", RU_READ, RF_FIRST_HOLDER, "", \
	  "top level only: successful transactions over the `-L` limit (null without `-L`)") \
	\
	X(RECONNECT, LOSSES, "losses", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "connections lost (outages begun), over all clients") \
	X(RECONNECT, RECONNECTS, "reconnects", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "successful reconnections") \
	X(RECONNECT, FAILED, "failed", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "transactions in flight when their connection was lost (= " \
	  "`transactions.connection_failures`)") \
	X(RECONNECT, WINDOW_MS, "window_ms", RT_NUMBER, false, "ms", RU_SHOWN, 0, "", \
	  "from the first loss of any client to the last reconnection (or end of a client " \
	  "still down); 0 when nothing was lost") \
	X(RECONNECT, FIRST_LOSS_S, "first_loss_s", RT_NUMBER, true, "s", RU_SHOWN, 0, "", \
	  "when the first connection was lost; null when none was") \
	X(RECONNECT, LAST_BACK_S, "last_back_s", RT_NUMBER, true, "s", RU_SHOWN, 0, "", \
	  "when the last client came back (or ended while down); null when none was lost") \
	X(RECONNECT, DOWNTIME_MAX_MS, "downtime_max_ms", RT_NUMBER, false, "ms", RU_SHOWN, 0, "", \
	  "the longest one client was down, its outages summed") \
	X(RECONNECT, DOWNTIME_TOTAL_MS, "downtime_total_ms", RT_NUMBER, false, "ms", RU_SHOWN, 0, "", \
	  "every client's outages summed") \
	X(RECONNECT, CLIENTS_DOWN_AT_END, "clients_down_at_end", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "clients whose run ended while they were disconnected") \
	\
	X(LATENCY, COUNT, "count", RT_INT, false, "", RU_READ, 0, "", \
	  "transactions measured") \
	X(LATENCY, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "mean; null when none was measured") \
	X(LATENCY, STDDEV, "stddev", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "population standard deviation; null when none was measured") \
	X(LATENCY, MIN, "min", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the exact minimum; null when none was measured") \
	X(LATENCY, MAX, "max", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the exact maximum; null when none was measured") \
	X(LATENCY, PERCENTILES, "percentiles", RT_OBJECT, false, "ms", RU_SHOWN, 0, \
	  "\"propertyNames\": {\"pattern\": \"^p[0-9.e+-]+$\"}, \"additionalProperties\": " \
	  "{\"type\": [\"number\", \"null\"]}", \
	  "one member per percentile of the report list, named `p` + the value as settings " \
	  "print it (`\"p50\"`, `\"p99.9\"`, `\"p99.99999\"`: up to 15 significant digits as " \
	  "given, more only when needed to read back the same number); empty without " \
	  "transactions") \
	\
	X(LAG, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "lag sum / successful; null when none succeeded") \
	X(LAG, MAX, "max", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the largest lag; null when none was measured") \
	\
	X(SCRIPT, NUMBER, "number", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "1-based, as \"SQL script N\"") \
	X(SCRIPT, NAME, "name", RT_STRING, false, "", RU_CHECKED, 0, "", \
	  "its description (file name or `<builtin: ...>`)") \
	X(SCRIPT, SHA256, "sha256", RT_STRING, true, "", RU_CHECKED, 0, \
	  "\"pattern\": \"^[0-9a-f]{64}$\"", \
	  "the SHA-256 of the script's text (64 lowercase hexadecimal digits): two runs of the " \
	  "same script have the same; `--merge-reports` refuses reports whose scripts' texts " \
	  "differ, and keeps it; null when unknown (a merge of reports written before it)") \
	X(SCRIPT, WEIGHT, "weight", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "the `@W` weight") \
	X(SCRIPT, WEIGHT_PCT, "weight_pct", RT_NUMBER, false, "%", RU_SHOWN, 0, "", \
	  "weight / total weight × 100 (\"targets N% of total\")") \
	X(SCRIPT, TRANSACTIONS, "transactions", RT_OBJECT, false, "", RU_READ, 0, "", \
	  "as above, for this script (with one script: the totals)") \
	X(SCRIPT, PROCESSED_PCT, "processed_pct", RT_NUMBER, true, "%", RU_SHOWN, 0, "", \
	  "its successful transactions / all successful × 100; null when none succeeded") \
	X(SCRIPT, TPS, "tps", RT_NUMBER, true, "", RU_SHOWN, 0, "", \
	  "its successful transactions / `duration_s`; null when `duration_s` is 0") \
	X(SCRIPT, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ, 0, "", \
	  "as above, for this script") \
	X(SCRIPT, COMMANDS, "commands", RT_ARRAY, true, "", RU_READ, 0, "", \
	  "with `-r`, one object per command; else null") \
	X(SCRIPT, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "with several scripts, the script's own histogram (as the top level's, below); null " \
	  "with one script (the top level's is its)") \
	\
	X(COMMAND, NUMBER, "number", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "0-based index in the script, as in pgbench's messages") \
	X(COMMAND, LINE, "line", RT_STRING, false, "", RU_CHECKED, 0, "", \
	  "the command's first line, as the `-r` report shows it") \
	X(COMMAND, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ, 0, "", \
	  "`count`, `average`, `stddev`, `min`, `max` of the command's executions (each try " \
	  "counts: a retried transaction runs its commands again), and `percentiles` as above " \
	  "from the command's own histogram (kept under `-r` when a report file is written; " \
	  "else empty)") \
	X(COMMAND, FAILURES, "failures", RT_INT, false, "", RU_READ, 0, "", \
	  "transactions that failed for good at this command") \
	X(COMMAND, RETRIES, "retries", RT_INT, false, "", RU_READ, 0, "", \
	  "retries started from an error at this command") \
	X(COMMAND, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "the command's histogram, as the top level's, with the exact sums of its `latency_ms`") \
	\
	X(ABORT, CLIENT, "client", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "the client's id (`:client_id`)") \
	X(ABORT, AT_S, "at_s", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "when it aborted, seconds since `start_time`") \
	X(ABORT, KIND, "kind", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "`command`, `sql`, `result`, `no_results`, `client`, `while`, `connect` or `plain` " \
	  "(`failure_kind_name`)") \
	X(ABORT, SCRIPT, "script", RT_INT, true, "", RU_CHECKED, 0, "", \
	  "0-based script index, for a failure at a command") \
	X(ABORT, COMMAND, "command", RT_INT, true, "", RU_CHECKED, 0, "", \
	  "0-based command index in the script, for a failure at a command") \
	X(ABORT, QUERY, "query", RT_INT, true, "", RU_SHOWN, 0, "", \
	  "the query's number within the command, for an SQL failure") \
	X(ABORT, SQLSTATE, "sqlstate", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "the server's SQLSTATE, for an SQL error") \
	X(ABORT, CAUSES, "causes", RT_ARRAY, false, "", RU_SHOWN, 0, \
	  "\"items\": {\"type\": \"string\"}", \
	  "the lines (strings) pgbench printed before the abort line (e.g. an evaluator " \
	  "message)") \
	X(ABORT, MESSAGE, "message", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "the abort line's message") \
	X(ABORT, LINE, "line", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "the abort line as printed on stderr, without `pgbench: error: `") \
	\
	X(SERVER, VERSION_NUM, "version_num", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "`PQserverVersion`") \
	X(SERVER, VERSION, "version", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "`version()`; null when it could not be read (`unreadable` says so)") \
	X(SERVER, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_CHECKED, 0, "", \
	  "from `pg_control_system()`, as a string; null when the role may not call it: " \
	  "superusers and `pg_monitor` may") \
	X(SERVER, SETTINGS, "settings", RT_OBJECT, false, "", RU_SHOWN, 0, \
	  "\"$ref\": \"#/$defs/server_settings\"", \
	  "`shared_buffers`, `max_wal_size`, `checkpoint_timeout`, `wal_level`, " \
	  "`synchronous_commit`, `fsync`, `full_page_writes`, `max_connections`, `work_mem`, " \
	  "`jit`, `huge_pages`, `data_checksums`: each an object of `value`, `unit` and " \
	  "`source` (below) as `pg_settings` has them, null when the role cannot see it") \
	X(SERVER, NON_DEFAULT, "non_default", RT_ARRAY, false, "", RU_SHOWN, 0, "", \
	  "every setting whose `source` is neither `default` nor `override`, by name, each an " \
	  "object (below) with its `name`, at most 256") \
	X(SERVER, NON_DEFAULT_TRUNCATED, "non_default_truncated", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "there were more than 256 such settings: the rest are not listed") \
	X(SERVER, UNREADABLE, "unreadable", RT_ARRAY, false, "", RU_SHOWN, 0, \
	  "\"items\": {\"type\": \"string\"}", \
	  "what the role could not read (strings): `\"pg_control_system()\"`, " \
	  "`\"pg_settings\"`, `\"version()\"`") \
	\
	X(SERVER_SETTING, NAME, "name", RT_STRING, false, "", RU_SHOWN, RF_FIRST_HOLDER, "", \
	  "the setting's name; only in `non_default`'s items (a member of `settings` is named " \
	  "by its key)") \
	X(SERVER_SETTING, VALUE, "value", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "its value (`********` for a secret, above)") \
	X(SERVER_SETTING, UNIT, "unit", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "its unit; null when none") \
	X(SERVER_SETTING, SOURCE, "source", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "where the value came from (`default`, `configuration file`, ...)") \
	\
	X(CLIENT, BUSIEST_THREAD, "busiest_thread", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "the worker thread (from 0) that was busiest while it benchmarked") \
	X(CLIENT, BUSIEST_THREAD_BUSY_PCT, "busiest_thread_busy_pct", RT_NUMBER, false, "%", RU_SHOWN, 0, "", \
	  "the share of that time it was on a CPU or waiting for one (runnable: from " \
	  "`/proc/thread-self/schedstat`, else its CPU clock), so a thread starved of CPU " \
	  "counts as busy; 100% means it never waited for the server") \
	X(CLIENT, BOUND, "bound", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "over 90%, in a run of at least 1 s; the text report is then followed by `pgbench: " \
	  "warning: the client may have limited the result: worker thread N was busy P% of the " \
	  "time (on a CPU or waiting for one)` on stderr, and the HTML page says so") \
	X(CLIENT, INTERVALS_BOUND, "intervals_bound", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "the series' intervals (of at least 0.5 s) in which a worker thread used over 90% of " \
	  "a CPU (`series.points[].client.busiest_thread_cpu_pct`)") \
	\
	X(SERVER_STATS, MONITORED, "monitored", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "the monitor ran (else `notes` say why)") \
	X(SERVER_STATS, APPLICATION_NAME, "application_name", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "the name that marks the run's backends") \
	X(SERVER_STATS, LOCAL, "local", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "the server runs on this host: its backend's process is a `postgres` one here, child " \
	  "of a `postgres` one (the postmaster), over a socket or a loopback address; then " \
	  "each point's `server.processes` is read") \
	X(SERVER_STATS, SAMPLE_INTERVAL_MS, "sample_interval_ms", RT_NUMBER, false, "ms", RU_SHOWN, 0, "", \
	  "how often the run's backends' wait events were sampled (`--server-sample-interval`, " \
	  "default 100)") \
	X(SERVER_STATS, TOTALS, "totals", RT_OBJECT, true, "", RU_CHECKED, 0, \
	  "\"$ref\": \"#/$defs/server_counters\"", \
	  "the counters' growth over the run (below), read before the clients connected and " \
	  "after their sessions had ended, once the server's statistics had taken them in (the " \
	  "monitor waits for the sessions to end, has its own counts flushed — " \
	  "`pg_stat_force_next_flush()` from 15 on, else a pause — and reads until two reads " \
	  "agree: `settled`); `database.xact_commit` without the monitor's own transactions; " \
	  "null when they could not be read") \
	X(SERVER_STATS, OWN_COMMITS, "own_commits", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "the monitor's own transactions in that span, taken out of `xact_commit`") \
	X(SERVER_STATS, SETTLED, "settled", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "the last two reads after the run agreed") \
	X(SERVER_STATS, COMMITS, "commits", RT_OBJECT, false, "", RU_SHOWN, 0, "", \
	  "the commit check, below") \
	X(SERVER_STATS, CHECKPOINTS, "checkpoints", RT_ARRAY, false, "", RU_SHOWN, 0, "", \
	  "each checkpoint that ended during the run, below") \
	X(SERVER_STATS, CHECKPOINTS_TRUNCATED, "checkpoints_truncated", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "more than 256 checkpoints: the rest are not listed") \
	X(SERVER_STATS, WAIT_EVENTS, "wait_events", RT_OBJECT, false, "", RU_SHOWN, 0, "", \
	  "the run's backends' wait events over the run, below") \
	X(SERVER_STATS, NOTES, "notes", RT_ARRAY, false, "", RU_SHOWN, 0, \
	  "\"items\": {\"type\": \"string\"}", \
	  "what the monitor could not do or read, and why (strings)") \
	\
	X(COMMITS, CHECKED, "checked", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "the server's count was read and the scripts' commits are known") \
	X(COMMITS, NOT_CHECKED_BECAUSE, "not_checked_because", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "why not: the server's counts could not be read, a script whose commits depend on " \
	  "what runs (`\\if`, `\\shell`, a transaction left open, two-phase commit, CALL or " \
	  "DO, VACUUM and the like), prepared statements whose text depends on variables, or " \
	  "other sessions with the run's name (a fleet on one server)") \
	X(COMMITS, SERVER, "server", RT_INT, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "the server's `xact_commit` growth without the monitor's own") \
	X(COMMITS, EXPECTED, "expected", RT_INT, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "each script's processed transactions times what one pass of it commits, worked out " \
	  "from its text (a statement outside a transaction block is one commit, a `BEGIN` … " \
	  "`COMMIT` block one, a `ROLLBACK` none, a pipeline one per sync), plus one per " \
	  "client connection, and under `-M prepared` one per prepared statement per connection") \
	X(COMMITS, DIFFERENCE, "difference", RT_INT, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "`server` − `expected`") \
	X(COMMITS, EXPLAINED, "explained", RT_INT, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "how far they may differ: a failed, retried or cut-short pass may have committed " \
	  "part of what a whole pass does, prepares of scripts a connection did not run, and " \
	  "the server's own sessions such as autovacuum (20 commits and 1% of `expected`)") \
	X(COMMITS, AGREES, "agrees", RT_BOOL, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "\\|`difference`\\| ≤ `explained`; when not, the text report is followed on stderr " \
	  "by `pgbench: warning: the server counted N commits on the database during the run, " \
	  "M were expected from the transactions processed (a difference of D; E would be " \
	  "explained)`") \
	\
	X(CHECKPOINT, START_S, "start_s", RT_NUMBER, true, "s", RU_SHOWN, 0, "", \
	  "when it began, seconds since `start_time`, from `pg_control_checkpoint()`; negative " \
	  "when before the run; null when the role may not read it") \
	X(CHECKPOINT, ENDED_BY_S, "ended_by_s", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "the end of the interval in which it was seen to end") \
	\
	X(WAITS, SAMPLES, "samples", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "how many samples of `pg_stat_activity` were taken") \
	X(WAITS, ALL_STATES, "all_states", RT_BOOL, false, "", RU_SHOWN, RF_OPTIONAL, "", \
	  "the samples counted the run's backends in every state, idle ones included: the " \
	  "counts summed over all events, divided by `samples`, are the run's backends on " \
	  "average, and an event's count / `samples` × the time sampled is the backends' time " \
	  "in it; true whenever the monitor ran (`monitored`); absent, to be read as false, in " \
	  "reports written before it, whose samples left out sessions in the state `idle`") \
	X(WAITS, COUNTS, "counts", RT_OBJECT, false, "", RU_SHOWN, 0, \
	  "\"additionalProperties\": {\"type\": \"integer\"}", \
	  "`\"Type:Event\"` → backends seen in it, summed over the samples; a backend active " \
	  "on a CPU (waiting for nothing) is `\"CPU\"`; `\"Client:ClientRead\"` is a session " \
	  "waiting for its client (the network and the client's own time): inside a " \
	  "transaction, and, with `all_states`, idle between statements and transactions " \
	  "(`idle`, `idle in transaction`, `idle in transaction (aborted)`: their wait event, " \
	  "`\"Client:ClientRead\"` when the server names none); a session whose state is not " \
	  "shown (`track_activities` off) is not counted") \
	X(WAITS, OTHER, "other", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "events beyond the 64 kept (a point's: beyond its 12 most seen)") \
	\
	X(SERIES, INTERVAL_S, "interval_s", RT_NUMBER, false, "s", RU_CHECKED, 0, "", \
	  "the interval") \
	X(SERIES, INCOMPLETE, "incomplete", RT_BOOL, false, "", RU_READ, 0, "", \
	  "a record could not be kept (memory ran short), or a merged report's input was " \
	  "incomplete") \
	X(SERIES, SUB_BUCKET_BITS, "sub_bucket_bits", RT_INT, false, "", RU_CHECKED, 0, \
	  "\"const\": 3", \
	  "3: the layout of the points' histograms (below)") \
	X(SERIES, POINTS, "points", RT_ARRAY, false, "", RU_READ, 0, "", \
	  "one object per interval, below") \
	\
	X(POINT, T_S, "t_s", RT_NUMBER, false, "s", RU_READ, 0, "", \
	  "end of the interval, seconds since `start_time` (as `-P` prints it, to the " \
	  "microsecond)") \
	X(POINT, INTERVAL_S, "interval_s", RT_NUMBER, false, "s", RU_READ, 0, "", \
	  "its length: the time between the two ticks (the last one ends with the run)") \
	X(POINT, TPS, "tps", RT_NUMBER, false, "", RU_SHOWN, 0, "", \
	  "successful transactions / `interval_s`") \
	X(POINT, PROCESSED, "processed", RT_INT, false, "", RU_READ, 0, "", \
	  "successful transactions accounted in it") \
	X(POINT, FAILURES, "failures", RT_INT, false, "", RU_READ, 0, "", \
	  "transactions that failed for good in it") \
	X(POINT, RETRIED, "retried", RT_INT, false, "", RU_READ, 0, "", \
	  "transactions in it that were retried") \
	X(POINT, RETRIES, "retries", RT_INT, false, "", RU_READ, 0, "", \
	  "retries of the transactions in it") \
	X(POINT, SKIPPED, "skipped", RT_INT, false, "", RU_READ, 0, "", \
	  "`-R` slots skipped in it (`-L`)") \
	X(POINT, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ, 0, "", \
	  "of its successful transactions, below") \
	X(POINT, LAG_MS, "lag_ms", RT_OBJECT, true, "ms", RU_SHOWN, 0, "", \
	  "under `-R`, below; else null") \
	X(POINT, CLIENT, "client", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "the client process in the interval, below; null when not read") \
	X(POINT, SERVER, "server", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "the server in the interval (`--server-stats`), below; null when off") \
	X(POINT, HOST, "host", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "the client host in the interval, below; null when `/proc/stat` cannot be read and " \
	  "in a merged report") \
	X(POINT, HISTOGRAM, "histogram", RT_OBJECT, true, "", RU_READ, 0, "", \
	  "what merges the point exactly with other reports' (`--merge-reports`), below; null " \
	  "for an interval with no success") \
	X(POINT, STAGE_TARGET, "stage_target", RT_NUMBER, true, "", RU_READ, RF_OPTIONAL, \
	  "\"minimum\": 0", \
	  "`--stages`: the plan's clients (or tps, in the rate form) at the point's end, " \
	  "summed over a merged report's runs; null without; absent from reports written " \
	  "before it was added (read as null)") \
	\
	X(POINT_LATENCY, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the mean latency") \
	X(POINT_LATENCY, STDDEV, "stddev", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the population standard deviation; null in a merge of inputs of schema 2 or 3") \
	X(POINT_LATENCY, MIN, "min", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the lower bound of the lowest bucket used") \
	X(POINT_LATENCY, P50, "p50", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the 50th percentile") \
	X(POINT_LATENCY, P90, "p90", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the 90th percentile") \
	X(POINT_LATENCY, P99, "p99", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the 99th percentile") \
	X(POINT_LATENCY, P99_9, "p99.9", RT_NUMBER, true, "ms", RU_READ, 0, "", \
	  "the 99.9th percentile") \
	X(POINT_LATENCY, MAX, "max", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the upper bound of the highest bucket used") \
	\
	X(POINT_LAG, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN, 0, "", \
	  "the mean schedule lag of the interval's successful transactions; null when none") \
	\
	X(POINT_CLIENT, CPU_USER_S, "cpu_user_s", RT_NUMBER, false, "s", RU_READ, 0, "", \
	  "user CPU time of all its threads, from `getrusage`") \
	X(POINT_CLIENT, CPU_SYSTEM_S, "cpu_system_s", RT_NUMBER, false, "s", RU_READ, 0, "", \
	  "system CPU time of all its threads, from `getrusage`") \
	X(POINT_CLIENT, BUSIEST_THREAD_CPU_PCT, "busiest_thread_cpu_pct", RT_NUMBER, false, "%", RU_READ, 0, "", \
	  "the highest share of one CPU that a worker thread used, from its CPU clock") \
	X(POINT_CLIENT, RSS_KB, "rss_kb", RT_INT, true, "kB", RU_READ, 0, "", \
	  "resident memory at the end, from `/proc/self/statm`; null if unreadable") \
	\
	X(POINT_SERVER, COUNTERS, "counters", RT_OBJECT, true, "", RU_SHOWN, 0, \
	  "\"$ref\": \"#/$defs/server_counters\"", \
	  "the counters' growth since the previous point with counters, by group (above): the " \
	  "snapshot is read right after the tick (the server's clock, `clock_timestamp()`), so " \
	  "the monitor's few queries per second are in `xact_commit`; null when the snapshot " \
	  "came too late (the next point's cover both)") \
	X(POINT_SERVER, CHECKPOINT_START_S, "checkpoint_start_s", RT_NUMBER, true, "s", RU_SHOWN, 0, "", \
	  "a checkpoint ended in the interval and began then (seconds since `start_time`)") \
	X(POINT_SERVER, WAIT_EVENTS, "wait_events", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "the interval's samples as in `server_stats.wait_events`, with the 12 most seen " \
	  "events and the rest in `other`; null when the monitor did not run") \
	X(POINT_SERVER, PROCESSES, "processes", RT_OBJECT, true, "", RU_SHOWN, 0, "", \
	  "a local server's processes, below; null when the server is not on this host") \
	\
	X(PROCESSES, COUNT, "count", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "how many there were at the end") \
	X(PROCESSES, CPU_USER_S, "cpu_user_s", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "their user CPU time in the interval (processes that ended count through the " \
	  "postmaster's reaped-children times)") \
	X(PROCESSES, CPU_SYSTEM_S, "cpu_system_s", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "their system CPU time in the interval, likewise") \
	X(PROCESSES, READ_BYTES, "read_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "storage reads in the interval, from `/proc/PID/io`; null when not readable, as for " \
	  "a server of another user without root") \
	X(PROCESSES, WRITE_BYTES, "write_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "storage writes in the interval, likewise") \
	X(PROCESSES, CTXSW_VOLUNTARY, "ctxsw_voluntary", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "voluntary context switches of the processes alive at both ends") \
	X(PROCESSES, CTXSW_INVOLUNTARY, "ctxsw_involuntary", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "involuntary context switches of the processes alive at both ends") \
	\
	X(HOST, CPUS, "cpus", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "online CPUs") \
	X(HOST, CPU_S, "cpu_s", RT_OBJECT, false, "s", RU_SHOWN, 0, "", \
	  "CPU seconds of all CPUs in the interval by state, from `/proc/stat`, below") \
	X(HOST, MEM_TOTAL_KB, "mem_total_kb", RT_INT, true, "kB", RU_SHOWN, 0, "", \
	  "total memory at the end, `/proc/meminfo`") \
	X(HOST, MEM_AVAILABLE_KB, "mem_available_kb", RT_INT, true, "kB", RU_SHOWN, 0, "", \
	  "available memory at the end, `/proc/meminfo`") \
	X(HOST, NET_RX_BYTES, "net_rx_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "received on every interface but `lo`, `/proc/net/dev`") \
	X(HOST, NET_TX_BYTES, "net_tx_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "sent on every interface but `lo`, `/proc/net/dev`") \
	X(HOST, DISK_READ_BYTES, "disk_read_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "read from whole disks, `/proc/diskstats`: devices of `/sys/block` but loop, ram and " \
	  "zram devices and those stacked on others") \
	X(HOST, DISK_WRITE_BYTES, "disk_write_bytes", RT_INT, true, "bytes", RU_SHOWN, 0, "", \
	  "written to whole disks, likewise") \
	\
	X(HOST_CPU, USER, "user", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds in user mode") \
	X(HOST_CPU, NICE, "nice", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds in user mode at low priority") \
	X(HOST_CPU, SYSTEM, "system", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds in system mode") \
	X(HOST_CPU, IDLE, "idle", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds idle") \
	X(HOST_CPU, IOWAIT, "iowait", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds idle waiting for I/O") \
	X(HOST_CPU, IRQ, "irq", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds serving interrupts") \
	X(HOST_CPU, SOFTIRQ, "softirq", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds serving softirqs") \
	X(HOST_CPU, STEAL, "steal", RT_NUMBER, false, "s", RU_SHOWN, 0, "", \
	  "seconds stolen by the hypervisor") \
	\
	X(POINT_HIST, MIN_US, "min_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the lowest latency, whole us, as `latency_ms`") \
	X(POINT_HIST, MAX_US, "max_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the highest latency, whole us, as `latency_ms`") \
	X(POINT_HIST, LATENCY_SUM_US, "latency_sum_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "the exact sum of the latencies") \
	X(POINT_HIST, LATENCY_SUM_SQUARES_US, "latency_sum_squares_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "the exact sum of their squares") \
	X(POINT_HIST, LAG_SUM_US, "lag_sum_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "the exact sum of the schedule lags") \
	X(POINT_HIST, BUCKETS, "buckets", RT_ARRAY, false, "", RU_READ, 0, \
	  "\"items\": {\"type\": \"array\", \"items\": {\"type\": \"integer\"}}", \
	  "`[index, count]` pairs in the layout of `latency_histogram` with `sub_bucket_bits` " \
	  "3 (8 buckets per power of two, each at most 1/8 of its lowest value wide; 238 " \
	  "buckets up to one hour)") \
	\
	X(HISTOGRAM, LAYOUT, "layout", RT_STRING, false, "", RU_CHECKED, 0, \
	  "\"const\": \"log-linear\"", \
	  "`\"log-linear\"`") \
	X(HISTOGRAM, SUB_BUCKET_BITS, "sub_bucket_bits", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "B = 7: values below 2^(B+1) = 256 us have a bucket each; above, each power of two " \
	  "[2^e, 2^(e+1)) is cut into 2^B equal buckets") \
	X(HISTOGRAM, HIGHEST_US, "highest_us", RT_INT, false, "us", RU_CHECKED, 0, "", \
	  "the highest value counted without clamping (one hour)") \
	X(HISTOGRAM, COUNT, "count", RT_INT, false, "", RU_READ, 0, "", \
	  "successful transactions counted (`processed`)") \
	X(HISTOGRAM, CLAMPED, "clamped", RT_INT, false, "", RU_READ, 0, "", \
	  "values above `highest_us`, counted in the last bucket") \
	X(HISTOGRAM, MIN_US, "min_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the exact minimum, whole microseconds") \
	X(HISTOGRAM, MAX_US, "max_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the exact maximum, whole microseconds") \
	X(HISTOGRAM, SUM_US, "sum_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "sum of the values counted (whole microseconds), for the mean") \
	X(HISTOGRAM, LATENCY_SUM_US, "latency_sum_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "the sum of the exact latencies (fractions of a microsecond kept), which " \
	  "`latency_ms.average` comes from; `%.17g`, so it reads back exactly") \
	X(HISTOGRAM, LATENCY_SUM_SQUARES_US, "latency_sum_squares_us", RT_NUMBER, false, "us", RU_READ, 0, "", \
	  "the sum of their squares, which `latency_ms.stddev` comes from (with the sum); " \
	  "`%.17g` too") \
	X(HISTOGRAM, BUCKETS, "buckets", RT_ARRAY, false, "", RU_READ, 0, \
	  "\"items\": {\"type\": \"array\", \"items\": {\"type\": \"integer\"}}", \
	  "`[index, count]` of each non-empty bucket, ascending by index") \
	\
	X(RENDEZVOUS, GROUP, "group", RT_STRING, false, "", RU_CHECKED, 0, "", \
	  "the group's NAME") \
	X(RENDEZVOUS, SIZE, "size", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "N, the number of instances the group waited for") \
	X(RENDEZVOUS, MEMBER, "member", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "this instance's member slot: 0-based order of joining (0 led the group); " \
	  "`--merge-reports` wants every index from 0 to `size` - 1 of a group (doc/fleet.md)") \
	X(RENDEZVOUS, START_SERVER_EPOCH_US, "start_server_epoch_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the agreed start, server clock, Unix time in microseconds") \
	X(RENDEZVOUS, CLOCK_OFFSET_US, "clock_offset_us", RT_INT, false, "us", RU_SHOWN, 0, "", \
	  "the server's clock minus this machine's, measured before the run") \
	X(RENDEZVOUS, CLOCK_RTT_US, "clock_rtt_us", RT_INT, false, "us", RU_SHOWN, 0, "", \
	  "the round trip of the measurement kept (the shortest of several): the offset is " \
	  "good to about half of it") \
	\
	X(MERGE, INSTANCES, "instances", RT_INT, false, "", RU_SHOWN, 0, "", \
	  "1, or the number of reports a merged report was made from") \
	X(MERGE, PROGRESS_S, "progress_s", RT_INT, true, "s", RU_CHECKED, 0, "", \
	  "`-P`, which decides the text's latency lines; null without") \
	X(MERGE, START_EPOCH_US, "start_epoch_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "`start_time` in microseconds") \
	X(MERGE, CONN_ELAPSED_US, "conn_elapsed_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "from the start to the first thread's start (`initial_connection_ms`)") \
	X(MERGE, BENCH_DURATION_US, "bench_duration_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "`duration_s` in microseconds") \
	X(MERGE, CONN_DURATION_US, "conn_duration_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the summed connection times (`-C`)") \
	X(MERGE, LAG_SUM_US, "lag_sum_us", RT_NUMBER, true, "us", RU_READ, 0, "", \
	  "under `-R`, the exact sum of the schedule lags; 0 without `-R` (the writer always " \
	  "writes a number; the merge reads a null as no lag)") \
	\
	X(INPUT, FILE, "file", RT_STRING, false, "", RU_CHECKED, 0, "", \
	  "the report file the run was read from, as given on the command line (a merged " \
	  "report's name for the runs it held), written as any string (valid UTF-8)") \
	X(INPUT, RUN_ID, "run_id", RT_STRING, true, "", RU_CHECKED, 0, \
	  "\"pattern\": \"^[0-9a-f]{32}$\"", \
	  "the run's `run_id`; null for a report written before run ids") \
	X(INPUT, RENDEZVOUS, "rendezvous", RT_OBJECT, true, "", RU_CHECKED, 0, "", \
	  "the run's `rendezvous` without its clock fields, below; null when it ran alone") \
	X(INPUT, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_CHECKED, RF_OPTIONAL, \
	  "\"pattern\": \"^[0-9]{1,20}$\"", \
	  "the run's server (`server.system_identifier`); null when unknown; absent in reports " \
	  "of schema 4 and older") \
	X(INPUT, SERVER_TOTALS, "server_totals", RT_OBJECT, true, "", RU_CHECKED, RF_OPTIONAL, \
	  "\"$ref\": \"#/$defs/server_counters\"", \
	  "the run's `server_stats.totals` (the server's counters over its run), kept per " \
	  "instance; null when none; absent in reports of schema 4 and older") \
	\
	X(INPUT_RENDEZVOUS, GROUP, "group", RT_STRING, false, "", RU_CHECKED, 0, "", \
	  "the group's NAME") \
	X(INPUT_RENDEZVOUS, SIZE, "size", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "N, the number of instances the group waited for") \
	X(INPUT_RENDEZVOUS, MEMBER, "member", RT_INT, false, "", RU_CHECKED, 0, "", \
	  "the run's member slot") \
	X(INPUT_RENDEZVOUS, START_SERVER_EPOCH_US, "start_server_epoch_us", RT_INT, false, "us", RU_READ, 0, "", \
	  "the agreed start, server clock, Unix time in microseconds") \
	\
	X(SERVERS, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_SHOWN, 0, \
	  "\"pattern\": \"^[0-9]{1,20}$\"", \
	  "the server's; null: unknown (the runs of an unknown server are each one of their " \
	  "own)") \
	X(SERVERS, INSTANCES, "instances", RT_INT, false, "", RU_SHOWN, 0, \
	  "\"minimum\": 1", \
	  "the runs that went to it") \
	X(SERVERS, TOTALS_FROM, "totals_from", RT_STRING, true, "", RU_SHOWN, 0, "", \
	  "the report whose figures are shown: the first with any; null when none has") \
	X(SERVERS, TOTALS, "totals", RT_OBJECT, true, "", RU_SHOWN, 0, \
	  "\"$ref\": \"#/$defs/server_counters\"", \
	  "that run's `server_stats.totals`, the server's counters over its run: taken once " \
	  "per server, not added up, since every instance's monitor saw the whole server; null " \
	  "when no run has them") \
	\
	X(THRESHOLD, EXPRESSION, "expression", RT_STRING, false, "", RU_SHOWN, 0, "", \
	  "the threshold as given, e.g. `latency.p99<=20ms`") \
	X(THRESHOLD, PASSED, "passed", RT_BOOL, false, "", RU_SHOWN, 0, "", \
	  "the figure was measured and within its bound") \
	X(THRESHOLD, VALUE, "value", RT_NUMBER, true, "", RU_SHOWN, 0, "", \
	  "the figure, in the unit the threshold names it in (ms for latencies, % for ratios); " \
	  "null when the report has no such figure (a threshold then fails)")

/*
 * What $defs/unstarted (the document of a run that never benchmarked)
 * says of a top-level member instead of its schema column above:
 * X(id, schema).  Such a run ends interrupted (a signal before the
 * benchmark started) or failed to start (finish_unstarted, bench.c).
 */
#define REPORT_UNSTARTED_SCHEMA(X) \
	X(OUTCOME, "\"enum\": [\"interrupted\", \"failed-to-start\"]")

/*
 * The meaning of each transaction counter of STATS_COUNTERS
 * (pgbench/stats/stats.h), by its JSON name: the rows of the
 * `transactions` table besides the members above.  X(json_name, meaning)
 */
#define REPORT_COUNTER_MEANINGS(X) \
	X("processed", "successful transactions") \
	X("serialization_failures", "failed on SQLSTATE 40001 after the last try") \
	X("deadlock_failures", "failed on SQLSTATE 40P01 after the last try") \
	X("other_failures", "failed on another error (0 while such errors abort the client)") \
	X("connection_failures", "in flight when the connection was lost (`--reconnect`; 0 without it)") \
	X("skipped", "never started, too late under `-R` with `-L`") \
	X("retried", "transactions (successful or failed) that needed more than one try") \
	X("retries", "retries over all transactions")

/*
 * The meaning of each setting of REPORT_SETTINGS (pgbench/report/figures.h),
 * by its key: the meaning column of the `settings` table and the setting's
 * description in the schema (its type comes from its kind and whether it
 * may be null).  X(key, meaning)
 */
#define REPORT_SETTING_MEANINGS(X) \
	X("transaction_type", "script name, or `\"multiple scripts\"`") \
	X("scaling_factor", "as reported (the count of `pgbench_branches` for builtin scripts)") \
	X("partition_method", "`\"range\"` or `\"hash\"` when `pgbench_accounts` is partitioned") \
	X("partitions", "number of partitions, 0 when not partitioned") \
	X("query_mode", "`\"simple\"`, `\"extended\"` or `\"prepared\"` (`-M`)") \
	X("clients", "`-c`") \
	X("threads", "`-j`, after capping at the number of clients") \
	X("max_tries", "`--max-tries`; 0 means unlimited") \
	X("transactions_per_client", "`-t` (null under `-T`)") \
	X("duration_s", "`-T` (null under `-t`)") \
	X("rate_tps", "`-R`") \
	X("latency_limit_ms", "`-L`") \
	X("connect_each", "`-C`") \
	X("failures_detailed", "`--failures-detailed`") \
	X("percentiles", "`--percentiles` (a repeated value once), empty when not given") \
	X("random_seed", "the run's seed (`:random_seed`, `--random-seed`)") \
	X("server_stats", "`--server-stats`: whether the server's side was recorded (never null " \
	  "when written); absent from reports of schema 4 and older; a merge takes the first " \
	  "report's") \
	X("server_sample_interval_ms", "`--server-sample-interval` when the server's side was " \
	  "recorded, else null; absent from reports of schema 4 and older; a merge takes the " \
	  "first report's") \
	X("progress_s", "`-P` (null without); absent from reports written before it was added " \
	  "(read as null)") \
	X("warmup_s", "`--warmup` (null without): seconds run before `-T`'s and left out of " \
	  "every figure (the series' points keep them: those with `t_s` up to it are the " \
	  "warm-up's); absent from reports written before it was added (read as null)") \
	X("stages", "`--stages` as given (null without; doc/stages.md); absent from reports " \
	  "written before it was added (read as null)")

/*
 * Where each of the server's counters of TIMELINE_SERVER_COUNTERS
 * (pgbench/stats/timeline.h) comes from, by its group and key: the from
 * column of the server's counters table and the counter's description in
 * the schema.  X(group, key, from)
 */
#define REPORT_FROM_DATABASE " of `pg_stat_database` (the run's database)"
#define REPORT_FROM_WAL " of `pg_stat_wal` (14+)"
#define REPORT_FROM_CKPT " of `pg_stat_checkpointer` (17+; `pg_stat_bgwriter` before)"
#define REPORT_FROM_IO " of `pg_stat_io`, summed over its rows (16+)"
#define REPORT_SERVER_COUNTER_SOURCES(X) \
	X("database", "xact_commit", "`xact_commit`" REPORT_FROM_DATABASE) \
	X("database", "xact_rollback", "`xact_rollback`" REPORT_FROM_DATABASE) \
	X("database", "blks_read", "`blks_read`" REPORT_FROM_DATABASE) \
	X("database", "blks_hit", "`blks_hit`" REPORT_FROM_DATABASE) \
	X("database", "tup_returned", "`tup_returned`" REPORT_FROM_DATABASE) \
	X("database", "tup_fetched", "`tup_fetched`" REPORT_FROM_DATABASE) \
	X("database", "tup_inserted", "`tup_inserted`" REPORT_FROM_DATABASE) \
	X("database", "tup_updated", "`tup_updated`" REPORT_FROM_DATABASE) \
	X("database", "tup_deleted", "`tup_deleted`" REPORT_FROM_DATABASE) \
	X("database", "temp_files", "`temp_files`" REPORT_FROM_DATABASE) \
	X("database", "temp_bytes", "`temp_bytes`" REPORT_FROM_DATABASE) \
	X("database", "deadlocks", "`deadlocks`" REPORT_FROM_DATABASE) \
	X("database", "conflicts", "`conflicts`" REPORT_FROM_DATABASE) \
	X("wal", "wal_records", "`wal_records`" REPORT_FROM_WAL) \
	X("wal", "wal_fpi", "`wal_fpi`" REPORT_FROM_WAL) \
	X("wal", "wal_bytes", "`wal_bytes`" REPORT_FROM_WAL) \
	X("wal", "wal_buffers_full", "`wal_buffers_full`" REPORT_FROM_WAL) \
	X("checkpointer", "timed", "`num_timed` (before 17 `checkpoints_timed`)" REPORT_FROM_CKPT) \
	X("checkpointer", "requested", "`num_requested` (`checkpoints_req`)" REPORT_FROM_CKPT) \
	X("checkpointer", "done", "`num_done` (18+)" REPORT_FROM_CKPT) \
	X("checkpointer", "write_time", "`write_time` (`checkpoint_write_time`)" REPORT_FROM_CKPT) \
	X("checkpointer", "sync_time", "`sync_time` (`checkpoint_sync_time`)" REPORT_FROM_CKPT) \
	X("checkpointer", "buffers_written", "`buffers_written` (`buffers_checkpoint`)" REPORT_FROM_CKPT) \
	X("io", "reads", "`reads`" REPORT_FROM_IO) \
	X("io", "writes", "`writes`" REPORT_FROM_IO) \
	X("io", "extends", "`extends`" REPORT_FROM_IO) \
	X("io", "hits", "`hits`" REPORT_FROM_IO) \
	X("io", "evictions", "`evictions`" REPORT_FROM_IO) \
	X("io", "fsyncs", "`fsyncs`" REPORT_FROM_IO)

#endif
