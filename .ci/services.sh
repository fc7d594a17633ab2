#!/usr/bin/env bash
# Installs Debian's PostgreSQL and Redis for the queue-mode tier (e2e/queue.ts), unless they
# are already there. Idempotent. The tier starts its own Postgres and Redis on free loopback
# ports in a temporary folder (scripts/services.ts); the packages' own services are not
# started here (a policy-rc.d that says "no" is put in place for the install when the
# machine has none, and removed afterwards).
set -euo pipefail

pg_bin() {
	# the newest /usr/lib/postgresql/<version>/bin with initdb and pg_ctl
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

have_redis() { command -v redis-server >/dev/null 2>&1; }

if pg_bin >/dev/null && have_redis && id postgres >/dev/null 2>&1; then
	echo "services: already installed (postgres in $(pg_bin), $(redis-server --version | head -n 1))"
	exit 0
fi

# shellcheck source=.ci/sudo.sh
. "$(dirname "$0")/sudo.sh" "services: postgresql and/or redis-server"

POLICY=/usr/sbin/policy-rc.d
CREATED_POLICY=""
if [ ! -e "$POLICY" ]; then
	# Do not let the packages start their default services (port 5432, 6379) during install.
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
	$SUDO chmod 755 "$POLICY"
	CREATED_POLICY=1
fi
cleanup() { if [ -n "$CREATED_POLICY" ]; then $SUDO rm -f "$POLICY"; fi; }
trap cleanup EXIT

echo "services: installing Debian's postgresql and redis-server (apt-get)…"
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql redis-server >/dev/null

if ! pg_bin >/dev/null; then
	echo "services: apt-get finished but no /usr/lib/postgresql/<version>/bin/initdb" >&2
	exit 1
fi
if ! have_redis; then
	echo "services: apt-get finished but redis-server is still missing" >&2
	exit 1
fi
echo "services: installed (postgres in $(pg_bin), $(redis-server --version | head -n 1))"
