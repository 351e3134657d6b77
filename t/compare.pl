# compare.pl — pgbench-ng --compare (doc/compare.md) on reports of real
# runs against a throwaway cluster: a report compared with itself shows no
# change and no difference; a run slowed by pg_sleep is worse, with an
# interval that excludes zero, its script listed as what differs (and
# warned about), and the sleep's wait event among the evidence that
# changed most; pooled sides; and the refusals (and a report whose series
# contradicts its totals, a merged report against a single run): too few sides, a
# missing or damaged report (the merge reader's messages), exit status 1,
# nothing on stdout.  Texts a report brings are printed with their control
# characters masked.  The JSON document carries each comparison's
# diagnosis; the page (in headless Chromium) shows no status text, marks
# each run's checkpoints (a run that ran CHECKPOINT), and draws a
# diagnosis (a hand-made one, with hostile texts, put into a page) as
# text: its sentence, tables and a stacked bar per run.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbcompare_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# 20 ms of sleep per transaction: far beyond what a loaded machine adds
write_file('slow.sql', "\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nSELECT pg_sleep(0.02);\n");
mkdir 'runs' or die "mkdir: $!";
for my $run ([ 'a1', '-S', '--label=n=1' ], [ 'a2', '-S', '--label=n=2' ], [ 'slow', '-f', 'slow.sql' ])
{
	my ($name, @script) = @$run;
	# 10 s: intervals enough for the bound to tell the slowdown on a
	# loaded machine (at least 3 are needed; 5 could not, beside a suite)
	my @cmd = ('-n', @script, '-c', '2', '-T', '10', '--label', 'env=ci', "--report-json=$name.json");
	($rc, $out, $err) = run_accounted($name, \@cmd, sub { pgbench(\@cmd, env => \%env) });
	is($rc, 0, "$name.json: a run of 10 s") or diag($err);
}
# a run with checkpoints in it, for the page's marks
write_file('ckpt.sql', "CHECKPOINT;\n\\sleep 1200 ms\n");
my @ckpt_cmd = ('-n', '-f', 'ckpt.sql', '-c', '1', '-T', '4', '--report-json=ckpt.json');
($rc, $out, $err) = run_accounted('ckpt', \@ckpt_cmd, sub { pgbench(\@ckpt_cmd, env => \%env) });
is($rc, 0, 'ckpt.json: a run of 4 s that checkpoints') or diag($err);

# stderr without the client-bound and host-saturated warnings a loaded machine may cause
sub warnings_of
{
	my ($e) = @_;
	$e =~ s/^pgbench: warning: \S+ was client-bound: .*\n//mg;
	$e =~ s/^pgbench: warning: the client host was saturated during .*\n//mg;
	return $e;
}

my $figures = qr/^(tps|latency average|latency p50|latency p90|latency p99|latency max|failed)\s/;

# Lines of the figure table: name => [ base, new, change, interval, verdict ]
sub table
{
	my ($text) = @_;
	my %rows;
	for my $line (split /\n/, $text)
	{
		next unless $line =~ $figures;
		my $name = $1;
		my $rest = substr($line, length $name);
		$rest =~ /^\s+(\S+(?: ms)?)\s+(\S+(?: ms)?)\s+(\S+(?: pp)?)\s+(\[[^\]]*\]|-)\s+(.*)$/
		  or die "cannot read the line \"$line\"";
		$rows{$name} = [ $1, $2, $3, $4, $5 ];
	}
	return \%rows;
}

# ---- a report against itself ------------------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'a1.json' ]);
is($rc, 0, 'a1 against itself: exit status 0');
is(warnings_of($err), '', '... no warning (but a client-bound run\'s)');
like($out, qr/^base: a1\.json \(\d+ intervals\)\nnew: a1\.json \(\d+ intervals\)\n/,
	'... the sides and their intervals first');
