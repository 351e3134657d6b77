# report.pl — the final report, line by line: every variant of pgbench 16's
# report (-t, -T, -R, -L, -R -L, -C, --max-tries, --failures-detailed,
# several weighted scripts, -r with and without the retries column,
# partitions, an aborted run's epilogue) is compared with a template of
# pgbench 16's format after masking the figures, and with the system
# pgbench's output for the same command line.  Then exact counts: the
# failures column of -r adds up to the failed transactions, and a -j 4 -r
# run's per-command counts (--report-json) add up to the total.  Last, our
# extensions: --percentiles lines and the --report-json document.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbStats;
use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbreport_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
$node->query('create table ser (id int primary key, v int); '
	  . 'insert into ser select i, 0 from generate_series(1, 2) i');

my $one = write_file("$dir/one.sql", "select 1;\n");
my $two = write_file("$dir/two.sql", "\\set x random(1, 10)\nselect :x;\n");
# concurrent repeatable-read updates of two rows: serialization failures
my $ser = write_file("$dir/ser.sql",
	"\\set id random(1, 2)\n"
	  . "begin isolation level repeatable read;\n"
	  . "select v from ser where id = :id;\n"
	  . "update ser set v = v + 1 where id = :id;\n"
	  . "end;\n");
my $bad = write_file("$dir/bad.sql", "select 1/0;\n");
# select 1 after a nap of 2 ms: a run of a duration without a busy client
# and server all along
my $nap = write_file("$dir/nap.sql", "\\sleep 2 ms\nselect 1;\n");
my $half = write_file("$dir/half.sql",
	"\\if :client_id = 0\nselect 1/0;\n\\else\nselect 1;\n\\endif\n");

# ---- pgbench 16's report, as a template -----------------------------------

