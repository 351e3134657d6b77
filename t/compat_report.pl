# compat_report.pl — the final report and the -P lines in each compatibility
# mode: the same runs through our program in mode 16 and the system pgbench
# (15, which reports as 16), and in mode 19 and pgbench 19beta1; mode 18
# against 19beta1 without its "other failures" lines, mode 17 against 16.
# Report lines are compared with their figures masked ("N"), the -r rows
# checked for each mode's column layout, and counts compared exactly where
# the run is deterministic.  Last, the unit goldens of modes 18 and 19
# (t/unit/golden/*.18.txt, *.19.txt) against 19beta1 runs of the command
# lines they stand for.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $oracle19 = oracle19_path('PGBENCH_19');
my $system = system_pgbench_path();
plan skip_all => 'no reference pgbench (pgbench 19beta1: PGBENCH_ORACLE19; the system pgbench)'
  unless $oracle19 && $system;

my $node = start_cluster();
my %env = %{ $node->env };
my $src = $ENV{PGBENCH_SRC} || '.';

my $dir = tempdir('pgbcompatrep_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables');
$node->psql('create table ser (id int primary key, v int); '
	  . 'insert into ser select i, 0 from generate_series(1, 2) i');

my $one = write_file("$dir/one.sql", "select 1;\n");
my $two = write_file("$dir/two.sql", "\\set x random(1, 10)\nselect :x;\n");
my $ser = write_file("$dir/ser.sql",
	"\\set id random(1, 2)\n"
	  . "begin isolation level repeatable read;\n"
	  . "select v from ser where id = :id;\n"
	  . "update ser set v = v + 1 where id = :id;\n"
	  . "end;\n");
my $bad = write_file("$dir/bad.sql", "select 1/0;\n");
# select 1 after a nap of 2 ms: for runs of a duration where the report's
# lines, not the speed, are compared
my $nap = write_file("$dir/nap.sql", "\\sleep 2 ms\nselect 1;\n");
my $half = write_file("$dir/half.sql",
	"\\if :client_id = 0\nselect 1/0;\n\\else\nselect 1;\n\\endif\n");

sub run_ref
{
	my ($bin, $args) = @_;
	return run_cmd([ $bin, @$args ], env => \%env);
}

sub ours
{
	my ($mode, $args) = @_;
	return pgbench([ "--compat=$mode", @$args ], env => \%env);
}

# -r rows as each mode prints them: 16 leaves two spaces after each count,
# 18 and 19 one.
sub row_re
{
	my ($mode) = @_;
	return $mode >= 18
	  ? qr/^   ([ \d.]{11})  ([ \d]{10})(?: ([ \d]{10}))? (\S.*)$/
	  : qr/^   ([ \d.]{11})  ([ \d]{10})(?:  ([ \d]{10}))?  (\S.*)$/;
}

# The report's shape: banner and every number masked, -r rows that have
# the mode's layout rewritten as "ROW cols | text" (a row of another
# layout stays as it is, and differs).
sub shape
{
	my ($s, $mode) = @_;
	my $re = row_re($mode);
	my @l;
	for my $line (split /\n/, $s)
	{
		if ($line =~ /^   / && $line =~ $re)
		{
			my $cols = defined $3 ? 'three' : 'two';
			push @l, "ROW $cols | $4";
			next;
		}
		push @l, $line;
	}
	my $t = join("\n", @l) . "\n";
	$t =~ s/^pgbench \(.*\)\n//mg;
	$t =~ s/-?\d+(?:\.\d+)?/N/g;
	$t =~ s/NaN/N/g;
	return $t;
}

