# SynthReport.pm — synthetic --report-json reports whose truth is known,
# for calibrating --compare (doc/compare.md): its false positives, the
# coverage of its intervals and its power.  scripts/compare-calibrate.pl
# and t/compare_synth.pl use it.
#
#   use SynthReport qw(load_template synth_report write_report true_change);
#   my $tpl = load_template('t/data/synth_template.json');
#   my ($doc, $info) = synth_report($tpl, { n => 120, process => 'ar1', phi => 0.5,
#                                           shift => -0.05, seed => 42 });
#   write_report('new.json', $doc);
#
# Everything is drawn from one seed with our own generator (splitmix64 in
# integer arithmetic, Box-Muller normals), never Perl's rand: a spec and a
# seed give the same report, byte for byte, on every machine with the
# same libm.
#
# The model.  Interval i (1 s each, i = 1..n) has a throughput
#
#     tps_i = tps * (1 + shift) * exp(offset + x_i)
#
# where x_i is the process of the per-interval log-tps deviation:
#
#   iid     x_i = sd * z_i                            (sd 0.03: 3%)
#   ar1     x_1 = sd * z_1, x_i = phi * x_(i-1) + sd * sqrt(1 - phi^2) * z_i
#           (stationary from the start, marginal sd 3% whatever phi)
#   drift   x_i = log(1 + drift) * ((i-1)/(n-1) - 1/2) + sd * z_i
#           (drift 0.06: 6% more at the end than at the start, centred)
#   walk    x_1 = 0, x_i = x_(i-1) + step_sd * z_i    (step_sd 0.01)
#
# and offset is the run's own level, N(0, run_sd^2) (run_sd 0 by default;
# 0.02 for repeated runs), or the spec's offset when given.  processed_i =
# round(tps_i * 1 s).  The interval's latencies (us) are lognormal with
# log-sd sigma (0.5) and mean clients / tps_i (Little's law), so median
# clients / tps_i * exp(-sigma^2 / 2).  shift therefore multiplies every
# interval's tps by (1 + shift) and divides every latency by it: the
# latency distribution of the run (intervals weighted by their
# transactions, whose weights all scale alike) is the same one scaled.
#
# The truth (true_change): tps changes by shift, the latency average and
# every latency percentile by 1/(1 + shift) - 1, exactly, in expectation
# over the process and the run offset (both sides have the same).  The
# latency maximum also scales by 1/(1 + shift) but is the largest of
# fewer (shift < 0) draws: its true change is that less about
# 0.5 sigma * |log(1 + shift)| / sqrt(2 log N) (N transactions: -0.45
# points for shift -5% and 3 million), which true_change leaves out.  The
# failed share is 0 on both sides.
#
# How a point's histogram is drawn.  The coarse buckets of the series
# (doc/report-json.md "latency_histogram", B = 3) that hold the
# interval's lognormal from 6 sigma below its median to 6.5 above (the
# first and last take the tails) get their probabilities from the normal
# CDF (POSIX::erfc), and the counts are a multinomial drawn as sequential
# binomials (each bucket Bin(left, p_k / the mass from k up), the last one
# the rest), so they add up to processed exactly.  A binomial of mean
# under 30 is drawn exactly (inversion), a larger one from its normal
# approximation, rounded and clamped.  The point's min_us and max_us are
# the least and the largest of the counts of the lowest and highest
# bucket used, drawn from the lognormal restricted to the bucket (order
# statistics by inversion), its latency_sum_us and latency_sum_squares_us
# each bucket's count times the lognormal's conditional mean (and mean
# square) in the bucket, so the sums are inside the buckets' bounds and
# the mean is unbiased.  latency_ms is computed from them and the buckets
# as the program does (the percentiles are the bucket's midpoint, clamped
# to [min_us, max_us]; min and max the bounds of the lowest and highest
# bucket used).  The interval's log median is read on a grid of 0.001
# (0.1%: far below the noise, and the same on both sides of a shift) so
# that a bucket table is computed once per grid step and cached.
#
# The run's fine histogram (latency_histogram, B = 7) is the points'
# coarse buckets split: each coarse bucket is a union of fine ones, and
# its count over all points is drawn across them as a multinomial with the
# probabilities of the mixture of the intervals' lognormals that put
# counts in it (their log medians on a grid of 0.02), so that the fine
# histogram (and the report's percentiles, within 0.4%) follows the
# continuous distribution, not the coarse grid.  The lowest and highest
# fine buckets are those of the run's min_us and max_us.  The sums are
# the points' sums; the run's min and max the points' least and largest.
#
# server_stats is null (settings.server_stats false), and the points'
# client, server and host are null; no failures, retries, lag or skips.
package SynthReport;

