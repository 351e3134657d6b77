# run_matrix.pl — every script in every mode against one real cluster
# initialised at scale 2 by our binary.  Every builtin script runs in
# simple, extended and prepared mode, and a custom script that sends its
# statements in a pipeline (the fourth mode) runs in extended and prepared
# mode: each pair once, in a shape of its own from -c 1 -j 1 to -c 100
# -j 4 (several with more than one client and thread, one with more
# threads than clients); then a run with 1000 clients and two with 250.
# Each run must exit 0, print the exact report (timings masked), say
# nothing on stderr but the vacuum line, and leave the database
# consistent: one history row per writing transaction and balances that
# add up to the history's deltas.  A few of the same command lines also go
# through the system pgbench.
#
# The rest of the matrix, each pair with 1 to 4 clients and what each mode
# sends per transaction, is t/unit/test_matrix.c's, against a scripted
# session.
#
# "run_matrix.pl many" runs only the many-clients part (meson test
# run_many, which runs alone: a fork storm of 1000 backends starves every
# timing-bound test beside it on a two-core machine); without an argument
# everything else.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;
use Time::HiRes ();

my $many = ($ARGV[0] // '') eq 'many';
my $started = Time::HiRes::time();
my $node = start_cluster($many ? (max_connections => 1100) : ());
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbmatrix_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my $SCALE = 2;
my ($rc, $out, $err) = pgbench([ '-i', '-q', '-s', $SCALE ], env => \%env);
is($rc, 0, "initialize at scale $SCALE") or diag($err);

# The fourth mode: a transaction whose statements travel in one pipeline.
# It writes like simple-update (one account, one history row) so that the
# same consistency checks apply, and reads back in between
# (t/unit/test_matrix.c runs the same text).
write_file('pipeline.sql', <<'EOS');
\set aid random(1, 100000 * :scale)
\set tid random(1, 10 * :scale)
\set bid random(1, :scale)
\set delta random(-5000, 5000)
\startpipeline
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
SELECT count(*) FROM pgbench_tellers WHERE tid = :tid AND bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
\endpipeline
EOS

# what each script is called in the report, its option, whether it adds a
# history row per transaction, and whether it moves teller and branch
# balances
my @SCRIPTS = (
	{ name => 'tpcb-like', type => '<builtin: TPC-B (sort of)>', args => [ '-b', 'tpcb-like' ],
	  history => 1, tellers => 1 },
	{ name => 'simple-update', type => '<builtin: simple update>', args => [ '-N' ],
	  history => 1, tellers => 0 },
	{ name => 'select-only', type => '<builtin: select only>', args => [ '-S' ],
	  history => 0, tellers => 0 },
	# a custom script reports scale 1 unless -s says otherwise
	{ name => 'pipeline', type => 'pipeline.sql', args => [ '-f', 'pipeline.sql', '-s', $SCALE ],
	  history => 1, tellers => 0 },
);

# Each (script, mode) pair once: (script, mode, clients, threads,
# transactions per client, whether the run skips the vacuum (-n), so both
# start-ups are covered).  (2, 8) asks for more threads than clients:
# pgbench runs one per client.
my @RUNS = (
	[ 'tpcb-like',     'simple',   3,   2, 5, 0 ],
	[ 'tpcb-like',     'extended', 1,   1, 5, 1 ],
	[ 'tpcb-like',     'prepared', 8,   8, 3, 0 ],
	[ 'simple-update', 'simple',   2,   8, 4, 1 ],
	[ 'simple-update', 'extended', 16,  3, 2, 0 ],
	[ 'simple-update', 'prepared', 4,   2, 3, 1 ],
	[ 'select-only',   'simple',   1,   1, 5, 0 ],
	[ 'select-only',   'extended', 3,   2, 4, 1 ],
	[ 'select-only',   'prepared', 100, 4, 1, 0 ],
	[ 'pipeline',      'extended', 2,   2, 4, 1 ],
	[ 'pipeline',      'prepared', 8,   3, 3, 0 ],
);

# Figures that depend on timing become X; the banner carries the versions.
sub mask
{
	my ($s) = @_;
	$s =~ s/^pgbench \(.*\)$/pgbench (VERSION)/mg;
	$s =~ s/= -?[\d.]+ ms/= X ms/g;
	$s =~ s/tps = [\d.]+/tps = X/g;
	return $s;
}

sub report
{
	my (%p) = @_;
	return "pgbench (VERSION)\n"
	  . "transaction type: $p{type}\n"
	  . "scaling factor: $SCALE\n"
	  . "query mode: $p{mode}\n"
	  . "number of clients: $p{clients}\n"
	  . "number of threads: $p{threads}\n"
	  . "maximum number of tries: 1\n"
	  . "number of transactions per client: $p{per_client}\n"
	  . "number of transactions actually processed: $p{processed}/$p{processed}\n"
	  . "number of failed transactions: 0 (0.000%)\n"
	  . "latency average = X ms\n"
	  . "initial connection time = X ms\n"
	  . "tps = X (without initial connection time)\n";
}

# History rows, sums of account, branch and teller balances, sum of deltas.
# With $reset, balances go back to zero and the history is emptied first
# (one psql call): the vacuum step empties pgbench_history, so this keeps
# "sum of balances = sum of deltas" true across every run.
sub snapshot
{
	my ($reset) = @_;
	my $sql = $reset
	  ? 'update pgbench_accounts set abalance = 0 where abalance <> 0; '
	  . 'update pgbench_branches set bbalance = 0; '
	  . 'update pgbench_tellers set tbalance = 0; truncate pgbench_history; '
	  : '';
	my $row = $node->psql($sql
		  . 'select (select count(*) from pgbench_history), '
		  . '(select coalesce(sum(abalance), 0) from pgbench_accounts), '
		  . '(select coalesce(sum(bbalance), 0) from pgbench_branches), '
		  . '(select coalesce(sum(tbalance), 0) from pgbench_tellers), '
		  . '(select coalesce(sum(delta), 0) from pgbench_history)');
	my %s;
	@s{qw(history a b t delta)} = split /\|/, $row;
	return \%s;
}

my $runs = 0;
my $transactions = 0;
my $last_after;    # the state the last run left, when nothing changed it since

# One run of our pgbench with every check.
sub check_run
{
	my ($script, $mode, $clients, $threads, $per_client, $novacuum) = @_;
	my @args = (@{ $script->{args} }, '-M', $mode, '-c', $clients, '-j', $threads,
		'-t', $per_client, $novacuum ? ('-n') : ());
	my $name = "$script->{name} -M $mode -c $clients -j $threads -t $per_client"
	  . ($novacuum ? ' -n' : '');
	my $processed = $clients * $per_client;
	my $capped = $threads > $clients ? $clients : $threads;

	# with -n the database is as the last run left it: no need to look again
	my $before = $novacuum && $last_after ? $last_after : snapshot(!$novacuum);
	my $t0 = Time::HiRes::time();
	my ($code, $stdout, $stderr) = pgbench(\@args, env => \%env);
	note(sprintf('%s: %.2f s', $name, Time::HiRes::time() - $t0));
	$runs++;
	$transactions += $processed;

	is($code, 0, "$name: exit code");
	is(mask($stdout),
		report(type => $script->{type}, mode => $mode, clients => $clients,
			threads => $capped, per_client => $per_client, processed => $processed),
		"$name: report");
	is(without_client_bound($stderr), $novacuum ? '' : "starting vacuum...end.\n",
		"$name: stderr (but a client-bound warning)");

	my $after = $last_after = snapshot();
	is($after->{history} - $before->{history}, $script->{history} ? $processed : 0,
		"$name: history rows added");
	is($after->{a}, $after->{delta}, "$name: sum(abalance) = sum(delta)");
	my $moved = $after->{delta} - $before->{delta};
	my $expect_bt = $script->{tellers} ? $moved : 0;
	ok($after->{b} - $before->{b} == $expect_bt && $after->{t} - $before->{t} == $expect_bt,
		"$name: branch and teller balances moved by "
		  . ($script->{tellers} ? 'the deltas' : 'nothing')
		  . " ($after->{b}-$before->{b}, $after->{t}-$before->{t}, $moved)");
	return ($code, $stdout, $stderr);
}

# ---- the matrix -----------------------------------------------------------

my %by_name = map { $_->{name} => $_ } @SCRIPTS;
if (!$many)
{
	for my $run (@RUNS)
	{
		my ($name, @shape) = @$run;
		check_run($by_name{$name}, @shape);
	}
}

# ---- many clients ------------------------------------------------------------
# One run with 1000 clients; the other modes with 250 (each backend costs
# the server a fork and an authentication: 1000 take most of a minute on a
# busy two-core machine, and 250 cover the same paths).

# Every connection is closed at the end of a run (this also covers what
# run_connect.pl checked with its own -S -c 1000 -j 2 -t 2 run).
sub all_closed
{
	my ($name) = @_;
	# a backend leaves pg_stat_activity a moment after its client is gone,
	# later on a busy machine: wait for it (and before the next 1000)
	my $sql = "select count(*) from pg_stat_activity where application_name in ('pgbench', 'pgbench-ng')";
	PgbTest::poll_until(sub { $node->psql($sql) == 0 }, 60);
	is($node->psql($sql), 0, "$name: every connection is closed at the end");
}
if ($many)
{
	check_run($by_name{'tpcb-like'}, 'simple', 250, 8, 1, 0);
	all_closed('-c 250 -j 8 -M simple');
	check_run($by_name{'select-only'}, 'prepared', 1000, 2, 2, 1);
	all_closed('-c 1000 -j 2 -M prepared');
	check_run($by_name{'pipeline'}, 'extended', 250, 8, 1, 1);
	all_closed('-c 250 -j 8 -M extended (pipeline)');
}

# ---- pipelines need the extended protocol -------------------------------------

sub pipeline_needs_extended
{
	my ($rc, $out, $err) = pgbench([ '-n', '-M', 'simple', '-f', 'pipeline.sql', '-t', '1' ],
		env => \%env);
	is($rc, 2, 'pipeline in simple mode: exit code 2');
	like($out, qr/^number of transactions actually processed: 0\/1\n/m,
		'pipeline in simple mode: nothing processed');
	is($err,
		"pgbench: error: client 0 aborted in command 4 (startpipeline) of script 0; "
		  . "cannot use pipeline mode with the simple query protocol\n"
		  . "pgbench: error: Run was aborted; the above results are incomplete.\n",
		'pipeline in simple mode: the client aborts at \\startpipeline');
	return;
}
pipeline_needs_extended() unless $many;

# ---- the same command lines through the system pgbench ----------------------

my @rows = (
	[ '-b', 'tpcb-like', '-M', 'simple', '-c', '3', '-j', '2', '-t', '5' ],
	[ '-N', '-M', 'extended', '-c', '16', '-j', '3', '-t', '2', '-n' ],
	[ '-S', '-M', 'prepared', '-c', '8', '-j', '8', '-t', '3' ],
	[ '-S', '-M', 'simple', '-c', '2', '-j', '5', '-t', '3', '-n' ],
	[ '-f', 'pipeline.sql', '-s', $SCALE, '-M', 'prepared', '-c', '8', '-j', '3', '-t', '3', '-n' ],
	[ '-f', 'pipeline.sql', '-s', $SCALE, '-M', 'extended', '-c', '1', '-j', '1', '-t', '5', '-n' ],
	[ '-f', 'pipeline.sql', '-M', 'simple', '-t', '1', '-n' ],
);

SKIP:
{
	last SKIP if $many;
	skip 'no system pgbench to compare with', 3 * @rows unless $system;

	same_as_system($_, env => \%env) for @rows;
}

# ---- the server saw no failing statement in all of this ---------------------


my @server_errors = grep { /\b(ERROR|FATAL|PANIC):/ } split /^/, slurp("$node->{base}/server.log");
is(scalar(@server_errors), 0, 'server log: no errors')
  or diag(join('', @server_errors[ 0 .. ($#server_errors < 9 ? $#server_errors : 9) ]));

$node->stop;
my $elapsed = Time::HiRes::time() - $started;
note(sprintf('%d matrix runs, %d transactions, %.1f s', $runs, $transactions, $elapsed));
done_testing();
