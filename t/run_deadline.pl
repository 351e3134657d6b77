# run_deadline.pl — -T ends a run between transactions, as pgbench does: a
# transaction under way when the time is up runs to its end (its \sleep,
# its pipelines, its COMMIT), so the database holds exactly the work the
# report counts; only the retries of a failed one stop at the deadline.
# Every case runs our binary and the system pgbench on the same script and
# checks both against the table's rows.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbdeadline_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

$node->psql('create table dl (client int, step int)');

# Two inserts per transaction, a \sleep between them.
write_file('tx.sql', "BEGIN;\nINSERT INTO dl VALUES (:client_id, 1);\n\\sleep 2 s\n"
	  . "INSERT INTO dl VALUES (:client_id, 2);\nCOMMIT;\n");
# The same with each insert in a pipeline of its own (extended protocol).
write_file('pipe.sql', "BEGIN;\n\\startpipeline\nINSERT INTO dl VALUES (:client_id, 1);\n"
	  . "\\endpipeline\n\\sleep 2 s\n\\startpipeline\n"
	  . "INSERT INTO dl VALUES (:client_id, 2);\n\\endpipeline\nCOMMIT;\n");

# Run one binary on an empty table: (exit code, processed, rows with step
# 1, rows with step 2, stderr).  -T counts from before the connections, in
# pgbench as here: on a loaded machine the connections of a -T 1 run can
# take the whole second, and a run that accounted no transaction (both
# programs then stop at once) says nothing of the deadline: it is made
# again, up to 5 times (PgbTest's run_accounted does the same).
sub run_counted
{
	my ($run, $args) = @_;
	my ($rc, $out, $err, $processed);
	for my $try (1 .. 5)
	{
		$node->psql('truncate dl');
		($rc, $out, $err) = $run->($args, env => \%env);
		($processed) = $out =~ /^number of transactions actually processed: (\d+)$/m;
		last if $rc != 0 || !defined $processed || $processed > 0;
		note("run $try accounted no transaction (its connections took the -T time): made again");
	}
	my ($one, $two) = split /\|/,
	  $node->psql('select count(*) filter (where step = 1), count(*) filter (where step = 2) from dl');
	return ($rc, $processed, $one, $two, $err);
}

# Each row: name, arguments, the exact count when the timing fixes it.
# With a 2 s \sleep and -T 1 every client is inside its first transaction
# when the time is up: it finishes that one and starts no other.
my @CASES = (
	[ '-T 1, 2 s sleep', [ '-n', '-T', '1', '-c', '2', '-f', 'tx.sql' ], 2 ],
	[ '-T 1, 2 s sleep, pipelines', [ '-n', '-M', 'extended', '-T', '1', '-c', '2', '-f', 'pipe.sql' ], 2 ],
	[ '-T 3 -c 2', [ '-n', '-T', '3', '-c', '2', '-f', 'tx.sql' ], undef ],
	[ '-T 3 -c 2 -j 2, prepared', [ '-n', '-M', 'prepared', '-T', '3', '-c', '2', '-j', '2', '-f', 'tx.sql' ], undef ],
);
for my $case (@CASES)
{
	my ($name, $args, $exact) = @$case;
	my @runs = ([ 'ours', \&pgbench ]);
	push @runs, [ 'system pgbench', \&system_pgbench ] if $system;
	for my $r (@runs)
	{
		my ($who, $run) = @$r;
		my ($rc, $processed, $one, $two, $err) = run_counted($run, $args);

		is($rc, 0, "$name ($who): exit code");
		is($err, '', "$name ($who): nothing on stderr");
		ok(defined $processed && $processed >= 2,
			"$name ($who): every client counted its transaction (" . ($processed // 'none') . ')');
		is($one, $processed, "$name ($who): one first insert per counted transaction");
		is($two, $processed, "$name ($who): one second insert per counted transaction");
		is($processed, $exact, "$name ($who): $exact transactions") if defined $exact;
	}
}

# Retries stop at the deadline: a try failing after it ends the client and
# the transaction is counted nowhere, as pgbench 15 does.  Every try fails
# (SQLSTATE 40001) 1.05 s after it starts: the first transaction fails for
# good at 2.1 s (two tries; 0.9 s to spare for a loaded machine), the
# second one's first try ends at 3.15 s at the earliest, after -T 3
# whatever the machine (lateness only delays it further).
write_file('ser.sql', "\\sleep 1050 ms\n"
	  . "DO \$\$ BEGIN RAISE EXCEPTION 'boom' USING ERRCODE = '40001'; END \$\$;\n");
my @retry = ('-n', '--max-tries=2', '-T', '3', '-c', '2', '-f', 'ser.sql');
my @want = (
	'number of transactions actually processed: 0',
	'number of failed transactions: 2 (100.000%)',
	'number of transactions retried: 2 (100.000%)',
	'total number of retries: 2',
);
my @runs = ([ 'ours', \&pgbench ]);
push @runs, [ 'system pgbench', \&system_pgbench ] if $system;
for my $r (@runs)
{
	my ($who, $run) = @$r;
	my ($rc, $out, $err) = $run->(\@retry, env => \%env);
	is($rc, 0, "--max-tries=2 -T 3 ($who): exit code");
	my @got = grep { /^(number of (transactions|failed)|total number of retries)/ } split /\n/, $out;
	is_deeply(\@got, \@want, "--max-tries=2 -T 3 ($who): the try after the deadline counts nowhere");
}

$node->stop;
done_testing();
