# expr_diff.pl — differential test of expression evaluation: the same
# "\set xN debug(<expr>)" scripts run by the system pgbench (the oracle)
# and by ours; the debug() lines on stderr must agree byte for byte, one
# check per expression, for two random seeds.  Scripts that fail at run
# time must fail the same way (exit code and every stderr line).
#
# The tables below are the whole test; add an expression by adding a row.
use strict;
use warnings;

use File::Temp qw(tempdir);
use Test::More;

use PgbTest;

# some 35 runs: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

# Seeds every expression script runs under.
my @SEEDS = (1, 424242);

# [ expression, expected oracle output or undef ]
# The expected column pins a few values so that the test also notices a
# wrong oracle or a broken harness; undef rows are compared only.
my @EXPRESSIONS = (
	# literals
	[ '1',                            'int 1' ],
	[ '-1',                           'int -1' ],
	[ '9223372036854775807',          'int 9223372036854775807' ],
	[ '-9223372036854775808',         'int -9223372036854775808' ],
	[ '1.5',                          'double 1.5' ],
	[ '.5',                           'double 0.5' ],
	[ '1.',                           'double 1' ],
	[ '1e3',                          'double 1000' ],
	[ '1.5E-2',                       'double 0.015' ],
	[ '123.456e+2',                   'double 12345.6' ],
	[ '123456789012345678.0',         'double 1.23456789012346e+17' ],
	[ 'true',                         'boolean true' ],
	[ 'FALSE',                        'boolean false' ],
	[ 'null',                         'null' ],
	[ 'NULL',                         'null' ],

	# arithmetic, precedence, int/double mixing
	[ '1 + 2',                        'int 3' ],
	[ '7 - 10',                       'int -3' ],
	[ '6 * 7',                        'int 42' ],
	[ '7 / 2',                        'int 3' ],
	[ '-7 / 2',                       'int -3' ],
	[ '7 % 3',                        'int 1' ],
	[ '-7 % 3',                       'int -1' ],
	[ '7 % -3',                       undef ],
	[ '-9223372036854775808 % -1',    'int 0' ],
	[ '-(3)',                         'int -3' ],
	[ '- 2.5',                        'double -2.5' ],
	[ '- -4',                         undef ],
	[ '2 + 3 * 4',                    'int 14' ],
	[ '(2 + 3) * 4',                  'int 20' ],
	[ '10 - 2 - 3',                   'int 5' ],
	[ '100 / 10 / 5',                 'int 2' ],
	[ '1 + 2.5',                      'double 3.5' ],
	[ '2.5 * 2',                      'double 5' ],
	[ '7.0 / 2',                      'double 3.5' ],
	[ '7 / 2.0',                      'double 3.5' ],
	[ '0.1 + 0.2',                    'double 0.3' ],
	[ '1.0e15 + 0.3',                 undef ],
	[ '1 / 3.0',                      undef ],
	[ '1.0 / 0',                      undef ],
	[ '1e308 * 10',                   undef ],
	[ '-9223372036854775807 - 1',     'int -9223372036854775808' ],
	[ '9223372036854775807 + 0.0',    undef ],

	# logic (three-valued)
	[ 'true and false',               'boolean false' ],
	[ 'true or false',                'boolean true' ],
	[ 'not true',                     'boolean false' ],
	[ 'not false',                    'boolean true' ],
	[ 'null and true',                'null' ],
	[ 'null or true',                 undef ],
	[ 'false and null',               'boolean false' ],
	[ 'true or null',                 undef ],
	[ 'not null',                     'null' ],
	[ '1 < 2 and 2 < 3 or false',     'boolean true' ],
	[ 'not 1 = 2',                    'boolean true' ],

	# bitwise
	[ '12 & 10',                      'int 8' ],
	[ '12 | 10',                      'int 14' ],
	[ '12 # 10',                      'int 6' ],
	[ '~ 5',                          'int -6' ],
	[ '~ -1',                         undef ],
	[ '1 << 62',                      'int 4611686018427387904' ],
	[ '1 << 63',                      undef ],
	[ '-16 >> 2',                     'int -4' ],
	[ '255 & -256',                   undef ],
	[ '1 | 2 # 3 & 4',                undef ],

	# comparisons
	[ '1 = 1',                        'boolean true' ],
	[ '1 = 1.0',                      'boolean true' ],
	[ '1 <> 2',                       'boolean true' ],
	[ '1 != 1',                       'boolean false' ],
	[ '1 < 2',                        'boolean true' ],
	[ '2 <= 2',                       'boolean true' ],
	[ '3 > 2.5',                      'boolean true' ],
	[ '2 >= 3',                       'boolean false' ],
	[ '0.1 + 0.2 = 0.3',              undef ],
	[ '1 = null',                     undef ],

	# IS [NOT] NULL / TRUE / FALSE, ISNULL, NOTNULL
	[ 'null is null',                 'boolean true' ],
	[ '1 is null',                    'boolean false' ],
	[ '1 is not null',                'boolean true' ],
	[ 'null is not null',             'boolean false' ],
	[ 'null isnull',                  'boolean true' ],
	[ '2 notnull',                    'boolean true' ],
	[ 'true is true',                 'boolean true' ],
	[ 'false is true',                'boolean false' ],
	[ 'true is not false',            'boolean true' ],
	[ 'false is false',               'boolean true' ],
	[ 'null is false',                'boolean false' ],
	[ '1 is true',                    'boolean false' ],
	[ '1 is not true',                'boolean true' ],

	# CASE
	[ 'case when true then 1 else 2 end',                          'int 1' ],
	[ 'case when false then 1 else 2 end',                         'int 2' ],
	[ 'case when false then 1 end',                                'null' ],
	[ 'case when 1 = 2 then 10 when 2 = 2 then 20 else 30 end',    'int 20' ],
	[ 'case when null then 1 else 2.5 end',                        'double 2.5' ],
	[ 'case when 1 > 0 then case when 2 > 3 then 1 end else 0 end', 'null' ],
	[ '1 + case when true then 2 else 3 end * 4',                  undef ],

	# functions
	[ 'abs(-5)',                      'int 5' ],
	[ 'abs(-2.5)',                    'double 2.5' ],
	[ 'abs(-9223372036854775808)',    undef ],
	[ 'debug(3)',                     "int 3\nint 3" ],
	[ 'double(5)',                    'double 5' ],
	[ 'double(5) / 2',                'double 2.5' ],
	[ 'exp(0)',                       'double 1' ],
	[ 'exp(1)',                       'double 2.71828182845905' ],
	[ 'exp(1000)',                    undef ],
	[ 'greatest(1, 2, 3)',            'int 3' ],
	[ 'greatest(1, 2, 3.0)',          'double 3' ],
	[ 'greatest(-1)',                 undef ],
	[ 'least(3, 1, 2)',               'int 1' ],
	[ 'least(1.5, 2)',                'double 1.5' ],
	[ 'int(5.7)',                     undef ],
	[ 'int(-5.7)',                    undef ],
	[ 'int(7.9) + 1',                 undef ],
	[ 'int(4)',                       'int 4' ],
	[ 'ln(10)',                       undef ],
	[ 'ln(1)',                        'double 0' ],
	[ 'ln(0)',                        undef ],
	[ 'ln(-1)',                       undef ],
	[ 'mod(7, 3)',                    'int 1' ],
	[ 'mod(-7, 3)',                   'int -1' ],
	[ 'mod(10, 4) * 2.5',             'double 5' ],
	[ 'pi()',                         'double 3.14159265358979' ],
	[ 'pow(2, 10)',                   'double 1024' ],
	[ 'pow(2, -1)',                   'double 0.5' ],
	[ 'power(2.0, 0.5)',              undef ],
	[ 'sqrt(16)',                     'double 4' ],
	[ 'sqrt(2)',                      undef ],
	[ 'sqrt(-1)',                     undef ],
	[ 'abs(-3) * 1.5',                'double 4.5' ],

	# hashes (the page's example and the implicit default_seed)
	[ 'hash(10, 5432)',               'int -5817877081768721676' ],
	[ 'hash_murmur2(10, 5432)',       'int -5817877081768721676' ],
	[ 'hash_fnv1a(10, 5432)',         undef ],
	[ 'hash_murmur2(-1, 0)',          undef ],
	[ 'hash_fnv1a(-9223372036854775808, 1)', undef ],
	[ 'hash(10)',                     undef ],
	[ 'hash_fnv1a(10)',               undef ],
	[ 'hash_murmur2(10)',             undef ],
	[ 'hash(10) = hash(10, :default_seed)', 'boolean true' ],

	# permute
	[ 'permute(5, 10, 42)',           'int 8' ],
	[ 'permute(0, 10)',               undef ],
	[ 'permute(9, 10)',               undef ],
	[ 'permute(-1, 100, 1)',          undef ],
	[ 'permute(123456789, 1000000007, -5)', undef ],
	[ 'permute(3, 1, 7)',             'int 0' ],
	[ 'permute(3, 2, 7)',             undef ],
	[ 'permute(3, 10) = permute(3, 10, :default_seed)', 'boolean true' ],

	# random functions with degenerate ranges
	[ 'random(5, 5)',                 'int 5' ],
	[ 'random_zipfian(7, 7, 2.0)',    'int 7' ],

	# pgbench's own variables
	[ ':client_id',                   'int 0' ],
	[ ':default_seed',                undef ],
	[ ':random_seed',                 undef ],
	[ ':scale',                       'int 1' ],
);

