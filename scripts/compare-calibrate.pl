#!/usr/bin/perl
# compare-calibrate.pl — how well calibrated is --compare (doc/compare.md)?
# Runs it on synthetic reports whose truth is known (t/lib/SynthReport.pm)
# and tabulates, per figure and cell (side size x process x intervals x
# shift), its false positives, power, the coverage of its intervals and
# how often it cannot tell.
#
#   perl scripts/compare-calibrate.pl [--trials 100] [--pgbench build/pgbench]
#        [--jobs 2] [--processes iid,ar1-0.5,ar1-0.9,drift,walk] [--n 10,30,120,600]
#        [--repeated-n 10,30,120] [--shifts 0,-0.02,-0.05] [--modes single,repeated]
#        [--runs 5] [--run-sd 0.02]
#        [--seed 1] [--raw FILE.tsv] [--out FILE.md] [--quiet]
#
# A cell's trial writes a base side and a new side (one report each, or
# --runs reports of repeated runs each, every run with its own level
# drawn with sd --run-sd) and runs `pgbench --compare BASE NEW
# --report-json=-`.  The base side of a trial is the same for every
# shift, and so is the new side's noise (common random numbers: the
# shifts' columns differ by the shift alone).  Every seed is fixed: the
# same options give the same reports.
#
# What the tables show, for each figure (failed.ratio left out: no run
# fails, so it is 0 against 0):
#   shift 0    FP: the share of trials judged better or worse (false
#              positives; 5% is what a 95% interval promises)
#   shift < 0  power: the share judged in the true direction (worse, for
#              tps and for the latencies alike); calls in the wrong
#              direction are listed below the tables
#   cov        the share of the trials with an interval whose interval
#              [low, high] holds the true change in the figure's unit,
#              base * true relative change (t/lib/SynthReport.pm says why
#              it is the truth; the maximum's is close, not exact)
#   ?          the share judged "cannot tell ..."
#
# The processes (per-interval log-tps deviation; SynthReport.pm):
#   iid        normal, sd 3%
#   ar1-PHI    AR(1) of coefficient PHI, stationary, marginal sd 3%
#   drift      +6% from start to end, plus iid 3%
#   walk       a random walk of step sd 1%
# (driftD and walk-S name other totals and steps, in %: drift+3,
# drift-6, walk-0.5.)
#
# The repeated runs' cells take --repeated-n's intervals (not 600 by
# default: 5 v 5 runs of 600 intervals are 20 reports of 600 per trial,
# three quarters of the whole calibration's time; --repeated-n
# 10,30,120,600 adds them).
#
# Trials run in --jobs processes (fork), each in its own temporary
# directory, their results gathered at the end.
use strict;
use warnings;

use File::Basename qw(dirname);
use File::Spec;
use File::Temp qw(tempdir);
use Getopt::Long;
use JSON::PP ();
use POSIX ();
use Time::HiRes qw(time);

my $root;
BEGIN { $root = File::Spec->rel2abs(dirname(__FILE__) . '/..'); }
use lib "$root/t/lib";
use SynthReport qw(load_template synth_report write_report true_change seed_of);

my %o = (
	trials => 100, pgbench => "$root/build/pgbench", template => "$root/t/data/synth_template.json",
	jobs => 2, processes => 'iid,ar1-0.5,ar1-0.9,drift,walk', n => '10,30,120,600',
	'repeated-n' => '10,30,120',
	shifts => '0,-0.02,-0.05', modes => 'single,repeated', runs => 5, 'run-sd' => 0.02,
	seed => 1, quiet => 0,
);
GetOptions(\%o, 'trials=i', 'pgbench=s', 'template=s', 'jobs=i', 'processes=s', 'n=s', 'repeated-n=s', 'shifts=s',
	'modes=s', 'runs=i', 'run-sd=f', 'seed=s', 'raw=s', 'out=s', 'quiet', 'help')
  or die "usage: see the top of $0\n";
