# fault_server.pl — the server fails under a run, against a real cluster:
# a backend terminated (simple, prepared and pipeline modes, with and
# without --exit-on-abort), the server stopped and started again mid-run,
# and the server stopped during -i.  Every run must end (a generous
# bound, no hang) with pgbench's exit code and messages; each case runs
# the system pgbench the same way and compares (the numbers masked: which
# client and command are hit is a race).
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();
# --exit-on-abort is PostgreSQL 17's: its oracle is a newer pgbench
my $newer = oracle19_path();

my $dir = tempdir('pgbfserver_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

write_file('slow.sql', "SELECT pg_sleep(0.02);\n");
write_file('pipe.sql', "\\startpipeline\nSELECT pg_sleep(0.02);\nSELECT 1;\n\\endpipeline\n");

my $no_backend = "select count(*) = 0 from pg_stat_activity where application_name in ('pgbench', 'pgbench-ng')";

sub pg_ctl { my (@args) = @_; return $node->_sys("$node->{bindir}/pg_ctl", '-D', $node->{data}, @args); }

# Start $path with $args, wait until $ready (a query) returns true, run
# $action, then collect: (exit code, stdout, stderr, what $action
# returned).  The run must end within 120 s: IPC::Run dies otherwise.
sub run_during
{
	my ($path, $args, $ready, $action) = @_;
	my ($o, $e) = ('', '');
	local %ENV = (%ENV, %env);
	# the backends of the run before may still be exiting: the fault must
	# hit this run's (whatever their state: on a busy machine a client may
	# leave its backend idle for a while)
	poll_until(sub { $node->psql($no_backend, allow_fail => 1) eq 't' }, 60);
	my $h = IPC::Run::start([ $path, @$args ], '<', \undef, '>', \$o, '2>', \$e,
		IPC::Run::timeout(120));
	# psql prints a boolean as t or f (and f is true in Perl)
	my $seen = poll_until(sub { $node->psql($ready, allow_fail => 1) eq 't' }, 60);
	my $did = $seen ? $action->() : undef;
	my $ended = eval { $h->finish; 1 };
	$h->kill_kill unless $ended;
	return ($ended ? $? >> 8 : 'hang', $o, $e, $did);
}

# Every line of an aborted run's stderr: a client's abort (with its
# libpq continuation lines), then the closing line.
sub mask { my ($s) = @_; $s =~ s/\d+/N/g; return $s; }
# The terminated backend is met either by the query in flight (its error
# result) or, when the client was between commands, by the next send, as
# pgbench words it (libpq prints the server's FATAL notice, which may come
# before another client's line).
my $abort_line = qr/(?:FATAL:  [^\n]*\n)*(?:pgbench: error: client N script N aborted in command N query N: (?:FATAL:  terminating connection due to administrator command|server closed the connection unexpectedly|[^\n]*connection[^\n]*)\n(?:\t[^\n]*\n|[^p][^\n]*\n)*|pgbench: error: client N aborted in command N \(SQL\) of script N; perhaps the backend died while processing\n)/;

my $pgbench_busy = "select count(*) >= 2 from pg_stat_activity where application_name in ('pgbench', 'pgbench-ng') and state = 'active'";
my $terminate = "select count(pg_terminate_backend(pid)) from pg_stat_activity "
  . "where pid = (select min(pid) from pg_stat_activity where application_name in ('pgbench', 'pgbench-ng'))";

# ---- a backend terminated ---------------------------------------------------

my @MODES = (
	[ 'simple', [ '-M', 'simple', '-f', 'slow.sql' ] ],
	[ 'prepared', [ '-M', 'prepared', '-f', 'slow.sql' ] ],
	[ 'pipeline', [ '-M', 'extended', '-f', 'pipe.sql' ] ],
);
for my $m (@MODES)
{
	my ($mode, $margs) = @$m;
	# the other client goes on to its end: 250 transactions of a 20 ms
	# sleep, 5 s at least (a slow machine only makes it longer), time
	# enough to see both busy and terminate one
	my @args = ('-n', '-c', '2', '-t', '250', @$margs);
	my @bins = ([ 'ours', our_pgbench_path() ]);
	push @bins, [ 'pgbench 15', $system ] if $system;
	my %seen;
	for my $b (@bins)
	{
		my ($who, $path) = @$b;
		my ($rc, $out, $err, $killed) = run_during($path, \@args, $pgbench_busy,
			sub { $node->psql($terminate) });
		is($killed, 1, "terminate ($mode, $who): one backend terminated");
		is($rc, 2, "terminate ($mode, $who): exit code 2");
		like(mask($err), qr/\A${abort_line}pgbench: error: Run was aborted; the above results are incomplete\.\n\z/,
			"terminate ($mode, $who): one client's abort, then the closing line");
		like($out, qr/^number of transactions actually processed: \d+\/500$/m, "terminate ($mode, $who): the report");
		$seen{$who} = mask($err);
	}
	is($seen{ours}, $seen{'pgbench 15'}, "terminate ($mode): the same messages as pgbench 15")
	  if $system && $seen{ours} =~ /\Apgbench: error: client N script N aborted in command N query N: FATAL:  terminating /
	  && $seen{'pgbench 15'} =~ /\Apgbench: error: client N script N aborted in command N query N: FATAL:  terminating /;
}

# --exit-on-abort: the first abort ends the run, no report
for my $m (@MODES)
{
	my ($mode, $margs) = @$m;
	my @args = ('-n', '-c', '2', '-T', '10', '--exit-on-abort', @$margs);
	my @bins = ([ 'ours', our_pgbench_path() ]);
	push @bins, [ 'pgbench 19', $newer ] if $newer;
	for my $b (@bins)
	{
		my ($who, $path) = @$b;
		my ($rc, $out, $err, $killed) = run_during($path, \@args, $pgbench_busy,
			sub { $node->psql($terminate) });
		is($rc, 2, "terminate --exit-on-abort ($mode, $who): exit code 2");
		like(mask($err), qr/\A${abort_line}pgbench: error: Run was aborted due to an error in thread N\n\z/,
			"terminate --exit-on-abort ($mode, $who): the abort, then the thread's line");
		unlike($out, qr/transactions actually processed/, "terminate --exit-on-abort ($mode, $who): no report");
	}
}

# ---- the server stopped and started again ----------------------------------

{
	my @args = ('-n', '-c', '2', '-j', '2', '-T', '10', '-f', 'slow.sql');
	my @bins = ([ 'ours', our_pgbench_path() ]);
	push @bins, [ 'pgbench 15', $system ] if $system;
	for my $b (@bins)
	{
		my ($who, $path) = @$b;
		my ($rc, $out, $err) = run_during($path, \@args, $pgbench_busy,
			sub { pg_ctl('-m', 'fast', '-w', 'stop'); pg_ctl('-l', "$node->{base}/server.log", '-w', 'start'); 1 });
		is($rc, 2, "server restarted ($who): exit code 2, no hang");
		like(mask($err), qr/\A(?:${abort_line}){2}pgbench: error: Run was aborted; the above results are incomplete\.\n\z/,
			"server restarted ($who): both clients abort, then the closing line");
		like($out, qr/^number of transactions actually processed: \d+$/m, "server restarted ($who): the report");
	}
}

# ---- the server stopped during -i --------------------------------------------

{
	my $copying = "select count(*) > 0 from pg_stat_activity where query ilike 'copy pgbench_accounts%'";
	my @bins = ([ 'ours', our_pgbench_path() ]);
	push @bins, [ 'pgbench 15', $system ] if $system;
	my %last;
	for my $b (@bins)
	{
		my ($who, $path) = @$b;
		my ($rc, $out, $err, $did) = run_during($path, [ '-i', '-s', '20' ], $copying,
			sub { pg_ctl('-m', 'fast', '-w', 'stop'); 1 });
		pg_ctl('-l', "$node->{base}/server.log", '-w', 'start');
		ok($did, "-i, server stopped ($who): stopped during the accounts' COPY");
		is($rc, 1, "-i, server stopped ($who): exit code 1, no hang");
		my @lines = split /\n/, $err;
		$last{$who} = $lines[-1] // '';
		like($last{$who}, qr/^pgbench: error: (?:PQputline|PQendcopy|PQputCopyData|PQputCopyEnd)[^\n]* failed/,
			"-i, server stopped ($who): pgbench's last line: $last{$who}");
	}
	is($last{ours}, $last{'pgbench 15'}, '-i, server stopped: the same last line as pgbench 15') if $system;
}

$node->stop;
done_testing();
