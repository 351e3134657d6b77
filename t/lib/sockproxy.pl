# sockproxy.pl — a Unix-socket proxy for the connection fault tests, run as
# a process of its own (PgbTest::start_proxy forks and execs it, so it
# shares nothing with the test: no cluster object, no temporary directory
# to clean, no END block).
#
#   perl sockproxy.pl LISTEN_FD TARGET FORWARD ACCEPT_PAUSE
#
# LISTEN_FD is a listening socket inherited from the test (made there, so
# the socket accepts connections before this process even runs).  The
# first FORWARD connections accepted are passed on, byte for byte, to the
# Unix socket TARGET; every later one is held open without a word (a
# server that accepts and never answers).  ACCEPT_PAUSE seconds are slept
# after each accept, so that a small listen queue overflows under a crowd.
# It runs until it is killed.
use strict;
use warnings;

use IO::Select;
use IO::Socket::UNIX;
use Time::HiRes ();

my ($fd, $target, $forward, $pause) = @ARGV;
die "usage: sockproxy.pl LISTEN_FD TARGET FORWARD ACCEPT_PAUSE\n" unless defined $pause;
my $listen = IO::Socket::UNIX->new_from_fd($fd, 'r') or die "sockproxy: fd $fd: $!\n";
# a peer gone while we write is a closed pair, not the end of the proxy
$SIG{PIPE} = 'IGNORE';

my $sel = IO::Select->new($listen);
my (%peer, @held);

# close both ends of a pair, once; later handles of the same batch that
# were one of them are skipped
sub close_pair
{
	my ($s) = @_;
	my $o = delete $peer{$s};
	return unless $o;
	delete $peer{$o};
	$sel->remove($s, $o);
	close $s;
	close $o;
}

for (;;)
{
	for my $s ($sel->can_read)
	{
		if ($s == $listen)
		{
			my $c = $listen->accept or next;
			Time::HiRes::sleep($pause) if $pause > 0;
			if ($forward-- > 0)
			{
				my $t = IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => $target);
				if (!$t)
				{
					close $c;
					next;
				}
				@peer{ $c, $t } = ($t, $c);
				$sel->add($c, $t);
			}
			else
			{
				push @held, $c;
			}
			next;
		}
		next unless $peer{$s};    # closed with its peer earlier in this batch
		my $buf;
		my $n = sysread($s, $buf, 65536);
		if (!$n)
		{
			close_pair($s);
			next;
		}
		my $off = 0;
		while ($off < $n)
		{
			my $w = syswrite($peer{$s}, $buf, $n - $off, $off);
			if (!$w)
			{
				close_pair($s);
				last;
			}
			$off += $w;
		}
	}
}
