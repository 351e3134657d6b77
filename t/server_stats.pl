# server_stats.pl — --server-stats against a real server of each major (CI
# runs it on 13 to 18): a run of clients that wait on one row's lock, with
# a CHECKPOINT forced while it runs, shows the lock waits in the intervals
# where they happened, the checkpoint on the timeline, the server's commit
# count agreeing with what the run processed, the counters of the views
# this server has, and the client's and the (local) server's CPU per
# interval; a role without pg_monitor gets the same run with a note, not
# an error; --server-stats=off reads nothing; stdout stays pgbench's.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use POSIX ();
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbstats_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
my $v = $node->version_num;
note("server $v");

my ($rc, $out, $err) = pgbench([ '-i', '-s', '1', '-q' ], env => \%env);
is($rc, 0, 'initialized') or diag($err);

# every client updates the same row and holds it a little: lock waits
my $hot = write_file("$dir/hot.sql",
	"BEGIN;\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;\n"
	  . "SELECT pg_sleep(0.005);\nEND;\n");

# A CHECKPOINT once the run's clients are connected: a process of its own
# (fork, then exec of a shell), which cannot run this test's cleanup.
sub checkpoint_during_run
{
	my $psql = join(' ', map { "'$_'" } $node->psql_path, '-XAtq', '-h', $node->host,
		'-p', $node->port, '-U', 'postgres', '-d', 'postgres');
	my $pid = fork() // die "fork: $!";
	return $pid if $pid;
	exec('sh', '-c', "for i in \$(seq 1 200); do n=\$($psql -c \"SELECT count(*) FROM"
		  . " pg_stat_activity WHERE backend_type = 'client backend' AND state <> 'idle'"
		  . " AND query LIKE 'UPDATE pgbench_branches%'\"); [ \"\$n\" -gt 0 ] 2>/dev/null"
		  . " && break; sleep 0.1; done; sleep 1; $psql -c CHECKPOINT")
	  or POSIX::_exit(1);
}

my $ckpt = checkpoint_during_run();
($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-c', '4', '-T', '8', '-P', '1',
		'--report-json=hot.json', '--report-html=hot.html' ], env => \%env);
waitpid($ckpt, 0);
is($?, 0, 'the CHECKPOINT ran during the run');
is($rc, 0, 'a run with lock waits and a checkpoint') or diag($err);
unlike($out, qr/server_stats|wait|commits|checkpoint/i, 'stdout stays pgbench\'s');
my $r = decode_json(slurp('hot.json'));
my $ss = $r->{server_stats};
ok($ss && $ss->{monitored}, 'the monitor ran') or diag(explain($ss));
ok($ss->{local}, 'the server is found on this host');
is_deeply($ss->{notes}, [], 'no notes for a superuser on this host');
ok($ss->{settled}, 'the counts after the run settled');

# the commits
my $c = $ss->{commits};
ok($c->{checked}, 'the commits are checked') or diag(explain($c));
ok($c->{agrees}, "the server's commits agree: server $c->{server}, expected $c->{expected},"
	  . " explained $c->{explained}");
my ($processed) = $out =~ /^number of transactions actually processed: (\d+)/m;
# one commit per pass, one per connection (4): only the last passes cut
# short at the end, or autovacuum, may stand between
cmp_ok(abs($c->{server} - $processed - 4), '<=', 4 + 20,
	"server commits $c->{server} against $processed processed and 4 connections");
is($c->{expected}, $processed + 4, 'expected: the processed passes and the connections');

# the counters of the views this server has
my $t = $ss->{totals};
cmp_ok($t->{database}{tup_updated}, '>=', $processed, 'the updates are counted')
  or diag(explain($t));
is(exists $t->{wal} ? 1 : 0, $v >= 140000 ? 1 : 0, 'pg_stat_wal where the server has it');
is(exists $t->{io} ? 1 : 0, $v >= 160000 ? 1 : 0, 'pg_stat_io where the server has it');
is(exists $t->{checkpointer}{done} ? 1 : 0, $v >= 180000 ? 1 : 0, 'num_done from 18');
cmp_ok($t->{checkpointer}{requested}, '>=', 1, 'the requested checkpoint is counted');

