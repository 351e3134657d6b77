# warmup.pl — --warmup=SECONDS (doc/report.md, "Warm-up") end to end
# against a throwaway cluster: the run lasts the warm-up plus -T, the
# figures count only what ended after the warm-up (the -l log holds
# exactly the transactions the report counts, none before the warm-up's
# end), the timeline keeps the warm-up's intervals, the JSON says how long
# it was, the page shades it (headless Chromium), the server's commit
# check is not made on totals read on the fly, a run interrupted in its
# warm-up reports nothing measured, and --warmup without -T is refused.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run;
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbwarmup_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# ---- refused without a duration ----------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '10', '--warmup=1' ], env => \%env);
is($rc, 1, 'without -T: exit status 1');
is($err, "pgbench: error: --warmup needs a duration (-T): the warm-up is time before it\n",
	'... and the message says why');
($rc, $out, $err) = pgbench([ '-n', '-S', '-T', '1', '--warmup=-1' ], env => \%env);
is($rc, 1, 'a negative warm-up: exit status 1');
is($err, "pgbench: error: --warmup must be in range 0..31536000\n", '... out of its range');

# ---- a run with a warm-up ----------------------------------------------------------

my @args = ('-n', '-S', '-c', '2', '-T', '2', '--warmup=2', '-P', '1', '-l', '--log-prefix=wl',
	'--report-json=w.json', '--report-html=w.html');
($rc, $out, $err) = run_accounted('warm-up', \@args, sub { pgbench(\@args, env => \%env) });
is($rc, 0, 'a run with a warm-up: exit status 0') or diag($err);
like($out, qr/^duration: 2 s\nwarm-up: 2 s \(not counted\)\nnumber of transactions actually processed: \d+$/m,
	'... the text says so after the duration');
# (a line's time is when it was printed: 1.0 s, or later on a busy machine)
my @progress_at = $err =~ /^progress: ([\d.]+) s, /mg;
ok((grep { $_ <= 2.0 } @progress_at), '... the warm-up has its progress lines')
  or diag($err);
unlike($err, qr/the server counted/, '... no commit check on totals read on the fly');

my $doc = decode_json(slurp('w.json'));
is($doc->{settings}{warmup_s}, 2, 'JSON: settings.warmup_s');
my $processed = $doc->{transactions}{processed};
my @points = @{ $doc->{series}{points} };
my $all = 0;
$all += $_->{processed} for @points;
ok($processed > 0, "JSON: transactions counted after the warm-up ($processed)");
ok($all > $processed, "JSON: the series holds the warm-up's too ($all in all)");
my @warm = grep { $_->{t_s} <= 2.0 } @points;
ok(scalar(@warm) >= 1, 'JSON: the series has points in the warm-up');
ok($doc->{duration_s} < 4, "JSON: duration_s is the measured time ($doc->{duration_s} s), not the run's");
ok($doc->{tps} > 0 && abs($doc->{tps} - $processed / $doc->{duration_s}) <= 1e-3 * $doc->{tps},
	'JSON: tps is what was counted over the measured time');

# the -l log: exactly the transactions counted, all after the warm-up's end
my @logs = glob('wl.*');
my ($lines, $first) = (0, undef);
for my $f (@logs)
{
	for my $l (split /\n/, slurp($f))
	{
		my @c = split / /, $l;
		my $t = $c[4] + $c[5] / 1e6;
		$first = $t if !defined($first) || $t < $first;
		$lines++;
	}
}
is($lines, $processed, "the -l log holds the counted transactions, no more ($lines lines)");
ok(defined($first) && $first >= $doc->{start_epoch_s} + 2 - 0.001,
	'... all of them ended after the warm-up (' . ($first // 'none') . ' >= ' . ($doc->{start_epoch_s} + 2) . ')');

# ---- compare: the warm-up's intervals are no sample --------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'w.json', 'w.json', '--report-html=cmp.html' ], env => \%env);
is($rc, 0, 'compare a warm-up run with itself: exit status 0') or diag($err);
# a run of a few seconds cannot tell; never better or worse than itself
like($out, qr/^tps .*(?:no significant difference|cannot tell)/m, '... no difference');
($rc, $out, $err) = pgbench([ '--compare', 'w.json', 'w.json', '--report-json=-' ], env => \%env);
is($rc, 0, '--compare --report-json=-: exit status 0') or diag($err);
my $cmp = eval { decode_json($out) };
ok($cmp && $cmp->{comparisons}, '... the document on stdout') or diag($@);
like($err, qr/^tps .*(?:no significant difference|cannot tell)/m, '... the text on stderr');
ok(!-e '-', '... and no file named "-"');

# ---- the page ----------------------------------------------------------------------

my $chromium = find_chromium();
SKIP:
{
	skip 'Chromium is not installed', 5 unless $chromium;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,3200', '--dump-dom', "file://$dir/w.html" ], timeout => 180);
	is($brc, 0, 'page: chromium --dump-dom: exit code 0') or diag($berr);
	like($dom, qr{<pre id="status">ok [^<]*</pre>}, 'page: drawn with no script error');
	like($dom, qr{id="chart-tps"[^>]* data-warmup="2"}, 'page: the tps chart shades the warm-up');
	($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,3200', '--dump-dom', "file://$dir/cmp.html" ], timeout => 180);
	like($dom, qr{<pre id="status">ok [^<]*</pre>}, 'comparison page: drawn with no script error');
	like($dom, qr{id="chart-tps-1"[^>]* data-warmup="2"}, 'comparison page: the warm-up shaded too');
}

# ---- interrupted in the warm-up ----------------------------------------------------

{
	my ($o, $e) = ('', '');
	my $h = do {
		local %ENV = (%ENV, %env);
		IPC::Run::start([ our_pgbench_path(), '-n', '-S', '-c', '2', '-T', '5', '--warmup=600',
				'-P', '1', '--report-json=int.json' ],
			'<', \undef, '>', \$o, '2>', \$e, IPC::Run::timeout(300));
	};
	my $going = poll_until(sub { $h->pump_nb; $e =~ /^progress: /m }, 120);
	ok($going, 'SIGINT in the warm-up: the run is under way');
	$h->signal('INT');
	$h->finish;
	is($? >> 8, 130, 'SIGINT in the warm-up: exit code 130');
	like($o, qr/^number of transactions actually processed: 0$/m, '... nothing measured');
	my $idoc = decode_json(slurp('int.json'));
	is($idoc->{outcome}, 'interrupted', '... the JSON says interrupted');
	is($idoc->{transactions}{processed}, 0, '... and counted nothing');
	ok(scalar(@{ $idoc->{series}{points} }) >= 1, '... but kept the warm-up\'s series');
}

done_testing();
