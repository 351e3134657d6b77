# compat_init.pl — initialization (-i / -I) in the compatibility modes.
#
# Mode 19 against the real 19beta1 pgbench: each case runs ours with
# --compat=19 on database "ours" and the reference on "theirs" from the
# same prior state, and compares exit code, stdout, stderr byte for byte
# (timings masked), the SQL each sent (the server's statement log), the
# schema, the data and which rows COPY FREEZE left frozen.  Modes 17 and
# 18 have no binary: their stderr is checked against stored lines, which
# differ from 19 only where a release changed them (18 pads a progress
# line shorter than the one before, 17 does not).  Mode 16 is t/init.pl.
use strict;
use warnings;

use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $ref19 = oracle19_path('PGBENCH19');
$ref19 = undef unless $ref19 && -x $ref19;

my $node = start_cluster(settings => "log_statement = 'all'\nlog_line_prefix = '%d|'\n");
my %env = %{ $node->env };
$node->query("create database $_") for qw(ours theirs);

sub mask
{
	my ($s) = @_;
	$s =~ s/\d+\.\d\d s\b/X s/g;
	# blanks that pad a progress line depend on how long the numbers were
	$s =~ s/ +(?=\n)//g;
	return $s;
}

# -q prints a table's line when 5 s have passed since the last one (at a
# row count that is a multiple of 100), and its last line (when its rows
# are a multiple of 100): how many lines come before the last, and at
# which counts, depends on the speed of the machine (806500 of 1000000 in
# one run, 659500 in the other when both took over 5 s).  Those lines are
# checked for what is deterministic and dropped: each of the table whose
# last line follows, its count a multiple of 100 that grows, the percent
# its count gives, the k-th at 5k s elapsed or later and after the one
# before.  A line that fails a check stays, for the comparison to show.
# The text is the unmasked stderr; the rest of it stays as it is.
sub drop_quiet_lines
{
	my ($s) = @_;
	my $line_re = qr/^(\d+) of (\d+) tuples \((\d+)%\) of (\w+) done \(elapsed (\d+\.\d\d) s, remaining \d+\.\d\d s\) *$/;
	my (@out, @run);
	for my $line (split /\n/, $s, -1)
	{
		my @f = $line =~ $line_re;
		if (@f && $f[0] < $f[1])
		{
			push @run, [ $line, @f ];
			next;
		}
		push @out, map { $_->[0] } @run
		  unless @f && $f[0] == $f[1] && $f[2] == 100 && quiet_run_ok(\@run, $f[1], $f[3]);
		@run = ();
		push @out, $line;
	}
	push @out, map { $_->[0] } @run;
	return join("\n", @out);
}

