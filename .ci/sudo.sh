# Sourced by the .ci install scripts: sets SUDO to "" as root, to "sudo" where sudo exists,
# else says that "$1" cannot be installed and exits 1.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "$1 is missing and this is not root (no sudo) -- cannot install" >&2
		exit 1
	fi
fi
