# sweep.pl — --sweep=NAME:LIST (doc/sweep.md) end to end against a
# throwaway cluster: a sweep of clients 1..32 runs every step as a run of
# its own, ends the text with the table and finds the knee (2 cores
# saturate long before 32 clients), writes one JSON document holding every
# step's whole report, and a page whose two curves Chromium draws with
# the knee marked; a -D variable swept reaches the script (and -l writes
# a log per step); a rate sweep offers each rate; --sweep-stop-on=slo ends
# the sweep at the first step beyond the SLO; a SIGINT still leaves the
# table and the document; bad sweeps are refused before any run.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run;
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbsweep_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# ---- refused ---------------------------------------------------------------------

my @refused = (
	[ [ '--sweep=clients:1,2' ], "pgbench: error: --sweep needs a duration (-T): each step runs for it\n" ],
	[ [ '-T', '1', '--sweep=clients:1,x' ],
		"pgbench: error: invalid sweep \"clients:1,x\": \"x\" is not a value\n"
		  . "pgbench: detail: Expected NAME:LIST, NAME clients, jobs, rate or a variable set with -D, e.g. \"clients:1,2,4,8\" or \"rate:100..500/100\".\n" ],
	[ [ '-T', '1', '--sweep=clients:0,2' ],
		"pgbench: error: invalid sweep \"clients:0,2\": clients must be a whole number from 1 to 1000000, not \"0\"\n"
		  . "pgbench: detail: Expected NAME:LIST, NAME clients, jobs, rate or a variable set with -D, e.g. \"clients:1,2,4,8\" or \"rate:100..500/100\".\n" ],
	[ [ '-T', '1', '--sweep=clients:1..1000' ],
		"pgbench: error: invalid sweep \"clients:1..1000\": more than 64 steps\n"
		  . "pgbench: detail: Expected NAME:LIST, NAME clients, jobs, rate or a variable set with -D, e.g. \"clients:1,2,4,8\" or \"rate:100..500/100\".\n" ],
	[ [ '-T', '1', '--sweep=nosuch:1,2' ],
		"pgbench: error: --sweep: \"nosuch\" is neither clients, jobs, rate nor a variable set with -D\n" ],
	[ [ '-T', '1', '--sweep-slo=5ms' ], "pgbench: error: --sweep-slo and --sweep-stop-on need --sweep\n" ],
	[ [ '-T', '1', '--sweep=clients:1,2', '--sweep-stop-on=slo' ],
		"pgbench: error: --sweep-stop-on=slo needs --sweep-slo\n" ],
	[ [ '-T', '1', '--sweep=clients:1,2', '--sweep-slo=fast' ],
		"pgbench: error: invalid latency for --sweep-slo: \"fast\" (a number > 0 of ms, or with us, ms or s)\n" ],
);
for my $case (@refused)
{
	my ($args, $want) = @$case;
	($rc, $out, $err) = pgbench([ '-n', '-S', @$args ], env => \%env);
	is($rc, 1, "refused: @$args: exit status 1");
	is($err, $want, "refused: @$args: the message");
	is($out, '', "refused: @$args: no run");
}

# ---- clients 1..32: the knee ------------------------------------------------------

my @values = (1, 2, 4, 8, 16, 32);
($rc, $out, $err) = pgbench([ '-n', '-S', '-T', '1', '--sweep=clients:1,2,4,8,16,32',
		'--report-json=s.json', '--report-html=s.html' ], env => \%env, timeout => 600);
is($rc, 0, 'a sweep of clients: exit status 0') or diag($err);
for my $k (1 .. 6)
{
	my $v = $values[ $k - 1 ];
	like($err, qr/^sweep: step $k of 6, clients = $v \(about \d+ s left\)$/m,
		"step $k: its progress line");
	like($out, qr/^sweep step $k of 6: clients = $v\n/m, "step $k: its heading");
}
my @reports = $out =~ /^number of clients: (\d+)$/mg;
is_deeply(\@reports, \@values, 'each step printed its report with its clients');
ok($out =~ /^sweep of clients: 6 of 6 steps run; (.*)\n(step +clients +tps +p50 ms +p90 ms +p99 ms +failed +client % +top wait event)\n((?:.*\n){6})\z/m,
	'the text ends with the table') or diag($out);
