# reconnect.pl — --reconnect (beyond pgbench) against real servers: a
# cluster restarted mid-run, a backend terminated, and a failover to a
# promoted standby through a two-host conninfo.  With --reconnect the run
# goes on after the outage and reports it (text, JSON, -l); without, the
# same restart aborts the clients as pgbench does.  Times are bounded
# generously: a loaded machine only makes outages longer.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my $dir = tempdir('pgbreconnect_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

sub pg_ctl
{
	my ($n, @args) = @_;
	return $n->_sys("$n->{bindir}/pg_ctl", '-D', $n->{data}, '-l', "$n->{base}/server.log", @args);
}

my ($rc, $out, $err) = pgbench([ '-i', '-s', '1', '-q' ], env => $node->env);
is($rc, 0, 'initialized') or diag($err);

# this run's backends busy with their transactions
sub busy
{
	my ($n, $count) = @_;
	return "select count(*) >= $count from pg_stat_activity where application_name like 'pgbench%' "
	  . "and backend_type = 'client backend'";
}

# Start pgbench with $args against $env, wait until $ready holds on $n,
# run $action, collect: (exit code, stdout, stderr, what $action returned).
sub run_during
{
	my ($n, $env, $args, $ready, $action) = @_;
	my ($o, $e) = ('', '');
	local %ENV = (%ENV, %$env);
	my $h = IPC::Run::start([ PgbTest::our_pgbench_path(), @$args ], '<', \undef, '>', \$o,
		'2>', \$e, IPC::Run::timeout(180));
	my $seen = poll_until(sub { $n->psql($ready, allow_fail => 1) eq 't' }, 60);
	my $did = $seen ? $action->() : undef;
	my $ended = eval { $h->finish; 1 };
	$h->kill_kill unless $ended;
	return ($ended ? $? >> 8 : 'hang', $o, $e, $did);
}

# The number a text report line gives ("name: N" or "name: N ms").
sub line_num
{
	my ($text, $name) = @_;
	return $text =~ /^\Q$name\E: ([\d.]+)/m ? $1 : undef;
}

# ---- a cluster restarted mid-run --------------------------------------------

# -T long enough that the restart (a checkpoint, a start) ends well before
my @run = ('-n', '-c', '4', '-j', '2', '-T', '10', '--failures-detailed');
my ($restarted_at);
($rc, $out, $err, $restarted_at) = run_during($node, $node->env,
	[ @run, '--reconnect', '-l', '--log-prefix', 'rlog', '--report-json', 'r.json',
		'--report-html', 'r.html' ],
	busy($node, 4), sub {
		sleep 1;
		pg_ctl($node, '-m', 'fast', '-w', '-t', '120', 'restart');
		return $node->psql("select extract(epoch from pg_postmaster_start_time())");
	});
is($rc, 0, 'restart, --reconnect: exit 0') or diag("$out\n$err");
note($out);
ok(defined $restarted_at, 'the server was restarted during the run');
like($err, qr/^pgbench: warning: client \d+ lost its connection, reconnecting: .+$/m,
	'a lost connection is told on stderr');