# Masks only the timings: the counts stay, for deterministic runs.
sub timings
{
	my ($s, $mode) = @_;
	my $re = row_re($mode);
	$s =~ s/^pgbench \(.*\)\n//mg;
	$s = join('', map { $_ =~ $re ? "ROW $2|" . ($3 // '') . "|$4\n" : "$_\n" } split /\n/, $s);
	$s =~ s/= -?[\d.]+ ms/= X ms/g;
	$s =~ s/tps = [\d.]+/tps = X/g;
	$s =~ s/(avg|max) [\d.]+/$1 X/g;
	return $s;
}

sub rows_ok
{
	my ($s, $mode, $name) = @_;
	my @rows = grep { /^   / } split /\n/, $s;
	my $re = row_re($mode);
	is(scalar(grep { $_ !~ $re } @rows), 0, "$name: -r rows in mode ${mode}'s layout");
	return;
}

sub same_lines
{
	my ($got, $want, $name) = @_;
	my @g = split /\n/, $got, -1;
	my @w = split /\n/, $want, -1;
	for my $i (0 .. ($#g > $#w ? $#g : $#w))
	{
		next if ($g[$i] // '<none>') eq ($w[$i] // '<none>');
		fail($name);
		diag("line " . ($i + 1) . ":\n   got: " . ($g[$i] // '<none>') . "\n  want: "
			  . ($w[$i] // '<none>') . "\n--- got:\n$got--- want:\n$want");
		return;
	}
	pass($name);
	return;
}

# One line may differ in its suffix only because one run had a failure and
# the other none: drop the suffix on both sides.
sub no_failure_suffix { return $_[0] =~ s/ \(including failures\)$//mr; }

# A run of a duration (-T 1) may account no transaction at all when the
# machine is busy: -T counts from before the connections, as pgbench's
# does, and beside three CPU hogs 19beta1 took 0.4 to 0.8 s to open four
# (one after the other; ours opens them at once), leaving a second of
# --max-tries=0 -r from 1 to 70 transactions; a loaded CI got 0.  Such a
# report stops after the processed line (16: after the failed line) and
# has no tps line; it says nothing of the lines a case compares when the
# other report accounted some.  So a run compared with another is made
# again, up to 5 times in all, until both reports are of the same kind;
# the comparisons then look at the last run, whatever it was.
sub accounted { return $_[0] =~ /^tps = /m ? 1 : 0; }

use constant TRIES => 5;

# run_alike($want, $name, $run) -> what $run returns (exit code, stdout,
# stderr), from the first of TRIES runs whose report is of $want's kind.
sub run_alike
{
	my ($want, $name, $run) = @_;
	my @r;
	for my $try (1 .. TRIES)
	{
		@r = $run->();
		return @r if accounted($r[1]) == accounted($want);
		note("$name: run $try accounted " . (accounted($r[1]) ? 'some' : 'nothing') . ', the other report '
			  . (accounted($want) ? 'some' : 'nothing'));
	}
	return @r;
}

# ---- modes 16 and 19 against their references --------------------------------

# name, arguments, deterministic counts.  The serialization failures of
# the retry and --failures-detailed variants come from -t 25 with four
# clients: their lines are what is compared; the lines of a -T run are
# those of '-T -j 2' and '--max-tries=0 -r' (which needs -T).
my @VARIANTS = (
	[ '-t', [ '-f', $one, '-t', '20', '-c', '2' ], 1 ],
	[ '-T -j 2', [ '-f', $nap, '-T', '1', '-c', '2', '-j', '2' ], 0 ],
	[ 'builtin -r', [ '-b', 'simple-update', '-t', '10', '-r' ], 1 ],
	[ '-R', [ '-f', $one, '-T', '1', '-R', '200' ], 0 ],
	[ '-R -L', [ '-f', $one, '-T', '1', '-R', '2000', '-L', '1' ], 0 ],
	[ '-L', [ '-f', $one, '-t', '20', '-L', '1' ], 0 ],
	[ '-C', [ '-f', $one, '-t', '5', '-c', '2', '-C' ], 1 ],
	[ '-M prepared -j 2 -r', [ '-f', $two, '-t', '10', '-c', '2', '-j', '2', '-r', '-M', 'prepared' ], 1 ],
	[ '--max-tries=3', [ '-f', $ser, '-t', '25', '-c', '4', '-j', '2', '--max-tries=3' ], 0 ],
	[ '--max-tries=0 -r', [ '-f', $ser, '-T', '1', '-c', '4', '--max-tries=0', '-r' ], 0 ],
	[ '--failures-detailed', [ '-f', $ser, '-t', '25', '-c', '4', '-j', '2', '--failures-detailed' ], 0 ],
	[ '--failures-detailed --max-tries=2 -r',
		[ '-f', $ser, '-t', '25', '-c', '4', '--failures-detailed', '--max-tries=2', '-r' ], 0 ],
	[ 'several scripts', [ '-f', "$one\@3", '-f', "$two\@1", '-t', '40', '-c', '2' ], 0 ],
	[ 'several scripts -r', [ '-f', "$one\@2", '-f', "$two\@2", '-t', '40', '-c', '2', '-j', '2', '-r' ], 0 ],
	[ 'several scripts -r --max-tries=2 -R -L --failures-detailed',
		[ '-f', "$one\@1", '-f', "$ser\@1", '-T', '1', '-c', '2', '-r', '--max-tries=2', '-R', '500',
		  '-L', '50', '--failures-detailed' ], 0 ],
	[ 'every client aborted', [ '-f', $bad, '-t', '3', '-c', '2' ], 1 ],
	[ 'one client aborted -r', [ '-f', $half, '-t', '4', '-c', '2', '-r' ], 1 ],
	[ 'aborted scripts -r', [ '-f', "$half\@1", '-f', "$one\@1", '-t', '20', '-c', '2', '-r' ], 0 ],
);

my %ref = (16 => $system, 19 => $oracle19);
my %saved;
for my $v (@VARIANTS)
{
	my ($name, $args, $exact) = @$v;
	my @args = ('-n', @$args);
	for my $mode (16, 19)
	{
		my ($orc, $oout, $oerr, $rrc, $rout, $rerr);
		for my $try (1 .. TRIES)
		{
			($orc, $oout, $oerr) = ours($mode, \@args);
			($rrc, $rout, $rerr) = run_ref($ref{$mode}, \@args);
			last if accounted($oout) == accounted($rout);
			note("$name (mode $mode): run $try, only " . (accounted($oout) ? 'ours' : 'the reference')
				  . ' accounted some transactions');
		}
		$saved{$name}{$mode} = $oout;
		$saved{$name}{"ref$mode"} = $rout;
		is($orc, $rrc, "$name (mode $mode): exit code as the reference");
		rows_ok($oout, $mode, "$name (mode $mode)");
		rows_ok($rout, $mode, "$name (reference $mode)");
		same_lines(no_failure_suffix(shape($oout, $mode)), no_failure_suffix(shape($rout, $mode)),
			"$name (mode $mode): the reference's lines");
		same_lines(timings($oout, $mode), timings($rout, $mode), "$name (mode $mode): exact counts")
		  if $exact;
		if ($name =~ /aborted/)
		{
			# clients may fail in either order; the epilogue comes last
			is(join('', sort split /^/, $oerr), join('', sort split /^/, $rerr),
				"$name (mode $mode): the reference's messages");
			like($oerr, qr/Run was aborted; the above results are incomplete\.\n\z/,
				"$name (mode $mode): the epilogue last");
		}
	}
}

# what the modes must show, whatever the counts
like($saved{'every client aborted'}{16}, qr/^number of failed transactions: 0 \(NaN%\)\n\z/m,
	'mode 16: nothing accounted still prints the failed line (NaN%)');
unlike($saved{'every client aborted'}{19}, qr/number of failed/,
	'mode 19: nothing accounted, no failed line');
like($saved{'every client aborted'}{19}, qr/processed: 0\/6\n\z/, 'mode 19: the report stops after 0/6');
like($saved{'--failures-detailed'}{19},
	qr/^number of deadlock failures: \d+ \([\d.]+%\)\nnumber of other failures: 0 \(0\.000%\)$/m,
	'mode 19: other failures after the deadlock failures');
unlike($saved{'--failures-detailed'}{16}, qr/other failures/, 'mode 16: no other failures line');
my $multi = 'several scripts -r --max-tries=2 -R -L --failures-detailed';
for my $mode (16, 19)
{
	my $o = $saved{$multi}{$mode};
	my $ok = 1;
	while ($o =~ /^ - (\d+) transactions \(([\d.]+)% of total\)\n - number of transactions actually processed: (\d+) .*\n - number of failed transactions: (\d+) .*\n(?:.*\n)*? - number of transactions skipped: (\d+)/mg)
	{
		$ok &&= $1 == $3 + $4 + $5;
	}
	if ($mode == 19)
	{
		ok($ok && $o =~ /actually processed: \d+ \(tps/, 'mode 19: a script\'s transactions = processed + failed + skipped');
	}
	else
	{
		like($o, qr/^ - \d+ transactions \([\d.]+% of total, tps = [\d.]+\)$/m, 'mode 16: one line with the tps');
	}
}

# ---- mode 18: 19beta1 without 19's lines; mode 17: 16 ------------------------

for my $name ('--failures-detailed --max-tries=2 -r', $multi, 'every client aborted', 'one client aborted -r',
	'several scripts -r')
{
	my $v = (grep { $_->[0] eq $name } @VARIANTS)[0];
	my @args = ('-n', @{ $v->[1] });
	my (undef, $o18) = run_alike($saved{$name}{ref19}, "$name (mode 18)", sub { ours(18, \@args) });
	my (undef, $o17) = run_alike($saved{$name}{ref16}, "$name (mode 17)", sub { ours(17, \@args) });
	my $want18 = $saved{$name}{ref19} =~ s/^(?: - )?number of other failures: .*\n//mgr;
	rows_ok($o18, 18, "$name (mode 18)");
	same_lines(no_failure_suffix(shape($o18, 18)), no_failure_suffix(shape($want18, 18)),
		"$name (mode 18): 19beta1's lines without the other failures");
	rows_ok($o17, 17, "$name (mode 17)");
	same_lines(no_failure_suffix(shape($o17, 17)), no_failure_suffix(shape($saved{$name}{ref16}, 16)),
		"$name (mode 17): pgbench 16's lines");
}

# ---- -P lines: the same fields in every mode -----------------------------------------

# (a script that naps 2 ms a transaction: the same fields as a run at
# full speed, without two seconds of busy client and server)
for my $p ([ '-f', $nap, '-T', '2', '-P', '1', '-c', '2' ],
	[ '-f', $ser, '-T', '2', '-P', '1', '-c', '2', '--max-tries=2', '-R', '300', '-L', '20' ],
	[ '-f', $nap, '-T', '2', '-P', '1', '--progress-timestamp' ])
{
	my @args = ('-n', @$p);
	for my $mode (16, 19)
	{
		my (undef, undef, $oerr) = ours($mode, \@args);
		my (undef, undef, $rerr) = run_ref($ref{$mode}, \@args);
		my $line = qr/^progress: .*$/m;
		my ($o) = $oerr =~ /($line)/;
		my ($r) = $rerr =~ /($line)/;
		ok(defined $o && defined $r, "-P @$p[-4 .. -1] (mode $mode): a progress line");
		is(shape($o // '', $mode), shape($r // '', $mode), "-P @$p[-4 .. -1] (mode $mode): the reference's fields");
	}
}

# ---- --continue-on-error: other failures (19) ----------------------------------------

my ($probe_rc, undef, $probe_err) = ours(19, [ '-n', '-f', $one, '-t', '1', '--continue-on-error' ]);
SKIP:
{
	skip "--continue-on-error not in this build: $probe_err", 1 if $probe_rc != 0;
	for my $c ([ 'all failed', [ '-f', $bad, '-t', '3', '-c', '2', '--continue-on-error' ], 1 ],
		[ 'all failed, detailed -r', [ '-f', $bad, '-t', '3', '-c', '2', '--continue-on-error',
				'--failures-detailed', '-r' ], 1 ],
		[ 'all failed -P', [ '-f', $bad, '-t', '3', '-c', '2', '--continue-on-error', '-P', '1' ], 1 ],
		[ 'scripts', [ '-f', "$one\@1", '-f', "$bad\@1", '-t', '20', '-c', '2', '--continue-on-error',
				'--failures-detailed', '-r', '--max-tries=2' ], 0 ])
	{
		my ($name, $args, $exact) = @$c;
		my @args = ('-n', @$args);
		my ($orc, $oout) = ours(19, \@args);
		my ($rrc, $rout) = run_ref($oracle19, \@args);
		is($orc, $rrc, "--continue-on-error $name (mode 19): exit code");
		same_lines(no_failure_suffix(shape($oout, 19)), no_failure_suffix(shape($rout, 19)),
			"--continue-on-error $name (mode 19): 19beta1's lines");
		same_lines(timings($oout, 19), timings($rout, 19), "--continue-on-error $name (mode 19): exact counts")
		  if $exact;
	}
}

# ---- the unit goldens of modes 18 and 19 against 19beta1 ---------------------------

# golden case, 19beta1 arguments, deterministic counts; "-" drops our
# --percentiles lines (19beta1 has no such option)
my @GOLDEN = (
	[ 'plain_t', [ '-b', 'select-only', '-t', '10', '-c', '2' ], 1 ],
	[ 'connect_each', [ '-b', 'simple-update', '-t', '25', '-c', '2', '-j', '2', '-C' ], 1 ],
	[ 'nothing_aborted', [ '-f', $bad, '-t', '10', '-c', '1' ], 1 ],
	[ 'failures_retries', [ '-f', $ser, '-T', '1', '-c', '3', '-j', '3', '--max-tries=3',
			'--failures-detailed', '-r' ], 0 ],
	[ 'scripts_r', [ '-f', "$one\@3", '-f', "$two\@2", '-f', "$half\@1", '-t', '40', '-c', '5', '-j', '2',
			'-P', '1', '-r', '-M', 'extended', '--max-tries=5' ], 0 ],
	[ 'percentiles', [ '-f', $one, '-f', $two, '-T', '1', '-R', '500', '-c', '8', '-j', '4' ], 0 ],
	[ 'all_failed', [ '-f', $bad, '-T', '1', '-c', '2', '--max-tries=2', '--failures-detailed', '-L', '10',
			'--continue-on-error' ], 0 ],
	[ 'other_all_failed', [ '-f', $bad, '-t', '3', '-c', '2', '--continue-on-error', '--failures-detailed',
			'-r' ], 1 ],
	[ 'other_scripts', [ '-f', "$one\@1", '-f', "$bad\@1", '-t', '20', '-c', '2', '--continue-on-error',
			'--max-tries=2', '--failures-detailed', '-r' ], 0 ],
);

sub golden_text
{
	my ($case, $mode) = @_;
	for my $m (reverse 17 .. $mode)
	{
		my $f = "$src/t/unit/golden/$case.$m.txt";
		return slurp($f) if -f $f;
	}
	return slurp("$src/t/unit/golden/$case.txt");
}

for my $g (@GOLDEN)
{
	my ($case, $args, $exact) = @$g;
	my (undef, $rout) = run_alike(golden_text($case, 19), "golden $case (19)",
		sub { run_ref($oracle19, [ '-n', @$args ]) });
	my $want = $rout =~ s/^pgbench \(.*\)\n//mr;
	# the constructed cases name their scripts by file name only
	$want =~ s/\Q$dir\E\///g;
	my $g19 = golden_text($case, 19) =~ s/^(?: - )?latency p[\d.]+ = .*\n//mgr;
	# the all-failed stand-in fails with other errors where the case has serialization failures
	$want =~ s/\bbad\.sql\b/ser.sql/g if $case eq 'all_failed';
	# unlimited tries need -T or -L: the stand-in has 5, the case 0 (no line)
	$want =~ s/^maximum number of tries: 5\n//m if $case eq 'scripts_r';
	# (the suffix " (including failures)" follows the counts of a -T run:
	# 19beta1 on a busy machine may have none where the golden has some)
	same_lines(no_failure_suffix(shape($g19, 19)), no_failure_suffix(shape($want, 19)),
		"golden $case (19): 19beta1's lines");
	same_lines(timings($g19, 19), timings($want, 19), "golden $case (19): 19beta1's exact counts")
	  if $exact;
	my $g18 = golden_text($case, 18) =~ s/^(?: - )?latency p[\d.]+ = .*\n//mgr;
	same_lines(no_failure_suffix(shape($g18, 18)),
		no_failure_suffix(shape($want =~ s/^(?: - )?number of other failures: .*\n//mgr, 18)),
		"golden $case (18): 19beta1's lines without the other failures");
	is(golden_text($case, 17), golden_text($case, 16), "golden $case (17): 16's text");
}

done_testing();
