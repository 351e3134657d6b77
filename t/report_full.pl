# report_full.pl — the report files' JSON document (doc/report-json.md,
# schema_version 3) from real runs: a -c 8 -j 2 -T -P 1 -R 2000 run's
# document conforms to doc/report-json.schema.json (every member present,
# none undocumented), and its parts agree with each other and with the
# text report: the series covers the run and adds up to the totals, the
# exported histogram adds up to the successful transactions and gives back
# the percentiles by the documented bucket layout, p100 is the maximum,
# the password of the command line is masked (t/conn_password.pl: every
# form, against a server that checks it).  Then an aborting client's
# failure record, and per-command percentiles under -r.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use List::Util qw(sum0 max);
use POSIX ();
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbfull_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

# ---- the full run ------------------------------------------------------------------

my $T = 8;
($rc, $out, $err) = pgbench([ '-c', '8', '-j', '2', '-T', $T, '-P', '1', '-R', '2000',
		'--report-json=r.json', '--report-html=r.html', 'dbname=postgres password=hunter2' ],
	env => \%env);
is($rc, 0, 'full run: exit code 0') or diag($err);
my $doc = decode_json(slurp('r.json'));
is_deeply([ report_schema_errors($doc) ], [], 'full run: the document conforms to doc/report-json.schema.json');
is($doc->{schema_version}, 5, 'schema_version 5');

# the checker rejects what the schema does not allow: a member of the wrong
# type, a member it does not declare, a required one missing, nested too
{
	my %bad = (%$doc, compat => '16');
	my @e = report_schema_errors(\%bad);
	ok(scalar(grep { m{^/compat: } } @e), 'schema: a string where an integer is declared is rejected')
	  or diag(explain(\@e));
	%bad = (%$doc, undocumented => 1);
	@e = report_schema_errors(\%bad);
	ok(scalar(grep { /undocumented/ } @e), 'schema: an undeclared member is rejected') or diag(explain(\@e));
	%bad = %$doc;
	delete $bad{merge};
	ok(scalar(report_schema_errors(\%bad)), 'schema: a missing member is rejected');
	%bad = (%$doc, latency_ms => { %{ $doc->{latency_ms} }, count => 1.5 });
	@e = report_schema_errors(\%bad);
	ok(scalar(grep { m{^/latency_ms/count: } } @e), 'schema: a number where an integer is declared, nested')
	  or diag(explain(\@e));
}
ok(-s 'r.html' > 10000, 'the HTML page is written too');

# metadata
my @argv = @{ $doc->{command_line} };
ok(!grep({ /hunter2/ } @argv), 'command line: the password is gone');
is($argv[-1], 'password=******** dbname=postgres',
	'command line: the connection string rebuilt by libpq, its password masked');
unlike(slurp('r.html'), qr/hunter2/, 'the HTML page has no password either');
is_deeply([ @argv[ 1 .. 4 ] ], [ '-c', '8', '-j', '2' ], 'command line: the arguments in order');
like($doc->{start_time}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'start_time is ISO 8601 UTC');
like($doc->{end_time}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'end_time is ISO 8601 UTC');
my $span = $doc->{end_epoch_s} - $doc->{start_epoch_s};
ok($span >= $doc->{duration_s} && $span < $doc->{duration_s} + 30,
	"end - start ($span s) covers the benchmark ($doc->{duration_s} s) and the connections");
ok(abs($doc->{start_epoch_s} - time()) < 600, 'start_epoch_s is now-ish Unix time');
is($doc->{connection}{database}, 'postgres', 'connection: database');
is($doc->{connection}{port}, $env{PGPORT}, 'connection: port');
is($doc->{connection}{host}, $env{PGHOST}, 'connection: host (the socket directory)');
is($doc->{compat}, 16, 'compat mode');
like($doc->{settings}{random_seed}, qr/^\d+$/, 'settings.random_seed');
is($doc->{settings}{rate_tps}, 2000, 'settings.rate_tps');
is($doc->{aborted}, JSON::PP::false, 'not aborted');
is_deeply($doc->{aborted_clients}, [], 'no aborted client');

