# threshold.pl — --threshold=EXPR (doc/report.md, "Thresholds") end to end
# against a throwaway cluster: thresholds that hold print "passed" lines
# after the report and exit 0; one that fails exits 3 with its FAILED line,
# and the report files still carry every verdict; a figure the report
# lacks fails as not measured; a server counter is measured even without
# a report file; an aborted run keeps its status 2; --merge-reports and
# --compare check theirs the same way; malformed expressions are refused
# before the run (exit 1, the exact message).
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbthreshold_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

sub run_with
{
	my ($name, @args) = @_;
	# 10 s: enough intervals for --compare's bound to tell a slowdown on
	# a loaded machine (below)
	my @cmd = ('-n', '-S', '-c', '2', '-T', $name eq 'held' ? '10' : '2', @args);
	return run_accounted($name, \@cmd, sub { pgbench(\@cmd, env => \%env) });
}

# ---- thresholds that hold ---------------------------------------------------------

($rc, $out, $err) = run_with('held', '--threshold=tps>=1', '--threshold', 'latency.p99 <= 60s',
	'--threshold=failed.ratio<1%', '--threshold=server.deadlocks==0', '--threshold=processed>0',
	'--report-json=held.json', '--report-html=held.html');
is($rc, 0, 'thresholds that hold: exit status 0') or diag($err);
like($out, qr/^tps\ =\ [0-9.]+\ \(without\ initial\ connection\ time\)\n
	threshold\ tps>=1:\ passed\ \(tps\ =\ [0-9.]+\)\n
	threshold\ latency\.p99\ <=\ 60s:\ passed\ \(latency\.p99\ =\ [0-9.]+\ ms\)\n
	threshold\ failed\.ratio<1%:\ passed\ \(failed\.ratio\ =\ 0\.000%\)\n
	threshold\ server\.deadlocks==0:\ passed\ \(server\.deadlocks\ =\ 0\)\n
	threshold\ processed>0:\ passed\ \(processed\ =\ [1-9][0-9]*\)\n\z/mx,
	'... a line each after the report, in order');
my $doc = decode_json(slurp('held.json'));
is_deeply([ map { [ $_->{expression}, $_->{passed} ? 1 : 0 ] } @{ $doc->{thresholds} } ],
	[ [ 'tps>=1', 1 ], [ 'latency.p99 <= 60s', 1 ], [ 'failed.ratio<1%', 1 ],
		[ 'server.deadlocks==0', 1 ], [ 'processed>0', 1 ] ],
	'... the JSON report holds each verdict');
