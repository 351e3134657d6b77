/*
 * report_schema.h — the members of a --report-json document, declared
 * once: for each object of the document, its members in the order the
 * writer writes them, each with its key, its JSON type, whether it may be
 * null, its unit, and what --merge-reports does with it.
 *
 * The writer (report_json*.c) names every member it writes by its id
 * (RM_<object>_<member>), the merge reader (merge_*.c) every member it
 * reads, and doc/report-json.md has one table per object, row for row in
 * this order, which t/unit/test_report_schema.c checks (key, type, and
 * that every documented member is here), as it checks that a written
 * report holds each member at the type declared.  Members whose names
 * come from data (percentiles, wait events, the server's settings and
 * counters, the settings of REPORT_SETTINGS, the counters of
 * STATS_COUNTERS) are declared by those lists and appear here as the
 * object that holds them.
 *
 * Adding a member: one line here (in the writer's order), its put in the
 * writer, its read in the merge if it is an input of the figures, its row
 * in the doc; the test names whichever is missing.
 */
#ifndef PGBENCH_REPORT_SCHEMA_H
#define PGBENCH_REPORT_SCHEMA_H

#include <stdbool.h>

/* The JSON type of a member (when not null). */
typedef enum report_type
{
	RT_INT,						/* an integer (int64, or uint64 for the seed) */
	RT_NUMBER,					/* any number */
	RT_STRING,
	RT_BOOL,
	RT_OBJECT,
	RT_ARRAY,
} report_type;

/* What --merge-reports does with a member. */
typedef enum report_use
{
	RU_READ,					/* an input of the merged figures: read and checked */
	RU_CHECKED,					/* read to check the inputs agree (or identify them) */
	RU_SHOWN,					/* computed again from the inputs: not read */
} report_use;

/*
 * The objects, each with the heading of its table in doc/report-json.md
 * (the text up to the first space or parenthesis).
 */
#define REPORT_OBJECTS(X) \
	X(TOP, "Top level") \
	X(CONNECTION, "`connection`") \
	X(TRANSACTIONS, "`transactions`") \
	X(RECONNECT, "`reconnect`") \
	X(LATENCY, "`latency_ms`") \
	X(LAG, "`lag_ms`") \
	X(SCRIPT, "`scripts[]`") \
	X(COMMAND, "`scripts[].commands[]`") \
	X(ABORT, "`aborted_clients[]`") \
	X(SERVER, "`server`") \
	X(SERVER_SETTING, "`server.settings.*`") \
	X(CLIENT, "`client`") \
	X(SERVER_STATS, "`server_stats`") \
	X(COMMITS, "`server_stats.commits`") \
	X(CHECKPOINT, "`server_stats.checkpoints[]`") \
	X(WAITS, "`server_stats.wait_events`") \
	X(SERIES, "`series`") \
	X(POINT, "`series.points[]`") \
	X(POINT_LATENCY, "`series.points[].latency_ms`") \
	X(POINT_LAG, "`series.points[].lag_ms`") \
	X(POINT_CLIENT, "`series.points[].client`") \
	X(POINT_SERVER, "`series.points[].server`") \
	X(PROCESSES, "`series.points[].server.processes`") \
	X(HOST, "`series.points[].host`") \
	X(HOST_CPU, "`series.points[].host.cpu_s`") \
	X(POINT_HIST, "`series.points[].histogram`") \
	X(HISTOGRAM, "`latency_histogram`") \
	X(RENDEZVOUS, "`rendezvous`") \
	X(MERGE, "`merge`") \
	X(INPUT, "`inputs[]`") \
	X(INPUT_RENDEZVOUS, "`inputs[].rendezvous`") \
	X(SERVERS, "`servers[]`") \
	X(THRESHOLD, "`thresholds[]`")

/*
 * X(object, id, key, type, nullable, unit, use): unit "" for counts,
 * flags and text.
 */
