# run_connect.pl — many clients: -c 1000 -j 2 connected concurrently
# against a cluster with room for them, the open-files limit raised when
# the soft limit is too low, and pgbench's error when the hard limit is.
use strict;
use warnings;

use PgbTest;
use Test::More;
use Time::HiRes qw(time);

my $node = start_cluster(max_connections => 1100);
my %env = %{ $node->env };
my $system = system_pgbench_path();

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');

my $num = qr/\d+\.\d+/;

# ---- a thousand clients on two threads -------------------------------------

my $t0 = time;
($rc, $out, $err) = pgbench([ '-n', '-S', '-c', '1000', '-j', '2', '-t', '2' ], env => \%env);
my $elapsed = time - $t0;
is($rc, 0, '-c 1000 -j 2: exit code');
is($err, '', '-c 1000 -j 2: no message');
like($out,
	qr/^number of clients: 1000\nnumber of threads: 2\nmaximum number of tries: 1\nnumber of transactions per client: 2\nnumber of transactions actually processed: 2000\/2000\n/m,
	'-c 1000 -j 2: every client ran');
like($out, qr/^initial connection time = $num ms\ntps = $num \(without initial connection time\)\n\z/m,
	'-c 1000 -j 2: connection time and tps');
diag(sprintf('-c 1000 -j 2 took %.2f s', $elapsed));
is($node->psql("select count(*) from pg_stat_activity where application_name = 'pgbench'"), 0,
	'-c 1000: every connection is closed at the end');

# ---- RLIMIT_NOFILE ---------------------------------------------------------

# Run a pgbench under a lowered limit: "S -n" the soft one only, "n" both.
sub limited
{
	my ($prog, $kind, $limit, @args) = @_;
	return run_cmd([ 'bash', '-c', "ulimit -$kind $limit && exec \"\$0\" \"\$@\"", $prog, @args ],
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
