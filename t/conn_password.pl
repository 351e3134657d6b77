# conn_password.pl — connecting when the server asks for a password:
# pgbench's one prompt ("Password: ") read from the terminal or, without
# one, from standard input; PGPASSWORD; and the error when none is given.
use strict;
use warnings;
use PgbTest;
use Test::More;

my $node = start_cluster();
# a SCRAM verifier whatever the server's default (md5 up to PostgreSQL 13)
$node->psql("SET password_encryption = 'scram-sha-256'; CREATE ROLE pwuser LOGIN SUPERUSER PASSWORD 'sekret'");

# Password authentication for pwuser only, ahead of initdb's trust lines.
my $hba = "$node->{data}/pg_hba.conf";
my $rules = slurp($hba);
write_file($hba, "local all pwuser scram-sha-256\n" . $rules);
$node->psql('SELECT pg_reload_conf()');
# the server reloads in the background: wait until pwuser is asked for a
# password (psql -w fails instead of prompting) rather than a fixed second
my $asked = PgbTest::poll_until(sub {
	my ($rc, $out, $err) = run_cmd([ $node->psql_path, '-w', '-XAtq', '-h', $node->host,
			'-p', $node->port, '-U', 'pwuser', '-d', 'postgres', '-c', 'select 1' ],
		env => { PGPASSWORD => undef });
	return $rc != 0 && $err =~ /password/;
}, 60);
ok($asked, 'pg_hba.conf reloaded: pwuser needs a password');

my %env = (%{ $node->env }, PGUSER => 'pwuser', PGPASSWORD => undef);

# setsid: no controlling terminal, so the prompt falls back to stdin.
sub run_detached
{
	my ($stdin, @args) = @_;
	return run_cmd([ 'setsid', '-w', our_pgbench_path(), @args ], stdin => $stdin,
		env => \%env);
}

my ($rc, $out, $err) = run_detached("sekret\n", '-i', '-s', '1', '-q');
is($rc, 0, 'init: password read from stdin after the prompt');
like($err, qr/^Password: /, 'init: the prompt is shown');
like($err, qr/^done in /m, 'init: completed');

($rc, $out, $err) = run_detached("sekret\n", '-n', '-c', '4', '-j', '2', '-t', '5', '-S');
is($rc, 0, 'run: one prompt, then every client connects with it');
is(() = $err =~ /Password: /g, 1, 'run: prompted exactly once');
like($out, qr/^number of transactions actually processed: 20\/20$/m, 'run: all transactions');

($rc, $out, $err) = run_detached("wrong\n", '-n', '-t', '1', '-S');
is($rc, 1, 'wrong password: exit code 1');
like($err, qr/password authentication failed for user "pwuser"/, 'wrong password: libpq message');
like($err, qr/^pgbench: error: could not create connection for setup$/m, 'wrong password: pgbench message');

($rc, $out, $err) = run_cmd([ 'setsid', '-w', our_pgbench_path(), '-n', '-t', '1', '-S' ],
	stdin => '', env => { %env, PGPASSWORD => 'sekret' });
is($rc, 0, 'PGPASSWORD: no prompt needed');
unlike($err, qr/Password: /, 'PGPASSWORD: nothing asked');

$node->stop;
done_testing();
