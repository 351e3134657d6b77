# logs.pl — the -l transaction logs: one file per thread named
# prefix.PID and prefix.PID.N, every transaction once, the fields of each
# format (plain, -R lag, --max-tries retries, skipped / failed /
# serialization), the same line shapes as the system pgbench's files,
# --log-prefix, --sampling-rate drawing the same transactions as pgbench
# for a fixed seed, --aggregate-interval lines of 15 fields that add up to
# the whole run (the last partial interval included), and the errors: a
# log that cannot be created (exit 1) or written (exit 2).
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbStats;
use PgbTest;
use Test::More;
use Time::HiRes ();

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgblogs_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
$node->psql('create table ser (id int primary key, v int); '
	  . 'insert into ser select i, 0 from generate_series(1, 2) i');
my $one = write_file("$dir/one.sql", "select 1;\n");
my $ser = write_file("$dir/ser.sql",
	"\\set id random(1, 2)\n"
	  . "begin isolation level repeatable read;\n"
	  . "select v from ser where id = :id;\n"
	  . "update ser set v = v + 1 where id = :id;\n"
	  . "end;\n");
# Lines that must occur whatever the machine's speed.  late.sql: 20 ms a
# transaction against -R 500 -L 5 (a slot every 2 ms on average): when a
# transaction ends, the slots drawn since it began are more than 5 ms late
# unless the next one came over 15 ms after the last (e^-7.5 for each
# transaction), so a 1 s run skips some for certain, fast machine or slow.
# hot.sql: four clients updating one row in repeatable read, a snapshot
# held 5 ms before the update: whoever updates second in a pair of
# overlapping transactions fails, so a run has failures, and with two tries
# some transactions fail both (serialization lines), however loaded.
my $late = write_file("$dir/late.sql", "\\sleep 20 ms\nselect 1;\n");
my $hot = write_file("$dir/hot.sql",
	"begin isolation level repeatable read;\n"
	  . "select v from ser where id = 1;\n"
	  . "\\sleep 5 ms\n"
	  . "update ser set v = v + 1 where id = 1;\n"
	  . "end;\n");

