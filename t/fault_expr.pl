# fault_expr.pl — expressions no stack could recurse through: long sums,
# deep parentheses, nested calls and CASEs.  Each gives the right value
# (stored in a table by the script, then read back) or a clear error and
# exit code 1, never a crash; where pgbench 15 gets through, ours gives the
# same value or the same message.  pgbench 15 itself crashes on some
# (100,000-term sums): those are checked against the arithmetic only.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run ();
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbfexpr_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

$node->psql('create table fx (v text)');

sub rep { my ($unit, $n, $middle, $suffix) = @_; return ($unit x $n) . $middle . ($suffix x $n); }

# name, expression, the value (undef: an error), the first line of stderr
# when it is an error
my @CASES = (
	[ '12,000-term sum', rep('1+', 11999, '1', ''), '12000' ],
	[ '100,000-term sum', rep('1+', 99999, '1', ''), '100000' ],
	[ '100,000-term sum of a variable', rep(':one+', 99999, ':one', ''), '100000' ],
	[ '100,000-term AND chain', rep('true and ', 99999, 'true', ''), 'true' ],
	[ '9,990 nested parentheses', rep('(', 9990, '1', ')'), '1' ],
	[ '3,000 right-nested sums', rep('1+(', 3000, '1', ')'), '3001' ],
	[ '3,000 nested abs()', rep('abs(', 3000, '-1', ')'), '1' ],
	[ '3,000 nested CASE', rep('case when false then 0 else ', 3000, '7', ' end'), '7' ],
	[ '9,990 negations', rep('-', 9990, '5', ''), '5' ],
	[ '20,000 nested parentheses', rep('(', 20000, '1', ')'), undef,
		'pgbench: error: e.sql:2: memory exhausted in command "set"' ],
	[ '9,000 nested abs()', rep('abs(', 9000, '1', ')'), undef,
		'pgbench: error: e.sql:2: memory exhausted in command "set"' ],
	[ '700 nested greatest() of 16 arguments', rep('greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,', 700, '1', ')'),
		'1' ],
	[ '1,000 nested greatest() of 16 arguments', rep('greatest(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,', 1000, '2', ')'),
		'2' ],
);

# Run a binary on the expression: (exit code, or "signal N" when it
# crashed, stderr, the stored value).
sub run_expr
{
	my ($path, $expr) = @_;
	my ($out, $err) = ('', '');
	write_file('e.sql', "\\set one 1\n\\set x $expr\nINSERT INTO fx VALUES (:x);\n");
	$node->psql('truncate fx');
	local %ENV = (%ENV, %env);
	IPC::Run::run([ $path, '-n', '-t', '1', '-f', 'e.sql' ], '<', \undef, '>', \$out,
		'2>', \$err, IPC::Run::timeout(300));
	my $rc = $? & 127 ? 'signal ' . ($? & 127) : $? >> 8;
	return ($rc, $err, $node->psql('select v from fx'));
}

for my $case (@CASES)
{
	my ($name, $expr, $value, $message, $ours_only) = @$case;
	my ($rc, $err, $got) = run_expr(our_pgbench_path(), $expr);
	my ($first) = split /\n/, $err;

	if (defined $value)
	{
		is($rc, 0, "$name: exit code 0");
		is($got, $value, "$name: the value $value");
		is($err, '', "$name: nothing on stderr");
	}
	else
	{
		is($rc, 1, "$name: exit code 1");
		is($first, $message, "$name: the message");
		is($got, '', "$name: nothing ran");
	}
	next unless $system;

	# pgbench 15 as a black box: the same answer wherever it has one
	my ($src, $serr, $sgot) = run_expr($system, $expr);
	if ($src =~ /^signal/)
	{
		note("$name: pgbench 15 crashes ($src)");
		next;
	}
	if ($ours_only)
	{
		note("$name: pgbench 15 exits with $src, value " . ($sgot // 'none'));
		next;
	}
	is($rc, $src, "$name: exit code as pgbench 15");
	is($got, $sgot, "$name: value as pgbench 15");
	is($err, $serr, "$name: stderr as pgbench 15");
}

# \if takes the same path as \set
write_file('if.sql', "\\if " . rep('1+', 99999, '1', '') . " = 100000\nINSERT INTO fx VALUES ('then');\n\\endif\n");
$node->psql('truncate fx');
my ($rc, $out, $err) = pgbench([ '-n', '-t', '1', '-f', 'if.sql' ], env => \%env);
is($rc, 0, '\if on a 100,000-term sum: exit code 0');
is($node->psql('select v from fx'), 'then', '\if on a 100,000-term sum: the branch taken');

$node->stop;
done_testing();
