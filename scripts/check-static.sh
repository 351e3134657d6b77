#!/usr/bin/env bash
# check-static.sh — static analysis of src/: cppcheck (warning, performance,
# portability) and clang-tidy (the checks in .clang-tidy, over the meson
# build's compile_commands.json).  Known findings are listed, with their
# reasons, in .ci/cppcheck-suppressions and .ci/clang-tidy-suppressions;
# any other finding is printed and the script exits 1.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
jobs=$(nproc 2>/dev/null || echo 2)

# ---- cppcheck ----------------------------------------------------------------
if command -v cppcheck >/dev/null; then
	if cppcheck --quiet --enable=warning,performance,portability --std=c11 \
		--error-exitcode=1 --inline-suppr --suppressions-list=.ci/cppcheck-suppressions \
		-I include -j "$jobs" src/; then
		echo "check-static: cppcheck ok"
	else
		echo "check-static: cppcheck FAILED"
		status=1
	fi
else
	echo "check-static: cppcheck is not installed" >&2
	status=1
fi

# ---- clang-tidy ----------------------------------------------------------------
# It needs the compilation database and the generated lexer/grammar headers.
if command -v clang-tidy >/dev/null; then
	[ -f build/build.ninja ] || meson setup build >/dev/null
	meson compile -C build >/dev/null || { echo "check-static: the build failed"; exit 1; }
	out=$(mktemp)
	find src -name "*.c" | sort | xargs -P "$jobs" -n 4 clang-tidy -p build --quiet >"$out" 2>/dev/null
	perl -e '
		my ($supfile) = @ARGV[0];
		my %sup;
		open my $s, "<", $supfile or die "$supfile: $!";
		while (<$s>)
		{
			s/#.*//;
			my ($file, $check) = split;
			$sup{"$file $check"} = 0 if $check;
		}
		my (%seen, $bad);
		while (<STDIN>)
		{
			s/\e\[[0-9;]*m//g;
			next unless m{^(\S+?):(\d+):\d+: (?:warning|error): (.*) \[([^\],]+)};
			my ($path, $line, $msg, $check) = ($1, $2, $3, $4);
			$path =~ s{^.*?/(src|include)/}{$1/};
			$path =~ s{/[^/]+/\.\./}{/}g;
			next if $seen{"$path:$line $check"}++;
			if (exists $sup{"$path $check"})
			{
				$sup{"$path $check"}++;
				next;
			}
			print "$path:$line: $msg [$check]\n";
			$bad++;
		}
		for (sort keys %sup)
		{
			print "check-static: unused suppression in $supfile: $_\n" unless $sup{$_};
		}
		exit($bad ? 1 : 0);
	' .ci/clang-tidy-suppressions <"$out"
	rc=$?
	rm -f "$out"
	if [ $rc -eq 0 ]; then
		echo "check-static: clang-tidy ok"
	else
		echo "check-static: clang-tidy FAILED"
		status=1
	fi
else
	echo "check-static: clang-tidy is not installed" >&2
	status=1
fi

exit $status
