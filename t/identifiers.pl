# identifiers.pl — variables that SQL cannot take as parameters, in every
# query mode: a variable inside a double-quoted identifier (a table per
# client, "sbtest:client_id", the example of the client_id article) and
# psql's :'name' (a quoted literal) and :"name" (a quoted identifier).
# Checked on the database: each client touches only its own table; the
# texts sent are psql's for the same variables; under -M prepared each
# distinct text is prepared once per connection and the server never holds
# more of them than the client's cache (32) allows.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };

my $dir = tempdir('pgbident_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my @MODES = qw(simple extended prepared);
my $CACHE = 32;

for my $i (0 .. 2)
{
	$node->psql("create table sbtest$i (id int primary key, pad text)");
	$node->psql("insert into sbtest$i select g, 'x' from generate_series(1, 10) g");
}

# ---- the article's example, in every mode ----------------------------------

write_file('select.sql',
	"\\set id1 random(1, 10)\nSELECT pad FROM \"sbtest:client_id\" WHERE id = :id1;\n");
for my $mode (@MODES)
{
	my ($rc, $out, $err) = pgbench([ '-n', '-M', $mode, '-c', '3', '-j', '3', '-t', '20', '-r',
		'-f', 'select.sql' ], env => \%env);
	is($rc, 0, "$mode: the article's script runs");
	is($err, '', "$mode: no error");
	like($out, qr/^number of transactions actually processed: 60\/60$/m, "$mode: every transaction");
	# -r: one row per command, however many texts a command was prepared as
	my ($rows) = $out =~ /statement latencies in milliseconds and failures:\n((?:\s+\S.*\n)*)/;
	my @rows = split /\n/, $rows // '';
	is(scalar @rows, 2, "$mode: -r has one row per command");
	like($rows[1] // '', qr/^\s+\d+\.\d+\s+0  SELECT pad FROM "sbtest:client_id" WHERE id = :id1;$/,
		"$mode: -r shows the command as written");
}

# ---- each client updates only its own table --------------------------------

write_file('update.sql',
	"\\set id1 random(1, 10)\n"
	  . "UPDATE \"sbtest:client_id\" SET pad = 'c' || :client_id::text || '-' || :'mode' WHERE id = :id1;\n");
for my $mode (@MODES)
{
	$node->psql("update sbtest$_ set pad = 'x'") for 0 .. 2;
	my ($rc, $out, $err) = pgbench([ '-n', '-M', $mode, '-c', '3', '-j', '3', '-t', '30',
		'-D', "mode=$mode", '-f', 'update.sql' ], env => \%env);
	is($rc, 0, "$mode: the per-client update runs");
	is($err, '', "$mode: no error in the update");
	for my $i (0 .. 2)
	{
		is($node->psql("select count(*) filter (where pad not in ('x', 'c$i-$mode')), "
				. "count(*) filter (where pad = 'c$i-$mode') > 0 from sbtest$i"),
			'0|t', "$mode: sbtest$i holds client ${i}'s marks and no other client's");
	}
}

# ---- :'name' and :"name" give psql's text ----------------------------------

my $value = "it's a \\ b";
my $column = 'we"ird';
$node->psql(qq{create table q ("we""ird" int)});
$node->psql('insert into q values (7)');
$node->psql('create table res (mode text, lit text, same bool, col int, stmt text)');
my $select = qq{SELECT :'v' AS lit, :'v' = E'it\\'s a \\\\ b' AS same, :"c" AS col FROM q};

# psql -e echoes the query with the variables interpolated
my ($prc, $psql_out) = run_cmd([ $node->psql_path, '-X', '-e', '-q', '-v', "v=$value",
	'-v', "c=$column", '-h', $node->host, '-p', $node->port, '-U', 'postgres',
	'-d', 'postgres' ], stdin => "$select;\n");
my ($expected) = $psql_out =~ /^(SELECT .*);$/m;
is($expected, qq{SELECT  E'it''s a \\\\ b' AS lit,  E'it''s a \\\\ b' = E'it\\'s a \\\\ b' AS same, }
	  . qq{"we""ird" AS col FROM q}, 'psql quotes a backslash value as " E\'\'" and doubles "');

write_file('quote.sql', "$select \\gset\n"
	  . "INSERT INTO res SELECT :'mode', :'lit', :'same'::bool, :col, "
	  . "(SELECT string_agg(statement, ',' ORDER BY name) FROM pg_prepared_statements WHERE name LIKE 'PI%');\n");
for my $mode (@MODES)
{
	my ($rc, $out, $err) = pgbench([ '-n', '-M', $mode, '-t', '1', '-d', '-D', "v=$value",
		'-D', "c=$column", '-D', "mode=$mode", '-f', 'quote.sql' ], env => \%env);
	is($rc, 0, "$mode: the quoting script runs");
	# pgbench's command ends where \gset starts: with a blank, no semicolon
	my @sent = $err =~ /^pgbench: client 0 sending (SELECT .*?) $/mg;
	is($sent[0], $expected, "$mode: the text sent is psql's") if $mode ne 'prepared';
	like($err, qr/^pgbench: client 0 preparing PI_0$/m, "$mode: prepared under a generated name")
	  if $mode eq 'prepared';
}
is($node->psql("select mode, lit, same, col, coalesce(stmt, '-') from res order by mode"),
	"extended|$value|t|7|-\n"
	  . "prepared|$value|t|7|$expected ,INSERT INTO res SELECT 'prepared',  E'it''s a \\\\ b', 't'::bool, \$1, "
	  . "(SELECT string_agg(statement, ',' ORDER BY name) FROM pg_prepared_statements WHERE name LIKE 'PI%');\n"
	  . "simple|$value|t|7|-",
	'\gset stores the quoted values back; prepared mode prepared psql\'s text');

# an unset variable stays as written, as psql leaves it
my ($rc, $out, $err) = pgbench([ '-n', '-M', 'prepared', '-t', '1', '-f', 'quote.sql' ],
	env => \%env);
is($rc, 2, 'an unset :\'v\' is sent as written');
like($err, qr/syntax error at or near ":"/, 'the server sees the colon');

# ---- the cache: more distinct texts than it holds --------------------------

$node->psql('create table cnt (n int, v text)');
write_file('evict.sql',
	"\\set t :t + 1\n"
	  . "SELECT :'t' AS v, (SELECT count(*) FROM pg_prepared_statements) AS n \\gset\n"
	  . "INSERT INTO cnt VALUES (:n, :v);\n");
($rc, $out, $err) = pgbench([ '-n', '-M', 'prepared', '-c', '2', '-t', '200', '-D', 't=0',
	'-f', 'evict.sql' ], env => \%env);
is($rc, 0, 'prepared: 200 distinct texts per client run');
is($err, '', 'prepared: no error while evicting');
is($node->psql('select count(*), count(distinct v), max(n) from cnt'), "400|200|" . ($CACHE + 1),
	"prepared: at most $CACHE dynamic statements (and the INSERT) on the server");

# the same in a pipeline: DEALLOCATE, Parse and Bind are queued together
$node->psql('truncate cnt');
write_file('evict_pipe.sql',
	"\\set t :t + 1\n\\startpipeline\n"
	  . "SELECT :'t' AS v;\n"
	  . "INSERT INTO cnt SELECT count(*), :'t' FROM pg_prepared_statements;\n"
	  . "\\endpipeline\n");
($rc, $out, $err) = pgbench([ '-n', '-M', 'prepared', '-c', '2', '-t', '100', '-D', 't=0',
	'-f', 'evict_pipe.sql' ], env => \%env);
is($rc, 0, 'prepared pipeline: 100 distinct texts per client run');
is($err, '', 'prepared pipeline: no error');
is($node->psql('select count(*), count(distinct v), max(n) from cnt'), "200|100|$CACHE",
	"prepared pipeline: at most $CACHE statements on the server");

# -C: every transaction a new session, with nothing prepared on it
($rc, $out, $err) = pgbench([ '-n', '-M', 'prepared', '-C', '-c', '3', '-t', '5',
	'-f', 'select.sql' ], env => \%env);
is($rc, 0, 'prepared -C: each session prepares again');
is($err, '', 'prepared -C: no error');

# a table that does not exist: that client fails, the others go on
($rc, $out, $err) = pgbench([ '-n', '-M', 'prepared', '-c', '4', '-j', '2', '-t', '5',
	'-f', 'select.sql' ], env => \%env);
is($rc, 2, 'prepared: a missing table aborts its client');
like($err, qr/relation "sbtest3" does not exist/, 'prepared: the server names the missing table');
like($out, qr/^number of transactions actually processed: 15\/20$/m, 'the other clients finish');

done_testing();
