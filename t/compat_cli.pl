# compat_cli.pl — the command line in compatibility modes 17, 18 and 19:
# --help, -d/--dbname and --debug (17), the -I step list and the
# "-c/--clients" messages (17), --continue-on-error (19; by its full name
# only before 19).  Mode 19 runs each row twice, with PGBENCH_COMPAT=19
# and with --compat=19, and compares stdout, stderr and the exit code byte
# for byte with PostgreSQL 19beta1's pgbench (when installed); every row
# also stores its expected output.  Modes 17 and 18 have no reference
# binary: their rows are stored expectations.  Mode 16 is t/cli.pl's.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use PgbTest;

# hundreds of short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $ours = our_pgbench_path();
my $oracle = oracle19_path('PGBENCH_19_ORACLE');
$oracle = undef unless $oracle && -x $oracle;

my $dir = tempdir('pgbcompatcli_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
write_file('s.sql', "SELECT 1;\n");

my $hint = qq{pgbench: hint: Try "pgbench --help" for more information.\n};
sub err { return join '', map { "pgbench: error: $_\n" } @_; }
sub getopt_err { return "pgbench: $_[0]\n$hint"; }

# --help of PostgreSQL 17 and 18's pgbench, then our section.
my $help_17 = <<'HELP';
pgbench is a benchmarking tool for PostgreSQL.

Usage:
  pgbench [OPTION]... [DBNAME]

Initialization options:
  -i, --initialize         invokes initialization mode
  -I, --init-steps=[dtgGvpf]+ (default "dtgvp")
                           run selected initialization steps, in the specified order
                           d: drop any existing pgbench tables
                           t: create the tables used by the standard pgbench scenario
                           g: generate data, client-side
                           G: generate data, server-side
                           v: invoke VACUUM on the standard tables
                           p: create primary key indexes on the standard tables
                           f: create foreign keys between the standard tables
  -F, --fillfactor=NUM     set fill factor
  -n, --no-vacuum          do not run VACUUM during initialization
  -q, --quiet              quiet logging (one message each 5 seconds)
  -s, --scale=NUM          scaling factor
  --foreign-keys           create foreign key constraints between tables
  --index-tablespace=TABLESPACE
                           create indexes in the specified tablespace
  --partition-method=(range|hash)
                           partition pgbench_accounts with this method (default: range)
  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)
  --tablespace=TABLESPACE  create tables in the specified tablespace
  --unlogged-tables        create tables as unlogged tables

Options to select what to run:
  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)
                           (use "-b list" to list available scripts)
  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)
  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches
                           (same as "-b simple-update")
  -S, --select-only        perform SELECT-only transactions
                           (same as "-b select-only")

Benchmarking options:
  -c, --client=NUM         number of concurrent database clients (default: 1)
  -C, --connect            establish new connection for each transaction
  -D, --define=VARNAME=VALUE
                           define variable for use by custom script
  -j, --jobs=NUM           number of threads (default: 1)
  -l, --log                write transaction times to log file
  -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late
  -M, --protocol=simple|extended|prepared
                           protocol for submitting queries (default: simple)
  -n, --no-vacuum          do not run VACUUM before tests
  -P, --progress=NUM       show thread progress report every NUM seconds
  -r, --report-per-command report latencies, failures, and retries per command
  -R, --rate=NUM           target rate in transactions per second
  -s, --scale=NUM          report this scale factor in output
  -t, --transactions=NUM   number of transactions each client runs (default: 10)
  -T, --time=NUM           duration of benchmark test in seconds
  -v, --vacuum-all         vacuum all four standard tables before tests
  --aggregate-interval=NUM aggregate data over NUM seconds
  --exit-on-abort          exit when any client is aborted
  --failures-detailed      report the failures grouped by basic types
  --log-prefix=PREFIX      prefix for transaction time log file
                           (default: "pgbench_log")
  --max-tries=NUM          max number of tries to run transaction (default: 1)
  --progress-timestamp     use Unix epoch timestamps for progress
  --random-seed=SEED       set random seed ("time", "rand", integer)
  --sampling-rate=NUM      fraction of transactions to log (e.g., 0.01 for 1%)
  --show-script=NAME       show builtin script code, then exit
  --verbose-errors         print messages of all errors

