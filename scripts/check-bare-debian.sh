#!/usr/bin/env bash
# Runs the README's two commands (./scripts/demo.sh, ./scripts/test.sh) on a clone of this checkout's
# HEAD inside a bare Debian root (debootstrap --variant=minbase: no make, no compiler, no
# pkg-config) of the release named, with that release's own apt sources (main, updates, security),
# so that a missing install step shows up. CI cannot see one: its machine already has the packages.
# Run it as root on a Debian machine with network access to the Debian mirror, for both releases,
# before a change that touches scripts/install-deps.sh, the build, the glue in third_party/ or the
# README's commands lands:
#   sudo ./scripts/check-bare-debian.sh bookworm|trixie [ROOT_DIR]
#                                       (default ROOT_DIR: /var/tmp/filterlab-bare-RELEASE)
# It takes about 25 minutes a release on 2 cores; the log is ROOT_DIR.log. It leaves the root in place for a look
# (the next run replaces it), and exits with the first failing command's status.
set -euo pipefail
cd "$(dirname "$0")/.."
release="${1:-}"
case "$release" in
  bookworm | trixie) ;;
  *) echo "usage: check-bare-debian.sh bookworm|trixie [ROOT_DIR]" >&2; exit 2 ;;
esac
root="${2:-/var/tmp/filterlab-bare-$release}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security="${DEBIAN_SECURITY_MIRROR:-http://security.debian.org/debian-security}"
log="$root.log"
if [ "$(id -u)" -ne 0 ]; then echo "check-bare-debian: run as root (debootstrap and chroot need it)" >&2; exit 2; fi
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap; }

exec > >(tee "$log") 2>&1
echo "check-bare-debian: $(git rev-parse --short=12 HEAD) on $release in $root ($(date -u +%FT%TZ))"
# Every run starts from a fresh minbase root: a root left by an earlier run has the packages that
# run installed, and would hide a missing install step. The first run keeps the fresh root as a
# tarball (ROOT_DIR.minbase.tar) so that later runs skip debootstrap's downloads.
pristine="$root.minbase.tar"
# A run that was killed may have left the host's /proc, /sys and /dev bound inside the old root:
# unmount them before deleting it, and never let rm cross into another file system.
for m in dev/pts dev sys proc; do
  if mountpoint -q "$root/$m" 2>/dev/null; then umount -l "$root/$m"; fi
done
if grep -qF " $root/" /proc/mounts; then
  echo "check-bare-debian: something is still mounted under $root; unmount it first" >&2
  exit 1
fi
rm -rf --one-file-system "$root"
if [ -f "$pristine" ]; then
  mkdir -p "$root" && tar -C "$root" -xpf "$pristine"
else
  debootstrap --variant=minbase "$release" "$root" "$mirror"
  tar -C "$root" -cpf "$pristine.tmp" . && mv "$pristine.tmp" "$pristine"
fi
# The release's own sources, as an installed system has them: debootstrap writes main alone.
cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror $release main
deb $mirror $release-updates main
deb $security $release-security main
SOURCES
# What the README's reader has: the sources (committed files only) and nothing else.
rm -rf "$root/src"
git clone -q --no-hardlinks "$(pwd)" "$root/src"
cp /etc/resolv.conf "$root/etc/resolv.conf"

mounts=()
cleanup() { for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  mount --bind "/$m" "$root/$m"
  mounts+=("$root/$m")
done

start=$(date +%s)
# A login shell's environment, as a new user's terminal would have it; no DISPLAY.
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb LANG=C.UTF-8 /bin/bash -c 'cd /src && ./scripts/demo.sh && ./scripts/test.sh'
echo "check-bare-debian: both commands passed in $(( $(date +%s) - start )) s"
