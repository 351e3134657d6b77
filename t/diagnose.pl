# diagnose.pl — --compare's diagnosis on real pairs of runs, each pair
# differing in one injected cause (the scenarios of
# scripts/diag-scenarios.sh, shorter, several on one cluster): for each
# pair, the runs are made, the cause is checked in the reports themselves
# (so that the pair is what it claims to be), then `pgbench --compare
# base.json new.json` must rank the cause's evidence first ("  1. ...")
# and name it on its "likely cause:" line.
#
#   DIAG_T=N      seconds per run (default 12, after a 2 s warm-up)
#   DIAG_ALL=1    adds threads (CPU hogs beside two runs: it loads the machine)
#   DIAG_KEEP=DIR keeps the runs' reports and logs (DIR/RUN.json, .log) and
#                 --compare's outputs (DIR/compare_NAME.txt) in DIR
# major needs PostgreSQL 18 (scripts/pg-server 18; skipped without it).
use strict;
use warnings;

use File::Path ();
use File::Temp qw(tempdir);
use JSON::PP ();
use PgbTest;
use POSIX ();
use Test::More;

# ---- the expectations, one row per scenario -------------------------------
#   first  what the first ranked line ("  1. ...", under "what changed
#          beyond its noise") must match; undef: no condition
#   cause  what the "likely cause: ..." line must match
my @EXPECT = (
	# shared_buffers: one of its rule's key evidence (compare_rules.c), evictions
	# among them (18 under AddressSanitizer ranked io.evictions, 0 -> 1.86, first)
	{ name => 'shared_buffers', first => qr/blks_read|DataFileRead|io\.reads|io\.evictions|read/,
	  cause => qr/shared_buffers/ },
	{ name => 'checkpoints', first => qr/checkpoint|wal_fpi|wal_bytes|buffers_written|WAL/,
	  cause => qr/max_wal_size|checkpoint_timeout|checkpoint/ },
	{ name => 'work_mem', first => qr/temp_bytes|temp_files|BufFile/, cause => qr/work_mem/ },
	{ name => 'synchronous_commit', first => qr/WAL|synchronous/, cause => qr/synchronous_commit/ },
	{ name => 'hot_row', first => qr/Lock:transactionid|Lock:tuple/, cause => qr/lock|hot row/i },
	{ name => 'network', first => qr/outside the server/, cause => qr/network|outside the server/ },
	# and no ranked line names an io. counter when the base has no pg_stat_io (15)
	{ name => 'major', first => undef, cause => qr/server version|PostgreSQL/ },
	{ name => 'threads', first => qr/client CPU|pgbench CPU/, cause => qr/-j|threads|client/ },
);
# network: each chunk held 2 ms each way, one round trip per select-only
# transaction (simple protocol): 4 ms a transaction; the breakdown's
# "outside the server" line must grow by that, within 20%
my $NET_DELAY_MS = 2;
my $NET_INJECTED_MS = 2 * $NET_DELAY_MS;
my $NET_TOLERANCE = 0.20;

my $T = $ENV{DIAG_T} || 12;
my $WARMUP = 2;
my $dir = $ENV{DIAG_KEEP} || tempdir('pgbdiag_XXXXXX', TMPDIR => 1, CLEANUP => 1);
File::Path::make_path($dir);
my $sockdir = tempdir('pgbdiagsock_XXXXXX', TMPDIR => 1, CLEANUP => 1);

# the server of major's new side, when there is one (no install attempt
# fails the test)
my $bin18 = `bash "$ENV{PGBENCH_SRC}/scripts/pg-server" 18 2>/dev/null`;
chomp $bin18;
$bin18 = '' if $? || !-x "$bin18/postgres";

# %report: NAME => { base => path, new => path }; a run may serve two pairs
my %report;

# the proxies and CPU hogs running, killed whatever ends the test
my @children;
END { kill 'KILL', @children if @children; }

