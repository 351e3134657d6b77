# delayproxy.pl — a Unix-socket proxy that holds every chunk it passes on
# for a fixed delay, each way: a slow network between a client and a
# server, for the diagnosis scenarios (scripts/diag-scenarios.sh, network)
# and t/diagnose.pl.  A process of its own, run until it is killed.
#
#   perl delayproxy.pl LISTEN TARGET DELAY_MS [STATS_FILE]
#
# LISTEN is a listening socket inherited from the caller (a number: its
# file descriptor, made there so that it accepts before this process even
# runs, as PgbTest::start_delay_proxy does) or a path to listen on (made
# here; a stale socket file there is removed).  Every connection accepted
# is passed on to the Unix socket TARGET, byte for byte.
#
# The delay is honest: a chunk read at time t is written on at t +
# DELAY_MS, not earlier, whatever else is going on.  One event loop
# serves every connection: each direction of each pair keeps a queue of
# (due time, bytes) in arrival order (the delay is the same for every
# chunk, so arrival order is due order and the byte stream keeps its
# order), select's timeout is the earliest due time, and a peer that
# cannot take a chunk yet (its socket buffer full) holds back only its
# own queue.  An end of stream is delayed like data: the pair is closed
# when the marker comes due.
#
# On SIGTERM or SIGINT it writes to STATS_FILE (when given) one line:
#   chunks N delay_avg_ms X delay_max_ms Y late_avg_ms Z
# the number of chunks forwarded, the delay each actually had (from the
# read to the end of its write) and how late that was after its due time,
# so a caller can check that the delay injected was the one asked for.
use strict;
use warnings;

use Errno qw(EAGAIN EWOULDBLOCK EINTR);
use IO::Socket::UNIX;
use POSIX ();
use Socket qw(SOCK_STREAM);
use Time::HiRes ();

my ($where, $target, $delay_ms, $stats_file) = @ARGV;
die "usage: delayproxy.pl LISTEN TARGET DELAY_MS [STATS_FILE]\n"
  unless defined $delay_ms && $delay_ms =~ /^\d+(\.\d+)?$/;
my $delay = $delay_ms / 1000;

my $listen;
if ($where =~ /^\d+$/)
{
	$listen = IO::Socket::UNIX->new_from_fd($where, 'r') or die "delayproxy: fd $where: $!\n";
}
else
{
	unlink $where;
	$listen = IO::Socket::UNIX->new(Type => SOCK_STREAM, Local => $where, Listen => 512)
	  or die "delayproxy: cannot listen on $where: $!\n";
}
$listen->blocking(0);
# Wake up on time, whatever else the machine runs (a network's delay does
# not grow with the host's load): a real-time priority when allowed
# (sched_setscheduler SCHED_FIFO 10: root, or CAP_SYS_NICE; it sleeps
# between chunks, so it takes little from the others), and a timer slack
# of 1 us instead of 50 (prctl PR_SET_TIMERSLACK).  Measured on a 2-CPU
# virtual machine at a load of 15: chunks 0.06 ms late on average with
# both, 0.2 to 0.3 ms without.  Either call may fail, or be unknown on
# this machine: the proxy then runs as any process does, and its stats
# file says how late that made it.
my %syscalls = (x86_64 => [ 144, 157 ], aarch64 => [ 119, 167 ]);
if (my $nr = $syscalls{ (POSIX::uname())[4] })
{
	my $param = pack('i', 10);
	syscall($nr->[0], 0, 1, $param);
	syscall($nr->[1], 29, 1000, 0, 0, 0);
}
# a peer gone while we write is a closed pair, not the end of the proxy
$SIG{PIPE} = 'IGNORE';

# One entry per socket, by file descriptor:
#   sock   the handle
#   peer   the other socket's file descriptor
#   queue  chunks due to be written TO this socket: [due time, bytes,
#          time read]; bytes undef is the peer's end of stream
#   off    how much of the head chunk is already written
#   eof    the socket's own end of stream was read (no more reading)
my %conn;
my ($chunks, $delay_sum, $delay_max, $late_sum) = (0, 0, 0, 0);
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };

# close_pair($fd): both sockets of a pair, once
sub close_pair
{
	my ($fd) = @_;
	my $c = delete $conn{$fd} or return;
	my $p = delete $conn{ $c->{peer} };
	close $c->{sock};
	close $p->{sock} if $p;
	return;
}

