# compare_synth.pl — --compare (doc/compare.md) on synthetic reports of
# known truth (t/lib/SynthReport.pm; scripts/compare-calibrate.pl measures
# the calibration over many of them): the generator is deterministic and
# its reports consistent (points, coarse and fine buckets, totals); the
# program reads a handful of them, of every process and of repeated runs,
# and gives every figure a verdict; an A/A pair of 120 i.i.d. intervals
# shows no difference in tps or the average latency; a pair 30% slower
# is judged worse in both, with the changes the truth says.  No server.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use File::Temp qw(tempdir);
use JSON::PP ();
use PgbTest qw(run_cmd);
use SynthReport qw(load_template synth_report write_report report_text true_change);
use Test::More;

my $src = $ENV{PGBENCH_SRC} || "$FindBin::Bin/..";
my $pgbench = $ENV{PGBENCH} || "$src/build/pgbench";
my $tpl = load_template("$src/t/data/synth_template.json");
my $dir = tempdir('pgbsynth_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my @FIGURES = SynthReport::FIGURES;

# ---- the generator ------------------------------------------------------------------

# splitmix64's published first outputs for seed 0
my $rng = SynthReport::Rng->new(0);
is(sprintf('%016x', $rng->next64), 'e220a8397b1dcdaf', 'splitmix64: first output of seed 0');
is(sprintf('%016x', $rng->next64), '6e789e6aa1b965f4', 'splitmix64: second output of seed 0');

my %spec = (n => 30, process => 'ar1', phi => 0.5, seed => 7);
is(report_text(scalar synth_report($tpl, \%spec)), report_text(scalar synth_report($tpl, \%spec)),
	'the same spec and seed give the same text');
my ($doc, $info) = synth_report($tpl, \%spec);
my $other = synth_report($tpl, { %spec, seed => 8 });
isnt($doc->{run_id}, $other->{run_id}, 'another seed, another run id');
like($doc->{run_id}, qr/^[0-9a-f]{32}$/, 'the run id is 32 hexadecimal digits');

# the counts: points against the totals, each point's buckets against its
# processed, the fine buckets against the points' coarse ones
my $points = $doc->{series}{points};
is(scalar @$points, 30, '30 points');
my ($sum, %coarse, $bad) = (0);
for my $p (@$points)
{
	$sum += $p->{processed};
	my $n = 0;
	for my $b (@{ $p->{histogram}{buckets} })
	{
		$n += $b->[1];
		$coarse{ $b->[0] } += $b->[1];
	}
	$bad++ if $n != $p->{processed};
	my ($lo, $hi) = ($p->{histogram}{buckets}[0][0], $p->{histogram}{buckets}[-1][0]);
	$bad++ unless SynthReport::bucket_index($p->{histogram}{min_us}, 3) == $lo
	  && SynthReport::bucket_index($p->{histogram}{max_us}, 3) == $hi;
}
ok(!$bad, "every point's buckets add up to its processed, its min_us and max_us in its extreme buckets");
is($sum, $doc->{transactions}{processed}, 'the points add up to the processed transactions');
my $lh = $doc->{latency_histogram};
is($lh->{count}, $sum, 'the fine histogram counts them all');
my %fine;
$fine{ SynthReport::bucket_index(SynthReport::bucket_lowest($_->[0], 7), 3) } += $_->[1]
  for @{ $lh->{buckets} };
is_deeply(\%fine, \%coarse, "the fine buckets nest in the points' coarse buckets, count for count");
is(SynthReport::bucket_index($lh->{max_us}, 7), $lh->{buckets}[-1][0], 'max_us is in the highest fine bucket');
is(SynthReport::bucket_index($lh->{min_us}, 7), $lh->{buckets}[0][0], 'min_us is in the lowest fine bucket');
is($info->{truth}{'latency.p99'}, 0, 'no shift: no change in truth');
is(true_change('tps', -0.3), -0.3, 'the truth of tps is the shift');
ok(abs(true_change('latency.average', -0.3) - (1 / 0.7 - 1)) < 1e-12,
	'the truth of the latencies is 1 / (1 + shift) - 1');

# ---- the program reads them -------------------------------------------------------------

# pgbench --compare BASE NEW --report-json=-: (exit status, document, stderr)
sub compare
{
	my ($base, $new) = @_;
	my ($rc, $out, $err) = run_cmd([ $pgbench, '--compare', $base, $new, '--report-json=-' ]);
	my $d = eval { JSON::PP::decode_json($out) };
	return ($rc, $d, $err);
}

# the files of a side of runs reports of spec, seeds from seed
sub side
{
	my ($name, $runs, $spec, $seed) = @_;
	return join(',', map {
		write_report("$dir/$name$_.json", scalar synth_report($tpl, { %$spec, seed => $seed + $_ }))
	} 1 .. $runs);
}

# figure => its object in the comparison
sub figures_of
{
	my ($d) = @_;
	return { map { $_->{figure} => $_ } @{ $d->{comparisons}[0]{figures} || [] } };
}

my @pairs = (
	[ 'iid', 1, { n => 30, process => 'iid' } ],
	[ 'ar1 0.5', 1, { n => 30, process => 'ar1', phi => 0.5, shift => -0.05 } ],
	[ 'ar1 0.9', 1, { n => 30, process => 'ar1', phi => 0.9 } ],
	[ 'drift', 1, { n => 30, process => 'drift', drift => 0.06, shift => -0.02 } ],
	[ 'walk', 1, { n => 30, process => 'walk', step_sd => 0.01 } ],
	[ 'repeated runs', 3, { n => 10, process => 'iid', run_sd => 0.02 } ],
);
my $k = 0;
for my $pair (@pairs)
{
	my ($name, $runs, $spec) = @$pair;
	$k++;
	my %base = %$spec;
	delete $base{shift};
	my ($rc, $d, $err) = compare(side("b$k-", $runs, \%base, 1000 * $k), side("n$k-", $runs, $spec, 1000 * $k + 500));
	is($rc, 0, "$name: --compare reads the reports") or diag($err);
	my $f = figures_of($d);
	my @missing = grep { !defined $f->{$_} || !defined $f->{$_}{verdict} || $f->{$_}{verdict} eq '' }
	  @FIGURES;
	is_deeply(\@missing, [], "$name: a verdict for every figure") or diag(explain($d));
}

# ---- verdicts -----------------------------------------------------------------------------

# the A/A pair's seeds are a pair whose tps and average differ by about a
# standard error or less (+0.2% and -0.1%; 0.4% is one), so that the
# test fails for a method that calls noise a difference, not by chance

my %iid = (n => 120, process => 'iid');
my ($rc, $d, $err) = compare(side('aa-base', 1, \%iid, 301), side('aa-new', 1, \%iid, 401));
is($rc, 0, 'A/A: compared') or diag($err);
my $f = figures_of($d);
for my $fig ('tps', 'latency.average')
{
	unlike($f->{$fig}{verdict} // 'none', qr/^(better|worse)$/, "A/A: $fig shows no difference")
	  or diag(explain($f->{$fig}));
}

($rc, $d, $err) = compare(side('slow-base', 1, \%iid, 501), side('slow-new', 1, { %iid, shift => -0.3 }, 601));
is($rc, 0, '-30%: compared') or diag($err);
$f = figures_of($d);
for my $fig ('tps', 'latency.average')
{
	is($f->{$fig}{verdict}, 'worse', "-30%: $fig is worse") or diag(explain($f->{$fig}));
	my $rel = $f->{$fig}{change} / $f->{$fig}{base};
	my $truth = true_change($fig, -0.3);
	ok(abs($rel - $truth) < 0.03, sprintf('-30%%: %s changed by %.1f%%, the truth %.1f%%', $fig,
		100 * $rel, 100 * $truth));
}

done_testing();
