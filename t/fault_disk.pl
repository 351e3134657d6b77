# fault_disk.pl — -l into a full filesystem (a 64 KiB tmpfs): the run goes
# on, prints its whole report, then reports the failed log write in
# pgbench's words and exits with 2, as any error during a run does.
# pgbench 15 does not check its log writes: it exits 0 and leaves a log
# cut at the size of the filesystem; the test records that difference.
# Skipped when this process may not mount (not root, or no capability).
use strict;
use warnings;

use File::Temp qw(tempdir);
use PgbTest;
use Test::More;

my $mnt = tempdir('pgbdisk_XXXXXX', TMPDIR => 1, CLEANUP => 1);
if (system("mount -t tmpfs -o size=64k pgbtest_full '$mnt' 2>/dev/null") != 0)
{
	plan skip_all => 'cannot mount a tmpfs here (root and CAP_SYS_ADMIN are needed)';
}
my $mounted = 1;
# only this process unmounts: a forked child leaving through Perl's exit
# must not take the filesystem from under the test
my $owner = $$;
END { system('umount', $mnt) if $mounted && $$ == $owner; }

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbdiskrun_XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $one = write_file("$dir/one.sql", "select 1;\n");

# 20000 lines of about 30 bytes: ten times what the filesystem holds
sub fill_with
{
	my ($which, $prefix, @more) = @_;
	system("rm -f '$mnt'/*");
	my @args = ('-n', '-f', $one, '-t', '10000', '-c', '2', '-j', '2', '-l', "--log-prefix=$mnt/$prefix", @more);
	return $which eq 'ours' ? pgbench(\@args, env => \%env) : system_pgbench(\@args, env => \%env);
}

my ($rc, $out, $err) = fill_with('ours', 'ours');
is($rc, 2, 'a full filesystem: exit code 2');
like($out, qr/^number of transactions actually processed: 20000\/20000$/m, 'the whole report is printed');
like($out, qr/\ntps = [\d.]+ \(without initial connection time\)\n\z/, 'to its last line');
my @errors = $err =~ /^pgbench: error: could not write to log file "\Q$mnt\E\/ours\.\d+(?:\.1)?": No space left on device$/mg;
ok(@errors >= 1 && @errors <= 2, 'the write error in pgbench style, once per log that hit it')
  or diag($err);
is(scalar(() = $err =~ /^/mg), scalar(@errors), 'nothing else on stderr');

# what reached the files is whole lines, but for the last one, which a
# short write may have cut
my @lines;
for my $f (glob("$mnt/ours.*"))
{
	my @l = split /\n/, slurp($f);
	pop @l;
	push @lines, @l;
}
ok(@lines > 0, 'the logs hold what fitted (' . scalar(@lines) . ' lines)');
is(scalar(grep { !/^[01] \d+ \d+ 0 \d+ \d+$/ } @lines), 0, 'whole lines up to the last');

($rc, $out, $err) = fill_with('ours', 'agg', '--aggregate-interval=1', '-t', '2000');
is($rc, 0, '--aggregate-interval: its few lines fit, exit code 0');

($rc, $out, $err) = fill_with('ours', 'json', "--report-json=$mnt/r.json");
is($rc, 2, 'the JSON report on a full filesystem too: exit code 2');
like($err, qr/^pgbench: error: could not write report file "\Q$mnt\E\/r.json": No space left on device$/m,
	'the JSON write error in pgbench style');

SKIP:
{
	skip 'no system pgbench', 2 unless system_pgbench_path();
	($rc, $out, $err) = fill_with('system', 'theirs');
	is($rc, 0, 'pgbench 15 ignores the failed writes: exit code 0');
	like($out, qr/^number of transactions actually processed: 20000\/20000$/m, 'pgbench 15: the report');
}

done_testing();
