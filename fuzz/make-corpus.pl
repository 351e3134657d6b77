#!/usr/bin/env perl
# make-corpus.pl — write the raw seed inputs of the fuzz targets, gathered
# from the tests, into OUTDIR/script/ and OUTDIR/options/ (one file per
# seed, named by its digest).  scripts/fuzz.sh -merge's them into
# fuzz/corpus/, keeping only the seeds that add coverage.
#   perl fuzz/make-corpus.pl OUTDIR [PGBENCH]
# script seeds: every string literal of t/*.pl and t/unit/*.c that looks
# like a script (a meta-command or an SQL keyword), each expression of
# t/expr_diff.pl as a "\set" line, and, when PGBENCH is given, the builtin
# scripts as --show-script prints them.
# options seeds: every list of quoted words in those files that starts
# with an option ("-c", "--rate=10"), one argument per line; a word that
# is a path becomes "s.sql", the script the options target provides.
use strict;
use warnings;
use Digest::MD5 qw(md5_hex);
use File::Path qw(make_path);

my ($out, $pgbench) = @ARGV;
die "usage: $0 OUTDIR [PGBENCH]\n" unless defined $out;
my $top = $0 =~ s{/?fuzz/make-corpus\.pl$}{}r || '.';
make_path("$out/script", "$out/options");

sub put
{
	my ($kind, $text) = @_;
	return if $text eq '' || length($text) > 4096;
	open my $fh, '>', "$out/$kind/" . md5_hex($text) or die "$out/$kind: $!\n";
	print $fh $text;
	close $fh;
}

# The value of a Perl or C double-quoted literal's body.
sub unquote
{
	my ($s) = @_;
	my %esc = (n => "\n", t => "\t", r => "\r", '0' => "\0");
	$s =~ s/\\(.)/exists $esc{$1} ? $esc{$1} : $1/ge;
	return $s;
}

my $dq = qr/"((?:[^"\\]|\\.)*)"/;
my $sq = qr/'((?:[^'\\]|\\.)*)'/;
my @files = (glob("$top/t/*.pl"), glob("$top/t/unit/*.c"));
for my $file (@files)
{
	open my $fh, '<', $file or die "$file: $!\n";
	my $src = do { local $/; <$fh> };
	close $fh;

	# adjacent literals joined by "." (Perl) or white space (C) are one
	my $joined = $src;
	1 while $joined =~ s/$dq\s*\.?\s*\n?\s*$dq/"$1$2"/;
	while ($joined =~ /$dq/g)
	{
		my $text = unquote($1);
		put('script', $text)
		  if $text =~ /\\(?:set|if|elif|else|endif|sleep|shell|setshell|gset|aset|\w+pipeline)\b/
		  || $text =~ /^\s*(?:select|insert|update|begin|end|with)\b/i;
	}
	if ($file =~ /expr_diff\.pl$/)
	{
		while ($src =~ /^\s*\[?\s*$sq/mg)
		{
			my $expr = $1;
			put('script', "\\set x debug($expr)\n") if $expr =~ /\S/;
		}
	}

	# argument lists: Perl [ '-c', '2' ] and C {"-c", "2", NULL}
	while ($src =~ /[\[\{]\s*((?:(?:$sq|$dq)\s*,\s*)*(?:$sq|$dq))\s*(?:,\s*NULL\s*)?,?\s*[\]\}]/g)
	{
		my $list = $1;
		my @words;
		while ($list =~ /$sq|$dq/g)
		{
			my $w = defined $1 ? $1 : unquote($2);
			$w = 's.sql' if $w =~ m{[/\$]};
			push @words, $w;
		}
		put('options', join('', map { "$_\n" } @words)) if $words[0] =~ /^-/;
	}
}

if (defined $pgbench)
{
	for my $name (qw(tpcb-like simple-update select-only))
	{
		my $text = `'$pgbench' --show-script=$name 2>&1 >/dev/null`;
		$text =~ s/^-- .*\n//;
		put('script', $text);
	}
}
