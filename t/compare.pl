# compare.pl — pgbench-ng --compare (doc/compare.md) on reports of real
# runs against a throwaway cluster: a report compared with itself shows no
# change and no difference; a run slowed by pg_sleep is worse, with an
# interval that excludes zero, its script listed as what differs (and
# warned about), and the sleep's wait event ranked first among the
# server's evidence; pooled sides; and the refusals: too few sides, a
# missing or damaged report (the merge reader's messages), exit status 1,
# nothing on stdout.  Texts a report brings are printed with their control
# characters masked.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbcompare_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

# 20 ms of sleep per transaction: far beyond what a loaded machine adds
write_file('slow.sql', "\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nSELECT pg_sleep(0.02);\n");
for my $run ([ 'a1', '-S' ], [ 'a2', '-S' ], [ 'slow', '-f', 'slow.sql' ])
{
	my ($name, @script) = @$run;
	my @cmd = ('-n', @script, '-c', '2', '-T', '4', "--report-json=$name.json");
	($rc, $out, $err) = run_accounted($name, \@cmd, sub { pgbench(\@cmd, env => \%env) });
	is($rc, 0, "$name.json: a run of 4 s") or diag($err);
}

my $figures = qr/^(tps|latency average|latency p50|latency p90|latency p99|latency max|failed)\s/;

# Lines of the figure table: name => [ base, new, change, interval, verdict ]
sub table
{
	my ($text) = @_;
	my %rows;
	for my $line (split /\n/, $text)
	{
		next unless $line =~ $figures;
		my $name = $1;
		my $rest = substr($line, length $name);
		$rest =~ /^\s+(\S+(?: ms)?)\s+(\S+(?: ms)?)\s+(\S+(?: pp)?)\s+(\[[^\]]*\]|-)\s+(.*)$/
		  or die "cannot read the line \"$line\"";
		$rows{$name} = [ $1, $2, $3, $4, $5 ];
	}
	return \%rows;
}

# ---- a report against itself ------------------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'a1.json' ]);
is($rc, 0, 'a1 against itself: exit status 0');
is($err, '', '... no warning');
like($out, qr/^base: a1\.json \(\d+ intervals, \d+ batches\)\nnew: a1\.json \(\d+ intervals, \d+ batches\)\n/,
	'... the sides and their batches first');
like($out, qr/^figure +base +new +change +95% interval +verdict$/m, '... the table\'s header');
my $rows = table($out);
is(scalar(keys %$rows), 7, '... seven figures');
for my $f (sort keys %$rows)
{
	is($rows->{$f}[4], 'no significant difference', "... $f: no significant difference");
	like($rows->{$f}[2], qr/^\+0\.0(?:%| pp)$/, "... $f: no change");
}
unlike($out, qr/what differs/, '... nothing differs');
my $a1 = decode_json(slurp('a1.json'));
like($out, qr/^tps +\Q${\ sprintf('%.1f', $a1->{tps})}\E /m, '... tps as the report gives it');

# ---- a slowed run -------------------------------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'slow.json' ]);
is($rc, 0, 'a1 against the slowed run: exit status 0') or diag($err);
$rows = table($out);
for my $f ('latency average', 'latency p50')
{
	is($rows->{$f}[4], 'worse', "$f: worse") or diag($out);
	my ($lo, $hi) = $rows->{$f}[3] =~ /^\[([-+][0-9.]+)%, ([-+][0-9.]+)%\]$/;
	ok(defined $lo && $lo > 0 && $hi >= $lo, "$f: an interval above zero ($rows->{$f}[3])");
}
like($rows->{tps}[2], qr/^-/, 'tps: lower');
like($out, qr/^what differs \(base \| new\):\n  transaction_type: <builtin: select only> \| slow\.sql$/m,
	'the scripts are listed as what differs');
is($err, "pgbench: warning: the runs ran different scripts: the comparison is of two workloads\n",
	'... and warned about');
like($out, qr/^what changed most \(server evidence; base -> new\):\n  wait event Timeout:PgSleep +0\.00 -> [0-9.]+ sessions in it, on average$/m,
	'the sleep is the first evidence');

# ---- pooled sides, several comparisons -------------------------------------------

($rc, $out, $err) = pgbench([ '--compare', 'a1.json,a2.json', 'slow.json', 'a2.json' ]);
is($rc, 0, 'a1+a2 against slow and a2: exit status 0') or diag($err);
like($out, qr/^base: a1\.json \(\d+ intervals, \d+ batches\), a2\.json \(\d+ intervals, \d+ batches\)$/m,
	'the base pools two runs');
my @tables = split /\n\n/, $out;
is(scalar @tables, 2, 'two comparisons, a blank line between');
is(table($tables[0])->{'latency average'}[4], 'worse', 'the first: the slowed run is worse');
like($tables[1], qr/^new: a2\.json /m, 'the second: a2');

# ---- refusals --------------------------------------------------------------------

sub refused
{
	my ($what, $args, $message) = @_;
	my ($r, $o, $e) = pgbench([ '--compare', @$args ]);
	is($r, 1, "$what: exit status 1");
	is($e, $message, "$what: the message");
	is($o, '', "$what: nothing printed");
}
refused('one side', ['a1.json'],
	"pgbench: error: --compare needs two reports or more (BASE NEW...)\npgbench: hint: Try \"pgbench --help\" for more information.\n");
refused('a missing report', [ 'a1.json', 'nope.json' ],
	"pgbench: error: could not open report file \"nope.json\": No such file or directory\n");
my $bad = decode_json(slurp('a2.json'));
$bad->{transactions}{skipped} = -1;
write_file('bad.json', encode_json($bad));
refused('a damaged report', [ 'a1.json', 'a1.json,bad.json' ],
	"pgbench: error: bad.json: transactions.skipped: -1 is negative\n");
refused('with --merge-reports', [ '--merge-reports', 'a1.json', 'a2.json' ],
	"pgbench: error: --compare cannot be used with --merge-reports or --merge-partial\npgbench: hint: Try \"pgbench --help\" for more information.\n");

# ---- texts from a report are masked -------------------------------------------------

my $odd = decode_json(slurp('a2.json'));
$odd->{server}{settings}{work_mem}{value} = "4MB\n\e[2Jfake line";
write_file('odd.json', encode_json($odd));
($rc, $out, $err) = pgbench([ '--compare', 'a1.json', 'odd.json' ]);
is($rc, 0, 'a server setting with control characters: compared') or diag($err);
like($out, qr/^  server setting work_mem: \S+ \| 4MB\?\?\[2Jfake line$/m, '... printed masked, on one line');

done_testing();
