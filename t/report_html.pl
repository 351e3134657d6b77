# report_html.pl — --report-html in a real browser: a -c 8 -j 2 -T -P 1
# -R 2000 -r run's page is self-contained (no URL it would load), and
# headless Chromium renders it with no script error and every chart drawn
# with the number of points the JSON document implies (the page lists
# them in its #status element); a screenshot is kept as an artifact
# (meson-logs/report_html.png next to the binary).  Then pages built from
# hostile text: scripts named `</script>`, `<!--<script>`, with quotes and
# `&`, and with invalid UTF-8 bytes, whose -r SQL holds the same (in a
# SQL_ASCII database, which takes any byte), a run aborted by a server
# message that echoes them, and --merge-reports of such a report: each
# page finishes drawing with no console error and shows the names as
# they are (U+FFFD for each ill-formed byte sequence).  Skipped, with a
# message, only where Chromium is missing and cannot be installed.
use strict;
use warnings;

use Encode ();
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;


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
# (--enable-logging: the page's console messages on stderr, as
# "...:CONSOLE:LINE] "message", source: URL (LINE)")
my @browser = ($chromium, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
	"--user-data-dir=$profile", '--virtual-time-budget=10000', '--window-size=1100,3200',
	'--enable-logging=stderr', '--v=0');

# render($file, $what) -> ($status, $dom): the page drawn in Chromium,
# with tests that it exited well, finished drawing ("ok ..." in #status,
# no "loading" left) and printed nothing on the console
sub render
{
	my ($file, $what) = @_;
	my ($brc, $dom, $berr) = run_cmd([ @browser, '--dump-dom', "file://$dir/$file" ], timeout => 180);
	is($brc, 0, "$what: chromium --dump-dom: exit code 0") or diag($berr);
	my ($status) = $dom =~ m{<pre id="status">([^<]*)</pre>};
	$status //= '(no status element)';
	note("$what: page status: $status");
	like($status, qr/^ok /, "$what: the page finished drawing with no script error");
	my @console = grep { /:CONSOLE\b/ } split /\n/, $berr;
	is(scalar(@console), 0, "$what: no console message from the page") or diag(join("\n", @console));
	unlike($berr, qr/Uncaught|SyntaxError|TypeError|ReferenceError/, "$what: no script error on stderr");
	return ($status, $dom);
}

my ($status, $dom) = render('r.html', 'the run');

my %drawn = $status =~ /(\w+):(\d+)/g;
my $npoints = scalar @{ $doc->{series}{points} };
my @buckets = @{ $doc->{latency_histogram}{buckets} };
# a last interval shorter than half a one is drawn counted into the one
# before it (t/endings.pl checks both ways of drawing a partial one)
my ($last) = $status =~ / last:(\w+)$/;
is($last, $doc->{series}{points}[-1]{interval_s} < 0.5 ? 'merged'
	: $doc->{series}{points}[-1]{interval_s} < 0.95 ? 'partial' : 'full', "the last interval drawn as its length says");