use strict;
use warnings;
use Exporter 'import';
use JSON::PP ();
use POSIX ();
use Storable ();

our @EXPORT_OK = qw(load_template synth_report write_report report_text true_change
  true_changes seed_of FIGURES);

use constant FIGURES => qw(tps latency.average latency.p50 latency.p90 latency.p99 latency.max
  failed.ratio);

use constant {
	COARSE_BITS => 3,
	FINE_BITS => 7,
	HIGHEST_US => 3600000000,
	MU_STEP => 0.001,
	MIX_STEP => 0.02,
	LO_SIGMAS => 6.0,
	HI_SIGMAS => 6.5,
	SQRT1_2 => 0.7071067811865476,
	EXACT_BINOMIAL_MEAN => 30,
};

# ---- the generator: splitmix64 -------------------------------------------------
#
# 64-bit state, integer arithmetic that wraps (use integer: Perl is built
# with -fwrapv), shifts outside use integer so that they are logical.

package SynthReport::Rng;

sub new
{
	my ($class, $seed) = @_;
	my $s;
	{
		use integer;
		$s = 0 + $seed;
	}
	return bless { s => $s, spare => undef }, $class;
}

# the next 64 bits, as an unsigned integer
sub next64
{
	my ($self) = @_;
	my $z;
	{
		use integer;
		$z = $self->{s} + -7046029254386353131;    # 0x9E3779B97F4A7C15
		$self->{s} = $z;
	}
	$z = $z ^ ($z >> 30);
	{
		use integer;
		$z = $z * -4658895280553007687;            # 0xBF58476D1CE4E5B9
	}
	$z = $z ^ ($z >> 27);
	{
		use integer;
		$z = $z * -7723592293110705685;            # 0x94D049BB133111EB
	}
	return $z ^ ($z >> 31);
}

# uniform in [0, 1), 53 bits: next64's top 53 (its steps again, inline:
# this is the hot path)
sub uniform
{
	my $z;
	{
		use integer;
		$z = $_[0]{s} + -7046029254386353131;
		$_[0]{s} = $z;
	}
	$z = $z ^ ($z >> 30);
	{
		use integer;
		$z = $z * -4658895280553007687;
	}
	$z = $z ^ ($z >> 27);
	{
		use integer;
		$z = $z * -7723592293110705685;
	}
	return (($z ^ ($z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

# standard normal (Box-Muller, the second of each pair kept for the next call)
sub normal
{
	my ($self) = @_;
	if (defined $self->{spare})
	{
		my $z = $self->{spare};
		$self->{spare} = undef;
		return $z;
	}
	my $u1 = 0;
	$u1 = uniform($self) while $u1 <= 0;
	my $u2 = uniform($self);
	my $r = sqrt(-2.0 * log($u1));
	my $t = 6.283185307179586 * $u2;
	$self->{spare} = $r * sin($t);
	return $r * cos($t);
}

package SynthReport;

# A 64-bit seed from any list of strings and numbers (FNV-1a over their
# bytes, each followed by a 0 byte), for seeds named by what they are for.
sub seed_of
{
	my $h;
	{
		use integer;
		$h = -3750763034362895579;    # 0xcbf29ce484222325
		for my $part (@_)
		{
			for my $byte (unpack('C*', "$part\0"))
			{
				$h = ($h ^ $byte) * 1099511628211;
			}
		}
	}
	return $h;
}

# ---- the normal distribution ------------------------------------------------------

sub _cdf { return 0.5 * POSIX::erfc(-$_[0] * SQRT1_2); }      # P(Z <= z)
sub _tail { return 0.5 * POSIX::erfc($_[0] * SQRT1_2); }      # P(Z > z)

# P(za < Z <= zb), from the tail it is in (precise far out on either side)
sub _prob
{
	my ($za, $zb) = @_;
	return $za >= 0 ? _tail($za) - _tail($zb) : _cdf($zb) - _cdf($za);
}

# The normal quantile (Acklam's rational approximation, one Halley step).
my @QA = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
	1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00);
my @QB = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
	6.680131188771972e+01, -1.328068155288572e+01);
my @QC = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
	-2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00);
my @QD = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
	3.754408661907416e+00);