my ($knee_words, $rows) = ($1 // '', $3 // '');
like($knee_words, qr/^knee at clients = (\d+): the next step gained less than 5% tps$/,
	'... which names the knee');
my @knee_rows = grep { /<- knee$/ } split /\n/, $rows;
is(scalar(@knee_rows), 1, '... marked on one row');

my $doc = decode_json(slurp('s.json'));
is($doc->{parameter}, 'clients', 'JSON: the parameter');
is(scalar(@{ $doc->{steps} }), 6, 'JSON: six steps');
ok($doc->{knee}{reached}, 'JSON: the knee is reached') or diag(explain($doc->{knee}));
my $kstep = $doc->{knee}{step} // 0;
my $kvalue = $values[ $kstep - 1 ] // 'none';
like($knee_rows[0] // '', qr/^ +$kstep +$kvalue /, '... at the row the text marks');
is_deeply([ map { $_->{report}{settings}{clients} } @{ $doc->{steps} } ], \@values,
	'JSON: each step holds its whole report');
is_deeply([ map { $_->{tps} } @{ $doc->{steps} } ], [ map { $_->{report}{tps} } @{ $doc->{steps} } ],
	'JSON: the table\'s tps is each report\'s');
my $t = $doc->{steps}[$kstep]{tps};
ok(defined($t) && $t < 1.05 * $doc->{steps}[ $kstep - 1 ]{tps}, 'JSON: the step after the knee gained less than 5%');

my $chromium = find_chromium();
SKIP:
{
	skip 'Chromium is not installed', 4 unless $chromium;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,2000', '--dump-dom', "file://$dir/s.html" ], timeout => 180);
	is($brc, 0, 'page: chromium --dump-dom: exit code 0') or diag($berr);
	like($dom, qr{<pre id="status">ok tps:6 latency:6 knee:$kstep</pre>}, 'page: both curves drawn, the knee named');
	my $kv = $values[$kstep - 1];
	like($dom, qr{id="chart-tps"[^>]* data-knee="$kv"}, 'page: the tps curve marks the knee');
	like($dom, qr{id="chart-latency"[^>]* data-knee="$kv"}, 'page: the latency curve marks it too');
}

# ---- a -D variable reaches the script ------------------------------------------------

write_file('sleep.sql', "SELECT pg_sleep(:ms / 1000.0);\n");
($rc, $out, $err) = pgbench([ '-n', '-f', 'sleep.sql', '-T', '1', '-D', 'ms=1', '--sweep=ms:1,30',
		'-l', '--report-json=v.json' ], env => \%env, timeout => 300);
is($rc, 0, 'a sweep of a -D variable: exit status 0') or diag($err);
my $vdoc = decode_json(slurp('v.json'));
my ($p1, $p2) = map { $_->{latency_ms}{p50} } @{ $vdoc->{steps} };
ok(defined($p1) && $p1 < 30, "step ms=1: a p50 under 30 ms (" . ($p1 // 'none') . ")");
ok(defined($p2) && $p2 >= 30, "step ms=30: a p50 of 30 ms or more (" . ($p2 // 'none') . ")");
is($vdoc->{numeric} ? 1 : 0, 1, 'numbers: the page draws against them');
for my $k (1, 2)
{
	my @logs = glob("pgbench_log_step$k.*");
	is(scalar(@logs), 1, "-l: step $k wrote a log of its own");
	my $n = 0;
	$n += () = slurp($_) =~ /\n/g for @logs;
	is($n, $vdoc->{steps}[ $k - 1 ]{report}{transactions}{processed}, "-l: step ${k}'s log holds its transactions");
}

# ---- rate ----------------------------------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-S', '-T', '1', '--sweep=rate:50..150/50', '--report-json=r.json' ],
	env => \%env, timeout => 300);
is($rc, 0, 'a sweep of rate: exit status 0') or diag($err);
my $rdoc = decode_json(slurp('r.json'));
is_deeply([ map { $_->{offered_tps} } @{ $rdoc->{steps} } ], [ 50, 100, 150 ], 'each step offered its rate');

# ---- --sweep-stop-on=slo -------------------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-S', '-T', '1', '--sweep=clients:1..3', '--sweep-slo=1us',
		'--sweep-stop-on=slo' ], env => \%env, timeout => 300);
is($rc, 0, 'stop on the SLO: exit status 0') or diag($err);
like($err, qr/^sweep: stopped after step 1 of 3 \(--sweep-stop-on=slo\)$/m, '... after the first step, beyond it');
like($out, qr/^sweep of clients: 1 of 3 steps run; no knee: no step kept latency p99 within 0\.001 ms$/m,
	'... and the table says so');

# ---- SIGINT: the sweep still ends with its table and document -------------------------

{
	my ($o, $e) = ('', '');
	my $h = do {
		local %ENV = (%ENV, %env);
		IPC::Run::start([ our_pgbench_path(), '-n', '-S', '-T', '30', '-P', '1', '--sweep=clients:1,2,3',
				'--report-json=int.json' ], '<', \undef, '>', \$o, '2>', \$e, IPC::Run::timeout(300));
	};
	my $going = poll_until(sub { $h->pump_nb; $e =~ /^progress: /m }, 120);
	ok($going, 'SIGINT: the first step is under way');
	$h->signal('INT');
	$h->finish;
	is($? >> 8, 130, 'SIGINT: exit status 130');
	like($o, qr/^sweep of clients: 1 of 3 steps run; /m, '... the table of the step run');
	my $idoc = eval { decode_json(slurp('int.json')) };
	ok($idoc, '... the document written') or diag($@);
	is($idoc->{steps}[0]{outcome}, 'interrupted', '... its step interrupted');
}

done_testing();
