# server_stats_idle.pl — --server-stats samples the run's backends in
# every state, against a real server of each major (CI runs it on 13 to
# 18): under -S a session spends most of its time idle, waiting for its
# client between statements, and that time is counted as
# Client:ClientRead, so that the counts of a sample add up to the run's
# backends (every client's backend is seen in some state in every
# sample); a session idle inside a transaction counts the same; a
# session whose state is not shown (track_activities off) is not
# counted; the report says that every state was sampled
# (server_stats.wait_events.all_states, and each point's).
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use List::Util qw(sum0);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbidle_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
note('server ' . $node->version_num);

my ($rc, $out, $err) = pgbench([ '-i', '-s', '1', '-q' ], env => \%env);
is($rc, 0, 'initialized') or diag($err);

# $doc's wait events over the run: (all_states, samples, counts, their sum)
sub waits_of
{
	my ($doc) = @_;
	my $w = $doc->{server_stats}{wait_events};
	return ($w->{all_states}, $w->{samples}, $w->{counts}, sum0(values %{ $w->{counts} }) + $w->{other});
}

# ---- -S -c 2: every client's backend in every sample ----------------------------

($rc, $out, $err) = pgbench([ '-S', '-c', '2', '-T', '3', '--report-json=s.json' ], env => \%env);
is($rc, 0, '-S -c 2 -T 3') or diag($err);
my $doc = decode_json(slurp('s.json'));
ok($doc->{server_stats}{monitored}, 'the monitor ran') or diag(explain($doc->{server_stats}));
my ($all, $samples, $counts, $seen) = waits_of($doc);
ok(JSON::PP::is_bool($all) && $all, 'server_stats.wait_events.all_states: true');
ok($samples >= 10, "wait events sampled ($samples)");
ok($counts->{'Client:ClientRead'}, 'Client:ClientRead among the counts: the sessions idle between statements')
  or diag(explain($counts));
my $per_sample = $samples ? $seen / $samples : 0;
note(sprintf('counts %s; %d seen in %d samples: %.3f backends a sample',
	join(', ', map { "$_=$counts->{$_}" } sort keys %$counts), $seen, $samples, $per_sample));
# 2 when every sample saw both; a sample taken while a client was still
# connecting, or already gone, sees fewer (a busy machine: a few)
cmp_ok($per_sample, '>=', 1, "the backends a sample saw, on average: $per_sample >= 1");
cmp_ok($per_sample, '<=', 2.5, "... <= 2.5 (two clients)");
my @points = grep { $_->{server} && $_->{server}{wait_events} } @{ $doc->{series}{points} };
ok(@points && !grep({ !$_->{server}{wait_events}{all_states} } @points), 'each point\'s all_states: true');
is(sum0(map { $_->{server}{wait_events}{samples} } @points), $samples, 'the points\' samples add up to the run\'s');

# ---- idle inside a transaction: the same wait, for its client -------------------

write_file('intx.sql', "BEGIN;\nSELECT 1;\n\\sleep 20 ms\nEND;\n");
($rc, $out, $err) = pgbench([ '-n', '-f', 'intx.sql', '-c', '1', '-T', '2', '--report-json=t.json' ],
	env => \%env);
is($rc, 0, 'a client that sleeps inside its transactions') or diag($err);
($all, $samples, $counts, $seen) = waits_of(decode_json(slurp('t.json')));
my $reads = $counts->{'Client:ClientRead'} // 0;
note(sprintf('counts %s; %d samples', join(', ', map { "$_=$counts->{$_}" } sort keys %$counts), $samples));
ok($samples > 0 && $reads / $samples >= 0.5,
	"idle in transaction: Client:ClientRead most of the time ($reads of $samples samples)");
cmp_ok($seen, '<=', $samples * 1.25, "one client: at most one backend a sample ($seen in $samples)");

# ---- track_activities off: no state shown, not counted --------------------------

($rc, $out, $err) = pgbench([ '-S', '-c', '2', '-T', '1', '--report-json=d.json' ],
	env => { %env, PGOPTIONS => '-c track_activities=off' });
is($rc, 0, 'a run whose sessions do not show their state') or diag($err);
($all, $samples, $counts, $seen) = waits_of(decode_json(slurp('d.json')));
ok($samples > 0, "sampled ($samples)");
is($seen, 0, 'no backend counted: their state is "disabled"') or diag(explain($counts));

done_testing();
