# run_meta.pl — meta-commands at run time against a real cluster: \set and
# debug(), \if chains, \sleep, \shell and \setshell, \gset and \aset,
# variable substitution in each protocol, the variables pgbench defines,
# fixed random seeds, and pipelines with their errors.  Each row states the
# exact stderr (debug() lines and error messages) and exit code; where the
# system pgbench is installed every row is also compared with it.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbmeta_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

$node->psql('create table t (k int primary key, v int)');
$node->psql('insert into t select g, g * 10 from generate_series(1, 5) g');

sub e { return join '', map { "pgbench: error: $_\n" } @_; }
my $aborted = e('Run was aborted; the above results are incomplete.');

sub d { my ($cmd, $v) = @_; return "debug(script=0,command=$cmd): $v\n"; }

# [ name, script, extra args, expected exit code, expected stderr,
#   pgbench 17 only (no comparison with the system pgbench 15/16) ]
my @ROWS = (
	[ 'set and debug', "\\set x 2 + 3\n\\set y debug(:x * 2)\n", [], 0, d(2, 'int 10') ],
	[ 'debug of each type',
		"\\set a debug(1.5)\n\\set b debug(true)\n\\set c debug(null)\n\\set d debug('x' is null)\n",
		[], 1, undef ],
	[ 'debug of each type, valid',
		"\\set a debug(1.5)\n\\set b debug(true)\n\\set c debug(null)\n",
		[], 0, d(1, 'double 1.5') . d(2, 'boolean true') . d(3, 'null') ],
	[ 'evaluation error aborts',
		"\\set x 1\n\\set y debug(:x / 0)\n", [], 2,
		e('division by zero',
			'client 0 aborted in command 1 (set) of script 0; evaluation of meta-command failed')
		  . $aborted ],
	[ 'if/elif/else chain',
		"\\set c 3\n\\if :c = 1\n\\set r debug(1)\n\\elif :c = 2\n\\set r debug(2)\n"
		  . "\\elif :c = 3\n\\set r debug(3)\n\\if false\n\\set z debug(99)\n\\else\n"
		  . "\\set z debug(98)\n\\endif\n\\else\n\\set r debug(4)\n\\endif\n"
		  . "\\if true\n\\set q debug(5)\n\\elif 1/0\n\\else\n\\set q debug(6)\n\\endif\n",
		[], 0, d(7, 'int 3') . d(11, 'int 98') . d(17, 'int 5') ],
	[ 'else branch', "\\if 0\n\\set a debug(1)\n\\else\n\\set a debug(2)\n\\endif\n",
		[], 0, d(4, 'int 2') ],
	[ 'if condition error',
		"\\if 1 / 0\n\\endif\n", [], 2,
		e('division by zero',
			'client 0 aborted in command 0 (if) of script 0; evaluation of meta-command failed')
		  . $aborted ],
	[ 'sleep with a variable', "\\set t 2\n\\sleep :t ms\n\\sleep 1 us\n\\sleep 0\n", [], 0, '' ],
	[ 'sleep with a bad variable', "\\sleep :t ms\n", [ '-D', 't=abc' ], 2,
		e('sleep: invalid sleep time "abc" for variable "t"',
			'client 0 aborted in command 0 (sleep) of script 0; execution of meta-command failed')
		  . $aborted ],
	[ 'setshell and shell',
		"\\setshell v echo 42\n\\set x debug(:v + 1)\n\\shell true :v\n", [], 0,
		d(2, 'int 43') ],
	[ 'setshell not an integer', "\\setshell v echo abc\n", [], 2,
		e(qq{echo: shell command must return an integer (not "abc}) . qq{")\n}
		  . e('client 0 aborted in command 0 (setshell) of script 0; execution of meta-command failed')
		  . $aborted ],
	[ 'setshell undefined variable', "\\setshell v echo :nope\n", [], 2,
		e('echo: undefined variable ":nope"',
			'client 0 aborted in command 0 (setshell) of script 0; execution of meta-command failed')
		  . $aborted ],
	[ 'shell failing', "\\shell false\n", [], 2,
		e('false: could not launch shell command',
			'client 0 aborted in command 0 (shell) of script 0; execution of meta-command failed')
		  . $aborted ],
	[ 'gset with a prefix',
		"SELECT 1 AS a, 2 AS b \\gset p_\n\\set x debug(:p_a + :p_b)\n", [], 0, d(2, 'int 3') ],
	[ 'gset of the last query of a compound',
		"SELECT 1 AS a \\; SELECT 2 AS b \\gset\n\\set x debug(:b)\n", [], 0, d(2, 'int 2') ],
	[ 'aset of every query',
		"SELECT 5 AS z \\; SELECT 6 AS y \\aset\n\\set x debug(:z * 10 + :y)\n", [], 0,
		d(2, 'int 56') ],
	[ 'gset of several rows',
		"SELECT k FROM t \\gset\n", [], 2,
		e('client 0 script 0 command 0 query 0: expected one row, got 5') . $aborted ],
	[ 'gset of no rows',
		"SELECT k FROM t WHERE false \\gset\n", [], 2,
		e('client 0 script 0 command 0 query 0: expected one row, got 0') . $aborted ],
	[ 'gset of a command',
		"UPDATE t SET v = v \\gset\n", [], 2,
		e('client 0 script 0 command 0 query 0: expected one row, got 0') . $aborted ],
	[ 'gset into an invalid name',
		"SELECT 1 \\gset\n", [], 2,
		e('gset: invalid variable name: "?column?"',
			'client 0 script 0 command 0 query 0: error storing into variable ?column?')
		  . $aborted ],
	[ 'substitution, simple',
		"\\set k 3\nSELECT v AS r FROM t WHERE k = :k \\gset\n\\set x debug(:r)\nSELECT ':k', ::k, :nope;\n",
		[], 2, undef ],
	[ 'substitution, simple, valid',
		"\\set k 3\nSELECT v AS r FROM t WHERE k = :k \\gset\n\\set x debug(:r)\n",
		[], 0, d(3, 'int 30') ],
	[ 'substitution, extended',
		"\\set k 4\nSELECT v AS r FROM t WHERE k = :k \\gset\n\\set x debug(:r)\n",
		[ '-M', 'extended' ], 0, d(3, 'int 40') ],
	[ 'substitution, prepared, twice',
		"\\set k random(1, 5)\nSELECT v / 10 - :k AS r FROM t WHERE k = :k \\gset\n\\set x debug(:r)\n",
		[ '-M', 'prepared', '-t', '3' ], 0, d(3, 'int 0') x 3 ],
	[ 'variables pgbench defines',
		"\\set x debug(:client_id * 1000 + :scale)\n", [ '-c', '2', '-s', '7' ], 0, undef ],
	[ 'fixed random seed',
		"\\set r debug(random(1, 1000))\n\\set s debug(:random_seed)\n\\set h debug(:default_seed)\n",
		[ '--random-seed=1' ], 0,
		"pgbench: setting random seed to 1\n"
		  . d(1, 'int 806') . d(2, 'int 1') . d(3, 'int -4077769369618924625') ],
	[ 'fixed random seed, second client',
		"\\if :client_id = 1\n\\set r debug(random(1, 1000))\n\\endif\n",
		[ '--random-seed=1', '-c', '2', '-j', '2' ], 0,
		"pgbench: setting random seed to 1\n" . d(2, 'int 215') ],
	[ 'end of script inside a transaction', "BEGIN;\nSELECT 1;\n", [ '-t', '2' ], 2,
		e('client 0 aborted: end of script reached without completing the last transaction')
		  . $aborted ],
	[ 'SQL error',
		"SELECT nosuch;\n", [], 2,
		e(qq{client 0 script 0 aborted in command 0 query 0: ERROR:  column "nosuch" does not exist})
		  . "LINE 1: SELECT nosuch;\n               ^\n" . $aborted ],
	[ 'pipeline, extended',
		"\\startpipeline\nSELECT 1;\nSELECT :client_id;\nUPDATE t SET v = v;\n\\endpipeline\nSELECT 2 AS two \\gset\n\\set x debug(:two)\n",
		[ '-M', 'extended', '-t', '2' ], 0, d(7, 'int 2') x 2 ],
	[ 'pipeline, prepared',
		"\\startpipeline\nSELECT 1;\nSELECT :client_id;\n\\endpipeline\nSELECT 2 AS two \\gset\n\\set x debug(:two)\n",
		[ '-M', 'prepared', '-t', '2', '-c', '2' ], 0, d(6, 'int 2') x 4 ],
	[ 'pipeline in simple mode', "\\startpipeline\nSELECT 1;\n\\endpipeline\n", [], 2,
		e('client 0 aborted in command 0 (startpipeline) of script 0; cannot use pipeline mode with the simple query protocol')
		  . $aborted ],
	[ 'nested pipeline', "\\startpipeline\n\\startpipeline\n\\endpipeline\n", [ '-M', 'extended' ],
		2, e('client 0 aborted in command 1 (startpipeline) of script 0; already in pipeline mode')
		  . $aborted ],
	[ 'endpipeline outside a pipeline', "\\endpipeline\n", [ '-M', 'extended' ], 2,
		e('client 0 aborted in command 0 (endpipeline) of script 0; not in pipeline mode')
		  . $aborted ],
	[ 'script ending with a pipeline open', "\\startpipeline\nSELECT 1;\n", [ '-M', 'extended' ], 2,
		e('client 0 aborted: end of script reached with pipeline open') . $aborted ],
	[ 'gset in a pipeline', "\\startpipeline\nSELECT 1 AS a \\gset\n\\endpipeline\n",
		[ '-M', 'extended' ], 2,
		e('client 0 aborted in command 1 (gset) of script 0; \\gset is not allowed in pipeline mode')
		  . $aborted ],
	[ 'error inside a pipeline', "\\startpipeline\nSELECT 1;\nSELECT 1/0;\n\\endpipeline\n",
		[ '-M', 'extended' ], 2,
		e('client 0 script 0 aborted in command 3 query 0: ERROR:  division by zero') . $aborted ],
	[ 'syncpipeline', "\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n",
		[ '-M', 'extended', '-t', '3' ], 0, '', 'pgbench 17' ],
	[ 'syncpipeline outside a pipeline', "\\syncpipeline\n", [ '-M', 'extended' ], 2,
		e('client 0 aborted in command 0 (syncpipeline) of script 0; not in pipeline mode')
		  . $aborted, 'pgbench 17' ],
);

my $n = 0;
for my $row (@ROWS)
{
	my ($name, $script, $args, $want_rc, $want_err, $v17) = @$row;
	my $file = 'm' . $n++ . '.sql';
	my @argv = ('-n', '-t', '1', '-f', $file, @$args);

	write_file($file, $script);
	my ($rc, $out, $err) = pgbench(\@argv, env => \%env);

	is($rc, $want_rc, "$name: exit code");
	is($err, $want_err, "$name: stderr") if defined $want_err;
	like($out, qr/^number of transactions actually processed: /m, "$name: a report")
	  unless $want_rc == 1;

	next if $v17 || !$system;
	my ($src, $sout, $serr) = system_pgbench(\@argv, env => \%env);
	is($rc, $src, "$name: exit code as the system pgbench");
	is($err, $serr, "$name: stderr as the system pgbench");
	(my $o1 = $out) =~ s/^pgbench \(.*\)\n//;
	(my $o2 = $sout) =~ s/^pgbench \(.*\)\n//;
	s/= [\d.]+ ms/= X ms/g, s/tps = [\d.]+/tps = X/ for $o1, $o2;
	is($o1, $o2, "$name: stdout as the system pgbench");
}

# -D variables reach every client; :client_id is theirs
write_file('cid.sql', "\\set x debug(:client_id * 100 + :d)\n");
my ($rc, $out, $err) = pgbench([ '-n', '-t', '1', '-c', '3', '-j', '3', '-D', 'd=7', '-f', 'cid.sql' ],
	env => \%env);
is($rc, 0, '-D with three clients: exit code');
is(join('', sort split /^/, $err), d(1, 'int 107') . d(1, 'int 207') . d(1, 'int 7'),
	'-D with three clients: each client sees d and its own client_id');

# --debug traces what each client does
write_file('dbg.sql', "\\set x 1\nSELECT :x;\n");
($rc, $out, $err) = pgbench([ '-n', '-t', '1', '-d', '-M', 'prepared', '-f', 'dbg.sql' ], env => \%env);
is($rc, 0, '--debug: exit code');
like($err,
	qr/^pgbench:\ pghost:\ \S+\ pgport:\ \d+\ nclients:\ 1\ nxacts:\ 1\ dbName:\ postgres\n
	   pgbench:\ client\ 0\ executing\ script\ "dbg\.sql"\n
	   pgbench:\ client\ 0\ executing\ \\set\ x\n
	   pgbench:\ client\ 0\ preparing\ P_0\n
	   pgbench:\ client\ 0\ sending\ P_0\n
	   (pgbench:\ client\ 0\ receiving\n)+\z/x,
	'--debug: the trace lines');

$node->stop;
done_testing();
