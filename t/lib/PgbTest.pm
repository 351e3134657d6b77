# PgbTest.pm — helpers for pgbench's Perl TAP tests: run our binary or the
# system pgbench and capture stdout, stderr and the exit code; start and
# stop a real throwaway PostgreSQL cluster (initdb + pg_ctl from
# pg_config --bindir, unix socket in a temporary directory, random port).
#
# Tests run as root in CI and initdb refuses root, so when we are root the
# cluster runs as the unprivileged "postgres" user (created if missing).
package PgbTest;

use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
use IPC::Run ();
use Test::More;
use POSIX ();
use Time::HiRes ();
use File::Basename ();
use Socket ();

our @EXPORT = qw(pgbench system_pgbench run_cmd slurp write_file without_client_bound
  start_cluster our_pgbench_path system_pgbench_path mask_timings
  same_as_system timed_pgbench overhead_of late_bound poll_until
  start_proxy stop_proxy oracle19_path find_chromium run_accounted start_delay_proxy
  report_schema_errors);

# see _run_forked
our $FAST_SPAWN = 0;

# Chromium (or Chrome) on PATH, for the tests of the HTML page; undef when none.
sub find_chromium
{
	for my $name (qw(chromium chromium-browser google-chrome))
	{
		for my $d (split /:/, $ENV{PATH})
		{
			return "$d/$name" if -x "$d/$name";
		}
	}
	return undef;
}

sub our_pgbench_path
{
	return $ENV{PGBENCH} || die "PGBENCH is not set (run through meson test)\n";
}

# The real pgbench: first PG 15 as installed on our machines, else pg_config's.
sub system_pgbench_path
{
	return $ENV{SYSTEM_PGBENCH} if $ENV{SYSTEM_PGBENCH};
	for my $p ('/usr/lib/postgresql/15/bin/pgbench')
	{
		return $p if -x $p;
	}
	my $bindir = `pg_config --bindir 2>/dev/null`;
	chomp $bindir;
	return "$bindir/pgbench" if $bindir && -x "$bindir/pgbench";
	return undef;
}

# run_cmd([argv...], stdin => '...', env => {...}) -> (exit code, stdout, stderr)
sub run_cmd
{
	my ($argv, %o) = @_;
	my ($out, $err) = ('', '');
	my $in = defined $o{stdin} ? $o{stdin} : '';
	local %ENV = (%ENV, %{ $o{env} || {} });
	for my $k (keys %{ $o{env} || {} })
	{
		delete $ENV{$k} unless defined $o{env}{$k};
	}
	if ($FAST_SPAWN)
	{
		($out, $err) = _run_forked($argv, $in, $o{timeout} || 300);
		return ($? >> 8, $out, $err);
	}
	IPC::Run::run($argv, \$in, \$out, \$err, IPC::Run::timeout($o{timeout} || 300));
	return ($? >> 8, $out, $err);
}

# ---- spawning without IPC::Run ------------------------------------------------
#
# IPC::Run spends some 10 ms of CPU in Perl for every command it runs; a
# test that runs hundreds of short commands may set $PgbTest::FAST_SPAWN
# = 1, and run_cmd (and the cluster's psql) then fork and exec the
# command themselves: stdin from a file (or /dev/null), stdout and stderr
# into files read back afterwards, the same timeout (the command is
# killed, and the call dies as IPC::Run's would), the same $? and return
# values.  Not for commands run in the background (IPC::Run::start).
my $spool;

# _run_forked($argv, $stdin text, $timeout) -> (stdout, stderr); $? is
# the command's wait status.
sub _run_forked
{
	my ($argv, $in, $timeout) = @_;
	$spool //= tempdir('pgbspawn_XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my $stdin = ($in // '') eq '' ? '/dev/null' : write_file("$spool/in", $in);
	my $pid = fork() // die "cannot fork: $!";
	if ($pid == 0)
	{
		open(STDIN, '<', $stdin) && open(STDOUT, '>', "$spool/out") && open(STDERR, '>', "$spool/err")
		  or POSIX::_exit(126);
		{ no warnings 'exec'; exec { $argv->[0] } @$argv; }
		syswrite(STDERR, "PgbTest: cannot exec $argv->[0]: $!\n");
		POSIX::_exit(127);
	}
	my $ok = eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm $timeout;
		waitpid($pid, 0);
		alarm 0;
		1;
	};
	my $status = $?;
	if (!$ok)
	{
		kill 'KILL', $pid;
		waitpid($pid, 0);
		die "PgbTest: timeout after $timeout s: @$argv\n";
	}
	my ($out, $err) = (slurp("$spool/out"), slurp("$spool/err"));
	die $err if $status == 127 << 8 && $err =~ /\APgbTest: cannot exec /;
	$? = $status;
	return ($out, $err);
}