like($out, qr/^figure +base +new +change +95% interval +verdict$/m, '... the table\'s header');
my $rows = table($out);
is(scalar(keys %$rows), 7, '... seven figures');
# a few seconds' run has too few intervals for an estimate, and no change
# passes the bound: each figure says why it cannot tell
for my $f (sort keys %$rows)
{
	like($rows->{$f}[4], qr/^cannot tell: (?:too few (?:intervals|effective samples) on base|not settled on base|a maximum from one run per side|no failures on either side)/,
		"... $f: cannot tell, and why");
	like($rows->{$f}[2], qr/^\+0\.0(?:%| pp)$/, "... $f: no change");
	is($rows->{$f}[3], '-', "... $f: no interval");
}
unlike($out, qr/what differs/, '... nothing differs');
my $a1 = decode_json(slurp('a1.json'));
like($out, qr/^tps +\Q${\ sprintf('%.1f', $a1->{tps})}\E /m, '... tps as the report gives it');

# ---- a slowed run -------------------------------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'slow.json' ]);
is($rc, 0, 'a1 against the slowed run: exit status 0') or diag($err);
$rows = table($out);
# The slowdown is told by the bound (below) unless the base run's own
# seconds spread so widely that no bound holds: a loaded machine (a suite
# beside it) has had -S seconds ten times slower than the rest, half of
# them.  Then the base cannot be estimated and says so; never better.
my $told = $rows->{'latency average'}[4] eq 'worse';
like($rows->{'latency average'}[4], qr/^(?:worse|cannot tell: (?:too few (?:intervals|effective samples) on base|not settled on base))/,
	'latency average: worse, or the base cannot be estimated') or diag($out);
my ($lo, $hi) = $rows->{'latency average'}[3] =~ /^\[([-+][0-9.]+)%, ([-+][0-9.]+)%\]$/;
ok(!$told || (defined $lo && $lo > 0 && $hi >= $lo),
	"latency average: if told, an interval above zero ($rows->{'latency average'}[3])");
# A few intervals a side give no estimate: the change, a hundredfold,
# is told by the bound (beyond three times the intervals' spread at the
# top of its 95% interval, doc/compare.md).  A loaded machine's -S run can
# have p50s that jump tenfold from one second to the next: the p50 is
# then not told, but never better.
my ($chg) = $rows->{'latency p50'}[2] =~ /^\+([0-9.]+)%$/;
ok(defined $chg && $chg > 100, "latency p50: more than doubled ($rows->{'latency p50'}[2])");
like($rows->{'latency p50'}[4], qr/^(?:worse|cannot tell: )/, 'latency p50: worse, or cannot tell');
($lo, $hi) = $rows->{'latency p50'}[3] =~ /^\[([-+][0-9.]+)%, ([-+][0-9.]+)%\]$/;
ok($rows->{'latency p50'}[3] eq '-' || (defined $lo && $lo <= $chg && $chg <= $hi),
	"latency p50: its interval, if any, holds the change ($rows->{'latency p50'}[3])");
like($rows->{tps}[2], qr/^-/, 'tps: lower');
like($out, qr/^what differs \(base \| new\):\n  transaction_type: <builtin: select only> \| slow\.sql$/m,
	'the scripts are listed as what differs');
is(warnings_of($err), "pgbench: warning: the runs ran different scripts: the comparison is of two workloads\n",
	'... and warned about');
like($out, qr/^what changed beyond its noise \(base -> new, per transaction\):\n(?:  .*\n)*?  +\d+\. Timeout:PgSleep +\S+ ms -> [0-9.]+ ms /m,
	'the sleep is among the evidence that changed beyond its noise');
like($out, qr/^  +\d+\. server processes CPU +[0-9.e+-]+ ms -> [0-9.e+-]+ ms  [-+]\d+% \[[-+]\d+%, [-+]\d+%\]/m,
	'... so is the server\'s CPU per transaction, if ranked, with its interval')
	if $out =~ /^  +\d+\. server processes CPU/m;
like($out, qr/^likely cause: .+$/m, 'the sentence');

# ---- the comparison as JSON ------------------------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'slow.json', '--report-json=cmp.json',
		'--threshold=latency.average.change<=10%' ]);
is($rc, $told ? 3 : 4, '--report-json with a threshold that fails (or cannot be told): exit status 3 (4)');
my $cmp = decode_json(slurp('cmp.json'));
is($cmp->{compare_version}, 3, 'the JSON comparison: its version');
is_deeply([ map { $_->{file} } @{ $cmp->{base} } ], ['a1.json'], '... the base');
is(scalar @{ $cmp->{comparisons} }, 1, '... one comparison');
my %fig = map { $_->{figure} => $_ } @{ $cmp->{comparisons}[0]{figures} };
is_deeply([ sort keys %fig ], [ sort qw(tps latency.average latency.p50 latency.p90 latency.p99 latency.max failed.ratio) ],
	'... seven figures');