my $ndrawn = $npoints - (($last // '') eq 'merged' ? 1 : 0);
for my $chart (qw(tps latency failures lag client))
{
	is($drawn{$chart}, $ndrawn, "chart $chart: one point per interval drawn ($ndrawn)");
}
is($drawn{cdf}, scalar @buckets, 'chart cdf: one point per non-empty bucket (' . scalar(@buckets) . ')');
ok(($drawn{histogram} // 0) > 0 && $drawn{histogram} <= @buckets, "chart histogram: $drawn{histogram} bins");
like($dom, qr/<h3>Commands of script 1/, 'the per-command table (-r)');
like($dom, qr/<table class="scripts">/, 'the per-script table');
my $nchart = () = $dom =~ /<canvas/g;
is($nchart, 7, 'seven canvases drawn (the client CPU chart too)');

# the screenshot, kept next to the test logs
my $logs = dirname($ENV{PGBENCH} // '.') . '/meson-logs';
mkdir $logs unless -d $logs;
my $shot = "$logs/report_html.png";
unlink $shot;
my (undef, undef, $berr) = run_cmd([ @browser, "--screenshot=$shot", "file://$dir/r.html" ], timeout => 180);
ok(-s $shot, 'the screenshot is written') or diag($berr);
my $png = -s $shot ? slurp($shot) : '';
is(substr($png, 1, 3), 'PNG', 'the screenshot is a PNG');
diag(sprintf('screenshot: %s (%d bytes)', $shot, -s $shot // 0));

hostile_pages();

done_testing();

# Text as --dump-dom shows it: UTF-8, with &, < and > of text nodes as
# entities; $s is characters.
sub in_dom
{
	my ($s) = @_;
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/>/&gt;/g;
	return Encode::encode('UTF-8', $s);
}

# The page's bytes: valid UTF-8, its three script elements and no more,
# and the embedded document, with no '<', '>', '&', U+2028 or U+2029 in
# it, the same as $json_file's (when given).
sub check_page
{
	my ($file, $what, $json_file) = @_;
	my $html = slurp($file);
	ok(eval { Encode::decode('UTF-8', $html, Encode::FB_CROAK | Encode::LEAVE_SRC); 1 },
		"$what: the page is valid UTF-8") or diag($@);
	is(scalar(() = $html =~ /<script\b/g), 3, "$what: three <script> elements");
	is(scalar(() = $html =~ m{</script\b}g), 3, "$what: three </script> tags");
	my ($data) = $html =~ m{<script type="application/json" id="report-data">\n(.*?)</script>}s;
	$data //= '';
	unlike($data, qr/[<>&]|\xe2\x80[\xa8\xa9]/, "$what: no <, >, &, U+2028 or U+2029 in the embedded document");
	return unless $json_file;
	my $json = JSON::PP->new->utf8;
	my $doc = eval { $json->decode(slurp($json_file)) };
	ok($doc, "$what: the --report-json document parses as strict UTF-8 JSON") or diag($@);
	is_deeply(scalar(eval { $json->decode($data) }), $doc, "$what: the embedded document is the --report-json document");
	return;
}

sub hostile_pages
{
	my $R = "\x{FFFD}";
	$node->psql(q{create database ascii encoding 'SQL_ASCII' template template0 locale 'C'});
	my %aenv = (%env, PGDATABASE => 'ascii');
	mkdir '<' or die "cannot create <: $!";
	# [file name (bytes), its SQL (bytes), the name and the SQL as the page shows them]
	my @scripts = (
		[ '</script>', q{select '<!--<script>' as a, '</script>' as b;},
		  '</script>', q{select '<!--<script>' as a, '</script>' as b;} ],
		[ '<!--<script>', q{select 1 as "</script><!--<script>";},
		  '<!--<script>', q{select 1 as "</script><!--<script>";} ],
		[ q{it's "q" & <b>&amp;.sql}, q{select '&amp; "x" ''y'' &lt;' as q;},
		  q{it's "q" & <b>&amp;.sql}, q{select '&amp; "x" ''y'' &lt;' as q;} ],
		[ "bad\xff\xc0\xaf\xed\xa0\x80.sql", "select 'in\xffva\xe2\x82lid</script>' as u;",
		  "bad$R$R$R$R$R$R.sql", "select 'in${R}va${R}lid</script>' as u;" ],
	);
	write_file($_->[0], "$_->[1]\n") for @scripts;
	my ($rc, $out, $err) = pgbench([ '-n', '-c', '2', '-t', '10', '-r', (map { ('-f', $_->[0]) } @scripts),
			'-D', "v=\xff</script>&", '--report-json=h.json', '--report-html=h.html' ], env => \%aenv);
	is($rc, 0, 'hostile names and SQL: exit code 0') or diag($err);
	check_page('h.html', 'hostile names', 'h.json');
	my (undef, $dom) = render('h.html', 'hostile names');
	for my $i (0 .. $#scripts)
	{
		my ($name, $sql) = @{ $scripts[$i] }[ 2, 3 ];
		my $n = $i + 1;
		ok(index($dom, '<td class="text">' . in_dom($name) . '</td>') >= 0, "script $n: its name in the scripts table");
		ok(index($dom, '<h3>' . in_dom("Commands of script $n ($name)") . '</h3>') >= 0, "script $n: its name over its commands");
		ok(index($dom, '<td class="text">' . in_dom($sql) . '</td>') >= 0, "script $n: its SQL in the commands table");
	}
	ok(index($dom, in_dom(" -D v=$R</script>& ")) >= 0, 'the -D value in the command line');

	# a server message that echoes the bytes ends the run
	write_file('abort.sql', "select '\xff</script><!--<script>'::int;\n");
	($rc, $out, $err) = pgbench([ '-n', '-t', '1', '-r', '-f', 'abort.sql', '--report-json=a.json',
			'--report-html=a.html' ], env => \%aenv);
	is($rc, 2, 'a server message with the same: the client aborts (exit code 2)') or diag($err);
	check_page('a.html', 'aborted', 'a.json');
	(undef, $dom) = render('a.html', 'aborted');
	ok(index($dom, '<table class="aborts">') >= 0, 'the aborted clients table');
	ok(index($dom, in_dom(qq{invalid input syntax for type integer: "$R</script><!--<script>"})) >= 0,
		'the server message in it');

	# --merge-reports writes its page through the same path; with a copy
	# of the report (without its run id, which would be the same run
	# twice) under a hostile name, which the merged report lists
	my $copy = slurp('h.json');
	$copy =~ s/^  "run_id": "[0-9a-f]{32}",\n//m;
	write_file(qq{h<!--<script>&".json}, $copy);
	($rc, $out, $err) = pgbench([ '--merge-reports', 'h.json', qq{h<!--<script>&".json}, '--report-json=m.json',
			'--report-html=m.html' ]);
	is($rc, 0, '--merge-reports of the hostile report: exit code 0') or diag($err);
	check_page('m.html', 'merged', 'm.json');
	(undef, $dom) = render('m.html', 'merged');
	for my $i (0 .. $#scripts)
	{
		ok(index($dom, '<td class="text">' . in_dom($scripts[$i][2]) . '</td>') >= 0,
			'merged: the name of script ' . ($i + 1));
	}
	return;
}
