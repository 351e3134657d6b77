# fault_signal.pl — a run that ends early never loses what it did: SIGINT
# or SIGTERM stops every client, prints the report of what ran plus
# "run was interrupted by signal ...", closes the logs (exactly the
# transactions the report counts) and writes --report-json with outcome
# "interrupted", exit 128 + signal; a second signal exits at once (the
# first waits for a cancel request a silent server holds).  The
# -l logs stream (tail -f follows a run; SIGKILL leaves the lines of all
# but the last second).  --report-json says "failed-to-start" (a stale
# file replaced) and "aborted" (--exit-on-abort), and "-" writes it
# alone to stdout (the banner and the text report go to stderr).
use strict;
use warnings;

use File::Temp qw(tempdir);
use IO::Socket::UNIX;
use IPC::Run ();
use JSON::PP;
use PgbTest;
use Test::More;
use Time::HiRes ();

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbsignal_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
my $one = write_file("$dir/one.sql", "select 1;\n");

sub processed { my ($n) = $_[0] =~ /^number of transactions actually processed: (\d+)/m; return $n // -1; }

# Lines in every file matching the glob (0 when none exists yet).
sub lines_in
{
	my ($pattern) = @_;
	my $n = 0;
	for my $f (glob($pattern))
	{
		open my $fh, '<', $f or next;
		$n++ while <$fh>;
		close $fh;
	}
	return $n;
}

# Whether SIGINT is pending for the process or any of its threads
# (/proc/PID/status and /proc/PID/task/*/status: ShdPnd, SigPnd).
sub sigint_pending
{
	my ($pid) = @_;
	for my $f ("/proc/$pid/status", glob("/proc/$pid/task/*/status"))
	{
		open my $fh, '<', $f or next;
		while (my $l = <$fh>)
		{
			return 1 if $l =~ /^(?:ShdPnd|SigPnd):\s*([0-9a-f]+)/ && hex(substr($1, -8)) & (1 << 1);
		}
		close $fh;
	}
	return 0;
}

# Start our pgbench in the background; returns the harness and the
# references its output goes to.
sub start_ours
{
	my ($args) = @_;
	my ($o, $e) = ('', '');
	local %ENV = (%ENV, %env);
	my $h = IPC::Run::start([ our_pgbench_path(), @$args ], '<', \undef, '>', \$o, '2>', \$e,
		IPC::Run::timeout(300));
	return ($h, \$o, \$e);
}

# Wait for the end; (exit code, signal that killed it or 0).
sub finish_run
{
	my ($h) = @_;
	$h->finish;
	return ($? >> 8, $? & 127);
}

# ---- SIGINT and SIGTERM mid-run ---------------------------------------------

for my $case ([ 'INT', 130 ], [ 'TERM', 143 ])
{
	my ($sig, $code) = @$case;
	my $sub = "$dir/$sig";
	mkdir $sub or die;
	my $json = "$sub/r.json";
	my ($h, $o, $e) = start_ours([ '-S', '-c', '4', '-j', '2', '-T', '30', '-l',
			"--log-prefix=$sub/log", "--report-json=$json" ]);
	# both threads' logs have lines: the run is well under way
	my $started = poll_until(sub {
		my @f = glob("$sub/log.*");
		return @f == 2 && !grep { -z $_ } @f;
	}, 60);
	ok($started, "SIG$sig: both logs have lines while the run goes on");
	$h->signal($sig);
	my ($exit, $killed) = finish_run($h);
	is($killed, 0, "SIG$sig: the process ends by itself");
	is($exit, $code, "SIG$sig: exit code $code");
	like($$e, qr/^pgbench: run was interrupted by signal SIG$sig after \d+\.\d{3} s$/m,
		"SIG$sig: the interrupted line on stderr");
	my ($after) = $$e =~ /after (\d+\.\d{3}) s$/m;
	$after //= 'none';
	like($$o, qr/^run interrupted by SIG$sig after \Q$after\E s \(of 30 s\)\ntransaction type: /m,
		"SIG$sig: the report opens with the interrupted line");
	like($$o, qr/^duration: \Q$after\E s\n/m, "SIG$sig: the measured duration, not the requested one");
	like($$o, qr/\ntps = [\d.]+ \(without initial connection time\)\n\z/,
		"SIG$sig: stdout ends with the report's last line");
	my $n = processed($$o);
	ok($n > 0, "SIG$sig: transactions were processed ($n)");
	is(lines_in("$sub/log.*"), $n, "SIG$sig: the logs hold exactly the transactions reported");
	unlike($$e, qr/error/, "SIG$sig: no error");
	my $doc = eval { decode_json(slurp($json)) };
	ok($doc, "SIG$sig: the JSON report parses") or diag($@);
	is($doc->{outcome}, 'interrupted', "SIG$sig: outcome interrupted");
	is($doc->{signal}, "SIG$sig", "SIG$sig: the signal named");
	is($doc->{transactions}{processed}, $n, "SIG$sig: JSON counts what the text counts");
}

# A statement in flight is cancelled: the run stops without waiting for it,
# and the server no longer runs it.
{
	my $sleep = write_file("$dir/sleep.sql", "select pg_sleep(300);\n");
	my ($h, $o, $e) = start_ours([ '-n', '-f', $sleep, '-c', '2', '-T', '600' ]);
	my $running = poll_until(sub {
		$node->psql("select count(*) from pg_stat_activity where query like 'select pg_sleep(300)%'") == 2;
	}, 60);
	ok($running, 'two pg_sleep statements run');
	$h->signal('INT');
	my ($exit) = finish_run($h);
	is($exit, 130, 'a run waiting for statements stops on SIGINT: exit code 130');
	is(processed($$o), 0, 'no transaction counted');
	my $gone = poll_until(sub {
		$node->psql("select count(*) from pg_stat_activity where query like 'select pg_sleep(300)%'") == 0;
	}, 60);
	ok($gone, 'the statements were cancelled on the server');
}

# ---- a second signal ----------------------------------------------------------

# A run whose statement is in flight behind a proxy that passes on the
# set-up, monitoring (--server-stats, on with the report file) and client
# connections and holds every later one without a word:
# the first SIGINT cancels, and the cancel request waits for that silent
# "server"; the second SIGINT ends the process at once, without a report.
{
	my $sockdir = tempdir('pgbsock_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my $pid = start_proxy(path => "$sockdir/.s.PGSQL.5999", target => $node->host . '/.s.PGSQL.' . $node->port,
		forward => 3);
	my $sleep = write_file("$dir/sleep2.sql", "select pg_sleep(300);\n");
	my ($o, $e) = ('', '');
	my $h = IPC::Run::start([ our_pgbench_path(), '-n', '-f', $sleep, '-t', '1', '-h', $sockdir,
			'-p', '5999', '-U', 'postgres', '-d', 'postgres', "--report-json=$dir/second.json" ],
		'<', \undef, '>', \$o, '2>', \$e, IPC::Run::timeout(120));
	my $running = poll_until(sub {
		$node->psql("select count(*) from pg_stat_activity where query like 'select pg_sleep(300)%'") == 1;
	}, 60);
	ok($running, 'the statement runs behind the proxy');
	$h->signal('INT');
	# the second must not be sent while the first is still pending (the
	# kernel would merge the two into one): wait until the process has
	# taken it, however long a busy machine leaves it unscheduled
	my $kid = $h->{KIDS}[0]{PID};
	my $taken = poll_until(sub { !sigint_pending($kid) }, 60);
	ok($taken, 'the first SIGINT is delivered');
	# then a second to show that it does not end the run
	Time::HiRes::sleep(1);
	ok($h->pumpable, 'the first SIGINT waits for the cancel request to be taken');
	$h->signal('INT');
	my ($exit, $killed) = finish_run($h);
	stop_proxy($pid);
	is($exit, 130, 'the second SIGINT exits at once with 130');
	unlike($o, qr/number of transactions/, 'no report after the second signal (the banner only)');
}

# ---- logs stream ----------------------------------------------------------------

# -R 50: about 2 KiB a second per log, far below a write buffer; the file
# grows while the run goes on, and SIGKILL leaves whole lines.
{
	my $sub = "$dir/stream";
	mkdir $sub or die;
	my ($h, $o, $e) = start_ours([ '-n', '-f', $one, '-R', '50', '-T', '20', '-l',
			"--log-prefix=$sub/log" ]);
	my $first = poll_until(sub { lines_in("$sub/log.*") }, 60);
	ok($first, "-l -R 50: the log has lines while the run goes on ($first)");
	my $grown = poll_until(sub { my $n = lines_in("$sub/log.*"); $n > $first ? $n : 0 }, 10);
	ok($grown, "-l -R 50: the log grows within seconds (tail -f follows it)");
	$h->signal('KILL');
	my ($exit, $killed) = finish_run($h);
	is($killed, 9, 'SIGKILL ends the run');
	my @lines = split /\n/, join('', map { slurp($_) } glob("$sub/log.*"));
	ok(@lines >= $grown, 'SIGKILL leaves the lines written so far (' . scalar(@lines) . ')');
	is(scalar(grep { !/^0 \d+ \d+ 0 \d+ \d+ \d+$/ } @lines), 0, 'every line is whole');
}

# --aggregate-interval=1: an interval's line reaches the file about a
# second after it ends, not at the end of the run.
{
	my $sub = "$dir/agg";
	mkdir $sub or die;
	my ($h, $o, $e) = start_ours([ '-n', '-f', $one, '-R', '50', '-T', '20', '-l',
			'--aggregate-interval=1', "--log-prefix=$sub/log" ]);
	my $two = poll_until(sub { lines_in("$sub/log.*") >= 2 }, 30);
	ok($two, '--aggregate-interval=1: interval lines appear while the run goes on');
	$h->signal('TERM');
	my ($exit) = finish_run($h);
	is($exit, 143, '--aggregate-interval=1: SIGTERM exits with 143');
	my $sum = 0;
	for (split /\n/, join('', map { slurp($_) } glob("$sub/log.*")))
	{
		$sum += (split / /)[1];
	}
	is($sum, processed($$o), '--aggregate-interval=1: the intervals add up to the report');
}

# ---- --report-json in every ending ---------------------------------------------

my $json = "$dir/end.json";
write_file($json, "stale\n");
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '1', '-d', 'no_such_database', "--report-json=$json" ],
	env => \%env);