# the checkpoint on the timeline
my @cp = @{ $ss->{checkpoints} };
ok(@cp >= 1, 'a checkpoint on the timeline') or diag(explain($ss));
my ($forced) = grep { defined $_->{start_s} && $_->{start_s} >= 0 } @cp;
ok($forced, 'one began during the run');
my @points = @{ $r->{series}{points} };
my ($at) = grep { defined $_->{server}{checkpoint_start_s} } @points;
ok($at && $forced && abs($at->{t_s} - $forced->{ended_by_s}) < 1e-6,
	'the point where it ended carries its start');
cmp_ok($forced->{start_s}, '<=', $forced->{ended_by_s}, 'it began before it ended') if $forced;

# the lock waits, where they happened
ok($ss->{wait_events}{samples} >= 10, "wait events sampled ($ss->{wait_events}{samples})");
my @lock_points = grep { grep { /^Lock:/ } keys %{ $_->{server}{wait_events}{counts} } } @points;
ok(@lock_points >= 1, 'lock waits in ' . scalar(@lock_points) . ' intervals');
ok((grep { /^Lock:(transactionid|tuple)$/ } keys %{ $ss->{wait_events}{counts} }),
	'the run\'s totals name the row lock waits');
my $sum = 0;
$sum += $_->{server}{wait_events}{samples} for @points;
is($sum, $ss->{wait_events}{samples}, 'the points\' samples add up to the run\'s');

