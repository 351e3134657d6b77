# init.pl — initialization mode (-i / -I) against a real cluster.
#
# Every case runs our pgbench on database "ours" and the system pgbench on
# database "theirs" with the same arguments and the same prior state, then
# compares exit codes, stdout and stderr (timings masked), the schema read
# back from the catalogs, and the data.  Absolute expectations (row counts,
# types, message lines) are checked as well, so that a case also fails when
# both programs would agree on something wrong.
use strict;
use warnings;

use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $system = system_pgbench_path();
plan skip_all => 'no system pgbench to compare with' unless $system;

# No autovacuum: the schema compares relpages, which must be what each
# program's own vacuum step left, not what a background analyze of one of
# the two databases (more likely on a slow machine) set meanwhile.
my $node = start_cluster(settings => "autovacuum = off\n");
my %env = %{ $node->env };
$node->query('create database ours');
$node->query('create database theirs');

# A tablespace for --tablespace / --index-tablespace.
my $ts_dir = "$node->{base}/ts1";
mkdir $ts_dir or die "mkdir $ts_dir: $!";
if ($node->{run_as})
{
	my ($uid, $gid) = (getpwnam($node->{run_as}))[ 2, 3 ];
	chown $uid, $gid, $ts_dir;
}
$node->query("create tablespace ts1 location '$ts_dir'");

# Timings differ from run to run.
sub mask
{
	my ($s) = @_;
	$s =~ s/\d+\.\d\d s\b/X s/g;
	return $s;
}

