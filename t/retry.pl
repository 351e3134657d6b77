# retry.pl — serialization and deadlock failures against a real cluster:
# which errors are retried and which abort, --max-tries (1, 3, 0 with -T),
# -L cutting retries short, the report's failure and retry lines (-r,
# --failures-detailed) in the system pgbench's format, the --verbose-errors
# messages, the counting invariants, and the database state each run leaves.
#
# Two kinds of workload: scripted failures (a DO block raising 40001, 40P01
# or 40003 on a sequence's schedule) whose every number is deterministic,
# and real ones (REPEATABLE READ updates of one hot row, two clients
# updating two rows in opposite order) whose counts vary but must add up.
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $node = start_cluster(settings => "deadlock_timeout = 100ms\n");
my %env = %{ $node->env };
my $system = system_pgbench_path();

my $dir = tempdir('pgbretry_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

$node->query('create table hot (id int primary key, n int not null)');
$node->query('create table tlog (x int, r int)');
$node->query('create sequence fail_seq');

# A try fails whenever the sequence's next value is not a multiple of $every.
sub failing_script
{
	my ($sqlstate, $every) = @_;
	return "DO \$\$ BEGIN IF nextval('fail_seq') % $every <> 0 THEN "
	  . "RAISE EXCEPTION 'scripted failure' USING ERRCODE = '$sqlstate'; END IF; END \$\$;\n";
}

write_file('vars.sql',
	"\\set x :x + 1\n\\set r random(1, 1000000)\nINSERT INTO tlog VALUES (:x, :r);\n"
	  . failing_script('40001', 2));
write_file('deadlock2of3.sql', "\\set r random(1, 1000000)\n" . failing_script('40P01', 3));
write_file('slowfail.sql', "SELECT pg_sleep(1);\n" . failing_script('40001', 4));
write_file('other40.sql', "SELECT 1;\n" . failing_script('40003', 1000000));
write_file('pipeline.sql',
	"\\set r random(1, 1000000)\n\\startpipeline\nINSERT INTO tlog VALUES (0, :r);\n"
	  . failing_script('40001', 2) . "\\endpipeline\n");
write_file('hot.sql',
	"BEGIN ISOLATION LEVEL REPEATABLE READ;\nUPDATE hot SET n = n + 1 WHERE id = 1;\n"
	  . "SELECT pg_sleep(0.002);\nEND;\n");
# Each client locks its own row, then (0.3 s later) the other's.  The sleep
# before BEGIN lets the survivor take its lock before a retry comes back.
write_file('deadlock.sql',
	"SELECT pg_sleep(0.05);\nBEGIN;\n"
	  . "UPDATE hot SET n = n + 1 WHERE id = 1 + :client_id;\n"
	  . "SELECT pg_sleep(0.3);\n"
	  . "UPDATE hot SET n = n + 1 WHERE id = 2 - :client_id;\nEND;\n");

my $RESET = 'truncate tlog; alter sequence fail_seq restart; '
  . 'delete from hot; insert into hot values (1, 0), (2, 0)';

# ---- helpers ------------------------------------------------------------------

# Run one binary on a freshly reset database; returns its result and the
# state it left: [rc, out, err, hot rows "n1,n2", tlog rows].
sub run_fresh
{
	my ($runner, $args) = @_;
	$node->query($RESET);
	my ($rc, $out, $err) = $runner->($args, env => \%env);
	return [ $rc, $out, $err,
		$node->query("select string_agg(n::text, ',' order by id) from hot"),
		$node->query("select coalesce(string_agg(x || ':' || r, ' ' order by x, r), '') from tlog") ];
}

# The report with its numbers masked; the banner (which differs by design)
# dropped, as is " (including failures)", whose presence depends on counts.
sub masked_report
{
	my ($out) = @_;
	$out =~ s/\A[^\n]*\n//;
	$out =~ s/ \(including failures\)$//mg;
	$out =~ s/-?\d+(?:\.\d+)?/N/g;
	# -r columns are right-aligned: widths follow the digit counts
	$out =~ s/ +/ /g;
	return $out;
}

# The distinct forms of stderr lines: how many tries a timing-bound run
# takes varies from run to run, the kinds of lines printed do not.
sub line_forms
{
	my ($s) = @_;
	my %seen = map { $_ => 1 } split /\n/, masked($s);
	return [ sort keys %seen ];
}

sub masked { my ($s) = @_; $s =~ s/\d+/N/g; return $s; }

# The counts of a report, and the per-command columns of -r.
sub report_counts
{
	my ($out) = @_;
	my %c;
	($c{processed}, $c{planned}) =
	  $out =~ m{^number of transactions actually processed: (\d+)(?:/(\d+))?$}m;
	($c{failed}) = $out =~ /^number of failed transactions: (\d+) \(\d+\.\d{3}%\)$/m;
	($c{serialization}) = $out =~ /^number of serialization failures: (\d+) \(\d+\.\d{3}%\)$/m;
	($c{deadlock}) = $out =~ /^number of deadlock failures: (\d+) \(\d+\.\d{3}%\)$/m;
	($c{retried}) = $out =~ /^number of transactions retried: (\d+) \(\d+\.\d{3}%\)$/m;
	($c{retries}) = $out =~ /^total number of retries: (\d+)$/m;
	if ($out =~ /^statement latencies in milliseconds, failures and retries:\n((?:.*\n)*)/m)
	{
		for my $line (split /\n/, $1)
		{
			last unless $line =~ /^\s+\d+\.\d{3}\s+(\d+)\s+(\d+)  /;
			$c{cmd_failures} += $1;
			$c{cmd_retries} += $2;
		}
	}
	elsif ($out =~ /^statement latencies in milliseconds and failures:\n((?:.*\n)*)/m)
	{
		for my $line (split /\n/, $1)
		{
			last unless $line =~ /^\s+\d+\.\d{3}\s+(\d+)  /;
			$c{cmd_failures} += $1;
		}
	}
	return \%c;
}

# --verbose-errors lines, in pgbench 15/16's wording.
my $re_error = qr/^pgbench: client \d+ got an error in command \d+ \(SQL\) of script 0; ERROR:  /;
my $re_try = qr/^pgbench: client \d+ (repeats the transaction after the error|ends the failed transaction) \(try (\d+)(?:\/(\d+))?(, \d+\.\d{3}% of the maximum time of tries was used)?\)$/;

# Sort the stderr of a verbose run into errors, repeats and ends; anything
# else (but the continuation lines of an error message) is reported back.
sub verbose_lines
{
	my ($err, %o) = @_;
	my %v = (errors => 0, repeats => 0, ends => 0, bad => [], tries_ok => 1,
		limit_ok => 1);
	my $in_error = 0;
	for my $line (split /\n/, $err)
	{
		if ($line =~ $re_error)
		{
			$v{errors}++;
			$in_error = 1;
		}
		elsif ($line =~ $re_try)
		{
			my ($what, $try, $max, $pct) = ($1, $2, $3, $4);
			$v{ $what =~ /^repeats/ ? 'repeats' : 'ends' }++;
			$in_error = 0;
			$v{tries_ok} = 0 if ($max // 0) != ($o{max_tries} // 0);
			$v{tries_ok} = 0 if $o{max_tries} && $what =~ /^repeats/ && $try >= $o{max_tries};
			$v{tries_ok} = 0 if $o{max_tries} && !$o{limit} && $what =~ /^ends/ && $try != $o{max_tries};
			$v{limit_ok} = 0 if !!$pct != !!$o{limit};
		}
		elsif ($in_error && $line =~ /^(?:DETAIL|HINT|CONTEXT):  |^Process \d+ waits /)
		{
			next;
		}
		else
		{
			push @{ $v{bad} }, $line;
		}
	}
	return \%v;
}

# (run_accounted: a starved -T run is made again)
sub run_again
{
	my ($runner, $name, $args) = @_;
	my @r = run_accounted($name, $args, sub { @{ run_fresh($runner, $args) } });
	return \@r;
}

# Both binaries on the same workload: exit codes and masked reports agree.
# Returns ($ours, $theirs) where $theirs is undef without a system pgbench.
sub run_both
{
	my ($name, $args) = @_;
	my $ours = run_again(\&pgbench, $name, $args);
	return ($ours, undef) unless $system;
	my $theirs = run_again(\&system_pgbench, $name, $args);
	is($ours->[0], $theirs->[0], "$name: exit code as the system pgbench");
	is(masked_report($ours->[1]), masked_report($theirs->[1]),
		"$name: report lines as the system pgbench's");
	return ($ours, $theirs);
}

# The invariants every report obeys; $planned for -t runs.
sub check_invariants
{
	my ($name, $c, %o) = @_;
	ok(defined $c->{processed} && defined $c->{failed}, "$name: processed and failed reported")
	  or return;
	is($c->{processed} + $c->{failed}, $o{planned}, "$name: processed + failed = all transactions")
	  if defined $o{planned};
	if (defined $c->{retried})
	{
		ok($c->{retried} <= $c->{processed} + $c->{failed},
			"$name: retried ($c->{retried}) <= processed + failed");
		ok($c->{retries} >= $c->{retried}, "$name: retries ($c->{retries}) >= retried");
		ok($c->{retries} <= $c->{retried} * ($o{max_tries} - 1),
			"$name: at most max_tries - 1 retries per retried transaction")
		  if $o{max_tries};
	}
	if (defined $c->{serialization})
	{
		is($c->{serialization} + $c->{deadlock}, $c->{failed},
			"$name: failures = serialization + deadlock");
	}
}

# ---- scripted failures: every number is known ---------------------------------

# Every transaction fails once (odd sequence values), then succeeds: the
# retry draws the same random value, but \set x :x + 1 is not undone.
{
	my @args = ('-n', '-c', '1', '-t', '3', '--random-seed=5', '-D', 'x=0',
		'--max-tries=2', '--verbose-errors', '-f', 'vars.sql');
	my ($ours, $theirs) = run_both('retry once', \@args);
	is($ours->[0], 0, 'retry once: exit code 0');
	my $c = report_counts($ours->[1]);
	is_deeply([ @$c{qw(processed planned failed retried retries)} ], [ 3, 3, 0, 3, 3 ],
		'retry once: 3/3 processed, none failed, 3 retried, 3 retries');
	my $error = "pgbench: client 0 got an error in command 3 (SQL) of script 0; ERROR:  scripted failure\n"
	  . "CONTEXT:  PL/pgSQL function inline_code_block line 1 at RAISE\n"
	  . "pgbench: client 0 repeats the transaction after the error (try 1/2)\n";
	is($ours->[2], "pgbench: setting random seed to 5\n" . ($error x 3), 'retry once: verbose messages');
	my @rows = map { [ split /:/ ] } split / /, $ours->[4];
	is_deeply([ map { $_->[0] } @rows ], [ 1 .. 6 ], 'retry once: variables keep the failed try\'s values');
	ok(@rows == 6 && $rows[0][1] == $rows[1][1] && $rows[2][1] == $rows[3][1]
		  && $rows[4][1] == $rows[5][1] && $rows[0][1] != $rows[2][1],
		'retry once: a retry draws the same random values');
	if ($theirs)
	{
		is($ours->[2], $theirs->[2], 'retry once: stderr as the system pgbench');
		is($ours->[4], $theirs->[4], 'retry once: same rows as the system pgbench (random state, variables)');
	}
}

# Two tries of three fail with a deadlock: with two tries, the first
# transaction fails for good, the third succeeds on its retry.
{
	my @args = ('-n', '-c', '1', '-t', '3', '--max-tries=2', '--failures-detailed',
		'-r', '--verbose-errors', '-f', 'deadlock2of3.sql');
	my ($ours, $theirs) = run_both('scripted deadlocks', \@args);
	is($ours->[0], 0, 'scripted deadlocks: exit code 0');
	my $c = report_counts($ours->[1]);
	is_deeply([ @$c{qw(processed planned failed serialization deadlock retried retries cmd_failures cmd_retries)} ],
		[ 1, 3, 2, 0, 2, 2, 2, 2, 2 ],
		'scripted deadlocks: counts, per command too');
	like($ours->[1], qr/^number of failed transactions: 2 \(66\.667%\)\nnumber of serialization failures: 0 \(0\.000%\)\nnumber of deadlock failures: 2 \(66\.667%\)\nnumber of transactions retried: 2 \(66\.667%\)\ntotal number of retries: 2\nlatency average = \d+\.\d{3} ms \(including failures\)$/m,
		'scripted deadlocks: failure lines');
	my $error = "pgbench: client 0 got an error in command 1 (SQL) of script 0; ERROR:  scripted failure\n"
	  . "CONTEXT:  PL/pgSQL function inline_code_block line 1 at RAISE\n";
	my $fail = $error . "pgbench: client 0 repeats the transaction after the error (try 1/2)\n"
	  . $error . "pgbench: client 0 ends the failed transaction (try 2/2)\n";
	is($ours->[2], $fail x 2, 'scripted deadlocks: verbose messages');
	is($ours->[2], $theirs->[2], 'scripted deadlocks: stderr as the system pgbench') if $theirs;
}

# The default --max-tries=1: no retry, no retry lines in the report.
{
	my @args = ('-n', '-c', '1', '-t', '3', '-r', '--verbose-errors', '-f', 'deadlock2of3.sql');
	my ($ours) = run_both('one try', \@args);
	is($ours->[0], 0, 'one try: exit code 0');
	my $c = report_counts($ours->[1]);
	is_deeply([ @$c{qw(processed failed retried cmd_failures)} ], [ 1, 2, undef, 2 ],
		'one try: 1 processed, 2 failed, no retry lines');
	like($ours->[1], qr/^maximum number of tries: 1$/m, 'one try: maximum number of tries: 1');
	like($ours->[1], qr/^statement latencies in milliseconds and failures:$/m, 'one try: -r without retries');
	my $v = verbose_lines($ours->[2], max_tries => 1);
	is_deeply([ @$v{qw(errors repeats ends)}, $v->{bad} ], [ 2, 0, 2, [] ],
		'one try: two errors, each ending its transaction');
	ok($v->{tries_ok}, 'one try: (try 1/1)');
}

# -L with unlimited tries: each try takes 1 s and a little more, the
# limit is 2.95 s, so the first transaction gives up after its third try
# (the fourth succeeds).  Three tries take at least 3 s whatever the
# machine; two stay under the limit unless they are 950 ms late (a loaded
# machine was seen 240 ms late).
{
	my $name = '-L cut-off';
	my @args = ('-n', '-c', '1', '-t', '2', '-L', '2950', '--max-tries=0', '--verbose-errors',
		'-f', 'slowfail.sql');
	my ($ours, $theirs) = run_both($name, \@args);
	is($ours->[0], 0, "$name: exit code 0");
	my $c = report_counts($ours->[1]);
	is_deeply([ @$c{qw(processed planned failed retried retries)} ], [ 1, 2, 1, 1, 2 ],
		"$name: 1/2 processed, 1 failed after 2 retries");
	unlike($ours->[1], qr/^maximum number of tries/m, "$name: no maximum number of tries line");
	my @pct = $ours->[2] =~ /^pgbench: client 0 (?:repeats the transaction after the error|ends the failed transaction) \(try \d, (\d+\.\d{3})% of the maximum time of tries was used\)$/mg;
	my @what = $ours->[2] =~ /^pgbench: client 0 (repeats|ends) .* \(try (\d)/mg;
	is_deeply(\@what, [ 'repeats', 1, 'repeats', 2, 'ends', 3 ], "$name: two repeats, then the end at try 3");
	ok(@pct == 3 && $pct[0] < $pct[1] && $pct[1] <= 100 && $pct[2] > 100,
		"$name: the share of the limit grows past 100% (@pct)");
	is_deeply(line_forms($ours->[2]), line_forms($theirs->[2]),
		"$name: stderr lines of the same forms as the system pgbench's") if $theirs;
}

# A pipeline: leave it, roll back, retry in extended and prepared modes.
for my $mode ('extended', 'prepared')
{
	my @args = ('-n', '-c', '1', '-t', '3', '-M', $mode, '--random-seed=3',
		'--max-tries=2', '-f', 'pipeline.sql');
	my ($ours, $theirs) = run_both("pipeline $mode", \@args);
	is($ours->[0], 0, "pipeline $mode: exit code 0");
	my $c = report_counts($ours->[1]);
	is_deeply([ @$c{qw(processed failed retried retries)} ], [ 3, 0, 3, 3 ],
		"pipeline $mode: every transaction retried once");
	my @rows = split / /, $ours->[4];
	is(scalar @rows, 3, "pipeline $mode: the failed tries left no rows");
	is($ours->[4], $theirs->[4], "pipeline $mode: same rows as the system pgbench") if $theirs;
}

# Other errors, class 40 included, are never retried: the client aborts.
{
	my @args = ('-n', '-c', '1', '-t', '3', '--max-tries=5', '--verbose-errors', '-f', 'other40.sql');
	my ($ours, $theirs) = run_both('40003', \@args);
	is($ours->[0], 2, '40003: the client aborts, exit code 2');
	is($ours->[2],
		"pgbench: error: client 0 script 0 aborted in command 1 query 0: ERROR:  scripted failure\n"
		  . "CONTEXT:  PL/pgSQL function inline_code_block line 1 at RAISE\n"
		  . "pgbench: error: Run was aborted; the above results are incomplete.\n",
		'40003: abort message, no retry');
	is($ours->[2], $theirs->[2], '40003: stderr as the system pgbench') if $theirs;
	like($ours->[1], qr/^number of transactions actually processed: 0\/3\nnumber of failed transactions: 0 \(NaN%\)$/m,
		'40003: nothing processed, nothing counted as failed');
}

# ---- real serialization failures: one hot row, four clients -----------------

for my $case (
	[ 'hot row, one try', 1, [ '-r' ] ],
	[ 'hot row, 3 tries', 3, [ '-r', '--failures-detailed', '--verbose-errors' ] ])
{
	my ($name, $tries, $extra) = @$case;
	my @args = ('-n', '-c', '4', '-t', '20', "--max-tries=$tries", @$extra, '-f', 'hot.sql');
	my ($ours, $theirs) = run_both($name, \@args);
	is($ours->[0], 0, "$name: exit code 0");
	my $c = report_counts($ours->[1]);
	is($c->{planned}, 80, "$name: 80 transactions planned");
	check_invariants($name, $c, planned => 80, max_tries => $tries);
	ok($c->{failed} > 0, "$name: serialization failures happened ($c->{failed})");
	is($c->{cmd_failures}, $c->{failed}, "$name: -r failures add up");
	is($c->{cmd_retries}, $c->{retries}, "$name: -r retries add up") if $tries > 1;
	is($ours->[3], "$c->{processed},0", "$name: the counter equals the successful transactions");
	if ($tries > 1)
	{
		is($c->{serialization}, $c->{failed}, "$name: every failure a serialization failure");
		my $v = verbose_lines($ours->[2], max_tries => $tries);
		is_deeply($v->{bad}, [], "$name: only verbose error lines on stderr");
		is($v->{repeats}, $c->{retries}, "$name: one 'repeats' line per retry");
		is($v->{ends}, $c->{failed}, "$name: one 'ends' line per failed transaction");
		is($v->{errors}, $v->{repeats} + $v->{ends}, "$name: one error line per failed try");
		ok($v->{tries_ok}, "$name: try numbers within 1..$tries");
		like($ours->[2], qr/^pgbench: client \d got an error in command 1 \(SQL\) of script 0; ERROR:  could not serialize access due to concurrent update$/m,
			"$name: the serialization error message");
		if ($theirs)
		{
			my $vt = verbose_lines($theirs->[2], max_tries => $tries);
			is_deeply($vt->{bad}, [], "$name: the system pgbench's lines have the same forms");
		}
	}
	else
	{
		is($ours->[2], '', "$name: nothing on stderr without --verbose-errors");
	}
}

# Unlimited tries under -T: nothing fails; retries of transactions cut by
# the deadline count for their command but not in the totals.
{
	my $name = 'unlimited tries -T';
	my @args = ('-n', '-c', '4', '-T', '2', '--max-tries=0', '-r', '--failures-detailed', '-f', 'hot.sql');
	my ($ours) = run_both($name, \@args);
	is($ours->[0], 0, "$name: exit code 0");
	my $c = report_counts($ours->[1]);
	check_invariants($name, $c);
	unlike($ours->[1], qr/^maximum number of tries/m, "$name: no maximum number of tries line");
	is_deeply([ @$c{qw(failed serialization deadlock cmd_failures)} ], [ 0, 0, 0, 0 ],
		"$name: no failures");
	ok($c->{retries} > 0, "$name: retries happened ($c->{retries})");
	ok($c->{cmd_retries} >= $c->{retries}, "$name: -r retries ($c->{cmd_retries}) >= total retries");
	is($ours->[3], "$c->{processed},0", "$name: the counter equals the successful transactions");
}

# -L bounds the time of the tries: transactions fail once over 5 ms.
{
	my $name = 'unlimited tries -L';
	my @args = ('-n', '-c', '4', '-T', '2', '--max-tries=0', '-L', '5', '--verbose-errors', '-f', 'hot.sql');
	my ($ours, $theirs) = run_both($name, \@args);
	is($ours->[0], 0, "$name: exit code 0");
	my $c = report_counts($ours->[1]);
	check_invariants($name, $c);
	my $v = verbose_lines($ours->[2], limit => 1);
	is_deeply($v->{bad}, [], "$name: only verbose error lines on stderr");
	ok($v->{tries_ok} && $v->{limit_ok}, "$name: (try N, P% of the maximum time of tries was used)");
	is($v->{ends}, $c->{failed}, "$name: one 'ends' line per failed transaction");
	ok($v->{repeats} >= $c->{retries},
		"$name: 'repeats' lines = retries, but for transactions cut by -T");
	ok($v->{errors} >= $v->{repeats} + $v->{ends} && $v->{errors} <= $v->{repeats} + $v->{ends} + 4,
		"$name: error lines = decisions, but for transactions cut by -T");
	my $over = 0;
	while ($ours->[2] =~ /^pgbench: client \d+ ends the failed transaction \(try \d+, (\d+\.\d+)% of/mg)
	{
		$over++ if $1 <= 100.0;
	}
	is($over, 0, "$name: transactions give up only past 100% of the limit");
	is($ours->[3], "$c->{processed},0", "$name: the counter equals the successful transactions");
	if ($theirs)
	{
		my $vt = verbose_lines($theirs->[2], limit => 1);
		is_deeply($vt->{bad}, [], "$name: the system pgbench's lines have the same forms");
	}
}

# ---- real deadlocks: two clients, two rows, opposite order -------------------

for my $case ([ 1, '1/2', 1, '1,1' ], [ 2, '2/2', 0, '2,2' ])
{
	my ($tries, $processed, $failed, $rows) = @$case;
	my $name = "deadlock, $tries tries";
	my @args = ('-n', '-c', '2', '-t', '1', "--max-tries=$tries", '--failures-detailed',
		'--verbose-errors', '-f', 'deadlock.sql');
	my ($ours, $theirs) = run_both($name, \@args);
	is($ours->[0], 0, "$name: exit code 0");
	like($ours->[1], qr/^number of transactions actually processed: $processed\nnumber of failed transactions: $failed \(\d+\.\d{3}%\)\nnumber of serialization failures: 0 \(0\.000%\)\nnumber of deadlock failures: $failed \(\d+\.\d{3}%\)$/m,
		"$name: $processed processed, $failed deadlock failures");
	my $c = report_counts($ours->[1]);
	check_invariants($name, $c, planned => 2, max_tries => $tries);
	is($c->{retries}, $tries > 1 ? 1 : undef, "$name: retries");
	is($ours->[3], $rows, "$name: each row updated once per successful transaction");
	my $decision = $tries > 1
	  ? 'repeats the transaction after the error (try 1/2)'
	  : 'ends the failed transaction (try 1/1)';
	like($ours->[2],
		qr/\Apgbench: client (\d) got an error in command 4 \(SQL\) of script 0; ERROR:  deadlock detected\nDETAIL:  Process \d+ waits for ShareLock on transaction \d+; blocked by process \d+\.\nProcess \d+ waits for ShareLock on transaction \d+; blocked by process \d+\.\nHINT:  See server log for query details\.\nCONTEXT:  while updating tuple \(\d+,\d+\) in relation "hot"\npgbench: client \1 \Q$decision\E\n\z/,
		"$name: verbose messages");
	is(masked($ours->[2]), masked($theirs->[2]), "$name: stderr as the system pgbench's") if $theirs;
}

$node->stop;
done_testing();