# per interval: counters, client, host and server CPU
# a snapshot that comes after the next tick (a busy server: before 15 the
# statistics collector's file is written on request) leaves its interval
# without counters, and the next one covers both: most have them
my @whole = @points[ 0 .. $#points - 1 ];
my $with = grep { defined $_->{server}{counters} } @whole;
cmp_ok($with, '>=', @whole / 2, "most whole intervals have their counters ($with of " . @whole . ')');
my $commits = 0;
$commits += $_->{server}{counters}{database}{xact_commit} // 0 for @points;
cmp_ok($commits, '>=', $c->{server}, 'the intervals\' commits cover the run\'s');
ok(!grep({ !defined $_->{client} || !defined $_->{host} } @points), 'client and host figures in every point');
my $srv_cpu = 0;
$srv_cpu += $_->{server}{processes}{cpu_user_s} + $_->{server}{processes}{cpu_system_s}
  for grep { $_->{server}{processes} } @points;
cmp_ok($srv_cpu, '>', 0, "the server's processes used CPU ($srv_cpu s)");
ok((grep { ($_->{host}{cpu_s}{user} // 0) + ($_->{host}{cpu_s}{system} // 0) > 0 } @points),
	'the host\'s CPU is read');
my $html = slurp('hot.html');
like($html, qr/Lock:transactionid|Lock:tuple/, 'the page names the lock waits');

# a role without pg_monitor: the same run, with a note
$node->psql('CREATE ROLE plain LOGIN');
$node->psql('GRANT ALL ON pgbench_branches TO plain');
($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-c', '2', '-t', '20', '-U', 'plain',
		'--report-json=plain.json' ], env => \%env);
is($rc, 0, 'a plain role: the run goes on') or diag($err);
is($err, '', 'nothing on stderr');
$ss = decode_json(slurp('plain.json'))->{server_stats};
ok($ss->{monitored}, 'the monitor ran for it');
# servers differ on who may call pg_control_checkpoint(): the note says
# so exactly when this one refuses the role
my $may = $node->psql("SELECT has_function_privilege('plain', 'pg_catalog.pg_control_checkpoint()', 'EXECUTE')");
is_deeply($ss->{notes}, $may eq 't' ? []
	: ['the role may not call pg_control_checkpoint() (pg_monitor): checkpoints show when they end, not when they began'],
	"a note names what it may not read, if anything (may: $may)");
ok($ss->{commits}{checked} && $ss->{commits}{agrees}, 'its commits agree')
  or diag(explain($ss->{commits}));
is($ss->{commits}{expected}, 40 + 2, 'expected: 40 passes and 2 connections');

# with pg_monitor, nothing is missing
$node->psql('GRANT pg_monitor TO plain');
($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-c', '2', '-t', '5', '-U', 'plain',
		'--report-json=mon.json' ], env => \%env);
is($rc, 0, 'a pg_monitor role') or diag($err);
is_deeply(decode_json(slurp('mon.json'))->{server_stats}{notes}, [], 'no note with pg_monitor');

# stdout and stderr are pgbench's whether the monitor runs or not: the
# same run (fixed transactions, one client) with and without it prints the
# same lines, timings aside
{
	my @args = ('-n', '-f', $hot, '-c', '1', '-t', '30', '-r');
	my ($rc_on, $out_on, $err_on) = pgbench([ @args, '--report-json=same-on.json' ], env => \%env);
	my ($rc_off, $out_off, $err_off) = pgbench([ @args, '--report-json=same-off.json',
			'--server-stats=off' ], env => \%env);
	is($rc_on, $rc_off, 'the same exit code with and without the monitor');
	is(mask_timings($out_on), mask_timings($out_off), 'the same stdout with and without it');
	is(mask_timings($err_on), mask_timings($err_off), 'the same stderr with and without it');
	ok(decode_json(slurp('same-on.json'))->{server_stats}{monitored}, '... and it did run');
}

# another session of the run's name on its database, there all along: a
# note, and the commits not checked (a session of that name that is only
# ending when the run starts, the backend of a -i just before on a loaded
# host, is given a moment to go and is not another's)
{
	my $app = decode_json(slurp('hot.json'))->{server_stats}{application_name};
	my $other = fork() // die "fork: $!";
	if (!$other)
	{
		$ENV{PGAPPNAME} = $app;
		exec($node->psql_path, '-XAtq', '-h', $node->host, '-p', $node->port, '-U', 'postgres',
			'-d', 'postgres', '-c', 'SELECT pg_sleep(120)')
		  or POSIX::_exit(1);
	}
	my $seen = 0;
	for (1 .. 300)
	{
		$seen = $node->psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = '$app'"
			  . " AND state = 'active'");
		last if $seen > 0;
		select(undef, undef, undef, 0.1);
	}
	is($seen, 1, "another session named $app is there");
	($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-c', '2', '-t', '10',
			'--report-json=others.json' ], env => \%env);
	kill 'TERM', $other;
	waitpid($other, 0);
	is($rc, 0, 'a run beside it') or diag($err);
	my $os = decode_json(slurp('others.json'))->{server_stats};
	ok((grep { /^other sessions named "\Q$app\E" use this database/ } @{ $os->{notes} }),
		'a note says so') or diag(explain($os->{notes}));
	ok(!$os->{commits}{checked} && $os->{commits}{not_checked_because} =~ /other sessions/,
		'the commits are not checked') or diag(explain($os->{commits}));
}

# off: nothing read, nothing written
($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-t', '5', '--server-stats=off',
		'--report-json=off.json' ], env => \%env);
is($rc, 0, '--server-stats=off') or diag($err);
$r = decode_json(slurp('off.json'));
is($r->{server_stats}, undef, 'no server_stats');
ok(!grep({ defined $_->{server} } @{ $r->{series}{points} }), 'no server figures per point');
($rc, $out, $err) = pgbench([ '-n', '-f', $hot, '-t', '5', '--server-stats=maybe' ], env => \%env);
is($rc, 1, 'a bad --server-stats value: exit 1');
like($err, qr/^pgbench: error: invalid value "maybe" for --server-stats: must be on or off$/m,
	'the error names it');

done_testing();