unlike($err, qr/aborted/, 'no client aborted');
my $reconnects = line_num($out, 'number of reconnects');
cmp_ok($reconnects // 0, '>=', 4, 'every client reconnected') or diag($out);
cmp_ok(line_num($out, 'number of connection losses') // 0, '>=', 4, 'four losses at least');
my $lost_tx = line_num($out, 'number of connection failures');
cmp_ok($lost_tx // 0, '>=', 1, 'transactions in flight failed as connection failures');
cmp_ok(line_num($out, 'number of failed transactions') // 0, '>=', $lost_tx // 1,
	'they count among the failed transactions');
cmp_ok(line_num($out, 'downtime window') // 0, '>', 0, 'a downtime window');
cmp_ok(line_num($out, 'maximum downtime of a client') // 0, '>', 0, 'a client downtime');
cmp_ok(line_num($out, 'total downtime of clients') // 0, '>=',
	line_num($out, 'maximum downtime of a client') // 1, 'total >= max');
cmp_ok(line_num($out, 'total downtime of clients') // 0, '>=',
	line_num($out, 'downtime window') // 1, 'total >= window');
my $after = $node->psql("select count(*) from pgbench_history where mtime > pg_postmaster_start_time()");
cmp_ok($after, '>', 0, "transactions after the restart ($after history rows)");

my $json = decode_json(slurp('r.json'));
my $r = $json->{reconnect};
is(ref $r, 'HASH', 'JSON: a reconnect object');
is($r->{reconnects}, $reconnects, 'JSON: reconnects as the text');
cmp_ok($r->{losses}, '>=', 4, 'JSON: losses');
is($r->{failed}, $lost_tx, 'JSON: failed as the text');
is($json->{transactions}{connection_failures}, $lost_tx, 'JSON: the connection_failures counter');
cmp_ok($r->{window_ms}, '>', 0, 'JSON: window');
cmp_ok($r->{downtime_max_ms}, '>', 0, 'JSON: max');
cmp_ok($r->{downtime_total_ms}, '>=', $r->{downtime_max_ms}, 'JSON: total');
cmp_ok($r->{first_loss_s}, '>', 0, 'JSON: first loss after the start');
cmp_ok($r->{last_back_s}, '>', $r->{first_loss_s}, 'JSON: last back after the first loss');
is($r->{clients_down_at_end}, 0, 'JSON: nobody down at the end');

# -l: the failed transactions say "connection"; successes after the restart
my @log = map { split /\n/, slurp($_) } glob('rlog.*');
my @conn = grep { /^\d+ \d+ connection \d+ \d+ \d+$/ } @log;
is(scalar @conn, $lost_tx, '-l: one "connection" line per connection failure');
my @later = grep { /^\d+ \d+ (\d+) \d+ (\d+) \d+$/ && $2 > $restarted_at } @log;
cmp_ok(scalar @later, '>', 0, '-l: successes logged after the restart');

# the HTML page's section, as headless Chromium draws it (where there is one)
my ($chromium) = grep { -x } map { my $n = $_; map { "$_/$n" } split /:/, $ENV{PATH} }
  qw(chromium chromium-browser google-chrome);
SKIP:
{
	skip 'no Chromium', 3 unless $chromium;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
		'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
		'--dump-dom', "file://$dir/r.html" ], timeout => 180);
	is($brc, 0, 'HTML: chromium --dump-dom: exit code 0') or diag($berr);
	like($dom, qr{<pre id="status">ok }, 'HTML: the page finished drawing');
	like($dom, qr{<h2>Reconnects</h2><table class="reconnect"><tr><td>connection losses</td><td>\d+</td></tr><tr><td>reconnects</td><td>$reconnects</td></tr>},
		'HTML: the Reconnects section');
}

# without --reconnect the same restart aborts the clients, as pgbench does
($rc, $out, $err) = run_during($node, $node->env, \@run, busy($node, 4), sub {
		sleep 1;
		pg_ctl($node, '-m', 'fast', '-w', '-t', '120', 'restart');
	});
is($rc, 2, 'restart, no --reconnect: exit 2');
like($err, qr/^pgbench: error: client \d+ .*aborted/m, 'clients aborted');
unlike($out, qr/reconnect|downtime|connection failures/, 'no reconnect lines without --reconnect');

# ---- a backend terminated: -t, prepared statements, pipelines -----------------

write_file('slow.sql', "SELECT pg_sleep(0.01);\nSELECT :client_id;\n");
write_file('pipe.sql', "\\startpipeline\nSELECT pg_sleep(0.01);\nSELECT 1;\n\\endpipeline\n");
my $terminate = "select count(pg_terminate_backend(pid)) from pg_stat_activity "
  . "where pid = (select min(pid) from pg_stat_activity where application_name like 'pgbench%' "
  . "and backend_type = 'client backend')";
for my $m ([ 'prepared', '-M', 'prepared', '-f', 'slow.sql' ],
	[ 'pipeline', '-M', 'extended', '-f', 'pipe.sql' ])
{
	my ($mode, @margs) = @$m;
	# 2 x 200 transactions of 10 ms: 2 s at least, time to terminate one
	my $killed;
	($rc, $out, $err, $killed) = run_during($node, $node->env,
		[ '-n', '-c', '2', '-t', '200', '--reconnect', '--failures-detailed', @margs ],
		busy($node, 2), sub { $node->psql($terminate) });
	is($rc, 0, "$mode, a backend terminated: exit 0") or diag("$out\n$err");
	is($killed, 1, "$mode: one backend terminated");
	my $failed = line_num($out, 'number of connection failures');
	is($failed, 1, "$mode: the transaction in flight failed");
	# the failed transaction counts toward -t, as under --max-tries
	like($out, qr{^number of transactions actually processed: 399/400$}m,
		"$mode: -t counts the failed transaction");
	is(line_num($out, 'number of reconnects'), 1, "$mode: one reconnect");
	is(line_num($out, 'number of connection losses'), 1, "$mode: one loss");
	unlike($err, qr/error/, "$mode: no error (statements prepared again on the new connection)");
}

# ---- failover to a promoted standby -------------------------------------------

my $standby = PgbTest::Cluster->standby_of($node);
is($standby->psql('select pg_is_in_recovery()'), 't', 'the standby is in recovery');
my $two = "host=$node->{sock},$standby->{sock} port=$node->{port},$standby->{port} "
  . "dbname=postgres user=postgres target_session_attrs=read-write";
my $promoted;
($rc, $out, $err, $promoted) = run_during($node, {},
	[ '-n', '-c', '4', '-j', '2', '-T', '12', '--reconnect', '--report-json', 'f.json', $two ],
	busy($node, 4), sub {
		sleep 1;
		pg_ctl($node, '-m', 'immediate', '-w', 'stop');
		pg_ctl($standby, '-w', '-t', '120', 'promote');
		return $standby->psql("select extract(epoch from now())");
	});
is($rc, 0, 'failover: exit 0') or diag("$out\n$err");
note($out);
ok(defined $promoted, 'the standby was promoted during the run');
is($standby->psql('select pg_is_in_recovery()'), 'f', 'the standby is the primary now');
cmp_ok(line_num($out, 'number of reconnects') // 0, '>=', 4, 'failover: every client reconnected')
  or diag($out);
my $since = $standby->psql("select count(*) from pgbench_history h where h.mtime >= "
	  . "to_timestamp($promoted) - interval '1 s'");
cmp_ok($since, '>', 0, "failover: transactions on the new primary ($since history rows)");
$json = decode_json(slurp('f.json'));
cmp_ok($json->{reconnect}{window_ms}, '>', 0, 'failover: JSON downtime window');
is($json->{reconnect}{clients_down_at_end}, 0, 'failover: nobody down at the end');

done_testing();