is($fig{'latency.average'}{verdict}, $told ? 'worse' : 'cannot tell', '... latency average as the text');
ok(!$told || ($fig{'latency.average'}{low} > 0 && $fig{'latency.average'}{high} >= $fig{'latency.average'}{low}),
	'... its interval above zero, in ms');
ok(!$told || ($fig{'latency.average'}{low_relative} > 0 && $fig{'latency.average'}{relative_unit} eq '%'),
	'... and relative to the base, in %');
is($fig{'latency.max'}{verdict}, 'cannot tell', '... latency max: cannot tell');
is($fig{'latency.max'}{reason_code}, 'maximum_of_one_run', '... for a maximum of one run per side');
is($fig{tps}{base_estimate}{method}, 'batch means', '... each side\'s estimate, by batch means');
is($cmp->{comparisons}[0]{thresholds}[0]{passed}, JSON::PP::false, '... the threshold, not passed');
is($cmp->{comparisons}[0]{thresholds}[0]{outcome}, $told ? 'failed' : 'cannot tell', '... its outcome');
# the diagnosis: null until it is computed, else its members
my $diag = $cmp->{comparisons}[0]{diagnosis};
ok(exists $cmp->{comparisons}[0]{diagnosis}, '... a diagnosis member');
SKIP:
{
	skip 'the diagnosis is not computed (null)', 6 unless defined $diag;
	is_deeply([ sort keys %$diag ], [ sort qw(differences differences_more warnings evidence breakdown host rule sentence) ],
		'... the diagnosis\' members');
	ok(length $diag->{sentence}, '... its sentence');
	ok((grep { $_->{kind} eq 'script' } @{ $diag->{differences} }), '... the scripts among its differences');
	ok((grep { $_->{code} eq 'different_scripts' } @{ $diag->{warnings} }), '... and warned about');
	is_deeply([ sort keys %{ $diag->{breakdown} } ],
		[ sort qw(available_base available_new latency_base_ms latency_new_ms parts) ], '... its breakdown');
	is_deeply([ sort keys %{ $diag->{host} } ], [qw(base new)], '... its host split per side');
}

# ---- the page, in Chromium -------------------------------------------------------------

# The page as Chromium drew it: its DOM.
sub render
{
	my ($chromium, $file) = @_;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,2400', '--dump-dom', "file://$dir/$file" ], timeout => 180);
	is($brc, 0, "$file: chromium --dump-dom: exit code 0") or diag($berr);
	return $dom;
}