# the series
my $series = $doc->{series};
my @pts = @{ $series->{points} };
is($series->{interval_s}, 1, 'series: the -P interval');
ok(@pts >= $T && @pts <= $T + 3, 'series: ' . scalar(@pts) . " points for -T $T");
is(sum0(map { $_->{processed} } @pts), $doc->{transactions}{processed}, 'series: processed adds up');
is(sum0(map { $_->{failures} } @pts), $doc->{transactions}{failed}, 'series: failures add up');
is(sum0(map { $_->{retries} } @pts), $doc->{transactions}{retries}, 'series: retries add up');
is(sum0(map { $_->{skipped} } @pts), $doc->{transactions}{skipped}, 'series: skipped adds up');
# the ticker's records: each ends at a tick (k s, read a little late) or, the last, with the run
ok(!grep({ $pts[$_]{t_s} < $_ + 1 || $pts[$_]{t_s} > $_ + 1.5 } 0 .. $#pts - 1), 'series: one point per second');
ok(!grep({ abs($pts[$_]{t_s} - $pts[$_]{interval_s} - ($_ ? $pts[ $_ - 1 ]{t_s} : 0)) > 2e-6 } 0 .. $#pts),
	'series: each point starts where the one before ended');
ok($pts[-1]{t_s} >= $#pts, 'series: the last point ends with the run');
my $pmax = max(map { $_->{latency_ms}{max} // 0 } @pts);
ok($pmax >= $doc->{latency_ms}{max} && $pmax <= $doc->{latency_ms}{max} * (1 + 1 / 128) + 0.001,
	"series: the highest max ($pmax) is the run's max to the bucket's width");
ok(!grep({ defined $_->{latency_ms}{p50} && $_->{latency_ms}{p50} > $_->{latency_ms}{p99} } @pts),
	'series: p50 <= p99 in every point');
ok(!grep({ !defined $_->{lag_ms} } @pts), 'series: lag under -R');

# the histogram: counts, the layout, p100
my $h = $doc->{latency_histogram};
my @buckets = @{ $h->{buckets} };
is(sum0(map { $_->[1] } @buckets), $doc->{transactions}{processed}, 'histogram: bucket counts add up to processed');
is($h->{count}, $doc->{transactions}{processed}, 'histogram: count');
is($h->{max_us} / 1000, $doc->{latency_ms}{max}, 'histogram: max_us is the maximum');
is($doc->{latency_ms}{percentiles}{p100}, $doc->{latency_ms}{max}, 'p100 equals the true maximum');
is_deeply([ sort keys %{ $doc->{latency_ms}{percentiles} } ], [ sort qw(p50 p90 p95 p99 p99.9 p100) ],
	'the default percentiles, without --percentiles');

# the documented layout gives the same percentiles back (nearest rank, bucket midpoint)
sub bucket_bounds
{
	my ($i, $bits) = @_;
	my $sub = 2**$bits;
	my $shift = $i < 2 * $sub ? 0 : int($i / $sub) - 1;
	my $low = ($i - $shift * $sub) * 2**$shift;
	return ($low, $low + 2**$shift - 1);
}
for my $p (50, 90, 99)
{
	my $rank = POSIX::ceil($p * $h->{count} / 100);
	my $seen = 0;
	my $value;
	for my $b (@buckets)
	{
		$seen += $b->[1];
		next if $seen < $rank;
		my ($low, $high) = bucket_bounds($b->[0], $h->{sub_bucket_bits});
		$value = $low + int(($high - $low) / 2);
		$value = $h->{min_us} if $value < $h->{min_us};
		$value = $h->{max_us} if $value > $h->{max_us};
		last;
	}
	is(sprintf('%.6f', $value / 1000), sprintf('%.6f', $doc->{latency_ms}{percentiles}{"p$p"}),
		"histogram: p$p from the exported buckets");
}

# the text report agrees
my ($processed) = $out =~ /^number of transactions actually processed: (\d+)/m;
is($doc->{transactions}{processed}, $processed, 'processed as the text report');

# ---- an aborted client --------------------------------------------------------------

my $half = write_file("$dir/half.sql", "\\if :client_id = 1\nselect 1/0;\n\\else\nselect 1;\n\\endif\n");
($rc, $out, $err) = pgbench([ '-n', '-f', $half, '-t', '5', '-c', '3', '-j', '2', '--report-json=a.json' ],
	env => \%env);
is($rc, 2, 'aborting client: exit code 2');
$doc = decode_json(slurp('a.json'));
is_deeply([ report_schema_errors($doc) ], [], 'aborting client: the document conforms');
is(scalar @{ $doc->{aborted_clients} }, 1, 'aborting client: one failure record');
my $a = $doc->{aborted_clients}[0];
is($a->{client}, 1, 'failure record: client');
is($a->{kind}, 'sql', 'failure record: kind');
is($a->{sqlstate}, '22012', 'failure record: SQLSTATE');
is($a->{script}, 0, 'failure record: script');
is($a->{command}, 1, 'failure record: command');
like($a->{message}, qr/division by zero/, 'failure record: message');
my ($line) = $err =~ /^pgbench: error: (client 1 .*aborted.*)$/m;
is($a->{line}, $line, 'failure record: the line pgbench printed');
is($doc->{transactions}{processed}, 10, 'aborting client: the others finished');

# ---- per-command percentiles under -r, several scripts, --percentiles -----------------

my $two = write_file("$dir/two.sql", "\\set x random(1, 10)\nselect :x;\nselect pg_sleep(0.001);\n");
($rc, $out, $err) = pgbench([ '-n', '-f', "$two\@2", '-b', 'select-only@1', '-t', '40', '-c', '2', '-r',
		'--percentiles=75,99,75', '--report-json=c.json' ], env => \%env);
is($rc, 0, '-r with two scripts: exit code');
$doc = decode_json(slurp('c.json'));
is_deeply([ report_schema_errors($doc) ], [], '-r with two scripts: the document conforms');
is_deeply($doc->{settings}{percentiles}, [ 75, 99 ], '--percentiles: a repeated value is kept once');
is_deeply([ sort keys %{ $doc->{latency_ms}{percentiles} } ], [ sort qw(p50 p75 p90 p95 p99 p99.9 p100) ],
	'--percentiles adds to the default list');
is(scalar(() = $out =~ /^latency p75 = /mg), 1, 'text: p75 once');
for my $s (@{ $doc->{scripts} })
{
	for my $c (@{ $s->{commands} })
	{
		next unless $c->{latency_ms}{count};
		is($c->{latency_ms}{percentiles}{p100}, $c->{latency_ms}{max},
			"script $s->{number} command $c->{number}: p100 is its max");
	}
}
my $sleep = $doc->{scripts}[0]{commands}[2];
ok($sleep->{latency_ms}{percentiles}{p50} >= 1.0, "pg_sleep(0.001): median $sleep->{latency_ms}{percentiles}{p50} ms >= 1 ms");

# ---- settings of 16 and 17 significant digits read back exactly ----------------------
# (found by fuzz/fuzz_report.c: %.15g printed -R 12345.678901234567 as another number,
# and %g named both percentiles below "p100", beside the default's: a member twice)

($rc, $out, $err) = pgbench([ '-n', '-b', 'select-only', '-t', '5', '-R', '12345.678901234567',
		'--percentiles=99.99999,99.999991', '--report-json=d.json' ], env => \%env);
is($rc, 0, '17-digit settings: exit code') or diag($err);
my ($rate) = slurp('d.json') =~ /"rate_tps": ([0-9.e+-]+)/;
ok(defined $rate && $rate == 12345.678901234567 && $rate ne '12345.6789012346',
	'rate_tps reads back as -R (' . ($rate // 'none') . ')');
$doc = decode_json(slurp('d.json'));
is_deeply([ sort keys %{ $doc->{latency_ms}{percentiles} } ],
	[ sort qw(p50 p90 p95 p99 p99.9 p99.99999 p99.999991 p100) ],
	'percentile names tell 99.99999, 99.999991 and 100 apart');
($rc, $out, $err) = pgbench([ '--merge-reports', 'd.json', '--report-json=dm.json' ]);
is($rc, 0, '17-digit settings: the report merges') or diag($err);
my $merged = decode_json(slurp('dm.json'));
is_deeply([ @{ $merged->{settings} }{qw(rate_tps percentiles)} ], [ @{ $doc->{settings} }{qw(rate_tps percentiles)} ],
	'the merged report has the same rate and percentiles');
is_deeply($merged->{latency_ms}{percentiles}, $doc->{latency_ms}{percentiles}, 'and the same percentile figures');

done_testing();