sub _quantile
{
	my ($p) = @_;
	return -40 if $p <= 0;
	return 40 if $p >= 1;
	my $x;
	if ($p < 0.02425 || $p > 1 - 0.02425)
	{
		my $q = sqrt(-2 * log($p < 0.5 ? $p : 1 - $p));
		$x = ((((($QC[0] * $q + $QC[1]) * $q + $QC[2]) * $q + $QC[3]) * $q + $QC[4]) * $q + $QC[5]) /
		  (((($QD[0] * $q + $QD[1]) * $q + $QD[2]) * $q + $QD[3]) * $q + 1);
		$x = -$x if $p > 0.5;
	}
	else
	{
		my $q = $p - 0.5;
		my $r = $q * $q;
		$x = ((((($QA[0] * $r + $QA[1]) * $r + $QA[2]) * $r + $QA[3]) * $r + $QA[4]) * $r + $QA[5]) * $q /
		  ((((($QB[0] * $r + $QB[1]) * $r + $QB[2]) * $r + $QB[3]) * $r + $QB[4]) * $r + 1);
	}
	my $e = ($p < 0.5 ? _cdf($x) - $p : (1 - $p) - _tail($x));
	my $u = $e * 2.5066282746310002 * exp($x * $x / 2);
	return $x - $u / (1 + $x * $u / 2);
}

# The z in [za, zb] of the smallest (want 'min') or largest of c draws of
# Z restricted to it (za may be -inf, zb +inf).
sub _extreme_z
{
	my ($rng, $za, $zb, $c, $want) = @_;
	my $v = $rng->uniform**(1.0 / $c);    # the extreme's place: max of c uniforms
	$v = 1 - $v if $want eq 'min';
	if ($za >= 0)
	{
		my ($qa, $qb) = (_tail($za), $zb == 9**9**9 ? 0 : _tail($zb));
		return -_quantile($qa - ($qa - $qb) * $v);
	}
	my ($fa, $fb) = ($za == -9**9**9 ? 0 : _cdf($za), _cdf($zb));
	return _quantile($fa + ($fb - $fa) * $v);
}

# Bin(n, p): inversion when the mean (of the rarer side) is small, else
# the normal approximation rounded into [0, n].
sub _binomial
{
	my ($rng, $n, $p) = @_;
	return 0 if $n <= 0 || $p <= 0;
	return $n if $p >= 1;
	my $flip = $p > 0.5;
	$p = 1 - $p if $flip;
	my $mean = $n * $p;
	my $k;
	if ($mean < EXACT_BINOMIAL_MEAN)
	{
		my $f = exp($n * POSIX::log1p(-$p));
		my $ratio = $p / (1 - $p);
		my $u = SynthReport::Rng::uniform($rng);
		$k = 0;
		while ($u > $f && $k < $n && $f > 0)
		{
			$u -= $f;
			$f *= ($n - $k) / ($k + 1) * $ratio;
			$k++;
		}
	}
	else
	{
		$k = POSIX::floor($mean + sqrt($mean * (1 - $p)) * SynthReport::Rng::normal($rng) + 0.5);
		$k = 0 if $k < 0;
		$k = $n if $k > $n;
	}
	return $flip ? $n - $k : $k;
}

# ---- the histogram layout (doc/report-json.md "latency_histogram") -------------------

sub bucket_index
{
	my ($v, $bits) = @_;
	my $mag = 0;
	my $t = $v >> 1;
	while ($t)
	{
		$mag++;
		$t >>= 1;
	}
	my $shift = $mag - $bits;
	$shift = 0 if $shift < 0;
	return ($shift << $bits) + ($v >> $shift);
}

sub bucket_shift
{
	my ($index, $bits) = @_;
	return $index < (2 << $bits) ? 0 : ($index >> $bits) - 1;
}

sub bucket_lowest
{
	my ($index, $bits) = @_;
	my $shift = bucket_shift($index, $bits);
	return ($index - ($shift << $bits)) << $shift;
}

sub bucket_highest
{
	my ($index, $bits) = @_;
	return bucket_lowest($index, $bits) + (1 << bucket_shift($index, $bits)) - 1;
}

# The nearest-rank percentile p of buckets ([index, count], ascending) of
# count values, as the program answers it: the bucket's midpoint brought
# into [min, max]; 100 is max.
sub bucket_percentile
{
	my ($buckets, $bits, $count, $p, $min, $max) = @_;
	return $max if $p >= 100;
	my $rank = POSIX::ceil($p * $count / 100.0);
	$rank = 1 if $rank < 1;
	my $seen = 0;
	for my $b (@$buckets)
	{
		$seen += $b->[1];
		next if $seen < $rank;
		my $shift = bucket_shift($b->[0], $bits);
		my $v = bucket_lowest($b->[0], $bits) + int(((1 << $shift) - 1) / 2);
		$v = $min if $v < $min;
		$v = $max if $v > $max;
		return $v;
	}
	return $max;
}