# The lines printResults prints for the run described by %p, numbers as
# in the real report (masked afterwards).  Keys: scripts (list of
# [name, weight, [command lines]]), c, j, t or T, tries (default 1), R, L,
# P, C, detailed, failures (the run had some), r, pmethod/parts, aborted
# (nothing ran), pct (our --percentiles list).
sub template
{
	my (%p) = @_;
	my @s = @{ $p{scripts} };
	my $tries = $p{tries} // 1;
	my $measured = $p{R} || $p{P} || $p{L};
	my @l = ('pgbench (VERSION)');

	push @l, 'transaction type: ' . (@s == 1 ? $s[0][0] : 'multiple scripts');
	push @l, 'scaling factor: 1';
	push @l, "partition method: $p{pmethod}", "partitions: $p{parts}" if $p{pmethod};
	push @l, 'query mode: ' . ($p{mode} // 'simple');
	push @l, "number of clients: $p{c}", "number of threads: $p{j}";
	push @l, "maximum number of tries: $tries" if $tries != 0;
	if ($p{t})
	{
		push @l, "number of transactions per client: $p{t}",
		  'number of transactions actually processed: 1/1';
	}
	else
	{
		push @l, "duration: $p{T} s", 'number of transactions actually processed: 1';
	}
	my @failures = ('number of failed transactions: 0 (0.000%)');
	push @failures, 'number of serialization failures: 0 (0.000%)',
	  'number of deadlock failures: 0 (0.000%)'
	  if $p{detailed};
	push @failures, 'number of transactions retried: 0 (0.000%)', 'total number of retries: 0'
	  if $tries != 1;
	push @l, @failures;
	# nothing ran: 0/0 percentages, and nothing more is printed
	return mask_numbers(join('', map { s/\(0\.000%\)/(NaN%)/r . "\n" } @l)) if $p{aborted};

	push @l, 'number of transactions skipped: 0 (0.000%)' if $p{R} && $p{L};
	push @l, 'number of transactions above the 1.0 ms latency limit: 0/0 (0.000%)' if $p{L};
	if ($measured)
	{
		push @l, 'latency average = 1 ms', 'latency stddev = 1 ms';
	}
	else
	{
		push @l, 'latency average = 1 ms' . ($p{failures} ? ' (including failures)' : '');
	}
	push @l, map { "latency p$_ = 1 ms" } @{ $p{pct} } if $p{pct};
	push @l, 'rate limit schedule lag: avg 1 (max 1) ms' if $p{R};
	if ($p{C})
	{
		push @l, 'average connection time = 1 ms', 'tps = 1 (including reconnection times)';
	}
	else
	{
		push @l, 'initial connection time = 1 ms', 'tps = 1 (without initial connection time)';
	}

	for my $i (0 .. $#s)
	{
		my ($name, $weight, $commands) = @{ $s[$i] };
		if (@s > 1)
		{
			push @l, 'SQL script ' . ($i + 1) . ": $name",
			  " - weight: $weight (targets 1.0% of total)",
			  ' - 1 transactions (1.0% of total, tps = 1)',
			  map({ " - $_" } @failures);
			push @l, ' - number of transactions skipped: 0 (0.000%)' if $p{R} && $p{L};
			push @l, ' - latency average = 1 ms', ' - latency stddev = 1 ms';
			push @l, map { " - latency p$_ = 1 ms" } @{ $p{pct} } if $p{pct};
		}
		if ($p{r})
		{
			push @l, (@s > 1 ? ' - ' : '') . 'statement latencies in milliseconds'
			  . ($tries == 1 ? ' and failures:' : ', failures and retries:');
			push @l, map { '   1.000  0' . ($tries == 1 ? '' : '  0') . "  $_" } @$commands;
		}
	}
	return mask_numbers(join('', map { "$_\n" } @l));
}

# ---- the variants ------------------------------------------------------------

my @one = ($one, 1, ['select 1;']);
my @two = ($two, 1, [ '\set x random(1, 10)', 'select :x;' ]);
my @ser = ($ser, 1,
	[ '\set id random(1, 2)', 'begin isolation level repeatable read;',
	  'select v from ser where id = :id;', 'update ser set v = v + 1 where id = :id;', 'end;' ]);
my @tpcb_lines = (
	'\set aid random(1, 100000 * :scale)', '\set bid random(1, 1 * :scale)',
	'\set tid random(1, 10 * :scale)', '\set delta random(-5000, 5000)',
	'BEGIN;', 'UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;',
	'SELECT abalance FROM pgbench_accounts WHERE aid = :aid;',
	'UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;',
	'UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;',
	'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);',
	'END;');
my $TPCB = [ '<builtin: TPC-B (sort of)>', 1, \@tpcb_lines ];

# name, arguments, template keys, expected exit code
my @VARIANTS = (
	[ '-t', [ '-f', $one, '-t', '20', '-c', '2' ],
		{ scripts => [ \@one ], c => 2, j => 1, t => 20 } ],
	[ '-T -j 2', [ '-f', $nap, '-T', '1', '-c', '2', '-j', '2' ],
		{ scripts => [ [ $nap, 1, [ '\sleep 2 ms', 'select 1;' ] ] ], c => 2, j => 2, T => 1 } ],
	[ 'builtin tpcb-like -r', [ '-t', '10', '-r' ],
		{ scripts => [$TPCB], c => 1, j => 1, t => 10, r => 1 } ],
	[ '-R', [ '-f', $one, '-T', '1', '-R', '200' ],
		{ scripts => [ \@one ], c => 1, j => 1, T => 1, R => 1 } ],
	[ '-R -L (skipped)', [ '-f', $one, '-T', '1', '-R', '2000', '-L', '1' ],
		{ scripts => [ \@one ], c => 1, j => 1, T => 1, R => 1, L => 1 } ],
	[ '-L', [ '-f', $one, '-t', '20', '-L', '1' ],
		{ scripts => [ \@one ], c => 1, j => 1, t => 20, L => 1 } ],
	# -P 60: no progress line on stderr, however slowly the 20 transactions run
	[ '-P', [ '-f', $one, '-t', '20', '-P', '60' ],
		{ scripts => [ \@one ], c => 1, j => 1, t => 20, P => 1 } ],
	[ '-C', [ '-f', $one, '-t', '5', '-c', '2', '-C' ],
		{ scripts => [ \@one ], c => 2, j => 1, t => 5, C => 1 } ],
	[ '-M prepared -j 2 -r', [ '-f', $two, '-t', '10', '-c', '2', '-j', '2', '-r', '-M', 'prepared' ],
		{ scripts => [ \@two ], c => 2, j => 2, t => 10, r => 1, mode => 'prepared' } ],
	[ '--max-tries=3 -T (retries)', [ '-f', $ser, '-T', '1', '-c', '4', '-j', '2', '--max-tries=3' ],
		{ scripts => [ \@ser ], c => 4, j => 2, T => 1, tries => 3, failures => 1 } ],
	[ '--max-tries=0 -T -r (unlimited)', [ '-f', $ser, '-T', '1', '-c', '4', '--max-tries=0', '-r' ],
		{ scripts => [ \@ser ], c => 4, j => 1, T => 1, tries => 0, r => 1 } ],
	[ '--failures-detailed', [ '-f', $ser, '-t', '25', '-c', '4', '-j', '2', '--failures-detailed' ],
		{ scripts => [ \@ser ], c => 4, j => 2, t => 25, detailed => 1, failures => 1 } ],
	[ '--failures-detailed --max-tries=2 -r', [ '-f', $ser, '-t', '25', '-c', '4', '--failures-detailed', '--max-tries=2', '-r' ],
		{ scripts => [ \@ser ], c => 4, j => 1, t => 25, detailed => 1, tries => 2, failures => 1, r => 1 } ],
	[ 'several scripts', [ '-f', "$one\@3", '-f', "$two\@1", '-t', '40', '-c', '2' ],
		{ scripts => [ [ $one, 3, ['select 1;'] ], [ $two, 1, $two[2] ] ], c => 2, j => 1, t => 40 } ],
	[ 'several scripts -r', [ '-f', "$one\@2", '-f', "$two\@2", '-t', '40', '-c', '2', '-j', '2', '-r' ],
		{ scripts => [ [ $one, 2, ['select 1;'] ], [ $two, 2, $two[2] ] ], c => 2, j => 2, t => 40, r => 1 } ],
	[ 'several scripts -r --max-tries=2 -R -L', [ '-f', "$one\@1", '-f', "$ser\@1", '-T', '1', '-c', '2', '-r',
			'--max-tries=2', '-R', '500', '-L', '50' ],
		{ scripts => [ [ $one, 1, ['select 1;'] ], [ $ser, 1, $ser[2] ] ], c => 2, j => 1, T => 1, r => 1,
		  tries => 2, R => 1, L => 1 } ],
);

for my $v (@VARIANTS)
{
	my ($name, $args, $keys) = @$v;
	my @args = ('-n', @$args);

	($rc, $out, $err) = run_accounted($name, \@args, sub { pgbench(\@args, env => \%env) });
	my $failures = $out =~ /^number of failed transactions: [1-9]/m;
	is($rc, 0, "$name: exit code");
	# " (including failures)" depends on whether this run had a failure
	compare_lines(mask_numbers($out), template(%$keys, failures => $keys->{failures} && $failures),
		"$name: pgbench 16's lines");
	is($err, '', "$name: nothing on stderr");
	if ($keys->{r})
	{
		my @cmd = grep { /^   / } split /\n/, $out;
		my $width = qr/^   [ \d.]{11}  [ \d]{10}  / if ($keys->{tries} // 1) == 1;
		$width = qr/^   [ \d.]{11}  [ \d]{10}  [ \d]{10}  / if ($keys->{tries} // 1) != 1;
		is(scalar(grep { !/$width\S/ } @cmd), 0, "$name: -r columns are %11.3f  %10d");
	}
	next unless $system;
	my ($src, $sout, $serr) = run_accounted("$name (system)", \@args, sub { system_pgbench(\@args, env => \%env) });
	my $sfail = $sout =~ /^number of failed transactions: [1-9]/m;
	if ($failures != $sfail)
	{
		# one run had a failure, the other none: only that suffix may differ
		$sout =~ s/ \(including failures\)$//m;
		$out =~ s/ \(including failures\)$//m;
	}
	is($rc, $src, "$name: same exit code as the system pgbench");
	compare_lines(mask_numbers($out), mask_numbers($sout), "$name: same lines as the system pgbench");
}

# ---- partitions -------------------------------------------------------------

$node->query('create database parts');
($rc, $out, $err) = pgbench([ '-i', '-q', '--partitions=3', 'parts' ], env => \%env);
is($rc, 0, 'initialize with --partitions=3');
for my $method ('range', 'hash')
{
	if ($method eq 'hash')
	{
		($rc) = pgbench([ '-i', '-q', '--partitions=2', '--partition-method=hash', 'parts' ], env => \%env);
	}
	my $parts = $method eq 'range' ? 3 : 2;
	my @args = ('-n', '-S', '-t', '5', 'parts');
	($rc, $out, $err) = pgbench(\@args, env => \%env);
	is($rc, 0, "partitions ($method): exit code");
	compare_lines(mask_numbers($out),
		template(scripts => [ [ '<builtin: select only>', 1, [] ] ], c => 1, j => 1, t => 5,
			pmethod => $method, parts => $parts),
		"partitions ($method): pgbench 16's lines");
	like($out, qr/^partition method: $method\npartitions: $parts\n/m, "partitions ($method): exact lines");
	next unless $system;
	my ($src, $sout) = system_pgbench(\@args, env => \%env);
	compare_lines(mask_numbers($out), mask_numbers($sout), "partitions ($method): same lines as the system pgbench");
}

# ---- aborted runs -------------------------------------------------------------

my $abort_err = "pgbench: error: client 0 script 0 aborted in command 0 query 0: ERROR:  division by zero\n"
  . "pgbench: error: client 1 script 0 aborted in command 0 query 0: ERROR:  division by zero\n"
  . "pgbench: error: Run was aborted; the above results are incomplete.\n";
($rc, $out, $err) = pgbench([ '-n', '-f', $bad, '-t', '3', '-c', '2' ], env => \%env);
is($rc, 2, 'every client aborted: exit code 2');
compare_lines(mask_numbers($out), template(scripts => [ [ $bad, 1, [] ] ], c => 2, j => 1, t => 3, aborted => 1),
	'every client aborted: the report stops after the failures');
like($out, qr/^number of transactions actually processed: 0\/6\nnumber of failed transactions: 0 \(NaN%\)\n\z/m,
	'every client aborted: 0/6 and NaN%, as pgbench');
# the two clients may fail in either order; the epilogue comes last
is(join('', sort(split(/^/, $err =~ s/^.*Run was aborted.*\n//mr)), ($err =~ /^(.*Run was aborted.*\n)\z/m)),
	$abort_err, 'every client aborted: messages and epilogue');

($rc, $out, $err) = pgbench([ '-n', '-f', $half, '-t', '4', '-c', '2', '-r' ], env => \%env);
is($rc, 2, 'one client aborted: exit code 2');
compare_lines(mask_numbers($out),
	template(scripts => [ [ $half, 1, [ '\if :client_id = 0', 'select 1/0;', '\else', 'select 1;', '\endif' ] ] ],
		c => 2, j => 1, t => 4, r => 1),
	'one client aborted: the whole report');
like($out, qr/^number of transactions actually processed: 4\/8$/m, 'one client aborted: 4/8 processed');
is($err, "pgbench: error: client 0 script 0 aborted in command 1 query 0: ERROR:  division by zero\n"
	  . "pgbench: error: Run was aborted; the above results are incomplete.\n",
	'one client aborted: message, then the epilogue after the report');
if ($system)
{
	for my $args ([ '-n', '-f', $bad, '-t', '3', '-c', '2' ], [ '-n', '-f', $half, '-t', '4', '-c', '2', '-r' ])
	{
		($rc, $out, $err) = pgbench($args, env => \%env);
		my ($src, $sout, $serr) = system_pgbench($args, env => \%env);
		is($rc, $src, "aborted (@$args[2]): same exit code as the system pgbench");
		compare_lines(mask_numbers($out), mask_numbers($sout),
			"aborted (@$args[2]): same report as the system pgbench");
		# clients may fail in either order
		is(join('', sort split /^/, mask_numbers($err)), join('', sort split /^/, mask_numbers($serr)),
			"aborted (@$args[2]): same messages as the system pgbench");
	}
}

# ---- exact counts ------------------------------------------------------------------

# the failures column of -r adds up to the failed transactions (400
# transactions of four clients: some fail, however loaded the machine)
($rc, $out, $err) = pgbench([ '-n', '-f', $ser, '-t', '100', '-c', '4', '-j', '2', '-r' ], env => \%env);
my ($failed) = $out =~ /^number of failed transactions: (\d+)/m;
my $column = 0;
$column += $1 while $out =~ /^ +[\d.]+ +(\d+)  /mg;
ok($failed > 0, "serialization failures happen ($failed)");
is($column, $failed, '-r failures column adds up to the failed transactions');

# -j 4 -r: every command of every transaction counted once, none lost
my $json_file = "$dir/count.json";
($rc, $out, $err) = pgbench([ '-n', '-f', $two, '-f', $one, '-t', '250', '-c', '8', '-j', '4', '-r',
		"--report-json=$json_file" ], env => \%env);
is($rc, 0, '-j 4 -r --report-json: exit code');
my $doc = decode_json(slurp($json_file));
is($doc->{transactions}{processed}, 2000, '-j 4: 2000 transactions in the document');
my ($s1, $s2) = @{ $doc->{scripts} };
is($s1->{transactions}{processed} + $s2->{transactions}{processed}, 2000, '-j 4: per-script counts add up');
is_deeply([ map { $_->{latency_ms}{count} } @{ $s1->{commands} } ],
	[ ($s1->{transactions}{processed}) x 2 ], '-j 4: each command of script 1 counted once per transaction');
is_deeply([ map { $_->{latency_ms}{count} } @{ $s2->{commands} } ],
	[ $s2->{transactions}{processed} ], '-j 4: the command of script 2 counted once per transaction');
like($out, qr/^ - \Q$s1->{transactions}{processed}\E transactions /m,
	'-j 4: the text report shows the same per-script count');

# ---- extensions: --percentiles ---------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '200', '--percentiles' ], env => \%env);
is($rc, 0, '--percentiles: exit code');
compare_lines(mask_numbers($out),
	template(scripts => [ \@one ], c => 1, j => 1, t => 200, pct => [ 50, 90, 99, 99.9 ]),
	'--percentiles: four lines after the latency average');
my @p = $out =~ /^latency p[\d.]+ = ([\d.]+) ms$/mg;
ok(@p == 4 && $p[0] <= $p[1] && $p[1] <= $p[2] && $p[2] <= $p[3], "--percentiles: ascending (@p)");

($rc, $out, $err) = pgbench([ '-n', '-f', "$one\@1", '-f', "$two\@1", '-t', '50', '--percentiles=25,75', '-R', '5000' ],
	env => \%env);
is($rc, 0, '--percentiles=25,75 with scripts: exit code');
compare_lines(mask_numbers($out),
	template(scripts => [ [ $one, 1, [] ], [ $two, 1, [] ] ], c => 1, j => 1, t => 50, R => 1, pct => [ 25, 75 ]),
	'--percentiles=25,75: overall and per-script lines');

for my $bad_list ('', 'abc', '50,', '101', '-1', '50;90', join(',', 1 .. 17))
{
	($rc, $out, $err) = pgbench([ "--percentiles=$bad_list", '-t', '1' ], env => \%env);
	is($rc, 1, "--percentiles=$bad_list: exit code 1");
	is($err, qq{pgbench: error: invalid percentile list: "$bad_list"\n}
		  . "pgbench: detail: Percentiles are numbers from 0 to 100 separated by commas, at most 16 different ones.\n",
		"--percentiles=$bad_list: message names the valid range");
}
# a repeated percentile is printed once; 100 is the true maximum
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '50', '--percentiles=90,50,90,100', '-r', "--report-json=$dir/dup.json" ],
	env => \%env);
is(join(',', $out =~ /^latency p([\d.]+) = /mg), '90,50,100', '--percentiles=90,50,90,100: each once, in the order given');
my $dup = decode_json(slurp("$dir/dup.json"));
my ($p100) = $out =~ /^latency p100 = ([\d.]+) ms$/m;
is($p100, sprintf('%.3f', $dup->{latency_ms}{max}), 'p100 is the true maximum');
is($dup->{latency_ms}{percentiles}{p100}, $dup->{latency_ms}{max}, 'json: p100 is the true maximum');
($rc, $out, $err) = pgbench([ '-i', '--percentiles' ], env => \%env);
is($err, "pgbench: error: some of the specified options cannot be used in initialization (-i) mode\n",
	'--percentiles is a benchmarking option');
($rc, $out, $err) = pgbench([ '--report-json' ], env => \%env);
is($rc, 1, '--report-json without a file: exit code 1');
like($err, qr/option '--report-json' requires an argument\n/, '--report-json without a file: message');
($rc, $out, $err) = pgbench([ '-n', '-t', '1', '--report-json=/nonexistent/r.json' ], env => \%env);
is($rc, 1, '--report-json into a missing directory: exit code 1');
like($err, qr{^pgbench: error: could not open report file "/nonexistent/r.json": No such file or directory$}m,
	'--report-json into a missing directory: message');
# only full names: pgbench's abbreviations keep their meaning
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '2', '--report' ], env => \%env);
like($out, qr/^statement latencies in milliseconds and failures:$/m, '--report still abbreviates --report-per-command');
($rc, $out, $err) = pgbench([ '-n', '-f', '--percentiles', '-t', '1' ], env => \%env);
like($err, qr/could not open file "--percentiles"/, 'an argument of -f is never taken for --percentiles');

# ---- extensions: --report-json ------------------------------------------------------

$json_file = "$dir/full.json";
{
	my @args = ('-n', '-f', $ser, '-T', '1', '-c', '4', '-j', '2', '--max-tries=2',
		'--failures-detailed', '-r', '-R', '2000', '-L', '20', "--report-json=$json_file");
	($rc, $out, $err) = run_accounted('--report-json', \@args, sub { pgbench(\@args, env => \%env) });
}
is($rc, 0, '--report-json: exit code');
$doc = decode_json(slurp($json_file));
my %text;
$text{$1} = $2 while $out =~ /^([a-z][a-z ]+): (\d+)/mg;
is($doc->{transactions}{processed}, $text{'number of transactions actually processed'}, 'json: processed');
is($doc->{transactions}{failed}, $text{'number of failed transactions'}, 'json: failed');
is($doc->{transactions}{serialization_failures}, $text{'number of serialization failures'}, 'json: serialization');
is($doc->{transactions}{retried}, $text{'number of transactions retried'}, 'json: retried');
is($doc->{transactions}{retries}, $text{'total number of retries'}, 'json: retries');
is($doc->{transactions}{skipped}, $text{'number of transactions skipped'}, 'json: skipped');
is($doc->{transactions}{total},
	$doc->{transactions}{processed} + $doc->{transactions}{failed} + $doc->{transactions}{skipped},
	'json: total = processed + failed + skipped');
my ($late) = $out =~ /latency limit: (\d+)\//;
is($doc->{transactions}{late}, $late, 'json: late');
my ($avg) = $out =~ /^latency average = ([\d.]+) ms/m;
is(sprintf('%.3f', $doc->{text_latency_average_ms}), $avg, 'json: text_latency_average_ms as the text shows it');
my ($tps) = $out =~ /^tps = ([\d.]+)/m;
is(sprintf('%.6f', $doc->{tps}), $tps, 'json: tps');
is_deeply([ sort keys %{ $doc->{latency_ms}{percentiles} } ], [ sort qw(p50 p90 p95 p99 p99.9 p100) ],
	'json: the default percentiles without --percentiles');
is($doc->{settings}{max_tries}, 2, 'json: settings.max_tries');
is($doc->{settings}{rate_tps}, 2000, 'json: settings.rate_tps');
is($doc->{settings}{clients}, 4, 'json: settings.clients');
ok(defined $doc->{lag_ms}{average}, 'json: lag under -R');
is(scalar @{ $doc->{scripts}[0]{commands} }, 5, 'json: five commands');
my $cmd_failures = 0;
$cmd_failures += $_->{failures} for @{ $doc->{scripts}[0]{commands} };
is($cmd_failures, $doc->{transactions}{failed}, 'json: per-command failures add up');
is($doc->{aborted}, JSON::PP::false, 'json: not aborted');

($rc, $out, $err) = pgbench([ '-n', '-f', $half, '-t', '2', '-c', '2', '--percentiles=50', "--report-json=$json_file" ],
	env => \%env);
is($rc, 2, '--report-json of an aborted run: exit code 2');
$doc = decode_json(slurp($json_file));
is($doc->{aborted}, JSON::PP::true, 'json: aborted');
is($doc->{transactions}{processed}, 2, 'json: what the other client did');
ok(defined $doc->{latency_ms}{percentiles}{p50}, 'json: percentiles when asked');

done_testing();
