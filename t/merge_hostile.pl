# merge_hostile.pl — --merge-reports against damaged and hostile reports:
# real reports, made once against a throwaway cluster, then changed one
# member at a time.  Each bad input ends with one message naming the file
# and the member ("pgbench: error: FILE: PATH: what is wrong"), exit
# status 1, nothing on stdout and no report file left: broken syntax,
# members missing or of the wrong type, integers beyond 64 bits (never
# wrapped), negative counts, percentiles, weights and indexes out of
# range, histograms that do not add up or are of another layout, a
# series that does not cover the run, sums over the reports that
# overflow, files too large or endless.  Valid reports still merge: with
# PGBENCH_MERGE_REFERENCE naming an earlier pgbench, its text and JSON
# reports must be the same byte for byte; without, the merged counts are
# checked against the reports' sums.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use List::Util qw(sum0);
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
	# two scripts, -r: every kind of member a merge reads
	($rc, $out, $err) = pgbench([ '-n', '-c', '2', '-t', '30', '-r', '-P', '1',
			'-f', 'a.sql@2', '-f', 'b.sql@1', "--report-json=r$n.json" ], env => \%env);
	is($rc, 0, "report r$n.json") or diag($err);
	# a series of several points, -R and -L (lag, late), percentiles, and
	# a seed above INT64_MAX
	($rc, $out, $err) = pgbench([ '-n', '-S', '-c', '2', '-T', '2', '-P', '1', '-R', '300',
			'-L', '20', '--percentiles=50,99.5', '--random-seed=18446744073709551615',
			"--report-json=t$n.json" ], env => \%env);
	is($rc, 0, "report t$n.json") or diag($err);
}

my $json = JSON::PP->new->canonical;

# A copy of $from changed by $edit (given the decoded document), written
# as $name; a value set to "__RAW__" is written as the text $raw.
sub mutate
{
	my ($name, $from, $edit, $raw) = @_;
	my $doc = decode_json(slurp($from));
	$edit->($doc);
	my $text = $json->encode($doc);
	$text =~ s/"__RAW__"/$raw/ if defined $raw;
	write_file($name, $text);
	return $name;
}

# Merge @files asking for a merged JSON and HTML report: refused with
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