# the coarse layout's buckets: lowest, highest, log(lowest), log(highest + 1)
my $NCOARSE = bucket_index(HIGHEST_US, COARSE_BITS) + 1;
my (@C_LO, @C_HI, @C_LNLO, @C_LNHI);
for my $k (0 .. $NCOARSE - 1)
{
	$C_LO[$k] = bucket_lowest($k, COARSE_BITS);
	$C_HI[$k] = bucket_highest($k, COARSE_BITS);
	$C_LNLO[$k] = $C_LO[$k] > 0 ? log($C_LO[$k]) : -9**9**9;
	$C_LNHI[$k] = log($C_HI[$k] + 1);
}

# ---- one interval's buckets ----------------------------------------------------------

# The bucket table of a lognormal of log median mu (on the grid) and log
# sd sigma: its coarse buckets from lo, each with the probability of
# being drawn given the buckets below were not (cond), the conditional
# mean and mean square, and the z of its bounds.
my %coarse_cache;
my $coarse_cache_size = 0;

sub _coarse_table
{
	my ($key, $sigma) = @_;
	my $t = $coarse_cache{$key};
	return $t if $t;
	if ($coarse_cache_size > 20000)
	{
		%coarse_cache = ();
		$coarse_cache_size = 0;
	}
	my $mu = $key * MU_STEP;
	my $lo = bucket_index(int(exp($mu - LO_SIGMAS * $sigma)), COARSE_BITS);
	my $hi = bucket_index(int(exp($mu + HI_SIGMAS * $sigma)), COARSE_BITS);
	$hi = $NCOARSE - 1 if $hi > $NCOARSE - 1;
	my $inf = 9**9**9;
	my (@za, @zb, @p, @m1, @m2);
	my $e1 = exp($mu + $sigma * $sigma / 2);
	my $e2 = exp(2 * $mu + 2 * $sigma * $sigma);
	for my $k ($lo .. $hi)
	{
		my $a = $k == $lo ? -$inf : ($C_LNLO[$k] - $mu) / $sigma;
		my $b = $k == $hi ? $inf : ($C_LNHI[$k] - $mu) / $sigma;
		my $p = _prob($a, $b);
		my ($lo_us, $hi_us) = ($C_LO[$k], $C_HI[$k] + 1);
		my ($c1, $c2);
		if ($p > 1e-300)
		{
			$c1 = $e1 * _prob($a - $sigma, $b - $sigma) / $p;
			$c2 = $e2 * _prob($a - 2 * $sigma, $b - 2 * $sigma) / $p;
		}
		$c1 = ($lo_us + $hi_us) / 2 unless defined $c1 && $c1 >= $lo_us && $c1 <= $hi_us;
		$c2 = $c1 * $c1 unless defined $c2 && $c2 >= $c1 * $c1 && $c2 <= $hi_us * $hi_us;
		push @za, $a;
		push @zb, $b;
		push @p, $p;
		push @m1, $c1;
		push @m2, $c2;
	}
	# the conditional probabilities of the sequential binomials, from the
	# top so that the small masses of the upper tail keep their precision
	my @cond;
	my $rest = 0;
	for my $j (reverse 0 .. $#p)
	{
		$rest += $p[$j];
		$cond[$j] = $rest > 0 ? $p[$j] / $rest : 1;
	}
	$cond[$#p] = 1;
	$t = { lo => $lo, mu => $mu, cond => \@cond, m1 => \@m1, m2 => \@m2, za => \@za, zb => \@zb };
	$coarse_cache{$key} = $t;
	$coarse_cache_size++;
	return $t;
}

# One interval of n transactions: its coarse buckets ([index, count]),
# the sums, min_us and max_us.
sub _draw_interval
{
	my ($rng, $key, $sigma, $n) = @_;
	my $t = _coarse_table($key, $sigma);
	my ($lo, $cond, $m1, $m2) = @$t{qw(lo cond m1 m2)};
	my @buckets;
	my ($s1, $s2) = (0, 0);
	my $left = $n;
	for my $j (0 .. $#$cond)
	{
		last if $left <= 0;
		my $c = _binomial($rng, $left, $cond->[$j]);
		next unless $c;
		$left -= $c;
		push @buckets, [ $lo + $j, $c ];
		$s1 += $c * $m1->[$j];
		$s2 += $c * $m2->[$j];
	}
	my ($first, $last) = ($buckets[0], $buckets[-1]);
	my ($jf, $jl) = ($first->[0] - $lo, $last->[0] - $lo);
	my $mu = $t->{mu};
	my $zmin = _extreme_z($rng, $t->{za}[$jf], $t->{zb}[$jf], $first->[1], 'min');
	my $zmax = _extreme_z($rng, $t->{za}[$jl], $t->{zb}[$jl], $last->[1], 'max');
	my $min = _clamp(int(exp($mu + $sigma * $zmin)), $C_LO[ $first->[0] ], $C_HI[ $first->[0] ]);
	my $max = _clamp(int(exp($mu + $sigma * $zmax)), $C_LO[ $last->[0] ], $C_HI[ $last->[0] ]);
	$min = $max if $min > $max;
	return (\@buckets, $s1, $s2, $min, $max);
}

sub _clamp { my ($v, $lo, $hi) = @_; return $v < $lo ? $lo : $v > $hi ? $hi : $v; }

# ---- the run's fine histogram ---------------------------------------------------------

# P(fine bucket) for each fine bucket of coarse bucket k, under a
# lognormal of log median on the mixture's grid point m.
my %fine_cache;

sub _fine_probs
{
	my ($m, $k, $sigma) = @_;
	my $key = "$m:$k";
	my $v = $fine_cache{$key};
	return $v if $v;
	%fine_cache = () if keys(%fine_cache) > 50000;
	my $mu = $m * MIX_STEP;
	my ($f0, $f1) = (bucket_index($C_LO[$k], FINE_BITS), bucket_index($C_HI[$k], FINE_BITS));
	my @p;
	for my $f ($f0 .. $f1)
	{
		my $a = bucket_lowest($f, FINE_BITS);
		my $za = $a > 0 ? (log($a) - $mu) / $sigma : -9**9**9;
		my $zb = (log(bucket_highest($f, FINE_BITS) + 1) - $mu) / $sigma;
		push @p, _prob($za, $zb);
	}
	$v = [ $f0, \@p ];
	$fine_cache{$key} = $v;
	return $v;
}

# total values into the fine buckets f0 .. f0 + $#$probs, as a multinomial
# of those (relative) probabilities, restricted to [from, to]; the counts
# added to %$into.
sub _split
{
	my ($rng, $total, $f0, $probs, $from, $to, $into) = @_;
	return if $total <= 0;
	my @w = map { $probs->[ $_ - $f0 ] } $from .. $to;
	my $rest = 0;
	$rest += $_ for @w;
	if ($rest <= 0)
	{
		@w = (1) x @w;
		$rest = scalar @w;
	}
	my $left = $total;
	for my $i (0 .. $#w)
	{
		last if $left <= 0;
		my $c = $i == $#w ? $left : _binomial($rng, $left, $rest > 0 ? $w[$i] / $rest : 1);
		$rest -= $w[$i];
		next unless $c;
		$into->{ $from + $i } += $c;
		$left -= $c;
	}
	return;
}

# The fine histogram of the points' coarse counts: agg{k}{m} is the count
# of coarse bucket k from intervals of mixture grid point m.
sub _fine_histogram
{
	my ($rng, $agg, $sigma, $min, $max) = @_;
	my %fine;
	my @ks = sort { $a <=> $b } keys %$agg;
	my ($kmin, $kmax) = ($ks[0], $ks[-1]);
	my ($jmin, $jmax) = (bucket_index($min, FINE_BITS), bucket_index($max, FINE_BITS));
	for my $k (@ks)
	{
		my $byk = $agg->{$k};
		my ($total, $f0, @q) = (0);
		for my $m (sort { $a <=> $b } keys %$byk)
		{
			my $w = $byk->{$m};
			$total += $w;
			my ($g0, $p) = @{ _fine_probs($m, $k, $sigma) };
			$f0 = $g0;
			$q[$_] += $w * $p->[$_] for 0 .. $#$p;
		}
		my $f1 = $f0 + $#q;
		my ($from, $to) = ($f0, $f1);
		if ($k == $kmin)
		{
			$fine{$jmin}++;
			$total--;
			$from = $jmin;
		}
		if ($k == $kmax && $total > 0)
		{
			$fine{$jmax}++;
			$total--;
			$to = $jmax;
		}
		_split($rng, $total, $f0, \@q, $from, $to, \%fine);
	}
	return [ map { [ $_, $fine{$_} ] } sort { $a <=> $b } keys %fine ];
}

# ---- the report ------------------------------------------------------------------------

# The template (a path or a decoded report): a real --report-json
# document whose series and histograms are replaced.
sub load_template
{
	my ($path) = @_;
	open my $fh, '<', $path or die "$path: $!\n";
	local $/;
	my $doc = JSON::PP::decode_json(<$fh>);
	close $fh;
	# what every report replaces: not copied for each one
	$doc->{series}{points} = [];
	$doc->{latency_histogram}{buckets} = [];
	$doc->{server_stats} = undef;
	$_->{latency_histogram} = undef for @{ $doc->{scripts} };
	return $doc;
}

# the relative change in truth of a figure under shift (see the top)
sub true_change
{
	my ($figure, $shift) = @_;
	return $shift if $figure eq 'tps';
	return 0 if $figure eq 'failed.ratio';
	return 1 / (1 + $shift) - 1;
}

sub true_changes
{
	my ($shift) = @_;
	return { map { $_ => true_change($_, $shift) } FIGURES };
}

my %DEFAULTS = (
	n => 120, tps => 5000, clients => 10, process => 'iid', sd => 0.03, phi => 0.5,
	drift => 0.06, step_sd => 0.01, shift => 0, run_sd => 0, sigma => 0.5, seed => 1,
);

# The per-interval log-tps deviations x_1 .. x_n of spec's process.
sub _process
{
	my ($rng, $s) = @_;
	my ($n, $sd, $proc) = ($s->{n}, $s->{sd}, $s->{process});
	my @x;
	if ($proc eq 'iid')
	{
		@x = map { $sd * $rng->normal } 1 .. $n;
	}
	elsif ($proc eq 'ar1')
	{
		my $phi = $s->{phi};
		die "ar1: phi $phi is not in (-1, 1)\n" unless abs($phi) < 1;
		my $inno = $sd * sqrt(1 - $phi * $phi);
		my $v = $sd * $rng->normal;
		push @x, $v;
		for (2 .. $n)
		{
			$v = $phi * $v + $inno * $rng->normal;
			push @x, $v;
		}
	}
	elsif ($proc eq 'drift')
	{
		my $total = log(1 + $s->{drift});
		@x = map { $total * ($n > 1 ? ($_ - 1) / ($n - 1) - 0.5 : 0) + $sd * $rng->normal } 1 .. $n;
	}
	elsif ($proc eq 'walk')
	{
		my $v = 0;
		push @x, $v;
		for (2 .. $n)
		{
			$v += $s->{step_sd} * $rng->normal;
			push @x, $v;
		}
	}
	else
	{
		die "unknown process \"$proc\" (iid, ar1, drift, walk)\n";
	}
	return \@x;
}

sub _ms { return 0 + sprintf('%.6f', $_[0] / 1000); }

# a whole number as an integer (printed as one, however large)
sub _int { return 0 + sprintf('%.0f', $_[0]); }

sub _iso
{
	my ($epoch) = @_;
	my $s = POSIX::floor($epoch);
	my $ms = int(($epoch - $s) * 1000);
	return POSIX::strftime('%Y-%m-%dT%H:%M:%S', gmtime($s)) . sprintf('.%03dZ', $ms);
}

# synth_report(template, spec) -> (doc, info): the report of one run of
# spec (keys and defaults: %DEFAULTS above), and what it was made of:
# info = { truth => { figure => relative change }, offset, tps (the
# intervals' mean of tps_i), seed }.
sub synth_report
{
	my ($template, $spec) = @_;
	$template = load_template($template) unless ref $template;
	my %s = (%DEFAULTS, %{ $spec || {} });
	for my $k (keys %s)
	{
		die "synth_report: unknown spec key \"$k\"\n" unless exists $DEFAULTS{$k} || $k eq 'offset';
	}
	my ($n, $sigma, $clients) = ($s{n}, $s{sigma}, $s{clients});
	die "synth_report: n must be at least 1\n" unless $n >= 1;
	my $rng = SynthReport::Rng->new(seed_of('synth', $s{seed}));
	my $offset = defined $s{offset} ? $s{offset} : $s{run_sd} * $rng->normal;
	my $x = _process($rng, \%s);
	my $level = log($s{tps}) + log(1 + $s{shift}) + $offset;

	my (@points, %agg);
	my ($processed, $sum1, $sum2, $min, $max, $tps_mean) = (0, 0, 0, undef, undef, 0);
	my $var = $sigma * $sigma;
	for my $i (1 .. $n)
	{
		my $tps_i = exp($level + $x->[ $i - 1 ]);
		$tps_mean += $tps_i / $n;
		my $count = int($tps_i + 0.5);
		my %p = (t_s => $i, interval_s => 1, tps => $count, processed => $count, failures => 0,
			retried => 0, retries => 0, skipped => 0, lag_ms => undef, client => undef,
			server => undef, host => undef, stage_target => undef);
		if ($count == 0)
		{
			$p{latency_ms} = { map { $_ => undef } qw(average stddev min p50 p90 p99 p99.9 max) };
			$p{histogram} = undef;
			push @points, \%p;
			next;
		}
		# log median of the interval's latencies (us): mean clients / tps_i
		my $mu = log(1e6 * $clients / $tps_i) - $var / 2;
		my $key = POSIX::floor($mu / MU_STEP + 0.5);
		my ($b, $s1, $s2, $lo, $hi) = _draw_interval($rng, $key, $sigma, $count);
		my $m = POSIX::floor($key * MU_STEP / MIX_STEP + 0.5);
		$agg{ $_->[0] }{$m} += $_->[1] for @$b;
		$processed += $count;
		$sum1 += $s1;
		$sum2 += $s2;
		$min = $lo if !defined $min || $lo < $min;
		$max = $hi if !defined $max || $hi > $max;
		my $mean = $s1 / $count;
		my $v = $s2 / $count - $mean * $mean;
		$p{latency_ms} = {
			average => _ms($mean),
			stddev => _ms(sqrt($v > 0 ? $v : 0)),
			min => _ms(bucket_lowest($b->[0][0], COARSE_BITS)),
			p50 => _ms(bucket_percentile($b, COARSE_BITS, $count, 50, $lo, $hi)),
			p90 => _ms(bucket_percentile($b, COARSE_BITS, $count, 90, $lo, $hi)),
			p99 => _ms(bucket_percentile($b, COARSE_BITS, $count, 99, $lo, $hi)),
			'p99.9' => _ms(bucket_percentile($b, COARSE_BITS, $count, 99.9, $lo, $hi)),
			max => _ms(bucket_highest($b->[-1][0], COARSE_BITS)),
		};
		$p{histogram} = { min_us => $lo, max_us => $hi, latency_sum_us => $s1,
			latency_sum_squares_us => $s2, lag_sum_us => 0, buckets => $b };
		push @points, \%p;
	}
	die "synth_report: no transaction in the run\n" unless $processed > 0;
	my $fine = _fine_histogram($rng, \%agg, $sigma, $min, $max);

	my $doc = Storable::dclone($template);
	my $rid = SynthReport::Rng->new(seed_of('run_id', $s{seed}));
	$doc->{run_id} = sprintf('%016x%016x', $rid->next64, $rid->next64);
	my $start = $doc->{start_epoch_s} // 1795000000;
	$doc->{start_epoch_s} = $start;
	$doc->{start_time} = _iso($start);
	$doc->{end_epoch_s} = $start + $n;
	$doc->{end_time} = _iso($start + $n);
	$doc->{outcome} = 'completed';
	$doc->{error} = undef;
	$doc->{command_line} = [ 'pgbench-ng', '-S', '-c', "$clients", '-j', '1', '-T', "$n",
		'--report-json=synth.json' ];
	my $set = $doc->{settings};
	$set->{clients} = $clients;
	$set->{threads} = 1;
	$set->{transactions_per_client} = undef;
	$set->{duration_s} = $n;
	$set->{rate_tps} = undef;
	$set->{latency_limit_ms} = undef;
	$set->{random_seed} = ($s{seed} =~ /^[0-9]+$/ && $s{seed} < 2**53) ? 0 + $s{seed} : 0;
	$set->{server_stats} = JSON::PP::false;
	$set->{server_sample_interval_ms} = undef;
	$set->{progress_s} = undef;
	$set->{warmup_s} = undef;
	$set->{stages} = undef;
	$doc->{aborted} = JSON::PP::false;
	$doc->{aborted_clients} = [];
	$doc->{duration_s} = $n;
	$doc->{tps} = 0 + sprintf('%.6f', $processed / $n);
	my %tx = (processed => $processed, failed => 0, serialization_failures => 0,
		deadlock_failures => 0, other_failures => 0, connection_failures => 0, skipped => 0,
		retried => 0, retries => 0, total => $processed);
	$doc->{transactions} = { %tx, expected => undef, late => undef };
	$doc->{reconnect} = undef;
	$doc->{text_latency_average_ms} = 0 + sprintf('%.6f', 1000.0 * $n * $clients / $processed);
	$doc->{text_latency_average_derived} = JSON::PP::true;
	my $mean = $sum1 / $processed;
	my $v = $sum2 / $processed - $mean * $mean;
	my %pct;
	for my $name (keys %{ $doc->{latency_ms}{percentiles} || { p50 => 1 } })
	{
		next unless $name =~ /^p([0-9.]+)$/;
		$pct{$name} = _ms(bucket_percentile($fine, FINE_BITS, $processed, $1, $min, $max));
	}
	my %lat = (count => $processed, average => _ms($mean), stddev => _ms(sqrt($v > 0 ? $v : 0)),
		min => _ms($min), max => _ms($max));
	$doc->{latency_ms} = { %lat, percentiles => \%pct };
	$doc->{lag_ms} = undef;
	for my $script (@{ $doc->{scripts} })
	{
		$script->{transactions} = {%tx};
		$script->{processed_pct} = 100.0;
		$script->{tps} = $doc->{tps};
		$script->{latency_ms} = { %lat, percentiles => {%pct} };
		$script->{commands} = undef;
		$script->{latency_histogram} = undef;
	}
	$doc->{client} = { busiest_thread => 0, busiest_thread_busy_pct => 50.0,
		bound => JSON::PP::false, intervals_bound => 0 };
	$doc->{server_stats} = undef;
	$doc->{series} = { interval_s => 1, incomplete => JSON::PP::false,
		sub_bucket_bits => COARSE_BITS, points => \@points };
	my $sum_us = _int($sum1 - 0.5 * $processed);
	$sum_us = $processed * $min if $sum_us < $processed * $min;
	$sum_us = $processed * $max if $sum_us > $processed * $max;
	$doc->{latency_histogram} = {
		layout => 'log-linear', sub_bucket_bits => FINE_BITS, highest_us => HIGHEST_US,
		count => $processed, clamped => 0, min_us => $min, max_us => $max, sum_us => $sum_us,
		latency_sum_us => $sum1, latency_sum_squares_us => $sum2, buckets => $fine,
	};
	$doc->{rendezvous} = undef;
	my $m = $doc->{merge};
	$m->{instances} = 1;
	$m->{progress_s} = undef;
	$m->{start_epoch_us} = _int($start * 1e6) unless defined $m->{start_epoch_us};
	$m->{bench_duration_us} = $n * 1000000;
	$m->{conn_duration_us} = 0;
	$m->{lag_sum_us} = 0;
	$doc->{inputs} = undef;
	$doc->{servers} = undef;
	$doc->{thresholds} = undef;

	my $info = { truth => true_changes($s{shift}), offset => $offset, tps => $tps_mean,
		seed => $s{seed}, spec => \%s };
	return wantarray ? ($doc, $info) : $doc;
}

# ---- writing ------------------------------------------------------------------------------
#
# The document through JSON::PP (keys sorted), except its big arrays, the
# series' points and the run's buckets, written by hand (in the order the
# program writes a point): a 600-point report in some 10 ms.

my @POINT_KEYS = qw(t_s interval_s tps processed failures retried retries skipped);
my @POINT_LAT = qw(average stddev min p50 p90 p99 p99.9 max);
my @POINT_HIST = qw(min_us max_us latency_sum_us latency_sum_squares_us lag_sum_us);
my %POINT_KNOWN = map { $_ => 1 } @POINT_KEYS,
  qw(latency_ms lag_ms client server host histogram stage_target);
my $JSON = JSON::PP->new->canonical->allow_nonref;

sub _num { return defined $_[0] ? "$_[0]" : 'null'; }

sub _buckets_text { return '[' . join(',', map { "[$_->[0],$_->[1]]" } @{ $_[0] }) . ']'; }

sub _point_text
{
	my ($p) = @_;
	my @parts = map { "\"$_\":" . _num($p->{$_}) } @POINT_KEYS;
	my $lat = $p->{latency_ms};
	push @parts, '"latency_ms":' . (defined $lat
		? '{' . join(',', map { "\"$_\":" . _num($lat->{$_}) } @POINT_LAT) . '}' : 'null');
	push @parts, "\"$_\":" . $JSON->encode($p->{$_}) for qw(lag_ms client server host);
	my $h = $p->{histogram};
	push @parts, '"histogram":' . (defined $h
		? '{' . join(',', (map { "\"$_\":" . _num($h->{$_}) } @POINT_HIST),
			'"buckets":' . _buckets_text($h->{buckets})) . '}'
		: 'null');
	push @parts, '"stage_target":' . _num($p->{stage_target});
	push @parts, "\"$_\":" . $JSON->encode($p->{$_}) for grep { !$POINT_KNOWN{$_} } sort keys %$p;
	return '{' . join(',', @parts) . '}';
}

# the JSON text of a report document
sub report_text
{
	my ($doc) = @_;
	my %top = %$doc;
	my ($points, $fine);
	if (ref $top{series} eq 'HASH')
	{
		$top{series} = { %{ $top{series} }, points => '@@SYNTH_POINTS@@' };
		$points = '[' . join(",\n", map { _point_text($_) } @{ $doc->{series}{points} }) . ']';
	}
	if (ref $top{latency_histogram} eq 'HASH')
	{
		$top{latency_histogram} = { %{ $top{latency_histogram} }, buckets => '@@SYNTH_BUCKETS@@' };
		$fine = _buckets_text($doc->{latency_histogram}{buckets});
	}
	my $text = $JSON->encode(\%top);
	$text =~ s/"\@\@SYNTH_POINTS\@\@"/$points/ if defined $points;
	$text =~ s/"\@\@SYNTH_BUCKETS\@\@"/$fine/ if defined $fine;
	return "$text\n";
}

sub write_report
{
	my ($path, $doc) = @_;
	open my $fh, '>', $path or die "$path: $!\n";
	print {$fh} report_text($doc) or die "$path: $!\n";
	close $fh or die "$path: $!\n";
	return $path;
}

1;
