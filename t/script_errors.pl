# script_errors.pl — malformed pgbench scripts must fail at load time
# exactly as pgbench does: exit code 1, nothing on stdout, and the same
# stderr, byte for byte (message, the command's text, the caret line).
#
# Each row is [name, script text, extra options, environment, expected
# stderr].  The expected text was taken from pgbench 15 (same as 16 here);
# every row runs through our binary and, when installed, the system
# pgbench too, so a drift on either side shows.  No server is needed: the
# scripts fail before any connection (-h points nowhere, in case).
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use PgbTest;

# hundreds of short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $system = system_pgbench_path();
my $dir = tempdir('pgbscript_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
write_file('good.sql', "select 1;\n");

my @rows = (
	["invalid command", "\\foo bar\n", [], {},
		"pgbench: error: bad.sql:1: invalid command in command \"foo\"\n\\foo bar\n"],
	["set missing argument", "\\set\n", [], {},
		"pgbench: error: bad.sql:1: missing argument in command \"set\"\n"],
	["set missing expression", "\\set x\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x\n      ^ error found here\n"],
	["set trailing operator", "\\set x 1 +\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x 1 +\n          ^ error found here\n"],
	["set trailing operator at end of file", "\\set x 1 +", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x 1 +\n         ^ error found here\n"],
	["set trailing operator with CRLF", "\\set x 1 +\r\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x 1 +\n           ^ error found here\n"],
	["set trailing blanks", "\\set x 1 +   \n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x 1 +   \n             ^ error found here\n"],
	["set unexpected backslash", "\\set x 1\n\\set x 1 \\gset\n", [], {},
		"pgbench: error: bad.sql:2: unexpected character (\\) in command \"set\"\n\\set x 1 \\gset\n         ^ error found here\n"],
	["set unknown function across lines", "select 1;\n\\set x \\\n  1 +  \\\n  foo(3)   \nselect 2;", [], {},
		"pgbench: error: bad.sql:2: unexpected function name (foo) in command \"set\"\n\\set x \\\n  1 +  \\\n  foo(3)   \n                      ^ error found here\n"],
	["set syntax error on continued line", "\\set x ) \\\n + 1\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x ) \\\n + 1\n       ^ error found here\n"],
	["set CRLF continuation", "\\set x 1 \\\r\n+ \r\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"set\"\n\\set x 1 \\\r\n+ \n               ^ error found here\n"],
	["if missing expression", "\\if\n\\endif\n", [], {},
		"pgbench: error: bad.sql:1: syntax error in command \"if\"\n\\if\n   ^ error found here\n"],
	["elif missing expression", "\\if 1\n\\elif\n\\endif\n", [], {},
		"pgbench: error: bad.sql:2: syntax error in command \"elif\"\n\\elif\n     ^ error found here\n"],
	["sleep missing argument", "\\sleep\n", [], {},
		"pgbench: error: bad.sql:1: missing argument in command \"sleep\"\n\\sleep\n"],
	["sleep too many arguments", "\\sleep 1 2 3\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"sleep\"\n\\sleep 1 2 3\n           ^ error found here\n"],
	["sleep not an integer", "\\sleep abc\n", [], {},
		"pgbench: error: bad.sql:1: invalid sleep time, must be an integer (abc) in command \"sleep\"\n\\sleep abc\n       ^ error found here\n"],
	["sleep unknown unit", "\\sleep 10 week\n", [], {},
		"pgbench: error: bad.sql:1: unrecognized time unit, must be us, ms or s (week) in command \"sleep\"\n\\sleep 10 week\n          ^ error found here\n"],
	["sleep unknown glued unit", "\\sleep 10week\n", [], {},
		"pgbench: error: bad.sql:1: unrecognized time unit, must be us, ms or s (week) in command \"sleep\"\n\\sleep 10week\n         ^ error found here\n"],
	["sleep sign without digits", "\\sleep -x\n", [], {},
		"pgbench: error: bad.sql:1: invalid sleep time, must be an integer (-x) in command \"sleep\"\n\\sleep -x\n       ^ error found here\n"],
	["sleep variable too many arguments", "\\sleep :x ms x\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"sleep\"\n\\sleep :x ms x\n             ^ error found here\n"],
	["sleep variable unknown unit", "\\sleep :x week\n", [], {},
		"pgbench: error: bad.sql:1: unrecognized time unit, must be us, ms or s (week) in command \"sleep\"\n\\sleep :x week\n          ^ error found here\n"],
	["sleep glued unit and unit", "\\sleep 5ms ms\n", [], {},
		"pgbench: error: bad.sql:1: invalid sleep time, must be an integer (5ms) in command \"sleep\"\n\\sleep 5ms ms\n       ^ error found here\n"],
	["sleep continued line", "\\sleep 1 \\\n 2 3\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"sleep\"\n\\sleep 1 \\\n 2 3\n              ^ error found here\n"],
	["sleep upper case name", "\\SLEEP\n", [], {},
		"pgbench: error: bad.sql:1: missing argument in command \"SLEEP\"\n\\SLEEP\n"],
	["setshell missing argument", "\\setshell\n", [], {},
		"pgbench: error: bad.sql:1: missing argument in command \"setshell\"\n\\setshell\n"],
	["setshell missing command", "\\setshell x\n", [], {},
		"pgbench: error: bad.sql:1: missing argument in command \"setshell\"\n\\setshell x\n"],
	["shell missing command", "\\shell\n", [], {},
		"pgbench: error: bad.sql:1: missing command in command \"shell\"\n\\shell\n"],
	["else with argument", "\\if 1\n\\else x\n\\endif\n", [], {},
		"pgbench: error: bad.sql:2: unexpected argument in command \"else\"\n\\else x\n"],
	["endif with argument", "\\if 1\n\\endif x\n", [], {},
		"pgbench: error: bad.sql:2: unexpected argument in command \"endif\"\n\\endif x\n"],
	["startpipeline with argument", "\\startpipeline x\n", [], {},
		"pgbench: error: bad.sql:1: unexpected argument in command \"startpipeline\"\n\\startpipeline x\n"],
	["endpipeline with argument", "\\endpipeline x\n", [], {},
		"pgbench: error: bad.sql:1: unexpected argument in command \"endpipeline\"\n\\endpipeline x\n"],
	["gset too many arguments", "select 1 \\gset a b\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"gset\"\n\\gset a b\n"],
	["gset first", "\\gset\n", [], {},
		"pgbench: error: bad.sql:1: \\gset must follow an SQL command\n"],
	["aset after meta-command", "\\set i 1\n\n\n   \\aset\n", [], {},
		"pgbench: error: bad.sql:2: \\gset must follow an SQL command (\\set i 1)\n"],
	["gset after gset", "select 1;\n\n\n   \\gset\n\\gset", [], {},
		"pgbench: error: bad.sql:5: \\gset must follow an SQL command\n"],
	["if without endif", "\\if 1\nselect 1;\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 3: \\if without matching \\endif\n"],
	["else without if", "\\else\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 1: \\else without matching \\if\n"],
	["elif without if", "\\elif 1\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 1: \\elif without matching \\if\n"],
	["endif without if", "\\set x 1\n\\endif\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 2: \\endif without matching \\if\n"],
	["else after else", "select 1;\n\\if 1\n\\else\n\\else\n\\endif\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 4: \\else after \\else\n"],
	["elif after else", "\\if 1\n\\else\n\\elif 0\n\\endif\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 3: \\elif after \\else\n"],
	["nested if without endif", "\\if 1\n\\if 0\n\\endif\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 4: \\if without matching \\endif\n"],
	["elif after closed chain", "\\if 1\n\\else\n\\endif\n\\elif 1\n", [], {},
		"pgbench: error: condition error in script \"bad.sql\" command 4: \\elif without matching \\if\n"],
	["empty script", "\n", [], {},
		"pgbench: error: empty command list for script \"bad.sql\"\n"],
	["comments only", "-- nothing here\n  \n", [], {},
		"pgbench: error: empty command list for script \"bad.sql\"\n"],
	["lone backslash", "\\\n", [], {},
		"pgbench: error: empty command list for script \"bad.sql\"\n"],
	["double backslash", "select 1 \\\\ 2;\n", [], {},
		"pgbench: error: bad.sql:1: invalid command in command \"\\\"\n\\\\ 2;\n"],
	["invalid command across lines", "\n\n\\foo a\\\nb \\\n c\n", [], {},
		"pgbench: error: bad.sql:3: invalid command in command \"foo\"\n\\foo a\\\nb \\\n c\n"],
	["invalid command with CRLF", "\\foo\r\n", [], {},
		"pgbench: error: bad.sql:1: invalid command in command \"foo\"\n\\foo\n"],
	["space after backslash", "select 1;\n  \\ foo\n", [], {},
		"pgbench: error: bad.sql:2: invalid command in command \"foo\"\n\\ foo\n"],
	["error after SQL lines", "select 1;\nselect 'a;b';\n\\sleep 1 s x\n", [], {},
		"pgbench: error: bad.sql:3: too many arguments in command \"sleep\"\n\\sleep 1 s x\n           ^ error found here\n"],
	["error after multi-line SQL", "select (1;\n 2);\n/* x;\n */\n\\bad\n", [], {},
		"pgbench: error: bad.sql:5: invalid command in command \"bad\"\n\\bad\n"],
	["long command name", "\\xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", [], {},
		"pgbench: error: bad.sql:1: invalid command in command \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\n\\xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"],
	["long sleep argument", "\\sleep yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n", [], {},
		"pgbench: error: bad.sql:1: invalid sleep time, must be an integer (yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy) in command \"sleep\"\n\\sleep yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n       ^ error found here\n"],
	["sleep word glued to a continuation", "\\sleep 1 2 x\\\ny\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"sleep\"\n\\sleep 1 2 x\\\ny\n             ^ error found here\n"],
	["gset first with blank lines after", "\\gset\n\n\n", [], {},
		"pgbench: error: bad.sql:3: \\gset must follow an SQL command\n"],
	["gset after SQL then blank lines", "\\gset\n\nselect 1;\n\n", [], {},
		"pgbench: error: bad.sql:4: \\gset must follow an SQL command\n"],
	["backslash after a number glued to letters", "select 1e\$a\$ \\foo\n", [], {},
		"pgbench: error: bad.sql:1: invalid command in command \"foo\"\n\\foo\n"],
	["shell with 256 arguments", "\\shell" . (" a" x 256) . "\n", [], {},
		"pgbench: error: bad.sql:1: too many arguments in command \"shell\"\n"],
	["256 parameters in extended mode", "select " . join(" ", (":v") x 256) . ";\n", ["-M", "extended"], {},
		"pgbench: error: statement has too many arguments (maximum is 255): " . "select " . join(" ", (":v") x 256) . ";" . "\n"],
	["256 parameters in prepared mode after a good command", "select 1;\nselect " . join(" ", (":v") x 256) . ";\n", ["-M", "prepared"], {},
		"pgbench: error: statement has too many arguments (maximum is 255): " . "select " . join(" ", (":v") x 256) . ";" . "\n"],
	["error in the second file", "\\if 1\n", ["-f", "good.sql"], {},
		"pgbench: error: condition error in script \"bad.sql\" command 2: \\if without matching \\endif\n"],
	["colored error", "\\foo\n", [], {PG_COLOR => "always"},
		"\x{1b}[01mpgbench: \x{1b}[0m\x{1b}[01;31merror: \x{1b}[0mbad.sql:1: invalid command in command \"foo\"\n\\foo\n"],
);

sub run_row
{
	my ($runner, $args, $env) = @_;
	my @argv = ('-n', '-t', '1', @$args, '-f', 'bad.sql',
		'-h', '/nonexistent-dir', '-p', '1');
	return $runner->(\@argv, env => { PG_COLOR => undef, %$env });
}

ok(@rows >= 40, 'at least 40 malformed scripts');
for my $row (@rows)
{
	my ($name, $script, $args, $env, $expected) = @$row;

	# binary mode: CRLF rows must reach the programs unchanged
	open my $fh, '>:raw', 'bad.sql' or die "cannot write bad.sql: $!";
	print $fh $script;
	close $fh;

	my ($rc, $out, $err) = run_row(\&pgbench, $args, $env);
	is($rc, 1, "$name: exit code");
	is($out, '', "$name: nothing on stdout");
	is($err, $expected, "$name: stderr");

  SKIP:
	{
		skip 'no system pgbench', 2 unless $system;
		my ($src, undef, $serr) = run_row(\&system_pgbench, $args, $env);
		is($src, 1, "$name: system pgbench exit code");
		is($serr, $expected, "$name: system pgbench stderr");
	}
}

done_testing();
