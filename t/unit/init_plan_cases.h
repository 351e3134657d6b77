/*
 * init_plan_cases.h — the command lines of test_init_plan.c and what
 * each one sends.  The texts are the statements today's code sent to a
 * server 15 (its statement log); the cases for other server versions are
 * those texts changed as the documented rules say (README.md of the
 * compatibility modes, t/compat_init.pl): no COPY FREEZE and no relkind
 * question below 14, and on a server from 18 on --unlogged-tables with
 * partitions leaves the four tables logged in every mode.
 */

/* ---- statements that many cases send ---- */

#define DROP "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers\n"

#define HISTORY(u) "create" u " table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22))\n"
#define TELLERS(u, ff) "create" u " table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=" ff ")\n"
#define ACCOUNTS(u, ff) "create" u " table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) with (fillfactor=" ff ")\n"
#define ACCOUNTS_PART(u, method) "create" u " table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) partition by " method " (aid)\n"
#define BRANCHES(u, ff) "create" u " table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=" ff ")\n"
#define CREATE(u) HISTORY(u) TELLERS(u, "100") ACCOUNTS(u, "100") BRANCHES(u, "100")
#define CREATE_PART(u, method) HISTORY(u) TELLERS(u, "100") ACCOUNTS_PART(u, method) BRANCHES(u, "100")
#define RANGE(u, n, from, to) "create" u " table pgbench_accounts_" #n "\n  partition of pgbench_accounts\n  for values from (" from ") to (" to ") with (fillfactor=100)\n"
#define HASH(n, mod, rem, ff) "create table pgbench_accounts_" #n "\n  partition of pgbench_accounts\n  for values with (modulus " #mod ", remainder " #rem ") with (fillfactor=" ff ")\n"

#define BEGIN_TRUNCATE "begin\n" "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers\n"
#define ASK(table) "SELECT relkind FROM pg_catalog.pg_class WHERE oid=$1::pg_catalog.regclass -- $1 = '" table "'\n"
#define COPY(table, freeze) "copy " table " from stdin" freeze "\n"
#define FREEZE " with (freeze on)"
#define COPY3_16 COPY("pgbench_branches", FREEZE) COPY("pgbench_tellers", FREEZE) COPY("pgbench_accounts", FREEZE)
#define COPY3_17 ASK("pgbench_branches") COPY("pgbench_branches", FREEZE) ASK("pgbench_tellers") COPY("pgbench_tellers", FREEZE) \
	ASK("pgbench_accounts") COPY("pgbench_accounts", FREEZE)
#define INSERT_BT(b, t) "insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, " b ") as bid\n" \
	"insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / 10 + 1, 0 from generate_series(1, " t ") as tid\n"
#define INSERT_A(prefix, from, to) prefix "insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / 100000 + 1, 0, '' from generate_series(" from ", " to ") as aid\n"

#define VACUUM "vacuum analyze pgbench_branches\n" "vacuum analyze pgbench_tellers\n" "vacuum analyze pgbench_accounts\n" "vacuum analyze pgbench_history\n"
#define PKEY(table, col, ts) "alter table " table " add primary key (" col ")" ts "\n"
#define PKEYS PKEY("pgbench_branches", "bid", "") PKEY("pgbench_tellers", "tid", "") PKEY("pgbench_accounts", "aid", "")
#define FKEY(table, name, ref) "alter table " table " add constraint " name " foreign key " ref "\n"
#define FKEYS FKEY("pgbench_tellers", "pgbench_tellers_bid_fkey", "(bid) references pgbench_branches") \
	FKEY("pgbench_accounts", "pgbench_accounts_bid_fkey", "(bid) references pgbench_branches") \
	FKEY("pgbench_history", "pgbench_history_bid_fkey", "(bid) references pgbench_branches") \
	FKEY("pgbench_history", "pgbench_history_tid_fkey", "(tid) references pgbench_tellers") \
	FKEY("pgbench_history", "pgbench_history_aid_fkey", "(aid) references pgbench_accounts")
#define PARTITIONS_Q "select c.relname from pg_catalog.pg_inherits i join pg_catalog.pg_class c on c.oid = i.inhrelid where i.inhparent = pg_catalog.to_regclass('pgbench_accounts') order by 1\n"

#define S15 {150000, NULL, 0}
#define S15P(n) {150000, "rrp", n}

