# sweep.pl — --sweep=NAME:LIST (doc/sweep.md) end to end against a
# throwaway cluster: a sweep of clients 1..32 runs every step as a run of
# its own, ends the text with the table and finds the knee where the
# documented rule puts it (on an idle two-core machine long before 32
# clients; beside other load anywhere, or nowhere), writes one JSON
# document holding every step's whole report, and a page whose two curves
# Chromium draws with the knee marked; a -D variable swept reaches the
# script (each step's latency shows its value; and -l writes
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
my @knee_rows = grep { /<- knee$/ } split /\n/, $rows;

my $doc = decode_json(slurp('s.json'));
is($doc->{parameter}, 'clients', 'JSON: the parameter');
is(scalar(@{ $doc->{steps} }), 6, 'JSON: six steps');
is_deeply([ map { $_->{report}{settings}{clients} } @{ $doc->{steps} } ], \@values,
	'JSON: each step holds its whole report');
is_deeply([ map { $_->{tps} } @{ $doc->{steps} } ], [ map { $_->{report}{tps} } @{ $doc->{steps} } ],
	'JSON: the table\'s tps is each report\'s');

# The knee by doc/sweep.md's rule, from the steps' own figures: the last
# step before the first one that gained less than 5% tps (steps that ran
# to their end).  On an idle two-core machine it comes long before 32
# clients; beside other load (CPU hogs, the other tests) it may come
# anywhere, or not at all (every doubling of the clients also takes more
# of the CPU from the hogs), and the text, the document and the page must
# then say that there is none.
my $want = 0;    # 1-based; 0: no knee within the sweep
for my $i (1 .. $#{ $doc->{steps} })
{
	my ($prev, $step) = @{ $doc->{steps} }[ $i - 1, $i ];
	last if $prev->{outcome} ne 'completed' || $step->{outcome} ne 'completed';
	if ($step->{tps} < (1 + 0.05) * $prev->{tps})
	{
		$want = $i;
		last;
	}
}
note('steps\' tps: ' . join(', ', map { $_->{tps} } @{ $doc->{steps} }) . "; knee at step $want (0: none)");
my $kstep = $doc->{knee}{step} // 0;
my $kvalue = $values[ $kstep - 1 ] // 'none';
if ($want)
{
	my $want_value = $values[ $want - 1 ];
	like($knee_words, qr/^knee at clients = $want_value: the next step gained less than 5% tps$/,
		'... which names the knee');
	is(scalar(@knee_rows), 1, '... marked on one row');
	ok($doc->{knee}{reached}, 'JSON: the knee is reached') or diag(explain($doc->{knee}));
	is($kstep, $want, 'JSON: at the step the rule gives');
	like($knee_rows[0] // '', qr/^ +$kstep +$kvalue /, '... at the row the text marks');
}
else
{
	like($knee_words, qr/^no knee(?: within the sweep: tps still grew by 5% or more up to its last step|: no step ran to its end)$/,
		'... which says there is no knee');
	is(scalar(@knee_rows), 0, '... marked on no row');
	ok(!$doc->{knee}{reached}, 'JSON: no knee reached') or diag(explain($doc->{knee}));
}

my $chromium = find_chromium();
SKIP:
{
	skip 'Chromium is not installed', 4 unless $chromium;
	my $profile = tempdir('chromium_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my ($brc, $dom, $berr) = run_cmd([ $chromium, '--headless', '--disable-gpu', '--no-sandbox',
			'--no-first-run', "--user-data-dir=$profile", '--virtual-time-budget=10000',
			'--window-size=1100,2000', '--dump-dom', "file://$dir/s.html" ], timeout => 180);
	is($brc, 0, 'page: chromium --dump-dom: exit code 0') or diag($berr);
	my $knee_text = $want ? $kstep : 'none';
	like($dom, qr{<pre id="status">ok tps:6 latency:6 knee:$knee_text</pre>}, 'page: both curves drawn, the knee named');
	my ($tps_chart) = $dom =~ /(id="chart-tps"[^>]*)/;
	my ($lat_chart) = $dom =~ /(id="chart-latency"[^>]*)/;
	if ($want)
	{
		like($tps_chart // '', qr/ data-knee="$kvalue"/, 'page: the tps curve marks the knee');
		like($lat_chart // '', qr/ data-knee="$kvalue"/, 'page: the latency curve marks it too');
	}
	else
	{
		unlike($tps_chart // 'data-knee', qr/data-knee/, 'page: the tps curve marks no knee');
		unlike($lat_chart // 'data-knee', qr/data-knee/, 'page: nor does the latency curve');
	}
}

# ---- a -D variable reaches the script ------------------------------------------------

# The value shows in each step's latency, so each step must account a
# transaction: on a busy machine a -T 1 step may account none (-T counts
# from before the connections, as pgbench's; PgbTest's run_accounted),
# and then has no latency (p50 null) to tell which value it ran with.
# The sweep is then made again, up to 5 times in all.
write_file('sleep.sql', "SELECT pg_sleep(:ms / 1000.0);\n");
my $vdoc;
for my $try (1 .. 5)
{
	unlink(glob('pgbench_log_step*'));
	($rc, $out, $err) = pgbench([ '-n', '-f', 'sleep.sql', '-T', '1', '-D', 'ms=1', '--sweep=ms:1,30',
			'-l', '--report-json=v.json' ], env => \%env, timeout => 300);
	last if $rc != 0;
	$vdoc = decode_json(slurp('v.json'));
	last unless grep { !$_->{report} || !$_->{report}{transactions}{processed} } @{ $vdoc->{steps} };
	note("the sweep of ms, run $try: a step accounted no transaction, made again");
}
is($rc, 0, 'a sweep of a -D variable: exit status 0') or diag($err);
$vdoc = decode_json(slurp('v.json'));
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
