# merge_integrity.pl — --merge-reports knows which runs it merges
# (doc/fleet.md, "What the merge refuses"): every report carries a run id,
# and under --rendezvous its group, size and member index.  A real group of
# three short runs against a throwaway cluster: the three merge and the
# merged report lists them; two of three are refused, naming the missing
# member, unless --merge-partial (a warning then); the same report twice,
# or a copy under another name, is refused; so are a tampered group size
# and a member given twice.  Each refusal: its exact message, exit status
# 1, nothing on stdout, no report file.  Reports without a run id (as
# written before them) still merge.
use strict;
use warnings;

use File::Copy qw(copy);
use File::Temp qw(tempdir);
use IPC::Run ();
use JSON::PP;
use PgbTest;
use Test::More;

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbinteg_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-q' ], env => \%env);
is($rc, 0, 'initialize the tables') or diag($err);

sub slurp_json { return decode_json(slurp($_[0])); }

# ---- a real group of three ---------------------------------------------------------------

my $pgbench = PgbTest::our_pgbench_path();
my (@runs, @outs, @errs);
local %ENV = (%ENV, %env);
for my $n (1 .. 3)
{
	($outs[$n], $errs[$n]) = ('', '');
	push @runs, IPC::Run::start(
		[ $pgbench, '-n', '-S', '-c', '1', '-t', '20', '--rendezvous=trio:3',
			"--report-json=i$n.json" ],
		'<', \undef, '>', \$outs[$n], '2>', \$errs[$n], IPC::Run::timeout(120));
}
for my $n (1 .. 3)
{
	$runs[ $n - 1 ]->finish;
	is($? >> 8, 0, "member i$n.json: exit status 0") or diag($errs[$n]);
}
my @docs = map { slurp_json("i$_.json") } 1 .. 3;
my @ids = map { $_->{run_id} } @docs;
like($_, qr/^[0-9a-f]{32}$/, "run id $_: 32 hexadecimal digits") for @ids;
my %distinct = map { $_ => 1 } @ids;
is(scalar(keys %distinct), 3, 'three runs, three run ids');
is_deeply([ sort map { $_->{rendezvous}{member} } @docs ], [ 0, 1, 2 ], 'members 0, 1 and 2');
is_deeply([ map { $_->{rendezvous}{size} } @docs ], [ 3, 3, 3 ], 'each knows its group of 3');
is_deeply([ map { $_->{inputs} } @docs ], [ undef, undef, undef ], 'a run of its own holds no inputs');
my %file_of = map { ($docs[ $_ - 1 ]{rendezvous}{member} => "i$_.json") } 1 .. 3;

# a run that never started has a run id too
($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '1', '-p', '1', '--report-json=f.json' ], env => \%env);
is($rc, 1, 'a run that cannot connect: exit status 1');
like(slurp_json('f.json')->{run_id}, qr/^[0-9a-f]{32}$/, '... and its document has a run id');

# Merge @files (asking for a merged JSON and HTML report): refused with
# the lines @message, exit status 1, nothing printed, no report file.
sub refused
{
	my ($what, $message, @files) = @_;
	unlink 'm.json', 'm.html';
	my ($r, $o, $e) = pgbench([ '--merge-reports', @files, '--report-json=m.json',
			'--report-html=m.html' ]);
	is($r, 1, "$what: exit status 1");
	is($e, $message, "$what: the message");
	is($o, '', "$what: no report");
	ok(!-e 'm.json' && !-e 'm.html', "$what: no report file");
}

# ---- the whole group ----------------------------------------------------------------------

($rc, $out, $err) = pgbench([ '--merge-reports', 'i1.json', 'i2.json', 'i3.json', '--report-json=m.json' ]);
is($rc, 0, 'the whole group merges') or diag($err);
is($err, '', '... without a word');
my $m = slurp_json('m.json');
like($m->{run_id}, qr/^[0-9a-f]{32}$/, 'the merged report has a run id');
ok(!$distinct{ $m->{run_id} }, '... of its own');
my @want = map {
	my $d = $docs[ $_ - 1 ];
	{ file => "i$_.json", run_id => $d->{run_id},
	  rendezvous => { group => 'trio', size => 3, member => $d->{rendezvous}{member},
		  start_server_epoch_us => $d->{rendezvous}{start_server_epoch_us} },
	  system_identifier => $d->{server}{system_identifier},
	  server_totals => $d->{server_stats}{totals} }
} 1 .. 3;
is_deeply($m->{inputs}, \@want, 'inputs: each file as given, its run id, group, size and member, its server');
# one server for the three: its figures once, from the first report
is_deeply($m->{servers}, [ { system_identifier => $docs[0]{server}{system_identifier}, instances => 3,
			totals_from => 'i1.json', totals => $docs[0]{server_stats}{totals} } ],
	'servers: the one server once, its figures from the first report');