# Everything about the pgbench tables the catalogs know, one line each.
my $schema_sql = <<'SQL';
select string_agg(line, E'\n' order by line) from (
  select format('rel %s kind=%s persistence=%s options=%s tablespace=%s partkey=%s bound=%s',
           c.relname, c.relkind, c.relpersistence, c.reloptions,
           coalesce(t.spcname, '-'),
           coalesce(pg_get_partkeydef(c.oid), '-'),
           coalesce(pg_get_expr(c.relpartbound, c.oid), '-')) as line
    from pg_class c left join pg_tablespace t on t.oid = c.reltablespace
   where c.relname like 'pgbench%' and c.relnamespace = 'public'::regnamespace
  union all
  select format('col %s.%s %s %s notnull=%s', c.relname, a.attnum, a.attname,
           format_type(a.atttypid, a.atttypmod), a.attnotnull)
    from pg_attribute a join pg_class c on c.oid = a.attrelid
   where c.relname like 'pgbench%' and c.relkind in ('r', 'p')
     and a.attnum > 0 and not a.attisdropped
  union all
  select format('con %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
    from pg_constraint where conrelid::regclass::text like 'pgbench%'
  union all
  select format('idx %s', pg_get_indexdef(indexrelid))
    from pg_index where indrelid::regclass::text like 'pgbench%'
  union all
  select format('pages %s %s', relname, relpages)
    from pg_class where relname like 'pgbench%' and relkind = 'r'
) s
SQL

# Row counts and a digest of the contents, NULLs told apart from '', and
# the rows per partition of pgbench_accounts: one psql call (query_to_xml
# runs each table's query only for the tables that exist), where one per
# table and per existence test cost a connection each.
my @DIGESTED = (
	[ 'pgbench_branches', 'bid', 'bid, bbalance, filler' ],
	[ 'pgbench_tellers', 'tid', 'tid, bid, tbalance, filler' ],
	[ 'pgbench_accounts', 'aid', 'aid, bid, abalance, filler' ],
	[ 'pgbench_history', 'tid', 'tid, bid, aid, delta, mtime, filler' ]);

sub sql_literal { my ($s) = @_; $s =~ s/'/''/g; return "'$s'"; }

my $digest_sql = do
{
	my @rows;
	my $ord = 0;
	for my $t (@DIGESTED)
	{
		my ($name, $key, $cols) = @$t;
		my $q = "select count(*) || ' ' || coalesce(md5(string_agg(concat_ws('|', "
		  . join(', ', map { "coalesce(${_}::text, '<null>')" } split /, /, $cols)
		  . "), ',' order by $key)), '-') as d from $name";
		push @rows, sprintf("(%d, %s, %s)", $ord++, sql_literal($name), sql_literal($q));
	}
	my $parts = "select coalesce(string_agg(p || ':' || n, ' ' order by p), '') as d from "
	  . "(select tableoid::regclass::text p, count(*) n from pgbench_accounts group by 1) s";
	push @rows, sprintf("(%d, %s, %s)", $ord++, sql_literal('per partition'), sql_literal($parts));
	"select string_agg(label || ' ' || coalesce((xpath('/row/d/text()', query_to_xml(q, false, true, '')))[1]::text, ''), "
	  . "E'\n' order by ord) from (values " . join(', ', @rows) . ") v(ord, label, q) "
	  . "where to_regclass(case when label = 'per partition' then 'pgbench_accounts' else label end) is not null";
};

sub data_digest
{
	my ($db) = @_;
	return $node->query($digest_sql, dbname => $db) // '';
}

sub schema { my ($db) = @_; return $node->query($schema_sql, dbname => $db); }

# Run both with the database name appended; compare what they print.
sub run_both
{
	my ($name, $args, %o) = @_;
	my @ours = $o{no_db} ? @$args : (@$args, 'ours');
	my @theirs = $o{no_db} ? @$args : (@$args, 'theirs');
	my ($rc_o, $out_o, $err_o) = pgbench(\@ours, env => \%env);
	my ($rc_t, $out_t, $err_t) = system_pgbench(\@theirs, env => \%env);
	is($rc_o, $rc_t, "$name: exit code $rc_t like pgbench");
	is($out_o, $out_t, "$name: stdout like pgbench");
	is(mask($err_o), mask($err_t), "$name: stderr like pgbench")
	  or diag("ours:\n$err_o\ntheirs:\n$err_t");
	return ($rc_o, mask($err_o));
}

# Same as run_both, then compare the resulting schema and data.
sub init_case
{
	my ($name, $args) = @_;
	my ($rc, $err) = run_both($name, $args);
	my $schema = schema('ours');
	is($schema, schema('theirs'), "$name: schema like pgbench");
	is(data_digest('ours'), data_digest('theirs'), "$name: data like pgbench");
	return ($rc, $err, $schema);
}

sub on_both { my ($sql) = @_; $node->query($sql, dbname => $_) for qw(ours theirs); }

# ---- the default -i ---------------------------------------------------------

{
	my ($rc, $err, $schema) = init_case('default', ['-i']);
	is($rc, 0, 'default: exit 0');
	is( $err, <<'EOF', 'default: messages');
dropping old tables...
NOTICE:  table "pgbench_accounts" does not exist, skipping
NOTICE:  table "pgbench_branches" does not exist, skipping
NOTICE:  table "pgbench_history" does not exist, skipping
NOTICE:  table "pgbench_tellers" does not exist, skipping
creating tables...
generating data (client-side)...
100000 of 100000 tuples (100%) done (elapsed X s, remaining X s)
vacuuming...
creating primary keys...
done in X s (drop tables X s, create tables X s, client-side generate X s, vacuum X s, primary keys X s).
EOF
	like($schema, qr/^col pgbench_accounts\.1 aid integer notnull=t$/m, 'default: aid is int');
	like($schema, qr/^rel pgbench_accounts kind=r persistence=p options=\{fillfactor=100\}/m,
		'default: fillfactor 100, logged');
	like($schema, qr/^con pgbench_accounts pgbench_accounts_pkey PRIMARY KEY \(aid\)$/m,
		'default: primary key');
	is( $node->query(
			"select count(*), count(distinct bid), sum(abalance), bool_and(filler = ''), "
			  . "min(octet_length(filler)) from pgbench_accounts", dbname => 'ours'),
		'100000|1|0|t|84', 'default: accounts rows');
	is($node->query('select count(*), count(filler) from pgbench_tellers', dbname => 'ours'),
		'10|0', 'default: tellers rows, filler NULL');
	is($node->query('select bid, bbalance, filler is null from pgbench_branches', dbname => 'ours'),
		'1|0|t', 'default: branch row');
}

# ---- options that shape the tables --------------------------------------------

{
	my ($rc, $err, $schema) =
	  init_case('fillfactor unlogged quiet', [ '-i', '-s', '2', '-F', '90', '--unlogged-tables', '-q' ]);
	is($rc, 0, 'fillfactor unlogged quiet: exit 0');
	my @progress = grep { /tuples/ } split /\n/, $err;
	is_deeply(\@progress,
		['200000 of 200000 tuples (100%) done (elapsed X s, remaining X s)'],
		'-q: only the closing progress line');
	like($schema, qr/^rel pgbench_tellers kind=r persistence=u options=\{fillfactor=90\}/m,
		'-F 90 --unlogged-tables: tellers');
	like($schema, qr/^rel pgbench_history kind=r persistence=u options= /m,
		'history has no fillfactor');
}

{
	my ($rc, $err) = init_case('progress every 100000 rows', [ '-i', '-s', '3', '-I', 'dtg' ]);
	my @progress = grep { /tuples/ } split /\n/, $err;
	is_deeply(
		\@progress,
		[
			'100000 of 300000 tuples (33%) done (elapsed X s, remaining X s)',
			'200000 of 300000 tuples (66%) done (elapsed X s, remaining X s)',
			'300000 of 300000 tuples (100%) done (elapsed X s, remaining X s)',
		],
		'progress lines');
	like($err, qr/^done in X s \(drop tables X s, create tables X s, client-side generate X s\)\.$/m,
		'summary names only the steps run');
}

{
	my ($rc, $err, $schema) = init_case('range partitions, server-side, foreign keys',
		[ '-i', '-I', 'dtGvpf', '-s', '2', '--partitions=3', '--partition-method=range' ]);
	is($rc, 0, 'range partitions: exit 0');
	like($err, qr/^creating 3 partitions\.\.\.$/m, 'range partitions: message');
	like($err, qr/^generating data \(server-side\)\.\.\.$/m, 'server-side message');
	like($err, qr/^creating foreign keys\.\.\.$/m, 'foreign keys message');
	like($schema, qr/^rel pgbench_accounts kind=p .* partkey=RANGE \(aid\) bound=-$/m,
		'accounts partitioned by range');
	like($schema,
		qr/^rel pgbench_accounts_1 kind=r .*bound=FOR VALUES FROM \(MINVALUE\) TO \(66668\)$/m,
		'first range bound');
	like($schema,
		qr/^rel pgbench_accounts_2 kind=r .*bound=FOR VALUES FROM \(66668\) TO \(133335\)$/m,
		'middle range bound');
	like($schema,
		qr/^rel pgbench_accounts_3 kind=r .*bound=FOR VALUES FROM \(133335\) TO \(MAXVALUE\)$/m,
		'last range bound');
	like($schema, qr/^con pgbench_history pgbench_history_aid_fkey FOREIGN KEY \(aid\) REFERENCES pgbench_accounts\(aid\)$/m,
		'history -> accounts foreign key');
}

{
	my ($rc, $err, $schema) = init_case('hash partitions, client-side',
		[ '-i', '-s', '1', '--partitions=4', '--partition-method=hash', '--foreign-keys' ]);
	is($rc, 0, 'hash partitions: exit 0');
	like($schema, qr/^rel pgbench_accounts kind=p .* partkey=HASH \(aid\)/m, 'hash partitioned');
	like($schema,
		qr/^rel pgbench_accounts_4 kind=r .*options=\{fillfactor=100\}.*bound=FOR VALUES WITH \(modulus 4, remainder 3\)$/m,
		'hash bound of the last partition');
	like($err, qr/^creating foreign keys\.\.\.$/m, '--foreign-keys adds step f');
}

{
	my ($rc, $err, $schema) = init_case('tablespaces',
		[ '-i', '--tablespace=ts1', '--index-tablespace=ts1', '--partitions=2' ]);
	is($rc, 0, 'tablespaces: exit 0');
	like($schema, qr/^rel pgbench_branches kind=r .*tablespace=ts1 /m, 'table in ts1');
	like($schema, qr/^rel pgbench_accounts_pkey kind=I .*tablespace=ts1 /m, 'partitioned index in ts1');
	like($schema, qr/^rel pgbench_tellers_pkey kind=i .*tablespace=ts1 /m, 'index in ts1');
}

{
	my ($rc, $err, $schema) = init_case('bigint above scale 20000',
		[ '-i', '-I', 'dt', '-s', '20000', '--partitions=3' ]);
	like($schema, qr/^col pgbench_accounts\.1 aid bigint notnull=t$/m, 'aid bigint');
	like($schema, qr/^col pgbench_history\.3 aid bigint notnull=f$/m, 'history aid bigint');
	like($schema, qr/bound=FOR VALUES FROM \('666666668'\) TO \('1333333335'\)$/m,
		'64-bit range bounds');
}

init_case('no vacuum, spaces in steps', [ '-i', '-n', '-I', ' d t g v ' ]);
init_case('repeated steps', [ '-i', '-I', 'dtgdt' ]);
{
	my ($rc, $err) = run_both('only blanks', [ '-i', '-I', ' ' ]);
	is($err, "done in X s ().\n", 'only blanks: an empty summary');
}

# Tables whose column types differ from pgbench's own still load.
on_both('alter table pgbench_accounts alter abalance type bigint');
init_case('accounts with a bigint abalance', [ '-i', '-I', 'gv' ]);
on_both('alter table pgbench_accounts alter abalance type int, alter aid type bigint');
init_case('accounts with a bigint aid', [ '-i', '-I', 'g', '-s', '2' ]);

# ---- a terminal gets '\r' ------------------------------------------------------

# Runs both under script(1), so that stderr is a terminal; returns ours.
sub terminal_case
{
	my ($name, $args) = @_;
	my @outs;
	for my $who ([ our_pgbench_path(), 'ours' ], [ $system, 'theirs' ])
	{
		my ($rc, $out) = run_cmd(
			[ '/usr/bin/script', '-qefc', join(' ', $who->[0], @$args, $who->[1]), '/dev/null' ],
			env => \%env);
		push @outs, mask($out);
	}
	is($outs[0], $outs[1], "$name: terminal output like pgbench");
	return $outs[0];
}

my $have_script = -x '/usr/bin/script';
SKIP:
{
	skip 'no script(1) for a terminal', 2 unless $have_script;
	my $out = terminal_case('progress', [ '-i', '-I', 'dtg', '-s', '2' ]);
	like($out,
		qr/100000 of 200000 tuples \(50%\) done \(elapsed X s, remaining X s\)\r200000 of 200000 tuples \(100%\) done \(elapsed X s, remaining X s\)\r\r\n/,
		'terminal: progress on one line, then a newline');
}

# ---- failing steps -----------------------------------------------------------

sub fail_case
{
	my ($name, $args, $expect) = @_;
	my ($rc, $err) = run_both($name, $args);
	is($rc, 1, "$name: exit 1");
	like($err, $expect, "$name: message");
}

on_both('drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers');
fail_case('g without tables', [ '-i', '-I', 'g' ],
	qr/^generating data \(client-side\)\.\.\.\npgbench: error: query failed: ERROR:  relation "pgbench_accounts" does not exist\npgbench: detail: Query was: truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers\n\z/);
fail_case('G without tables', [ '-i', '-I', 'G' ],
	qr/^generating data \(server-side\)\.\.\.\npgbench: error: query failed: ERROR:  relation "pgbench_accounts" does not exist\n/);
fail_case('v without tables', [ '-i', '-I', 'v' ],
	qr/^vacuuming\.\.\.\npgbench: error: query failed: ERROR:  relation "pgbench_branches" does not exist\npgbench: detail: Query was: vacuum analyze pgbench_branches\n\z/);
fail_case('p without tables', [ '-i', '-I', 'p' ],
	qr/^creating primary keys\.\.\.\npgbench: error: query failed: .*\npgbench: detail: Query was: alter table pgbench_branches add primary key \(bid\)\n\z/);
fail_case('f without tables', [ '-i', '-I', 'f' ],
	qr/^creating foreign keys\.\.\.\npgbench: error: query failed: .*\npgbench: detail: Query was: alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key \(bid\) references pgbench_branches\n\z/);
fail_case('unknown tablespace', [ '-i', '--tablespace=nosuch' ],
	qr/^creating tables\.\.\.\npgbench: error: query failed: ERROR:  tablespace "nosuch" does not exist\npgbench: detail: Query was: create table pgbench_history\(tid int,bid int,aid    int,delta int,mtime timestamp,filler char\(22\)\) tablespace "nosuch"\n\z/m);
fail_case('tables already there', [ '-i', '-I', 'tt' ],
	qr/^creating tables\.\.\.\npgbench: error: query failed: ERROR:  relation "pgbench_history" already exists\n/m);
fail_case('unknown index tablespace', [ '-i', '-I', 'dtp', '--index-tablespace=nosuch' ],
	qr/^pgbench: detail: Query was: alter table pgbench_branches add primary key \(bid\) using index tablespace "nosuch"\n\z/m);
run_both('partitioned tables to load', [ '-i', '-I', 'dt', '--partitions=2' ]);
# a server below 14 gets no COPY FREEZE at all: the load succeeds there
my $freeze = $node->version_num >= 140000;
if ($freeze)
{
	fail_case('COPY FREEZE into a partitioned table', [ '-i', '-I', 'g' ],
		qr/^ERROR:  cannot perform COPY FREEZE on a partitioned table\npgbench: error: PQendcopy failed\n\z/m);
}
else
{
	my ($rc) = run_both('partitions made earlier, server below 14', [ '-i', '-I', 'g' ]);
	is($rc, 0, 'partitions made earlier, server below 14: no COPY FREEZE, loaded');
	run_both('partitioned tables to load', [ '-i', '-I', 'dt', '--partitions=2' ]);
}
SKIP:
{
	skip 'no script(1) for a terminal', 2 unless $have_script;
	skip 'no COPY FREEZE below server 14', 2 unless $freeze;
	my $out = terminal_case('failed COPY', [ '-i', '-I', 'g' ]);
	like($out, qr/remaining X s\)\r\r\nERROR:  cannot perform COPY FREEZE/,
		'terminal: the progress line ends before the error');
}

{
	my ($rc, $err) = run_both('no such database', [ '-i', 'nosuchdb' ], no_db => 1);
	is($rc, 1, 'no such database: exit 1');
	like($err, qr/^pgbench: error: connection to server .* failed: FATAL:  database "nosuchdb" does not exist\npgbench: error: could not create connection for initialization\n\z/,
		'no such database: message');
}

# ---- bad options (the parser's, seen from -i) ---------------------------------

fail_case('scale 0', [ '-i', '-s', '0' ],
	qr/^pgbench: error: -s\/--scale must be in range 1\.\.2147483647\n\z/);
fail_case('fillfactor 5', [ '-i', '-F', '5' ],
	qr/^pgbench: error: -F\/--fillfactor must be in range 10\.\.100\n\z/);
fail_case('negative partitions', [ '-i', '--partitions=-1' ],
	qr/^pgbench: error: --partitions must be in range 0\.\.2147483647\n\z/);
fail_case('method without partitions', [ '-i', '--partition-method=hash' ],
	qr/^pgbench: error: --partition-method requires greater than zero --partitions\n\z/);
fail_case('unknown step', [ '-i', '-I', 'dtx' ],
	qr/^pgbench: error: unrecognized initialization step "x"\npgbench: detail: Allowed step characters are: "dtgGvpf"\.\n\z/);

$node->stop;
done_testing();
