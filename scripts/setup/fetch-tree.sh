#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make the base tree: Debian's linux-source package of TREE (scripts/config/
# trees; default 7.2 from sid), from the mirror this machine already uses,
# extracted into the cache and committed so that the commit id is the same
# on every machine (fixed author, the tarball's date): that id is the
# series' base-commit. Nothing in /etc/apt is changed: apt runs on a private
# sources list and private state directories.
# With KSRC=/your/tree the base is that tree's HEAD, kept as the ref
# $BST_BASE; it follows HEAD, and says so when HEAD moved.
. "$(dirname "$0")/../lib.sh"

tree_line() {
	awk -v t="$TREE" '$1 == t' "$BST_TOP/scripts/config/trees"
}

download_deb() {
	local dir=$1 pkg=$2 suite=$3
	suite_apt "$dir/apt-$suite" "$suite" || return
	(cd "$dir" && apt-get "${SUITE_APT[@]}" download "$pkg") >"$dir/apt-download.log" 2>&1 ||
		die "apt-get download $pkg from $suite failed: see $dir/apt-download.log"
}

extract_tree() {
	local deb=$1 pkg=$2 tmp
	info "package: $(basename "$deb")"
	tmp=$KSRC.tmp
	# Each step checked: a partial tree must never get the base ref.
	rm -rf "$tmp" && mkdir -p "$tmp" || return
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/$pkg.tar.xz || return
	tar -xJf "$tmp/usr/src/$pkg.tar.xz" -C "$tmp" || return
	mv "$tmp/$pkg" "$KSRC" && rm -rf "$tmp"
}

# The tarball's .gitignore ends with Debian's "ignore everything at the top
# level" block (/* and !/debian/). Drop it so git sees the tree; add with -f
# because the tarball is pristine source and files tracked upstream may match
# other ignore patterns.
make_git_repo() {
	cd "$KSRC" || return
	sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore || return
	git init -q -b bootstamp-base-branch && git config gc.auto 0 &&
		git config user.name "bootstamp harness" &&
		git config user.email "bootstamp@example.org" || return
	git add -A -f && git write-tree >/dev/null
}

# base_commit DEB PKG: the base commit of the tree's index, made the same way
# everywhere: fixed author and committer, dated as the package's tarball.
base_commit() {
	local deb=$1 pkg=$2 when
	when=$(dpkg-deb --fsys-tarfile "$deb" | TZ=UTC tar -tv --full-time ./usr/src/$pkg.tar.xz |
		awk '{ print $4 "T" $5 "Z" }') || return
	[ -n "$when" ] || return
	GIT_AUTHOR_NAME="bootstamp harness" GIT_AUTHOR_EMAIL=bootstamp@example.org \
	GIT_COMMITTER_NAME="bootstamp harness" GIT_COMMITTER_EMAIL=bootstamp@example.org \
	GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when \
		git -C "$KSRC" commit-tree "$(git -C "$KSRC" write-tree)" \
			-m "Debian $pkg $(make -s -C "$KSRC" kernelversion) (base for the bootstamp series)" \
			-m "Extracted from $(basename "$deb"); the Debian ignore-all block was removed from .gitignore."
}

# A tree of the user's: the base is its HEAD, as the ref $BST_BASE (the
# harness's only ref there; its worktrees are below $BST_CACHE).
user_tree() {
	local head old
	[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
	head=$(git -C "$KSRC" rev-parse -q --verify "HEAD^{commit}" 2>/dev/null) ||
		die "KSRC=$KSRC must be a git repository with a commit (the series is applied with git am)"
	old=$(git -C "$KSRC" rev-parse -q --verify "$BST_BASE^{commit}" 2>/dev/null || true)
	if [ "$old" = "$head" ]; then
		info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion)), base = HEAD $(git -C "$KSRC" rev-parse --short HEAD)"
		return 0
	fi
	git -C "$KSRC" update-ref -m "bootstamp: base = HEAD" "$BST_BASE" "$head"
	if [ -n "$old" ]; then
		warn "KSRC's HEAD moved: base $BST_BASE moves from $(git -C "$KSRC" rev-parse --short "$old") to $(git -C "$KSRC" rev-parse --short "$head") (HEAD); patches/ will be applied there"
	else
		info "base of the series: HEAD of $KSRC ($(git -C "$KSRC" rev-parse --short "$head")), kept as the ref $BST_BASE"
		info "(KSRC=$KSRC scripts/setup/forget-tree.sh removes it and the harness's worktrees; make distclean does too)"
	fi
}

main() {
	local line pkg suite deb dl=$BST_CACHE/download want
	[ "$KSRC" = "$BST_DEFAULT_KSRC" ] || { user_tree; return; }
	line=$(tree_line)
	[ -n "$line" ] || die "TREE=$TREE: not in scripts/config/trees (one of: $(awk '!/^#/ { printf "%s ", $1 }' "$BST_TOP/scripts/config/trees"))"
	read -r _ pkg suite <<<"$line"
	mkdir -p "$dl"
	deb=$(ls "$dl"/${pkg}_*.deb 2>/dev/null | tail -1 || true)
	if [ -z "$deb" ]; then
		step "downloading $pkg from $suite (about 150 MB)" download_deb "$dl" "$pkg" "$suite" || exit
		deb=$(ls "$dl"/${pkg}_*.deb | tail -1)
	fi
	if ! git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
	   ! git -C "$KSRC" rev-parse -q --verify "$BST_BASE" >/dev/null 2>&1; then
		[ -e "$KSRC" ] && rm -rf "$KSRC"	# a half-made tree from an interrupted run
		step "extracting into $KSRC" extract_tree "$deb" "$pkg" || exit
		step "making it a git repository (about a minute)" make_git_repo || exit
	fi
	# The same commit on every machine; a tree made by an older harness
	# (dated when it was made) gets it too, from the same files.
	want=$(base_commit "$deb" "$pkg") || die "could not commit the base of $KSRC"
	if [ "$(git -C "$KSRC" rev-parse -q --verify "$BST_BASE" || true)" != "$want" ]; then
		git -C "$KSRC" update-ref "$BST_BASE" "$want"
		git -C "$KSRC" reset -q "$want"
	fi
	info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion), base $(git -C "$KSRC" rev-parse --short "$BST_BASE"))"
}

main "$@"
