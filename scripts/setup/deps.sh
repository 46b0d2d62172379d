#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages in scripts/config/debian-packages that are
# missing. Idempotent: with everything present it only checks.
. "$(dirname "$0")/../lib.sh"

mapfile -t want < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$BST_TOP/scripts/config/debian-packages")
missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	info "all ${#want[@]} Debian packages present"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	die "missing packages: ${missing[*]}
    run as root:  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
fi
install_missing() {
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BST_CACHE/apt-install.log" 2>&1 ||
		die "apt-get install failed: see $BST_CACHE/apt-install.log"
}
mkdir -p "$BST_CACHE"
step "installing ${#missing[@]} Debian packages: ${missing[*]}" install_missing