# One row per damage: [ what, the change (a sub, or [ sub, raw text ]),
# the message after "FILE: ", the report changed (r1.json by default) ].
my $last_bucket = 3286;
my @cases = (
	# the crash this test began with: the first report defines -r, and a
	# later script without "commands" was a NULL dereference
	[ 'a script without commands', sub { delete $_[0]{scripts}[1]{commands} },
		'scripts[1].commands: missing' ],
	[ 'commands of one script only', sub { $_[0]{scripts}[0]{commands} = undef },
		'scripts[1].commands: expected null, as scripts[0].commands', undef, 'first only' ],
	[ 'a command without its line', sub { delete $_[0]{scripts}[0]{commands}[1]{line} },
		'scripts[0].commands[1].line: missing' ],
	[ 'a command without its histogram', sub { $_[0]{scripts}[1]{commands}[0]{latency_histogram} = undef },
		'scripts[1].commands[0].latency_histogram: expected an object, found null' ],

	# integers: exact, in range, of their sign
	[ 'a count beyond 64 bits', [ sub { $_[0]{transactions}{processed} = '__RAW__' }, '99999999999999999999' ],
		'transactions.processed: 99999999999999999999 is out of range (0 to 9223372036854775807)' ],
	[ 'a count above INT64_MAX', [ sub { $_[0]{transactions}{retries} = '__RAW__' }, '9223372036854775808' ],
		'transactions.retries: 9223372036854775808 is out of range (0 to 9223372036854775807)' ],
	[ 'a negative count', sub { $_[0]{transactions}{skipped} = -1 },
		'transactions.skipped: -1 is negative' ],
	[ 'a count with a fraction', [ sub { $_[0]{transactions}{processed} = '__RAW__' }, '60.5' ],
		'transactions.processed: expected an integer, found a number' ],
	[ 'a count as a string', sub { $_[0]{transactions}{processed} = '60' },
		'transactions.processed: expected an integer, found a string' ],
	[ 'a count missing', sub { delete $_[0]{transactions}{processed} },
		'transactions.processed: missing' ],
	[ 'negative clients', sub { $_[0]{settings}{clients} = -2 },
		'settings.clients: -2 is out of range (1 to 2147483647)' ],
	[ 'clients beyond int', sub { $_[0]{settings}{clients} = 4294967298 },
		'settings.clients: 4294967298 is out of range (1 to 2147483647)' ],
	[ 'more threads than clients', sub { $_[0]{settings}{threads} = 3 },
		'settings.threads: 3 is above the number of clients (2)' ],
	[ 'a seed beyond 64 bits', [ sub { $_[0]{settings}{random_seed} = '__RAW__' }, '18446744073709551616' ],
		'settings.random_seed: 18446744073709551616 is out of range (0 to 18446744073709551615)' ],
	[ 'a negative seed', sub { $_[0]{settings}{random_seed} = -5 },
		'settings.random_seed: -5 is negative' ],
	[ 'an unknown query mode', sub { $_[0]{settings}{query_mode} = 'fast' },
		'settings.query_mode: "fast" is not "simple", "extended" or "prepared"' ],
	[ 'settings of another type', sub { $_[0]{settings} = [] },
		'settings: expected an object, found an array' ],

	# consistency
	[ 'a percentile above 100', sub { $_[0]{settings}{percentiles} = [ 50, 100.5 ] },
		'settings.percentiles[1]: 100.5 is out of range (0 to 100)' ],
	[ 'a negative percentile', sub { $_[0]{settings}{percentiles} = [-1] },
		'settings.percentiles[0]: -1 is out of range (0 to 100)' ],
	[ 'a negative weight', sub { $_[0]{scripts}[1]{weight} = -1 },
		'scripts[1].weight: -1 is negative' ],
	[ 'weights adding up to 0', sub { $_->{weight} = 0 for @{ $_[0]{scripts} } },
		'scripts: the weights add up to 0', undef, 'first only' ],
	[ 'a failure record naming a script that does not exist',
		sub { push @{ $_[0]{aborted_clients} }, { client => 1, script => 2, command => 0 } },
		'aborted_clients[0].script: 2 is out of range (0 to 1)' ],
	[ 'a failure record naming a command that does not exist',
		sub { push @{ $_[0]{aborted_clients} }, { client => 1, script => 1, command => 1 } },
		'aborted_clients[0].command: 1 is out of range (0 to 0)' ],
	[ 'failed not the sum of its kinds', sub { $_[0]{transactions}{failed} = 2 },
		'transactions.failed: 2, but the kinds of failure add up to 0' ],
	[ 'a latency count not the processed', sub { $_[0]{latency_ms}{count}++ },
		'latency_ms.count: 61, not 60' ],

	# histograms
	[ 'buckets that do not add up', sub { $_[0]{latency_histogram}{buckets}[0][1]++ },
		'latency_histogram.buckets: the counts add up to 61, not 60' ],
	[ 'buckets out of order', sub { @{ $_[0]{latency_histogram}{buckets} }[ 0, 1 ] = @{ $_[0]{latency_histogram}{buckets} }[ 1, 0 ] },
		'latency_histogram.buckets[1][0]: bucket BUCKET0 is not above the one before (BUCKET1)' ],
	[ 'a bucket beyond the layout', sub { $_[0]{latency_histogram}{buckets}[-1][0] = $last_bucket + 1 },
		"latency_histogram.buckets[LAST][0]: expected a bucket index (0 to $last_bucket)" ],
	[ 'a bucket of count 0', sub { $_[0]{scripts}[0]{latency_histogram}{buckets}[0][1] = 0 },
		'scripts[0].latency_histogram.buckets[0][1]: expected a count (1 to 9223372036854775807)' ],
	[ 'a bucket that is no pair', sub { $_[0]{latency_histogram}{buckets}[0] = 3 },
		'latency_histogram.buckets[0]: expected an [index, count] pair, found an integer' ],
	[ 'a histogram of another layout', sub { $_[0]{scripts}[1]{latency_histogram}{sub_bucket_bits} = 8 },
		'scripts[1].latency_histogram.sub_bucket_bits: another layout than this pgbench\'s ("log-linear", 7 sub-bucket bits, highest 3600000000 us)' ],
	[ 'a histogram of another top', sub { $_[0]{latency_histogram}{highest_us} = 60000000 },
		'latency_histogram.highest_us: another layout than this pgbench\'s ("log-linear", 7 sub-bucket bits, highest 3600000000 us)' ],
	[ 'a minimum outside its bucket', sub { $_[0]{latency_histogram}{min_us} = 0 },
		'latency_histogram.min_us: 0 is not in the first bucket (BUCKET0)' ],
	[ 'a minimum above the maximum', sub { $_[0]{latency_histogram}{min_us} = $_[0]{latency_histogram}{max_us} + 1 },
		'latency_histogram: min_us (MAXP1) is above max_us (MAX)' ],

	# the series and the window
	[ 'a point whose buckets do not add up', sub { $_[0]{series}{points}[0]{histogram}{buckets}[0][1]++ },
		'series.points[0].histogram.buckets: the counts add up to POINTP1, not POINT' ],
	[ 'a point without its histogram', sub { $_[0]{series}{points}[0]{histogram} = undef },
		'series.points[0].histogram: null, but POINT transactions ended in this interval' ],
	[ 'a run longer than its points', sub { $_[0]{merge}{bench_duration_us} = 10**12 },
		'series.points: too few (NPOINTS) for the run\'s CONN_PLUS us' ],
	[ 'a script hash that is not one', sub { $_[0]{scripts}[1]{sha256} = 'XYZ' },
		'scripts[1].sha256: not a SHA-256 (64 lowercase hexadecimal digits)' ],
	[ 'a run of no duration', sub { $_[0]{merge}{bench_duration_us} = 0 },
		'merge.bench_duration_us: 0, but transactions ended in the run' ],
	[ 'an interval of 0', sub { $_[0]{series}{interval_s} = 0 },
		'series.interval_s: 0 is out of range (1e-06 to 2147483647)' ],
	[ 'a start after the year 9999', sub { $_[0]{merge}{start_epoch_us} = 1 << 62 },
		'merge.start_epoch_us: 4611686018427387904 is out of range (0 to 253402300799999999)' ],
	[ 'a rendezvous group too long', sub { $_[0]{rendezvous} = { group => 'g' x 64, start_server_epoch_us => 1 } },
		'rendezvous.group: longer than 63 bytes' ],
	[ 'a rendezvous group of size 0', sub { $_[0]{rendezvous} = { group => 'g', size => 0, member => 0, start_server_epoch_us => 1 } },
		'rendezvous.size: 0 is out of range (1 to 10000)' ],
	[ 'a rendezvous member without its index', sub { $_[0]{rendezvous} = { group => 'g', size => 2, start_server_epoch_us => 1 } },
		'rendezvous.member: missing' ],

	# identity
	[ 'a run id as a number', sub { $_[0]{run_id} = 5 },
		'run_id: expected a string or null, found an integer' ],
	[ 'a run id too short', sub { $_[0]{run_id} = 'abc' },
		'run_id: expected a run id (32 lowercase hexadecimal digits)' ],
	[ 'inputs of another type', sub { $_[0]{inputs} = {} },
		'inputs: expected an array or null, found an object' ],
	[ 'an input that is no object', sub { $_[0]{inputs} = [1] },
		'inputs[0]: expected an object, found an integer' ],
	[ 'an input without its file', sub { $_[0]{inputs} = [ { run_id => undef, rendezvous => undef } ] },
		'inputs[0].file: missing' ],
	[ 'an input without its run id', sub { $_[0]{inputs} = [ { file => 'x', rendezvous => undef } ] },
		'inputs[0].run_id: missing' ],

	# not a report of ours
	[ 'another schema', sub { $_[0]{schema_version} = 6 },
		'schema_version: 6, but this pgbench reads versions 2 to 5' ],
	[ 'an older schema', sub { $_[0]{schema_version} = 1 },
		'schema_version: 1, but this pgbench reads versions 2 to 5' ],
	[ 'a run that never started', sub { $_[0]{outcome} = 'failed-to-start' },
		'outcome: "failed-to-start": the run measured nothing' ],
	[ 'no merge member', sub { delete $_[0]{merge} },
		'merge: missing' ],
);