# Each row is drawn DRAWS times in a row, so that the client's generator
# state is exercised, not just its first value.
my $DRAWS = 20;
my @RANDOM_DRAWS = (
	'random(1, 1000)',
	'random(-1000000000000, 1000000000000)',
	'random(0, 9223372036854775806)',
	'random_exponential(1, 1000, 2.5)',
	'random_exponential(-5, 5, 0.1)',
	'random_gaussian(1, 1000, 2.5)',
	'random_gaussian(-10, 10, 5.0)',
	'random_zipfian(1, 1000, 1.5)',
	'random_zipfian(1, 100, 1.001)',
	'random_zipfian(1, 10, 1000)',
);

# [ name, expressions of one script ]
# The last expression fails; the lines before it must still be printed.
my @RUNTIME_ERRORS = (
	[ 'division by zero', [ '1', '5 / 0' ] ],
	[ 'modulo by zero', [ 'mod(7, 0)' ] ],
	[ 'bigint add overflow', [ '9223372036854775807 + 1' ] ],
	[ 'bigint mul overflow', [ '9223372036854775807 * 2' ] ],
	[ 'bigint div overflow', [ '-9223372036854775808 / -1' ] ],
	[ 'random range too large',
		[ 'random(-9223372036854775808, 9223372036854775807)' ] ],
	[ 'empty random range', [ 'random(10, 1)' ] ],
	[ 'gaussian parameter too small', [ 'random_gaussian(1, 10, 1.999)' ] ],
	[ 'exponential parameter not positive', [ 'random_exponential(1, 10, 0)' ] ],
	[ 'zipfian parameter too large', [ 'random_zipfian(1, 10, 1001)' ] ],
	[ 'permute size not positive', [ 'permute(1, 0)' ] ],
	[ 'double to int overflow', [ 'int(1e30)' ] ],
	[ 'boolean coerced to int', [ 'true = true' ] ],
	[ 'undefined variable', [ ':nosuch + 1' ] ],
	# the reference page shows "5 or 0" as TRUE; the program refuses it
	[ 'int operand of or', [ '5 or 0' ] ],
);

