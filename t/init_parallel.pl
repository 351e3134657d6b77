# init_parallel.pl — parallel initialization, -i -j N (our extension).
#
# Each case runs ours with -j 1 (today's sequential initialization, whose
# likeness to pgbench t/init.pl checks) on database "seq" and with -j N on
# "par", then compares what a user can see: the messages and progress lines
# (timings masked), the catalogs (relations, columns, constraints, indexes
# and which parent index each partition's index is attached to), every
# table's rows (count and digest), how frozen each table is: tuples with
# the frozen bits, pages all-visible and all-frozen in the visibility map,
# pg_class.relallvisible; and the statistics of every table, the
# partitioned parent too: relpages, reltuples, pg_statistic and pg_stats
# rows (own and inherited), how many times it was vacuumed and analyzed.
# Pages that concurrent loading into a partition left empty (new, never
# initialized) are counted apart: vacuum leaves them out of the map.
# -j 1 must send the same statements as no -j; -j N no server setting.
#
# synchronous_commit is on here: with it off, whether vacuum may mark a page
# all-visible depends on the WAL writer having flushed the commit (a hint
# bit rule), which would make the visibility map differ between two runs of
# the same binary.
use strict;
use warnings;

use PgbTest;
use Test::More;

# many short commands: fork and exec them without IPC::Run
$PgbTest::FAST_SPAWN = 1;

my $node = start_cluster(settings => "autovacuum = off\nsynchronous_commit = on\n"
	  . "log_statement = 'all'\nlog_line_prefix = '%d|'\n");
my %env = %{ $node->env };
for my $db (qw(seq par))
{
	$node->psql("create database $db");
	$node->psql('create extension pageinspect', dbname => $db);
	$node->psql('create extension pg_visibility', dbname => $db);
}

sub mask
{
	my ($s) = @_;
	$s =~ s/\d+\.\d\d s\b/X s/g;
	return $s;
}

my $schema_sql = <<'SQL';
select string_agg(line, E'\n' order by line) from (
  select format('rel %s kind=%s persistence=%s options=%s partkey=%s bound=%s',
           c.relname, c.relkind, c.relpersistence, c.reloptions,
           coalesce(pg_get_partkeydef(c.oid), '-'),
           coalesce(pg_get_expr(c.relpartbound, c.oid), '-')) as line
    from pg_class c
   where c.relname like 'pgbench%' and c.relnamespace = 'public'::regnamespace
  union all
  select format('col %s.%s %s %s notnull=%s', c.relname, a.attnum, a.attname,
           format_type(a.atttypid, a.atttypmod), a.attnotnull)
    from pg_attribute a join pg_class c on c.oid = a.attrelid
   where c.relname like 'pgbench%' and c.relkind in ('r', 'p')
     and a.attnum > 0 and not a.attisdropped
  union all
  select format('con %s %s %s parent=%s', conrelid::regclass, conname, pg_get_constraintdef(oid),
           (select p.conname from pg_constraint p where p.oid = c.conparentid))
    from pg_constraint c where conrelid::regclass::text like 'pgbench%'
  union all
  select format('idx %s valid=%s parent=%s', pg_get_indexdef(indexrelid), indisvalid,
           (select inhparent::regclass from pg_inherits where inhrelid = indexrelid))
    from pg_index where indrelid::regclass::text like 'pgbench%'
) s
SQL