# Whether the lines before the last of a table of $total rows are -q's.
sub quiet_run_ok
{
	my ($run, $total, $table) = @_;
	my ($rows, $secs) = (0, 0);
	for my $k (0 .. $#$run)
	{
		my (undef, $n, $m, $pct, $t, $elapsed) = @{ $run->[$k] };
		return 0
		  unless $t eq $table && $m == $total && $n % 100 == 0 && $n > $rows
		  && $pct == int($n * 100 / $m) && $elapsed >= 5 * ($k + 1) && $elapsed > $secs;
		($rows, $secs) = ($n, $elapsed);
	}
	return 1;
}

sub on_both { my ($sql) = @_; $node->query($sql, dbname => $_) for qw(ours theirs); }

# ---- what the database holds ---------------------------------------------------

my $schema_sql = <<'SQL';
select string_agg(line, E'\n' order by line) from (
  select format('rel %s kind=%s persistence=%s options=%s partkey=%s bound=%s',
           c.relname, c.relkind, c.relpersistence, c.reloptions,
           coalesce(pg_get_partkeydef(c.oid), '-'),
           coalesce(pg_get_expr(c.relpartbound, c.oid), '-')) as line
    from pg_class c
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
) s
SQL

# Rows of each table, a digest of their contents, and how many rows on the
# first page are frozen (COPY FREEZE), per leaf table.
sub state_of
{
	my ($db) = @_;
	my @parts = ($node->query($schema_sql, dbname => $db) // '');
	my $leaves = $node->query(
		"select string_agg(relname, ' ' order by relname) from pg_class "
		  . "where relname like 'pgbench%' and relkind = 'r' "
		  . "and relnamespace = 'public'::regnamespace", dbname => $db);
	for my $t (split / /, $leaves // '')
	{
		push @parts, "$t " . $node->query(
			"select count(*) || ' ' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '-') "
			  . "from $t t", dbname => $db);
		push @parts, "$t frozen on page 0: " . $node->query(
			"select count(*) filter (where t_infomask & 768 = 768) || '/' || count(*) "
			  . "from heap_page_items(get_raw_page('$t', 0))", dbname => $db)
		  if $node->query("select pg_relation_size('$t') > 0", dbname => $db) eq 't';
	}
	return join("\n", @parts);
}

# The statements each database received since the log had $from bytes.
sub statements_since
{
	my ($from, $db) = @_;
	my $log = slurp("$node->{base}/server.log");
	my @lines = grep { /^\Q$db\E\|/ } split /\n/, substr($log, $from);
	s/^\Q$db\E\|// for @lines;
	return join("\n", @lines);
}

sub log_size { return -s "$node->{base}/server.log"; }

# Wait until the statement log holds every statement sent so far: a
# marker statement, sent after them, has its line (the backends write
# their lines when they receive a statement, before answering it).
my $markers = 0;
sub log_settled
{
	my $marker = 'log marker ' . ++$markers;
	$node->query("select '$marker'");
	poll_until(sub { index(slurp("$node->{base}/server.log"), "'$marker'") >= 0 }, 30)
	  or diag("the statement log never showed $marker");
	return;
}

# The -q cases of scale 10 (a million rows, each loaded and read back
# several times) check the client's quiet progress lines, which do not
# depend on the server: the per-major server suites (PGBTEST_SERVER_ONLY,
# set by .ci/run) leave them to the full suites.
my $quiet_cases = !$ENV{PGBTEST_SERVER_ONLY};

# ---- mode 19 against the 19beta1 pgbench ----------------------------------------

# Runs both; returns our masked stderr.
sub case19
{
	my ($name, $args, %o) = @_;
	my $from = log_size();
	# mode => 18: ours in mode 18, which initializes as 19 does
	my $mode = $o{mode} // 19;
	$name = "$name (mode $mode)" if $mode != 19;
	my ($rc_o, $out_o, $err_o) = pgbench([ "--compat=$mode", @$args, $o{db_ours} // 'ours' ], env => \%env);
	my ($rc_t, $out_t, $err_t) = run_cmd([ $ref19, @$args, $o{db_theirs} // 'theirs' ], env => \%env);
	is($rc_o, $rc_t, "19 $name: exit code $rc_t like 19beta1");
	is($out_o, $out_t, "19 $name: stdout like 19beta1");
	($err_o, $err_t) = map { drop_quiet_lines($_) } $err_o, $err_t if $o{quiet};
	is(mask($err_o), mask($err_t), "19 $name: stderr like 19beta1")
	  or diag("ours:\n$err_o\ntheirs:\n$err_t");
	return mask($err_o) if $o{no_db};
	log_settled();
	my $sql = statements_since($from, 'ours');
	is($sql, statements_since($from, 'theirs'), "19 $name: the same SQL as 19beta1");
	like($sql, $o{sql_like}, "19 $name: the statement log has it") if $o{sql_like};
	is(state_of('ours'), state_of('theirs'), "19 $name: database like 19beta1");
	return mask($err_o);
}

my $p2 = [ '100000 of 200000 tuples (50%) of pgbench_accounts done (elapsed X s, remaining X s)',
	'200000 of 200000 tuples (100%) of pgbench_accounts done (elapsed X s, remaining X s)' ];

on_both('create extension pageinspect');
SKIP:
{
	skip 'no 19beta1 pgbench to compare with', 1 unless $ref19;

	# from server 14 on, COPY FREEZE where the table is an ordinary one;
	# below, neither FREEZE nor the question
	my $err = case19('default', ['-i'], sql_like => $node->version_num >= 140000
		? qr/SELECT relkind FROM pg_catalog\.pg_class WHERE oid=\$1::pg_catalog\.regclass\n.*(?i:parameters): \$1 = 'pgbench_branches'\n.*copy pgbench_branches from stdin with \(freeze on\)/
		: qr/truncate table pgbench_accounts, [^\n]*\nLOG:  statement: copy pgbench_branches from stdin\n/);
	is($err, <<'EOF', '19 default: messages');
dropping old tables...
NOTICE:  table "pgbench_accounts" does not exist, skipping
NOTICE:  table "pgbench_branches" does not exist, skipping
NOTICE:  table "pgbench_history" does not exist, skipping
NOTICE:  table "pgbench_tellers" does not exist, skipping
creating tables...
generating data (client-side)...
100000 of 100000 tuples (100%) of pgbench_accounts done (elapsed X s, remaining X s)
vacuuming...
creating primary keys...
done in X s (drop tables X s, create tables X s, client-side generate X s, vacuum X s, primary keys X s).
EOF
	$err = case19('scale 2, unlogged, fillfactor', [ '-i', '-s', '2', '-F', '90', '--unlogged-tables' ]);
	is_deeply([ grep { /tuples/ } split /\n/, $err ], $p2, '19: a line every 100000 rows');
	if ($quiet_cases)
	{
		$err = case19('quiet, scale 10', [ '-i', '-q', '-s', '10', '-I', 'dtg', '--unlogged-tables' ], quiet => 1);
		is_deeply([ grep { /tuples/ } split /\n/, $err ],
			[ '100 of 100 tuples (100%) of pgbench_tellers done (elapsed X s, remaining X s)',
			  '1000000 of 1000000 tuples (100%) of pgbench_accounts done (elapsed X s, remaining X s)' ],
			'19 -q: the last line of each table whose rows are a multiple of 100');
	}
	case19('range partitions, server-side, foreign keys',
		[ '-i', '-I', 'dtGvpf', '-s', '2', '--partitions=3', '--partition-method=range' ]);
	case19('hash partitions, client-side', [ '-i', '--partitions=4', '--partition-method=hash', '--foreign-keys' ]);
	# --unlogged-tables with partitions: 18 and 19 leave the four tables
	# logged and make the partitions unlogged, on every server (18 refuses
	# an unlogged partitioned table)
	for my $mode (18, 19)
	{
		for my $method ('range', 'hash')
		{
			my $sql = case19("unlogged tables, $method partitions",
				[ '-i', '--unlogged-tables', '--partitions=4', "--partition-method=$method" ], mode => $mode);
			like(state_of('ours'), qr/^rel pgbench_accounts kind=p persistence=p .*\n(?:.*\n)*rel pgbench_accounts_4 kind=r persistence=u /m,
				"$mode unlogged tables, $method partitions: a logged parent, unlogged partitions");
		}
	}
	case19('repeated steps, blanks', [ '-i', '-I', ' dtg dt ' ]);
	case19('only blanks', [ '-i', '-I', ' ' ]);

	# a partitioned pgbench_accounts that -I g did not create: 16 fails on
	# COPY FREEZE, 17 on asks the server and loads without FREEZE
	case19('tables of a partitioned run', [ '-i', '-I', 'dt', '--partitions=2' ]);
	$err = case19('g into partitions made earlier', [ '-i', '-I', 'g' ],
		sql_like => qr/copy pgbench_accounts from stdin\n/);
	like($err, qr/^done in X s \(client-side generate X s\)\.\n\z/m, '19: loaded without FREEZE');

	on_both('drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers');
	case19('g without tables', [ '-i', '-I', 'g' ]);
	case19('G without tables', [ '-i', '-I', 'G' ]);
	case19('v without tables', [ '-i', '-I', 'v' ]);
	case19('p without tables', [ '-i', '-I', 'p' ]);
	case19('f without tables', [ '-i', '-I', 'f' ]);
	case19('unknown tablespace', [ '-i', '--tablespace=nosuch' ]);
	case19('tables already there', [ '-i', '-I', 'tt' ]);
	case19('no such database', ['-i'], db_ours => 'nosuchdb', db_theirs => 'nosuchdb', no_db => 1);

	# a terminal: each table's line is blanked out, not ended by a newline
	SKIP:
	{
		skip 'no script(1) for a terminal', 2 unless -x '/usr/bin/script';
		my @outs;
		for my $who ([ our_pgbench_path() . ' --compat=19', 'ours' ], [ $ref19, 'theirs' ])
		{
			my ($rc, $out) = run_cmd(
				[ '/usr/bin/script', '-qefc', "$who->[0] -i -I dtgv -s 2 $who->[1]", '/dev/null' ],
				env => \%env);
			$out =~ s/\d+\.\d\d s\b/X s/g;
			push @outs, $out;
		}
		# the blanks are as long as the unmasked line: count them apart
		is($outs[0] =~ s/ {20,}/<blanks>/gr, $outs[1] =~ s/ {20,}/<blanks>/gr,
			'19 terminal: output like 19beta1');
		like($outs[0], qr/\(elapsed X s, remaining X s\)\r {80,}\rvacuuming\.\.\.\r\n/,
			'19 terminal: the line is blanked out and the next message overwrites it');
	}
}

# ---- modes 17 and 18: stored expectations -----------------------------------------

# the tables there, whatever ran before (without 19beta1 nothing did)
pgbench([ '-i', '-I', 'dt', 'ours' ], env => \%env);

for my $mode (17, 18)
{
	my ($rc, $out, $err) = pgbench([ "--compat=$mode", '-i', '-s', '2', '-I', 'dtg', 'ours' ], env => \%env);
	is($rc, 0, "$mode: exit 0");
	is(mask($err), join("\n", 'dropping old tables...', 'creating tables...',
		'generating data (client-side)...', @$p2,
		'done in X s (drop tables X s, create tables X s, client-side generate X s).', ''),
		"$mode: progress lines name the table");
	if ($quiet_cases)
	{
		($rc, $out, $err) = pgbench([ "--compat=$mode", '-i', '-q', '-s', '10', '-I', 'g', 'ours' ], env => \%env);
		like(drop_quiet_lines($err), qr/^100 of 100 tuples \(100%\) of pgbench_tellers done \(elapsed \d+\.\d\d s, remaining \d+\.\d\d s\)\n1000000 of 1000000 tuples/m,
			"$mode -q: tellers have their line");
	}
	# 17 and 18 load a partitioned pgbench_accounts made earlier, like 19
	on_both('drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers');
	($rc) = pgbench([ "--compat=$mode", '-i', '-I', 'dt', '--partitions=2', 'ours' ], env => \%env);
	($rc, $out, $err) = pgbench([ "--compat=$mode", '-i', '-I', 'g', 'ours' ], env => \%env);
	is($rc, 0, "$mode: -I g into partitions made earlier succeeds");
	is($node->query('select count(*) from pgbench_accounts', dbname => 'ours'), '100000',
		"$mode: all accounts loaded");
}

# ---- modes 16 and 17: --unlogged-tables with partitions ---------------------------

# pgbench 16 and 17 make every table unlogged, the partitioned parent too;
# a server from 18 on refuses an unlogged partitioned table, and there
# these modes do as 18 and 19: the four tables logged, the partitions
# unlogged (pgbench 16/17 fail).  Below 18 the schema is the system
# pgbench's.  With foreign keys (f), which reference pgbench_branches from
# the parent.
my $system = system_pgbench_path();
for my $mode (16, 17)
{
	for my $method ('range', 'hash')
	{
		my @args = ('-i', '-q', '-s', '2', '-I', 'dtgvpf', '--unlogged-tables', '--partitions=4',
			"--partition-method=$method");
		my ($rc, $out, $err) = pgbench([ "--compat=$mode", @args, 'ours' ], env => \%env);
		is($rc, 0, "$mode unlogged tables, $method partitions, foreign keys: exit 0") or diag($err);
		my $persistence = $node->query(
			"select string_agg(relname || ':' || relpersistence::text, ' ' order by relname) from pg_class "
			  . "where relname like 'pgbench%' and relkind in ('r', 'p')", dbname => 'ours');
		my $t = $node->version_num >= 180000 ? 'p' : 'u';
		is($persistence, "pgbench_accounts:$t "
			  . join(' ', map { "pgbench_accounts_$_:u" } 1 .. 4)
			  . " pgbench_branches:$t pgbench_history:$t pgbench_tellers:$t",
			"$mode unlogged tables, $method partitions: "
			  . ($t eq 'p' ? 'the partitions alone unlogged (server 18+)' : 'all unlogged'));
		if ($system && $t eq 'u')
		{
			my ($src) = run_cmd([ $system, @args, 'theirs' ], env => \%env);
			is($src, 0, "$mode unlogged tables, $method partitions: pgbench 15 too");
			# the schema only: pgbench 15 INSERTs the small tables, 16 on COPY them FREEZE
			is($node->query($schema_sql, dbname => 'ours'), $node->query($schema_sql, dbname => 'theirs'),
				"$mode unlogged tables, $method partitions: schema like pgbench 15's");
		}
	}
}

# 17 leaves a progress line shorter than the previous one unpadded, 18 pads
# it: seen on a terminal, where a line is longer than the next only when
# its "remaining" had more digits, so compare the bytes between lines.
SKIP:
{
	skip 'no script(1) for a terminal', 2 unless -x '/usr/bin/script';
	for my $mode (17, 18)
	{
		my ($rc, $out) = run_cmd(
			[ '/usr/bin/script', '-qefc', our_pgbench_path() . " --compat=$mode -i -I dtg -s 3 ours", '/dev/null' ],
			env => \%env);
		my @lines = map { s/^\n//r } grep { /tuples/ } split /\r/, $out;
		my $ok = 1;
		for my $i (1 .. $#lines)
		{
			(my $text = $lines[$i]) =~ s/ +$//;
			my $pad = length($lines[$i]) - length($text);
			my $want = $mode >= 18 && length($lines[ $i - 1 ] =~ s/ +$//r) > length($text)
			  ? length($lines[ $i - 1 ] =~ s/ +$//r) - length($text) : 0;
			$ok = 0 if $pad != $want;
		}
		ok($ok, "$mode terminal: " . ($mode >= 18 ? 'a shorter line is padded' : 'no padding'))
		  or diag(join("\n", map { "[$_]" } @lines));
	}
}

$node->stop;
done_testing();
