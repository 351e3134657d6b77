# report_html.pl — --report-html in a real browser: a -c 8 -j 2 -T -P 1
# -R 2000 -r run's page is self-contained (no URL it would load), and
# headless Chromium renders it with no script error and every chart drawn
# with the number of points the JSON document implies (the page lists
# them in its #status element); a screenshot is kept as an artifact
# (meson-logs/report_html.png next to the binary).  Skipped, with a
# message, only where Chromium is missing and cannot be installed.
use strict;
use warnings;

use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

sub find_chromium
{
	for my $name (qw(chromium chromium-browser google-chrome))
	{
		for my $d (split /:/, $ENV{PATH})
		{
			return "$d/$name" if -x "$d/$name";
		}
	}
	return undef;
}

my $chromium = find_chromium();
if (!$chromium && $> == 0 && -x '/usr/bin/apt-get')
{
	diag('installing chromium with apt-get');
	system('apt-get install -y -q chromium >/dev/null 2>&1');
	$chromium = find_chromium();
}
plan skip_all => 'Chromium is not installed and could not be installed' unless $chromium;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbhtml_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
($rc, $out, $err) = pgbench([ '-c', '8', '-j', '2', '-T', '6', '-P', '1', '-R', '2000', '-r',
		'--report-json=r.json', '--report-html=r.html' ], env => \%env);
is($rc, 0, 'run: exit code 0') or diag($err);
my $doc = decode_json(slurp('r.json'));
my $html = slurp('r.html');

# self-contained: the JSON is in the page, nothing is fetched
ok($html =~ m{<script type="application/json" id="report-data">\n(.*?)</script>}s, 'the page embeds the document');
is_deeply(decode_json($1), $doc, 'the embedded document is the --report-json document');
ok($html !~ /<(?:script|img|iframe)[^>]*\ssrc=|<link[^>]*\shref=|\@import|url\(\s*['"]?https?:/i,
	'no external script, style sheet or image');
like($html, qr/uPlot \(v1\.6\.32\)/, 'the vendored uPlot is in the page');
like($html, qr/The MIT License/, 'with its licence');

# the browser
my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my @browser = ($chromium, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
	"--user-data-dir=$profile", '--virtual-time-budget=10000', '--window-size=1100,3200');
my ($brc, $dom, $berr) = run_cmd([ @browser, '--dump-dom', "file://$dir/r.html" ], timeout => 180);
is($brc, 0, 'chromium --dump-dom: exit code 0') or diag($berr);
my ($status) = $dom =~ m{<pre id="status">([^<]*)</pre>};
$status //= '(no status element)';
note("page status: $status");
like($status, qr/^ok /, 'the page reports no script error');
unlike($berr, qr/Uncaught|SyntaxError|TypeError|ReferenceError/, 'no console error from the page');

my %drawn = $status =~ /(\w+):(\d+)/g;
my $npoints = scalar @{ $doc->{series}{points} };
my @buckets = @{ $doc->{latency_histogram}{buckets} };
for my $chart (qw(tps latency failures lag))
{
	is($drawn{$chart}, $npoints, "chart $chart: one point per interval ($npoints)");
}
is($drawn{cdf}, scalar @buckets, 'chart cdf: one point per non-empty bucket (' . scalar(@buckets) . ')');
ok(($drawn{histogram} // 0) > 0 && $drawn{histogram} <= @buckets, "chart histogram: $drawn{histogram} bins");
like($dom, qr/<h3>Commands of script 1/, 'the per-command table (-r)');
like($dom, qr/<table class="scripts">/, 'the per-script table');
my $nchart = () = $dom =~ /<canvas/g;
is($nchart, 6, 'six canvases drawn');

# the screenshot, kept next to the test logs
my $logs = dirname($ENV{PGBENCH} // '.') . '/meson-logs';
mkdir $logs unless -d $logs;
my $shot = "$logs/report_html.png";
unlink $shot;
($brc, undef, $berr) = run_cmd([ @browser, "--screenshot=$shot", "file://$dir/r.html" ], timeout => 180);
ok(-s $shot, 'the screenshot is written') or diag($berr);
my $png = -s $shot ? slurp($shot) : '';
is(substr($png, 1, 3), 'PNG', 'the screenshot is a PNG');
diag(sprintf('screenshot: %s (%d bytes)', $shot, -s $shot // 0));

done_testing();
