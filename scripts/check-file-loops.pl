#!/usr/bin/perl
# check-file-loops.pl BUILD_DIR — no loop between the program's source files.
#
# Reads, with nm, the global symbols each object of the program defines
# and uses (BUILD_DIR/pgbench.p and the libraries under BUILD_DIR/src; the
# unit tests and fuzz targets are not the program).  File A calls file B
# when A uses a symbol B defines.  Fails (exit 1) on any loop, printing
# each one as a path with the symbols of every step; with --graph, prints
# every file's calls first.
#
# Calls read from the objects, not from the includes: this catches what
# scripts/check-layers.pl cannot see, two files of one unit calling each
# other (the unit's header covers both).
#
# No file is exempt: the flex/bison front end (lexer/, grammar/) counts as
# any other, so the grammar's actions build down (src/script/expr_build.c)
# and errors are recorded by the scanner, below the parser
# (src/script/expr_build.h draws those files).
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Find;
use File::Spec;
use JSON::PP qw(decode_json);

my $print_graph = grep { $_ eq '--graph' } @ARGV;
my @args = grep { $_ ne '--graph' } @ARGV;
my $build = $args[0] or die "usage: $0 BUILD_DIR [--graph]\n";

# The executable's own objects, and those of every library built under
# src/ (the core library, the libpq session's, any a subfolder adds).
my @objects = glob("$build/pgbench.p/*.o");
find(sub { push @objects, $File::Find::name if /\.o$/ }, "$build/src") if -d "$build/src";
die "check-file-loops: no objects of the program under $build (build it first)\n"
  unless @objects;

# Each object's source file, from meson's compile_commands.json: a path
# in the build's source tree (meson-info.json) as it is ("src/init/init.c"); a
# file generated in the build directory by the one it comes from
# ("lexer/script_exprscan.l").
my $build_abs = abs_path($build);
my $top = abs_path(dirname(abs_path($0)) . '/..');
if (open(my $info, '<', "$build/meson-info/meson-info.json"))
{
	local $/;
	my $source = decode_json(<$info>)->{directories}{source};
	$top = abs_path($source) // $top if defined $source;
}
my %source_of;
if (open(my $fh, '<', "$build/compile_commands.json"))
{
	local $/;
	for my $entry (@{ decode_json(<$fh>) })
	{
		my $object = abs_path(File::Spec->rel2abs($entry->{output}, $entry->{directory})) // next;
		my $file = File::Spec->rel2abs($entry->{file}, $entry->{directory});
		$file = abs_path($file) // $file;
		if (index($file, "$build_abs/") == 0)
		{
			$file = substr($file, length($build_abs) + 1);
			$file =~ s{^(lexer/\w+)\.c$}{$1.l} or $file =~ s{^(grammar/\w+)\.c$}{$1.y}
			  or $file .= ' (generated)';
		}
		elsif (index($file, "$top/") == 0)
		{
			$file = substr($file, length($top) + 1);
		}
		$source_of{$object} = $file;
	}
}

# Without compile_commands.json, from the object's name:
# "meson-generated_.._.._lexer_script_exprscan.c.o" -> "lexer/script_exprscan.l",
# "src_main.c.o" -> "src/main.c", "init.c.o" -> "src/init/init.c".
sub file_of
{
	my ($object) = @_;
	my $known = $source_of{ abs_path($object) // $object };
	return $known if defined $known;
	my ($name) = $object =~ m{([^/]+)\.o$};
	return "lexer/$1.l" if $name =~ /_lexer_(\w+)\.c$/;
	return "grammar/$1.y" if $name =~ /_grammar_(\w+)\.c$/;
	return "src/$1 (generated)" if $name =~ /^meson-generated_.*?_(\w+\.c)$/;
	return "src/$1" if $name =~ /^src_(\w+\.c)$/;
	return "src/$name";
}

my (%defined_by, %uses);
for my $object (@objects)
{
	my $file = file_of($object);
	open(my $nm, '-|', 'nm', '-P', $object) or die "nm $object: $!";
	while (<$nm>)
	{
		my ($symbol, $type) = split;
		next unless defined $type;
		if ($type eq 'U') { $uses{$file}{$symbol} = 1 }
		elsif ($type =~ /^[A-TV-Z]$/) { $defined_by{$symbol} = $file }
	}
	close($nm) or die "nm $object failed\n";
}

# LTO objects hold no machine code: nm reads their symbols through the
# linker plugin, and without it sees none.  Better fail than pass on nothing.
die "check-file-loops: nm read no symbol from the objects under $build\n" unless %defined_by;

# edges{A}{B} = [symbols of B that A uses]
my %edges;
for my $file (sort keys %uses)
{
	for my $symbol (sort keys %{ $uses{$file} })
	{
		my $to = $defined_by{$symbol};
		push @{ $edges{$file}{$to} }, $symbol if defined $to && $to ne $file;
	}
}
my %files = map { $_ => 1 } map { file_of($_) } @objects;

if ($print_graph)
{
	for my $f (sort keys %files)
	{
		my @to = sort keys %{ $edges{$f} // {} };
		print "$f -> ", join(', ', @to), "\n" if @to;
	}
}

# Tarjan's strongly connected components: a loop is a component of more than one file.
my ($counter, %index, %low, @stack, %on_stack, @components) = (0);
sub strong
{
	my ($v) = @_;
	$index{$v} = $low{$v} = $counter++;
	push @stack, $v;
	$on_stack{$v} = 1;
	for my $w (sort keys %{ $edges{$v} // {} })
	{
		if (!defined $index{$w}) { strong($w); $low{$v} = $low{$w} if $low{$w} < $low{$v} }
		elsif ($on_stack{$w} && $index{$w} < $low{$v}) { $low{$v} = $index{$w} }
	}
	return unless $low{$v} == $index{$v};
	my @component;
	while (1)
	{
		my $w = pop @stack;
		delete $on_stack{$w};
		push @component, $w;
		last if $w eq $v;
	}
	push @components, [ sort @component ] if @component > 1;
}
defined $index{$_} or strong($_) for sort keys %files;

# One loop inside a component, as a path back to its first file.
sub loop_in
{
	my ($component) = @_;
	my %in = map { $_ => 1 } @$component;
	my $start = $component->[0];
	my (%seen, @path);
	my $walk;
	$walk = sub {
		my ($v) = @_;
		push @path, $v;
		for my $w (sort keys %{ $edges{$v} // {} })
		{
			next unless $in{$w};
			return 1 if $w eq $start;
			next if $seen{$w}++;
			return 1 if $walk->($w);
		}
		pop @path;
		return 0;
	};
	$walk->($start);
	my @steps;
	for my $i (0 .. $#path)
	{
		my ($from, $to) = ($path[$i], $path[ ($i + 1) % @path ]);
		my @symbols = @{ $edges{$from}{$to} };
		my $shown = join(', ', @symbols[ 0 .. ($#symbols < 2 ? $#symbols : 2) ]);
		$shown .= ', ...' if @symbols > 3;
		push @steps, "$from -> $to ($shown)";
	}
	return @steps;
}

my $failed = 0;
for my $component (@components)
{
	$failed++;
	print "check-file-loops: LOOP: ", join(' <-> ', @$component), "\n";
	print "    $_\n" for loop_in($component);
}
printf "check-file-loops: %d files, %d caller-callee pairs, %s\n",
  scalar(keys %files), scalar(map { keys %$_ } values %edges),
  $failed ? "$failed loop(s)" : 'no loop';
exit($failed ? 1 : 0);