is($rc, 1, 'a database that does not exist: exit code 1');
like($err, qr/could not create connection for setup/, 'a database that does not exist: message');
my $doc = eval { decode_json(slurp($json)) };
ok($doc, 'failed to start: the stale file is replaced by a JSON document') or diag($@);
is($doc->{outcome}, 'failed-to-start', 'failed to start: outcome');
is($doc->{server_version}, undef, 'failed to start: no server version');

my $fail = write_file("$dir/fail.sql", "select 1/0;\n");
($rc, $out, $err) = pgbench([ '-n', '-f', $fail, '-c', '2', '-t', '5', '--exit-on-abort', "--report-json=$json" ],
	env => \%env);
is($rc, 2, '--exit-on-abort: exit code 2');
like($err, qr/^pgbench: error: Run was aborted due to an error in thread 0$/m, '--exit-on-abort: message');
$doc = eval { decode_json(slurp($json)) };
is($doc->{outcome}, 'aborted', '--exit-on-abort: outcome aborted');
is($doc->{aborted}, JSON::PP::true, '--exit-on-abort: aborted');
is($doc->{transactions}{processed}, 0, '--exit-on-abort: what ran');

($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '3', '--report-json=-' ], env => \%env);
is($rc, 0, '--report-json=-: exit code 0');
$doc = eval { decode_json($out) };
ok($doc, '--report-json=-: stdout is the JSON document alone') or diag($@, $out);
is($doc->{outcome}, 'completed', '--report-json=-: outcome completed');
is($doc->{transactions}{processed}, 3, '--report-json=-: its counts');
like($err, qr/\Apgbench \([^\n]*server [^\n]*\)\n/, '--report-json=-: the banner on stderr');
like($err, qr/^number of transactions actually processed: 3\/3\n(?:.*\n)*tps = [\d.]+ \(without initial connection time\)\n\z/m,
	'--report-json=-: the text report on stderr');

done_testing();
