# server_info.pl — the report's "server" member against a real server of
# each major (CI runs it on 13 to 18): the version, the key settings as
# pg_settings has them, the settings not at their default, the system
# identifier for a superuser; a role without pg_monitor gets the same run
# with pg_control_system() named unreadable, not an error; a setting that
# may hold a secret (primary_conninfo with a password) is masked and its
# secret reaches no output.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $secret = 's3cretpw4567';
my $node = start_cluster(settings => "work_mem = '7MB'\n"
	  . "primary_conninfo = 'host=nowhere user=rep password=$secret'\n");
my %env = %{ $node->env };
my $dir = tempdir('pgbserver_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
my $one = write_file("$dir/one.sql", "select 1;\n");

my ($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '--report-json=s.json',
		'--report-html=s.html' ], env => \%env);
is($rc, 0, 'a run with report files') or diag($err);
my $sv = decode_json(slurp('s.json'))->{server};
is($sv->{version_num}, $node->version_num, 'version_num: the server\'s');
like($sv->{version}, qr/^PostgreSQL \d+/, 'version(): the server\'s text');
like($sv->{system_identifier} // '', qr/^\d{10,20}$/, 'a superuser reads the system identifier');
is_deeply($sv->{unreadable}, [], 'nothing unreadable for a superuser');
is_deeply($sv->{settings}{work_mem}, { value => '7168', unit => 'kB', source => 'configuration file' },
	'work_mem as pg_settings has it');
ok(defined $sv->{settings}{$_}, "$_ is read") for qw(shared_buffers max_wal_size fsync data_checksums);
my ($wm) = grep { $_->{name} eq 'work_mem' } @{ $sv->{non_default} };
ok($wm, 'work_mem among the settings not at their default');
my ($pc) = grep { $_->{name} eq 'primary_conninfo' } @{ $sv->{non_default} };
is($pc && $pc->{value}, '********', 'primary_conninfo: masked');
unlike(slurp('s.json') . slurp('s.html') . $out . $err, qr/\Q$secret\E/, 'its password reaches no output');
unlike($out, qr/work_mem|system identifier|7168/, 'stdout stays pgbench\'s');

# a role without pg_monitor or superuser
$node->psql('CREATE ROLE plain LOGIN');
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5', '-U', 'plain', '--report-json=p.json' ],
	env => \%env);
is($rc, 0, 'a plain role: the run goes on') or diag($err);
is($err, '', 'nothing on stderr');
$sv = decode_json(slurp('p.json'))->{server};
# pg_control_system() is the one read a server may refuse such a role
ok(!grep({ $_ ne 'pg_control_system()' } @{ $sv->{unreadable} }), 'at most pg_control_system() unreadable: '
	  . join(', ', @{ $sv->{unreadable} }));
is(defined $sv->{system_identifier} ? 1 : 0, @{ $sv->{unreadable} } ? 0 : 1,
	'the system identifier exactly when it was readable');
is($sv->{settings}{work_mem}{value}, '7168', 'the settings are still read');
ok(!grep({ $_->{name} eq 'primary_conninfo' && $_->{value} ne '********' } @{ $sv->{non_default} }),
	'primary_conninfo: absent (superuser-only) or masked');

# no report file: nothing is read (one set-up connection, as pgbench)
($rc, $out, $err) = pgbench([ '-n', '-f', $one, '-t', '5' ], env => \%env);
is($rc, 0, 'a run without report files') or diag($err);

done_testing();
