#!/usr/bin/perl
# fleet-synth.pl — synthetic instance reports for timing --merge-reports
# (doc/fleet.md, "The cost of merging"):
#
#   perl scripts/fleet-synth.pl BASE.json COUNT POINTS PREFIX
#
# writes PREFIX1.json .. PREFIX<COUNT>.json, copies of a real --report-json
# document BASE.json as members of one --rendezvous group, each with its
# series stretched (or cut) to POINTS intervals by repeating BASE's full
# intervals.  The totals are left as they are: the files are for timing
# the merge, not for its figures.
use strict;
use warnings;
use JSON::PP;

my ($base, $count, $npoints, $prefix) = @ARGV;
die "usage: $0 BASE.json COUNT POINTS PREFIX\n" unless defined $prefix;

open my $in, '<', $base or die "$base: $!\n";
my $doc = decode_json(do { local $/; <$in> });
close $in;

my $json = JSON::PP->new->canonical;
# a full interval: within 5% of the series' (the ticker reads a tick a
# little late, so its records are not exactly the interval long)
my @full = grep { abs($_->{interval_s} - $doc->{series}{interval_s}) < 0.05 * $doc->{series}{interval_s} }
  @{ $doc->{series}{points} };
die "$base: no full interval in its series\n" unless @full;

# each point once as text, with its t_s to fill in
my @texts = map {
	my %p = %$_;
	$p{t_s} = '__T_S__';
	$p{interval_s} = $doc->{series}{interval_s};
	$json->encode(\%p);
} @full;
my $interval = $doc->{series}{interval_s};
my $points = join(',', map {
		my $t = $texts[ $_ % @texts ];
		my $ts = ($_ + 1) * $interval;
		$t =~ s/"__T_S__"/$ts/;
		$t
	} 0 .. $npoints - 1);

$doc->{series}{points} = [];
$doc->{merge}{bench_duration_us} = $npoints * $interval * 1e6;
$doc->{merge}{conn_elapsed_us} = 0;
for my $i (1 .. $count)
{
	$doc->{rendezvous} = {
		group => 'synth', size => $count + 0, member => $i - 1,
		start_server_epoch_us => $doc->{merge}{start_epoch_us},
		clock_offset_us => 0, clock_rtt_us => 0,
	};
	# a run id of its own: the merge refuses one run twice
	$doc->{run_id} = sprintf('%032x', $i) if exists $doc->{run_id};
	my $text = $json->encode($doc);
	$text =~ s/"points":\[\]/"points":[$points]/ or die "no points member\n";
	open my $out, '>', "$prefix$i.json" or die "$prefix$i.json: $!\n";
	print $out $text, "\n";
	close $out;
}
