#!/usr/bin/perl
# check-layers.pl — the units' include graph must run one way.
#
# Each header include/pgbench/FOLDER/NAME.h is a unit; a source src/FOLDER/NAME*.c
# belongs to the unit whose name is its longest prefix (client_tx.c is
# part of client).  Unit A depends on unit B when a file of A includes
# B's header.  Fails (exit 1) when the graph has a cycle or when a rule
# below is broken; with --graph, prints the dependencies, one unit a line.
use strict;
use warnings;

my $top = $ARGV[0] && $ARGV[0] ne '--graph' ? shift : '.';
my $print_graph = grep { $_ eq '--graph' } @ARGV;

my %units = map { m{/(\w+)\.h$} ? ($1 => 1) : () } glob("$top/include/pgbench/*/*.h");

# Headers private to one unit (its files share them; nobody else may).
my %internal = (options_table => 'options', client_int => 'client', init_plan => 'init');

sub unit_of
{
	my ($file) = @_;
	my ($base) = $file =~ m{/(\w+)\.[ch]$} or return undef;
	return $internal{$base} if $internal{$base};
	return $base if $units{$base};
	my ($best) = sort { length($b) <=> length($a) }
	  grep { index($base, "${_}_") == 0 } keys %units;
	return $best // $base;
}

my (%deps, %includers);
for my $file (glob("$top/src/*.c"), glob("$top/src/*/*.c"), glob("$top/src/*/*.h"),
	glob("$top/include/pgbench/*/*.h"))
{
	my $unit = unit_of($file);
	open(my $fh, '<', $file) or die "$file: $!";
	while (<$fh>)
	{
		next unless /^#include "(?:pgbench\/\w+\/)?(\w+)\.h"/;
		my $dep = $internal{$1} // $1;
		next unless $units{$dep};
		push @{ $includers{$dep} }, $file;
		$deps{$unit}{$dep} = 1 if $dep ne $unit;
	}
}

my @errors;

# Rules the design names (doc/design.md).
my %allowed_options = map { $_ => 1 } qw(main options bench init);
for my $file (@{ $includers{options} // [] })
{
	my $unit = unit_of($file);
	push @errors, "$file includes options.h (only main, options, bench and init may)"
	  unless $allowed_options{$unit};
}
push @errors, "client depends on thread" if $deps{client}{thread};
push @errors, "metacmd depends on client" if $deps{metacmd}{client};

# Folders: a file of src/F/ or include/pgbench/F/ may include the headers
# of the folders src/F/README.md names on its "May call:" line ("every
# folder" allows all); the folders' graph is then one way too, as the
# READMEs put it.
my %folders = map { m{/src/(\w+)/README\.md$} ? ($1 => 1) : () } glob("$top/src/*/README.md");
sub folder_of { my ($f) = @_; return $f =~ m{/(?:src|include/pgbench)/(\w+)/[^/]+$} ? $1 : undef }
my %may;
for my $folder (keys %folders)
{
	open(my $fh, '<', "$top/src/$folder/README.md") or die "$folder/README.md: $!";
	local $/;
	my ($line) = <$fh> =~ /^May call:(.*?)(?:\n\n|\z)/ms;
	push @errors, "src/$folder/README.md has no \"May call:\" paragraph" unless defined $line;
	$line //= '';
	$may{$folder} = $line =~ /every folder/ ? { map { $_ => 1 } keys %folders }
	  : { map { $_ => 1 } grep { $folders{$_} } $line =~ /(\w+)/g };
}
for my $file (glob("$top/src/*/*.[ch]"), glob("$top/include/pgbench/*/*.h"))
{
	my $from = folder_of($file) or next;
	push @errors, "$file: folder $from has no README.md" and next unless $folders{$from};
	open(my $fh, '<', $file) or die "$file: $!";
	while (<$fh>)
	{
		next unless m{^#include "pgbench/(\w+)/\w+\.h"};
		push @errors, "$file includes a header of $1 (src/$from/README.md: not on its May call line)"
		  unless $1 eq $from || $may{$from}{$1};
	}
}

# /proc is read by the samplers only (src/host/README.md): the ticker, the
# monitor and the worker threads' own CPU.
my %samplers = map { $_ => 1 } qw(ticker monitor thread hoststat procstat);
for my $file (map { @{ $includers{$_} // [] } } qw(hoststat procstat))
{
	my $unit = unit_of($file);
	push @errors, "$file includes a header of host (only the samplers may: src/host/README.md)"
	  unless $samplers{$unit};
}

# The wings (doc/design.md): nothing the report or the offline tools
# include, directly or through other headers, is an engine header; the
# offline tools, which only read report files, include neither the stats
# slot the workers publish to nor the /proc samplers' readers.
my %forbidden = (
	report => [qr{^engine/}],
	offline => [qr{^engine/}, qr{^stats/stats_slot\.h$}, qr{^host/}],
);
my %closure;
sub includes_of
{
	my ($file) = @_;
	return @{ $closure{$file} } if $closure{$file};
	$closure{$file} = [];
	my ($dir) = $file =~ m{^(.*)/[^/]+$};
	open(my $fh, '<', $file) or return ();
	my %seen;
	while (<$fh>)
	{
		next unless /^#include "([\w\/.]+)"/;
		my $inc = $1;
		my $path = $inc =~ m{^pgbench/} ? "$top/include/$inc" : "$dir/$inc";
		next unless -f $path;
		my $name = $inc =~ m{^pgbench/(.*)$} ? $1 : undef;
		$seen{$name} = 1 if defined $name;
		$seen{$_} = 1 for includes_of($path);
	}
	$closure{$file} = [ sort keys %seen ];
	return @{ $closure{$file} };
}
for my $wing (sort keys %forbidden)
{
	for my $file (glob("$top/src/$wing/*.[ch]"), glob("$top/include/pgbench/$wing/*.h"))
	{
		for my $inc (includes_of($file))
		{
			push @errors, "$file includes pgbench/$inc (the $wing wing may not, doc/design.md)"
			  if grep { $inc =~ $_ } @{ $forbidden{$wing} };
		}
	}
}

# No cycle: depth-first search with colours.
my %colour;
sub visit
{
	my ($u, @path) = @_;
	return if ($colour{$u} // 0) == 2;
	if (($colour{$u} // 0) == 1)
	{
		my @cycle = (@path[ (grep { $path[$_] eq $u } 0 .. $#path)[0] .. $#path ], $u);
		push @errors, "cycle: " . join(' -> ', @cycle);
		return;
	}
	$colour{$u} = 1;
	visit($_, @path, $u) for sort keys %{ $deps{$u} // {} };
	$colour{$u} = 2;
}
visit($_) for sort keys %deps;

if ($print_graph)
{
	for my $u (sort keys %deps)
	{
		my @d = sort keys %{ $deps{$u} };
		printf "%-14s -> %s\n", $u, join(' ', @d) if @d;
	}
}
print "layers: $_\n" for @errors;
print "layers: one-way include graph, " . scalar(keys %deps) . " units\n" unless @errors;
exit(@errors ? 1 : 0);
