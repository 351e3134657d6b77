# cli.pl — malformed and special command lines: each row runs through our
# pgbench and the system pgbench (when installed) with no server reachable
# (-h /nonexistent-dir -p 1), and stdout, stderr and the exit code must be
# identical.  Every row also stores the expected output, so the test still
# checks something where no system pgbench is installed.
use strict;
use warnings;
use File::Temp qw(tempdir);
use Test::More;
use PgbTest;

# hundreds of short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $ours = our_pgbench_path();
my $system = system_pgbench_path();

# Scripts the rows name, in a directory both programs run in.
my $dir = tempdir('pgbcli_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";
write_file('s.sql', "SELECT 1;\n");
write_file('empty.sql', '');
write_file('bad.sql', "\\set x\n");
write_file('a@b.sql', "SELECT 1;\n");
write_file('cond.sql', "\\if 1\nselect 1;\n");

# Our name and version ("pgbench-ng 0.1.0") and where --help sends bug
# reports, as meson defines them (t/meson.build passes them on): a blank
# line and a line for each address the build names, none when it names none.
my $ident = $ENV{PGBENCH_IDENT} // '';
my $closing = PgbTest::help_closing($ident);
my $pg_closing = "Report bugs to <pgsql-bugs\@lists.postgresql.org>.\n"
  . "PostgreSQL home page: <https://www.postgresql.org/>\n";

my $hint = qq{pgbench: hint: Try "pgbench --help" for more information.\n};
my $list = "Available builtin scripts:\n"
  . "      tpcb-like: <builtin: TPC-B (sort of)>\n"
  . "  simple-update: <builtin: simple update>\n"
  . "    select-only: <builtin: select only>\n\n";
my $steps_detail =
  qq{pgbench: detail: Allowed step characters are: "dtgGvpf".\n};
my $seed_detail = qq{pgbench: detail: Expecting an unsigned integer, "time" or "rand".\n};

sub err { return join '', map { "pgbench: error: $_\n" } @_; }

chomp(my $nofile = `sh -c 'ulimit -n'`);

my $help = <<'HELP';
pgbench is a benchmarking tool for PostgreSQL.

Usage:
  pgbench [OPTION]... [DBNAME]

Initialization options:
  -i, --initialize         invokes initialization mode
  -I, --init-steps=[dtgGvpf]+ (default "dtgvp")
                           run selected initialization steps
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
  -d, --debug              print debugging output
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
$help .= $closing;

# Rows: name, args, optional env / stdin, expected rc, stderr, stdout.
# args go after "-h /nonexistent-dir -p 1" unless first => 1 keeps them
# first (only the first argument may be --help or --version).
my @rows = (
	# getopt's own complaints, then pgbench's hint
	{ name => 'invalid short option', args => ['-x'], rc => 1,
	  err => "pgbench: invalid option -- 'x'\n$hint" },
	{ name => 'unrecognized long option', args => ['--foo'], rc => 1,
	  err => "pgbench: unrecognized option '--foo'\n$hint" },
	{ name => 'short option without argument', args => ['-c'], rc => 1,
	  err => "pgbench: option requires an argument -- 'c'\n$hint" },
	{ name => 'long option without argument', args => ['--client'], rc => 1,
	  err => "pgbench: option '--client' requires an argument\n$hint" },
	{ name => 'argument to a flag', args => ['--connect=1'], rc => 1,
	  err => "pgbench: option '--connect' doesn't allow an argument\n$hint" },
	{ name => 'ambiguous --p, table order', args => ['--p'], rc => 1,
	  err => "pgbench: option '--p' is ambiguous; possibilities: '--port' '--progress' '--protocol' '--progress-timestamp' '--partitions' '--partition-method'\n$hint" },
	{ name => 'ambiguous --s', args => ['--s'], rc => 1,
	  err => "pgbench: option '--s' is ambiguous; possibilities: '--scale' '--select-only' '--skip-some-updates' '--sampling-rate' '--show-script'\n$hint" },
	{ name => 'ambiguous --f', args => ['--f'], rc => 1,
	  err => "pgbench: option '--f' is ambiguous; possibilities: '--file' '--fillfactor' '--foreign-keys' '--failures-detailed'\n$hint" },
	{ name => 'ambiguous --pa', args => ['--pa'], rc => 1,
	  err => "pgbench: option '--pa' is ambiguous; possibilities: '--partitions' '--partition-method'\n$hint" },
	{ name => 'unique prefix needing an argument', args => ['--ag'], rc => 1,
	  err => "pgbench: option '--aggregate-interval' requires an argument\n$hint" },
	{ name => '--help not first', args => ['-c', '1', '--help'], rc => 1,
	  err => "pgbench: unrecognized option '--help'\n$hint" },
	{ name => '-V not first', args => ['-c', '1', '-V'], rc => 1,
	  err => "pgbench: invalid option -- 'V'\n$hint" },
	{ name => '-? not first', args => ['-?'], rc => 1,
	  err => "pgbench: invalid option -- '?'\n$hint" },
	# --continue-on-error (PostgreSQL 19) works in 16 mode by its full name
	# only: pgbench 16's abbreviations and "ambiguous" lists stay as they are
	{ name => '--c ambiguous as in 16', args => ['--c'], rc => 1,
	  err => "pgbench: option '--c' is ambiguous; possibilities: '--client' '--connect'\n$hint" },
	{ name => '--con is --connect', args => ['--con', '-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--client') },
	{ name => '--cont is not an option', args => ['--cont'], rc => 1,
	  err => "pgbench: unrecognized option '--cont'\n$hint" },
	{ name => '--continue-on-error accepted', args => ['--continue-on-error', '-c', 'x'],
	  rc => 1, ours => 1, err => err('invalid value "x" for option -c/--client') },
	{ name => '--continue-on-error is a benchmarking option', args => ['-i', '--continue-on-error'],
	  rc => 1, ours => 1,
	  err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => '--continue-on-error takes no argument', args => ['--continue-on-error=1'],
	  rc => 1, ours => 1,
	  err => "pgbench: option '--continue-on-error' doesn't allow an argument\n$hint" },

	# --help and --version as the first argument
	{ name => '--help', args => ['--help', 'x', '-c'], first => 1, rc => 0,
	  out => $help, err => '', help => 1 },
	{ name => '-?', args => ['-?'], first => 1, rc => 0, out => $help, err => '',
	  help => 1 },
	{ name => '--help ignores a bad seed', args => ['--help'], first => 1,
	  env => { PGBENCH_RANDOM_SEED => 'x' }, rc => 0, out => $help, err => '',
	  help => 1 },
	{ name => '-V', args => ['-V', 'x'], first => 1, rc => 0,
	  out => "pgbench (PostgreSQL) 16 ($ident)\n", err => '', version => 1 },
	{ name => '--version', args => ['--version'], first => 1, rc => 0,
	  out => "pgbench (PostgreSQL) 16 ($ident)\n", err => '', version => 1 },
	# ours: --compat may come first ("--compat=19 -V"), the mode applies
	{ name => '--compat=19 -V', args => ['--compat=19', '-V'], first => 1, rc => 0, ours => 1,
	  out => "pgbench (PostgreSQL) 19 ($ident)\n", err => '', version => 1 },
	{ name => '--compat 18 --version', args => ['--compat', '18', '--version'], first => 1, rc => 0,
	  ours => 1, out => "pgbench (PostgreSQL) 18 ($ident)\n", err => '', version => 1 },
	{ name => '--compat then -V not next', args => ['--compat=19', '-c', '1', '-V'], rc => 1, ours => 1,
	  err => "pgbench: invalid option -- 'V'\n$hint" },
	{ name => '--compat then --help not next', args => ['--compat=19', '-c', '1', '--help'], rc => 1,
	  ours => 1, err => "pgbench: unrecognized option '--help'\n$hint" },

	# integer options
	{ name => '-c not a number', args => ['-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--client') },
	{ name => '-c zero', args => ['-c', '0'], rc => 1,
	  err => err('-c/--client must be in range 1..2147483647') },
	# --compat and PGBENCH_COMPAT (ours): a PostgreSQL major from 16 to 19
	{ name => '--compat below 16', args => ['--compat=15', '-c', '1'], rc => 1, ours => 1,
	  err => err('invalid value "15" for --compat: must be a PostgreSQL major from 16 to 19') },
	{ name => '--compat not a number', args => ['--compat', '1x'], rc => 1, ours => 1,
	  err => err('invalid value "1x" for --compat: must be a PostgreSQL major from 16 to 19') },
	{ name => 'PGBENCH_COMPAT invalid', args => ['-c', '1'], env => { PGBENCH_COMPAT => '20' },
	  rc => 1, ours => 1,
	  err => err('invalid value "20" for PGBENCH_COMPAT environment variable: must be a PostgreSQL major from 16 to 19') },
	{ name => '--compat overrides PGBENCH_COMPAT', args => ['--compat=16', '--show-script=select-only'],
	  env => { PGBENCH_COMPAT => '19' }, rc => 0, ours => 1,
	  err => "-- select-only: <builtin: select only>\n\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n\n" },
	{ name => '-c empty', args => ['-c', ''], rc => 1,
	  err => err('-c/--client must be in range 1..2147483647') },
	{ name => '-c trailing garbage', args => ['-c', ' 5x'], rc => 1,
	  err => err('invalid value " 5x" for option -c/--client') },
	{ name => '-c over int', args => ['-c', '99999999999'], rc => 1,
	  err => err('-c/--client must be in range 1..2147483647') },
	{ name => '-c negative', args => ['-c', '-1'], rc => 1,
	  err => err('-c/--client must be in range 1..2147483647') },
	{ name => '-c hex', args => ['--client=0x10'], rc => 1,
	  err => err('invalid value "0x10" for option -c/--client') },
	{ name => '-j zero', args => ['-j', '0'], rc => 1,
	  err => err('-j/--jobs must be in range 1..2147483647') },
	{ name => '--jobs garbage', args => ['--jobs=abc'], rc => 1,
	  err => err('invalid value "abc" for option -j/--jobs') },
	{ name => '-t zero', args => ['-t', '0'], rc => 1,
	  err => err('-t/--transactions must be in range 1..2147483647') },
	{ name => '-T garbage', args => ['-T', 'abc'], rc => 1,
	  err => err('invalid value "abc" for option -T/--time') },
	{ name => '-T zero', args => ['--time=0'], rc => 1,
	  err => err('-T/--time must be in range 1..2147483647') },
	{ name => '-P zero', args => ['-P', '0'], rc => 1,
	  err => err('-P/--progress must be in range 1..2147483647') },
	{ name => '-s zero', args => ['-s', '0'], rc => 1,
	  err => err('-s/--scale must be in range 1..2147483647') },
	{ name => '-s fraction', args => ['--scale=1.5'], rc => 1,
	  err => err('invalid value "1.5" for option -s/--scale') },
	{ name => '-F too low', args => ['-F', '9'], rc => 1,
	  err => err('-F/--fillfactor must be in range 10..100') },
	{ name => '-F too high, in -i mode', args => ['-i', '--fillfactor=101'], rc => 1,
	  err => err('-F/--fillfactor must be in range 10..100') },
	{ name => '--partitions negative', args => ['--partitions=-1'], rc => 1,
	  err => err('--partitions must be in range 0..2147483647') },
	{ name => '--aggregate-interval zero', args => ['--aggregate-interval=0'], rc => 1,
	  err => err('--aggregate-interval must be in range 1..2147483647') },
	{ name => 'open file limit', args => ['-c', '2147483647'], rc => 1,
	  skip => ($nofile eq 'unlimited'),
	  err => err("need at least -2147483646 open files, but system limit is $nofile")
		. "pgbench: hint: Reduce number of clients, or use limit/ulimit to increase the system limit.\n" },

	# options read with atof, and keywords
	{ name => '-L zero', args => ['-L', '0'], rc => 1,
	  err => err('invalid latency limit: "0"') },
	{ name => '-L garbage', args => ['--latency-limit=abc'], rc => 1,
	  err => err('invalid latency limit: "abc"') },
	{ name => '-L negative', args => ['-L', '-1'], rc => 1,
	  err => err('invalid latency limit: "-1"') },
	{ name => '-R zero', args => ['-R', '0'], rc => 1,
	  err => err('invalid rate limit: "0"') },
	{ name => '-R garbage', args => ['--rate=x'], rc => 1,
	  err => err('invalid rate limit: "x"') },
	{ name => '--sampling-rate zero', args => ['--sampling-rate=0'], rc => 1,
	  err => err('invalid sampling rate: "0"') },
	{ name => '--sampling-rate above 1', args => ['--sampling-rate=1.5'], rc => 1,
	  err => err('invalid sampling rate: "1.5"') },
	{ name => '--max-tries negative', args => ['--max-tries=-1'], rc => 1,
	  err => err('invalid number of maximum tries: "-1"') },
	{ name => '--max-tries garbage reads as 0', args => ['--max-tries=x'], rc => 1,
	  err => err('an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)') },
	{ name => '--max-tries=0 alone', args => ['--max-tries=0'], rc => 1,
	  err => err('an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)') },
	{ name => '-M unknown', args => ['-M', 'foo'], rc => 1,
	  err => err('invalid query mode (-M): "foo"') },
	{ name => '-M is case-sensitive', args => ['--protocol=Simple'], rc => 1,
	  err => err('invalid query mode (-M): "Simple"') },
	{ name => '--partition-method unknown', args => ['--partition-method=foo'], rc => 1,
	  err => err('invalid partition method, expecting "range" or "hash", got: "foo"') },
	{ name => '-I bad step', args => ['-I', 'dtx'], rc => 1,
	  err => err('unrecognized initialization step "x"') . $steps_detail },
	{ name => '-I empty', args => ['-I', ''], rc => 1,
	  err => err('no initialization steps specified') },
	{ name => '-I bad step in -i mode', args => ['-i', '--init-steps=dtq'], rc => 1,
	  err => err('unrecognized initialization step "q"') . $steps_detail },

	# builtin scripts
	{ name => '-b list', args => ['-b', 'list'], rc => 0, err => $list },
	{ name => '-b list wins over later errors', args => ['-b', 'list', '-c', 'x'], rc => 0,
	  err => $list },
	{ name => '-b unknown', args => ['-b', 'foo'], rc => 1,
	  err => err('no builtin script found for name "foo"') . $list },
	{ name => '-b ambiguous prefix', args => ['-b', 's'], rc => 1,
	  err => err('ambiguous builtin name: 2 builtin scripts found for prefix "s"') . $list },
	{ name => '-b empty name', args => ['-b', '@1'], rc => 1,
	  err => err('ambiguous builtin name: 3 builtin scripts found for prefix ""') . $list },
	{ name => '-b list@1 is a name', args => ['-b', 'list@1'], rc => 1,
	  err => err('no builtin script found for name "list"') . $list },
	{ name => '-b bad weight before the name', args => ['-b', 'foo@x'], rc => 1,
	  err => err('invalid weight specification: @x') },
	{ name => '-b weight 0 only', args => ['-b', 'tpcb@0'], rc => 1,
	  err => err('total script weight must not be zero') },
	{ name => '--show-script', args => ['--show-script=select-only'], rc => 0,
	  err => "-- select-only: <builtin: select only>\n"
		. "\\set aid random(1, 100000 * :scale)\n"
		. "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n\n" },
	{ name => '--show-script unknown', args => ['--show-script=foo'], rc => 1,
	  err => err('no builtin script found for name "foo"') . $list },
	{ name => '--show-script takes no weight', args => ['--show-script=tpcb-like@1'], rc => 1,
	  err => err('no builtin script found for name "tpcb-like@1"') . $list },

	# script files
	{ name => '-f missing file', args => ['-f', 'nope.sql'], rc => 1,
	  err => err('could not open file "nope.sql": No such file or directory') },
	{ name => '-f missing file before a later bad option', args => ['-f', 'nope.sql', '-c', 'x'],
	  rc => 1, err => err('could not open file "nope.sql": No such file or directory') },
	{ name => '-f directory', args => ['-f', '.'], rc => 1,
	  err => err('could not read file ".": Is a directory') },
	{ name => '-f bad weight', args => ['-f', 's.sql@x'], rc => 1,
	  err => err('invalid weight specification: @x') },
	{ name => '-f empty weight', args => ['-f', 's.sql@'], rc => 1,
	  err => err('invalid weight specification: @') },
	{ name => '-f trailing blank in weight', args => ['-f', 's.sql@3 '], rc => 1,
	  err => err('invalid weight specification: @3 ') },
	{ name => '-f negative weight', args => ['-f', 's.sql@-1'], rc => 1,
	  err => err('weight specification out of range (0 .. 2147483647): -1') },
	{ name => '-f weight over int', args => ['--file=s.sql@2147483648'], rc => 1,
	  err => err('weight specification out of range (0 .. 2147483647): 2147483648') },
	{ name => '-f weight 0 only', args => ['-f', 's.sql@0', '-f', 's.sql@00'], rc => 1,
	  err => err('total script weight must not be zero') },
	{ name => '-f weight 0 beside another', args => ['-f', 's.sql@0', '-b', 'tpcb@1', '-c', 'x'],
	  rc => 1, err => err('invalid value "x" for option -c/--client') },
	{ name => '-f last @ splits', args => ['-f', 'a@b.sql'], rc => 1,
	  err => err('invalid weight specification: @b.sql') },
	{ name => '-f name with @ and weight', args => ['-f', 'a@b.sql@1', '-c', 'x'], rc => 1,
	  err => err('invalid value "x" for option -c/--client') },
	{ name => '-f empty file', args => ['-f', 'empty.sql'], rc => 1,
	  err => err('empty command list for script "empty.sql"') },
	{ name => '-f - reads stdin', args => ['-f', '-', '-c', 'x'], stdin => "select 2;\n",
	  rc => 1, err => err('invalid value "x" for option -c/--client') },
	{ name => '-f - empty stdin', args => ['-f', '-'], stdin => "\n", rc => 1,
	  err => err('empty command list for script "-"') },
	{ name => 'script error before a later bad option', args => ['-f', 'bad.sql', '-c', 'x'],
	  rc => 1, err => err('bad.sql:1: syntax error in command "set"') . "\\set x\n      ^ error found here\n" },
	{ name => 'bad option before a later script error', args => ['-c', 'x', '-f', 'bad.sql'],
	  rc => 1, err => err('invalid value "x" for option -c/--client') },
	{ name => 'unclosed \\if', args => ['-f', 'cond.sql'], rc => 1,
	  err => err('condition error in script "cond.sql" command 3: \\if without matching \\endif') },
	{ name => 'too many scripts', args => [ ('-S') x 129, '-c', 'x' ], rc => 1,
	  err => err('at most 128 SQL scripts are allowed') },
	{ name => 'too many scripts, script errors first', args => [ ('-N') x 128, '-f', 'empty.sql' ],
	  rc => 1, err => err('empty command list for script "empty.sql"') },

	# -D
	{ name => '-D without =', args => ['-D', 'a'], rc => 1,
	  err => err('invalid variable definition: "a"') },
	{ name => '-D without name', args => ['-D', '=1'], rc => 1,
	  err => err('invalid variable definition: "=1"') },
	{ name => '-D without value', args => ['--define=a='], rc => 1,
	  err => err('invalid variable definition: "a="') },
	{ name => '-D name starting with a digit', args => ['-D', '1x=3'], rc => 1,
	  err => err('option: invalid variable name: "1x"') },
	{ name => '-D name with a blank', args => ['-D', 'a=1', '-D', 'a b=2'], rc => 1,
	  err => err('option: invalid variable name: "a b"') },
	{ name => '-D non-ASCII name is fine', args => ['-D', "\xc3\xa9=1", '-D', 'x==', '-c', 'x'],
	  rc => 1, err => err('invalid value "x" for option -c/--client') },

	# random seed
	{ name => '--random-seed garbage', args => ['--random-seed=x'], rc => 1,
	  err => err('unrecognized random seed option "x"') . $seed_detail
		. err('error while setting random seed from --random-seed option') },
	{ name => 'PGBENCH_RANDOM_SEED garbage, before options', args => ['-c', 'x'],
	  env => { PGBENCH_RANDOM_SEED => 'x' }, rc => 1,
	  err => err('unrecognized random seed option "x"') . $seed_detail
		. err('error while setting random seed from PGBENCH_RANDOM_SEED environment variable') },
	{ name => 'PGBENCH_RANDOM_SEED empty', args => ['-c', 'x'],
	  env => { PGBENCH_RANDOM_SEED => '' }, rc => 1,
	  err => err('unrecognized random seed option ""') . $seed_detail
		. err('error while setting random seed from PGBENCH_RANDOM_SEED environment variable') },
	{ name => 'PGBENCH_RANDOM_SEED shown', args => ['-c', 'x'],
	  env => { PGBENCH_RANDOM_SEED => '7' }, rc => 1,
	  err => "pgbench: setting random seed to 7\n" . err('invalid value "x" for option -c/--client') },
	{ name => '--random-seed shown', args => ['--random-seed=5', '-T', '0'], rc => 1,
	  err => "pgbench: setting random seed to 5\n" . err('-T/--time must be in range 1..2147483647') },
	{ name => '--random-seed wraps negatives', args => ['--random-seed=-1', '-T', '0'], rc => 1,
	  err => "pgbench: setting random seed to 18446744073709551615\n"
		. err('-T/--time must be in range 1..2147483647') },
	{ name => 'both seeds shown', args => ['-d', '--random-seed= 5', '-T', '0'],
	  env => { PGBENCH_RANDOM_SEED => '3' }, rc => 1,
	  err => "pgbench: setting random seed to 3\npgbench: setting random seed to 5\n"
		. err('-T/--time must be in range 1..2147483647') },

	{ name => 'PG_COLOR=always', args => ['-c', 'x'],
	  env => { PGBENCH_RANDOM_SEED => '4', PG_COLOR => 'always' }, rc => 1,
	  err => "\e[01mpgbench: \e[0msetting random seed to 4\n"
		. "\e[01mpgbench: \e[0m\e[01;31merror: \e[0minvalid value \"x\" for option -c/--client\n" },
	{ name => 'PG_COLOR=always, getopt and hint', args => ['-x'],
	  env => { PG_COLOR => 'always' }, rc => 1,
	  err => "pgbench: invalid option -- 'x'\n"
		. "\e[01mpgbench: \e[0m\e[01;36mhint: \e[0mTry \"pgbench --help\" for more information.\n" },

	# checks made once every option is read
	{ name => '-t with -T', args => ['-t', '5', '-T', '5'], rc => 1,
	  err => err('specify either a number of transactions (-t) or a duration (-T), not both') },
	{ name => '--aggregate-interval without -l', args => ['--aggregate-interval=5'], rc => 1,
	  err => err('log aggregation is allowed only when actually logging transactions') },
	{ name => '--sampling-rate without -l', args => ['--sampling-rate=0.5', '--aggregate-interval=5'],
	  rc => 1, err => err('log sampling (--sampling-rate) is allowed only when logging transactions (-l)') },
	{ name => '--sampling-rate with --aggregate-interval', args => ['-l', '--sampling-rate=0.5', '--aggregate-interval=5'],
	  rc => 1, err => err('log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time') },
	{ name => '--log-prefix without -l', args => ['--log-prefix=x'], rc => 1,
	  err => err('log file prefix (--log-prefix) is allowed only when logging transactions (-l)') },
	{ name => 'aggregation checked before prefix', args => ['--aggregate-interval=2', '--log-prefix=x'],
	  rc => 1, err => err('log aggregation is allowed only when actually logging transactions') },
	{ name => '--progress-timestamp without -P', args => ['--progress-timestamp'], rc => 1,
	  err => err('--progress-timestamp is allowed only under --progress') },
	{ name => 'progress-timestamp checked before max-tries',
	  args => ['-l', '--log-prefix=x', '--aggregate-interval=2', '--progress-timestamp', '--max-tries=0'],
	  rc => 1, err => err('--progress-timestamp is allowed only under --progress') },
	{ name => 'aggregation longer than the run', args => ['-l', '--aggregate-interval=10', '-T', '5'],
	  rc => 1, err => err('number of seconds for aggregation (10) must not be higher than test duration (5)') },
	{ name => 'aggregation not dividing the run', args => ['-l', '--aggregate-interval=3', '-T', '10'],
	  rc => 1, err => err('duration (10) must be a multiple of aggregation interval (3)') },
	{ name => 'benchmark option in -i mode', args => ['-i', '-c', '3'], rc => 1,
	  err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => 'script in -i mode', args => ['-i', '-f', 's.sql'], rc => 1,
	  err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => 'zero weight ignored in -i mode', args => ['-i', '-b', 'tpcb@0'], rc => 1,
	  err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => '--partition-method without --partitions', args => ['-i', '--partition-method=hash'],
	  rc => 1, err => err('--partition-method requires greater than zero --partitions') },
	{ name => '--partition-method with --partitions=0',
	  args => ['-i', '--partitions=0', '--partition-method=HASH'],
	  rc => 1, err => err('--partition-method requires greater than zero --partitions') },
	{ name => '-i mode check before the partition check', args => ['-i', '-l', '--partition-method=hash'],
	  rc => 1, err => err('some of the specified options cannot be used in initialization (-i) mode') },
	{ name => '-I in benchmark mode', args => ['-I', 'dt'], rc => 1,
	  err => err('some of the specified options cannot be used in benchmarking mode') },
	{ name => '-q in benchmark mode', args => ['-q'], rc => 1,
	  err => err('some of the specified options cannot be used in benchmarking mode') },
	{ name => '--tablespace in benchmark mode', args => ['--tablespace=x', '-t', '1', '-T', '1'], rc => 1,
	  err => err('some of the specified options cannot be used in benchmarking mode') },
	{ name => 'too many arguments', args => ['a', 'b', 'c'], rc => 1,
	  err => err('too many command-line arguments (first is "b")') . $hint },
	{ name => 'too many arguments in -i mode', args => ['-i', '-c', '2', 'a', 'b'], rc => 1,
	  err => err('too many command-line arguments (first is "b")') . $hint },
	{ name => 'weight checked before arguments', args => ['-b', 'tpcb@0', 'a', 'b'], rc => 1,
	  err => err('total script weight must not be zero') },
	{ name => 'arguments checked before mode', args => ['-i', '-n', '-q', '-s', '1', '-F', '20',
		'--foreign-keys', '--unlogged-tables', '--tablespace=x', '--index-tablespace=y',
		'--partitions=2', '--partition-method=hash', 'dbx', 'extra'], rc => 1,
	  err => err('too many command-line arguments (first is "extra")') . $hint },
	# ours: an argument libpq would read as a connection string is never
	# echoed as given (conninfo_mask.h), as pgbench does
	{ name => 'too many arguments: a connection string, masked', ours => 1,
	  args => ['a', 'host=h password=SECRETXYZ'], rc => 1,
	  err => err('too many command-line arguments (first is "password=******** host=h")') . $hint },
	{ name => 'too many arguments: one libpq cannot parse, not shown', ours => 1,
	  args => ['a', 'x=1'], rc => 1,
	  err => err('too many command-line arguments (first is "<connection string not shown: libpq cannot parse it>")')
		. $hint },

	# a connection string libpq rejects: its reason in pgbench's words
	# where it quotes a keyword or a part of a URI that holds no secret
	{ name => 'unknown connection option', args => ['nosuchkey=1'], rc => 1,
	  err => err('invalid connection option "nosuchkey"', 'could not create connection for setup') },
	{ name => 'unknown connection option beside a password', args => ['host=h password=SECRETXYZ bogus=1'],
	  rc => 1, err => err('invalid connection option "bogus"', 'could not create connection for setup') },
	{ name => 'unknown connection option, -i', args => ['-i', 'nosuchkey=1'], rc => 1,
	  err => err('invalid connection option "nosuchkey"', 'could not create connection for initialization') },
	{ name => 'bad percent-encoding in a URI\'s database', args => ['postgresql://u:secret@h/%zz'], rc => 1,
	  err => err('invalid percent-encoded token: "%zz"', 'could not create connection for setup') },
	{ name => 'bad percent-encoding in a URI\'s hosts', args => ['postgresql://u:secret@h1:5432,h%zz/db'],
	  rc => 1, err => err('invalid percent-encoded token: "h1,h%zz"', 'could not create connection for setup') },
	{ name => 'unknown URI parameter', args => ['postgresql://u:secret@h/db?nosuch=secret'], rc => 1,
	  err => err('invalid URI query parameter: "nosuch"', 'could not create connection for setup') },
	# ours: where libpq quotes what may be a secret, pgbench shows it, we do not
	{ name => 'bad percent-encoding in a URI\'s password: hidden', ours => 1,
	  args => ['postgresql://u:SECRETXYZ%zz@h/db'], rc => 1,
	  err => err('invalid percent-encoded token: "..."', 'could not create connection for setup') },
	{ name => 'bad percent-encoding in a URI parameter\'s value: hidden', ours => 1,
	  args => ['postgresql://h/db?password=SECRETXYZ%zz'], rc => 1,
	  err => err('invalid percent-encoded token: "..."', 'could not create connection for setup') },

	# ours: a value without a digit is refused (pgbench's own options read it as 0)
	{ name => '--warmup empty', args => ['--warmup=', '-T', '1'], rc => 1, ours => 1,
	  err => err('invalid value "" for option --warmup') },
	{ name => '--warmup blank', args => ['--warmup= ', '-T', '1'], rc => 1, ours => 1,
	  err => err('invalid value " " for option --warmup') },
	{ name => '--warmup garbage', args => ['--warmup=1x', '-T', '1'], rc => 1, ours => 1,
	  err => err('invalid value "1x" for option --warmup') },
	{ name => '--warmup negative', args => ['--warmup=-1', '-T', '1'], rc => 1, ours => 1,
	  err => err('--warmup must be in range 0..31536000') },
	{ name => '--server-sample-interval empty', args => ['--server-sample-interval='], rc => 1, ours => 1,
	  err => err('invalid value "" for option --server-sample-interval') },

	# ours: --metrics-listen's address checked before anything connects
	{ name => '--metrics-listen port over 65535', args => ['--metrics-listen=127.0.0.1:99999'],
	  rc => 1, ours => 1,
	  err => err('invalid address "127.0.0.1:99999": the port must be a number from 1 to 65535') },
	{ name => '--metrics-listen port 65536', args => ['--metrics-listen=127.0.0.1:65536'],
	  rc => 1, ours => 1,
	  err => err('invalid address "127.0.0.1:65536": the port must be a number from 1 to 65535') },
	{ name => '--metrics-listen port 0', args => ['--metrics-listen=[::1]:0'], rc => 1, ours => 1,
	  err => err('invalid address "[::1]:0": the port must be a number from 1 to 65535') },
	{ name => '--metrics-listen port not a number', args => ['--metrics-listen=h:+80'], rc => 1, ours => 1,
	  err => err('invalid address "h:+80": the port must be a number from 1 to 65535') },
	{ name => '--metrics-listen without a port', args => ['--metrics-listen=localhost'], rc => 1, ours => 1,
	  err => err('invalid address "localhost": expected HOST:PORT') },
	{ name => '--metrics-listen without a host', args => ['--metrics-listen=:9187'], rc => 1, ours => 1,
	  err => err('invalid address ":9187": expected HOST:PORT') },
);

# Show our program and the system one under the same name.
sub normalise
{
	my ($text, $path) = @_;
	$text =~ s/^\Q$path\E:/pgbench:/mg;
	return $text;
}

my %base_env = (
	LC_ALL => 'C', LANG => 'C', LANGUAGE => undef, LC_MESSAGES => undef,
	PG_COLOR => undef, PG_COLORS => undef, PGBENCH_RANDOM_SEED => undef,
	PGDATABASE => undef, PGHOST => undef, PGPORT => undef, POSIXLY_CORRECT => undef,
);

sub run_row
{
	my ($path, $row) = @_;
	my @args = $row->{first} ? @{ $row->{args} }
	  : ('-h', '/nonexistent-dir', '-p', '1', @{ $row->{args} });
	my ($rc, $out, $err) = run_cmd([ $path, @args ],
		env => { %base_env, %{ $row->{env} || {} } },
		stdin => $row->{stdin});
	return ($rc, normalise($out, $path), normalise($err, $path));
}

# Our --help is pgbench's plus PostgreSQL 17's --exit-on-abort line, plus
# our extensions in a section of their own before the closing lines, which
# name this project instead of PostgreSQL.
my $extensions_help = <<'EXT';

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
EXT

sub with_our_additions
{
	my ($help) = @_;
	$help =~ s/^(  --aggregate-interval=NUM .*\n)/$1  --exit-on-abort          exit when any client is aborted\n/m;
	$help =~ s/^(  -\?, --help .*\n)(?=\n\Q$pg_closing\E\z)/$1$extensions_help/m;
	$help =~ s/\n\Q$pg_closing\E\z/$closing/;
	return $help;
}

cmp_ok(scalar(@rows), '>=', 70, 'at least 70 command lines');
diag('no system pgbench: comparing with stored texts only') unless $system;
like($ident, qr/^pgbench-ng \d+\.\d+\.\d+$/, 'project name and version from meson');

for my $row (@rows)
{
	my $name = $row->{name};
  SKIP:
	{
		skip "$name: not applicable here", 7 if $row->{skip};
		my ($rc, $out, $err) = run_row($ours, $row);

		is($rc, $row->{rc}, "$name: exit code");
		is($err, $row->{err}, "$name: stderr");
		is($out, $row->{out} // '', "$name: stdout");

		skip "$name: no system pgbench", 4 unless $system;
		skip "$name: version text is ours", 4 if $row->{version};
		skip "$name: an option of ours", 4 if $row->{ours};
		my ($src, $sout, $serr) = run_row($system, $row);
		$sout = with_our_additions($sout) if $row->{help};
		is($rc, $src, "$name: exit code as system pgbench");
		is($err, $serr, "$name: stderr as system pgbench");
		is($out, $sout, "$name: stdout as system pgbench");
		# The stored row itself must match the real program.
		ok($src == $row->{rc} && $serr eq $row->{err} && $sout eq ($row->{out} // ''),
			"$name: stored expectation matches system pgbench");
	}
}

# --help ends as pgbench's, with where to report bugs (PostgreSQL's own
# test of --help looks for "Report bugs to"), whatever the build names:
# its address, else in words where bugs go; then a home page if it has one
{
	my ($rc, $out) = run_cmd([ $ours, '--help' ], env => \%base_env);
	like($out, qr/\n\nReport bugs to [^\n]+\n(?:\S+ home page: <[^>\n]+>\n)?\z/,
		'--help ends with a "Report bugs to" line');
}

# --compat=MAJOR before --help: the help of that mode, as PGBENCH_COMPAT
# gives it (19 lists --continue-on-error among pgbench's options)
{
	my ($rc19, $help19) = run_cmd([ $ours, '--help' ], env => { %base_env, PGBENCH_COMPAT => '19' });
	is($rc19, 0, 'PGBENCH_COMPAT=19 --help: exit code 0');
	for my $args ([ '--compat=19', '--help' ], [ '--compat', '19', '-?' ], [ '--help', '--compat=19' ])
	{
		my ($rc, $out, $err) = run_cmd([ $ours, @$args ], env => \%base_env);
		my $name = join(' ', @$args);
		is($rc, 0, "$name: exit code 0");
		is($err, '', "$name: nothing on stderr");
		is(normalise($out, $ours), normalise($help19, $ours), "$name: the help of mode 19");
	}
	like($help19, qr/^  --continue-on-error /m, 'the help of mode 19 lists --continue-on-error');
}

done_testing();