# The pgbench 19beta1 binary the compat tests compare with, or undef: $env
# (a test's own variable, if given), else $PGBENCH_ORACLE19 (set but empty:
# none, as on a user's machine), else the team's shared/ beside the source
# tree (../shared/oracle/...), else /work/shared.  A user's clone has none:
# those comparisons are skipped.
sub oracle19_path
{
	my ($env) = @_;
	my @try = grep { defined && $_ ne '' } ($env ? $ENV{$env} : undef);
	if (defined $ENV{PGBENCH_ORACLE19})
	{
		push @try, $ENV{PGBENCH_ORACLE19};
	}
	else
	{
		push @try, "$ENV{PGBENCH_SRC}/../shared/oracle/pgbench-19beta1/bin/pgbench" if $ENV{PGBENCH_SRC};
		push @try, '/work/shared/oracle/pgbench-19beta1/bin/pgbench';
	}
	for my $p (@try)
	{
		return $p if $p ne '' && -x $p;
	}
	return undef;
}

# The end of our --help: a blank line, "Report bugs to <ADDR>." (meson
# option bug_report, passed on by t/meson.build) or, when the build names
# none, a "Report bugs to ..." line saying in words where they go, then
# "NAME home page: <URL>" when the build names one (home_page).  IDENT is
# "pgbench-ng 0.1.0".
sub help_closing
{
	my ($ident) = @_;
	my ($bug, $home) = ($ENV{PGBENCH_BUG_REPORT} // '', $ENV{PGBENCH_HOME_PAGE} // '');
	my $name = $ident =~ s/ .*//r;
	my $s = $bug ne '' ? "Report bugs to <$bug>.\n"
	  : "Report bugs to the issue tracker of the repository $name was built from.\n";
	$s .= "$name home page: <$home>\n" if $home ne '';
	return "\n$s";
}

sub pgbench { my ($args, %o) = @_; return run_cmd([ our_pgbench_path(), @$args ], %o); }

sub system_pgbench
{
	my ($args, %o) = @_;
	return run_cmd([ system_pgbench_path(), @$args ], %o);
}

# ---- time on a loaded machine -----------------------------------------------
#
# A wall-clock bound such as "-T 2 ends within 4 s" breaks when the machine
# is busy: start-up, connections and the exit all slow down.  The helpers
# below measure what a trivial run of the same shape costs right now and
# bound a timed run relative to it, so that a slow machine stretches the
# bound and a fast one keeps it as tight as before.

# timed_pgbench($args, %o) -> (exit code, stdout, stderr, seconds)
sub timed_pgbench
{
	my ($args, %o) = @_;
	my $t0 = Time::HiRes::time();
	my @r = pgbench($args, %o);
	return (@r, Time::HiRes::time() - $t0);
}

# overhead_of($args, %o) -> seconds a trivial run with these arguments takes
# now (start-up, connecting, one transaction per client, report, exit); the
# arguments should give the same clients and threads as the timed run.
sub overhead_of
{
	my ($args, %o) = @_;
	my (undef, undef, undef, $s) = timed_pgbench($args, %o);
	return $s;
}

# late_bound($length, $old_slack, @overheads) -> the longest a run of
# $length seconds may take: the old fixed slack on an idle machine, or one
# second plus four times the worst overhead measured around the run when
# the machine is slower than that.
sub late_bound
{
	my ($length, $old_slack, @overheads) = @_;
	my $worst = 0;
	$worst = $_ > $worst ? $_ : $worst for @overheads;
	my $slack = 1 + 4 * $worst;
	$slack = $old_slack if $slack < $old_slack;
	return $length + $slack;
}

# poll_until($code, $timeout) -> the first true value $code returns, trying
# every 50 ms for up to $timeout seconds (default 60); undef on time-out.
# For "wait until the server shows X" instead of a fixed sleep.
sub poll_until
{
	my ($code, $timeout) = @_;
	my $deadline = Time::HiRes::time() + ($timeout || 60);
	for (;;)
	{
		my $v = $code->();
		return $v if $v;
		return undef if Time::HiRes::time() > $deadline;
		Time::HiRes::sleep(0.05);
	}
}

# run_accounted($name, $args, $run) -> what $run->() returns (exit code,
# stdout, ...), made again up to 5 times in all while a run of a duration
# (-T in @$args) exited 0 having accounted no transaction.  -T counts from before the
# connections, as pgbench's does: on a busy machine four clients of a
# -T 1 run may account none (both programs then print processed 0,
# failed 0 (NaN%) and stop), which says nothing of what a case compares.
sub run_accounted
{
	my ($name, $args, $run) = @_;
	my @r;
	for my $try (1 .. 5)
	{
		@r = $run->();
		return @r if !grep({ $_ eq '-T' } @$args) || ($r[0] // -1) != 0 || ($r[1] // '') =~ /^tps = /m;
		note("$name: run $try accounted no transaction, made again");
	}
	return @r;
}

# start_proxy(path => SOCKET, target => SOCKET, forward => N, backlog => N,
#   accept_pause => SECONDS) -> pid of a Unix-socket proxy listening on
# path (t/lib/sockproxy.pl says what it does).  The listening socket is
# made here, so it accepts before this returns; the proxy is a process of
# its own (fork, then exec), which cannot run this test's cleanup.
sub start_proxy
{
	my (%o) = @_;
	require IO::Socket::UNIX;
	require Fcntl;
	my $listen = IO::Socket::UNIX->new(Type => Socket::SOCK_STREAM(), Local => $o{path},
		Listen => $o{backlog} || 128) or die "cannot listen on $o{path}: $!";
	my $flags = fcntl($listen, Fcntl::F_GETFD(), 0) or die "fcntl: $!";
	fcntl($listen, Fcntl::F_SETFD(), $flags & ~Fcntl::FD_CLOEXEC()) or die "fcntl: $!";
	my $helper = File::Basename::dirname(__FILE__) . '/sockproxy.pl';
	my $pid = fork() // die "cannot fork: $!";
	if ($pid == 0)
	{
		{ no warnings 'exec'; exec($^X, $helper, fileno($listen), $o{target},
			$o{forward} || 0, $o{accept_pause} || 0); }
		POSIX::_exit(127);
	}
	close $listen;
	return $pid;
}

sub stop_proxy { my ($pid) = @_; kill 'KILL', $pid; waitpid($pid, 0); return; }

# start_delay_proxy(path => SOCKET, target => SOCKET, delay_ms => N,
#   stats => FILE) -> pid of a Unix-socket proxy listening on path that
# passes every connection on to target, each chunk held delay_ms each way
# (t/lib/delayproxy.pl says how).  The listening socket is made here, as
# start_proxy's.  stop_proxy kills it; SIGTERM (then waitpid) ends it
# writing its stats file: the chunks forwarded and the delay they had.
sub start_delay_proxy
{
	my (%o) = @_;
	require IO::Socket::UNIX;
	require Fcntl;
	my $listen = IO::Socket::UNIX->new(Type => Socket::SOCK_STREAM(), Local => $o{path},
		Listen => 128) or die "cannot listen on $o{path}: $!";
	my $flags = fcntl($listen, Fcntl::F_GETFD(), 0) or die "fcntl: $!";
	fcntl($listen, Fcntl::F_SETFD(), $flags & ~Fcntl::FD_CLOEXEC()) or die "fcntl: $!";
	my $helper = File::Basename::dirname(__FILE__) . '/delayproxy.pl';
	my $pid = fork() // die "cannot fork: $!";
	if ($pid == 0)
	{
		{ no warnings 'exec'; exec($^X, $helper, fileno($listen), $o{target}, $o{delay_ms} || 0,
			defined $o{stats} ? $o{stats} : ()); }
		POSIX::_exit(127);
	}
	close $listen;
	return $pid;
}

sub slurp
{
	my ($path) = @_;
	open my $fh, '<', $path or die "cannot read $path: $!";
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

sub write_file
{
	my ($path, $content) = @_;
	open my $fh, '>', $path or die "cannot write $path: $!";
	print $fh $content;
	close $fh;
	return $path;
}

# The violations of the --report-json document $doc (decoded by JSON::PP)
# against the schema (doc/report-json.schema.json as this build generates
# it, tools/report_format.c; the committed copy outside meson test), each
# "/path: what"; empty when it conforms.  unstarted => 1 checks it as the
# document of a run that never benchmarked ($defs/unstarted).  Our
# keywords mean the same in drafts 2019-09 and 2020-12, and Debian's
# JSON::Validator has the first.
my %report_schema;

sub report_schema_errors
{
	my ($doc, %o) = @_;
	require JSON::PP;
	require JSON::Validator::Schema::Draft201909;
	my $path = $ENV{PGBENCH_REPORT_SCHEMA} || ($ENV{PGBENCH_SRC} || '.') . '/doc/report-json.schema.json';
	my $which = $o{unstarted} ? 'unstarted' : 'run';
	$report_schema{$which} //= do
	{
		my $schema = JSON::PP::decode_json(slurp($path));
		delete $schema->{'$schema'};	# no fetch of the meta-schema
		$schema = { '$defs' => $schema->{'$defs'}, '$ref' => '#/$defs/unstarted' } if $o{unstarted};
		JSON::Validator::Schema::Draft201909->new($schema);
	};
	return map { "$_" } $report_schema{$which}->validate($doc);
}

# stderr without our client-bound warning (doc/report.md), which any run
# on a loaded machine may print: a worker thread busy over 90% of the run
sub without_client_bound
{
	my ($s) = @_;
	$s =~ s/^pgbench: warning: the client may have limited the result: .*\n//mg;
	return $s;
}

# Mask what varies between runs of a report: the version banner, times,
# tps, connection averages, per-command latencies, and our client-bound
# warning.
sub mask_timings
{
	my ($s) = @_;
	$s =~ s/^pgbench \(.*\)$/pgbench (VERSION)/mg;
	# ours alone, after the report, when a worker thread was busy over 90%
	# of the run (doc/report.md): a loaded machine can make any run so
	$s =~ s/^pgbench: warning: the client may have limited the result: .*\n//mg;
	$s =~ s/= -?[\d.]+ ms/= X ms/g;
	$s =~ s/tps = [\d.]+/tps = X/g;
	$s =~ s/(avg|max) [\d.]+/$1 X/g;
	# -r's latency column is right-aligned in a fixed width: a latency of
	# 10 ms or more (a busy machine) has one blank less before it, so the
	# mask keeps the width, as if every figure were d.ddd
	$s =~ s/^( +)(\d+\.\d{3})( +\d+)/(' ' x (length($1) + length($2) - 5)) . "X$3"/mge;
	return $s;
}

# Run the same arguments through the system pgbench and ours; three checks:
# exit code, masked stdout, masked stderr.
sub same_as_system
{
	my ($args, %o) = @_;
	my $name = "same as system pgbench: @$args";
	my @theirs = run_accounted("$name (system)", $args, sub { system_pgbench($args, %o) });
	my @ours = run_accounted($name, $args, sub { pgbench($args, %o) });
	is($ours[0], $theirs[0], "$name: exit code");
	is(mask_timings($ours[1]), mask_timings($theirs[1]), "$name: stdout");
	is(mask_timings($ours[2]), mask_timings($theirs[2]), "$name: stderr");
	return;
}

# ---- the cluster ----------------------------------------------------------

package PgbTest::Cluster;

use Fcntl qw(:flock);
use File::Basename ();
use File::Spec ();
use File::Temp qw(tempdir);

# The server under test: $PGBTEST_SERVER names a bin directory holding
# initdb, pg_ctl and postgres, or a major (13 to 18), either resolved by
# scripts/pg-server (the distribution's server of that major, else a build
# it installs once into its cache); unset, the distribution's server
# (pg_config --bindir).  The client side, psql and libpq, is always the
# distribution's.
my %server_cache;

sub _server_bindir
{
	my $want = $ENV{PGBTEST_SERVER} // '';
	return $server_cache{$want} if $server_cache{$want};
	my $dir;
	if ($want eq '')
	{
		$dir = _client_bindir();
		-x "$dir/initdb" or die "no initdb in $dir (set PGBTEST_SERVER)\n";
	}
	else
	{
		# tests running side by side take turns to install it
		my $script = File::Spec->rel2abs(File::Basename::dirname(__FILE__) . '/../../scripts/pg-server');
		open my $lock, '>', File::Spec->tmpdir() . "/pgbtest_server_uid$>.lock" or die "lock: $!";
		flock($lock, LOCK_EX) or die "cannot lock: $!";
		$dir = `bash "$script" "$want"`;
		my $failed = $?;
		close $lock;
		chomp $dir;
		die "PGBTEST_SERVER=$want: scripts/pg-server could not find or install it\n" if $failed || !$dir;
	}
	return $server_cache{$want} = $dir;
}

# The distribution's client programs (psql): pg_config's bin directory, else
# the newest /usr/lib/postgresql/N/bin that has psql.
sub _client_bindir
{
	my $b = `pg_config --bindir 2>/dev/null`;
	chomp $b;
	return $b if $b && -x "$b/psql";
	for my $v (reverse 10 .. 30)
	{
		return "/usr/lib/postgresql/$v/bin" if -x "/usr/lib/postgresql/$v/bin/psql";
	}
	die "no psql found\n";
}

sub _as_user
{
	my ($self, @cmd) = @_;
	@cmd = ('runuser', '-u', $self->{run_as}, '--', @cmd) if $self->{run_as};
	# netns => NAME: the server runs in that network namespace (its Unix
	# socket stays reachable from everywhere)
	@cmd = ('ip', 'netns', 'exec', $self->{netns}, @cmd) if $self->{netns};
	return @cmd;
}

sub _sys
{
	my ($self, @cmd) = @_;
	my @full = $self->_as_user(@cmd);
	my ($out, $err) = ('', '');
	IPC::Run::run(\@full, '<', \undef, '>', \$out, '2>', \$err);
	die "command failed: @full\n$out$err" if $?;
	return $out;
}

sub _initdb
{
	my ($self, $data) = @_;
	$self->_sys("$self->{bindir}/initdb", '-D', $data, '-A', 'trust',
		'-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C');
}

# A pristine initdb output, made once per machine, PostgreSQL version and
# user and copied for every cluster: initdb costs seconds of CPU (ten on a
# busy machine), a copy a fraction of that.  Tests running side by side
# take a lock so that one of them makes it.  PGBTEST_NO_TEMPLATE=1 runs
# initdb for every cluster instead.
sub _template
{
	my ($self) = @_;
	my $version = `"$self->{bindir}/initdb" --version`;
	$version =~ s/[^\w.]+/_/g;
	my $dir = File::Spec->tmpdir() . "/pgbtest_template_${version}uid$>";
	return $dir if -e "$dir/ready";
	open my $lock, '>', "$dir.lock" or die "cannot open $dir.lock: $!";
	flock($lock, LOCK_EX) or die "cannot lock $dir.lock: $!";
	if (!-e "$dir/ready")
	{
		system('rm', '-rf', $dir);
		mkdir $dir or die "cannot create $dir: $!";
		chmod 0755, $dir;
		if ($self->{run_as})
		{
			my ($uid, $gid) = (getpwnam($self->{run_as}))[ 2, 3 ];
			chown $uid, $gid, $dir;
		}
		$self->_initdb("$dir/data");
		open my $ok, '>', "$dir/ready" or die "cannot create $dir/ready: $!";
		close $ok;
	}
	close $lock;
	return $dir;
}

# A cluster's temporary directory (returned), with its data and socket
# directories' names and a random port set in $self.
sub _make_dirs
{
	my ($self) = @_;
	my $base = tempdir('pgbtest_XXXXXX', TMPDIR => 1, CLEANUP => 0);
	chmod 0755, $base;
	$self->{base} = $base;
	$self->{data} = "$base/data";
	$self->{sock} = "$base/sock";
	mkdir $self->{sock} or die;
	$self->{port} = 20000 + int(rand(30000));
	return $base;
}

# start_cluster(max_connections => N, settings => "extra conf lines",
#   hba => "pg_hba lines", netns => "network namespace to run the server in")
sub new
{
	my ($class, %o) = @_;
	# owner: the process that started it, the only one that stops it (a
	# forked helper that exits through Perl's normal path must not)
	my $self = bless { bindir => _server_bindir(), clientdir => _client_bindir(),
		netns => $o{netns}, owner => $$ }, $class;
	my $base = $self->_make_dirs;

	if ($> == 0)
	{
		my $user = 'postgres';
		if (!getpwnam($user))
		{
			# a test running alongside may have created it meanwhile
			system('useradd', '--system', '--no-create-home', $user) == 0
			  or getpwnam($user)
			  or die "cannot create user $user\n";
		}
		$self->{run_as} = $user;
		my ($uid, $gid) = (getpwnam($user))[ 2, 3 ];
		chown $uid, $gid, $base, $self->{sock};
	}

	if ($ENV{PGBTEST_NO_TEMPLATE})
	{
		$self->_initdb($self->{data});
	}
	else
	{
		# cp -a keeps the owner (postgres when we are root) and the modes
		my $template = $self->_template;
		system('cp', '-a', "$template/data", $self->{data}) == 0
		  or die "cannot copy the template cluster $template/data\n";
	}

	my $maxconn = $o{max_connections} || 100;
	my $conf = "listen_addresses = ''\n"
	  . "unix_socket_directories = '$self->{sock}'\n"
	  . "port = $self->{port}\n"
	  . "max_connections = $maxconn\n"
	  . "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
	  . "shared_buffers = 128MB\n"
	  . "log_min_messages = warning\n"
	  . ($o{settings} || '');
	my $confpath = "$self->{data}/postgresql.conf";
	open my $fh, '>>', $confpath or die "cannot append to $confpath: $!";
	print $fh $conf;
	close $fh;
	# hba => "host all all 10.77.0.0/16 trust\n": lines added to pg_hba.conf
	# (with settings => "listen_addresses = '...'\n" a test reaches the
	# server over TCP, e.g. from network namespaces)
	if ($o{hba})
	{
		my $hbapath = "$self->{data}/pg_hba.conf";
		open my $hh, '>>', $hbapath or die "cannot append to $hbapath: $!";
		print $hh $o{hba};
		close $hh;
	}

	$self->_sys("$self->{bindir}/pg_ctl", '-D', $self->{data}, '-l',
		"$base/server.log", '-w', '-t', '120', 'start');
	$self->{running} = 1;
	return $self;
}

# ---- a standby -----------------------------------------------------------

# standby_of($primary) -> a second cluster, a streaming replica of
# $primary (a running cluster of this package), made without
# pg_basebackup (the server builds of scripts/pg-server have none): a
# non-exclusive online backup through the primary's query session
# (pg_backup_start / pg_start_backup), a copy of its data directory, the
# backup label written into the copy; then standby.signal, primary_conninfo
# to the primary's socket (initdb's pg_hba.conf lets local replication in;
# wal_level replica and max_wal_senders are the defaults), its own port and
# socket directory.  Started, read-only until promoted.
sub standby_of
{
	my ($class, $primary) = @_;
	my $self = bless { bindir => $primary->{bindir}, clientdir => $primary->{clientdir},
		run_as => $primary->{run_as}, owner => $$ }, $class;
	my $base = $self->_make_dirs;
	$self->{port} = 20000 + int(rand(30000)) while $self->{port} == $primary->{port};
	my $new_api = $primary->version_num >= 150000;
	$primary->query($new_api ? "select pg_backup_start('pgbtest', true)"
		: "select pg_start_backup('pgbtest', true, false)");
	system('cp', '-a', $primary->{data}, $self->{data}) == 0
	  or die "cannot copy $primary->{data}\n";
	my $label = $primary->query($new_api ? 'select labelfile from pg_backup_stop(false)'
		: 'select labelfile from pg_stop_backup(false, false)');
	unlink "$self->{data}/postmaster.pid", "$self->{data}/postmaster.opts";
	PgbTest::write_file("$self->{data}/backup_label", "$label\n");
	PgbTest::write_file("$self->{data}/standby.signal", '');
	# the copied postgresql.conf names the primary's port and socket: the
	# last setting of a name wins
	my $confpath = "$self->{data}/postgresql.conf";
	open my $fh, '>>', $confpath or die "cannot append to $confpath: $!";
	print $fh "unix_socket_directories = '$self->{sock}'\nport = $self->{port}\n"
	  . "primary_conninfo = 'host=$primary->{sock} port=$primary->{port} user=postgres'\n";
	close $fh;
	if ($self->{run_as})
	{
		my ($uid, $gid) = (getpwnam($self->{run_as}))[ 2, 3 ];
		chown $uid, $gid, $base, $self->{sock}, map { "$self->{data}/$_" } qw(backup_label standby.signal);
	}
	$self->_sys("$self->{bindir}/pg_ctl", '-D', $self->{data}, '-l',
		"$base/server.log", '-w', '-t', '120', 'start');
	$self->{running} = 1;
	return $self;
}

# restart: the server stopped (fast) and started again, so that a
# setting only read at start (shared_buffers) takes effect; the psql
# sessions of query() are closed first (new ones open on demand)
sub restart
{
	my ($self) = @_;
	for my $s (values %{ $self->{sessions} || {} })
	{
		$s->{in} .= "\\q\n";
		eval { $s->{h}->finish; };
	}
	$self->{sessions} = {};
	$self->_sys("$self->{bindir}/pg_ctl", '-D', $self->{data}, '-l',
		"$self->{base}/server.log", '-w', '-t', '120', '-m', 'fast', 'restart');
	return;
}

sub host { $_[0]{sock} }
sub psql_path { "$_[0]{clientdir}/psql" }

# version_num -> the server's version as a number, 180004 for 18.4
sub version_num
{
	my ($self) = @_;
	return $self->{version_num} //= $self->query('show server_version_num');
}
sub port { $_[0]{port} }

# Environment for a client of this cluster.
sub env
{
	my ($self) = @_;
	return {
		PGHOST => $self->{sock},
		PGPORT => $self->{port},
		PGUSER => 'postgres',
		PGDATABASE => 'postgres',
	};
}

# psql($sql) -> trimmed output of psql -XAtq
sub psql
{
	my ($self, $sql, %o) = @_;
	my @cmd = ($self->psql_path, '-XAtq', '-v', 'ON_ERROR_STOP=1',
		'-h', $self->{sock}, '-p', $self->{port}, '-U', 'postgres',
		'-d', $o{dbname} || 'postgres', '-c', $sql);
	# run_cmd leaves $? as the command's wait status (FAST_SPAWN or not)
	my (undef, $out, $err) = PgbTest::run_cmd(\@cmd);
	die "psql failed: $sql\n$err" if $? && !$o{allow_fail};
	chomp $out;
	return $out;
}

# query($sql, dbname => 'x', allow_fail => 1) -> as psql($sql, ...), through
# one psql session per database kept open across calls: a psql process and
# a server connection cost some 80 ms of CPU, a statement sent to an open
# session a millisecond.  For statements that leave no state behind in the
# session (no SET, no open transaction, no temporary table); a statement
# that fails dies, unless allow_fail.
sub query
{
	my ($self, $sql, %o) = @_;
	my $db = $o{dbname} || 'postgres';
	my $s = $self->{sessions}{$db} ||= $self->_session($db);
	my $mark = 'PGBTEST_DONE_' . ++$s->{n};
	$sql =~ s/[\s;]+\z//;
	($s->{out}, $s->{err}) = ('', '');
	$s->{in} .= "$sql\n;\n\\echo $mark\n\\warn $mark\n";
	$s->{timer}->start(300);
	until ($s->{out} =~ /^\Q$mark\E\n\z/m && $s->{err} =~ /^\Q$mark\E\n\z/m)
	{
		die "psql session of $db ended: $sql\n$s->{err}" unless $s->{h}->pumpable;
		$s->{h}->pump;
	}
	my ($out, $err) = ($s->{out}, $s->{err});
	$out =~ s/^\Q$mark\E\n\z//m;
	$err =~ s/^\Q$mark\E\n\z//m;
	die "psql failed: $sql\n$err" if $err =~ /^(?:psql:[^\n]*: )?(?:ERROR|FATAL|PANIC):/m && !$o{allow_fail};
	chomp $out;
	return $out;
}

sub _session
{
	my ($self, $db) = @_;
	my $s = { in => '', out => '', err => '', n => 0, timer => IPC::Run::timeout(300) };
	my @cmd = ($self->psql_path, '-XAtq', '-h', $self->{sock}, '-p', $self->{port},
		'-U', 'postgres', '-d', $db);
	$s->{h} = IPC::Run::start(\@cmd, '<', \$s->{in}, '>', \$s->{out}, '2>', \$s->{err}, $s->{timer});
	return $s;
}

sub stop
{
	my ($self) = @_;
	return if $$ != $self->{owner};
	for my $s (values %{ $self->{sessions} || {} })
	{
		$s->{in} .= "\\q\n";
		eval { $s->{h}->finish; };
	}
	$self->{sessions} = {};
	return unless $self->{running};
	$self->{running} = 0;
	eval {
		$self->_sys("$self->{bindir}/pg_ctl", '-D', $self->{data}, '-m',
			'immediate', '-w', 'stop');
	};
	system('rm', '-rf', $self->{base}) unless $ENV{PGBTEST_KEEP};
}

sub DESTROY { $_[0]->stop }

package PgbTest;

sub start_cluster { return PgbTest::Cluster->new(@_); }

1;
