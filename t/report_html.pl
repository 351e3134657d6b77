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
# they are (U+FFFD for each ill-formed byte sequence).  Then pages of a
# report with server statistics (t/data/report_server_stats.json: a run
# with lock waits and a CHECKPOINT) and of its variants: the checkpoint
# marked on the charts over time, the wait events stacked and listed (and,
# samples of every state, Client:ClientRead left out of the chart and
# given in a note, which stands alone when it is all there is), the
# CPU chart with the server's processes and the host, the commit check
# agreeing, not agreeing and not made, hostile wait event names and notes
# shown as text, and the page of a report with server statistics off, of
# one written before they existed (schema 3), and of a merged report, each
# drawn with no script error.  Skipped, with a message, only where
# Chromium is missing and cannot be installed.
use strict;
use warnings;

use Encode ();
use File::Basename qw(dirname);
use File::Spec;
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

# a real report with server statistics (see the top)
my $fixture = File::Spec->rel2abs(dirname(__FILE__) . '/data/report_server_stats.json');

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
for my $chart (qw(tps latency failures lag cpu))
{
	is($drawn{$chart}, $ndrawn, "chart $chart: one point per interval drawn ($ndrawn)");
}
# --server-stats is on by default: the wait events are drawn when a sample
# saw a backend of the run in an event the chart draws (every state is
# sampled: Client:ClientRead, the sessions waiting for their client, is
# left out of it and given in a note)
my $waits = grep { drawn_waits($_, 1) } @{ $doc->{series}{points} };
ok($doc->{server_stats} && $doc->{server_stats}{monitored}, 'the run was monitored');
ok($doc->{server_stats}{wait_events}{all_states}, 'its samples counted every state');
is($drawn{waits}, $waits ? $ndrawn : undef, 'chart waits: drawn as the samples say');
like($dom, qr{<p class="note" id="waits-client-read">(?:not drawn: )?Client:ClientRead, the sessions waiting for their client},
	'the sessions waiting for their client: a note, not a band of the chart')
  if $doc->{server_stats}{wait_events}{counts}{'Client:ClientRead'};
like($dom, qr{<h2>Server statistics</h2>(?:<p[^>]*>[^<]*</p>)?<div class="check (?:agrees|disagrees|unchecked)" id="commit-check">},
	'the server statistics, the commit check first');
