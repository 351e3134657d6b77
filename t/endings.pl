# endings.pl — every ending of a run told the same way in the text report,
# the JSON document and the HTML page (issue 21): SIGINT mid-run (the
# report's "run interrupted by SIGINT after N s (of T s)" line and the
# measured duration, the JSON's outcome, the page's banner), a failed
# start (a full JSON document with the error and the masked command line,
# and a page with its banner), a closed stdout (`| head -1`: the report
# files complete), --percentiles as a separate argument, --merge-reports
# of a schema 2 document, and the HTML charts' partial last interval
# (merged or dashed, never a cliff) in headless Chromium when installed.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use JSON::PP;
use PgbTest;
use Test::More;
use List::Util qw(sum0);

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbend_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
my $one = write_file("$dir/one.sql", "select 1;\n");

my $chromium = find_chromium();
my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);

# The page drawn in Chromium: (#status, the banner's class and text, the DOM).
sub render
{
	my ($file) = @_;
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,3200', '--dump-dom', "file://$dir/$file" ], timeout => 180);
	is($brc, 0, "$file: chromium --dump-dom: exit code 0") or diag($berr);
	my ($status) = $dom =~ m{<pre id="status">([^<]*)</pre>};
	my ($class, $banner) = $dom =~ m{<div class="banner ([^"]*)" id="outcome">([^<]*)</div>};
	return ($status // '', $class // '', $banner // '', $dom);
}

