# stages.pl — --stages=DURATION:TARGET,... (doc/stages.md) end to end
# against a throwaway cluster: the clients form lets only the planned
# clients run (a client beyond the plan ends no transaction before its
# stage, read off the -l log; a second of one client cannot pass a
# single client's pace), the rate form throttles to each stage's rate,
# the report files record the plan and each point's target, the page
# draws it (headless Chromium), and bad plans or clashing options are
# refused before any run.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbstages_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# ---- refused ---------------------------------------------------------------------

my $detail = "pgbench: detail: Expected DURATION:TARGET separated by commas, DURATION seconds (or with s, m or h), TARGET clients or a rate with \"tps\", e.g. \"30s:10,60s:10,30s:50\".\n";
my @refused = (
	[ [ '--stages=1s:2', '-T', '5' ], "pgbench: error: --stages sets the run's duration: it cannot be used with -T or -t\n" ],
	[ [ '--stages=1s:2', '-t', '5' ], "pgbench: error: --stages sets the run's duration: it cannot be used with -T or -t\n" ],
	[ [ '--stages=1s:2', '--warmup=1' ], "pgbench: error: --warmup needs a duration (-T): the warm-up is time before it\n" ],
	[ [ '--stages=1s:10tps', '-R', '5' ], "pgbench: error: --stages with rates sets -R: it cannot be given too\n" ],
	[ [ '--stages=1s:2,1s:10tps' ], "pgbench: error: invalid stages \"1s:2,1s:10tps\": the stages mix clients and rates\n" . $detail ],
	[ [ '--stages=1x:2' ], "pgbench: error: invalid stages \"1x:2\": \"1x:2\" is not DURATION:CLIENTS or DURATION:RATEtps\n" . $detail ],
	[ [ '--stages=5s:2.5' ], "pgbench: error: invalid stages \"5s:2.5\": \"5s:2.5\" is not DURATION:CLIENTS or DURATION:RATEtps\n" . $detail ],
	[ [ '--stages=0s:2' ], "pgbench: error: invalid stages \"0s:2\": the stages last 0 s: from 1 s to 2147483647 s\n" . $detail ],
);
for my $case (@refused)
{
	my ($args, $want) = @$case;
	($rc, $out, $err) = pgbench([ '-n', '-S', @$args ], env => \%env);
	is($rc, 1, "refused: @$args: exit status 1");
	is($err, $want, "refused: @$args: the message");
}

# ---- clients: one for 2 s, then four ------------------------------------------------

write_file('sleep.sql', "SELECT pg_sleep(0.02);\n");
my @args = ('-n', '-f', 'sleep.sql', '--stages=0s:1,2s:1,0s:4,2s:4', '-P', '1', '-l',
	'--report-json=c.json', '--report-html=c.html');
($rc, $out, $err) = pgbench(\@args, env => \%env, timeout => 300);
is($rc, 0, 'clients stages: exit status 0') or diag($err);
like($out, qr/^number of clients: 4$/m, '... as many clients as the largest target');
like($out, qr/^duration: 4 s$/m, '... for the stages\' total');

my $doc = decode_json(slurp('c.json'));
is($doc->{settings}{stages}, '0s:1,2s:1,0s:4,2s:4', 'JSON: settings.stages as given');
my @points = @{ $doc->{series}{points} };
my ($first) = grep { $_->{t_s} > 0.5 && $_->{t_s} < 1.5 } @points;
my ($last) = grep { $_->{t_s} > 3.5 && $_->{t_s} < 4.5 && $_->{interval_s} > 0.5 } @points;
ok($first && $last, 'JSON: points in the first and last seconds');
is($first->{stage_target}, 1, 'JSON: the first second\'s target is 1 client');
is($last->{stage_target}, 4, 'JSON: the last second\'s target is 4 clients');
ok($first->{processed} <= 51, "one client's second: at most its pace of 50 ($first->{processed})");
ok($last->{processed} > 1.5 * $first->{processed},
	"four clients' second: well above one's ($last->{processed} against $first->{processed})");

# the -l log: no client beyond the first ended a transaction before 2 s
my ($early, $others) = (0, 0);
for my $f (glob('pgbench_log.*'))
{
	for my $l (split /\n/, slurp($f))
	{
		my @c = split / /, $l;
		next if $c[0] == 0;
		$others++;
		$early++ if $c[4] + $c[5] / 1e6 < $doc->{start_epoch_s} + 2 - 0.001;
	}
}
ok($others > 0, "the other clients ran in the second stage ($others transactions)");
is($early, 0, '... and none of theirs ended before it');

my $chromium = find_chromium();
SKIP:
{
	skip 'Chromium is not installed', 2 unless $chromium;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,3200', '--dump-dom', "file://$dir/c.html" ], timeout => 180);
	is($brc, 0, 'page: chromium --dump-dom: exit code 0') or diag($berr);
	like($dom, qr{<pre id="status">ok [^<]*\bstages:\d+}, 'page: the stages\' target drawn, no script error');
}

# ---- rate: 50 tps for 2 s, then 200 ----------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-S', '--stages=0s:50tps,2s:50tps,0s:200tps,2s:200tps', '-P', '1',
		'--report-json=r.json' ], env => \%env, timeout => 300);
is($rc, 0, 'rate stages: exit status 0') or diag($err);
my $rdoc = decode_json(slurp('r.json'));
@points = @{ $rdoc->{series}{points} };
($first) = grep { $_->{t_s} > 0.5 && $_->{t_s} < 1.5 } @points;
($last) = grep { $_->{t_s} > 3.5 && $_->{t_s} < 4.5 && $_->{interval_s} > 0.5 } @points;
ok($first && $last, 'JSON: points in the first and last seconds');
is($first->{stage_target}, 50, 'JSON: the first second\'s target is 50 tps');
is($last->{stage_target}, 200, 'JSON: the last second\'s target is 200 tps');
ok($first->{processed} >= 20 && $first->{processed} <= 100, "about 50 in the first second ($first->{processed})");
ok($last->{processed} >= 120 && $last->{processed} <= 300, "about 200 in the last second ($last->{processed})");
ok(defined $rdoc->{lag_ms}, 'JSON: throttled as -R (lag figures)');

done_testing();