ok(defined $docs[0]{server_stats}{totals}, '... which has them');
is($m->{transactions}{processed}, 60, 'the merged report counts the three runs');

# ---- two of three -------------------------------------------------------------------------

my ($first, $second) = @file_of{ 0, 1 };    # members 0 and 1; member 2 is missing
my %id_of = map { ("i$_.json" => $ids[ $_ - 1 ]) } 1 .. 3;
refused('two of three', qq{pgbench: error: rendezvous group "trio" is incomplete: 2 of its 3 members given, member 2 missing\n}
	  . qq{pgbench: hint: Give every member's report, or --merge-partial to merge them anyway.\n}, $first, $second);
refused('one of three', qq{pgbench: error: rendezvous group "trio" is incomplete: 1 of its 3 members given, members 1 and 2 missing\n}
	  . qq{pgbench: hint: Give every member's report, or --merge-partial to merge them anyway.\n}, $first);

unlink 'p.json';
($rc, $out, $err) = pgbench([ '--merge-reports', '--merge-partial', $first, $second, '--report-json=p.json' ]);
is($rc, 0, '--merge-partial: two of three merge');
is($err, qq{pgbench: warning: rendezvous group "trio" is incomplete: 2 of its 3 members given, member 2 missing\n},
	'--merge-partial: a warning names the missing member');
like($out, qr/^number of transactions actually processed: 40\/40$/m, '--merge-partial: the two runs counted');
my $p = slurp_json('p.json');
is_deeply([ map { $_->{file} } @{ $p->{inputs} } ], [ $first, $second ], '--merge-partial: inputs lists the two');
is_deeply([ @{ $p->{command_line} }[ 0 .. 2 ] ], [ 'pgbench', '--merge-reports', '--merge-partial' ],
	'--merge-partial: on the merged command line');

# the partial merge and the third member make the group whole again
($rc, $out, $err) = pgbench([ '--merge-reports', 'p.json', $file_of{2} ]);
is($rc, 0, 'a partial merge plus the missing member: merged') or diag($err);
unlike($err, qr/incomplete/, '... the group whole');
refused('a partial merge plus one of its runs',
	"pgbench: error: $second: run_id: run $id_of{$second} is in p.json already\n", 'p.json', $second);
refused('a merged report twice', "pgbench: error: p.json: the same run as p.json (run id $p->{run_id})\n",
	'p.json', 'p.json');

# ---- the same run twice -------------------------------------------------------------------

refused('the same file twice', "pgbench: error: i1.json: the same run as i1.json (run id $ids[0])\n",
	'i1.json', 'i2.json', 'i3.json', 'i1.json');
copy('i2.json', 'copy of i2.json') or die "copy: $!";
refused('a copy under another name', "pgbench: error: copy of i2.json: the same run as i2.json (run id $ids[1])\n",
	'i1.json', 'i2.json', 'i3.json', 'copy of i2.json');

# ---- tampered identities ------------------------------------------------------------------

sub tampered
{
	my ($name, $from, $edit) = @_;
	my $d = slurp_json($from);
	$edit->($d);
	write_file($name, JSON::PP->new->canonical->encode($d));
	return $name;
}
my $last = $file_of{2};
tampered('size4.json', $last, sub { $_[0]{rendezvous}{size} = 4; $_[0]{run_id} = 'f' x 32 });
refused('a member of another group size',
	qq{pgbench: error: size4.json: rendezvous.size: 4, but $file_of{0} gives rendezvous group "trio" 3 members\n},
	$file_of{0}, $file_of{1}, 'size4.json');
tampered('twice.json', $last, sub { $_[0]{rendezvous}{member} = 0; $_[0]{run_id} = 'e' x 32 });
refused('a member given twice',
	qq{pgbench: error: twice.json: rendezvous.member: member 0 of rendezvous group "trio" is in $file_of{0} already\n},
	$file_of{0}, $file_of{1}, 'twice.json');
tampered('badid.json', $last, sub { $_[0]{run_id} = 'XYZ' });
refused('a run id of another form',
	"pgbench: error: badid.json: run_id: expected a run id (32 lowercase hexadecimal digits)\n", 'badid.json');
tampered('member9.json', $last, sub { $_[0]{rendezvous}{member} = 9 });
refused('a member index beyond the group', "pgbench: error: member9.json: rendezvous.member: 9 is out of range (0 to 2)\n",
	'member9.json');
tampered('listtwice.json', 'p.json', sub { push @{ $_[0]{inputs} }, $_[0]{inputs}[0] });
refused('a merged report listing a run twice',
	"pgbench: error: listtwice.json: inputs[2].run_id: run $p->{inputs}[0]{run_id} is listed twice\n", 'listtwice.json');

# ---- reports without a run id (written before it) ----------------------------------------

# as older reports: no run_id member.  Duplicates among them cannot be
# found, except a rendezvous member given twice.
tampered("old$_.json", "i$_.json", sub { delete $_[0]{run_id} }) for 1 .. 3;
($rc, $out, $err) = pgbench([ '--merge-reports', 'old1.json', 'old2.json', 'old3.json', '--report-json=o.json' ]);
is($rc, 0, 'reports without a run id merge') or diag($err);
is_deeply([ map { $_->{run_id} } @{ slurp_json('o.json')->{inputs} } ], [ undef, undef, undef ],
	'... listed without a run id');
my $old_member = slurp_json('old1.json')->{rendezvous}{member};
refused('an old fleet report twice',
	qq{pgbench: error: old1.json: rendezvous.member: member $old_member of rendezvous group "trio" is in old1.json already\n},
	'old1.json', 'old2.json', 'old3.json', 'old1.json');
tampered('solo.json', 'i1.json', sub { delete $_[0]{run_id}; $_[0]{rendezvous} = undef });
($rc, $out, $err) = pgbench([ '--merge-reports', 'solo.json', 'solo.json' ]);
is($rc, 0, 'an old report of no fleet, twice: not detectable, merged (doc/fleet.md says so)');

# ---- a hostile announcement -------------------------------------------------------------
# Anyone who may connect may NOTIFY on a group's channel: a follower must
# refuse a payload that is not a start instant (it once spun there, deaf to
# SIGTERM), exit 1 with its message, and leave its report.  Two of a group
# of three wait (the leader never announces); the channel's key is the
# first key of the group's advisory locks.
{
	my (@h, @o, @e);
	for my $n (0 .. 1)
	{
		($o[$n], $e[$n]) = ('', '');
		push @h, IPC::Run::start(
			[ $pgbench, '-n', '-S', '-c', '1', '-t', '5', '--rendezvous=hostile:3',
				'--rendezvous-timeout=120', "--report-json=h$n.json" ],
			'<', \undef, '>', \$o[$n], '2>', \$e[$n], IPC::Run::timeout(180));
		# the second joins once the first holds slot 0: it is then the follower
		PgbTest::poll_until(sub {
			$node->psql(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid >= 2 AND granted})
			  == $n + 1 }, 60) or BAIL_OUT("member $n did not join");
	}
	my $key = $node->psql(q{SELECT DISTINCT classid FROM pg_locks WHERE locktype = 'advisory'});
	my $channel = sprintf('pgbench_rendezvous_%08x', $key);
	$node->psql(qq{NOTIFY $channel, 'not an instant'});
	$h[1]->finish;
	is($? >> 8, 1, 'a follower sent a hostile announcement: exit status 1');
	is($e[1], qq{pgbench: error: rendezvous "hostile": refused an announcement that is not a start instant\n},
		'... with its message alone');
	is(slurp_json('h1.json')->{outcome}, 'failed-to-start', '... and its report says it never started');
	$h[0]->signal('TERM');
	$h[0]->finish;
	is($? >> 8, 143, 'the leader still waiting ends on SIGTERM');
}

# ---- mixing groups and single runs --------------------------------------------------------

($rc, $out, $err) = pgbench([ '-n', '-S', '-c', '1', '-t', '20', '--report-json=single.json' ], env => \%env);
is($rc, 0, 'a run of no group');
($rc, $out, $err) = pgbench([ '--merge-reports', 'i1.json', 'i2.json', 'i3.json', 'single.json' ]);
is($rc, 0, 'a whole group and a run of no group merge');
like($out, qr/^number of transactions actually processed: 80\/80$/m, '... all counted');

($rc, $out, $err) = pgbench([ '--merge-partial', '-n', '-t', '1' ], env => \%env);
is($rc, 1, '--merge-partial without --merge-reports: exit status 1');
is($err, qq{pgbench: error: --merge-partial is only for --merge-reports\npgbench: hint: Try "pgbench --help" for more information.\n},
	'... says so');

done_testing();