# The embedded document of a page, and the page with another document.
sub page_doc
{
	my ($html) = @_;
	my ($data) = $html =~ m{<script type="application/json" id="report-data">\n(.*?)</script>}s;
	return decode_json($data // '{}');
}

sub with_doc
{
	my ($html, $doc) = @_;
	my $json = JSON::PP->new->canonical->encode($doc);
	$json =~ s/([<>&])/sprintf('\\u%04x', ord($1))/ge;
	$html =~ s{(<script type="application/json" id="report-data">\n).*?(</script>)}{$1$json\n$2}s;
	return $html;
}

# ---- SIGINT mid-run -------------------------------------------------------------

{
	my ($o, $e) = ('', '');
	my $h = do {
		local %ENV = (%ENV, %env);
		IPC::Run::start([ our_pgbench_path(), '-n', '-f', $one, '-c', '2', '-T', '60', '-P', '1',
				'--report-json=int.json', '--report-html=int.html' ],
			'<', \undef, '>', \$o, '2>', \$e, IPC::Run::timeout(300));
	};
	# two lines, whatever their times (a busy machine may print 2.1 s, or skip one)
	my $going = poll_until(sub { $h->pump_nb; (() = $e =~ /^progress: /mg) >= 2 }, 120);
	ok($going, 'SIGINT: the run is under way (two progress lines)');
	$h->signal('INT');
	$h->finish;
	is($? >> 8, 130, 'SIGINT: exit code 130');
	my ($after) = $e =~ /^pgbench: run was interrupted by signal SIGINT after (\d+\.\d{3}) s$/m;
	ok(defined $after, 'SIGINT: the line on stderr');
	$after //= 'none';
	like($o, qr/^run interrupted by SIGINT after \Q$after\E s \(of 60 s\)\ntransaction type: /m,
		'SIGINT: the report opens with the interrupted line');
	like($o, qr/^duration: \Q$after\E s$/m, 'SIGINT: the measured duration, not the requested 60 s');
	unlike($o, qr/^duration: 60 s$/m, 'SIGINT: no requested duration');
	like($o, qr/^tps = [\d.]+ \(without initial connection time\)\n\z/m, 'SIGINT: the report ends as pgbench\'s');
	my $doc = eval { decode_json(slurp('int.json')) };
	ok($doc, 'SIGINT: the JSON parses') or diag($@);
	is($doc->{outcome}, 'interrupted', 'SIGINT: JSON outcome interrupted');
	is($doc->{signal}, 'SIGINT', 'SIGINT: JSON signal');
	is($doc->{error}, undef, 'SIGINT: JSON error null');
	is(sprintf('%.3f', $doc->{duration_s}), $after, 'SIGINT: JSON duration_s is the measured one');
	is_deeply([ report_schema_errors($doc) ], [], 'SIGINT: the JSON conforms to the schema');
	my $page = slurp('int.html');
	is(page_doc($page)->{outcome}, 'interrupted', 'SIGINT: the page embeds outcome interrupted');
  SKIP:
	{
		skip 'Chromium is not installed', 3 unless $chromium;
		my ($status, $class, $banner) = render('int.html');
		like($status, qr/^ok /, 'SIGINT page: drawn with no script error');
		is($class, 'interrupted', 'SIGINT page: the banner is an interrupted one');
		is($banner, "Run interrupted by SIGINT after $after s (of 60 s): the figures count what ran until then",
			'SIGINT page: the banner text');
	}
}

# ---- failed start --------------------------------------------------------------

{
	write_file('fail.json', "stale\n");
	write_file('fail.html', "stale\n");
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '1', 'dbname=no_such_db password=hunter2',
			'--report-json=fail.json', '--report-html=fail.html' ], env => \%env);
	is($rc, 1, 'failed start: exit code 1');
	my ($first) = $err =~ /^pgbench: error: (.*)$/m;
	like($first, qr/database "no_such_db" does not exist/, 'failed start: the error on stderr');
	my $doc = eval { decode_json(slurp('fail.json')) };
	ok($doc, 'failed start: the JSON parses') or diag($@);
	is($doc->{outcome}, 'failed-to-start', 'failed start: outcome');
	is($doc->{error}, $first, 'failed start: error is the first error printed');
	is_deeply($doc->{command_line}, [ our_pgbench_path(), '-n', '-f', $one, '-t', '1',
			'password=******** dbname=no_such_db', '--report-json=fail.json', '--report-html=fail.html' ],
		'failed start: the command line, its password masked');
	like($doc->{start_time}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'failed start: start_time');
	like($doc->{end_time}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'failed start: end_time');
	ok($doc->{end_epoch_s} >= $doc->{start_epoch_s}, 'failed start: end after start');
	is_deeply([ report_schema_errors($doc, unstarted => 1) ], [],
		'failed start: the JSON conforms to $defs/unstarted');
	my $page = slurp('fail.html');
	ok(length($page) > 10000 && $page =~ m{</html>\n\z}, 'failed start: a whole page, not 0 bytes');
	unlike($page . slurp('fail.json'), qr/hunter2/, 'failed start: no password in either file');
	is_deeply(page_doc($page), $doc, 'failed start: the page embeds the document');
  SKIP:
	{
		skip 'Chromium is not installed', 3 unless $chromium;
		my ($status, $class, $banner) = render('fail.html');
		like($status, qr/^ok /, 'failed start page: drawn with no script error');
		is($class, 'failed-to-start', 'failed start page: the banner class');
		is($banner, "Run failed to start: $first", 'failed start page: the banner names the error');
	}
}

# ---- a closed stdout -----------------------------------------------------------

{
	my $cmd = join(' ', map { "'$_'" } our_pgbench_path(), '-n', '-f', $one, '-c', '2', '-t', '200', '-r',
		'--report-json=pipe.json', '--report-html=pipe.html');
	($rc, $out, $err) = run_cmd([ 'bash', '-c', "$cmd | head -1; echo \"rc=\${PIPESTATUS[0]}\" >&2" ],
		env => \%env);
	like($out, qr/\Apgbench \([^\n]*\)\n\z/, '| head -1: the banner line only');
	like($err, qr/^rc=0$/m, '| head -1: pgbench still exits 0 (a closed stdout ends the text only)');
	my $doc = eval { decode_json(slurp('pipe.json')) };
	ok($doc, '| head -1: the JSON is complete and parses') or diag($@);
	is($doc->{outcome}, 'completed', '| head -1: outcome completed');
	is($doc->{transactions}{processed}, 400, '| head -1: its counts');
	like(slurp('pipe.html'), qr{</html>\n\z}, '| head -1: the page is complete');
}