# accept_all: every connection waiting, each paired with a new one to
# the target (a Unix socket connects at once, or not at all)
sub accept_all
{
	for (;;)
	{
		my $c = $listen->accept;
		if (!$c)
		{
			# out of descriptors, say: wait rather than spin (at a
			# real-time priority) on a socket that stays readable
			Time::HiRes::sleep(0.01) unless $! == EAGAIN || $! == EWOULDBLOCK || $! == EINTR;
			return;
		}
		my $t = IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => $target);
		if (!$t)
		{
			close $c;
			next;
		}
		$_->blocking(0) for $c, $t;
		my ($cf, $tf) = (fileno($c), fileno($t));
		$conn{$cf} = { sock => $c, peer => $tf, queue => [], off => 0, eof => 0 };
		$conn{$tf} = { sock => $t, peer => $cf, queue => [], off => 0, eof => 0 };
	}
	return;
}

# read_from($fd, $now): what arrived, queued for the peer at $now + delay
sub read_from
{
	my ($fd, $now) = @_;
	my $c = $conn{$fd} or return;
	my $p = $conn{ $c->{peer} } or return;
	my $buf;
	my $n = sysread($c->{sock}, $buf, 65536);
	return if !defined $n && ($! == EAGAIN || $! == EWOULDBLOCK || $! == EINTR);
	if ($n)
	{
		push @{ $p->{queue} }, [ $now + $delay, $buf, $now ];
		return;
	}
	# end of stream or an error: delayed like data
	$c->{eof} = 1;
	push @{ $p->{queue} }, [ $now + $delay, undef, $now ];
	return;
}

# write_due($fd): the chunks due by now written to this socket, in order,
# until one does not fit; returns 1 when it is blocked on a full buffer
sub write_due
{
	my ($fd) = @_;
	my $c = $conn{$fd} or return 0;
	while (my $h = $c->{queue}[0])
	{
		my $now = Time::HiRes::time();
		return 0 if $h->[0] > $now;
		if (!defined $h->[1])
		{
			close_pair($fd);
			return 0;
		}
		my $len = length($h->[1]) - $c->{off};
		my $w = syswrite($c->{sock}, $h->[1], $len, $c->{off});
		if (!defined $w)
		{
			return 1 if $! == EAGAIN || $! == EWOULDBLOCK || $! == EINTR;
			close_pair($fd);
			return 0;
		}
		$c->{off} += $w;
		return 1 if $w < $len;
		my $done = Time::HiRes::time();
		$chunks++;
		$delay_sum += $done - $h->[2];
		$late_sum += $done - $h->[0];
		$delay_max = $done - $h->[2] if $done - $h->[2] > $delay_max;
		shift @{ $c->{queue} };
		$c->{off} = 0;
	}
	return 0;
}

sub write_stats
{
	return unless defined $stats_file;
	open my $fh, '>', $stats_file or return;
	printf $fh "chunks %d delay_avg_ms %.3f delay_max_ms %.3f late_avg_ms %.3f\n", $chunks,
	  $chunks ? 1000 * $delay_sum / $chunks : 0, 1000 * $delay_max,
	  $chunks ? 1000 * $late_sum / $chunks : 0;
	close $fh;
	return;
}

until ($stop)
{
	# write what is due; gather what to wait for
	my ($rbits, $wbits) = ('', '');
	vec($rbits, fileno($listen), 1) = 1;
	my $next;
	for my $fd (keys %conn)
	{
		next unless $conn{$fd};
		my $blocked = write_due($fd);
		my $c = $conn{$fd} or next;
		vec($rbits, $fd, 1) = 1 unless $c->{eof};
		if ($blocked)
		{
			vec($wbits, $fd, 1) = 1;
		}
		elsif (my $h = $c->{queue}[0])
		{
			$next = $h->[0] if !defined $next || $h->[0] < $next;
		}
	}
	# sleep until the earliest due time (no busy wait: a network's delay
	# costs the host no CPU, and neither should this one's)
	my $timeout;
	if (defined $next)
	{
		$timeout = $next - Time::HiRes::time();
		$timeout = 0 if $timeout < 0;
	}
	my ($rout, $wout) = ($rbits, $wbits);
	my $n = select($rout, $wout, undef, $timeout);
	next if $n <= 0;    # a timer, or a signal
	my $now = Time::HiRes::time();
	accept_all() if vec($rout, fileno($listen), 1);
	for my $fd (keys %conn)
	{
		read_from($fd, $now) if $conn{$fd} && vec($rout, $fd, 1);
	}
}
write_stats();
exit 0;
