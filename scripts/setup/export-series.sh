#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# export-series.sh [DIR]: write the commits of the series worktree
# (base..HEAD) back to patches/ with git format-patch, each into its
# series' directory (with DIR, into DIR/SERIES instead). This is the one way
# patches/ changes: edit the commits in the worktree (git rebase -i, git
# commit --amend), then export, then `make check`.
# A commit belongs to the series of the patch with its subject; a new commit
# joins the series of the commit before it. The series must stay in order.
# Each series is written as it applies to the base alone (its commits
# cherry-picked there in a scratch worktree), as it is posted.
. "$(dirname "$0")/../lib.sh"

dest=${1:-}
scratch=$BST_CACHE/export/src/$(basename "$KSRC")

cd "$BST_SERIES_TREE" 2>/dev/null || die "no series worktree: run 'make series' first"
[ -z "$(git status --porcelain -uno)" ] ||
	die "uncommitted changes in $BST_SERIES_TREE: commit them to a patch first"
n=$(git rev-list --count "$BST_BASE"..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of the base in $BST_SERIES_TREE"

# "SERIES<TAB>SUBJECT" of every patch file in patches/.
declare -A owner
while IFS=$'\t' read -r name subject; do
	owner[$subject]=$name
done < <(for name in $(series_names); do
	for p in $(series_patches "$name"); do
		printf '%s\t%s\n' "$name" "$(git mailinfo /dev/null /dev/null <"$p" | sed -n 's/^Subject: //p')"
	done
done)

declare -A first last idx
i=0
for name in $(series_names); do idx[$name]=$((i++)); done
cur=$(series_names | head -1)
while IFS=$'\t' read -r commit subject; do
	new=${owner[$subject]:-$cur}
	# Once a later series has started, an earlier one cannot continue.
	[ "${idx[$new]}" -ge "${idx[$cur]}" ] ||
		die "commit '$subject' (series $new) comes after series $cur: keep the series in the order $(series_names | tr '\n' ' ')"
	cur=$new
	first[$cur]=${first[$cur]:-$commit}
	last[$cur]=$commit
done < <(git log --reverse --format='%H%x09%s' "$BST_BASE"..HEAD)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in $(series_names); do
	if [ -z "${first[$name]:-}" ]; then
		warn "no commits of series $name: patches/$name keeps its cover letter only"
		series_patches "$name" | xargs -r rm -f
		continue
	fi
	mkdir "$tmp/$name"
	ensure_worktree "$scratch" >/dev/null || exit
	git -C "$scratch" cherry-pick --abort >/dev/null 2>&1 || true
	git -C "$scratch" checkout -q -f --detach "$BST_BASE"
	git -C "$scratch" cherry-pick --allow-empty "${first[$name]}^..${last[$name]}" >"$tmp/pick.log" 2>&1 || {
		sed 's/^/    /' "$tmp/pick.log" >&2
		git -C "$scratch" cherry-pick --abort >/dev/null 2>&1
		die "series $name does not apply to the base on its own: it must not depend on the series before it"
	}
	(cd "$scratch" && write_patches "$tmp/$name" "$BST_BASE..HEAD")
	if [ -n "$dest" ]; then
		mkdir -p "$dest/$name" && cp "$tmp/$name"/*.patch "$dest/$name/"
	else
		install_patches "$tmp/$name" "$name"	# the cover letter stays as it is
		info "patches/$name: $(git rev-list --count "${first[$name]}^..${last[$name]}") patches"
	fi
done
[ -z "$dest" ] || exit 0
# The worktree now holds exactly patches/: apply-series.sh need not redo it.
series_stamp >"$(git rev-parse --git-path bootstamp-series.stamp)"
info "exported $n patches from $BST_SERIES_TREE to patches/"
git -C "$BST_TOP" status --short -- patches/ | sed 's/^/    /'
