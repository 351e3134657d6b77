# manpage.pl — doc/pgbench.1 is the manual: groff formats it without a
# warning, and it documents every option --help prints in every
# compatibility mode, every meta-command the script parser knows, every
# function and operator of the expression language.  The names are taken
# from the program and its sources, not from a list kept here, so a new
# option, meta-command or function without its entry fails this test.
# No server is needed.
use strict;
use warnings;
use IPC::Run qw(run);
use Test::More;
use PgbTest;
use File::Basename ();
use JSON::PP ();

my $ours = our_pgbench_path();
my $src = $ENV{PGBENCH_SRC} || die "PGBENCH_SRC is not set (run through meson test)\n";
my $page = "$src/doc/pgbench.1";

sub slurp
{
	my ($path) = @_;
	open my $fh, '<', $path or die "cannot read $path: $!";
	local $/;
	return scalar <$fh>;
}

my $man = slurp($page);

# How a name is written in roff source: every hyphen as \-.
sub roff
{
	my ($text) = @_;
	(my $r = $text) =~ s/-/\\-/g;
	return $r;
}

# The tag lines of the page: the line after each .TP, where an entry's
# name stands.  A name mentioned only in passing does not count.
my @lines = split /\n/, $man;
my @tags;
for my $i (0 .. $#lines - 1)
{
	push @tags, $lines[ $i + 1 ] if $lines[$i] =~ /^\.TP\b/;
}
my $tags = join "\n", @tags;

# The text of one section, from its .SH to the next.
sub section
{
	my ($name) = @_;
	my ($body) = $man =~ /^\.SH "?\Q$name\E"?\n(.*?)(?=^\.SH |\z)/ms;
	return $body;
}

# --- groff ------------------------------------------------------------

SKIP:
{
	my $have_groff = grep { -x "$_/groff" } split /:/, ($ENV{PATH} // '');
	skip 'groff is not installed', 3 unless $have_groff;

	my ($out, $err) = ('', '');
	my $ok = run [ 'groff', '-ww', '-man', '-Tutf8', $page ], '<', \undef,
	  '>', \$out, '2>', \$err;
	ok($ok, 'groff -ww -man exits 0');
	is($err, '', 'groff -ww -man prints no warning');
	# the page really was formatted: a heading from the middle of the file
	# and the last section are in the output (bold taken off first)
	$out =~ s/\e\[[0-9;]*m//g;
	$out =~ s/.\x08//g;
	ok($out =~ /^META-COMMANDS$/m && $out =~ /^SEE ALSO$/m,
		'the formatted page has its sections');
}

# --- options ----------------------------------------------------------

# Option names from one --help output: "  -c, --client=NUM", "  --debug",
# "  -?, --help"; continuation lines start with more blanks or "(".
sub help_options
{
	my ($help) = @_;
	my %opt;
	for my $line (split /\n/, $help)
	{
		next unless $line =~ /^  (?:(-[^-\s]),? ?)?(--[a-z][a-z-]*)?/;
		$opt{$1} = 1 if defined $1;
		$opt{$2} = 1 if defined $2;
	}
	return keys %opt;
}

my %options;
for my $mode (16 .. 19)
{
	my ($out, $err) = ('', '');
	run [ $ours, '--help', "--compat=$mode" ], '<', \undef, '>', \$out, '2>', \$err;
	is($err, '', "--help --compat=$mode prints nothing on stderr");
	my @found = help_options($out);
	# pgbench 16's list alone has 50 options; a parse that finds few is broken
	cmp_ok(scalar @found, '>=', 50, "--help --compat=$mode lists options");
	$options{$_}{$mode} = 1 for @found;
}

for my $opt (sort keys %options)
{
	my $r = quotemeta(roff($opt));
	# not a prefix of a longer name: --scale is not --scale-x
	ok($tags =~ /$r(?![A-Za-z0-9]|\\-[A-Za-z])/,
		"option $opt (modes " . join(',', sort keys %{ $options{$opt} })
		  . ') has an entry in the man page');
}

# --- meta-commands ----------------------------------------------------

my @meta = slurp("$src/src/script/script.c") =~ /\{"([a-z]+)",\s*META_[A-Z]+\}/g;
cmp_ok(scalar @meta, '>=', 13, 'meta-commands found in src/script/script.c');
my $metasec = section('META-COMMANDS') // '';
for my $m (@meta)
{
	ok($metasec =~ /^\.(?:TP\n)?\.?[A-Z]*.*\\e\Q$m\E\b/m && $tags =~ /\\e\Q$m\E\b/,
		"meta-command \\$m has an entry under META-COMMANDS");
}

# --- functions and operators -----------------------------------------

my @funcs = slurp("$src/src/script/expr_build.c") =~ /\{"([a-z_0-9]+)",\s*-?\d+,\s*PGBF_[A-Z_0-9]+\}/g;
cmp_ok(scalar @funcs, '>=', 20, 'functions found in src/script/expr_build.c');
my $exprsec = section('EXPRESSIONS') // '';
for my $f (@funcs)
{
	ok($exprsec =~ /^\.B[IR]? \Q$f\E\(/m || $exprsec =~ /[ "]\Q$f\E\(/,
		"function $f() has an entry under EXPRESSIONS");
}

my $lexer = slurp("$src/lexer/script_exprscan.l");
my (@ops, @keywords);
for my $line (split /\n/, $lexer)
{
	if ($line =~ /^"[^"]+"(?:\|"[^"]+")*\s+\{\s*return/)
	{
		push @ops, grep { !/^[(),]$/ && !/^\d+$/ } $line =~ /"([^"]+)"/g;
	}
	push @keywords, $1 if $line =~ /^\(\?i:([a-z]+)\)/;
}
cmp_ok(scalar @ops, '>=', 18, 'operators found in lexer/script_exprscan.l');
cmp_ok(scalar @keywords, '>=', 14, 'keywords found in lexer/script_exprscan.l');
my @macro_lines = grep { /^\./ } split /\n/, $exprsec;
my $macros = join "\n", @macro_lines;
for my $op (@ops)
{
	my $r = quotemeta(roff($op));
	ok($macros =~ /(?:^|[ "])$r(?:[ "]|$)/m, "operator $op is listed under EXPRESSIONS");
}
for my $kw (@keywords)
{
	ok($macros =~ /\b\Q$kw\E\b/i, "keyword \U$kw\E is listed under EXPRESSIONS");
}

# --- the other parts the manual must have ----------------------------

for my $sec ('CUSTOM SCRIPTS', 'META-COMMANDS', 'EXPRESSIONS', 'OUTPUT',
	'LOG FILES', 'EXTENSIONS', 'SIGNALS', 'COMPATIBILITY MODES',
	'DIFFERENCES FROM PGBENCH', 'ENVIRONMENT', 'EXIT STATUS')
{
	ok(defined section($sec), "section $sec exists");
}
my $env = section('ENVIRONMENT') // '';
for my $var (qw(PGHOST PGPORT PGUSER PGDATABASE PGCONNECT_TIMEOUT
	PGBENCH_COMPAT PGBENCH_RANDOM_SEED))
{
	ok($env =~ /\b$var\b/, "environment variable $var is described");
}
my $exit = section('EXIT STATUS') // '';
for my $code (0, 1, 2, 130, 143)
{
	ok($exit =~ /\b$code\b/, "exit status $code is described");
}
for my $var (qw(client_id scale random_seed default_seed))
{
	ok((section('CUSTOM SCRIPTS') // '') =~ /^\.TP\n\.B \Q$var\E$/m,
		"automatic variable $var has an entry");
}

# The page cites documents by their installed place (@DOCDIR@/NAME, which
# meson fills in): each must be one the build installs there, and the man
# page installed must hold no @...@ left and no doc/ path of the tree.
{
	my $build = File::Basename::dirname($ours);
	my $json = `meson introspect --installed "$build" 2>/dev/null`;
	SKIP:
	{
		skip 'meson introspect unavailable', 3 unless $? == 0 && $json =~ /^\{/;
		my $installed = JSON::PP::decode_json($json);
		my %dest = map { $_ => 1 } values %$installed;
		my ($docdir) = map { m{^(.*)/README\.md$} ? $1 : () } values %$installed;
		my @cited = $man =~ m{\@DOCDIR\@/([\w\\.-]+?)(?=\s|$| \.|\.$)}mg;
		s/\\-/-/g for @cited;
		my %seen;
		my @missing = grep { !$seen{$_}++ && !$dest{"$docdir/$_"} } @cited;
		ok(@cited >= 3, 'the page cites installed documents (' . scalar(@cited) . ' places)');
		is("@missing", '', "every document it cites is installed in $docdir");
		my ($man_dest) = grep { m{/man1/[^/]+\.1$} } values %$installed;
		my ($man_src) = grep { $installed->{$_} eq $man_dest } keys %$installed;
		my $page_built = slurp($man_src);
		ok($page_built !~ /\@\w+\@/ && $page_built !~ /\bdoc\/[\w-]+\.md/,
			'the installed page has its places filled in and no path of the source tree');
	}
}

# --help names no file: only addresses a distributor sets (or none).
my $help = `"$ours" --help`;
unlike($help, qr{file://}, '--help names no file:// address');

done_testing();