#define REPORT_MEMBERS(X) \
	X(TOP, SCHEMA_VERSION, "schema_version", RT_INT, false, "", RU_CHECKED) \
	X(TOP, PGBENCH_VERSION, "pgbench_version", RT_STRING, false, "", RU_SHOWN) \
	X(TOP, RUN_ID, "run_id", RT_STRING, true, "", RU_CHECKED) \
	X(TOP, LABELS, "labels", RT_OBJECT, false, "", RU_SHOWN) \
	X(TOP, SERVER_VERSION, "server_version", RT_STRING, true, "", RU_READ) \
	X(TOP, OUTCOME, "outcome", RT_STRING, false, "", RU_CHECKED) \
	X(TOP, SIGNAL, "signal", RT_STRING, false, "", RU_SHOWN) \
	X(TOP, ERROR, "error", RT_STRING, true, "", RU_SHOWN) \
	X(TOP, COMPAT, "compat", RT_INT, false, "", RU_CHECKED) \
	X(TOP, COMMAND_LINE, "command_line", RT_ARRAY, false, "", RU_SHOWN) \
	X(TOP, START_TIME, "start_time", RT_STRING, true, "", RU_SHOWN) \
	X(TOP, START_EPOCH_S, "start_epoch_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(TOP, END_TIME, "end_time", RT_STRING, true, "", RU_SHOWN) \
	X(TOP, END_EPOCH_S, "end_epoch_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(TOP, CONNECTION, "connection", RT_OBJECT, true, "", RU_READ) \
	X(TOP, SETTINGS, "settings", RT_OBJECT, false, "", RU_READ) \
	X(TOP, ABORTED, "aborted", RT_BOOL, false, "", RU_READ) \
	X(TOP, ABORTED_CLIENTS, "aborted_clients", RT_ARRAY, false, "", RU_CHECKED) \
	X(TOP, DURATION_S, "duration_s", RT_NUMBER, false, "s", RU_SHOWN) \
	X(TOP, TPS, "tps", RT_NUMBER, true, "", RU_SHOWN) \
	X(TOP, INITIAL_CONNECTION_MS, "initial_connection_ms", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(TOP, AVERAGE_CONNECTION_MS, "average_connection_ms", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(TOP, TRANSACTIONS, "transactions", RT_OBJECT, false, "", RU_READ) \
	X(TOP, RECONNECT, "reconnect", RT_OBJECT, true, "", RU_SHOWN) \
	X(TOP, TEXT_LATENCY_AVERAGE_MS, "text_latency_average_ms", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(TOP, TEXT_LATENCY_AVERAGE_DERIVED, "text_latency_average_derived", RT_BOOL, false, "", RU_SHOWN) \
	X(TOP, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ) \
	X(TOP, LAG_MS, "lag_ms", RT_OBJECT, true, "ms", RU_READ) \
	X(TOP, SCRIPTS, "scripts", RT_ARRAY, false, "", RU_READ) \
	X(TOP, SERVER, "server", RT_OBJECT, true, "", RU_CHECKED) \
	X(TOP, CLIENT, "client", RT_OBJECT, true, "", RU_SHOWN) \
	X(TOP, SERVER_STATS, "server_stats", RT_OBJECT, true, "", RU_CHECKED) \
	X(TOP, SERIES, "series", RT_OBJECT, true, "", RU_READ) \
	X(TOP, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ) \
	X(TOP, RENDEZVOUS, "rendezvous", RT_OBJECT, true, "", RU_CHECKED) \
	X(TOP, MERGE, "merge", RT_OBJECT, false, "", RU_READ) \
	X(TOP, INPUTS, "inputs", RT_ARRAY, true, "", RU_CHECKED) \
	X(TOP, SERVERS, "servers", RT_ARRAY, true, "", RU_SHOWN) \
	X(TOP, THRESHOLDS, "thresholds", RT_ARRAY, true, "", RU_SHOWN) \
	\
	X(CONNECTION, HOST, "host", RT_STRING, true, "", RU_READ) \
	X(CONNECTION, PORT, "port", RT_STRING, true, "", RU_READ) \
	X(CONNECTION, DATABASE, "database", RT_STRING, true, "", RU_READ) \
	\
	X(TRANSACTIONS, FAILED, "failed", RT_INT, false, "", RU_CHECKED) \
	X(TRANSACTIONS, TOTAL, "total", RT_INT, false, "", RU_CHECKED) \
	X(TRANSACTIONS, EXPECTED, "expected", RT_INT, true, "", RU_SHOWN) \
	X(TRANSACTIONS, LATE, "late", RT_INT, true, "", RU_READ) \
	\
	X(RECONNECT, LOSSES, "losses", RT_INT, false, "", RU_SHOWN) \
	X(RECONNECT, RECONNECTS, "reconnects", RT_INT, false, "", RU_SHOWN) \
	X(RECONNECT, FAILED, "failed", RT_INT, false, "", RU_SHOWN) \
	X(RECONNECT, WINDOW_MS, "window_ms", RT_NUMBER, false, "ms", RU_SHOWN) \
	X(RECONNECT, FIRST_LOSS_S, "first_loss_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(RECONNECT, LAST_BACK_S, "last_back_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(RECONNECT, DOWNTIME_MAX_MS, "downtime_max_ms", RT_NUMBER, false, "ms", RU_SHOWN) \
	X(RECONNECT, DOWNTIME_TOTAL_MS, "downtime_total_ms", RT_NUMBER, false, "ms", RU_SHOWN) \
	X(RECONNECT, CLIENTS_DOWN_AT_END, "clients_down_at_end", RT_INT, false, "", RU_SHOWN) \
	\
	X(LATENCY, COUNT, "count", RT_INT, false, "", RU_READ) \
	X(LATENCY, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(LATENCY, STDDEV, "stddev", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(LATENCY, MIN, "min", RT_NUMBER, true, "ms", RU_READ) \
	X(LATENCY, MAX, "max", RT_NUMBER, true, "ms", RU_READ) \
	X(LATENCY, PERCENTILES, "percentiles", RT_OBJECT, false, "ms", RU_SHOWN) \
	\
	X(LAG, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(LAG, MAX, "max", RT_NUMBER, true, "ms", RU_READ) \
	\
	X(SCRIPT, NUMBER, "number", RT_INT, false, "", RU_SHOWN) \
	X(SCRIPT, NAME, "name", RT_STRING, false, "", RU_CHECKED) \
	X(SCRIPT, SHA256, "sha256", RT_STRING, true, "", RU_CHECKED) \
	X(SCRIPT, WEIGHT, "weight", RT_INT, false, "", RU_CHECKED) \
	X(SCRIPT, WEIGHT_PCT, "weight_pct", RT_NUMBER, false, "%", RU_SHOWN) \
	X(SCRIPT, TRANSACTIONS, "transactions", RT_OBJECT, false, "", RU_READ) \
	X(SCRIPT, PROCESSED_PCT, "processed_pct", RT_NUMBER, true, "%", RU_SHOWN) \
	X(SCRIPT, TPS, "tps", RT_NUMBER, true, "", RU_SHOWN) \
	X(SCRIPT, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ) \
	X(SCRIPT, COMMANDS, "commands", RT_ARRAY, true, "", RU_READ) \
	X(SCRIPT, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ) \
	\
	X(COMMAND, NUMBER, "number", RT_INT, false, "", RU_SHOWN) \
	X(COMMAND, LINE, "line", RT_STRING, false, "", RU_CHECKED) \
	X(COMMAND, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ) \
	X(COMMAND, FAILURES, "failures", RT_INT, false, "", RU_READ) \
	X(COMMAND, RETRIES, "retries", RT_INT, false, "", RU_READ) \
	X(COMMAND, LATENCY_HISTOGRAM, "latency_histogram", RT_OBJECT, true, "", RU_READ) \
	\
	X(ABORT, CLIENT, "client", RT_INT, false, "", RU_CHECKED) \
	X(ABORT, AT_S, "at_s", RT_NUMBER, false, "s", RU_SHOWN) \
	X(ABORT, KIND, "kind", RT_STRING, false, "", RU_SHOWN) \
	X(ABORT, SCRIPT, "script", RT_INT, true, "", RU_CHECKED) \
	X(ABORT, COMMAND, "command", RT_INT, true, "", RU_CHECKED) \
	X(ABORT, QUERY, "query", RT_INT, true, "", RU_SHOWN) \
	X(ABORT, SQLSTATE, "sqlstate", RT_STRING, true, "", RU_SHOWN) \
	X(ABORT, CAUSES, "causes", RT_ARRAY, false, "", RU_SHOWN) \
	X(ABORT, MESSAGE, "message", RT_STRING, false, "", RU_SHOWN) \
	X(ABORT, LINE, "line", RT_STRING, false, "", RU_SHOWN) \
	\
	X(SERVER, VERSION_NUM, "version_num", RT_INT, false, "", RU_SHOWN) \
	X(SERVER, VERSION, "version", RT_STRING, true, "", RU_SHOWN) \
	X(SERVER, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_CHECKED) \
	X(SERVER, SETTINGS, "settings", RT_OBJECT, false, "", RU_SHOWN) \
	X(SERVER, NON_DEFAULT, "non_default", RT_ARRAY, false, "", RU_SHOWN) \
	X(SERVER, NON_DEFAULT_TRUNCATED, "non_default_truncated", RT_BOOL, false, "", RU_SHOWN) \
	X(SERVER, UNREADABLE, "unreadable", RT_ARRAY, false, "", RU_SHOWN) \
	\
	X(SERVER_SETTING, NAME, "name", RT_STRING, false, "", RU_SHOWN) \
	X(SERVER_SETTING, VALUE, "value", RT_STRING, false, "", RU_SHOWN) \
	X(SERVER_SETTING, UNIT, "unit", RT_STRING, true, "", RU_SHOWN) \
	X(SERVER_SETTING, SOURCE, "source", RT_STRING, false, "", RU_SHOWN) \
	\
	X(CLIENT, BUSIEST_THREAD, "busiest_thread", RT_INT, false, "", RU_SHOWN) \
	X(CLIENT, BUSIEST_THREAD_BUSY_PCT, "busiest_thread_busy_pct", RT_NUMBER, false, "%", RU_SHOWN) \
	X(CLIENT, BOUND, "bound", RT_BOOL, false, "", RU_SHOWN) \
	X(CLIENT, INTERVALS_BOUND, "intervals_bound", RT_INT, false, "", RU_SHOWN) \
	\
	X(SERVER_STATS, MONITORED, "monitored", RT_BOOL, false, "", RU_SHOWN) \
	X(SERVER_STATS, APPLICATION_NAME, "application_name", RT_STRING, true, "", RU_SHOWN) \
	X(SERVER_STATS, LOCAL, "local", RT_BOOL, false, "", RU_SHOWN) \
	X(SERVER_STATS, SAMPLE_INTERVAL_MS, "sample_interval_ms", RT_NUMBER, false, "ms", RU_SHOWN) \
	X(SERVER_STATS, TOTALS, "totals", RT_OBJECT, true, "", RU_CHECKED) \
	X(SERVER_STATS, OWN_COMMITS, "own_commits", RT_INT, false, "", RU_SHOWN) \
	X(SERVER_STATS, SETTLED, "settled", RT_BOOL, false, "", RU_SHOWN) \
	X(SERVER_STATS, COMMITS, "commits", RT_OBJECT, false, "", RU_SHOWN) \
	X(SERVER_STATS, CHECKPOINTS, "checkpoints", RT_ARRAY, false, "", RU_SHOWN) \
	X(SERVER_STATS, CHECKPOINTS_TRUNCATED, "checkpoints_truncated", RT_BOOL, false, "", RU_SHOWN) \
	X(SERVER_STATS, WAIT_EVENTS, "wait_events", RT_OBJECT, false, "", RU_SHOWN) \
	X(SERVER_STATS, NOTES, "notes", RT_ARRAY, false, "", RU_SHOWN) \
	\
	X(COMMITS, CHECKED, "checked", RT_BOOL, false, "", RU_SHOWN) \
	X(COMMITS, NOT_CHECKED_BECAUSE, "not_checked_because", RT_STRING, true, "", RU_SHOWN) \
	X(COMMITS, SERVER, "server", RT_INT, false, "", RU_SHOWN) \
	X(COMMITS, EXPECTED, "expected", RT_INT, false, "", RU_SHOWN) \
	X(COMMITS, DIFFERENCE, "difference", RT_INT, false, "", RU_SHOWN) \
	X(COMMITS, EXPLAINED, "explained", RT_INT, false, "", RU_SHOWN) \
	X(COMMITS, AGREES, "agrees", RT_BOOL, false, "", RU_SHOWN) \
	\
	X(CHECKPOINT, START_S, "start_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(CHECKPOINT, ENDED_BY_S, "ended_by_s", RT_NUMBER, false, "s", RU_SHOWN) \
	\
	X(WAITS, SAMPLES, "samples", RT_INT, false, "", RU_SHOWN) \
	X(WAITS, ALL_STATES, "all_states", RT_BOOL, false, "", RU_SHOWN) \
	X(WAITS, COUNTS, "counts", RT_OBJECT, false, "", RU_SHOWN) \
	X(WAITS, OTHER, "other", RT_INT, false, "", RU_SHOWN) \
	\
	X(SERIES, INTERVAL_S, "interval_s", RT_NUMBER, false, "s", RU_CHECKED) \
	X(SERIES, INCOMPLETE, "incomplete", RT_BOOL, false, "", RU_READ) \
	X(SERIES, SUB_BUCKET_BITS, "sub_bucket_bits", RT_INT, false, "", RU_CHECKED) \
	X(SERIES, POINTS, "points", RT_ARRAY, false, "", RU_READ) \
	\
	X(POINT, T_S, "t_s", RT_NUMBER, false, "s", RU_READ) \
	X(POINT, INTERVAL_S, "interval_s", RT_NUMBER, false, "s", RU_READ) \
	X(POINT, TPS, "tps", RT_NUMBER, false, "", RU_SHOWN) \
	X(POINT, PROCESSED, "processed", RT_INT, false, "", RU_READ) \
	X(POINT, FAILURES, "failures", RT_INT, false, "", RU_READ) \
	X(POINT, RETRIED, "retried", RT_INT, false, "", RU_READ) \
	X(POINT, RETRIES, "retries", RT_INT, false, "", RU_READ) \
	X(POINT, SKIPPED, "skipped", RT_INT, false, "", RU_READ) \
	X(POINT, LATENCY_MS, "latency_ms", RT_OBJECT, false, "ms", RU_READ) \
	X(POINT, LAG_MS, "lag_ms", RT_OBJECT, true, "ms", RU_SHOWN) \
	X(POINT, CLIENT, "client", RT_OBJECT, true, "", RU_READ) \
	X(POINT, SERVER, "server", RT_OBJECT, true, "", RU_SHOWN) \
	X(POINT, HOST, "host", RT_OBJECT, true, "", RU_SHOWN) \
	X(POINT, HISTOGRAM, "histogram", RT_OBJECT, true, "", RU_READ) \
	X(POINT, STAGE_TARGET, "stage_target", RT_NUMBER, true, "", RU_READ) \
	\
	X(POINT_LATENCY, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(POINT_LATENCY, STDDEV, "stddev", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(POINT_LATENCY, MIN, "min", RT_NUMBER, true, "ms", RU_SHOWN) \
	X(POINT_LATENCY, P50, "p50", RT_NUMBER, true, "ms", RU_READ) \
	X(POINT_LATENCY, P90, "p90", RT_NUMBER, true, "ms", RU_READ) \
	X(POINT_LATENCY, P99, "p99", RT_NUMBER, true, "ms", RU_READ) \
	X(POINT_LATENCY, P99_9, "p99.9", RT_NUMBER, true, "ms", RU_READ) \
	X(POINT_LATENCY, MAX, "max", RT_NUMBER, true, "ms", RU_SHOWN) \
	\
	X(POINT_LAG, AVERAGE, "average", RT_NUMBER, true, "ms", RU_SHOWN) \
	\
	X(POINT_CLIENT, CPU_USER_S, "cpu_user_s", RT_NUMBER, false, "s", RU_READ) \
	X(POINT_CLIENT, CPU_SYSTEM_S, "cpu_system_s", RT_NUMBER, false, "s", RU_READ) \
	X(POINT_CLIENT, BUSIEST_THREAD_CPU_PCT, "busiest_thread_cpu_pct", RT_NUMBER, false, "%", RU_READ) \
	X(POINT_CLIENT, RSS_KB, "rss_kb", RT_INT, true, "kB", RU_READ) \
	\
	X(POINT_SERVER, COUNTERS, "counters", RT_OBJECT, true, "", RU_SHOWN) \
	X(POINT_SERVER, CHECKPOINT_START_S, "checkpoint_start_s", RT_NUMBER, true, "s", RU_SHOWN) \
	X(POINT_SERVER, WAIT_EVENTS, "wait_events", RT_OBJECT, true, "", RU_SHOWN) \
	X(POINT_SERVER, PROCESSES, "processes", RT_OBJECT, true, "", RU_SHOWN) \
	\
	X(PROCESSES, COUNT, "count", RT_INT, false, "", RU_SHOWN) \
	X(PROCESSES, CPU_USER_S, "cpu_user_s", RT_NUMBER, false, "s", RU_SHOWN) \
	X(PROCESSES, CPU_SYSTEM_S, "cpu_system_s", RT_NUMBER, false, "s", RU_SHOWN) \
	X(PROCESSES, READ_BYTES, "read_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	X(PROCESSES, WRITE_BYTES, "write_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	X(PROCESSES, CTXSW_VOLUNTARY, "ctxsw_voluntary", RT_INT, false, "", RU_SHOWN) \
	X(PROCESSES, CTXSW_INVOLUNTARY, "ctxsw_involuntary", RT_INT, false, "", RU_SHOWN) \
	\
	X(HOST, CPUS, "cpus", RT_INT, false, "", RU_SHOWN) \
	X(HOST, CPU_S, "cpu_s", RT_OBJECT, false, "s", RU_SHOWN) \
	X(HOST, MEM_TOTAL_KB, "mem_total_kb", RT_INT, true, "kB", RU_SHOWN) \
	X(HOST, MEM_AVAILABLE_KB, "mem_available_kb", RT_INT, true, "kB", RU_SHOWN) \
	X(HOST, NET_RX_BYTES, "net_rx_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	X(HOST, NET_TX_BYTES, "net_tx_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	X(HOST, DISK_READ_BYTES, "disk_read_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	X(HOST, DISK_WRITE_BYTES, "disk_write_bytes", RT_INT, true, "bytes", RU_SHOWN) \
	\
	X(HOST_CPU, USER, "user", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, NICE, "nice", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, SYSTEM, "system", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, IDLE, "idle", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, IOWAIT, "iowait", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, IRQ, "irq", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, SOFTIRQ, "softirq", RT_NUMBER, false, "s", RU_SHOWN) \
	X(HOST_CPU, STEAL, "steal", RT_NUMBER, false, "s", RU_SHOWN) \
	\
	X(POINT_HIST, MIN_US, "min_us", RT_INT, false, "us", RU_READ) \
	X(POINT_HIST, MAX_US, "max_us", RT_INT, false, "us", RU_READ) \
	X(POINT_HIST, LATENCY_SUM_US, "latency_sum_us", RT_NUMBER, false, "us", RU_READ) \
	X(POINT_HIST, LATENCY_SUM_SQUARES_US, "latency_sum_squares_us", RT_NUMBER, false, "us", RU_READ) \
	X(POINT_HIST, LAG_SUM_US, "lag_sum_us", RT_NUMBER, false, "us", RU_READ) \
	X(POINT_HIST, BUCKETS, "buckets", RT_ARRAY, false, "", RU_READ) \
	\
	X(HISTOGRAM, LAYOUT, "layout", RT_STRING, false, "", RU_CHECKED) \
	X(HISTOGRAM, SUB_BUCKET_BITS, "sub_bucket_bits", RT_INT, false, "", RU_CHECKED) \
	X(HISTOGRAM, HIGHEST_US, "highest_us", RT_INT, false, "us", RU_CHECKED) \
	X(HISTOGRAM, COUNT, "count", RT_INT, false, "", RU_READ) \
	X(HISTOGRAM, CLAMPED, "clamped", RT_INT, false, "", RU_READ) \
	X(HISTOGRAM, MIN_US, "min_us", RT_INT, false, "us", RU_READ) \
	X(HISTOGRAM, MAX_US, "max_us", RT_INT, false, "us", RU_READ) \
	X(HISTOGRAM, SUM_US, "sum_us", RT_NUMBER, false, "us", RU_READ) \
	X(HISTOGRAM, LATENCY_SUM_US, "latency_sum_us", RT_NUMBER, false, "us", RU_READ) \
	X(HISTOGRAM, LATENCY_SUM_SQUARES_US, "latency_sum_squares_us", RT_NUMBER, false, "us", RU_READ) \
	X(HISTOGRAM, BUCKETS, "buckets", RT_ARRAY, false, "", RU_READ) \
	\
	X(RENDEZVOUS, GROUP, "group", RT_STRING, false, "", RU_CHECKED) \
	X(RENDEZVOUS, SIZE, "size", RT_INT, false, "", RU_CHECKED) \
	X(RENDEZVOUS, MEMBER, "member", RT_INT, false, "", RU_CHECKED) \
	X(RENDEZVOUS, START_SERVER_EPOCH_US, "start_server_epoch_us", RT_INT, false, "us", RU_READ) \
	X(RENDEZVOUS, CLOCK_OFFSET_US, "clock_offset_us", RT_INT, false, "us", RU_SHOWN) \
	X(RENDEZVOUS, CLOCK_RTT_US, "clock_rtt_us", RT_INT, false, "us", RU_SHOWN) \
	\
	X(MERGE, INSTANCES, "instances", RT_INT, false, "", RU_SHOWN) \
	X(MERGE, PROGRESS_S, "progress_s", RT_INT, true, "s", RU_CHECKED) \
	X(MERGE, START_EPOCH_US, "start_epoch_us", RT_INT, false, "us", RU_READ) \
	X(MERGE, CONN_ELAPSED_US, "conn_elapsed_us", RT_INT, false, "us", RU_READ) \
	X(MERGE, BENCH_DURATION_US, "bench_duration_us", RT_INT, false, "us", RU_READ) \
	X(MERGE, CONN_DURATION_US, "conn_duration_us", RT_INT, false, "us", RU_READ) \
	X(MERGE, LAG_SUM_US, "lag_sum_us", RT_NUMBER, true, "us", RU_READ) \
	\
	X(INPUT, FILE, "file", RT_STRING, false, "", RU_CHECKED) \
	X(INPUT, RUN_ID, "run_id", RT_STRING, true, "", RU_CHECKED) \
	X(INPUT, RENDEZVOUS, "rendezvous", RT_OBJECT, true, "", RU_CHECKED) \
	X(INPUT, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_CHECKED) \
	X(INPUT, SERVER_TOTALS, "server_totals", RT_OBJECT, true, "", RU_CHECKED) \
	\
	X(INPUT_RENDEZVOUS, GROUP, "group", RT_STRING, false, "", RU_CHECKED) \
	X(INPUT_RENDEZVOUS, SIZE, "size", RT_INT, false, "", RU_CHECKED) \
	X(INPUT_RENDEZVOUS, MEMBER, "member", RT_INT, false, "", RU_CHECKED) \
	X(INPUT_RENDEZVOUS, START_SERVER_EPOCH_US, "start_server_epoch_us", RT_INT, false, "us", RU_READ) \
	\
	X(SERVERS, SYSTEM_IDENTIFIER, "system_identifier", RT_STRING, true, "", RU_SHOWN) \
	X(SERVERS, INSTANCES, "instances", RT_INT, false, "", RU_SHOWN) \
	X(SERVERS, TOTALS_FROM, "totals_from", RT_STRING, true, "", RU_SHOWN) \
	X(SERVERS, TOTALS, "totals", RT_OBJECT, true, "", RU_SHOWN) \
	\
	X(THRESHOLD, EXPRESSION, "expression", RT_STRING, false, "", RU_SHOWN) \
	X(THRESHOLD, PASSED, "passed", RT_BOOL, false, "", RU_SHOWN) \
	X(THRESHOLD, VALUE, "value", RT_NUMBER, true, "", RU_SHOWN)

/*
 * The object (or, for an array, the object of each item) a member holds:
 * X(object, member, child).  Members not listed hold scalars, arrays of
 * scalars, or objects whose members are named by data.
 */
#define REPORT_CHILDREN(X) \
	X(TOP, CONNECTION, CONNECTION) \
	X(TOP, ABORTED_CLIENTS, ABORT) \
	X(TOP, TRANSACTIONS, TRANSACTIONS) \
	X(TOP, RECONNECT, RECONNECT) \
	X(TOP, LATENCY_MS, LATENCY) \
	X(TOP, LAG_MS, LAG) \
	X(TOP, SCRIPTS, SCRIPT) \
	X(TOP, SERVER, SERVER) \
	X(TOP, CLIENT, CLIENT) \
	X(TOP, SERVER_STATS, SERVER_STATS) \
	X(TOP, SERIES, SERIES) \
	X(TOP, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(TOP, RENDEZVOUS, RENDEZVOUS) \
	X(TOP, MERGE, MERGE) \
	X(TOP, INPUTS, INPUT) \
	X(TOP, SERVERS, SERVERS) \
	X(TOP, THRESHOLDS, THRESHOLD) \
	X(SCRIPT, TRANSACTIONS, TRANSACTIONS) \
	X(SCRIPT, LATENCY_MS, LATENCY) \
	X(SCRIPT, COMMANDS, COMMAND) \
	X(SCRIPT, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(COMMAND, LATENCY_MS, LATENCY) \
	X(COMMAND, LATENCY_HISTOGRAM, HISTOGRAM) \
	X(SERVER, NON_DEFAULT, SERVER_SETTING) \
	X(SERVER_STATS, COMMITS, COMMITS) \
	X(SERVER_STATS, CHECKPOINTS, CHECKPOINT) \
	X(SERVER_STATS, WAIT_EVENTS, WAITS) \
	X(SERIES, POINTS, POINT) \
	X(POINT, LATENCY_MS, POINT_LATENCY) \
	X(POINT, LAG_MS, POINT_LAG) \
	X(POINT, CLIENT, POINT_CLIENT) \
	X(POINT, SERVER, POINT_SERVER) \
	X(POINT, HOST, HOST) \
	X(POINT, HISTOGRAM, POINT_HIST) \
	X(POINT_SERVER, WAIT_EVENTS, WAITS) \
	X(POINT_SERVER, PROCESSES, PROCESSES) \
	X(HOST, CPU_S, HOST_CPU) \
	X(INPUT, RENDEZVOUS, INPUT_RENDEZVOUS)

typedef enum report_object
{
	RO_NONE = -1,				/* scalars, or members named by data */
#define REPORT_OBJECT_ID(id, heading) RO_##id,
	REPORT_OBJECTS(REPORT_OBJECT_ID)
#undef REPORT_OBJECT_ID
	RO_COUNT
} report_object;

typedef enum report_member
{
	RM_NONE = -1,				/* an array's item: no key */
#define REPORT_MEMBER_ID(obj, id, key, type, nullable, unit, use) RM_##obj##_##id,
	REPORT_MEMBERS(REPORT_MEMBER_ID)
#undef REPORT_MEMBER_ID
	RM_COUNT
} report_member;

typedef struct report_member_def
{
	report_object object;
	const char *key;
	report_type type;
	bool		nullable;
	const char *unit;			/* "" for counts, flags and text */
	report_use	use;
} report_member_def;

/* REPORT_MEMBERS and REPORT_OBJECTS as tables, by id (report_schema.c). */
extern const report_member_def report_members[RM_COUNT];
extern const char *const report_object_headings[RO_COUNT];

/* The object member m holds (REPORT_CHILDREN), or RO_NONE. */
report_object report_member_child(report_member m);

/* The member of object o named key, or RM_NONE. */
report_member report_member_of(report_object o, const char *key);

/* The key of member m. */
static inline const char *
report_key(report_member m)
{
	return report_members[m].key;
}

/* "int", "number or null", ...: the type as doc/report-json.md says it. */
const char *report_type_text(report_type type, bool nullable);

#endif
