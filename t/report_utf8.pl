# report_utf8.pl — the report files are valid UTF-8 whatever bytes the run
# carries (doc/report-json.md, "Conventions"): a property test.  Runs with
# random bytes as the script's file name, in its SQL (which -r lists),
# as a variable's value (-D, in the command line, and sent as a query
# parameter), and echoed back by the server in error messages (a
# SQL_ASCII database takes any byte but NUL).  Every --report-json
# document must parse with a strict UTF-8 JSON parser (JSON::PP's utf8
# decoding), and its strings must be what the Unicode Standard's
# replacement makes of the bytes (U+FFFD for each maximal subpart of an
# ill-formed sequence; a second implementation below, by regular
# expression); every --report-html page must be valid UTF-8 with the same
# document embedded, and no '<' in it; and --merge-reports of such
# reports, or of reports whose strings were made ill-formed on purpose,
# writes valid UTF-8 too.  PGBTEST_SEED=N replays a run (the seed is
# printed); PGBTEST_ROUNDS=N runs more than the default 48 rounds.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $seed = $ENV{PGBTEST_SEED} // int(rand(1 << 30));
my $rounds = $ENV{PGBTEST_ROUNDS} // 48;
srand($seed);
diag("seed $seed (PGBTEST_SEED=$seed replays it), $rounds rounds");

