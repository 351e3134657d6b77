# metrics_listen.pl — --metrics-listen against a real run: scraped while the
# run lasts, the page is the Prometheus text format (OpenMetrics when
# asked), its counters grow between scrapes, the server's side is there,
# other paths and methods are refused, idle connections cannot starve a
# scraper (at most four at a time, let go after two seconds), the run's
# stdout stays pgbench's; a bad address or a port in use is an error
# before the run, a port out of 1..65535 too (no port of its low 16 bits,
# no port the system picks).  Before the first interval closes a scrape
# gets the families without samples, a valid document in both formats
# (an empty body is none: OpenMetrics wants "# EOF").
use strict;
use warnings;

use File::Temp qw(tempdir);
use IO::Socket::INET;
use IPC::Run ();
use PgbTest;
use Test::More;
use Time::HiRes ();

my $node = start_cluster();
my %env = %{ $node->env };
my $dir = tempdir('pgbmetrics_XXXXXX', TMPDIR => 1, CLEANUP => 1);
chdir $dir or die "cannot chdir to $dir: $!";

my ($rc, $out, $err) = pgbench([ '-i', '-s', '1', '-q' ], env => \%env);
is($rc, 0, 'initialized') or diag($err);

sub free_port
{
	my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => '127.0.0.1', LocalPort => 0)
	  or die "no socket: $!";
	my $port = $s->sockport;
	close $s;
	return $port;
}

# One HTTP request on a new connection: (status line, headers, body), or
# () when nothing listens.
sub scrape
{
	my ($port, $request) = @_;
	my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port, Timeout => 30)
	  or return ();
	print $s $request;
	local $/;
	my $reply = <$s> // '';
	close $s;
	my ($head, $body) = split /\r\n\r\n/, $reply, 2;
	my ($status, @headers) = split /\r\n/, $head // '';
	return ($status, join("\n", @headers), $body // '');
}