is($drawn{cdf}, scalar @buckets, 'chart cdf: one point per non-empty bucket (' . scalar(@buckets) . ')');
ok(($drawn{histogram} // 0) > 0 && $drawn{histogram} <= @buckets, "chart histogram: $drawn{histogram} bins");
like($dom, qr/<h3>Commands of script 1/, 'the per-command table (-r)');
like($dom, qr/<table class="scripts">/, 'the per-script table');
my $nchart = () = $dom =~ /<canvas/g;
is($nchart, 7 + ($waits ? 1 : 0), 'a canvas per chart (the CPU chart too, and the wait events\' when seen)');

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
server_stats_pages();

done_testing();

# The fixture's samples as if of every state (all_states): Client:ClientRead
# left out of the wait events chart, its backends on average in a note
# under it, the other events drawn and the run's table whole; then samples
# that saw nothing else: the note in place of the chart.
sub every_state_pages
{
	my ($page, $ref, $n) = @_;
	my $waits_of = sub { ($_[0]{server_stats}{wait_events}, map { $_->{server}{wait_events} } @{ $_[0]{series}{points} }) };
	my $every = variant($ref, sub { $_->{all_states} = JSON::PP::true for $waits_of->($_[0]) });
	my ($reads, $samples) = (0, 0);
	for my $p (@{ $every->{series}{points} })
	{
		$reads += $p->{server}{wait_events}{counts}{'Client:ClientRead'} // 0;
		$samples += $p->{server}{wait_events}{samples};
	}
	ok($reads > 0, "the fixture's intervals saw Client:ClientRead ($reads in $samples samples)");
	write_file('s6.html', with_doc($page, $every));
	my ($status, $dom) = render('s6.html', 'every state');
	my %drawn = $status =~ /(\w+):(\d+)/g;
	is($drawn{waits}, $n, "every state: the wait events drawn ($n points)");
	like($dom, qr{<h3>Wait events of the run's backends \(backends in each on average, stacked; Client:ClientRead not drawn\)</h3>},
		'every state: the chart\'s title says what it leaves out');
	ok(index($dom, '<div class="u-label">Client:ClientRead</div>') < 0, 'every state: Client:ClientRead not in the legend');
	ok(index($dom, qq{<div class="u-label">$_</div>}) >= 0, "every state: $_ in the legend")
	  for grep { $_ ne 'Client:ClientRead' } sort keys %{ $every->{server_stats}{wait_events}{counts} };
	my $avg = sprintf('%.2f', $reads / $samples);
	like($dom, qr{id="chart-waits".*<p class="note" id="waits-client-read">not drawn: Client:ClientRead, the sessions waiting for their client \(idle between statements included: the network and the client's own time\), \Q$avg\E backends on average</p>.*id="chart-cpu"}s,
		"every state: a note under the chart gives its backends on average ($avg)");
	ok(index($dom, '<tr><td>Client:ClientRead</td><td>' . $every->{server_stats}{wait_events}{counts}{'Client:ClientRead'} . '</td>') >= 0,
		'every state: Client:ClientRead in the run\'s table');
	like($dom, qr{</table><p class="note">every state of the run's backends was sampled: CPU is a backend active and waiting for nothing, Client:ClientRead one waiting for its client, idle between statements included</p>},
		'every state: the table\'s note says what the events mean');

	# nothing but sessions waiting for their client
	my $idle = variant($every, sub {
		for my $w ($waits_of->($_[0]))
		{
			$w->{counts} = $w->{samples} ? { 'Client:ClientRead' => 2 * $w->{samples} } : {};
			$w->{other} = 0;
		}
	});
	write_file('s7.html', with_doc($page, $idle));
	($status, $dom) = render('s7.html', 'only waiting for the client');
	%drawn = $status =~ /(\w+):(\d+)/g;
	ok(!exists $drawn{waits}, 'only waiting for the client: no wait events chart');
	is(scalar(() = $dom =~ /<canvas/g), 6, '... six charts');
	like($dom, qr{<p class="note" id="waits-client-read">Client:ClientRead, the sessions waiting for their client \(idle between statements included: the network and the client's own time\), 2\.00 backends on average, and no backend of the run was seen in anything else</p>},
		'... the note in its place');
	return;
}

# Whether point $p's wait events hold one the chart draws ($all_states:
# all but Client:ClientRead).
sub drawn_waits
{
	my ($p, $all_states) = @_;
	my $w = $p->{server} && $p->{server}{wait_events};
	return $w && grep { !($all_states && $_ eq 'Client:ClientRead') } keys %{ $w->{counts} };
}

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
	like($dom, qr{<h2>Server statistics</h2><p class="note">a merged report: each run's server statistics are in its own report</p>},
		'merged: no server statistics, and why');
	# both runs went to one server: its figures once, from the first report
	my $sid = decode_json(slurp('h.json'))->{server}{system_identifier};
	like($dom, qr{<h3>Servers of the merged runs</h3><table class="servers">.*?<td>\Q$sid\E</td><td>2</td><td class="text">h\.json</td><td>\d+</td>}s,
		'merged: the one server, its two runs, its figures from the first report');
	return;
}

# $page with $doc in place of its document (escaped as the program does).
sub with_doc
{
	my ($page, $doc) = @_;
	my $json = JSON::PP->new->utf8->canonical->encode($doc);
	$json =~ s/([<>&])/sprintf('\\u%04x', ord($1))/ge;
	$page =~ s{(<script type="application/json" id="report-data">\n).*?(</script>)}{$1$json\n$2}s;
	return $page;
}

# A deep copy of a document, changed by $edit.
sub variant
{
	my ($doc, $edit) = @_;
	my $copy = decode_json(encode_json($doc));
	$edit->($copy);
	return $copy;
}

sub server_stats_pages
{
	my $page = slurp('r.html');
	my $ref = decode_json(slurp($fixture));
	my $ss = $ref->{server_stats};
	my @points = @{ $ref->{series}{points} };
	# its last interval is 28 ms: counted into the one before it
	my $n = @points - 1;

	write_file('s.html', with_doc($page, $ref));
	my ($status, $dom) = render('s.html', 'server stats');
	my %drawn = $status =~ /(\w+):(\d+)/g;
	is($drawn{$_}, $n, "server stats: chart $_ drawn ($n points)") for qw(tps waits cpu);
	is(scalar(() = $dom =~ /<canvas/g), 7, 'server stats: seven charts (no -R: no lag)');
	for my $chart (qw(tps latency failures waits cpu))
	{
		like($dom, qr{id="chart-$chart" data-last="[^"]*" data-marks="1"}, "server stats: chart $chart marks the checkpoint");
	}
	like($dom, qr{<p class="note">shaded in the charts over time: the run's checkpoint, from the start},
		'server stats: the note on the checkpoint marks');
	like($dom, qr{<div class="check agrees" id="commit-check">commits agree: the server counted $ss->{commits}{server} commits on the database during the run, $ss->{commits}{expected} were expected from the transactions processed \(a difference of $ss->{commits}{difference}; $ss->{commits}{explained} would be explained\)</div>},
		'server stats: the commit check agrees');
	for my $name (sort keys %{ $ss->{wait_events}{counts} })
	{
		ok(index($dom, "<tr><td>$name</td><td>$ss->{wait_events}{counts}{$name}</td>") >= 0,
			"server stats: wait event $name in the run's table");
		ok(index($dom, qq{<div class="u-label">$name</div>}) >= 0, "server stats: wait event $name in the chart's legend");
	}
	my $commits = $ss->{totals}{database}{xact_commit};
	my $per_s = sprintf('%.1f', $commits / $ref->{duration_s});
	like($dom, qr{<table class="counters"><tr><th>database</th><th>over the run</th><th>per second</th></tr>(?:(?!</table>).)*<tr><td>xact_commit</td><td>$commits</td><td>\Q$per_s\E</td></tr>},
		'server stats: the counters over the run');
	my @by_count = sort { $ss->{wait_events}{counts}{$b} <=> $ss->{wait_events}{counts}{$a} || $a cmp $b }
	  keys %{ $ss->{wait_events}{counts} };
	my $rows = join('', map { "<tr><td>\Q$_\E</td>(?:(?!</tr>).)*</tr>" } @by_count);
	like($dom, qr{<table class="waits"><tr><th>wait event</th>(?:(?!</tr>).)*</tr>$rows</table>},
		'server stats: the run\'s wait events, most seen first');
	like($dom, qr{<table class="checkpoints"><tr>.*?</tr><tr><td>1</td><td>2\.785</td><td>4\.000</td><td>1\.216</td></tr>},
		'server stats: the checkpoint in its table');
	like($dom, qr{<div class="u-label">server processes</div>}, 'server stats: the server\'s processes on the CPU chart');
	like($dom, qr{<div class="u-label">host busy \(2 CPUs\)</div>}, 'server stats: the host on the CPU chart');

	# written before every state was sampled: Client:ClientRead (in a
	# transaction only) is drawn as any other event, and the page says so
	like($dom, qr{</table><p class="note">sessions idle between statements were not sampled \(a report written before they were\)</p>},
		'server stats: a report without all_states: idle sessions not sampled, said so');
	ok(index($dom, 'id="waits-client-read"') < 0, '... Client:ClientRead drawn with the other events');
	every_state_pages($page, $ref, $n);

	# the commit check failing: a warning
	write_file('s2.html', with_doc($page, variant($ref, sub { $_[0]{server_stats}{commits}{agrees} = JSON::PP::false })));
	($status, $dom) = render('s2.html', 'commits disagree');
	like($dom, qr{<div class="check disagrees" id="commit-check">commits do not agree: the server counted 1310 commits},
		'commits disagree: the warning');

	# hostile names from the server, a checkpoint of unknown start, no check
	my $evil = qq{</script><b id="evil">x</b><!--<script>&"\x{e9}};
	my $hostile = variant($ref, sub {
		my ($d) = @_;
		my $s = $d->{server_stats};
		$s->{monitored} = JSON::PP::false;
		$s->{application_name} = "app$evil";
		$s->{commits} = { checked => JSON::PP::false, not_checked_because => "because$evil" };
		$s->{notes} = [ "note$evil", 'constructor' ];
		push @{ $s->{checkpoints} }, { start_s => undef, ended_by_s => 6.000251 };
		for my $w ($s->{wait_events}, map { $_->{server}{wait_events} } @{ $d->{series}{points} })
		{
			$w->{counts}{"wait$evil"} = 500;
			$w->{counts}{$_} = 1 for qw(__proto__ constructor toString);
		}
	});
	write_file('s3.html', with_doc($page, $hostile));
	($status, $dom) = render('s3.html', 'hostile server names');
	%drawn = $status =~ /(\w+):(\d+)/g;
	is($drawn{waits}, $n, 'hostile server names: the wait events drawn');
	unlike($dom, qr/<b id="evil">/, 'hostile server names: no element made of them');
	ok(index($dom, '<tr><td>' . in_dom("wait$evil") . '</td><td>500</td>') >= 0, 'hostile server names: the event in the table');
	ok(index($dom, '<div class="u-label">' . in_dom("wait$evil") . '</div>') >= 0, 'hostile server names: the event in the legend');
	ok(index($dom, '<tr><td>' . $_ . '</td><td>1</td>') >= 0, "hostile server names: an event named $_") for qw(__proto__ constructor toString);
	ok(index($dom, '<li>' . in_dom("note$evil") . '</li><li>constructor</li>') >= 0, 'hostile server names: the notes');
	ok(index($dom, in_dom("app$evil")) >= 0, 'hostile server names: the application_name');
	ok(index($dom, '<div class="check unchecked" id="commit-check">' . in_dom("commits not checked: because$evil") . '</div>') >= 0,
		'hostile server names: why the commits were not checked');
	like($dom, qr{<p class="note" id="not-monitored">the server was not monitored: the notes below say why</p>},
		'not monitored: said so');
	like($dom, qr{id="chart-tps" data-last="[^"]*" data-marks="2"}, 'a checkpoint of unknown start: marked too');
	like($dom, qr{<tr><td>2</td><td class="text">unknown</td><td>6\.000</td><td class="text">–</td></tr>},
		'a checkpoint of unknown start: in the table');

	# --server-stats=off: no server figures anywhere
	my $off = variant($ref, sub {
		my ($d) = @_;
		$d->{server_stats} = undef;
		$_->{server} = $_->{host} = undef for @{ $d->{series}{points} };
	});
	write_file('s4.html', with_doc($page, $off));
	($status, $dom) = render('s4.html', 'server stats off');
	%drawn = $status =~ /(\w+):(\d+)/g;
	ok(!exists $drawn{waits}, 'server stats off: no wait events chart');
	is($drawn{cpu}, $n, 'server stats off: the client\'s CPU drawn');
	unlike($dom =~ s{<script\b.*?</script>}{}gsr, qr/data-marks|>server processes<|>host busy/,
		'server stats off: no checkpoint, server or host figure');
	like($dom, qr{<h2>Server statistics</h2><p class="note">server statistics were off \(--server-stats=off\)</p>},
		'server stats off: said so');
	like($dom, qr{<p class="note">no wait events sampled</p>}, 'server stats off: no wait events, said so');

	# a report of schema 3: no such members at all
	my $old = variant($ref, sub {
		my ($d) = @_;
		$d->{schema_version} = 3;
		delete $d->{server_stats};
		delete @{$_}{qw(server host)} for @{ $d->{series}{points} };
	});
	write_file('s5.html', with_doc($page, $old));
	($status, $dom) = render('s5.html', 'schema 3');
	%drawn = $status =~ /(\w+):(\d+)/g;
	ok(!exists $drawn{waits} && $drawn{cpu} == $n, 'schema 3: the client\'s CPU only');
	like($dom, qr{<h2>Server statistics</h2><p class="note">not in this report \(written before the server statistics\)</p>},
		'schema 3: said so');
	return;
}
