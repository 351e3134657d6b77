# setup_scripts.pl — the README's first command as a newcomer runs it:
# scripts/demo.sh says what it does at each step, runs a real benchmark on
# a throwaway cluster, writes its JSON and HTML reports and ends with what
# to try next; scripts/deps.sh waits for another apt/dpkg that holds the
# package manager's locks (the real locks, held here by a child process)
# instead of failing, and gives up with a message after DEPS_LOCK_WAIT.
use strict;
use warnings;
use File::Basename qw(dirname);
use Fcntl;
use IPC::Run ();
use JSON::PP;
use POSIX qw(WNOHANG);
use Time::HiRes qw(time);
use Test::More;
use PgbTest;

my $src = $ENV{PGBENCH_SRC} || die "PGBENCH_SRC is not set (run through meson test)\n";
my $build = dirname(our_pgbench_path());

# --- deps.sh and the package manager's lock ---------------------------------

# A process that holds dpkg's frontend lock (an fcntl write lock, as apt
# takes it) for SECONDS, then exits: exec'ed, so that it shares nothing
# with this test (no END blocks, no cleanup).
sub hold_lock
{
	my ($seconds) = @_;
	my $code = 'use Fcntl; open(my $fh, "+<", "/var/lib/dpkg/lock-frontend") or die "open: $!";'
	  . 'my $fl = pack("s s x4 q q i x4", F_WRLCK, 0, 0, 0, 0); fcntl($fh, F_SETLKW, $fl) or die "lock: $!";'
	  . 'print STDOUT "locked\n"; close STDOUT; sleep ' . $seconds . ';';
	pipe(my $r, my $w) or die "pipe: $!";
	my $pid = fork // die "fork: $!";
	if ($pid == 0)
	{
		close $r;
		open STDOUT, '>&', $w or POSIX::_exit(1);
		exec 'perl', '-e', $code or POSIX::_exit(1);
	}
	close $w;
	my $line = <$r> // '';
	close $r;
	die "the lock holder did not take the lock\n" unless $line eq "locked\n";
	return $pid;
}

SKIP:
{
	skip 'deps.sh lock waits: not root (the locks are root\'s)', 7
	  unless $> == 0 && -e '/var/lib/dpkg/lock-frontend';

	# The holder lets go only once deps.sh has said who holds the lock (a
	# fixed hold raced deps.sh's start on a loaded machine, the ASan suite).
	my $holder = hold_lock(120);
	my ($out, $err) = ('', '');
	my $t0 = time;
	my $h = IPC::Run::start([ 'bash', "$src/scripts/deps.sh", '--wait-lock' ],
		'<', \undef, '>', \$out, '2>', \$err, IPC::Run::timeout(180));
	PgbTest::poll_until(sub { $h->pump_nb; $out =~ /\n/ }, 120);
	sleep 1;
	ok($h->pumpable, 'deps.sh still waits while the lock is held');
	kill 'TERM', $holder;
	waitpid($holder, 0);
	$h->finish;
	my $rc = $? >> 8;
	my $waited = time - $t0;
	is($rc, 0, 'deps.sh waits for the lock: exit 0');
	like($out, qr{^deps\.sh: waiting for the package manager: /var/lib/dpkg/lock-frontend is held by process $holder \(perl -e .*\); 0 s so far, up to 600 s$}m,
		'deps.sh says what it waits for and who holds the lock');
	cmp_ok($waited, '>=', 1, 'deps.sh returned only after the holder let go');

	$holder = hold_lock(60);
	($rc, $out, $err) = run_cmd([ 'bash', "$src/scripts/deps.sh", '--wait-lock' ],
		env => { DEPS_LOCK_WAIT => '1' });
	kill 'TERM', $holder;
	waitpid($holder, 0);
	is($rc, 1, 'DEPS_LOCK_WAIT=1 and a lock held longer: exit 1');
	is($err, "deps.sh: the package manager is still busy after 1 s; try again later (DEPS_LOCK_WAIT=SECONDS waits longer)\n",
		'the giving-up message says how to wait longer');
	like($out, qr/^deps\.sh: waiting for the package manager: .*up to 1 s$/m, 'it said it waited');
}

# --- demo.sh ------------------------------------------------------------------

unlink "$build/demo-report.json", "$build/demo-report.html";
my ($rc, $out, $err) = run_cmd([ 'bash', "$src/scripts/demo.sh" ],
	env => { BUILD_DIR => $build, DEMO_TIME => '3' });
is($rc, 0, 'demo.sh: exit 0') or diag($err);
my @steps = $out =~ /^demo: (\S+)/mg;
my $at = 0;
for my $w (qw(checking building starting server creating running done. Try stopping))
{
	$at++ while $at < @steps && $steps[$at] ne $w;
	ok($at < @steps, "demo.sh says \"$w ...\" in its turn");
}
like($err, qr/^starting vacuum\.\.\.end\.\n/m, 'demo.sh ran the benchmark');
like($err, qr/^progress: [\d.]+ s, [\d.]+ tps/m, 'with progress lines');
like($out, qr/^tps = \d+\.\d+ \(without initial connection time\)$/m, 'and printed the report');
like($out, qr{^demo: starting a throwaway PostgreSQL \d+\.\d+ cluster in }m, 'it names the server version');
like($out, qr{^demo:   \Q$build\E/demo-report\.json +the whole report as JSON}m, 'it names the JSON report');
like($out, qr{^demo:   \Q$build\E/demo-report\.html +a self-contained page}m, 'and the HTML page');
like($out, qr{^demo:   \S+ --merge-reports}m, 'and what to try next');
my $doc = eval { decode_json(slurp("$build/demo-report.json")) };
is($doc && $doc->{outcome}, 'completed', 'the JSON report it wrote parses, outcome completed');
like(slurp("$build/demo-report.html"), qr{</html>\s*\z}, 'the HTML page it wrote is whole');
my ($dir) = $out =~ m{^demo: stopping the cluster and removing (\S+)$}m;
ok(defined $dir && !-e $dir, 'the throwaway cluster is gone');
unlike($err, qr/debconf|warning/i, 'no warnings on stderr');

done_testing();
