# conn_password.pl — connecting when the server asks for a password:
# pgbench's one prompt ("Password: ") read from the terminal or, without
# one, from standard input; PGPASSWORD; and the error when none is given.
# Then secrets never leave: runs and initializations that authenticate
# with a password from PGPASSWORD, a ~/.pgpass file, a conninfo string or
# a URI (user:password@, ?password=, %70assword=, percent-encoded), with
# every output there is (report files, -l logs, -P, -r, --debug,
# --rendezvous), and the failures around them (a wrong password, strings
# libpq cannot parse, one argument too many): no stdout, stderr or file
# written holds the password.
use strict;
use warnings;
use File::Temp qw(tempdir);
use JSON::PP;
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

# ---- secrets never leave ------------------------------------------------------

my $secret = 'SECRETXYZ';
# the same password, percent-encoded in part (%53 is S): both must stay hidden
my $leak = qr/ECRETXYZ/i;
$node->psql("SET password_encryption = 'scram-sha-256'; ALTER ROLE pwuser PASSWORD '$secret'");
my ($sock, $port) = ($node->host, $node->port);
(my $sock_uri = $sock) =~ s{/}{%2F}g;
my %bare = (%env, PGHOST => undef, PGPORT => undef, PGUSER => undef, PGDATABASE => undef);
my $conninfo = "host=$sock port=$port user=pwuser dbname=postgres";
my $uri = "postgresql://pwuser:$secret\@$sock_uri:$port/postgres";
my $base = tempdir('pgbsecret_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $pgpass = "$base/pgpass";
write_file($pgpass, "*:*:*:pwuser:$secret\n");
chmod 0600, $pgpass;

# Runs pgbench in a directory of its own; every file left there, stdout and
# stderr must be free of the secret.  Returns (exit code, stdout, stderr,
# the JSON report's command_line when there is one).
my $n = 0;
sub secret_run
{
	my ($name, $env, @args) = @_;
	my $dir = "$base/" . ++$n;
	mkdir $dir or die "$dir: $!";
	chdir $dir or die "$dir: $!";
	my ($rc, $out, $err) = run_cmd([ 'setsid', '-w', our_pgbench_path(), @args ], stdin => '',
		env => { %bare, PGPASSWORD => undef, PGPASSFILE => "$base/none", %$env });
	chdir $base;
	my @leaks = grep { $_ =~ $leak } ("stdout: $out", "stderr: $err");
	opendir(my $dh, $dir) or die "$dir: $!";
	my @files = sort grep { -f "$dir/$_" } readdir $dh;
	push @leaks, grep { slurp("$dir/$_") =~ $leak } @files;
	is_deeply(\@leaks, [], "$name: no secret in stdout, stderr or @files");
	my $json = -s "$dir/r.json" ? decode_json(slurp("$dir/r.json")) : undef;
	return ($rc, $out, $err, $json ? $json->{command_line} : undef);
}

my @report = ('--report-json=r.json', '--report-html=r.html');
my @every = ('-n', '-c', '2', '-j', '2', '-t', '20', '-S', '-P', '1', '-l', '-r', @report);
my $masked = "password=******** dbname=postgres";
my @cmd;

($rc, $out, $err) = secret_run('-i, PGPASSWORD', { PGPASSWORD => $secret },
	'-i', '-s', '1', '-q', $conninfo);
is($rc, 0, '-i, PGPASSWORD: initialized') or diag($err);

($rc, $out, $err, my $cl) = secret_run('run, PGPASSWORD, --debug', { PGPASSWORD => $secret },
	'--compat=16', '-d', @every, $conninfo);
is($rc, 0, 'run, PGPASSWORD, --debug: exit code 0') or diag($err);
like($err, qr/^pgbench: client 0 sending /m, 'run, PGPASSWORD, --debug: debug lines written');
is($cl->[-1], "user=pwuser dbname=postgres host=$sock port=$port",
	'run, PGPASSWORD: a conninfo without a secret is rebuilt by libpq');

($rc, $out, $err) = secret_run('run, ~/.pgpass', { PGPASSFILE => $pgpass }, @every, $conninfo);
is($rc, 0, 'run, a password file: exit code 0') or diag($err);

($rc, $out, $err, $cl) = secret_run('URI user:password@', {}, @every, $uri);
is($rc, 0, 'URI user:password@: exit code 0') or diag($err);
is($cl->[-1], "user=pwuser $masked host=$sock port=$port", 'URI user:password@: shown masked');

($rc, $out, $err, $cl) = secret_run('URI %70assword=, percent-encoded, --rendezvous', {},
	@every, '--rendezvous=secrets:1',
	"postgresql://pwuser\@$sock_uri:$port/postgres?%70assword=%53ECRETXYZ");
is($rc, 0, 'URI %70assword=: exit code 0') or diag($err);
is($cl->[-1], "user=pwuser $masked host=$sock port=$port", 'URI %70assword=: shown masked');

($rc, $out, $err, $cl) = secret_run('conninfo --dbname=', {}, '--compat=17', '--debug', @every,
	"--dbname=$conninfo password='$secret' sslpassword=$secret");
is($rc, 0, 'conninfo --dbname=: exit code 0') or diag($err);
my ($dbname_arg) = grep { /^--dbname=/ } @$cl;
is($dbname_arg, "--dbname=user=pwuser $masked host=$sock port=$port sslpassword=********",
	'conninfo --dbname=: password and sslpassword masked');

($rc, $out, $err) = secret_run('-i, conninfo -d', {}, '--compat=17', '-i', '-I', 'dtg', '-q',
	'-d', "$conninfo password=$secret");
is($rc, 0, '-i, conninfo -d: initialized') or diag($err);

# ---- the failures around them ----

($rc, $out, $err) = secret_run('wrong password', {}, '-n', '-t', '1', @report,
	"$conninfo password=${secret}wrong");
is($rc, 1, 'wrong password: exit code 1');
like($err, qr/password authentication failed for user "pwuser"/, 'wrong password: libpq message');

# (a run that fails to start writes no command line into its report)
($rc, $out, $err) = secret_run('unparsable URI', {}, '-n', '-t', '1', @report,
	"postgresql://pwuser:$secret\@[/postgres");
is($rc, 1, 'unparsable URI: exit code 1');
like($err, qr/^pgbench: error: end of string reached when looking for matching "\]" in IPv6 host address in URI: "\.\.\."$/m,
	'unparsable URI: libpq\'s reason, the URI not quoted');

($rc, $out, $err) = secret_run('bad percent-encoding', {}, '-n', '-t', '1', @report,
	"postgresql://pwuser:$secret%zz\@/postgres");
like($err, qr/^pgbench: error: invalid percent-encoded token: "\.\.\."$/m,
	'bad percent-encoding: the token not quoted');

($rc, $out, $err) = secret_run('unknown keyword', {}, '-n', '-t', '1', @report,
	"$conninfo password=$secret $secret=1");
like($err, qr/^pgbench: error: invalid connection option "\.\.\."$/m, 'unknown keyword: not quoted');

($rc, $out, $err) = secret_run('one argument too many', {}, '--compat=17', '-n', '-t', '1',
	'-d', 'postgres', "$conninfo password=$secret");
like($err, qr/too many command-line arguments \(first is "user=pwuser \Q$masked\E host=\S+ port=\d+"\)/,
	'one argument too many: shown masked');

$node->stop;
done_testing();
