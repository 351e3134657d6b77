#!/usr/bin/perl
# cg_split.pl — split a callgrind profile's instructions (event Ir) by who
# executes them: "own" (the program's own functions, plus everything its
# functions call directly in the C library, string functions, ppoll and
# clock reads included), "alloc" (the allocator: jemalloc's or mimalloc's
# object, or glibc's malloc family, whoever calls it) and "libpq" (the
# rest: libpq and what it calls: libc, OpenSSL, Kerberos, the kernel's
# vDSO; and the dynamic linker).
#
#   cg_split.pl CALLGRIND.OUT      prints: total own alloc libpq
#   cg_split.pl --own CALLGRIND.OUT  prints the own part per function:
#                                  "COST NAME" lines (a libc callee as
#                                  "libc:NAME"), then the totals line
#
# The program's object is the executable named by the profile's "cmd:"
# line.  A direct call's cost is the callee's inclusive cost as callgrind
# recorded it for that call site; the allocator's share inside such a call
# (strdup's malloc) stays in "own".  Used by measure.sh (bench/README.md).
use strict;
use warnings;
use Cwd qw(realpath);

my $detail = @ARGV && $ARGV[0] eq '--own' ? shift : '';
my $file = shift or die "usage: cg_split.pl [--own] CALLGRIND.OUT\n";
open(my $fh, '<', $file) or die "cg_split.pl: $file: $!\n";

my (%ob_name, %fn_name, %fn_ob);    # compressed ids -> names; function -> object id
my ($main_path, $ob, $fn, $cob, $cfn, $in_call) = ('', '', '', undef, undef, 0);
my (%self, %direct_libc);             # per function: self cost; own->libc inclusive cost
my $total = 0;

# "(id) name" or "(id)": the id, and the name learnt the first time
sub ref_of
{
	my ($text, $names) = @_;
	if ($text =~ /^\((\d+)\)\s*(.*)$/)
	{
		$names->{$1} = $2 if $2 ne '';
		return $1;
	}
	$names->{$text} = $text;    # uncompressed names are their own ids
	return $text;
}

while (my $line = <$fh>)
{
	chomp $line;
	if ($line =~ /^cmd:\s+(\S+)/)
	{
		$main_path = realpath($1) // $1;
	}
	elsif ($line =~ /^ob=(.*)$/)
	{
		$ob = ref_of($1, \%ob_name);
	}
	elsif ($line =~ /^fn=(.*)$/)
	{
		$fn = ref_of($1, \%fn_name);
		$fn_ob{$fn} //= $ob;
	}
	elsif ($line =~ /^cob=(.*)$/)
	{
		$cob = ref_of($1, \%ob_name);
	}
	elsif ($line =~ /^cfn=(.*)$/)
	{
		$cfn = ref_of($1, \%fn_name);
		$fn_ob{$cfn} //= $cob // $ob;
	}
	elsif ($line =~ /^calls=/)
	{
		$in_call = 1;
	}
	elsif ($line =~ /^[+\-*\d]/)
	{
		my (undef, $ir) = split ' ', $line;
		$ir //= 0;
		if ($in_call)
		{
			$direct_libc{$fn}{$cfn} += $ir;
			($in_call, $cob, $cfn) = (0, undef, undef);
		}
		else
		{
			$self{$fn} += $ir;
			$total += $ir;
		}
	}
}
close $fh;

my $alloc_fn = qr/^(?:__libc_)?(?:malloc|free|calloc|realloc|cfree|memalign|posix_memalign|aligned_alloc)$
	|^_int_(?:malloc|free|realloc|memalign)|^malloc_consolidate$|^sysmalloc$|^unlink_chunk
	|^tcache_|^arena_get|^_mid_memalign$|^__malloc_/x;
sub object_of { my ($f) = @_; return $ob_name{ $fn_ob{$f} // '' } // ''; }
sub is_alloc
{
	my ($f) = @_;
	my $o = object_of($f);
	return 1 if $o =~ m{/lib(?:jemalloc|mimalloc)[^/]*$};
	return $o =~ m{/libc\.so} && ($fn_name{$f} // '') =~ $alloc_fn;
}
# "(below main)" is callgrind's name for the start-up code that calls main
sub is_main
{
	my ($f) = @_;
	return 0 if ($fn_name{$f} // '') eq '(below main)';
	my $o = object_of($f);
	return $o ne '' && (realpath($o) // $o) eq $main_path;
}
sub is_libc { my ($f) = @_; return object_of($f) =~ m{/libc\.so|linux-vdso|libm\.so}; }

my ($own, $alloc) = (0, 0);
my %own_of;    # --own: function (or libc:callee) -> its own cost
for my $f (keys %self)
{
	$alloc += $self{$f} if is_alloc($f);
	next unless is_main($f);
	$own += $self{$f};
	$own_of{ $fn_name{$f} // $f } += $self{$f};
}
for my $f (grep { is_main($_) } keys %direct_libc)
{
	for my $callee (keys %{ $direct_libc{$f} })
	{
		# the start-up calls that run the whole program are not direct calls' work
		next if is_main($callee) || is_alloc($callee) || !is_libc($callee)
		  || ($fn_name{$callee} // '') =~ /^(?:__libc_start|start_thread|clone|exit)/;
		$own += $direct_libc{$f}{$callee};
		$own_of{ 'libc:' . ($fn_name{$callee} // $callee) } += $direct_libc{$f}{$callee};
	}
}
die "cg_split.pl: $file: the program's object ($main_path) has no cost\n" unless $own > 0;
if ($detail)
{
	printf "%d %s\n", $own_of{$_}, $_ for sort { $own_of{$b} <=> $own_of{$a} } keys %own_of;
}
printf "%d %d %d %d\n", $total, $own, $alloc, $total - $own - $alloc;
