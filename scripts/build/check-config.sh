#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-config.sh DOTCONFIG TREE FRAGMENT...: fail when an option a fragment
# asks for is not in the final .config with that value. merge_config.sh only
# warns, and olddefconfig silently drops options whose dependencies are unmet.
# On any tree but the whole series (the unpatched base, a commit within the
# series), options the tree does not define (no Kconfig entry in TREE) are
# reported and allowed, so every build uses the same fragments.
. "$(dirname "$0")/../lib.sh"

dotconfig=$1 tree=$2
shift 2
partial_tree=1
[ "$(cd "$tree" && pwd -P)" = "$(cd "$BST_SERIES_TREE" && pwd -P)" ] && partial_tree=0

# Is CONFIG_NAME defined by some Kconfig file of the tree?
defined_in_tree() {
	grep -rqE --include='Kconfig*' "^[[:space:]]*(menu)?config ${1#CONFIG_}\b" "$tree"
}
# Normalise both sides to NAME=VALUE, with "is not set" and =n as NAME=n.
norm() {
	awk '/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { print $2 "=n"; next }
	     /^CONFIG_[A-Za-z0-9_]+=/ { print }' "$@"
}
have=$(norm "$dotconfig")
bad=0
while IFS= read -r want; do
	name=${want%%=*}
	got=$(awk -F= -v n="$name" '$1 == n { print; exit }' <<<"$have")
	got=${got:-$name=n}
	if [ "$got" != "$want" ] && [ "$partial_tree" -eq 1 ] && ! defined_in_tree "$name"; then
		info "$name: not in the unpatched tree (the series adds it)"
	elif [ "$got" != "$want" ]; then
		printf '    %s requested, but the final config has %s\n' "$want" "$got" >&2
		bad=1
	fi
done < <(norm "$@" | awk -F= '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
			 END { for (i = 1; i <= n; i++) print last[order[i]] }')	# a later fragment wins
[ "$bad" -eq 0 ] || die "requested options are missing from $dotconfig (unmet dependencies or a typo in a fragment)"