# ---- --percentiles as a separate argument --------------------------------------------

{
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '--percentiles', '99,99.9' ], env => \%env);
	is($rc, 0, '--percentiles 99,99.9: exit code 0') or diag($err);
	like($out, qr/^latency p99 = [\d.]+ ms\nlatency p99\.9 = [\d.]+ ms$/m, '--percentiles 99,99.9: the lines');
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '--percentiles', '95', 'postgres' ], env => \%env);
	is($rc, 0, '--percentiles 95 DBNAME: exit code 0') or diag($err);
	like($out, qr/^latency p95 = [\d.]+ ms$/m, '--percentiles 95 DBNAME: the line');
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '--percentiles', 'postgres' ], env => \%env);
	is($rc, 0, '--percentiles DBNAME: the default list') or diag($err);
	like($out, qr/^latency p50 = [\d.]+ ms$/m, '--percentiles DBNAME: p50');
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '--percentiles', '150' ], env => \%env);
	is($rc, 1, '--percentiles 150: exit code 1');
	like($err, qr/^pgbench: error: invalid percentile list: "150"$/m, '--percentiles 150: the message');
}

# ---- --merge-reports reads schemas 2 and 3 ---------------------------------------

# A point of schema 4 as schemas 2 and 3 wrote it: its coarse buckets
# (3 sub-bucket bits) as the fine ones (7) of their lowest values, the
# lag maximum, and none of the members 4 added.
sub old_point {
	my ($p) = @_;
	my %o = %$p;
	delete @o{qw(retried client)};
	delete @{ $o{latency_ms} = { %{ $p->{latency_ms} } } }{qw(stddev min)};
	$o{lag_ms} = { %{ $p->{lag_ms} }, max => 0 } if $p->{lag_ms};
	return \%o unless $p->{histogram};
	my %h = %{ $p->{histogram} };
	delete $h{latency_sum_squares_us};
	$h{lag_max_us} = 0;
	my @lowest;
	$h{buckets} = [ map {
			my ($i, $n) = @$_;
			my $shift = $i < 16 ? 0 : ($i >> 3) - 1;
			my $v = ($i - ($shift << 3)) << $shift;
			my $mag = 0;
			$mag++ while (1 << ($mag + 1)) <= $v;
			my $fs = $v < 256 ? 0 : $mag - 7;
			push @lowest, $v;
			[ ($fs << 7) + ($v >> $fs), $n ];
		} @{ $h{buckets} } ];
	# the extremes in their fine buckets, as an old writer's were
	@h{qw(min_us max_us)} = ($lowest[0], $lowest[-1]);
	$o{histogram} = \%h;
	return \%o;
}

{
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '20', '--report-json=m3.json' ], env => \%env);
	is($rc, 0, 'a report to merge') or diag($err);
	my $doc = decode_json(slurp('m3.json'));
	is($doc->{schema_version}, 5, 'schema_version 5');
	ok(exists $doc->{text_latency_average_ms} && !exists $doc->{latency_average_ms},
		'text_latency_average_ms, no latency_average_ms');
	is($doc->{text_latency_average_derived}, JSON::PP::true, 'derived without -R, -P, -L');
	my %v3 = %$doc;
	$v3{schema_version} = 3;
	$v3{series} = { %{ $doc->{series} } };
	delete $v3{series}{sub_bucket_bits};
	$v3{series}{points} = [ map { old_point($_) } @{ $doc->{series}{points} } ];
	write_file('m3.json', encode_json(\%v3));
	my %v2 = %v3;
	$v2{schema_version} = 2;
	$v2{latency_average_ms} = delete $v2{text_latency_average_ms};
	# (and no run id, as reports of schema 2 came without one)
	delete @v2{qw(text_latency_average_derived error run_id inputs reconnect)};
	# nor the connection_failures counters --reconnect added (anywhere)
	my $drop;
	$drop = sub {
		my ($x) = @_;
		if (ref $x eq 'HASH') { delete $x->{connection_failures}; $drop->($_) for values %$x }
		elsif (ref $x eq 'ARRAY') { $drop->($_) for @$x }
	};
	$drop->(\%v2);
	unlike(encode_json(\%v2), qr/connection_failures/, 'the older report has no connection_failures');
	write_file('m2.json', encode_json(\%v2));
	($rc, $out, $err) = pgbench([ '--merge-reports', 'm3.json', 'm2.json', '--report-json=merged.json' ], env => \%env);
	is($rc, 0, '--merge-reports of a schema 3 and a schema 2 report') or diag($err);
	my $merged = decode_json(slurp('merged.json'));
	is($merged->{transactions}{processed}, 40, 'the merged counts');
	is(sum0(map { $_->{processed} } @{ $merged->{series}{points} }), 40, 'the merged series: every transaction');
	is(sum0(map { scalar @{ $_->{histogram} ? $_->{histogram}{buckets} : [] } } @{ $merged->{series}{points} }),
		sum0(map { scalar @{ $_->{histogram} ? $_->{histogram}{buckets} : [] } } @{ $doc->{series}{points} }),
		'the fine buckets of schema 3 fall back into the coarse ones of the report');
}

