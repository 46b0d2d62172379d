#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make the default base tree: Debian's linux-source-7.2 from the sid suite of
# the mirror this machine already uses, extracted into the cache and turned
# into a git repository tagged $BST_BASE_TAG. Nothing in /etc/apt is changed:
# apt runs on a private sources list and private state directories.
# With KSRC=/your/tree it only checks that tree and leaves it alone.
. "$(dirname "$0")/../lib.sh"

PKG=linux-source-7.2

download_deb() {
	local dir=$1
	sid_apt "$dir" || return
	(cd "$dir" && apt-get "${SID_APT[@]}" download "$PKG") >"$dir/apt-download.log" 2>&1 ||
		die "apt-get download $PKG failed: see $dir/apt-download.log"
}

extract_tree() {
	local dir=$1 deb tmp
	deb=$(ls "$dir"/${PKG}_*.deb)
	info "package: $(basename "$deb")"
	tmp=$KSRC.tmp
	# Each step checked: a partial tree must never get the base tag.
	rm -rf "$tmp" && mkdir -p "$tmp" || return
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/$PKG.tar.xz || return
	tar -xJf "$tmp/usr/src/$PKG.tar.xz" -C "$tmp" || return
	mv "$tmp/$PKG" "$KSRC" && rm -rf "$tmp"
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
	git add -A -f || return
	git commit -q -m "Debian linux-source-7.2 $(make -s kernelversion) (base for the bootstamp series)" \
		-m "Extracted from the Debian package; the Debian ignore-all block was removed from .gitignore." || return
	git tag "$BST_BASE_TAG"
}

main() {
	if [ -d "$KSRC/.git" ] && git -C "$KSRC" rev-parse -q --verify "$BST_BASE_TAG^{commit}" >/dev/null; then
		info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion), base $BST_BASE_TAG = $(git -C "$KSRC" rev-parse --short "$BST_BASE_TAG"))"
		return 0
	fi
	if [ "$KSRC" != "$BST_DEFAULT_KSRC" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
			die "KSRC=$KSRC must be a git repository with a commit (the series is applied with git am)"
		git -C "$KSRC" tag "$BST_BASE_TAG" HEAD
		info "tagged HEAD of $KSRC as $BST_BASE_TAG; patches/ will be applied on top of it"
		return 0
	fi
	[ -e "$KSRC" ] && rm -rf "$KSRC"	# a half-made tree from an interrupted run
	local dl=$BST_CACHE/download
	mkdir -p "$dl"
	ls "$dl"/${PKG}_*.deb >/dev/null 2>&1 || step "downloading $PKG from sid (about 160 MB)" download_deb "$dl"
	step "extracting into $KSRC" extract_tree "$dl"
	step "making it a git repository (tag $BST_BASE_TAG; about a minute)" make_git_repo
	info "kernel tree: $KSRC ($(make -s -C "$KSRC" kernelversion))"
}

main "$@"