static const plan_case plan_cases[] = {
	/* default steps */
	{"16: default -i", {"--compat=16", "-i", NULL}, S15,
	DROP CREATE("") BEGIN_TRUNCATE COPY3_16 "commit\n" VACUUM PKEYS},
	{"19: default -i, scale 3", {"--compat=19", "-i", "-s", "3", NULL}, S15,
	DROP CREATE("") BEGIN_TRUNCATE COPY3_17 "commit\n" VACUUM PKEYS},

	/* custom -I */
	{"16: -I dtgdt, a repeated step", {"--compat=16", "-i", "-I", "dtgdt", NULL}, S15,
	DROP CREATE("") BEGIN_TRUNCATE COPY3_16 "commit\n" DROP CREATE("")},
	{"19: -I dtgdt, each g asks again", {"--compat=19", "-i", "-I", "dtgdt", NULL}, S15,
	DROP CREATE("") BEGIN_TRUNCATE COPY3_17 "commit\n" DROP CREATE("")},
	{"16: -n --foreign-keys -I ' d t g v '", {"--compat=16", "-i", "-n", "--foreign-keys", "-I", " d t g v ", NULL}, S15,
	DROP CREATE("") BEGIN_TRUNCATE COPY3_16 "commit\n" FKEYS},
	{"16: -I ' ', nothing", {"--compat=16", "-i", "-I", " ", NULL}, S15, ""},
	{"16: -I fp, any order", {"--compat=16", "-i", "-I", "fp", NULL}, S15, FKEYS PKEYS},

	/* partitions */
	{"16: 1 range partition", {"--compat=16", "-i", "-I", "dt", "--partitions=1", NULL}, S15,
	DROP CREATE_PART("", "range") "# creating 1 partitions...\n" RANGE("", 1, "minvalue", "maxvalue")},
	{"16: 3 range partitions, server-side, scale 2, foreign keys",
		{"--compat=16", "-i", "-I", "dtGvpf", "-s", "2", "--partitions=3", "--partition-method=range", NULL}, S15P(3),
		DROP CREATE_PART("", "range") "# creating 3 partitions...\n"
		RANGE("", 1, "minvalue", "66668") RANGE("", 2, "66668", "133335") RANGE("", 3, "133335", "maxvalue")
		BEGIN_TRUNCATE INSERT_BT("2", "20") INSERT_A("", "1", "200000") "commit\n" VACUUM PKEYS FKEYS},
	{"16: 1 hash partition, -F 80, tablespaces",
		{"--compat=16", "-i", "-I", "dtgvpf", "--partitions=1", "--partition-method=hash", "-F", "80",
		"--tablespace=ts1", "--index-tablespace=ts1", NULL}, S15P(1),
		DROP "create table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)) tablespace \"ts1\"\n"
		"create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=80) tablespace \"ts1\"\n"
		"create table pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84)) partition by hash (aid) tablespace \"ts1\"\n"
		"create table pgbench_branches(bid int not null,bbalance int,filler char(88)) with (fillfactor=80) tablespace \"ts1\"\n"
		"# creating 1 partitions...\n" HASH(1, 1, 0, "80")
		BEGIN_TRUNCATE COPY("pgbench_branches", FREEZE) COPY("pgbench_tellers", FREEZE) COPY("pgbench_accounts", "")
		"commit\n" VACUUM
		PKEY("pgbench_branches", "bid", " using index tablespace \"ts1\"")
		PKEY("pgbench_tellers", "tid", " using index tablespace \"ts1\"")
		PKEY("pgbench_accounts", "aid", " using index tablespace \"ts1\"") FKEYS},
	{"19: 4 hash partitions, the server says partitioned: no FREEZE",
		{"--compat=19", "-i", "-I", "dtg", "--partitions=4", "--partition-method=hash", NULL}, S15P(4),
		DROP CREATE_PART("", "hash") "# creating 4 partitions...\n"
		HASH(1, 4, 0, "100") HASH(2, 4, 1, "100") HASH(3, 4, 2, "100") HASH(4, 4, 3, "100")
		BEGIN_TRUNCATE ASK("pgbench_branches") COPY("pgbench_branches", FREEZE) ASK("pgbench_tellers")
		COPY("pgbench_tellers", FREEZE) ASK("pgbench_accounts") COPY("pgbench_accounts", "") "commit\n"},
	{"19: -I g into partitions made earlier", {"--compat=19", "-i", "-I", "g", NULL}, S15P(2),
	BEGIN_TRUNCATE ASK("pgbench_branches") COPY("pgbench_branches", FREEZE) ASK("pgbench_tellers")
	COPY("pgbench_tellers", FREEZE) ASK("pgbench_accounts") COPY("pgbench_accounts", "") "commit\n"},
	{"16: -I g into partitions made earlier: FREEZE all the same", {"--compat=16", "-i", "-I", "g", NULL}, S15P(2),
	BEGIN_TRUNCATE COPY3_16 "commit\n"},

	/* --unlogged-tables on server 15: every mode, with and without partitions */
	{"16: unlogged", {"--compat=16", "-i", "-I", "dt", "--unlogged-tables", NULL}, S15, DROP CREATE(" unlogged")},
	{"17: unlogged", {"--compat=17", "-i", "-I", "dt", "--unlogged-tables", NULL}, S15, DROP CREATE(" unlogged")},
	{"18: unlogged", {"--compat=18", "-i", "-I", "dt", "--unlogged-tables", NULL}, S15, DROP CREATE(" unlogged")},
	{"19: unlogged", {"--compat=19", "-i", "-I", "dt", "--unlogged-tables", NULL}, S15, DROP CREATE(" unlogged")},
	{"16: unlogged, partitions, server 15: all unlogged",
		{"--compat=16", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, S15,
		DROP CREATE_PART(" unlogged", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"17: unlogged, partitions, server 15: all unlogged",
		{"--compat=17", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, S15,
		DROP CREATE_PART(" unlogged", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"18: unlogged, partitions, server 15: the partitions alone",
		{"--compat=18", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, S15,
		DROP CREATE_PART("", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"19: unlogged, partitions, server 15: the partitions alone",
		{"--compat=19", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, S15,
		DROP CREATE_PART("", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},

	/* --unlogged-tables on other servers (the rules, not a log) */
	{"16: unlogged, partitions, server 18: the partitions alone",
		{"--compat=16", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, {180000, NULL, 0},
		DROP CREATE_PART("", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"17: unlogged, partitions, server 18: the partitions alone",
		{"--compat=17", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, {180000, NULL, 0},
		DROP CREATE_PART("", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"17: unlogged, partitions, server 17.9: all unlogged",
		{"--compat=17", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, {170009, NULL, 0},
		DROP CREATE_PART(" unlogged", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"18: unlogged, partitions, server 17: the partitions alone",
		{"--compat=18", "-i", "-I", "dt", "--unlogged-tables", "--partitions=2", NULL}, {170000, NULL, 0},
		DROP CREATE_PART("", "range") "# creating 2 partitions...\n"
		RANGE(" unlogged", 1, "minvalue", "50001") RANGE(" unlogged", 2, "50001", "maxvalue")},
	{"16: unlogged, no partitions, server 18: all unlogged",
		{"--compat=16", "-i", "-I", "dt", "--unlogged-tables", NULL}, {180000, NULL, 0}, DROP CREATE(" unlogged")},

	/* scale */
	{"16: scale 20000: bigint aid, 64-bit bounds", {"--compat=16", "-i", "-I", "dt", "-s", "20000", "--partitions=3", NULL}, S15,
		DROP "create table pgbench_history(tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22))\n"
		TELLERS("", "100")
		"create table pgbench_accounts(aid bigint not null,bid int,abalance int,filler char(84)) partition by range (aid)\n"
		BRANCHES("", "100") "# creating 3 partitions...\n"
		RANGE("", 1, "minvalue", "666666668") RANGE("", 2, "666666668", "1333333335") RANGE("", 3, "1333333335", "maxvalue")},
	{"16: server-side, scale 3: the row counts", {"--compat=16", "-i", "-I", "G", "-s", "3", NULL}, S15,
	BEGIN_TRUNCATE INSERT_BT("3", "30") INSERT_A("", "1", "300000") "commit\n"},

	/* the server's version: COPY FREEZE from 14 on */
	{"16: default -i, server 13: no FREEZE", {"--compat=16", "-i", NULL}, {130000, NULL, 0},
	DROP CREATE("") BEGIN_TRUNCATE COPY("pgbench_branches", "") COPY("pgbench_tellers", "")
	COPY("pgbench_accounts", "") "commit\n" VACUUM PKEYS},
	{"19: default -i, server 13: no FREEZE, no question", {"--compat=19", "-i", NULL}, {130014, NULL, 0},
	DROP CREATE("") BEGIN_TRUNCATE COPY("pgbench_branches", "") COPY("pgbench_tellers", "")
	COPY("pgbench_accounts", "") "commit\n" VACUUM PKEYS},
	{"17: -I g, server 14.0: the questions and FREEZE", {"--compat=17", "-i", "-I", "g", NULL}, {140000, NULL, 0},
	BEGIN_TRUNCATE COPY3_17 "commit\n"},
	{"19: -I g, server 18", {"--compat=19", "-i", "-I", "g", NULL}, {180000, NULL, 0},
	BEGIN_TRUNCATE COPY3_17 "commit\n"},

	/* -j N */
	{"16: -j 2, ordinary accounts: asked, then loaded as -j 1", {"--compat=16", "-j", "2", "-i", "-I", "g", "-s", "2", NULL}, S15,
	BEGIN_TRUNCATE COPY("pgbench_branches", FREEZE) COPY("pgbench_tellers", FREEZE) ASK("pgbench_accounts")
	COPY("pgbench_accounts", FREEZE) "commit\n"},
	{"19: -j 2, ordinary accounts: asked twice", {"--compat=19", "-j", "2", "-i", "-I", "g", "-s", "2", NULL}, S15,
	BEGIN_TRUNCATE ASK("pgbench_branches") COPY("pgbench_branches", FREEZE) ASK("pgbench_tellers")
	COPY("pgbench_tellers", FREEZE) ASK("pgbench_accounts") ASK("pgbench_accounts")
	COPY("pgbench_accounts", FREEZE) "commit\n"},
	{"19: -j 3, scale 5, 2 partitions",
		{"--compat=19", "-i", "-j", "3", "-s", "5", "--partitions=2", "-I", "gvp", NULL}, S15P(2),
		BEGIN_TRUNCATE ASK("pgbench_branches") COPY("pgbench_branches", FREEZE) ASK("pgbench_tellers")
		COPY("pgbench_tellers", FREEZE) ASK("pgbench_accounts") "commit\n"
		"[1] copy pgbench_accounts from stdin -- rows 1..100000\n"
		"[1] copy pgbench_accounts from stdin -- rows 100001..300000\n"
		"[1] copy pgbench_accounts from stdin -- rows 300001..500000\n"
		PARTITIONS_Q "[1] vacuum \"pgbench_accounts_1\"\n" "[1] vacuum \"pgbench_accounts_2\"\n"
		"[1] vacuum analyze pgbench_branches\n" "[1] vacuum analyze pgbench_tellers\n"
		"[1] vacuum analyze pgbench_history\n" "analyze pgbench_accounts\n"
		PARTITIONS_Q "[1] " PKEY("pgbench_branches", "bid", "") "[1] " PKEY("pgbench_tellers", "tid", "")
		"[1] " PKEY("\"pgbench_accounts_1\"", "aid", "") "[1] " PKEY("\"pgbench_accounts_2\"", "aid", "")
		"[2] " PKEY("pgbench_accounts", "aid", "")},
	{"16: -j 2, server-side, 2 partitions, index tablespace",
		{"--compat=16", "-i", "-j", "2", "-s", "3", "--partitions=2", "-I", "Gp", "--index-tablespace=ts1", NULL}, S15P(2),
		BEGIN_TRUNCATE INSERT_BT("3", "30") ASK("pgbench_accounts") "commit\n"
		INSERT_A("[1] ", "1", "100000") INSERT_A("[1] ", "100001", "300000")
		PARTITIONS_Q "[1] " PKEY("pgbench_branches", "bid", " using index tablespace \"ts1\"")
		"[1] " PKEY("pgbench_tellers", "tid", " using index tablespace \"ts1\"")
		"[1] " PKEY("\"pgbench_accounts_1\"", "aid", " using index tablespace \"ts1\"")
		"[1] " PKEY("\"pgbench_accounts_2\"", "aid", " using index tablespace \"ts1\"")
		"[2] " PKEY("pgbench_accounts", "aid", " using index tablespace \"ts1\"")},
	{"16: -j 2, v and p, no partitions", {"--compat=16", "-j", "2", "-i", "-I", "vp", NULL}, S15,
		PARTITIONS_Q "[1] vacuum analyze pgbench_branches\n" "[1] vacuum analyze pgbench_tellers\n"
		"[1] vacuum analyze pgbench_accounts\n" "[1] vacuum analyze pgbench_history\n"
		PARTITIONS_Q "[1] " PKEY("pgbench_branches", "bid", "") "[1] " PKEY("pgbench_tellers", "tid", "")
		"[1] " PKEY("pgbench_accounts", "aid", "")},
	{"16: -j 4, scale 2: two ranges", {"--compat=16", "-j", "4", "-i", "-I", "G", "-s", "2", NULL}, S15P(2),
	BEGIN_TRUNCATE INSERT_BT("2", "20") ASK("pgbench_accounts") "commit\n"
	INSERT_A("[1] ", "1", "100000") INSERT_A("[1] ", "100001", "200000")},
	{"16: -j 1 asks nothing", {"--compat=16", "-j", "1", "-i", "-I", "gv", "--partitions=2", NULL}, S15P(2),
	BEGIN_TRUNCATE COPY("pgbench_branches", FREEZE) COPY("pgbench_tellers", FREEZE) COPY("pgbench_accounts", "")
	"commit\n" VACUUM},
};