sub processed { my ($n) = $_[0] =~ /^number of transactions actually processed: (\d+)/m; return $n // -1; }

# Run in a fresh directory; returns (rc, stdout, stderr, {file name => [lines]}).
my $run_no = 0;
sub run_logged
{
	my ($which, $args) = @_;
	my $sub = "$dir/run" . $run_no++;
	mkdir $sub or die;
	chdir $sub or die;
	# (a starved -T run is made again, its logs removed first)
	my @r = run_accounted(
		"$which @$args",
		$args,
		sub {
			unlink glob('*');
			return $which eq 'ours' ? pgbench($args, env => \%env) : system_pgbench($args, env => \%env);
		});
	my %files;
	for my $f (glob('*'))
	{
		$files{$f} = [ split /\n/, slurp($f) ];
	}
	chdir $dir or die;
	return (@r, \%files);
}

# The shapes of the lines: numbers masked, then counted once.
sub shapes
{
	my ($files) = @_;
	my %s;
	for my $lines (values %$files)
	{
		$s{ mask_numbers($_) } = 1 for @$lines;
	}
	return [ sort keys %s ];
}

# ---- per-transaction logs --------------------------------------------------

my ($files, $n);
($rc, $out, $err, $files) = run_logged('ours', [ '-n', '-f', $one, '-t', '25', '-c', '4', '-j', '2', '-l' ]);
is($rc, 0, '-l -j 2: exit code');
my @names = sort keys %$files;
is(scalar(@names), 2, '-l -j 2: two files');
like($names[0] // '', qr/^pgbench_log\.(\d+)$/, '-l -j 2: thread 0 writes pgbench_log.PID');
my ($pid) = ($names[0] // '') =~ /(\d+)$/;
is($names[1] // '', "pgbench_log.$pid.1", '-l -j 2: thread 1 writes pgbench_log.PID.1');
my @all = map { @$_ } values %$files;
is(scalar(@all), 100, '-l: one line per transaction');
is(scalar(grep { !/^\d+ \d+ \d+ 0 \d{10} \d{1,6}$/ } @all), 0,
	'-l: client_id transaction_no time script_no time_epoch time_us');
my %seen;
for my $l (@all) { $seen{"$1 $2"}++ if $l =~ /^(\d+) (\d+) / }
is(scalar(grep { $_ != 1 } values %seen) + (keys %seen != 100), 0, '-l: clients 0..3 transactions 1..25, each once');
my @t0 = map { /^(\d+) / ? $1 : -1 } @{ $files->{"pgbench_log.$pid"} };
is(scalar(grep { $_ > 1 } @t0), 0, '-l -j 2: thread 0 logs clients 0 and 1');

# formats: name, arguments, regex of every line
my @FORMATS = (
	[ 'plain', [ '-f', $one, '-t', '20' ], qr/^\d+ \d+ \d+ 0 \d+ \d+$/ ],
	[ '-R (lag)', [ '-f', $one, '-t', '20', '-R', '500' ], qr/^\d+ \d+ \d+ 0 \d+ \d+ \d+$/ ],
	[ '--max-tries=2 (retries)', [ '-f', $one, '-t', '20', '--max-tries=2' ], qr/^\d+ \d+ \d+ 0 \d+ \d+ 0$/ ],
	[ '-R -L --max-tries=2 (skipped)', [ '-f', $late, '-T', '1', '-R', '500', '-L', '5', '--max-tries=2' ],
		qr/^\d+ \d+ (?:\d+ 0 \d+ \d+ \d+ \d+|skipped 0 \d+ \d+ 0 0)$/ ],
	[ 'failed', [ '-f', $hot, '-T', '1', '-c', '4' ], qr/^\d+ \d+ (?:\d+|failed) 0 \d+ \d+$/ ],
	[ '--failures-detailed --max-tries=2', [ '-f', $hot, '-T', '1', '-c', '4', '--failures-detailed', '--max-tries=2' ],
		qr/^\d+ \d+ (?:\d+ 0 \d+ \d+ \d+|serialization 0 \d+ \d+ [01]|deadlock 0 \d+ \d+ [01])$/ ],
);
for my $f (@FORMATS)
{
	my ($name, $args, $re) = @$f;
	my @args = ('-n', '-l', @$args);
	($rc, $out, $err, $files) = run_logged('ours', \@args);
	is($rc, 0, "$name: exit code");
	my @lines = map { @$_ } values %$files;
	my $bad = grep { !/$re/ } @lines;
	is($bad, 0, "$name: every line has the fields of the format") or diag(join "\n", @lines[ 0 .. 5 ]);
	my ($failed) = $out =~ /^number of failed transactions: (\d+)/m;
	my ($skipped) = $out =~ /^number of transactions skipped: (\d+)/m;
	is(scalar(@lines), processed($out) + $failed + ($skipped // 0), "$name: one line per transaction, failures and skips included");
	if ($name =~ /skipped|failed|detailed/)
	{
		my $word = $name =~ /skipped/ ? 'skipped' : $name =~ /detailed/ ? 'serialization' : 'failed';
		my $some = grep { / $word / } @lines;
		ok($some > 0, "$name: some \"$word\" lines ($some of " . scalar(@lines) . ')');
	}
	next unless $system;
	my (undef, undef, undef, $sfiles) = run_logged('system', \@args);
	my %ours = map { $_ => 1 } @{ shapes($files) };
	my %theirs = map { $_ => 1 } @{ shapes($sfiles) };
	# skipped lines are certain in both runs; a kind of failure line (a
	# deadlock, a transaction failing its first of two tries only) may
	# happen in one run and not the other
	my @only_ours = grep { !$theirs{$_} } keys %ours;
	my @only_theirs = grep { !$ours{$_} } keys %theirs;
	ok(@only_ours + @only_theirs == 0 || $name =~ /failed|detailed/,
		"$name: same line shapes as the system pgbench's logs")
	  or diag("ours only: @only_ours\ntheirs only: @only_theirs");
	my @alien = grep { !/$re/ } map { @$_ } values %$sfiles;
	is(scalar(@alien), 0, "$name: the system pgbench's lines match the same format");
}

# ---- --log-prefix and the open error ----------------------------------------------

($rc, $out, $err, $files) = run_logged('ours', [ '-n', '-f', $one, '-t', '3', '-c', '3', '-j', '3', '-l',
		'--log-prefix=bench' ]);
is($rc, 0, '--log-prefix: exit code');
@names = sort keys %$files;
is(scalar(@names), 3, '--log-prefix -j 3: three files');
like(join(' ', @names), qr/^bench\.(\d+) bench\.\1\.1 bench\.\1\.2$/, '--log-prefix: prefix.PID, prefix.PID.1, prefix.PID.2');

my @open_err = ('-n', '-f', $one, '-t', '3', '-l', '--log-prefix=/nonexistent/x');
($rc, $out, $err) = pgbench(\@open_err, env => \%env);
is($rc, 1, 'log that cannot be created: exit code 1');
like($err, qr{^pgbench: error: could not open logfile "/nonexistent/x\.\d+": No such file or directory\n\z},
	'log that cannot be created: pgbench\'s message');
unlike($out, qr/transaction type/, 'log that cannot be created: no report');
if ($system)
{
	my ($src, $sout, $serr) = system_pgbench(\@open_err, env => \%env);
	is($rc, $src, 'log that cannot be created: same exit code as the system pgbench');
	is(mask_numbers($err), mask_numbers($serr), 'log that cannot be created: same message');
}

# ---- --sampling-rate: the same draws as pgbench ------------------------------------

my @sampled = ('-n', '-f', $one, '-t', '300', '-l', '--sampling-rate=0.3', '--random-seed=7');
($rc, $out, $err, $files) = run_logged('ours', \@sampled);
is($rc, 0, '--sampling-rate: exit code');
my @ours = sort { $a <=> $b } map { (split / /)[1] } map { @$_ } values %$files;
ok(@ours > 40 && @ours < 150, '--sampling-rate=0.3: about a third logged (' . scalar(@ours) . ' of 300)');
if ($system)
{
	my (undef, undef, undef, $sfiles) = run_logged('system', \@sampled);
	my @theirs = sort { $a <=> $b } map { (split / /)[1] } map { @$_ } values %$sfiles;
	is_deeply(\@ours, \@theirs, '--sampling-rate with a fixed seed: the same transactions as the system pgbench');
}

# ---- --aggregate-interval -----------------------------------------------------------

my $AGG = qr/^\d{10}(?: \d+){14}$/;
my @agg = ('-n', '-f', $one, '-T', '3', '-c', '2', '-j', '2', '-l', '--aggregate-interval=1');
my $agg_t0 = Time::HiRes::time();
($rc, $out, $err, $files) = run_logged('ours', \@agg);
my $agg_wall = Time::HiRes::time() - $agg_t0;
is($rc, 0, '--aggregate-interval: exit code');
my @lines = map { @$_ } values %$files;
is(scalar(grep { !/$AGG/ } @lines), 0, '--aggregate-interval: 15 fields on every line');
$n = 0;
$n += (split / /)[1] for @lines;
is($n, processed($out), '--aggregate-interval: the intervals add up to the run, the last partial one included');
for my $name (sort keys %$files)
{
	my @starts = map { (split / /)[0] } @{ $files->{$name} };
	my $gaps = grep { $starts[$_] != $starts[ $_ - 1 ] + 1 } 1 .. $#starts;
	is($gaps, 0, "--aggregate-interval: $name has one line per second (@starts)");
	# 3 s touch 3 or 4 epoch seconds, one more if the end is late: at most
	# 5 lines, or what the run's wall-clock time (start-up included) allows
	# when a busy machine stretches it
	my $most = int($agg_wall) + 2;
	$most = 5 if $most < 5;
	ok(@starts >= 3 && @starts <= $most,
		sprintf('--aggregate-interval: %s covers the 3 s run (%d lines, 3 to %d)', $name, scalar(@starts), $most));
}
if ($system)
{
	my (undef, undef, undef, $sfiles) = run_logged('system', \@agg);
	my @slines = map { @$_ } values %$sfiles;
	is(scalar(grep { !/$AGG/ } @slines), 0, '--aggregate-interval: the system pgbench\'s lines have the same 15 fields');
}

# -R -L --max-tries --failures-detailed fill every group
($rc, $out, $err, $files) = run_logged('ours', [ '-n', '-f', $ser, '-T', '2', '-c', '4', '-l', '--aggregate-interval=1',
		'-R', '2000', '-L', '5', '--max-tries=2', '--failures-detailed' ]);
@lines = map { @$_ } values %$files;
is(scalar(grep { !/$AGG/ } @lines), 0, '--aggregate-interval with every option: 15 fields');
my @sum = (0) x 15;
for my $l (@lines)
{
	my @f = split / /, $l;
	$sum[$_] += $f[$_] for 1 .. 14;
}
my ($skipped) = $out =~ /^number of transactions skipped: (\d+)/m;
my ($retried) = $out =~ /^number of transactions retried: (\d+)/m;
my ($retries) = $out =~ /^total number of retries: (\d+)/m;
my ($sfail) = $out =~ /^number of serialization failures: (\d+)/m;
my ($dfail) = $out =~ /^number of deadlock failures: (\d+)/m;
is_deeply([ @sum[ 1, 10, 11, 12, 13, 14 ] ], [ processed($out), $skipped, $retried, $retries, $sfail, $dfail ],
	'--aggregate-interval: transactions, skipped, retried, retries and failures add up to the report');

# ---- a write error (file size limit: EFBIG) is reported, exit 2 ----------------------

# 3000 lines of some 30 bytes: far over the 16 blocks allowed (8 or 16 KiB),
# a count rather than a duration that a slow machine might not fill
($rc, $out, $err) = run_cmd([ 'sh', '-c', 'trap "" XFSZ; ulimit -f 16; exec "$0" "$@"', our_pgbench_path(),
		'-n', '-f', $one, '-t', '3000', '-l', '--log-prefix', "$dir/full" ], env => \%env);
is($rc, 2, 'log write error: exit code 2');
like($out, qr/^tps = /m, 'log write error: the report is still printed');
like($err, qr{^pgbench: error: could not write to log file "\Q$dir\E/full\.\d+": File too large\n\z},
	'log write error: reported after the report');

done_testing();