is($doc->{thresholds}[0]{value}, $doc->{tps}, '... with the figure it bounded');
is($doc->{thresholds}[4]{value}, $doc->{transactions}{processed}, '... a count as the count');
like(slurp('held.html'), qr/"thresholds": \[/, '... and so does the page');

# ---- thresholds that fail ----------------------------------------------------------

($rc, $out, $err) = run_with('failed', '--threshold=tps>=1e12', '--threshold=latency.p42<=1s',
	'--threshold=tps>0', '--report-json=failed.json');
is($rc, 3, 'a threshold that fails: exit status 3') or diag($err);
like($out, qr/^threshold tps>=1e12: FAILED \(tps = [0-9.]+\)$/m, '... its FAILED line');
like($out, qr/^threshold latency\.p42<=1s: FAILED \(not measured: the report has no latency\.p42\)$/m,
	'a figure the report lacks: FAILED, not measured');
like($out, qr/^threshold tps>0: passed /m, '... the others still checked');
$doc = decode_json(slurp('failed.json'));
is_deeply([ map { $_->{passed} ? 1 : 0 } @{ $doc->{thresholds} } ], [ 0, 0, 1 ], '... every verdict in the report file');
ok(!defined $doc->{thresholds}[1]{value}, '... null for what was not measured');
is($doc->{outcome}, 'completed', '... which is complete');

# no report file: the server's side still runs for server.*
($rc, $out, $err) = run_with('nofile', '--threshold=server.xact_commit>0');
is($rc, 0, 'server.xact_commit without a report file: measured, exit status 0') or diag($err);
like($out, qr/^threshold server\.xact_commit>0: passed \(server\.xact_commit = [1-9][0-9]*\)$/m,
	'... the server\'s commits over the run');

# an aborted run keeps its status
write_file('bad.sql', "SELECT 1/0;\n");
($rc, $out, $err) = pgbench([ '-n', '-f', 'bad.sql', '-t', '1', '--threshold=tps>=1e12' ], env => \%env);
is($rc, 2, 'an aborted run that fails a threshold: exit status 2, the abort\'s');
like($out, qr/^threshold tps>=1e12: FAILED /m, '... the line still printed');

# ---- merge and compare ---------------------------------------------------------------

($rc, $out, $err) = pgbench([ '--merge-reports', 'held.json', '--threshold=tps>=1e12' ]);
is($rc, 3, '--merge-reports with a threshold that fails: exit status 3');
like($out, qr/\nthreshold tps>=1e12: FAILED \(tps = [0-9.]+\)\n\z/, '... its line after the merged report');
($rc, $out, $err) = pgbench([ '--compare', 'held.json', 'held.json', '--threshold=tps.change>=-2%' ]);
# a run of a few seconds has too few intervals for a verdict: the
# threshold can be neither passed nor failed (exit status 4), whatever the
# machine's load
is($rc, 4, '--compare of a short run with itself, tps.change>=-2%: exit status 4') or diag($err);
like($out, qr/^tps .* cannot tell: too few (?:intervals|effective samples) on base: \d.*a run of about \d+ intervals (?:or more )?would do$/m,
	'... tps: cannot tell, for too few intervals');
like($out, qr/^threshold tps\.change>=-2%: CANNOT TELL \(tps\.change = \+0\.000%, and the comparison cannot tell: see its verdict\)$/m,
	'... the threshold: CANNOT TELL');
# 100 ms of sleep per transaction: the latency's change is far beyond its
# noise, even a sanitizer build's on a loaded machine
write_file('slow.sql', "SELECT pg_sleep(0.1);\n");
($rc, $out, $err) = run_accounted('slow', ['-T'], sub {
	pgbench([ '-n', '-f', 'slow.sql', '-c', '2', '-T', '10', '--report-json=slow.json' ], env => \%env) });
is($rc, 0, 'a slowed run') or diag($err);
($rc, $out, $err) = pgbench([ '--compare', 'held.json', 'slow.json', '--threshold=latency.average.change<=10%',
	'--threshold=failed.ratio.change<=0.1pp' ]);
# a change a thousand times the base: told by the bound (doc/compare.md)
# though a few intervals give no estimate, unless a loaded machine spread
# the base's own seconds beyond any bound (then it cannot tell: exit 4)
my $told = $out =~ /^latency average .* worse$/m;
is($rc, $told ? 3 : 4, 'the slowed run against latency.average.change<=10%: exit status 3 (4 if it cannot tell)');
like($out, $told ? qr/^threshold latency\.average\.change<=10%: FAILED \(latency\.average\.change = \+[0-9.]+%, 95% interval \[\+[0-9.]+%, \+[0-9.]+%\]\)$/m
	: qr/^threshold latency\.average\.change<=10%: CANNOT TELL \(/m,
	'... FAILED, the whole interval above the bound (or CANNOT TELL)');
like($out, qr/^threshold failed\.ratio\.change<=0\.1pp: passed \(failed\.ratio\.change = \+0\.000 pp/m,
	'... a change of the failed share in percentage points');

# ---- malformed ----------------------------------------------------------------------

my $detail = "pgbench: detail: Expected NAME OP NUMBER[UNIT], e.g. \"tps>=1500\", \"latency.p99<=20ms\" or, with --compare, \"tps.change>=-2%\".\n";
for my $bad ([ 'tpx>=5', 'unknown figure "tpx"' ], [ 'tps=>5', 'expected >=, <=, >, <, == or != after tps' ],
	[ 'tps>=', 'expected a number after the operator' ], [ 'tps>=5ms', 'unit "ms" does not fit tps' ],
	[ 'latency.p99<=5%', 'unit "%" does not fit latency.p99' ],
	[ 'tps.change==5%', 'a change is bounded with >=, <=, > or <' ])
{
	my ($expr, $why) = @$bad;
	($rc, $out, $err) = pgbench([ "--threshold=$expr", '-T', '1' ], env => \%env);
	is($rc, 1, "\"$expr\": exit status 1");
	is($err, "pgbench: error: invalid threshold \"$expr\": $why\n$detail", "\"$expr\": the message");
}
($rc, $out, $err) = pgbench([ '--threshold=tps.change>=-2%', '-T', '1' ], env => \%env);
is($err, "pgbench: error: a threshold on a change is only for --compare: \"tps.change>=-2%\"\npgbench: hint: Try \"pgbench --help\" for more information.\n",
	'a change threshold on a run: refused');
($rc, $out, $err) = pgbench([ '--compare', 'held.json', 'held.json', '--threshold=tps>=1' ]);
is($err, "pgbench: error: with --compare, a threshold bounds a change (tps.change): \"tps>=1\"\npgbench: hint: Try \"pgbench --help\" for more information.\n",
	'a figure threshold under --compare: refused');
is($rc, 1, '... exit status 1');

done_testing();
