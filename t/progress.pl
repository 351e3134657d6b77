# progress.pl — the -P lines: pgbench 16's exact format with -j 1, 2 and 4,
# the parts pgbench adds (lag under -R, skipped under -R -L, retried and
# retries when --max-tries is not 1), --progress-timestamp, the same line
# shapes as the system pgbench, a timer that keeps its schedule while the
# only worker is blocked, and our --percentiles part.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use PgbStats;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbprogress_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
my $one = write_file("$dir/one.sql", "select 1;\n");
# Runs without a rate limit nap 2 ms a transaction: the same lines as at
# full speed, without seconds of a busy client and server.
my $nap = write_file("$dir/nap.sql", "\\sleep 2 ms\nselect 1;\n");

my $NUM = qr/-?\d+\.\d/;
my $MS = qr/\d+\.\d{3}/;

# The line pgbench 16 prints, as a regex: time, tps, latency, stddev,
# failed, then the optional parts in pgbench's order.
sub line_re
{
	my (%p) = @_;
	my $time = $p{timestamp} ? qr/\d{10}\.\d{3}/ : qr/\d+\.\d/;
	my $re = "progress: $time s, \\d+\\.\\d tps, lat $MS ms stddev (?:$MS|NaN), \\d+ failed";
	$re .= ", lag $MS ms" if $p{R};
	$re .= ', \d+ skipped' if $p{R} && $p{L};
	$re .= ', \d+ retried, \d+ retries' if $p{retries};
	$re .= ', p' . join('/p', map { quotemeta } @{ $p{pct} }) . ' ' . join('/', ($MS) x @{ $p{pct} }) . ' ms'
	  if $p{pct};
	return qr/^$re$/;
}

sub progress_lines { return grep { /^progress: / } split /\n/, $_[0]; }