my $node = start_cluster();
$node->psql(q{create database ascii encoding 'SQL_ASCII' template template0 locale 'C'});
my %env = (%{ $node->env }, PGDATABASE => 'ascii');
my $dir = tempdir('pgbutf8_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
my $json = JSON::PP->new->utf8;

# ---- the replacement, by regular expression ------------------------------
#
# A well-formed sequence (the Unicode Standard, table 3-7), and the
# maximal subpart of an ill-formed one: the longest start of a
# well-formed sequence, or else one byte.
my $WF = qr/[\x00-\x7F]|[\xC2-\xDF][\x80-\xBF]|\xE0[\xA0-\xBF][\x80-\xBF]
	|[\xE1-\xEC\xEE\xEF][\x80-\xBF]{2}|\xED[\x80-\x9F][\x80-\xBF]
	|\xF0[\x90-\xBF][\x80-\xBF]{2}|[\xF1-\xF3][\x80-\xBF]{3}|\xF4[\x80-\x8F][\x80-\xBF]{2}/x;
my $SUBPART = qr/\xE0[\xA0-\xBF]|[\xE1-\xEC\xEE\xEF][\x80-\xBF]|\xED[\x80-\x9F]
	|\xF0[\x90-\xBF][\x80-\xBF]?|[\xF1-\xF3][\x80-\xBF]{1,2}|\xF4[\x80-\x8F][\x80-\xBF]?|[\x00-\xFF]/x;

# bytes -> bytes, each maximal ill-formed subpart as U+FFFD
sub replaced
{
	my ($s) = @_;
	$s =~ s/\G(?:($WF)|$SUBPART)/defined $1 ? $1 : "\xEF\xBF\xBD"/ge;
	return $s;
}

sub valid_utf8 { return replaced($_[0]) eq $_[0]; }

# the regular expressions themselves, on a few rows of t/unit/test_utf8.c
my $R = "\xEF\xBF\xBD";
is(replaced("a\xf1\x80\x80\xe1\x80\xc2b\x80c\x80\xbfd"), "a$R$R${R}b${R}c$R${R}d", 'replaced(): the Standard\'s example');
is(replaced("\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf\xe2\x82"), $R x 10, 'replaced(): surrogate, past U+10FFFF, overlong, truncated');
is(replaced("\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbf"), "\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbf", 'replaced(): valid text unchanged');

# ---- random text -----------------------------------------------------------

# The bytes that make and break sequences, markup, and whole characters
# (U+00E9, U+20AC, U+2028, U+FFFF, U+1F600), drawn half the time.
my @special = ((map { chr } 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA8, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
		0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x01, 0x0A, 0x09, 0x7F),
	'<', '>', '&', '"', '\\', '</script>', '<!--', "\xc3\xa9", "\xe2\x82\xac", "\xe2\x80\xa8",
	"\xef\xbf\xbf", "\xf0\x9f\x98\x80");

# random_text($maxlen, $exclude): 1 to $maxlen pieces, none of the
# characters of the regexp class $exclude (NUL always excluded)
sub random_text
{
	my ($maxlen, $exclude) = @_;
	my $s = '';
	my $n = 1 + int(rand($maxlen));
	while (length($s) < $n)
	{
		my $piece = rand() < 0.5 ? $special[ int(rand(@special)) ] : chr(1 + int(rand(255)));
		$s .= $piece unless $piece =~ $exclude;
	}
	return $s;
}

# ---- checks ------------------------------------------------------------------

# The document at $file: strict UTF-8 JSON; returns it or undef.
sub document
{
	my ($file, $what) = @_;
	my $bytes = -e $file ? slurp($file) : '';
	my $doc = eval { $json->decode($bytes) };
	ok($doc, "$what: the document parses as strict UTF-8 JSON") or diag($@);
	ok(valid_utf8($bytes), "$what: every byte of it is well-formed UTF-8");
	return $doc;
}

# The page at $file: valid UTF-8, three script elements, the document of
# $doc embedded, with no '<', '>' or '&' in it.
sub page
{
	my ($file, $doc, $what) = @_;
	my $html = slurp($file);
	ok(valid_utf8($html), "$what: the page is well-formed UTF-8");
	is(scalar(() = $html =~ m{</script\b}g), 3, "$what: three </script> tags");
	my ($data) = $html =~ m{<script type="application/json" id="report-data">\n(.*?)</script>}s;
	$data //= '';
	unlike($data, qr/[<>&]|\xe2\x80[\xa8\xa9]/, "$what: no <, >, &, U+2028 or U+2029 in the embedded document");
	is_deeply(scalar(eval { $json->decode($data) }), $doc, "$what: the embedded document is the --report-json one");
	return;
}

# ---- the rounds ------------------------------------------------------------------

# Three kinds of round: the random text in a literal ('literal'); that
# and the -D value as a parameter of extended mode ('param'); and the
# text in a literal cast to int, which the server refuses with a message
# that echoes it, aborting the client ('error').
my @reports;
for my $round (1 .. $rounds)
{
	my $kind = (qw(literal param error))[ $round % 3 ];
	my $what = "round $round ($kind)";
	# a file name: no '/' (a directory), no '@' (-f NAME@WEIGHT); unique
	my $name = random_text(24, qr{[/@\0]}) . ".$round";
	# inside a quoted literal: no quote, no ':' (a variable), no backslash
	my $text = random_text(40, qr{['\\:\0]});
	my $value = random_text(24, qr{\0});
	my $sql = {
		literal => "select '$text' as x;\n",
		param => "select :v::text as x, '$text' as y;\n",
		error => "select 'x$text'::int;\n",
	}->{$kind};
	write_file($name, $sql);
	my @html = $round % 4 == 0 ? ("--report-html=r$round.html") : ();
	my ($rc, $out, $err) = pgbench([ '-n', '-t', '2', '-r', '-f', $name, '-D', "v=$value",
			($kind eq 'param' ? ('-M', 'extended') : ()), "--report-json=r$round.json", @html ], env => \%env);
	ok($rc == ($kind eq 'error' ? 2 : 0), "$what: exit code $rc") or diag($err);
	my $doc = document("r$round.json", $what) or next;
	push @reports, "r$round.json" if $rc == 0;
	my $script = $doc->{scripts}[0] // {};
	is(utf8_bytes($script->{name}), replaced($name), "$what: the script name, each ill-formed part as U+FFFD");
	my @argv = map { utf8_bytes($_) } @{ $doc->{command_line} // [] };
	ok((grep { $_ eq replaced("v=$value") } @argv), "$what: the -D value in the command line, the same way");
	# -r lists the command's first line, its first 127 bytes at most
	my ($first) = $sql =~ /\A([^\n\r]*)/;
	is(utf8_bytes(($script->{commands} // [])->[0]{line}), replaced(substr($first, 0, 127)),
		"$what: the command's SQL (-r), the same way");
	if ($kind eq 'error')
	{
		my $msg = utf8_bytes($doc->{aborted_clients}[0]{message} // '');
		like($msg, qr/invalid input syntax for type integer: "\Qx${\ replaced($text)}\E"/,
			"$what: the server's message, the same way");
	}
	page("r$round.html", $doc, $what) if @html;
}

# characters -> UTF-8 bytes
sub utf8_bytes
{
	my ($s) = @_;
	return undef unless defined $s;
	utf8::encode($s);
	return $s;
}

# ---- --merge-reports --------------------------------------------------------------

# reports of different scripts do not merge: each one with a copy of
# itself, and every fourth as its page too.  The copy has no run id (as a
# report written before them: the same run id twice is refused) and a
# file name of ill-formed UTF-8, which the merged report lists in its
# "inputs".
for my $i (0 .. $#reports)
{
	my $in = $reports[$i];
	my $copy = "c$i-\xff\xc0\xaf\xed\xa0\x80<script>.json";
	my $text = slurp($in);
	$text =~ s/^  "run_id": "[0-9a-f]{32}",\n//m;
	write_file($copy, $text);
	my @html = $i % 4 == 0 ? ("--report-html=m$i.html") : ();
	my ($rc, $out, $err) = pgbench([ '--merge-reports', $in, $copy, "--report-json=m$i.json", @html ]);
	is($rc, 0, "merge of $in: exit code 0") or diag($err);
	my $doc = document("m$i.json", "merge of $in") or next;
	is($doc->{inputs}[1]{file}, "c$i-\x{fffd}\x{fffd}\x{fffd}\x{fffd}\x{fffd}\x{fffd}<script>.json",
		"merge of $in: the copy's ill-formed name in inputs, each bad byte as U+FFFD");
	is_deeply($doc->{scripts}[0]{name}, $json->decode(slurp($in))->{scripts}[0]{name},
		"merge of $in: the same script name");
	page("m$i.html", $doc, "merge of $in") if @html;
}

# A report whose strings are made ill-formed on purpose: raw bytes
# (invalid UTF-8) and escapes of lone surrogates in the script name.
# Whatever the reader accepts, the merged document is valid UTF-8.
if (@reports)
{
	my $text = slurp($reports[0]);
	my $bad = "\xff</script>\xed\xa0\x80\\udc00\\u0026\xc0\xaf";
	# the first "name" after "scripts", its string up to the closing quote
	my $at = index($text, '"name": "', index($text, '"scripts": ['));
	ok($at >= 0, 'a report with an ill-formed script name');
	pos($text) = $at + 9;
	$text =~ /\G(?:[^"\\]|\\.)*/gs;
	substr($text, $at + 9, pos($text) - $at - 9) = $bad;
	write_file('bad.json', $text);
	my ($rc, $out, $err) = pgbench([ '--merge-reports', 'bad.json', '--report-json=mbad.json',
			'--report-html=mbad.html' ]);
	if ($rc == 0)
	{
		my $doc = document('mbad.json', 'merge of an ill-formed report');
		like(utf8_bytes($doc->{scripts}[0]{name} // ''), qr/^$R<\/script>$R$R$R(?:$R$R$R|$R)&$R$R$/,
			'merge of an ill-formed report: its name with U+FFFD');
		page('mbad.html', $doc, 'merge of an ill-formed report');
	}
	else
	{
		like($err, qr/^pgbench: error: bad\.json: line \d+, column \d+: invalid UTF-8$/m,
			'an ill-formed report is refused, the file and the place named') or diag($err);
		ok(!-e 'mbad.json' && !-e 'mbad.html', 'an ill-formed report: no output file');
	}
}

done_testing();
