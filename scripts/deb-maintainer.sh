#!/usr/bin/env bash
# deb-maintainer.sh — make the Debian package yours before you build it for
# others: sets the Maintainer field of debian/control and the signature of
# the newest debian/changelog entry to "NAME <EMAIL>" (as dch would).  The
# tree's own value says that no one has taken the package up yet.
#   bash scripts/deb-maintainer.sh "Jane Doe <jane@example.org>"
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
who=${1:-}
if ! [[ "$who" =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]]; then
	echo 'usage: deb-maintainer.sh "NAME <EMAIL>"' >&2
	exit 2
fi
esc=$(printf '%s' "$who" | sed 's/[\\&|]/\\&/g')
sed -i "s|^Maintainer: .*|Maintainer: $esc|" "$top/debian/control"
# the first signature line: " -- NAME <EMAIL>  DATE"
sed -i "0,/^ -- .*>  /s|^ -- .*>  | -- $esc  |" "$top/debian/changelog"
grep -m1 '^Maintainer:' "$top/debian/control"
grep -m1 '^ -- ' "$top/debian/changelog"
