#!/usr/bin/env bash
# Installs Debian's Chromium (/usr/bin/chromium) for the browser checks of the chat page
# (test/sandbox/chatPage.test.ts and the e2e tier), unless it is already there. Idempotent.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
	echo "chromium: already installed ($(/usr/bin/chromium --version 2>/dev/null | head -n 1 || echo 'version unknown'))"
	exit 0
fi

# shellcheck source=.ci/sudo.sh
. "$(dirname "$0")/sudo.sh" "chromium: /usr/bin/chromium"

echo "chromium: installing Debian's chromium (apt-get)…"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

if [ ! -x /usr/bin/chromium ]; then
	echo "chromium: apt-get finished but /usr/bin/chromium is still missing" >&2
	exit 1
fi
echo "chromium: installed ($(/usr/bin/chromium --version 2>/dev/null | head -n 1 || echo 'version unknown'))"
