# fault_connect.pl — connections that never finish or cannot all be had:
# connect_timeout (conninfo and PGCONNECT_TIMEOUT) against a server that
# accepts and never answers, for the initial connections and for -C; -T
# ending -C clients still connecting; a server refusing clients beyond
# max_connections; listen queues (Unix socket and TCP) too short for the
# clients; many clients at once.  Messages and exit codes are compared with pgbench 15's.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;
use Time::HiRes ();

my $node = start_cluster(max_connections => 350);
my %env = %{ $node->env };
my $system = system_pgbench_path();
my $tmp = tempdir('fault_connect_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $script = write_file("$tmp/select1.sql", "SELECT 1;\n");
my $target = $node->host . '/.s.PGSQL.' . $node->port;

# A Unix socket listener in its own directory that passes its first
# $forward connections on to the cluster and holds every later one
# without a word: a server that accepts and never answers.  $backlog and
# $accept_pause (seconds slept after each accept) make its listen queue
# overflow under a crowd.  Returns (socket directory, port, pid).
my $proxy_port = 7000;
sub proxy
{
	my (%o) = @_;
	my $dir = tempdir('proxy_XXXXXX', DIR => $tmp);
	my $port = $proxy_port++;
	my $pid = start_proxy(path => "$dir/.s.PGSQL.$port", target => $target, %o);
	return ($dir, $port, $pid);
}

# Run ours and, when there, pgbench 15 with the same arguments through a
# fresh proxy each; exact stderr and exit code must agree.  Returns ours.
sub against_proxy
{
	my ($name, $forward, $extra_env, $conninfo, @args) = @_;
	my @result;
	for my $who ('ours', 'system')
	{
		next if $who eq 'system' && !$system;
		my ($dir, $port, $pid) = proxy(forward => $forward);
		my $ci = "host=$dir port=$port $conninfo";
		my $t0 = Time::HiRes::time();
		my @r = $who eq 'ours'
		  ? pgbench([ @args, $ci ], env => { %env, %$extra_env }, timeout => 120)
		  : system_pgbench([ @args, $ci ], env => { %env, %$extra_env }, timeout => 120);
		my $secs = Time::HiRes::time() - $t0;
		stop_proxy($pid);
		# the socket path differs between the two runs; our client-bound
		# warning is printed whenever a loaded machine kept the worker
		# thread waiting for a CPU (seen under AddressSanitizer in CI)
		$r[2] = without_client_bound($r[2]);
		$r[2] =~ s/\Q$dir\E/PROXY/g;
		$r[2] =~ s/\.s\.PGSQL\.$port/.s.PGSQL.PORT/g;
		if ($who eq 'ours')
		{
			@result = (@r, $secs);
			cmp_ok($secs, '<', 30, "$name: ends well within 30 s");
		}
		else
		{
			is($result[0], $r[0], "$name: exit code as pgbench 15");
			is($result[2], $r[2], "$name: stderr as pgbench 15");
		}
	}
	return @result;
}

my $timeout_line = qq{pgbench: error: connection to server on socket "PROXY/.s.PGSQL.PORT" failed: timeout expired\n};

# ---- the initial connections -------------------------------------------------

# the first connection (set-up) goes through; the clients' never answer
for my $case ([ 'conninfo', {}, 'connect_timeout=2' ], [ 'PGCONNECT_TIMEOUT', { PGCONNECT_TIMEOUT => 2 }, '' ])
{
	my ($how, $e, $ci) = @$case;
	my @r = against_proxy("initial connect, $how", 1, $e, $ci, '-n', '-f', $script, '-c', '3', '-t', '1');
	is($r[0], 1, "initial connect, $how: exit code 1");
	is($r[2], $timeout_line . "pgbench: error: could not create connection for client 0\n",
		"initial connect, $how: libpq's timeout message and the client");
}

# ---- -C ------------------------------------------------------------------------

for my $case ([ 'conninfo', {}, 'connect_timeout=2' ], [ 'PGCONNECT_TIMEOUT', { PGCONNECT_TIMEOUT => 2 }, '' ])
{
	my ($how, $e, $ci) = @$case;
	my @r = against_proxy("-C, $how", 1, $e, $ci, '-n', '-C', '-f', $script, '-c', '2', '-t', '1');
	is($r[0], 2, "-C, $how: exit code 2");
	is($r[2],
		join('', map { $timeout_line . "pgbench: error: client $_ aborted while establishing connection\n" } 0, 1)
		  . "pgbench: error: Run was aborted; the above results are incomplete.\n",
		"-C, $how: each client aborts with libpq's timeout message");
	like($r[1], qr/^number of transactions actually processed: 0\/2$/m, "-C, $how: nothing processed");
}

# -T ends a -C client whose connection never answers, with no timeout at
# all (pgbench 15 would wait for ever): four transactions get through,
# then the fifth connection hangs until -T is over.
{
	my ($dir, $port, $pid) = proxy(forward => 5);
	my ($rc, $out, $err) = pgbench([ '-n', '-C', '-f', $script, '-c', '2', '-T', '3', "host=$dir port=$port" ],
		env => \%env, timeout => 120);
	stop_proxy($pid);
	is($rc, 0, '-C, no timeout, -T 3: the run ends, exit code 0');
	is($err, '', '-C, no timeout, -T 3: no error');
	like($out, qr/^number of transactions actually processed: [0-4]$/m,
		'-C, no timeout, -T 3: at most the four transactions that had a connection');
}

# ---- a crowd -------------------------------------------------------------------

# A listen queue of 2 that takes 10 ms per accept, 40 clients: connect()
# finds the queue full ("Resource temporarily unavailable") and tries again.
for my $mode ([ 'initial' ], [ '-C', '-C' ])
{
	my ($name, @c) = @$mode;
	my ($dir, $port, $pid) = proxy(forward => 1000, backlog => 2, accept_pause => 0.01);
	my ($rc, $out, $err) = pgbench([ '-n', @c, '-f', $script, '-c', '40', '-j', '2', '-t', '2', "host=$dir port=$port" ],
		env => \%env, timeout => 300);
	stop_proxy($pid);
	is($rc, 0, "listen queue of 2, 40 clients, $name: exit code 0");
	is($err, '', "listen queue of 2, 40 clients, $name: no error");
	like($out, qr/^number of transactions actually processed: 80\/80$/m,
		"listen queue of 2, 40 clients, $name: every transaction processed");
}

# 300 clients against a cluster with room for them
{
	my ($rc, $out, $err) = pgbench([ '-n', '-f', $script, '-c', '300', '-j', '2', '-t', '2' ],
		env => \%env, timeout => 300);
	is($rc, 0, '-c 300: exit code 0');
	like($out, qr/^number of transactions actually processed: 600\/600$/m,
		'-c 300: every transaction processed');
}

# More clients than max_connections: the server's refusal, once.  pgbench
# 15 connects one after the other and names client 20; we keep several
# attempts in flight and name the lowest-numbered client refused.  Which
# attempt the server refuses first is the scheduler's choice: on a busy
# machine a later client's backend may take the last slot before an
# earlier one's (seen: client 9 under two CPU hogs), and a backend that
# has not finished exiting holds its slot a while.  So the client named is
# any of them up to pgbench's 20, never one beyond.
{
	my $small = start_cluster(max_connections => 20);
	my %senv = %{ $small->env };
	my @args = ('-n', '-f', $script, '-c', '30', '-j', '1', '-t', '1');
	my ($rc, $out, $err) = pgbench(\@args, env => \%senv);
	my $sock = $small->host . '/.s.PGSQL.' . $small->port;
	is($rc, 1, 'max_connections 20, -c 30: exit code 1');
	my $mask = sub { my ($s) = @_; $s =~ s/for client \d+/for client N/; return $s };
	is($mask->($err),
		qq{pgbench: error: connection to server on socket "$sock" failed: FATAL:  sorry, too many clients already\n}
		  . "pgbench: error: could not create connection for client N\n",
		'max_connections 20, -c 30: the server\'s message once');
	like($err, qr/for client ([0-9]|1[0-9]|20)$/m, 'max_connections 20, -c 30: a client up to 20 refused');
	if ($system)
	{
		my @s = system_pgbench(\@args, env => \%senv);
		is($rc, $s[0], 'max_connections 20: exit code as pgbench 15');
		is($mask->($err), $mask->($s[2]), 'max_connections 20: stderr as pgbench 15 (client masked)');
	}
	$small->stop;
}

# A TCP listen queue of 4: the server in a network namespace of its own
# (loopback only) whose net.core.somaxconn is 4.  A full TCP queue drops
# the connection request and the kernel sends it again a second later, so
# this is slow, but every client must get through.  Needs root and
# network namespaces.
SKIP:
{
	my $ns = "pgbt_fc_$$";
	skip 'TCP listen queue: needs root to make a network namespace', 3 if $> != 0;
	my ($nrc) = run_cmd([ 'ip', 'netns', 'add', $ns ]);
	skip 'TCP listen queue: cannot make a network namespace here', 3 if $nrc != 0;
	my ($src) = run_cmd([ 'ip', 'netns', 'exec', $ns, 'sh', '-c',
		'ip link set lo up && sysctl -qw net.core.somaxconn=4' ]);
	if ($src != 0)
	{
		run_cmd([ 'ip', 'netns', 'del', $ns ]);
		skip 'TCP listen queue: cannot set net.core.somaxconn in a namespace', 3;
	}
	my $tcp = start_cluster(max_connections => 150, netns => $ns,
		settings => "listen_addresses = '127.0.0.1'\n");
	my ($rc, $out, $err) = run_cmd([ 'ip', 'netns', 'exec', $ns, our_pgbench_path(),
		'-n', '-f', $script, '-c', '100', '-j', '2', '-t', '1', '-h', '127.0.0.1', '-p', $tcp->port ],
		env => { %env, PGHOST => undef }, timeout => 300);
	is($rc, 0, 'TCP listen queue of 4, 100 clients: exit code 0');
	is(without_client_bound($err), '', 'TCP listen queue of 4, 100 clients: no error (but a client-bound warning)');
	like($out, qr/^number of transactions actually processed: 100\/100$/m,
		'TCP listen queue of 4, 100 clients: every transaction processed');
	$tcp->stop;
	run_cmd([ 'ip', 'netns', 'del', $ns ]);
}

$node->stop;
done_testing();