# The oracle's exact error lines for a few of the cases above.
my %RUNTIME_ERROR_LINES = (
	'division by zero' => 'pgbench: error: division by zero',
	'bigint add overflow' => 'pgbench: error: bigint add out of range',
	'random range too large' => 'pgbench: error: random range is too large',
	'int operand of or' => 'pgbench: error: cannot coerce int to boolean',
	'gaussian parameter too small' =>
	  'pgbench: error: gaussian parameter must be at least 2.000000 (not 1.999000)',
);

# ---- the harness ----------------------------------------------------------

my $system = system_pgbench_path();
plan skip_all => 'no system pgbench to compare with' unless $system;

my $ours = $ENV{PGBENCH};
plan skip_all => 'PGBENCH is not set (run through meson test)' unless $ours;

my $cluster = start_cluster();
my $dir = tempdir('expr_diff_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $script_no = 0;

# Write "\set xN debug(<expr>)" lines; command N is expression N.
sub write_script
{
	my (@exprs) = @_;
	my $path = sprintf('%s/script_%03d.sql', $dir, ++$script_no);
	my $n = 0;
	write_file($path,
		join('', map { sprintf("\\set x%d debug(%s)\n", ++$n, $_) } @exprs));
	return $path;
}

# Run one binary on a script: (exit code, { command => output }, other stderr).
sub run_script
{
	my ($binary, $path, $seed) = @_;
	my ($rc, $out, $err) = eval {
		run_cmd(
			[ $binary, '-n', '-t', '1', '-c', '1', '-j', '1',
				"--random-seed=$seed", '-f', $path ],
			env => $cluster->env);
	};
	# a missing or crashing binary must fail the checks, not the script
	($rc, $err) = (-1, "cannot run $binary: $@") unless defined $rc;
	my (%debug, @other);
	for my $line (split /\n/, $err)
	{
		if ($line =~ /^debug\(script=0,command=(\d+)\): (.*)$/)
		{
			push @{ $debug{$1} }, $2;
		}
		else
		{
			push @other, $line;
		}
	}
	return ($rc, \%debug, \@other, $err);
}

sub debug_text
{
	my ($debug, $n) = @_;
	return defined $debug->{$n} ? join("\n", @{ $debug->{$n} }) : '(no debug output)';
}

# One script per seed holding every expression and every draw.
my @all = map { $_->[0] } @EXPRESSIONS;
for my $expr (@RANDOM_DRAWS)
{
	push @all, ($expr) x $DRAWS;
}
my $main_script = write_script(@all);

for my $seed (@SEEDS)
{
	my ($src, $sdebug, $sother) = run_script($system, $main_script, $seed);
	my ($orc, $odebug, $oother, $oerr) = run_script($ours, $main_script, $seed);

	is($src, 0, "seed $seed: system pgbench ran the expression script")
	  or diag(join("\n", @$sother));
	is(scalar(keys %$sdebug), scalar(@all),
		"seed $seed: system pgbench printed a debug line per expression");

	for my $n (1 .. @EXPRESSIONS)
	{
		my ($expr, $expected) = @{ $EXPRESSIONS[ $n - 1 ] };
		next unless defined $expected;
		is(debug_text($sdebug, $n), $expected,
			"seed $seed: oracle gives the pinned value for [$n] $expr");
	}

	is($orc, $src, "seed $seed: same exit code")
	  or diag("our stderr:\n$oerr");
	is_deeply($oother, $sother, "seed $seed: same non-debug stderr lines");

	my $draw = 0;
	for my $n (1 .. @all)
	{
		my $label = $n <= @EXPRESSIONS
		  ? "[$n] $all[$n - 1]"
		  : sprintf('[%d] %s (draw %d)', $n, $all[ $n - 1 ], $draw++ % $DRAWS + 1);
		is(debug_text($odebug, $n), debug_text($sdebug, $n), "seed $seed: $label");
	}
}

# Run-time failures: same exit code, same stderr, line for line.
for my $case (@RUNTIME_ERRORS)
{
	my ($name, $exprs) = @$case;
	my $path = write_script(@$exprs);
	my ($src, undef, undef, $serr) = run_script($system, $path, 1);
	my ($orc, undef, undef, $oerr) = run_script($ours, $path, 1);

	is($src, 2, "$name: system pgbench aborts the run (exit 2)");
	like($serr, qr/^\Q$RUNTIME_ERROR_LINES{$name}\E$/m,
		"$name: oracle's error line is as pinned")
	  if $RUNTIME_ERROR_LINES{$name};
	is($orc, $src, "$name: same exit code");
	is_deeply([ split /\n/, $oerr ], [ split /\n/, $serr ],
		"$name: same stderr lines");
}

$cluster->stop;
done_testing();