sub processed { my ($n) = $_[0] =~ /^number of transactions actually processed: (\d+)/m; return $n // -1; }

my @VARIANTS = (
	[ '-j 1', [ '-c', '2', '-j', '1' ], {} ],
	[ '-j 2', [ '-c', '4', '-j', '2' ], {} ],
	[ '-j 4', [ '-c', '4', '-j', '4' ], {} ],
	[ '-R', [ '-R', '200' ], { R => 1 } ],
	[ '-R -L', [ '-R', '3000', '-L', '1', '-c', '2' ], { R => 1, L => 1 } ],
	[ '--max-tries=2', [ '--max-tries=2', '-c', '2', '-j', '2' ], { retries => 1 } ],
	[ '-R -L --max-tries=0', [ '-R', '500', '-L', '2', '--max-tries=0' ], { R => 1, L => 1, retries => 1 } ],
	[ '--progress-timestamp', [ '--progress-timestamp', '-c', '2', '-j', '2' ], { timestamp => 1 } ],
	[ '-L alone (no lag, no skipped)', [ '-L', '1' ], {} ],
);

# The system pgbench runs at the same time as ours (its lines are only
# compared by shape), which halves the time of this loop.
sub start_system
{
	my ($args) = @_;
	my %run = (out => '', err => '');
	local %ENV = (%ENV, %env);
	$run{h} = IPC::Run::start([ $system, @$args ], '<', \undef, '>', \$run{out}, '2>', \$run{err},
		IPC::Run::timeout(300));
	return \%run;
}

# The seconds each line shows.
sub line_times { return map { /^progress: ([\d.]+) s/ ? $1 : -1 } @_; }

for my $v (@VARIANTS)
{
	my ($name, $args, $keys) = @$v;
	my @args = ('-n', '-f', $keys->{R} ? $one : $nap, '-T', '3', '-P', '1', @$args);
	my $t0 = time;

	my $theirs = $system ? start_system(\@args) : undef;
	my $wall;
	($rc, $out, $err, $wall) = timed_pgbench(\@args, env => \%env);
	is($rc, 0, "$name: exit code");
	my @lines = progress_lines($err);
	# a report at 1 and 2 s while the clients run (they run 3 s from the
	# start); the k-th report comes k seconds after the start and never
	# early, so no more reports than the whole seconds the process lasted
	# (measured from before it started).  Three when it ends on time; more
	# when it ends late, which a busy machine can make it do: -T counts
	# from before the connections, as pgbench's does, and a loaded CI once
	# ended over 4 s after the start with 0 transactions processed (four
	# reports; connecting, or the first transactions, took all of it).
	my $most = int($wall);
	ok(@lines >= 2 && @lines <= $most,
		sprintf('%s: one line a second (%d; at most %d in %.2f s)', $name, scalar(@lines), $most, $wall));
	my $re = line_re(%$keys);
	is(scalar(grep { !/$re/ } @lines), 0, "$name: pgbench 16's format")
	  or diag(join "\n", @lines);
	is(scalar(grep { !/^progress: / } split /\n/, $err), 0, "$name: nothing else on stderr");
	my @times = line_times(@lines);
	if ($keys->{timestamp})
	{
		my $first = $times[0];
		ok($first >= $t0 && $first <= time + 1, "$name: epoch seconds ($first)");
	}
	else
	{
		# an absolute schedule: the k-th report at k seconds, never early; a
		# busy machine may wake the timer late, but not a whole period late
		my $late = grep { $times[$_] < $_ + 1 || $times[$_] >= $_ + 2 } 0 .. $#times;
		is($late, 0, "$name: reports at 1.0, 2.0, ... s (@times)");
	}
	# every transaction of an interval is counted once: the transactions
	# the lines account for cannot exceed what was processed.  A line's
	# count is its tps times its interval (since the previous line; the
	# first since the start): at least (tps - 0.05) * (interval - 2 * half
	# a unit of the printed time), whatever the lengths of the intervals
	# (a late line shortens the next interval and raises its tps).
	my $unit = $keys->{timestamp} ? 0.001 : 0.1;
	my @tps = map { /, ([\d.]+) tps/ ? $1 : 0 } @lines;
	my ($least, $most) = (0, 0);
	for my $k (0 .. $#lines)
	{
		# with --progress-timestamp the start is not shown: the first
		# interval is at most two periods (on the grid, less than one late)
		my ($lo, $hi) = $k > 0 ? ($times[$k] - $times[ $k - 1 ] - $unit, $times[$k] - $times[ $k - 1 ] + $unit)
		  : $keys->{timestamp} ? (0, 2)
		  : ($times[0] - $unit / 2, $times[0] + $unit / 2);
		$lo = 0 if $lo < 0;
		my $t = $tps[$k] - 0.05;
		$least += ($t > 0 ? $t : 0) * $lo;
		$most += ($tps[$k] + 0.05) * $hi;
	}
	my $n = processed($out);
	ok($least <= $n && $most >= 0.3 * $n,
		sprintf('%s: the intervals add up (%.1f to %.1f transactions in the lines, %d processed)',
			$name, $least, $most, $n));

	next unless $theirs;
	$theirs->{h}->finish;
	# NaN or not for a stddev is a matter of rounding, not of format (an
	# interval of one transaction, or of equal latencies, may give either;
	# the system pgbench prints it as C's printf does: nan or -nan)
	my %ours = map { mask_numbers($_) =~ s/stddev -?nan\b/stddev N/ir => 1 } @lines;
	my %shapes = map { mask_numbers($_) =~ s/stddev -?nan\b/stddev N/ir => 1 } progress_lines($theirs->{err});
	is_deeply([ sort keys %ours ], [ sort keys %shapes ], "$name: same line shapes as the system pgbench");
}

# ---- the timer does not wait for a busy worker ------------------------------

# The only transaction is blocked 2.8 s: the reports at 1 and 2 s come
# while it is (0.8 s of slack for a late timer).  A third report, at 3 s,
# is possible only when start-up, connecting and the shell's fork made
# the whole run last 3 s or more (measured from before the process
# started, so never shorter than the run's own clock).
my $shell = write_file("$dir/shell.sql", "\\shell sleep 2.8\n");
my $shell_wall;
($rc, $out, $err, $shell_wall) = timed_pgbench([ '-n', '-f', $shell, '-t', '1', '-P', '1' ], env => \%env);
is($rc, 0, 'worker blocked in \shell: exit code');
my @lines = progress_lines($err);
my @shell_times = line_times(@lines);
my $most = $shell_wall >= 3 ? 3 : 2;
ok(@lines >= 2 && @lines <= $most && "@shell_times[0, 1]" eq '1.0 2.0',
	sprintf('worker blocked for 2.8 s: reports at 1 and 2 s all the same (%s; at most %d lines in %.2f s)',
		"@shell_times", $most, $shell_wall));
like($lines[0] // '', qr/^progress: 1\.0 s, 0\.0 tps, lat 0\.000 ms stddev 0\.000, 0 failed$/,
	'an interval without transactions: zeros');
like($lines[1] // '', qr/^progress: 2\.0 s, 0\.0 tps, lat 0\.000 ms stddev 0\.000, 0 failed$/,
	'the second interval without transactions: zeros too');

# ---- several threads: progress adds every thread ------------------------------

($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-T', '2', '-P', '1', '-c', '4', '-j', '4', '-R', '400' ],
	env => \%env);
@lines = progress_lines($err);
my @tps = map { /, ([\d.]+) tps/ ? $1 : 0 } @lines;
# 250 of the 400 asked; of what the run achieved when the machine is too
# busy to keep up with 400 (one thread of four would show a quarter)
my $avg = processed($out) / 2;
my $want = 0.625 * ($avg < 400 ? $avg : 400);
ok(@tps && $tps[0] > $want,
	sprintf('-j 4 -R 400: the first second counts all four threads (%s tps > %.1f)', $tps[0] // 'none', $want));

# ---- our --percentiles on progress lines -------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-f', $nap, '-T', '2', '-P', '1', '-c', '2', '-j', '2', '--percentiles' ],
	env => \%env);
is($rc, 0, '-P --percentiles: exit code');
@lines = progress_lines($err);
my $re = line_re(pct => [ 50, 90, 99, 99.9 ]);
ok(@lines >= 1 && !grep({ !/$re/ } @lines), '-P --percentiles: ", p50/p90/p99/p99.9 A/B/C/D ms" appended')
  or diag(join "\n", @lines);
for my $line (@lines)
{
	my @v = $line =~ m{ ([\d.]+)/([\d.]+)/([\d.]+)/([\d.]+) ms$};
	ok($v[0] <= $v[1] && $v[1] <= $v[2] && $v[2] <= $v[3], "percentiles ascending (@v)");
}
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-T', '2', '-P', '1', '-R', '100', '--max-tries=3', '--percentiles=99' ],
	env => \%env);
$re = line_re(R => 1, retries => 1, pct => [99]);
@lines = progress_lines($err);
ok(@lines >= 1 && !grep({ !/$re/ } @lines), '-P -R --max-tries --percentiles=99: our part comes last')
  or diag(join "\n", @lines);

done_testing();