Common options:
  --debug                  print debugging output
  -d, --dbname=DBNAME      database name to connect to
  -h, --host=HOSTNAME      database server host or socket directory
  -p, --port=PORT          database server port number
  -U, --username=USERNAME  connect as specified database user
  -V, --version            output version information, then exit
  -?, --help               show this help, then exit

Options of this pgbench (not in PostgreSQL's):
  --percentiles[=LIST]     latency percentiles to report (default: 50,90,99,99.9)
  --report-json=FILE       also write the final report as JSON to FILE
  --report-html=FILE       also write the final report as an HTML page to FILE
  --warmup=SECONDS         run SECONDS before -T's time, out of every figure
  --server-stats=on|off    record the server's side with a report file (default: on)
  --server-sample-interval=MS
                           sample wait events every MS ms (default: 100)
  --metrics-listen=ADDR:PORT
                           serve live metrics (Prometheus format) on ADDR:PORT
  --rendezvous=NAME:N      start together with the other N-1 instances of group NAME
  --rendezvous-timeout=SECONDS
                           give up the rendezvous after SECONDS (default: 60)
  --reconnect              reconnect a lost connection instead of aborting the client
  --merge-reports          merge the JSON reports given as arguments
  --merge-partial          with --merge-reports, merge an incomplete rendezvous group
  --stages=LIST            change the clients (or the rate) over the run, e.g. 30s:10,60s:50
  --sweep=NAME:LIST        run a step per value of NAME (clients, jobs, rate, a -D variable)
  --sweep-slo=LATENCY      a sweep's knee: the last step with latency p99 within LATENCY
  --sweep-stop-on=slo|knee end a sweep after its knee (slo: beyond --sweep-slo)
  --label=KEY=VALUE        name the run in its report files (repeatable)
  --threshold=EXPR         fail (exit status 3) unless EXPR holds, e.g. tps>=1500
  --list-reports           list the JSON reports in the directories given as arguments
  --compare                compare the JSON reports given as arguments (BASE NEW...)
  --compare-per-instance   --compare a merged report's tps per instance
  --compat=MAJOR           behave as the pgbench of PostgreSQL MAJOR (16-19)

HELP

# Our closing lines name this project (meson's values, through t/meson.build).
my $ident = $ENV{PGBENCH_IDENT} // '';
my $pg_closing = "Report bugs to <pgsql-bugs\@lists.postgresql.org>.\n"
  . "PostgreSQL home page: <https://www.postgresql.org/>\n";
my $closing = PgbTest::help_closing($ident);
$help_17 =~ s/\n\z//;
$help_17 .= $closing;

# 19 adds one line, after --aggregate-interval.
(my $help_19 = $help_17) =~ s/^(  --aggregate-interval=NUM .*\n)/$1  --continue-on-error      continue running after an SQL error\n/m;

# What of --help and -V is compared with PostgreSQL's: our section is not
# in its --help, and its closing lines name PostgreSQL; of -V only the
# major after "(PostgreSQL) ", what scripts parse ("19beta1" there,
# "19 (pgbench-ng 0.1.0)" here).  Applied to both programs' output.
sub comparable
{
	my ($help) = @_;
	$help =~ s/\nOptions of this pgbench \(not in PostgreSQL's\):\n(?:  .*\n)+//;
	# (a --help: ours ends with the closing the build gives, perhaps none)
	$help .= "\n$pg_closing"
	  if $help =~ /^Usage:/m && $help =~ s/\Q$closing\E\z// && $help !~ /\Q$pg_closing\E\z/;
	$help =~ s/^(pgbench \(PostgreSQL\) \d+)\D.*$/$1/;
	return $help;
}

my $seed_then_t0 = "pgbench: setting random seed to 3\n" . err('-T/--time must be in range 1..2147483647');

# Rows: name, args, optional env, first (args go first: --help), rc, err,
# out, modes (default: 17, 18 and 19); a row may give per-mode texts as
# err_<mode> / out_<mode> / rc_<mode>.
my @rows = (
	{ name => '--help', args => ['--help'], first => 1, rc => 0, err => '',
	  out_17 => $help_17, out_18 => $help_17, out_19 => $help_19 },
	{ name => '-?', args => ['-?', 'x'], first => 1, rc => 0, err => '',
	  out_17 => $help_17, out_18 => $help_17, out_19 => $help_19 },
	{ name => '-V', args => ['-V'], first => 1, rc => 0, err => '',
	  map { ("out_$_" => "pgbench (PostgreSQL) $_ ($ident)\n") } 17, 18, 19 },
	{ name => '--version', args => ['--version', 'x'], first => 1, rc => 0, err => '',
	  map { ("out_$_" => "pgbench (PostgreSQL) $_ ($ident)\n") } 17, 18, 19 },

	# -d/--dbname and --debug
	{ name => '-d without its argument', args => ['-d'], rc => 1,
	  err => getopt_err("option requires an argument -- 'd'") },
	{ name => '--dbname without its argument', args => ['--dbname'], rc => 1,
	  err => getopt_err("option '--dbname' requires an argument") },
	{ name => '--db abbreviates --dbname', args => ['--db'], rc => 1,
	  err => getopt_err("option '--dbname' requires an argument") },
	{ name => '-d, then DBNAME is one too many', args => ['-d', 'x', 'y'], rc => 1,
	  err => err('too many command-line arguments (first is "y")') . $hint },
	{ name => 'DBNAME before -d is one too many', args => ['y', '-d', 'x'], rc => 1,
	  err => err('too many command-line arguments (first is "y")') . $hint },
	{ name => '--dbname=x and DBNAME', args => ['--dbname=x', 'y'], rc => 1,
	  err => err('too many command-line arguments (first is "y")') . $hint },
	{ name => 'an empty -d still names the database', args => ['-d', '', 'y'], rc => 1,
	  err => err('too many command-line arguments (first is "y")') . $hint },
	{ name => '-dNAME', args => ['-dx', 'y', '-i'], rc => 1,
	  err => err('too many command-line arguments (first is "y")') . $hint },
	{ name => '-d takes the next word', args => ['-d', '--random-seed= 5', '-T', '0'],
	  env => { PGBENCH_RANDOM_SEED => '3' }, rc => 1, err => $seed_then_t0 },
	{ name => '-d is not debug', args => ['-d', 'x', '-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--clients') },
	{ name => '--debug takes no argument', args => ['--debug=1'], rc => 1,
	  err => getopt_err("option '--debug' doesn't allow an argument") },
	{ name => '--d is ambiguous', args => ['--d'], rc => 1,
	  err => getopt_err("option '--d' is ambiguous; possibilities: '--dbname' '--define' '--debug'") },
	{ name => '--de is ambiguous', args => ['--de'], rc => 1,
	  err => getopt_err("option '--de' is ambiguous; possibilities: '--define' '--debug'") },
	{ name => '--deb abbreviates --debug', args => ['--deb', '-i', '-c', '2'], rc => 1,
	  err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => '--debug in -i mode', args => ['--debug', '-i', '-I', 'x'], rc => 1,
	  err => err('unrecognized initialization step "x"')
		. qq{pgbench: detail: Allowed step characters are: "dtgGvpf".\n} },

	# -c's messages
	{ name => '-c not a number', args => ['-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--clients') },
	{ name => '-c zero', args => ['-c', '0'], rc => 1,
	  err => err('-c/--clients must be in range 1..2147483647') },
	{ name => '--client hex', args => ['--client=0x10'], rc => 1,
	  err => err('invalid value "0x10" for option -c/--clients') },

	# --continue-on-error: a pgbench option in 19, full name only before
	{ name => '--continue-on-error accepted', args => ['--continue-on-error', '-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--clients') },
	{ name => '--continue-on-error is a benchmarking option', args => ['-i', '--continue-on-error'],
	  rc => 1, err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => '--continue-on-error takes no argument', args => ['--continue-on-error=1'], rc => 1,
	  err => getopt_err("option '--continue-on-error' doesn't allow an argument") },
	{ name => '--c', args => ['--c'], rc => 1,
	  err_19 => getopt_err("option '--c' is ambiguous; possibilities: '--client' '--connect' '--continue-on-error'"),
	  err => getopt_err("option '--c' is ambiguous; possibilities: '--client' '--connect'") },
	{ name => '--co', args => ['--co', '-c', 'x'], rc => 1,
	  err_19 => getopt_err("option '--co' is ambiguous; possibilities: '--connect' '--continue-on-error'"),
	  err => err('invalid value "x" for option -c/--clients') },
	{ name => '--con', args => ['--con', '-c', 'x'], rc => 1,
	  err_19 => getopt_err("option '--con' is ambiguous; possibilities: '--connect' '--continue-on-error'"),
	  err => err('invalid value "x" for option -c/--clients') },
	{ name => '--cont', args => ['--cont', '-c', 'x'], rc => 1,
	  err_19 => err('invalid value "x" for option -c/--clients'),
	  err => getopt_err("unrecognized option '--cont'") },
);

my %base_env = (
	LC_ALL => 'C', LANG => 'C', LANGUAGE => undef, LC_MESSAGES => undef,
	PG_COLOR => undef, PG_COLORS => undef, PGBENCH_RANDOM_SEED => undef,
	PGDATABASE => undef, PGHOST => undef, PGPORT => undef, POSIXLY_CORRECT => undef,
	PGBENCH_COMPAT => undef,
);

# Run a row's arguments; $compat_env sets PGBENCH_COMPAT, @extra goes into argv.
sub run_row
{
	my ($path, $row, %o) = @_;
	my @args = $row->{first} ? (@{ $row->{args} }, @{ $o{after} || [] })
	  : (@{ $o{before} || [] }, '-h', '/nonexistent-dir', '-p', '1', @{ $row->{args} });
	my %env = (%base_env, %{ $row->{env} || {} }, %{ $o{env} || {} });
	my ($rc, $out, $err) = run_cmd([ $path, @args ], env => \%env);
	s/^\Q$path\E:/pgbench:/mg for ($out, $err);
	return ($rc, $out, $err);
}

sub expected
{
	my ($row, $what, $mode) = @_;
	return $row->{"${what}_$mode"} // $row->{$what} // ($what eq 'out' ? '' : undef);
}

diag('no PostgreSQL 19 pgbench: comparing with stored texts only') unless $oracle;

for my $mode (17, 18, 19)
{
	for my $row (@rows)
	{
		my $name = "$mode: $row->{name}";
		my %ways = (
			env => [ env => { PGBENCH_COMPAT => $mode } ],
			option => $row->{first} ? [ after => ["--compat=$mode"] ] : [ before => ["--compat=$mode"] ],
		);
		my %got;
		for my $way (sort keys %ways)
		{
			my ($rc, $out, $err) = run_row($ours, $row, @{ $ways{$way} });
			$got{$way} = [ $rc, $out, $err ];
			is($rc, expected($row, 'rc', $mode), "$name ($way): exit code");
			is($err, expected($row, 'err', $mode), "$name ($way): stderr");
			is($out, expected($row, 'out', $mode), "$name ($way): stdout");
		}
	  SKIP:
		{
			skip "$name: no PostgreSQL 19 pgbench", 4 unless $mode == 19 && $oracle;
			my ($src, $sout, $serr) = run_row($oracle, $row);
			# ours with PGBENCH_COMPAT=19: the "env" run above
			my ($rc, $out, $err) = @{ $got{env} };
			($out, $sout) = map { comparable($_) } $out, $sout if $row->{first};
			is($rc, $src, "$name: exit code as 19beta1");
			is($err, $serr, "$name: stderr as 19beta1");
			is($out, $sout, "$name: stdout as 19beta1");
			ok($src == expected($row, 'rc', 19) && $serr eq expected($row, 'err', 19)
				  && $sout eq comparable(expected($row, 'out', 19)),
				"$name: stored expectation matches 19beta1");
		}
	}
}

done_testing();