# ---- the charts' last interval --------------------------------------------------

SKIP:
{
	skip 'Chromium is not installed', 12 unless $chromium;
	($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-c', '2', '-T', '3', '-P', '1',
			'--report-html=last.html' ], env => \%env);
	is($rc, 0, 'a -T 3 -P 1 run for the charts') or diag($err);
	my $page = slurp('last.html');
	my $doc = page_doc($page);
	my @p = @{ $doc->{series}{points} };
	ok(@p >= 3, 'its series has points (' . scalar(@p) . ')');

	# a last interval of 0.05 s: counted into the one before it
	my $short = JSON::PP->new->decode(JSON::PP->new->encode($doc));
	my @s = @{ $short->{series}{points} };
	$s[-1]{interval_s} = 0.05;
	$s[-1]{t_s} = $s[-2]{t_s} + 0.05;
	$s[-1]{tps} = $s[-1]{processed} / 0.05;
	write_file('short.html', with_doc($page, $short));
	my ($status, undef, undef, $dom) = render('short.html');
	my %drawn = $status =~ /(\w+):(\d+)/g;
	like($status, qr/ last:merged$/, 'a 0.05 s last interval: merged');
	is($drawn{tps}, @s - 1, 'merged: one point less');
	my ($last) = $dom =~ /id="chart-tps" data-last="([^"]*)"/;
	my $want = ($s[-2]{processed} + $s[-1]{processed}) / ($s[-2]{interval_s} + 0.05);
	ok(abs(($last // 0) - $want) <= 1e-6 * $want, "merged: the last tps is the two intervals' ($last ~ $want)");
	like($dom, qr/<p class="note">the run ended 50\.0 ms into its last interval: that part is counted into the interval before it<\/p>/,
		'merged: the note');

	# a last interval of 0.7 s: kept, dashed, its counts scaled
	my $long = JSON::PP->new->decode(JSON::PP->new->encode($doc));
	my @l = @{ $long->{series}{points} };
	$l[-1]{interval_s} = 0.7;
	$l[-1]{failures} = 7;
	write_file('long.html', with_doc($page, $long));
	($status, undef, undef, $dom) = render('long.html');
	%drawn = $status =~ /(\w+):(\d+)/g;
	like($status, qr/ last:partial$/, 'a 0.7 s last interval: partial');
	is($drawn{tps}, scalar @l, 'partial: every point drawn');
	($last) = $dom =~ /id="chart-failures" data-last="([^"]*)"/;
	ok(abs(($last // 0) - 10) < 1e-9, "partial: its failures scaled to a full interval (7 in 0.7 s: $last)");
	like($dom, qr/the run ended 700\.0 ms into its last interval: its segment is dashed/, 'partial: the note');

	# the run as it ended
	($status) = render('last.html');
	like($status, qr/ last:(?:merged|partial|full)$/, "the real run: $status");
}

done_testing();
