# list_reports.pl — --list-reports on a directory others may write to
# (doc/compare.md): a real run's report is listed beside what must not
# stop or swell the listing, each skipped with a warning: a FIFO named
# x.json (opened without blocking, never waited on), a symlink to
# /dev/zero (a device is not read), a directory named like a report, a
# file over the 256 MiB limit (refused by its size, unread).  File names
# are printed with their control characters masked, in the listing and
# in the warnings, as labels are.
use strict;
use warnings;

use File::Temp qw(tempdir);
use POSIX qw(mkfifo);
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgblist_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);
mkdir 'd' or die "mkdir: $!";
($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '20', '--label=env=ci', '--report-json=d/good.json' ],
	env => \%env);
is($rc, 0, 'a run writes d/good.json') or diag($err);

# A listing that hangs ends here (the FIFO case before the fix) instead of
# stopping the whole test: generous, it bounds only a hang.
sub list
{
	my @args = @_;
	my @r = eval { pgbench([ '--list-reports', @args ], timeout => 120) };
	return @r ? @r : (-1, '', "the listing did not end: $@");
}

my $row = qr/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z +completed +[0-9.]+ +[0-9.]+ +env=ci +/;

# ---- what is not a regular file --------------------------------------------------

mkfifo('d/x.json', 0600) or die "mkfifo: $!";
symlink('/dev/zero', 'd/zero.json') or die "symlink: $!";
mkdir 'd/sub.json' or die "mkdir: $!";
($rc, $out, $err) = list('d');
is($rc, 0, 'a FIFO, /dev/zero and a directory among the reports: exit status 0') or diag($err);
like($out, qr/^${row}d\/good\.json$/m, '... the good report is listed');
is(scalar(() = $out =~ /\n/g), 2, '... a header and its line only') or diag($out);
is($err, join('', map { "pgbench: warning: d/$_.json: not a regular file, skipped\n" } qw(sub x zero)),
	'... each of the others skipped with a warning, in name order');

# named on the command line, the same
($rc, $out, $err) = list('d/x.json', 'd/zero.json', 'd/good.json');
is($rc, 0, 'the FIFO and /dev/zero given as files: exit status 0') or diag($err);
like($out, qr/^${row}d\/good\.json$/m, '... the good report is listed');
is($err, "pgbench: warning: d/x.json: not a regular file, skipped\n"
	. "pgbench: warning: d/zero.json: not a regular file, skipped\n", '... the others skipped');
unlink 'd/x.json', 'd/zero.json';
rmdir 'd/sub.json';

# ---- a file too large, refused by its size ---------------------------------------

# sparse: no disk space, and nothing of it may be read
open(my $big, '>', 'd/big.json') or die "open: $!";
truncate($big, 256 * 1024 * 1024 + 1) or die "truncate: $!";
close $big;
($rc, $out, $err) = list('d');
is($rc, 0, 'a file over 256 MiB: exit status 0') or diag($err);
is($err, "pgbench: warning: d/big.json: larger than 268435456 bytes (256 MiB), the most a report may be\n",
	'... refused with the merge\'s words');
like($out, qr/^${row}d\/good\.json$/m, '... the good report is still listed');
unlink 'd/big.json';

# ---- names with control characters -----------------------------------------------

my $esc = "d/\e[31mred\a.json";
write_file($esc, slurp('d/good.json'));
write_file("d/\e]0;title\a.json", '{"not": "a report"}');
($rc, $out, $err) = list('d');
is($rc, 0, 'names with escape sequences: exit status 0') or diag($err);
like($out, qr/^${row}d\/\?\[31mred\?\.json$/m, '... the report\'s name masked as a label is');
like($out, qr/^${row}d\/good\.json$/m, '... beside the other report');
is($err, "pgbench: warning: d/?]0;title?.json: not a report of pgbench\n", '... and in a warning');
unlike($out . $err, qr/[\x00-\x09\x0b-\x1f\x7f]/, 'no control character but newlines printed');

done_testing();