sub get { my ($port, $accept) = @_;
	return scrape($port, "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		  . ($accept ? "Accept: $accept\r\n" : '') . "\r\n"); }

# What makes body no valid document of the format (OpenMetrics when $om):
# a list of complaints, empty when it is one.  Each family's HELP and TYPE
# once, before its samples, its lines together; a sample's name its
# family's (counters: NAME_total, their family NAME in OpenMetrics and
# NAME_total in the text format); OpenMetrics ends with "# EOF".
sub format_errors
{
	my ($body, $om) = @_;
	my (@bad, %seen, %type, $family);
	if ($om)
	{
		push @bad, 'no "# EOF" at the end' unless $body =~ s/# EOF\n\z//;
		push @bad, '"# EOF" before the end' if $body =~ /^# EOF$/m;
	}
	for my $line (split /\n/, $body)
	{
		if ($line =~ /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/)
		{
			my ($what, $name, $rest) = ($1, $2, $3);
			push @bad, "$name: lines apart" if $seen{$name} && ($family // '') ne $name;
			push @bad, "$name: $what twice" if $seen{$name}{$what}++;
			push @bad, "$name: $what after samples" if $seen{$name}{sample};
			$type{$name} = $rest if $what eq 'TYPE';
			push @bad, "$name: counter family named _total in OpenMetrics"
			  if $om && $what eq 'TYPE' && $rest eq 'counter' && $name =~ /_total$/;
			$family = $name;
			next;
		}
		if ($line =~ /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{[a-z_]+="(?:[^"\\]|\\.)*"(?:,[a-z_]+="(?:[^"\\]|\\.)*")*\})? (?:-?[0-9.]+(?:e[-+]?\d+)?|NaN)$/)
		{
			my $name = $1;
			my $fam = $om && defined $family && ($type{$family} // '') eq 'counter' ? "${family}_total" : $family;
			push @bad, "$name: a sample outside its family" unless defined $fam && $name eq $fam;
			$seen{$family}{sample} = 1 if defined $family;
			next;
		}
		push @bad, "not a line of the format: $line";
	}
	push @bad, "$_: no TYPE" for grep { !$seen{$_}{TYPE} } keys %seen;
	return \@bad;
}

sub value_of
{
	my ($body, $series) = @_;
	return $body =~ /^\Q$series\E (\S+)$/m ? $1 : undef;
}

my $port = free_port();
my ($pout, $perr) = ('', '');
my $h = IPC::Run::start([ $ENV{PGBENCH}, '-n', '-S', '-c', '2', '-T', '8', '-P', '1',
		"--metrics-listen=127.0.0.1:$port" ], '>', \$pout, '2>', \$perr,
	init => sub { %ENV = (%ENV, %env) });

# the first page comes with the first interval
my @first = poll_until(sub {
	my @r = get($port);
	return @r && defined value_of($r[2], 'pgbench_elapsed_seconds') ? [@r] : undef;
}, 60);
my ($status, $headers, $body) = @{ $first[0] // [] };
like($status // '', qr{^HTTP/1\.1 200 OK$}, 'a scrape during the run');
like($headers // '', qr{^Content-Type: text/plain; version=0\.0\.4; charset=utf-8$}m,
	'the Prometheus text format');
my $n1 = value_of($body, 'pgbench_transactions_total{outcome="processed"}');
ok(defined $n1 && $n1 > 0, "transactions processed so far: " . ($n1 // 'none'));
like($body, qr/^# TYPE pgbench_transactions_total counter$/m, 'counters are typed');
like($body, qr/^pgbench_latency_seconds\{quantile="0\.99"\} [0-9.e-]+$/m, 'the interval\'s p99');
like($body, qr/^pgbench_server_database_xact_commit_total \d+$/m, 'the server\'s counters');
like($body, qr/^pgbench_client_cpu_seconds_total\{mode="user"\} /m, 'the client\'s CPU');
my @bad = grep { !/^#/ && !/^[a-z_]+(\{[a-z_]+="(?:[^"\\]|\\.)*"\})? (?:-?[0-9.]+(?:e[-+]?\d+)?|NaN)$/ } split /\n/, $body;
is_deeply(\@bad, [], 'every sample line parses');
is_deeply(format_errors($body, 0), [], 'a valid document of the text format');

# idle connections: four fill the house, the fifth waits, and is served
# once the idle ones are let go
my @idle = map { IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port) } 1 .. 4;
ok(!grep({ !defined } @idle), 'four idle connections');
my ($st5, undef, $b5) = get($port);
like($st5 // '', qr/ 200 OK$/, 'a scraper behind four idle connections is served');
close $_ for @idle;

Time::HiRes::sleep(1.2);
my ($st2, undef, $body2) = get($port);
my $n2 = value_of($body2, 'pgbench_transactions_total{outcome="processed"}') // -1;
cmp_ok($n2, '>=', $n1, "the counter grows ($n1 -> $n2)");
cmp_ok(value_of($body2, 'pgbench_elapsed_seconds'), '>', value_of($body, 'pgbench_elapsed_seconds'),
	'the page follows the run');

my ($sto, $ho, $bo) = get($port, 'application/openmetrics-text; version=1.0.0');
like($ho // '', qr{^Content-Type: application/openmetrics-text; version=1\.0\.0; charset=utf-8$}m,
	'OpenMetrics when asked');
like($bo // '', qr/^# TYPE pgbench_transactions counter$/m, 'its counter families lose _total');
like($bo // '', qr/\n# EOF\n\z/, 'and it ends with # EOF');
is_deeply(format_errors($bo // '', 1), [], 'a valid OpenMetrics document');
my ($s404) = scrape($port, "GET /nope HTTP/1.1\r\n\r\n");
like($s404 // '', qr/ 404 Not Found$/, 'another path: 404');
my ($s405) = scrape($port, "POST /metrics HTTP/1.1\r\n\r\n");
like($s405 // '', qr/ 405 Method Not Allowed$/, 'another method: 405');

$h->finish;
is($h->result(0), 0, 'the run ends well') or diag($perr);
like($pout, qr/^tps = [0-9.]+ \(without initial connection time\)$/m, 'stdout is pgbench\'s');
unlike($pout, qr/metrics|pgbench_/, 'nothing of the metrics on stdout');
is(scalar(() = scrape($port, "GET /metrics HTTP/1.1\r\n\r\n")), 0, 'nothing listens after the run');

# before the first interval closes (-P 3600: not within this test), a
# scrape gets the families without samples, valid in both formats; the
# run is then stopped by SIGINT (exit 130)
$port = free_port();
($pout, $perr) = ('', '');
$h = IPC::Run::start([ $ENV{PGBENCH}, '-n', '-S', '-c', '1', '-T', '3600', '-P', '3600',
		"--metrics-listen=127.0.0.1:$port" ], '>', \$pout, '2>', \$perr,
	init => sub { %ENV = (%ENV, %env) });
my @early = poll_until(sub { my @r = get($port); return @r ? [@r] : undef; }, 60);
($status, $headers, $body) = @{ $early[0] // [] };
like($status // '', qr{^HTTP/1\.1 200 OK$}, 'a scrape before the first interval: 200');
like($headers // '', qr{^Content-Length: [1-9]\d*$}m, '... with a body');
like($body // '', qr/^# TYPE pgbench_transactions_total counter$/m, '... the families');
unlike($body // '', qr/^[^#]/m, '... no sample yet');
is_deeply(format_errors($body // '', 0), [], '... a valid document of the text format');
($sto, $ho, $bo) = get($port, 'application/openmetrics-text; version=1.0.0');
like($ho // '', qr{^Content-Type: application/openmetrics-text; version=1\.0\.0; charset=utf-8$}m,
	'... OpenMetrics when asked');
like($bo // '', qr/^# TYPE pgbench_transactions counter\n(?:.*\n)*# EOF\n\z/m, '... its families, then # EOF');
is_deeply(format_errors($bo // '', 1), [], '... a valid OpenMetrics document');
$h->signal('INT');
$h->finish;
is($h->result(0), 130, 'the run stopped by SIGINT') or diag($perr);

# errors before the run
($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '1', '--metrics-listen=nohostport' ], env => \%env);
is($rc, 1, 'a malformed address: exit 1');
like($err, qr/^pgbench: error: invalid address "nohostport": expected HOST:PORT$/m, 'says why');
# a port out of range was taken modulo 65536 (99999: 34463), 0 gave a
# random one: both refused, before the run
for my $bad ('127.0.0.1:99999', '127.0.0.1:65536', '127.0.0.1:0', '[::1]:-1', '127.0.0.1:80x')
{
	($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '1', "--metrics-listen=$bad" ], env => \%env);
	is($rc, 1, "port of $bad: exit 1");
	is($err, "pgbench: error: invalid address \"$bad\": the port must be a number from 1 to 65535\n",
		'... says why, in pgbench\'s form');
	is($out, '', '... no run');
}
($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '1', '--metrics-listen=nosuchhost.invalid:9187' ], env => \%env);
is($rc, 1, 'a host that does not resolve: exit 1');
like($err, qr/^pgbench: error: could not resolve "nosuchhost\.invalid:9187": /m, 'says why');
my $taken = IO::Socket::INET->new(Listen => 1, LocalAddr => '127.0.0.1', LocalPort => 0) or die;
($rc, $out, $err) = pgbench([ '-n', '-S', '-t', '1', '--metrics-listen=127.0.0.1:' . $taken->sockport ],
	env => \%env);
is($rc, 1, 'a port in use: exit 1');
like($err, qr/^pgbench: error: could not listen on "127\.0\.0\.1:\d+": Address already in use$/m,
	'says why');
is($out, '', 'no run');

done_testing();
