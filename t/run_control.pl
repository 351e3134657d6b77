# run_control.pl — run control against a real cluster: -C reconnections,
# -R throttling, -L with and without skipping, and -T ending a run on time
# even in the middle of a rate wait (a \sleep: run_deadline.pl).
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;
use Time::HiRes qw(time);

# log_connections: -C's connections are counted in the server's log
my $node = start_cluster(settings => "log_connections = on\n");
my %env = %{ $node->env };

my $dir = tempdir('pgbctl_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

sub timed
{
	my ($args) = @_;
	my $t0 = time;
	my @r = pgbench($args, env => \%env);
	return (@r, time - $t0);
}

sub processed { my ($s) = @_; my ($n) = $s =~ /^number of transactions actually processed: (\d+)/m; return $n // -1; }

my $num = qr/\d+\.\d+/;

# ---- -C: a connection per transaction ----------------------------------------

# the connections the server authorized, from its log (each is logged
# before its session starts; pg_stat_database.sessions is 14+ and counted
# only when a backend exits)
sub authorized
{
	my $log = PgbTest::slurp("$node->{base}/server.log");
	return scalar(() = $log =~ /connection authorized: user=postgres database=postgres/g);
}
my $before = authorized();
($rc, $out, $err) = pgbench([ '-n', '-C', '-t', '5', '-c', '3', '-j', '2', '-S' ], env => \%env);
is($rc, 0, '-C: exit code');
like($out,
	qr/\nnumber of transactions actually processed: 15\/15\nnumber of failed transactions: 0 \(0\.000%\)\nlatency average = $num ms\naverage connection time = $num ms\ntps = $num \(including reconnection times\)\n\z/,
	'-C: the report ends with the connection figures');
my $after = authorized();
is($after - $before, 16, "-C: one connection per transaction plus set-up ($before -> $after)");

# -C whose connections fail: the client aborts, the run goes on
$node->psql('create role lim1 login connection limit 1');
write_file('one.sql', "SELECT 1;\n");
($rc, $out, $err) = pgbench([ '-n', '-C', '-t', '3', '-c', '4', '-U', 'lim1', '-f', 'one.sql' ],
	env => \%env);
is($rc, 2, '-C with failing connections: exit code 2');
like($err,
	qr/^(?:pgbench: error: connection to server on socket "[^"]+" failed: FATAL:  too many connections for role "lim1"\npgbench: error: client \d aborted while establishing connection\n)+pgbench: error: Run was aborted; the above results are incomplete\.\n\z/,
	'-C with failing connections: each aborted client says so');
like($out, qr/^number of clients: 4$/m, '-C with failing connections: a report');

# ---- -R -----------------------------------------------------------------

my $elapsed;
my @r200 = ('-n', '-S', '-R', '200', '-T', '2', '-c', '2');
($rc, $out, $err, $elapsed) = run_accounted('-R 200 -T 2', \@r200, sub { timed(\@r200) });
is($rc, 0, '-R 200 -T 2: exit code');
my $n = processed($out);
# 400 expected (Poisson: sd 20); the clients may end up to their largest
# schedule lag behind, a lag that only a stalled machine makes long: what
# they could not run in it (200 a second) is not held against them
my ($maxlag) = $out =~ /^rate limit schedule lag: avg [\d.]+ \(max ([\d.]+)\) ms$/m;
my $least = 250 - 200 * ($maxlag // 0) / 1000;
ok($n >= $least && $n <= 550,
	sprintf('-R 200 -T 2: about 400 transactions (%d in [%.0f, 550], max lag %s ms)', $n, $least, $maxlag // '?'));
like($out,
	qr/\nlatency average = $num ms\nlatency stddev = $num ms\nrate limit schedule lag: avg $num \(max $num\) ms\ninitial connection time = $num ms\ntps = $num \(without initial connection time\)\n\z/,
	'-R: latency measured, schedule lag reported');

($rc, $out, $err, $elapsed) = timed([ '-n', '-S', '-R', '50', '-t', '10', '-c', '2', '-j', '2' ]);
is($rc, 0, '-R 50 -t 10 -c 2: exit code');
is(processed($out), 20, '-R 50 -t 10 -c 2: every transaction runs');
ok($elapsed > 0.15, "-R 50: 20 transactions are spread over time ($elapsed s)");

# -R with -L: late slots are skipped and counted
write_file('slow.sql', "\\sleep 5 ms\nSELECT 1;\n");
my @rl = ('-n', '-f', 'slow.sql', '-R', '2000', '-L', '1', '-T', '1');
($rc, $out, $err) = run_accounted('-R -L', \@rl, sub { pgbench(\@rl, env => \%env) });
is($rc, 0, '-R -L: exit code');
my ($skipped) = $out =~ /^number of transactions skipped: (\d+) \($num%\)$/m;
ok(defined $skipped && $skipped > 0, '-R -L: slots skipped (' . ($skipped // 'none') . ')');
my $done = processed($out);
like($out, qr/^number of transactions above the 1\.0 ms latency limit: $done\/$done \(100\.000%\)$/m,
	'-R -L: every transaction is late');

# -R with -L and -t: skipped slots count towards -t
($rc, $out, $err) = pgbench([ '-n', '-f', 'slow.sql', '-R', '5000', '-L', '1', '-t', '20' ], env => \%env);
is($rc, 0, '-R -L -t: exit code');
my ($skipped_t) = $out =~ /^number of transactions skipped: (\d+) /m;
is(processed($out) + ($skipped_t // 0), 20, '-R -L -t: processed plus skipped is -t');

# -L alone: counted, not skipped
($rc, $out, $err) = pgbench([ '-n', '-f', 'slow.sql', '-L', '2', '-t', '4' ], env => \%env);
is($rc, 0, '-L alone: exit code');
like($out,
	qr/\nnumber of transactions above the 2\.0 ms latency limit: 4\/4 \(100\.000%\)\nlatency average = $num ms\nlatency stddev = $num ms\ninitial connection time/,
	'-L alone: the late count and the measured latency');
unlike($out, qr/skipped/, '-L alone: nothing skipped');

# ---- -T ends on time -----------------------------------------------------

# What a trivial run with the same clients costs now, before and after each
# timed run: the bounds below stretch with it on a busy machine.
sub overhead { my (@args) = @_; return overhead_of([ '-n', '-S', '-t', '1', @args ], env => \%env); }

# A rate wait far longer than any bound: a run that waits for it instead
# of the deadline cannot pass.
my $o1 = overhead();
($rc, $out, $err, $elapsed) = timed([ '-n', '-S', '-R', '0.01', '-T', '2' ]);
my $limit = late_bound(2, 2, $o1, overhead());
is($rc, 0, '-T during a rate wait: exit code');
ok($elapsed < $limit && $limit < 50,
	sprintf('-T 2 with one transaction every 100 s ends on time (%.2f s < %.2f s)', $elapsed, $limit));

$o1 = overhead('-c', '4', '-j', '2');
my @t1 = ('-n', '-S', '-T', '1', '-c', '4', '-j', '2');
($rc, $out, $err, $elapsed) = run_accounted('-T 1 -c 4 -j 2', \@t1, sub { timed(\@t1) });
$limit = late_bound(1, 2, $o1, overhead('-c', '4', '-j', '2'));
is($rc, 0, '-T 1 -c 4 -j 2: exit code');
ok($elapsed >= 0.9 && $elapsed < $limit,
	sprintf('-T 1 lasts about a second (%.2f s in [0.9, %.2f))', $elapsed, $limit));
cmp_ok(processed($out), '>', 10, '-T 1: transactions were processed');

$node->stop;
done_testing();