# Per ordinary table: rows, digest, frozen tuples, pages all-visible and
# all-frozen (plus new pages, which vacuum leaves out), relallvisible
# against the non-new pages, and the row estimate.
sub state_of
{
	my ($db) = @_;
	my @parts = ($node->query($schema_sql, dbname => $db) // '');
	my $leaves = $node->query(
		"select string_agg(relname, ' ' order by relname) from pg_class "
		  . "where relname like 'pgbench%' and relkind = 'r' "
		  . "and relnamespace = 'public'::regnamespace", dbname => $db);
	for my $t (split / /, $leaves // '')
	{
		push @parts, "$t " . $node->query(<<"SQL", dbname => $db);
with pages as (select p::int as p, (page_header(get_raw_page('$t', p::int))).upper = 0 as new
                 from generate_series(0, pg_relation_size('$t') / 8192 - 1) p),
     tuples as (select count(*) filter (where t_infomask & 768 = 768) as frozen, count(*) as n
                  from pages, heap_page_items(get_raw_page('$t', p)) where not new),
     vm as (select count(*) filter (where v.all_visible) as vis, count(*) filter (where v.all_frozen) as froz
              from pages join pg_visibility_map('$t') v on v.blkno = pages.p where not new)
select (select count(*) || ' rows, digest ' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '-')
          from $t t)
    || ', frozen tuples ' || frozen || '/' || n
    || ', used pages all-visible: ' || case vis when used then 'all' when 0 then 'none' else 'some' end
    || ', all-frozen: ' || case froz when used then 'all' when 0 then 'none' else 'some' end
    || ', relallvisible covers them: ' || (relallvisible = used)::text
    || ', reltuples ' || reltuples
  from tuples, vm, (select count(*) filter (where not new) as used from pages) u, pg_class
 where relname = '$t'
SQL
	}
	push @parts, $node->query(<<'SQL', dbname => $db) // '';
select string_agg(format('stats %s relpages %s reltuples %s pg_statistic %s/%s pg_stats %s/%s vacuums %s analyzes %s',
         c.relname, case when c.relkind = 'r' then (c.relpages = pg_relation_size(c.oid) / 8192)::text
                         else c.relpages::text end, c.reltuples,
         (select count(*) from pg_statistic s where s.starelid = c.oid and not s.stainherit),
         (select count(*) from pg_statistic s where s.starelid = c.oid and s.stainherit),
         (select count(*) from pg_stats s where s.tablename = c.relname and not s.inherited),
         (select count(*) from pg_stats s where s.tablename = c.relname and s.inherited),
         u.vacuum_count, u.analyze_count), E'\n' order by c.relname)
  from pg_class c left join pg_stat_user_tables u on u.relid = c.oid
 where c.relname like 'pgbench%' and c.relkind in ('r', 'p') and c.relnamespace = 'public'::regnamespace
SQL
	return join("\n", @parts);
}

# state_of($db) once the statistics of its last run have arrived: below
# server 15 a separate collector process receives them some time after the
# run ends, so the vacuum and analyze counts of $db are waited for until
# the state equals that of $like (for 30 s at most); from 15 on they are
# there when the run ends.
sub settled_state
{
	my ($db, $like) = @_;
	return state_of($db) if $node->version_num >= 150000;
	my $want = state_of($like);
	return poll_until(sub { my $s = state_of($db); $s eq $want ? $s : undef }, 30) // state_of($db);
}

sub log_size { return -s "$node->{base}/server.log"; }

# The statements database $db received since the log had $from bytes.
sub statements_since
{
	my ($from, $db) = @_;
	my $log = slurp("$node->{base}/server.log");
	my @lines = grep { /^\Q$db\E\|/ } split /\n/, substr($log, $from);
	s/^\Q$db\E\|// for @lines;
	return join("\n", @lines);
}

# Runs ours with -j 1 and with -j $jobs; compares all.
sub case
{
	my ($name, $jobs, $args) = @_;
	my ($rc_s, $out_s, $err_s) = pgbench([ '-j', '1', @$args, 'seq' ], env => \%env);
	my ($rc_p, $out_p, $err_p) = pgbench([ '-j', $jobs, @$args, 'par' ], env => \%env);
	is($rc_s, 0, "$name -j 1: exit 0");
	is($rc_p, 0, "$name -j $jobs: exit 0");
	is($out_p, $out_s, "$name -j $jobs: stdout like -j 1");
	is(mask($err_p), mask($err_s), "$name -j $jobs: messages and progress lines like -j 1")
	  or diag("-j $jobs:\n$err_p\n-j 1:\n$err_s");
	is(settled_state('par', 'seq'), state_of('seq'), "$name -j $jobs: database like -j 1");
	return mask($err_p);
}

# ---- -j 1 is today's initialization: the same statements ------------------------

{
	my $from = log_size();
	my @args = ('-i', '-s', '2', '--partitions', '2');
	my ($rc_s) = pgbench([ @args, 'seq' ], env => \%env);
	my ($rc_p) = pgbench([ '-j', '1', @args, 'par' ], env => \%env);
	ok(poll_until(sub { statements_since($from, 'par') =~ /primary key/ }), '-j 1: statements logged');
	sleep 1;
	is(statements_since($from, 'par'), statements_since($from, 'seq'), '-j 1: the same SQL as without -j');
	is(settled_state('par', 'seq'), state_of('seq'), '-j 1: the same database');
}

# ---- g and G, plain and partitioned, -j 2 and 3 -------------------------------------

case('g', 2, [ '-i', '-s', '2' ]);
case('g', 3, [ '-i', '-s', '3' ]);
case('G', 2, [ '-i', '-I', 'dtGvp', '-s', '2' ]);
# the progress lines are pgbench's, one per 100000 rows of the whole table
my $err = case('g, 2 range partitions', 2, [ '-i', '-s', '2', '--partitions', '2' ]);
is(join("\n", grep { /tuples/ } split /\n/, $err),
	"100000 of 200000 tuples (50%) done (elapsed X s, remaining X s)\n"
	  . "200000 of 200000 tuples (100%) done (elapsed X s, remaining X s)",
	'g, partitions, -j 2: one progress line per 100000 rows of the whole table');
case('g, 3 range partitions', 3, [ '-i', '-s', '2', '--partitions', '3', '--partition-method=range' ]);
case('g, 3 hash partitions', 2, [ '-i', '-s', '2', '--partitions', '3', '--partition-method=hash' ]);
case('G, 3 hash partitions, foreign keys', 3,
	[ '-i', '-I', 'dtGvpf', '-s', '2', '--partitions', '3', '--partition-method=hash' ]);
case('g without v', 2, [ '-i', '-I', 'dtg', '-s', '2' ]);
# -q: the last line only
$err = case('g without v, partitions, quiet', 5, [ '-i', '-I', 'dtg', '-q', '-s', '2', '--partitions', '2' ]);
like($err, qr/^200000 of 200000 tuples \(100%\) done/m, 'quiet -j 5: the last line');

# 17 on names the table in the line
{
	my ($rc, $out, $e) = pgbench([ '--compat=19', '-j', '2', '-i', '-s', '2', '-I', 'dtg', '--partitions', '2', 'par' ],
		env => \%env);
	is($rc, 0, 'compat 19 -j 2: exit 0');
	is(join("\n", grep { /of pgbench_accounts done/ } split /\n/, mask($e)),
		"100000 of 200000 tuples (50%) of pgbench_accounts done (elapsed X s, remaining X s)\n"
		  . "200000 of 200000 tuples (100%) of pgbench_accounts done (elapsed X s, remaining X s)",
		'compat 19 -j 2: the lines name the table');
}

# ---- the statements of -j 2 -----------------------------------------------------------

# An ordinary pgbench_accounts: loaded as with -j 1, COPY FREEZE in the
# truncating transaction, after one question about the table's kind.
{
	my $from = log_size();
	my ($rc_s) = pgbench([ '-j', '1', '-i', '-I', 'dtg', '-s', '2', 'seq' ], env => \%env);
	my ($rc_p) = pgbench([ '-j', '2', '-i', '-I', 'dtg', '-s', '2', 'par' ], env => \%env);
	is($rc_p, 0, 'g -j 2, ordinary table: exit 0');
	ok(poll_until(sub { statements_since($from, 'par') =~ /commit/ }), 'g -j 2: statements logged');
	sleep 1;
	my $par = statements_since($from, 'par');
	ok($par =~ s/^LOG:  execute <unnamed>: SELECT relkind FROM pg_catalog\.pg_class WHERE oid=\$1::pg_catalog\.regclass\n^DETAIL:  [Pp]arameters: \$1 = 'pgbench_accounts'\n//m,
		'g -j 2: asks whether pgbench_accounts is partitioned');
	is($par, statements_since($from, 'seq'), 'g -j 2, ordinary table: then the statements of -j 1');
	# COPY FREEZE from server 14 on
	my $with = $node->version_num >= 140000 ? ' with \(freeze on\)' : '';
	like($par, qr/^LOG:  statement: copy pgbench_accounts from stdin$with\nLOG:  statement: commit$/m,
		'g -j 2: pgbench_accounts by COPY' . ($with ? ' FREEZE' : ''));
}

# A partitioned one: each partition vacuumed (concurrently), then the
# parent analyzed, which analyzes the partitions too; no server setting.
{
	my $from = log_size();
	my ($rc) = pgbench([ '-j', '2', '-i', '-s', '1', '--partitions', '2', 'par' ], env => \%env);
	is($rc, 0, 'partitions -j 2: exit 0');
	ok(poll_until(sub { statements_since($from, 'par') =~ /alter table pgbench_accounts add primary key/ }),
		'partitions -j 2: statements logged');
	sleep 1;
	my @vacuum = sort grep { /vacuum|analyze/ } split /\n/, statements_since($from, 'par');
	is(join("\n", @vacuum),
		join("\n", map { "LOG:  statement: $_" } 'analyze pgbench_accounts',
			'vacuum "pgbench_accounts_1"', 'vacuum "pgbench_accounts_2"', 'vacuum analyze pgbench_branches',
			'vacuum analyze pgbench_history', 'vacuum analyze pgbench_tellers'),
		'partitions -j 2: the partitions vacuumed, the parent analyzed');
	unlike(statements_since($from, 'par'), qr/\bset\b|set_config/i, '-j 2 changes no server setting');
}

# ---- failures: one message, pgbench's wording ---------------------------------------

{
	$node->query('drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers',
		dbname => $_) for qw(seq par);
	my ($rc_s, undef, $err_s) = pgbench([ '-i', '-I', 'v', 'seq' ], env => \%env);
	my ($rc_p, undef, $err_p) = pgbench([ '-j', '3', '-i', '-I', 'v', 'par' ], env => \%env);
	is($rc_p, 1, 'v without tables -j 3: exit 1');
	is(scalar(() = $err_p =~ /query failed/g), 1, 'v without tables -j 3: one failure reported');
	like($err_p, qr/^pgbench: error: query failed: ERROR:  relation "pgbench_\w+" does not exist\npgbench: detail: Query was: vacuum analyze pgbench_\w+$/m,
		'v without tables -j 3: pgbench\'s two lines');
}

$node->stop;
done_testing();
