# PgbStats.pm — helpers for the report, progress and log tests: masking of
# the figures that depend on timing, so that an output can be compared line
# by line with a template of pgbench 16's format or with the system
# pgbench's output for the same command line.
package PgbStats;

use strict;
use warnings;
use Exporter 'import';
use Test::More;

our @EXPORT = qw(mask_numbers compare_lines);

# Every number becomes N (NaN stays: pgbench prints it for 0/0), the banner
# carries the versions, and runs of blanks collapse to one (the -r columns
# are padded to the width of their figures).
sub mask_numbers
{
	my ($s) = @_;
	$s =~ s/^pgbench \(.*\)$/pgbench (VERSION)/mg;
	$s =~ s/-?\d+(?:\.\d+)?/N/g;
	$s =~ s/ {2,}/ /g;
	return $s;
}

# compare_lines($got, $want, $name): one test; on failure the first line
# that differs is shown with its number.
sub compare_lines
{
	my ($got, $want, $name) = @_;
	my @g = split /\n/, $got, -1;
	my @w = split /\n/, $want, -1;
	for my $i (0 .. ($#g > $#w ? $#g : $#w))
	{
		my $gl = $g[$i] // '<none>';
		my $wl = $w[$i] // '<none>';
		next if $gl eq $wl;
		fail($name);
		diag("line " . ($i + 1) . ":\n   got: $gl\n  want: $wl\n--- got:\n$got--- want:\n$want");
		return 0;
	}
	pass($name);
	return 1;
}

1;
