# timeline.pl — the run's timeline (doc/report-json.md, "series"): under
# -P each point but the last is that second's progress line (the same
# counters, printed the same way); every interval is a point, with or
# without transactions; the points add up to the run and each point's
# buckets to its processed count; the client's CPU and memory in every
# point; the client-bound warning, which fires on a run that never waits
# for the server and not on one that mostly does; a merge adds the points
# index by index.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use List::Util qw(sum0);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbtimeline_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
my $doc;

sub json_of { return decode_json(slurp($_[0])); }
sub ms { return sprintf('%.3f', $_[0] // 0); }

# ---- -P lines and points ------------------------------------------------------

my @args = ('-n', '-S', '-c', '4', '-j', '2', '-T', '3', '-P', '1', '--report-json=p.json');
($rc, $out, $err) = run_accounted('-P run', \@args, sub { pgbench(\@args, env => \%env) });
is($rc, 0, '-T 3 -P 1 --report-json: exit code 0') or diag($err);
$doc = json_of('p.json');
my @pts = @{ $doc->{series}{points} };
my @lines = $err =~ /^(progress: .*)$/mg;
ok(@lines >= 2, scalar(@lines) . ' progress lines');
ok(@pts == @lines + 1, 'one point per line, and one for the rest of the run (' . scalar(@pts) . ' points)');
for my $k (0 .. $#lines)
{
	my $p = $pts[$k];
	my $want = sprintf('progress: %.1f s, %.1f tps, lat %s ms stddev %s, %d failed',
		$p->{t_s}, $p->{tps}, ms($p->{latency_ms}{average}), ms($p->{latency_ms}{stddev}), $p->{failures});
	is($lines[$k], $want, "line $k is point $k");
}
is(sum0(map { $_->{processed} } @pts), $doc->{transactions}{processed}, 'the points add up to the run');
ok(!grep({ $_->{histogram} && sum0(map { $_->[1] } @{ $_->{histogram}{buckets} }) != $_->{processed} } @pts),
	"each point's buckets add up to its processed count");
ok(!grep({ !$_->{client} || $_->{client}{cpu_user_s} < 0 || !$_->{client}{rss_kb} } @pts),
	"every point has the client's CPU and memory");
is($doc->{series}{sub_bucket_bits}, 3, 'the coarse layout');

# ---- intervals with no transaction -------------------------------------------

my $slow = write_file("$dir/slow.sql", "\\sleep 1500 ms\nselect 1;\n");
($rc, $out, $err) = pgbench([ '-n', '-f', $slow, '-c', '1', '-T', '4', '--report-json=s.json' ], env => \%env);
is($rc, 0, 'a run of one transaction every 1.5 s') or diag($err);
@pts = @{ json_of('s.json')->{series}{points} };
ok(@pts >= 4, scalar(@pts) . ' points for 4 s, one per second');
ok((grep { $_->{processed} == 0 && !defined $_->{histogram} } @pts) >= 1,
	'an interval with no transaction is a point of its own (null histogram)');
ok(!grep({ $pts[$_]{t_s} < $_ + 1 || $pts[$_]{t_s} > $_ + 1.5 } 0 .. $#pts - 1),
	'the points end at the ticks, one per second');

# ---- the client-bound warning ------------------------------------------------

my $meta = write_file("$dir/meta.sql", "\\set x random(1, 1000000)\n\\set y :x * 2\n");
my $idle = write_file("$dir/idle.sql", "select pg_sleep(0.01);\n");
SKIP:
{
	my ($trc) = run_cmd([ 'taskset', '-c', '0', 'true' ]);
	skip 'taskset cannot pin', 4 unless defined $trc && $trc == 0;
	($rc, $out, $err) = run_cmd([ 'taskset', '-c', '0', our_pgbench_path(), '-n', '-f', $meta,
			'-c', '8', '-j', '1', '-T', '2', '--report-json=b.json' ], env => \%env);
	is($rc, 0, 'a run that never waits for the server, pinned to one CPU') or diag($err);
	like($err, qr/^pgbench: warning: the client may have limited the result: worker thread 0 was busy \d+\.\d% of the time \(on a CPU or waiting for one\)$/m,
		'the warning on stderr, at the end');
	$doc = json_of('b.json');
	ok($doc->{client}{bound} && $doc->{client}{busiest_thread_busy_pct} > 90,
		"the JSON says so ($doc->{client}{busiest_thread_busy_pct}%)");
	unlike($out, qr/warning|limited/, 'stdout stays pgbench\'s');
}
($rc, $out, $err) = pgbench([ '-n', '-f', $idle, '-c', '4', '-j', '1', '-T', '2', '--report-json=i.json' ], env => \%env);
is($rc, 0, 'a run that mostly waits for the server') or diag($err);
unlike($err, qr/limited the result/, 'no warning');
$doc = json_of('i.json');
ok(!$doc->{client}{bound} && $doc->{client}{busiest_thread_busy_pct} < 90,
	"not bound ($doc->{client}{busiest_thread_busy_pct}%)");

# ---- a merge adds the points index by index ----------------------------------

($rc, $out, $err) = pgbench([ '-n', '-f', $slow, '-c', '2', '-T', '4', '--report-json=s2.json' ], env => \%env);
is($rc, 0, 'the same workload again, two clients') or diag($err);
($rc, $out, $err) = pgbench([ '--merge-reports', 's.json', 's2.json', '--report-json=m.json' ], env => \%env);
is($rc, 0, 'two reports merge') or diag($err);
my $m = json_of('m.json');
my @a = @{ json_of('s.json')->{series}{points} };
my @b = @{ json_of('s2.json')->{series}{points} };
my $n = @a > @b ? @a : @b;
is(scalar @{ $m->{series}{points} }, $n, "as many points as the longer ($n)");
is_deeply([ map { $_->{processed} } @{ $m->{series}{points} } ],
	[ map { ($a[$_] ? $a[$_]{processed} : 0) + ($b[$_] ? $b[$_]{processed} : 0) } 0 .. $n - 1 ],
	'each point the sum of both');
is($m->{client}, undef, 'the client figures are per run: null in a merge');

done_testing();