# The status the page leaves for tests in #status, which its style hides (display: none).
sub page_status
{
	my ($dom) = @_;
	my ($status) = $dom =~ m{<pre id="status">([^<]*)</pre>};
	like($dom, qr{<style>#status \{ display: none; \}}, '... no status text shown (#status hidden by the page\'s style)');
	return $status // '';
}

# A chart box's attributes (data-checkpoints, data-marks, ...).
sub chart_attrs
{
	my ($dom, $id) = @_;
	my ($tag) = $dom =~ m{(<div [^>]*id="chart-\Q$id\E"[^>]*>)};
	return { ($tag // '') =~ /([\w-]+)="([^"]*)"/g };
}

# Text as Chromium serializes it.
sub html_text { my ($t) = @_; $t =~ s/&/&amp;/g; $t =~ s/</&lt;/g; $t =~ s/>/&gt;/g; $t =~ s/\xa0/&nbsp;/g; return $t; }

# The parts (rects) of the bar of a side in the stacked bars of class $cls.
sub bar_parts
{
	my ($dom, $cls, $side) = @_;
	my ($svg) = $dom =~ m{<svg class="stack \Q$cls\E"[^>]*>(.*?)</svg>}s or return -1;
	my ($g) = $svg =~ m{<g class="bar" data-side="\Q$side\E">(.*?)</g>}s or return -1;
	my @rects = $g =~ m{<rect class="part"}g;
	return scalar @rects;
}

SKIP:
{
	my $chromium = PgbTest::find_chromium();
	skip 'Chromium is not installed (t/report_html.pl installs it)', 47 unless $chromium;
	# a hostile file name: it must neither end the data's script element nor open a comment
	my $odd_name = '<!--<script>x&"y.json';
	system('cp', 'slow.json', $odd_name) == 0 or die "cp: $!";
	($rc, $out, $err) = pgbench([ '--compare', 'a1.json', $odd_name, '--report-html=cmp.html' ]);
	is($rc, 0, '--report-html: exit status 0') or diag($err);
	my $dom = render($chromium, 'cmp.html');
	my $status = page_status($dom);
	like($status, qr/^ok tps-1:\d+ p99-1:\d+ cdf-1:\d+$/, 'the page drew its three charts') or diag($status);
	my %n = $status =~ /([\w-]+):(\d+)/g;
	ok(($n{'tps-1'} // 0) >= 4 && ($n{'cdf-1'} // 0) >= 2, '... with points in them');
	# the page without its scripts (whose comments show the format) and #status
	(my $shown = $dom) =~ s{<script\b.*?</script>|<pre id="status">[^<]*</pre>}{}gs;
	unlike($shown, qr/(?:ok|error:) tps-1:/, '... and no debug text elsewhere');
	like($dom, qr{<h2>new 1: &lt;!--&lt;script&gt;x&amp;"y\.json</h2>}, '... the hostile file name shown as text');
	like($dom, $told ? qr{<th>latency\.average</th><td>[0-9.]+</td><td>[0-9.]+</td><td>\+[0-9.]+%</td><td>\[[^<]+\]</td><td class="text">worse</td>}
		: qr{<th>latency\.average</th><td>[0-9.]+</td><td>[0-9.]+</td><td>\+[0-9.]+%</td><td>–</td><td class="text">cannot tell: },
		'... the table with its verdicts');
	like($dom, qr{<th>latency\.max</th><td>[0-9.]+</td><td>[0-9.]+</td><td>[-+][0-9.]+%</td><td>–</td><td class="text">cannot tell: a maximum from one run per side has no interval},
		'... and the reason of a figure it cannot tell');
	like($dom, qr{<section class="why" id="why-1"><h3>Why</h3>}, '... a "Why" section');
	if (defined $diag)
	{
		like($dom, qr{<p class="sentence">\Q${\ html_text($diag->{sentence})}\E</p>}, '... with the diagnosis\' sentence');
		ok(bar_parts($dom, 'breakdown', 'base') >= 0 && bar_parts($dom, 'breakdown', 'new') >= 0,
			'... and a bar of the latency taken apart per run');
	}
	else
	{
		like($dom, qr{<p class="note">no diagnosis in the comparison</p>}, '... saying there is no diagnosis');
		pass('... (no bars without a diagnosis)');
	}
	my $html = slurp('cmp.html');
	ok($html !~ m{<script[^>]*\ssrc=}i, '... no external script');

	# checkpoints: each run's, marked in the charts over time
	my $ck = decode_json(slurp('ckpt.json'));
	my $nck = scalar @{ $ck->{server_stats}{checkpoints} // [] };
	my $na1 = scalar @{ $a1->{server_stats}{checkpoints} // [] };
	ok($nck >= 1, "ckpt.json: its checkpoints listed ($nck)");
	($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'ckpt.json', '--report-html=ckpt.html' ]);
	is($rc, 0, 'a run with checkpoints on a page: exit status 0') or diag($err);
	$dom = render($chromium, 'ckpt.html');
	like(page_status($dom), qr/^ok /, '... drawn');
	for my $chart ('tps-1', 'p99-1')
	{
		my $at = chart_attrs($dom, $chart);
		is($at->{'data-checkpoints'}, $nck + $na1, "... $chart: given the runs' checkpoints");
		is($at->{'data-marks'}, $nck + $na1, "... $chart: each marked");
	}
	like($dom, qr{<p class="note">marked over time, in each run's colour: its checkpoints \(\Q$nck\E in new 1 ckpt\.json},
		'... and a note says so');

	# a diagnosis made by hand, with hostile texts, put into the first page
	my ($head, $json, $tail) = $html =~ m{\A(.*<script type="application/json" id="compare-data">\n)(.*?)(</script>.*)\z}s
	  or die 'no data in cmp.html';
	my $data = decode_json($json);
	my $bad = '<img src=x onerror="document.title=1">&amp;</script><!--';
	my ($t, $f) = (JSON::PP::true, JSON::PP::false);
	my %e = (source => 'counter', unit => 'count', available_base => $t, available_new => $t, verdict => 'worse',
		reason_code => undef, low_relative => undef, high_relative => undef, noise => 5, latency_share => undef);
	$data->{comparison}{comparisons}[0]{diagnosis} = {
		differences => [ { kind => 'setting', what => "shared_buffers$bad", base => '128MB', new => '1GB',
				base_value => 134217728, new_value => 1073741824 } ],
		differences_more => 2,
		warnings => [ { code => 'different_scripts', text => "the runs ran different scripts $bad" } ],
		evidence => [
			{ %e, name => "IO:DataFileRead$bad", source => 'wait', unit => 'ms', base => 0.25, new => 1,
				change_relative => 300, low_relative => 200, high_relative => 400, latency_share => 62.5, rank => 1 },
			{ %e, name => 'database.blks_read', base => 0.1, new => 2, change_relative => 1900, rank => 2 },
			{ %e, name => 'database.xact_commit', base => 1, new => 1, change_relative => 0, verdict => 'no significant difference', rank => 0 },
			{ %e, name => "wal.wal_bytes$bad", base => 100, new => undef, available_new => $f, verdict => undef,
				change_relative => undef, rank => 0 } ],
		breakdown => { available_base => $t, available_new => $t, latency_base_ms => 1.5, latency_new_ms => 2.5, parts => [
			{ name => 'server CPU', base_ms => 0.5, new_ms => 0.5, change_ms => 0, low_ms => -0.1, high_ms => 0.1,
				verdict => 'no significant difference' },
			{ name => "IO:DataFileRead$bad", base_ms => 0.25, new_ms => 1, change_ms => 0.75, low_ms => 0.5, high_ms => 1,
				verdict => 'worse' },
			{ name => 'outside the server (network and client)', base_ms => 0.75, new_ms => 1, change_ms => 0.25,
				low_ms => undef, high_ms => undef, verdict => 'cannot tell' } ] },
		host => {
			base => { available => $t, server_available => $t, cpus => 4, client_pct => 12.5, server_pct => 25,
				rest_pct => 2.5, idle_pct => 60, busiest_thread_cpu_pct => 40 },
			new => { available => $f, server_available => $f, cpus => undef, client_pct => undef, server_pct => undef,
				rest_pct => undef, idle_pct => undef, busiest_thread_cpu_pct => undef } },
		rule => undef,
		sentence => "new is slower: it reads from disk $bad",
	};
	# and checkpoints (one with an unknown start), and partial last intervals: base's
	# 70% of an interval (dashed), new's 10% (left out)
	my ($rb, $rn) = @{ $data->{runs} };
	$rb->{checkpoints} = [ [ undef, 2 ], [ 1, 3 ] ];
	$rn->{checkpoints} = [ [ -1, 1 ] ];
	$rb->{points}[-1][4] = 0.7 * $rb->{interval_s};
	$rn->{points}[-1][4] = 0.1 * $rn->{interval_s};
	$json = JSON::PP->new->ascii->canonical->encode($data);
	$json =~ s/([<>&])/sprintf('\\u%04x', ord $1)/ge;
	write_file('why.html', $head . $json . "\n" . $tail);
	$dom = render($chromium, 'why.html');
	like(page_status($dom), qr/^ok tps-1:\d+ p99-1:\d+ cdf-1:\d+$/, 'a hand-made diagnosis: the page drawn');
	my $badtext = html_text($bad);
	like($dom, qr{<p class="sentence">new is slower: it reads from disk \Q$badtext\E</p>}, '... its sentence, as text');
	unlike($dom, qr{<img}i, '... no markup from the data');
	like($dom, qr{<li data-code="different_scripts">the runs ran different scripts \Q$badtext\E</li>}, '... the warning');
	like($dom, qr{<table class="differences">.*<td class="text">shared_buffers\Q$badtext\E</td><td class="word">setting</td><td class="text">128MB</td><td class="text">1GB</td>}s,
		'... the differences');
	like($dom, qr{<p class="note">and 2 more differences, not listed</p>}, '... and how many more');
	my ($ev) = $dom =~ m{<table class="evidence">(.*?)</table>}s;
	my @evrows = ($ev // '') =~ m{<tr>}g;
	is(scalar @evrows, 3, '... the ranked evidence: a header and two rows');
	like($ev // '', qr{<td>1</td><td class="text">IO:DataFileRead\Q$badtext\E</td><td class="word">wait</td><td>0\.250 ms → 1\.000 ms</td><td>\+300\.0%</td><td>\[\+200\.0%, \+400\.0%\]</td><td>\+62\.5%</td><td class="text">worse</td>},
		'... base → new, the change, its interval and the latency share');
	like($dom, qr{<p class="note not-available" data-side="new">not available on new \(not ranked\): wal\.wal_bytes\Q$badtext\E</p>},
		'... what new lacks, listed as such');
	like($dom, qr{<p class="note">1 more evidence on both sides, not ranked: }, '... and the rest counted');
	is(bar_parts($dom, 'breakdown', 'base'), 3, '... the latency taken apart: a bar for base, a segment per part');
	is(bar_parts($dom, 'breakdown', 'new'), 3, '... and one for new');
	like($dom, qr{<table class="breakdown-legend">.*IO:DataFileRead\Q$badtext\E</td><td>0\.250</td><td>1\.000</td><td>\+0\.750 ms</td><td>\[\+0\.500 ms, \+1\.000 ms\]</td>}s,
		'... its legend with the parts\' ms');
	is(bar_parts($dom, 'host', 'base'), 4, '... the host\'s CPU split: base\'s bar');
	is(bar_parts($dom, 'host', 'new'), 0, '... new\'s host not read: no bar');
	like($dom, qr{<g class="bar" data-side="new"><text[^>]*>new</text><text[^>]*>not available</text></g>}, '... but "not available"');
	for my $chart ('tps-1', 'p99-1')
	{
		my $at = chart_attrs($dom, $chart);
		is($at->{'data-checkpoints'}, 3, "... $chart: given three checkpoints");
		is($at->{'data-marks'}, 3, "... $chart: each marked");
	}
	like($dom, qr{<p class="note">base a1\.json ended [0-9.]+ ms into its last interval: its segment is dashed</p>},
		'... a last interval of 70%: dashed');
	like($dom, qr{<p class="note">new 1 \S+ ended [0-9.]+ ms into its last interval: that interval is left out of the charts</p>},
		'... of 10%: left out');
}

# ---- pooled sides, several comparisons -------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json,a2.json', 'slow.json', 'a2.json' ]);
is($rc, 0, 'a1+a2 against slow and a2: exit status 0') or diag($err);
like($out, qr/^base: a1\.json \(\d+ intervals\), a2\.json \(\d+ intervals\)$/m,
	'the base pools two runs');
my @tables = split /\n\n/, $out;
is(scalar @tables, 2, 'two comparisons, a blank line between');
# the run is the unit of repeated runs: one run against two has no
# run-to-run spread on one side
like(table($tables[0])->{'latency average'}[4], qr/^cannot tell: repeated runs on one side only \(base 2, new 1\)/,
	'the first: repeated runs on one side only cannot be told');
like($tables[1], qr/^new: a2\.json /m, 'the second: a2');

# ---- runs as data: labels, script hashes, the list ------------------------------------

my ($d1, $d2, $ds) = map { decode_json(slurp("$_.json")) } qw(a1 a2 slow);
is_deeply($d1->{labels}, { env => 'ci', n => '1' }, 'a1.json: its labels');
like(slurp('a1.json'), qr/"labels": \{\n +"n": "1",\n +"env": "ci"\n +\}/, '... in the order given');
like($d1->{scripts}[0]{sha256}, qr/^[0-9a-f]{64}$/, 'a script\'s SHA-256');
is($d2->{scripts}[0]{sha256}, $d1->{scripts}[0]{sha256}, '... the same for the same script');
isnt($ds->{scripts}[0]{sha256}, $d1->{scripts}[0]{sha256}, '... another for another');
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'a2.json' ]);
like($out, qr/^what differs \(base \| new\):\n  label n: 1 \| 2$/m, 'a label that differs is listed');
is(warnings_of($err), '', '... and the same script is not warned about');

system('cp', "$_.json", "runs/$_.json") == 0 or die "cp: $!" for qw(slow a2 a1);
write_file('runs/other.json', '{"a": 1}');
write_file('runs/notes.txt', 'not json');
($rc, $out, $err) = pgbench([ '--list-reports', 'runs' ]);
is($rc, 0, '--list-reports: exit status 0') or diag($err);
is($err, "pgbench: warning: runs/other.json: not a report of pgbench\n", '... a warning for what is not a report');
my @lines = split /\n/, $out;
is(scalar @lines, 4, '... a header and a line per report') or diag($out);
like($lines[0], qr/^start +outcome +tps +p99 \(ms\) +labels +file$/, '... the header');
my $row = qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z +completed +[0-9.]+ +[0-9.]+ +/;
like($lines[1], qr/${row}n=1,env=ci +runs\/a1\.json$/, '... a1 first (by start time), with its labels');
like($lines[2], qr/${row}n=2,env=ci +runs\/a2\.json$/, '... then a2');
like($lines[3], qr/${row}env=ci +runs\/slow\.json$/, '... then the slowed run');
like($lines[1], qr/ \Q${\ sprintf('%.1f', $d1->{tps})}\E +\Q${\ sprintf('%.3f', $d1->{latency_ms}{percentiles}{p99})}\E /,
	'... its tps and p99 as the report gives them');
($rc, $out, $err) = pgbench([ '--list-reports', 'nowhere' ]);
is($rc, 1, '--list-reports of a missing directory: exit status 1');
is($err, "pgbench: error: could not read \"nowhere\": No such file or directory\n", '... the message');

# ---- bad labels ---------------------------------------------------------------------

for my $bad ([ ['--label=a b=1'], 'pgbench: error: invalid label: "a b=1"' ],
	[ ['--label=novalue'], 'pgbench: error: invalid label: "novalue"' ],
	[ [ '--label=k=1', '--label=k=2' ], 'pgbench: error: label "k" given twice' ])
{
	my ($args, $message) = @$bad;
	($rc, $out, $err) = pgbench([ @$args, '-T', '1' ], env => \%env);
	is($rc, 1, "@$args: exit status 1");
	like($err, qr/^\Q$message\E\n/, "@$args: the message");
}

# ---- refusals --------------------------------------------------------------------

sub refused
{
	my ($what, $args, $message) = @_;
	my ($r, $o, $e) = pgbench([ '--compare', @$args ]);
	is($r, 1, "$what: exit status 1");
	is($e, $message, "$what: the message");
	is($o, '', "$what: nothing printed");
}
refused('one side', ['a1.json'],
	"pgbench: error: --compare needs two reports or more (BASE NEW...)\npgbench: hint: Try \"pgbench --help\" for more information.\n");
refused('a missing report', [ 'a1.json', 'nope.json' ],
	"pgbench: error: could not open report file \"nope.json\": No such file or directory\n");
my $bad = decode_json(slurp('a2.json'));
$bad->{transactions}{skipped} = -1;
write_file('bad.json', encode_json($bad));
refused('a damaged report', [ 'a1.json', 'a1.json,bad.json' ],
	"pgbench: error: bad.json: transactions.skipped: -1 is negative\n");
# points that contradict the totals: each point's own counts agree (the
# merge reader checks them), but not the sum of its latencies
my $liar = decode_json(slurp('a2.json'));
$liar->{series}{points}[1]{histogram}{latency_sum_us} = 1e308;
write_file('liar.json', encode_json($liar));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'liar.json' ]);
is($rc, 1, 'points that contradict the totals: exit status 1');
like($err, qr/^pgbench: error: liar\.json: its series' points sum the latencies to 1e\+308 us, its totals to [0-9.e+]+: the report contradicts itself\n\z/,
	'... the message');
is($out, '', '... nothing printed');
$liar = decode_json(slurp('a2.json'));
$_->{processed} *= 2, $_->{histogram}{buckets} = [ map { [ $_->[0], 2 * $_->[1] ] } @{ $_->{histogram}{buckets} } ]
  for grep { defined $_->{histogram} } @{ $liar->{series}{points} };
write_file('liar.json', encode_json($liar));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'liar.json' ]);
is($rc, 1, 'points that count twice the totals\' transactions: exit status 1');
like($err, qr/^pgbench: error: liar\.json: its series' points count \d+ transactions \(0 failed\), its totals \d+ \(0 failed\): the report contradicts itself\n\z/,
	'... the message');

# a merged report (of two instances) against a single run: refused, or
# per instance when asked
($rc, $out, $err) = pgbench([ '--merge-reports', 'a1.json', 'a2.json', '--report-json=fleet.json' ]);
is($rc, 0, 'a merged report of a1 and a2') or diag($err);
($rc, $out, $err) = pgbench([ '--compare', 'fleet.json', 'a1.json' ]);
is($rc, 1, 'a merged report against a single run: exit status 1');
is($err, "pgbench: error: fleet.json merges the reports of 2 instances and a1.json of 1: their tps measure fleets of different sizes\n"
	. "pgbench: hint: --compare-per-instance compares their tps per instance.\n", '... the message');
($rc, $out, $err) = pgbench([ '--compare', '--compare-per-instance', 'fleet.json', 'a1.json' ]);
is($rc, 0, '... with --compare-per-instance: compared') or diag($err);
like($out, qr/^base: fleet\.json \(\d+ intervals; tps per instance, of 2\)$/m, '... and it says so');
my $fleet = decode_json(slurp('fleet.json'));
like($out, qr/^tps +\Q${\ sprintf('%.1f', $fleet->{tps} \/ 2)}\E /m, '... the merged tps halved');

refused('with --merge-reports', [ '--merge-reports', 'a1.json', 'a2.json' ],
	"pgbench: error: --compare cannot be used with --merge-reports or --merge-partial\npgbench: hint: Try \"pgbench --help\" for more information.\n");

# a client-bound run: warned about (its tps measures the client), from the
# worker threads' own CPU; client.bound alone (a thread runnable, waiting
# for a CPU on a saturated host) is not
my $bound = decode_json(slurp('a2.json'));
$bound->{client}{bound} = JSON::PP::true;
write_file('runnable.json', encode_json($bound));
$_->{client}{busiest_thread_cpu_pct} = 97 for grep { $_->{client} } @{ $bound->{series}{points} };
write_file('bound.json', encode_json($bound));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'bound.json' ]);
is($rc, 0, 'a client-bound run: compared');
like($err, qr/^pgbench: warning: bound\.json was client-bound: a worker thread used 97% of a CPU \(median interval\)$/m,
	'... with a warning');
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'runnable.json' ]);
is($rc, 0, 'a run whose threads were runnable (client.bound) but used no full CPU: compared');
unlike($err, qr/runnable\.json was client-bound/, '... and not called client-bound');

# ---- evidence one side lacks is unknown, not 0 ------------------------------------------

# as a server without pg_stat_wal (before 14), and a host not read
my $lacks = decode_json(slurp('a2.json'));
delete $lacks->{server_stats}{totals}{wal};
for my $p (@{ $lacks->{series}{points} })
{
	$p->{host} = undef;
	delete $p->{server}{counters}{wal} if $p->{server} && $p->{server}{counters};
}
write_file('lacks.json', encode_json($lacks));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'lacks.json' ]);
is($rc, 0, 'a report without WAL counters and host figures: compared') or diag($err);
my ($lacking) = $out =~ /^not available on new \(not ranked\): (.*)$/m;
ok(defined $lacking && $lacking =~ /^host CPU besides pgbench and the server, host disk read, host disk written, wal\.wal_records, wal\.wal_fpi, wal\.wal_bytes and 1 more$/,
	'... what it lacks: not available, not ranked') or diag($out);
unlike(join('', $out =~ /^  \d+\. .*$/mg), qr/wal\.|host disk|host CPU/, '... and none of it ranked');
unlike($out, qr/^  (?:wal\.|host )/m, '... and never among what changed most');

# ---- texts from a report are masked -------------------------------------------------

my $odd = decode_json(slurp('a2.json'));
$odd->{server}{settings}{work_mem}{value} = "4MB\n\e[2Jfake line";
write_file('odd.json', encode_json($odd));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'odd.json' ]);
is($rc, 0, 'a server setting with control characters: compared') or diag($err);
like($out, qr/^  server setting work_mem: \S+ \| 4MB\?\?\[2Jfake line$/m, '... printed masked, on one line');

done_testing();
