# merge_hostile.pl — --merge-reports against damaged and hostile reports:
# real reports, made once against a throwaway cluster, then changed one
# member at a time.  Each bad input ends with one message naming the file
# and the member ("pgbench: error: FILE: PATH: what is wrong"), exit
# status 1, nothing on stdout and no output file left.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbhostile_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# ---- the reports -------------------------------------------------------------------

write_file('a.sql', "\\set x random(1, 10)\nselect :x;\n");
write_file('b.sql', "select 2;\n");
for my $n (1, 2)
{
	# two scripts, -r, -P: every kind of member a merge reads
	($rc, $out, $err) = pgbench([ '-n', '-c', '2', '-t', '30', '-r', '-P', '1',
			'-f', 'a.sql@2', '-f', 'b.sql@1', "--report-json=r$n.json" ], env => \%env);
	is($rc, 0, "report r$n.json") or diag($err);
}
my $json = JSON::PP->new->canonical;
my $base = decode_json(slurp('r1.json'));

# A copy of r1.json changed by $edit (a sub given the decoded document),
# written as $name.
sub mutate
{
	my ($name, $edit) = @_;
	my $doc = decode_json(slurp('r1.json'));
	$edit->($doc);
	write_file($name, $json->encode($doc));
	return $name;
}

# Merge @files with a merged JSON and HTML report asked for: refused with
# $message, exit status 1, nothing printed, no report file.
sub refused
{
	my ($what, $message, @files) = @_;
	unlink 'm.json', 'm.html';
	my ($r, $o, $e) = pgbench([ '--merge-reports', @files, '--report-json=m.json',
			'--report-html=m.html' ]);
	is($r, 1, "$what: exit status 1");
	is($e, "pgbench: error: $message\n", "$what: the message");
	is($o, '', "$what: no report");
	ok(!-e 'm.json' && !-e 'm.html', "$what: no report file");
}

# ---- scripts -----------------------------------------------------------------------

# the first report defines -r: a second script without "commands" was a
# NULL dereference
mutate('nocmd.json', sub { delete $_[0]{scripts}[1]{commands} });
refused('a script without commands, alone', 'nocmd.json: scripts[1].commands: missing', 'nocmd.json');
refused('a script without commands, first', 'nocmd.json: scripts[1].commands: missing',
	'nocmd.json', 'r2.json');

done_testing();