my $r1 = decode_json(slurp('r1.json'));
my %fill = (
	BUCKET0 => $r1->{latency_histogram}{buckets}[0][0],
	BUCKET1 => $r1->{latency_histogram}{buckets}[1][0],
	LAST => $#{ $r1->{latency_histogram}{buckets} },
	MAX => $r1->{latency_histogram}{max_us},
	MAXP1 => $r1->{latency_histogram}{max_us} + 1,
	POINT => $r1->{series}{points}[0]{processed},
	POINTP1 => $r1->{series}{points}[0]{processed} + 1,
	NPOINTS => scalar @{ $r1->{series}{points} },
	CONN_PLUS => $r1->{merge}{conn_elapsed_us} + 10**12,
);
is($r1->{transactions}{processed}, 60, 'r1.json: 60 transactions, as the messages expect');
my $n = 0;
for my $case (@cases)
{
	my ($what, $change, $message, $from) = @$case;
	my $name = sprintf('bad%02d.json', ++$n);
	my ($edit, $raw) = ref $change eq 'ARRAY' ? @$change : ($change);
	$message =~ s/\b([A-Z][A-Z0-9_]+)\b/exists $fill{$1} ? $fill{$1} : $1/ge;
	mutate($name, $from // 'r1.json', $edit, $raw);
	refused("$what, alone", "$name: $message", $name);
	# the same damage in a later report (unless the difference with the
	# first is found first)
	refused("$what, second", "$name: $message", 'r2.json', $name) unless $case->[4];
}

# ---- the text itself ------------------------------------------------------------

my $r1_text = slurp('r1.json');
my @texts = (
	[ 'an empty file', '', 'line 1, column 1: unexpected end of input' ],
	[ 'a cut file', substr($r1_text, 0, index($r1_text, '"pgbench_version": "') + 20),
		'line 3, column 23: unterminated string' ],
	[ 'text after the document', "$r1_text]", 'line LINES, column 1: unexpected text after the document' ],
	[ 'a trailing comma', '{"schema_version": 2,}', 'line 1, column 22: expected a member name' ],
	[ 'a member twice', '{"schema_version": 2, "schema_version": 2}', 'line 1, column 1: member "schema_version" given twice' ],
	[ 'a NUL in a string', '{"a": "x\u0000"}', 'line 1, column 9: a NUL character (\u0000) in a string' ],
	[ 'invalid UTF-8', "{\"a\": \"\xc0\xaf\"}", 'line 1, column 8: invalid UTF-8' ],
	[ 'a lone surrogate', '{"a": "\udc00"}', 'line 1, column 8: unpaired surrogate' ],
	[ 'NaN', '{"a": NaN}', 'line 1, column 7: invalid value' ],
	[ 'a number beyond double', '{"a": 1e400}', 'line 1, column 7: number out of range' ],
	[ 'a leading zero', '{"a": 007}', "line 1, column 8: expected ',' or '}'" ],
	[ 'nesting 100 deep', ('[' x 100) . (']' x 100), 'line 1, column 66: nested more than 64 levels deep' ],
	[ 'not an object', '[]', 'not a JSON report of pgbench (expected an object, found an array)' ],
);
my $lines = () = $r1_text =~ /\n/g;
for my $t (@texts)
{
	my ($what, $text, $message) = @$t;
	my $name = sprintf('text%02d.json', ++$n);
	$message =~ s/LINES/$lines + 1/e;
	write_file($name, $text);
	refused($what, "$name: $message", $name);
}

# ---- sums over the reports, sizes -------------------------------------------------------

# 2^62 + 1 transactions, all in one bucket: one report merges, two overflow.
# These reports have no run id (as those written before it), so the same
# file may be given twice (a run id would refuse it: t/merge_integrity.pl).
my $big = (1 << 62) + 1;
mutate('big.json', 't1.json', sub {
		my ($d) = @_;
		delete $d->{run_id};
		$d->{transactions}{$_} = $big for qw(processed total);
		$d->{transactions}{$_} = 0 for qw(failed serialization_failures deadlock_failures other_failures skipped);
		$d->{transactions}{late} = 0;
		$d->{latency_ms}{count} = $big;
		my $h = $d->{latency_histogram};
		@$h{qw(count clamped min_us max_us buckets)} = ($big, 0, 100, 100, [ [ 100, $big ] ]);
	});
($rc, $out, $err) = pgbench([ '--merge-reports', 'big.json' ]);
is($rc, 0, 'a report of 2^62 + 1 transactions merges') or diag($err);
like($out, qr/^number of transactions actually processed: 4611686018427387905$/m, '... counted exactly');
refused('two of them', 'big.json: latency_histogram.buckets: the sum over the reports overflows (above 9223372036854775807)',
	'big.json', 'big.json');

# a point of 2^62 + 1 transactions: its counts merge once, twice they
# overflow the point; but a point's coarse bucket holds at most 2^32 - 1
my $p0 = sub {
	my ($d, $n, $buckets) = @_;
	delete $d->{run_id};
	my $p = $d->{series}{points}[0];
	$p->{processed} = $n;
	$d->{series}{points}[$_]{processed} = 0, $d->{series}{points}[$_]{histogram} = undef
		for 1 .. $#{ $d->{series}{points} };
	@{ $p->{histogram} }{qw(min_us max_us buckets)} = (100, 100, $buckets);
};
mutate('bigpoint.json', 't1.json', sub { $p0->($_[0], 1 << 62, [ [ 36, 1 << 62 ] ]) });
($rc, $out, $err) = pgbench([ '--merge-reports', 'bigpoint.json' ]);
like($err, qr/^pgbench: error: bigpoint\.json: series\.points\[0\]\.histogram\.buckets: more than 4294967295 transactions in one bucket$/m,
	'a point of 2^62 transactions in its buckets: refused, the bucket named');
mutate('bigpoint.json', 't1.json', sub { $p0->($_[0], 4294967295, [ [ 36, 4294967295 ] ]) });
($rc, $out, $err) = pgbench([ '--merge-reports', 'bigpoint.json' ]);
is($rc, 0, 'a point of 2^32 - 1 transactions in one bucket merges') or diag($err);
refused('two of them', 'bigpoint.json: series.points[0]: the sum over the reports overflows',
	'bigpoint.json', 'bigpoint.json');

# sums of latencies that pass the largest double
mutate('bigsum.json', 't1.json', sub { delete $_[0]{run_id}; $_[0]{latency_histogram}{sum_us} = '__RAW__' }, '1.5e308');
refused('latency sums past the largest double', 'bigsum.json: latency_histogram: the sum over the reports overflows',
	'bigsum.json', 'bigsum.json');

# over the size limit: a sparse file (refused by its size) and a device
# that never ends (refused after 256 MiB)
open my $fh, '>', 'huge.json' or die "huge.json: $!";
truncate $fh, 256 * 1024 * 1024 + 1 or die "truncate: $!";
close $fh;
refused('a file over 256 MiB', 'huge.json: larger than 268435456 bytes (256 MiB), the most a report may be',
	'huge.json');
refused('/dev/zero', '/dev/zero: larger than 268435456 bytes (256 MiB), the most a report may be',
	'r1.json', '/dev/zero');
unlink 'huge.json';
refused('a directory', 'could not read report file ".": Is a directory', '.');

# a merged report that cannot be written: none is left half written
unlink 'm.html';
($rc, $out, $err) = pgbench([ '--merge-reports', 'r1.json', 'r2.json', '--report-json=nodir/m.json',
		'--report-html=m.html' ]);
is($rc, 1, 'a JSON report that cannot be made: exit status 1');
like($err, qr{^pgbench: error: could not open report file "nodir/m\.json": No such file or directory$}m,
	'... says so');
ok(!-e 'm.html', '... and the HTML report begun is removed');

# ---- valid reports merge as before --------------------------------------------------------

# accepted although unusual: a weight of 0 (pgbench takes @0), a seed above INT64_MAX (t*.json)
mutate('w0.json', 'r1.json', sub { $_[0]{scripts}[1]{weight} = 0 });
($rc, $out, $err) = pgbench([ '--merge-reports', 'w0.json' ]);
is($rc, 0, 'a script of weight 0 merges') or diag($err);

# a target the run did not name (the writer writes null for an empty
# host, port or database): the merged report repeats the first's
mutate('nohost.json', 'r1.json', sub { $_[0]{connection}{$_} = undef for qw(host port database) });
unlink 'm.json';
($rc, $out, $err) = pgbench([ '--merge-reports', 'nohost.json', 'r2.json', '--report-json=m.json' ]);
is($rc, 0, 'a report whose connection names no host, port or database merges') or diag($err);
is_deeply(decode_json(slurp('m.json'))->{connection}, { host => undef, port => undef, database => undef },
	'... and the merged report names none either');

# another text under the same script name: refused by its hash
mutate('otherText.json', 'r2.json', sub { $_[0]{scripts}[0]{sha256} = '0' x 64 });
my $sha = decode_json(slurp('r1.json'))->{scripts}[0]{sha256};
($rc, $out, $err) = pgbench([ '--merge-reports', 'r1.json', 'otherText.json' ]);
is($rc, 1, 'a script of another text: refused');
is($err, "pgbench: error: reports \"r1.json\" and \"otherText.json\" differ in script 1's text (SHA-256): $sha and " . ('0' x 64) .
	"\npgbench: detail: Only reports of the same workload and mode can be merged.\n", '... naming the hashes');

# t1 a second time as a report written before run ids (none: it cannot be
# told from t1.json)
mutate('t1old.json', 't1.json', sub { delete $_[0]{run_id} });
my $reference = $ENV{PGBENCH_MERGE_REFERENCE};
for my $set ([ 'r1.json', 'r2.json' ], [ 't1.json', 't2.json' ], [ 't1.json', 't2.json', 't1old.json' ], ['r2.json'])
{
	my $what = join(' ', @$set);
	unlink 'm.json', 'ref.json';
	($rc, $out, $err) = pgbench([ '--merge-reports', @$set, '--report-json=m.json' ]);
	is($rc, 0, "$what: merged") or diag($err);
	my @docs = map { decode_json(slurp($_)) } @$set;
	my $m = decode_json(slurp('m.json'));
	for my $k (qw(processed failed retries skipped total))
	{
		is($m->{transactions}{$k}, sum0(map { $_->{transactions}{$k} } @docs), "$what: $k summed");
	}
	is($m->{settings}{clients}, sum0(map { $_->{settings}{clients} } @docs), "$what: clients summed");
	is($m->{latency_histogram}{count}, $m->{transactions}{processed}, "$what: the histogram counts them all");
	is($m->{settings}{random_seed}, $docs[0]{settings}{random_seed}, "$what: the first seed, exactly");
  SKIP:
	{
		skip 'PGBENCH_MERGE_REFERENCE not set', 2 unless $reference;
		my ($rrc, $rout, $rerr) = run_cmd([ $reference, '--merge-reports', @$set, '--report-json=ref.json' ]);
		is($out, $rout, "$what: the text report as $reference prints it");
		# but for the members this pgbench added: the run ids and the inputs
		my ($ours, $theirs) = (slurp('m.json'), slurp('ref.json'));
		$ours =~ s/^  "run_id": (?:null|"[0-9a-f]{32}"),\n//m;
		$ours =~ s/,\n  "inputs": (?:null|\[.*?\n  \])\n\}\n\z/\n}\n/s;
		ok($ours eq $theirs, "$what: the JSON report as $reference writes it (run_id and inputs aside)");
	}
}

done_testing();
