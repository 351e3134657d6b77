# run_connect.pl — the open-files limit: raised when the soft limit is too
# low for -c, and pgbench's error when the hard limit is.  (A thousand
# clients on two threads, connected concurrently, run in run_matrix.pl,
# whose cluster has room for them: one such cluster instead of two.)
use strict;
use warnings;

use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

# ---- RLIMIT_NOFILE ---------------------------------------------------------

# Run a pgbench under a lowered limit: "S -n" the soft one only, "n" both.
# Descriptors the caller leaks beyond 0-2 (prove under some shells, CI job
# runners) are closed first: -c + 3 counts on those three alone.
sub limited
{
	my ($prog, $kind, $limit, @args) = @_;
	my $close = 'for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done;';
	return run_cmd([ 'bash', '-c', "$close ulimit -$kind $limit && exec \"\$0\" \"\$@\"", $prog, @args ],
		env => \%env);
}

($rc, $out, $err) = limited(our_pgbench_path(), 'S -n', 40, '-n', '-S', '-c', '60', '-t', '1');
# Unlike pgbench 15, we raise the soft limit when the hard one allows.
is($rc, 0, 'soft limit below -c + 3: raised, the run goes on');
like($out, qr/^number of transactions actually processed: 60\/60$/m,
	'soft limit raised: all clients ran');

($rc, $out, $err) = limited(our_pgbench_path(), 'n', 40, '-n', '-S', '-c', '60', '-t', '1');
is($rc, 1, 'hard limit below -c + 3: exit code 1');
is($err,
	"pgbench: error: need at least 63 open files, but system limit is 40\n"
	  . "pgbench: hint: Reduce number of clients, or use limit/ulimit to increase the system limit.\n",
	'hard limit below -c + 3: the error and hint');
is($out, '', 'hard limit below -c + 3: nothing on stdout');
if ($system)
{
	my @s = limited($system, 'n', 40, '-n', '-S', '-c', '60', '-t', '1');
	is($rc, $s[0], 'hard limit: exit code as the system pgbench');
	is($err, $s[2], 'hard limit: stderr as the system pgbench');
}

$node->stop;
done_testing();