if ($o{help})
{
	open my $me, '<', __FILE__ or die;
	while (<$me>) { last unless /^#/; print if $. > 1; }
	exit 0;
}
die "$o{pgbench}: not an executable (--pgbench)\n" unless -x $o{pgbench};
die "--trials, --jobs and --runs must be at least 1\n"
  unless $o{trials} >= 1 && $o{jobs} >= 1 && $o{runs} >= 1;

my @FIGURES = grep { $_ ne 'failed.ratio' } SynthReport::FIGURES;
my %HIGHER_IS_BETTER = (tps => 1);
my @processes = split /,/, $o{processes};
my %ns_of = (single => [ split /,/, $o{n} ], repeated => [ split /,/, $o{'repeated-n'} ]);
my @shifts = map { 0 + $_ } split /,/, $o{shifts};
my @modes = split /,/, $o{modes};
for my $m (@modes) { die "unknown mode \"$m\" (single, repeated)\n" unless $m =~ /^(single|repeated)$/; }
my %spec_of = map { $_ => process_spec($_) } @processes;

# a process's name into the spec's keys
sub process_spec
{
	my ($name) = @_;
	return { process => 'iid' } if $name eq 'iid';
	return { process => 'ar1', phi => 0 + $1 } if $name =~ /^ar1-([0-9.]+)$/;
	return { process => 'drift', drift => (defined $1 ? $1 / 100 : 0.06) }
	  if $name =~ /^drift(?:([-+]?[0-9.]+))?$/;
	return { process => 'walk', step_sd => (defined $1 ? $1 / 100 : 0.01) }
	  if $name =~ /^walk(?:-([0-9.]+))?$/;
	die "unknown process \"$name\" (iid, ar1-PHI, drift[D], walk[-S])\n";
}

my $template = load_template($o{template});
my $tmp = tempdir('pgbcalib_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $json = JSON::PP->new;

# the units of work: a cell without its shift, and a trial (innermost,
# so that each worker gets its share of every cell)
my @units;
for my $mode (@modes)
{
	for my $proc (@processes)
	{
		for my $n (@{ $ns_of{$mode} })
		{
			push @units, [ $mode, $proc, $n, $_ ] for 1 .. $o{trials};
		}
	}
}

my $started = time;
my @pids;
for my $w (0 .. $o{jobs} - 1)
{
	my $pid = fork() // die "cannot fork: $!\n";
	if ($pid == 0)
	{
		my $ok = eval { worker($w); 1 };
		print STDERR "worker $w: $@" unless $ok;
		POSIX::_exit($ok ? 0 : 1);
	}
	push @pids, $pid;
}
my $failed = 0;
for my $pid (@pids)
{
	waitpid($pid, 0);
	$failed++ if $? != 0;
}
die "$failed of the workers failed\n" if $failed;
my $elapsed = time - $started;

# ---- one worker ----------------------------------------------------------------------------

sub worker
{
	my ($w) = @_;
	my $dir = "$tmp/w$w";
	mkdir $dir or die "$dir: $!\n";
	open my $out, '>', "$tmp/w$w.tsv" or die "$tmp/w$w.tsv: $!\n";
	$out->autoflush(1);
	my @mine = grep { $_ % $o{jobs} == $w } 0 .. $#units;
	my ($done, $last) = (0, time);
	for my $u (@units[@mine])
	{
		my ($mode, $proc, $n, $trial) = @$u;
		my $runs = $mode eq 'repeated' ? $o{runs} : 1;
		my %spec = (%{ $spec_of{$proc} }, n => $n, run_sd => $mode eq 'repeated' ? $o{'run-sd'} : 0);
		my @base = map {
			my $seed = seed_of($o{seed}, $mode, $proc, $n, $trial, 'base', $_);
			write_report("$dir/b$_.json", scalar synth_report($template, { %spec, seed => $seed }));
		} 1 .. $runs;
		for my $shift (@shifts)
		{
			my @new = map {
				my $seed = seed_of($o{seed}, $mode, $proc, $n, $trial, 'new', $_);
				write_report("$dir/n$_.json",
					scalar synth_report($template, { %spec, seed => $seed, shift => $shift }));
			} 1 .. $runs;
			my @row = ($mode, $proc, $n, $shift, $trial);
			my ($figures, $error) = compare($dir, join(',', @base), join(',', @new));
			if (!$figures)
			{
				$error =~ s/\s+/ /g;
				print {$out} join("\t", @row, 'ERROR', $error), "\n";
				next;
			}
			for my $f (@$figures)
			{
				my $truth = ($f->{base} // 0) * true_change($f->{figure}, $shift);
				print {$out} join("\t", @row, $f->{figure}, $f->{verdict} // 'null',
					map { defined $_ ? $_ : '' } $f->{base}, $f->{change}, $f->{low}, $f->{high},
					$truth), "\n";
			}
		}
		$done++;
		if (!$o{quiet} && time - $last > 30)
		{
			printf STDERR "worker %d: %d of %d trials (%.0f s)\n", $w, $done, scalar @mine,
			  time - $started;
			$last = time;
		}
	}
	close $out or die "$tmp/w$w.tsv: $!\n";
	return;
}

# pgbench --compare BASE NEW --report-json=-: the figures of its first
# comparison, or (undef, why)
sub compare
{
	my ($dir, $base, $new) = @_;
	my $pid = open(my $fh, '-|') // die "cannot fork: $!\n";
	if ($pid == 0)
	{
		open STDERR, '>', "$dir/stderr" or POSIX::_exit(126);
		{ no warnings 'exec'; exec { $o{pgbench} } $o{pgbench}, '--compare', $base, $new, '--report-json=-'; }
		POSIX::_exit(127);
	}
	my $text = do { local $/; <$fh> };
	close $fh;
	my $rc = $? >> 8;
	if ($rc != 0 && $rc != 3)
	{
		open my $e, '<', "$dir/stderr";
		my $err = $e ? do { local $/; <$e> } : '';
		return (undef, "exit status $rc: " . (split /\n/, $err // '')[0] // '');
	}
	my $doc = eval { $json->decode($text) };
	return (undef, "no JSON on stdout: $@") unless $doc;
	my $figs = $doc->{comparisons}[0]{figures};
	return (undef, 'no comparisons[0].figures') unless ref $figs eq 'ARRAY';
	return ($figs);
}

# ---- the tables ------------------------------------------------------------------------------

my (%cell, @errors, @raw);
for my $w (0 .. $o{jobs} - 1)
{
	open my $in, '<', "$tmp/w$w.tsv" or die "$tmp/w$w.tsv: $!\n";
	while (my $line = <$in>)
	{
		chomp $line;
		push @raw, $line if $o{raw};
		my ($mode, $proc, $n, $shift, $trial, $figure, $verdict, $base, $change, $low, $high, $truth) =
		  split /\t/, $line, -1;
		if ($figure eq 'ERROR')
		{
			push @errors, "$mode $proc n=$n shift=$shift trial $trial: $verdict";
			next;
		}
		my $c = $cell{"$mode\t$proc\t$n\t$shift"}{$figure} //= { n => 0 };
		$c->{n}++;
		my $expected = $shift == 0 ? ''
		  : (true_change($figure, $shift) > 0) == !!$HIGHER_IS_BETTER{$figure} ? 'better' : 'worse';
		if ($verdict eq 'better' || $verdict eq 'worse')
		{
			$c->{called}++;
			$c->{right}++ if $verdict eq $expected;
			$c->{wrong}++ if $expected ne '' && $verdict ne $expected;
		}
		elsif ($verdict =~ /^cannot tell/)
		{
			$c->{cannot}++;
		}
		elsif ($verdict ne 'no significant difference')
		{
			$c->{other}{$verdict}++;
		}
		if ($low ne '' && $high ne '')
		{
			$c->{intervals}++;
			$c->{covered}++ if $low <= $truth && $truth <= $high;
		}
	}
	close $in;
}

if ($o{raw})
{
	open my $r, '>', $o{raw} or die "$o{raw}: $!\n";
	print {$r} join("\t", qw(mode process n shift trial figure verdict base change low high truth)), "\n";
	print {$r} "$_\n" for @raw;
	close $r or die "$o{raw}: $!\n";
}

sub pct { my ($num, $den) = @_; return $den ? sprintf("%.0f", 100 * ($num // 0) / $den) : "-"; }

my @md;
push @md, sprintf('Calibration of `%s --compare`: %d trials per cell, seed %s, %.0f s in %d processes.',
	$o{pgbench}, $o{trials}, $o{seed}, $elapsed, $o{jobs});
push @md, '';
push @md, 'Each figure: `rate/cov/?` in %: rate is the false-positive share (better or worse) at',
  'shift 0 and the power (judged worse, the true direction) at a negative shift; cov the share',
  'of the intervals given that hold the true change; ? the share "cannot tell".  single: one',
  "report per side; repeated: $o{runs} v $o{runs} runs, each with its own level (sd "
  . ($o{'run-sd'} * 100) . '%).';
for my $mode (@modes)
{
	for my $zero (1, 0)
	{
		my @sh = grep { ($_ == 0) == $zero } @shifts;
		next unless @sh;
		push @md, '';
		push @md, sprintf('### %s, %s', $mode eq 'single' ? 'one run per side'
			: "$o{runs} v $o{runs} repeated runs",
			$zero ? 'shift 0 (false positives)' : 'shift ' . join(', ', map { ($_ * 100) . '%' } @sh)
			  . ' (power)');
		push @md, '';
		push @md, '| process | n | shift | ' . join(' | ', @FIGURES) . ' |';
		push @md, '| --- | ---: | ---: |' . (' ---: |' x @FIGURES);
		for my $proc (@processes)
		{
			for my $n (@{ $ns_of{$mode} })
			{
				for my $shift (@sh)
				{
					my $cf = $cell{"$mode\t$proc\t$n\t$shift"} or next;
					my @cols = map {
						my $c = $cf->{$_} // { n => 0 };
						my $rate = $shift == 0 ? $c->{called} : $c->{right};
						join('/', pct($rate, $c->{n}), pct($c->{covered}, $c->{intervals}),
							pct($c->{cannot}, $c->{n}));
					} @FIGURES;
					push @md, sprintf('| %s | %d | %s%% | %s |', $proc, $n, $shift * 100, join(' | ', @cols));
				}
			}
		}
	}
}
my (@wrong, @other);
for my $key (sort keys %cell)
{
	my ($mode, $proc, $n, $shift) = split /\t/, $key;
	for my $f (@FIGURES)
	{
		my $c = $cell{$key}{$f} or next;
		push @wrong, sprintf('%s %s n=%d shift %s%%: %s judged better in %d of %d trials', $mode,
			$proc, $n, $shift * 100, $f, $c->{wrong}, $c->{n}) if $c->{wrong};
		push @other, sprintf('%s %s n=%d shift %s%%: %s "%s" %d times', $mode, $proc, $n, $shift * 100,
			$f, $_, $c->{other}{$_}) for sort keys %{ $c->{other} || {} };
	}
}
push @md, '', 'Calls in the wrong direction:', '', map({ "- $_" } @wrong) if @wrong;
push @md, '', 'Other verdicts:', '', map({ "- $_" } @other) if @other;
push @md, '', sprintf('Errors (%d trials; the first 10):', scalar @errors), '',
  map({ "- $_" } @errors[ 0 .. ($#errors < 9 ? $#errors : 9) ]) if @errors;
my $text = join("\n", @md) . "\n";
print $text;
if ($o{out})
{
	open my $f, '>', $o{out} or die "$o{out}: $!\n";
	print {$f} $text;
	close $f or die "$o{out}: $!\n";
}
exit(@errors ? 1 : 0);