# run_side($node, $file, @args): one run into $dir/$file.json (one check:
# it ran and wrote its report), its stdout and stderr into $file.log
sub run_side
{
	my ($node, $file, @args) = @_;
	my $path = "$dir/$file.json";
	unlink $path;
	my @argv = ('-n', '-T', $T, '--warmup', $WARMUP, '-P', '1', '--report-json', $path, @args);
	my ($rc, $out, $err) = pgbench(\@argv, env => $node->env, timeout => 6 * $T + 120);
	write_file("$dir/$file.log", "pgbench @argv\n$out$err");
	ok($rc == 0 && $out =~ /^tps = /m && -s $path, "$file: pgbench @args") or diag($err);
	return;
}

# pair($name, $side, $file): $file's report is $name's $side
sub pair { my ($name, $side, $file) = @_; $report{$name}{$side} = "$dir/$file.json"; return; }

sub load { return JSON::PP::decode_json(slurp($_[0])); }

# a counter of server_stats.totals per transaction
sub per_tx
{
	my ($r, $group, $key) = @_;
	my $n = $r->{transactions}{processed} || 1;
	return ($r->{server_stats}{totals}{$group}{$key} // 0) / $n;
}

# the average number of sessions in a wait event over the run
sub sessions_in
{
	my ($r, @events) = @_;
	my $w = $r->{server_stats}{wait_events};
	return 0 unless $w && $w->{samples};
	my $sum = 0;
	$sum += $w->{counts}{$_} // 0 for @events;
	return $sum / $w->{samples};
}

# configure($node, NAME => VALUE, ...): ALTER SYSTEM (undef: RESET) and a reload,
# waited for until a new session shows the values (so each VALUE is
# written as SHOW writes it: '64kB', '32MB', '30s', 'on')
sub configure
{
	my ($node, %s) = @_;
	for my $k (sort keys %s)
	{
		$node->query(defined $s{$k} ? "alter system set $k = '$s{$k}'" : "alter system reset $k");
	}
	$node->query('select pg_reload_conf()');
	for my $k (sort keys %s)
	{
		next unless defined $s{$k};
		poll_until(sub { $node->psql("select current_setting('$k')", allow_fail => 1) eq $s{$k} }, 30)
		  or BAIL_OUT("$k = $s{$k} not in effect");
	}
	return;
}

# the accounts read into the buffers (what fits), after a start
sub prewarm
{
	my ($node) = @_;
	$node->query('create extension if not exists pg_prewarm', allow_fail => 1);
	$node->query("select pg_prewarm('pgbench_accounts'), pg_prewarm('pgbench_accounts_pkey')", allow_fail => 1);
	return;
}

sub init
{
	my ($node, $scale) = @_;
	my ($rc, undef, $err) = pgbench([ '-i', '-q', '-s', $scale ], env => $node->env, timeout => 300);
	BAIL_OUT("pgbench -i -s $scale: $err") if $rc;
	$node->query('checkpoint');
	prewarm($node);
	return;
}

my $t_start = time;

# ---- the runs on one PostgreSQL cluster (the distribution's, 15 here) ------
# initdb's durability (fsync, synchronous_commit, full_page_writes on) and
# checkpoints held off (every pair but checkpoints' new side)
my $node = start_cluster(settings => "fsync = on\nsynchronous_commit = on\nfull_page_writes = on\n"
	  . "max_wal_size = 4GB\ncheckpoint_timeout = 1h\nlog_checkpoints = on\n");
init($node, 5);

# shared_buffers: 128MB -> 256kB, select-only over 75 MB of accounts (the
# base is major's base too: the same run on 15)
run_side($node, 'select_only', '-S', '-c', 2, '-j', 2);
pair('shared_buffers', base => 'select_only');
pair('major', base => 'select_only');
$node->query("alter system set shared_buffers = '256kB'");
$node->restart;
prewarm($node);
run_side($node, 'small_buffers', '-S', '-c', 2, '-j', 2);
pair('shared_buffers', new => 'small_buffers');
$node->query('alter system reset shared_buffers');
$node->restart;
prewarm($node);

# work_mem: 64MB -> 64kB, each transaction sorting 4000 rows with their
# filler (OFFSET keeps the sort unbounded: a LIMIT 1 alone is a top-N heap
# that never spills)
my $sort = write_file("$dir/sort.sql", "\\set lo random(1, 400000)\n"
	  . "SELECT aid FROM pgbench_accounts WHERE aid BETWEEN :lo AND :lo + :n - 1 "
	  . "ORDER BY abalance DESC, filler OFFSET :n - 1 LIMIT 1;\n");
for my $side ([ base => '64MB' ], [ new => '64kB' ])
{
	configure($node, work_mem => $side->[1]);
	run_side($node, "work_mem_$side->[0]", '-f', $sort, '-D', 'n=4000', '-c', 2, '-j', 2);
	pair('work_mem', $side->[0] => "work_mem_$side->[0]");
}
configure($node, work_mem => undef);

# network: select-only -c 2 through delayproxy.pl, 0 ms (base) and 2 ms
# (new) each way
my %proxy_stats;
for my $side ([ base => 0 ], [ new => $NET_DELAY_MS ])
{
	my $path = "$sockdir/.s.PGSQL.5999";
	my $stats = "$dir/proxy_$side->[0].txt";
	my $pid = start_delay_proxy(path => $path, target => $node->host . '/.s.PGSQL.' . $node->port,
		delay_ms => $side->[1], stats => $stats);
	@children = ($pid);
	run_side($node, "network_$side->[0]", '-S', '-c', 2, '-j', 2, '-h', $sockdir, '-p', 5999);
	# SIGTERM ends it writing its stats; a proxy that does not end within
	# 10 s is killed (once seen: the test waited for it for ever)
	kill 'TERM', $pid;
	my $t_term = time;
	while (waitpid($pid, POSIX::WNOHANG()) == 0)
	{
		if (time - $t_term > 10)
		{
			kill 'KILL', $pid;
			waitpid($pid, 0);
			last;
		}
		select(undef, undef, undef, 0.05);
	}
	@children = ();
	unlink $path;
	$proxy_stats{ $side->[0] } = -e $stats ? slurp($stats) : '';
	pair('network', $side->[0] => "network_$side->[0]");
}

# synchronous_commit: off -> on, tpcb-like; the "on" run is checkpoints'
# base (no checkpoint: 4GB, 1h), and the "off" run before it has written
# the first full-page image of the pages both touch
for my $side ([ base => 'off' ], [ new => 'on' ])
{
	configure($node, synchronous_commit => $side->[1]);
	run_side($node, "sync_$side->[1]", '-c', 4, '-j', 2);
	pair('synchronous_commit', $side->[0] => "sync_$side->[1]");
}
pair('checkpoints', base => 'sync_on');

# checkpoints: max_wal_size 32MB, checkpoint_timeout 30s
configure($node, max_wal_size => '32MB', checkpoint_timeout => '30s');
run_side($node, 'checkpoints_new', '-c', 4, '-j', 2);
pair('checkpoints', new => 'checkpoints_new');
configure($node, max_wal_size => undef, checkpoint_timeout => undef);

# hot_row: -c 8 updating one row of 100000 at random (base) or always the
# same one (new): one script, -D range apart
my $update = write_file("$dir/update.sql", "\\set aid random(1, :range)\n\\set delta random(-5000, 5000)\n"
	  . "BEGIN;\nUPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
	  . "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nEND;\n");
for my $side ([ base => 100000 ], [ new => 1 ])
{
	run_side($node, "hot_row_$side->[0]", '-f', $update, '-D', "range=$side->[1]", '-c', 8, '-j', 2);
	pair('hot_row', $side->[0] => "hot_row_$side->[0]");
}

# threads: select-only -c 8, -j 2 -> -j 1, with a CPU hog per CPU beside
# both runs
if ($ENV{DIAG_ALL})
{
	my $cpus = `nproc` + 0 || 2;
	for (1 .. $cpus)
	{
		my $pid = fork() // die "fork: $!";
		if ($pid == 0)
		{
			open(STDOUT, '>', '/dev/null');
			exec('yes') or POSIX::_exit(127);
		}
		push @children, $pid;
	}
	for my $side ([ base => 2 ], [ new => 1 ])
	{
		run_side($node, "threads_$side->[0]", '-S', '-c', 8, '-j', $side->[1]);
		pair('threads', $side->[0] => "threads_$side->[0]");
	}
	kill 'KILL', @children;
	waitpid($_, 0) for @children;
	@children = ();
}
my $base_version = $node->version_num;
$node->stop;

# major: the same select-only run on 18 (unless the base is 18 already:
# PGBTEST_SERVER)
$bin18 = '' if $base_version >= 180000;
if ($bin18)
{
	local $ENV{PGBTEST_SERVER} = $bin18;
	my $n18 = start_cluster(settings => "fsync = on\nsynchronous_commit = on\nfull_page_writes = on\n");
	init($n18, 5);
	run_side($n18, 'select_only_18', '-S', '-c', 2, '-j', 2);
	pair('major', new => 'select_only_18');
	$n18->stop;
}
note(sprintf('the runs took %d s', time - $t_start));

# ---- each pair is what it claims (the reports themselves) -----------------

my %r;
for my $name (keys %report)
{
	for my $side (qw(base new))
	{
		$r{$name}{$side} = load($report{$name}{$side}) if $report{$name}{$side} && -s $report{$name}{$side};
	}
}
sub both { my ($name) = @_; return $r{$name}{base} && $r{$name}{new} ? ($r{$name}{base}, $r{$name}{new}) : (); }

if (my ($b, $n) = both('shared_buffers'))
{
	my ($rb, $rn) = (per_tx($b, 'database', 'blks_read'), per_tx($n, 'database', 'blks_read'));
	ok($rn > 1 && $rn > 10 * $rb, sprintf('shared_buffers: blks_read per transaction %.3f -> %.3f', $rb, $rn));
}
if (my ($b, $n) = both('checkpoints'))
{
	my ($cb, $cn) = (scalar @{ $b->{server_stats}{checkpoints} }, scalar @{ $n->{server_stats}{checkpoints} });
	ok($cb == 0 && $cn >= 2, "checkpoints: checkpoints during the run $cb -> $cn");
	my ($fb, $fn) = (per_tx($b, 'wal', 'wal_fpi'), per_tx($n, 'wal', 'wal_fpi'));
	ok($fn > $fb, sprintf('checkpoints: wal_fpi per transaction %.3f -> %.3f', $fb, $fn));
}
if (my ($b, $n) = both('work_mem'))
{
	my ($tb, $tn) = (per_tx($b, 'database', 'temp_bytes'), per_tx($n, 'database', 'temp_bytes'));
	ok($tb == 0 && $tn > 100000, sprintf('work_mem: temp_bytes per transaction %.0f -> %.0f', $tb, $tn));
}
if (my ($b, $n) = both('synchronous_commit'))
{
	my @wal = ('IO:WALSync', 'IO:WALWrite', 'LWLock:WALWrite');
	my ($wb, $wn) = (sessions_in($b, @wal), sessions_in($n, @wal));
	ok($wn > $wb + 0.2, sprintf('synchronous_commit: sessions in WAL flush waits %.2f -> %.2f', $wb, $wn));
	ok($n->{tps} < $b->{tps}, sprintf('synchronous_commit: tps %.0f -> %.0f', $b->{tps}, $n->{tps}));
}
if (my ($b, $n) = both('hot_row'))
{
	my ($lb, $ln) = (sessions_in($b, 'Lock:transactionid'), sessions_in($n, 'Lock:transactionid'));
	ok($ln > $lb + 1, sprintf('hot_row: sessions in Lock:transactionid %.2f -> %.2f', $lb, $ln));
}
if (my ($b, $n) = both('network'))
{
	my $d = $n->{latency_ms}{average} - $b->{latency_ms}{average};
	ok(abs($d - $NET_INJECTED_MS) <= $NET_TOLERANCE * $NET_INJECTED_MS,
		sprintf('network: the latency average grew by %.3f ms (%s ms injected)', $d, $NET_INJECTED_MS));
	# the proxy's own account: never early, and not much late
	my ($avg) = ($proxy_stats{new} // '') =~ /delay_avg_ms ([\d.]+)/;
	ok(defined $avg && $avg >= $NET_DELAY_MS && $avg < $NET_DELAY_MS * 1.2,
		"network: each chunk held $NET_DELAY_MS ms: $proxy_stats{new}");
}
if (my ($b, $n) = both('major'))
{
	like($n->{server_version}, qr/^18\b/, "major: new side on 18 ($n->{server_version})");
}
if (my ($b, $n) = both('threads'))
{
	ok($n->{tps} < 0.8 * $b->{tps}, sprintf('threads: tps %.0f -> %.0f', $b->{tps}, $n->{tps}));
}

# ---- the diagnosis --------------------------------------------------------

# diagnosis($text) -> { ranked => [lines "  N. ..."], cause => the likely
# cause line's text, outside => [B, N] of the breakdown's outside line }
sub diagnosis
{
	my ($text) = @_;
	my %d = (ranked => [ $text =~ /^  \d+\. (.*)$/mg ]);
	($d{cause}) = $text =~ /^likely cause: (.*)$/m;
	my @o = $text =~ /^  outside the server \(network and client\)\s+(-?[\d.]+)\s*->\s*(-?[\d.]+)/m;
	$d{outside} = \@o if @o;
	return \%d;
}

for my $e (@EXPECT)
{
	my $name = $e->{name};
	SKIP:
	{
		skip("$name: no PostgreSQL 18 (scripts/pg-server 18), or the base is 18", 1)
		  if $name eq 'major' && !$bin18;
		skip("$name: loads the machine; DIAG_ALL=1 runs it", 1) if $name eq 'threads' && !$ENV{DIAG_ALL};
		skip("$name: a run failed", 1) unless both($name);
		my ($rc, $out, $err) = pgbench([ '--compare', $report{$name}{base}, $report{$name}{new} ]);
		write_file("$dir/compare_$name.txt", $out . $err);
		is($rc, 0, "$name: --compare exits 0") or diag($err);
		my $d = diagnosis($out);
		my $first = $d->{ranked}[0];
		if ($e->{first})
		{
			ok(defined $first && $first =~ $e->{first}, "$name: first evidence matches $e->{first}")
			  or diag("$name: the first ranked line: " . ($first // '(none)') . "\n--compare printed:\n$out");
		}
		ok(defined $d->{cause} && $d->{cause} =~ $e->{cause}, "$name: likely cause matches $e->{cause}")
		  or diag("$name: likely cause: " . ($d->{cause} // '(no such line)'));
		if ($name eq 'network')
		{
			my ($ob, $on) = @{ $d->{outside} || [] };
			ok(defined $on && abs(($on - $ob) - $NET_INJECTED_MS) <= $NET_TOLERANCE * $NET_INJECTED_MS,
				"network: outside the server grew by the injected $NET_INJECTED_MS ms a transaction")
			  or diag('network: outside the server (network and client): '
				  . (defined $on ? "$ob -> $on" : '(no such line)'));
		}
		if ($name eq 'major' && $base_version < 160000)
		{
			my @io = grep { /\bio\./ } @{ $d->{ranked} };
			ok(!@io, "major: no ranked line names an io. counter (the base, $base_version, has no pg_stat_io)")
			  or diag(join("\n", @io));
		}
	}
}
note(sprintf('the test took %d s', time - $t_start));

done_testing();
