#!/bin/sh
# Build josefk's OCI image with buildah from a Debian base made here with debootstrap: no
# container registry is needed, only a Debian mirror and PyPI.
#   packaging/oci/build.sh dist/josefk-0.1.0-py3-none-any.whl [localhost/josefk:0.1.0]
# Runs as root (debootstrap, chroot). Environment: SUITE (bookworm), MIRROR
# (http://deb.debian.org/debian), EXTRAS (tools: the josefk tools in the image), BUILDAH
# (buildah, e.g. "buildah --root DIR --runroot DIR" for a storage of its own), ROOTFS (a base
# directory an earlier debootstrap made, reused as it is), PYTHON (python3: the host's pip).
set -eu
wheel=${1:?usage: build.sh WHEEL [IMAGE]}
name=$(basename "$wheel")
extras=${EXTRAS:-tools}
image=${2:-localhost/josefk:$(echo "$name" | cut -d- -f2)}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
# Not removed while anything is mounted under it (a debootstrap stopped halfway leaves its proc).
trap 'if grep -q " $work/" /proc/self/mounts; then echo "mounts under $work: left in place" >&2; else rm -rf "$work"; fi' EXIT
trap 'exit 1' INT TERM
context=$work/context
mkdir "$context"

rootfs=${ROOTFS:-$work/rootfs}
if [ -z "${ROOTFS:-}" ]; then
    # minbase and python3-venv (ensurepip's pip): a base near 270 MB.
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
        "${SUITE:-bookworm}" "$rootfs" "${MIRROR:-http://deb.debian.org/debian}"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
fi
# The host's pip fetches the wheels for the image's Python and glibc, so the image build needs
# no compiler (binary wheels only) and no index: its RUN step installs offline.
pyver=$(chroot "$rootfs" python3 -c 'import sys; print("%d%d" % sys.version_info[:2])')
arch=$(uname -m)
# Every manylinux tag the image's glibc runs (pip takes the list as given): 2_36 down to 2_5.
glibc_minor=$(chroot "$rootfs" getconf GNU_LIBC_VERSION | cut -d. -f2)
platforms=""
for minor in $(seq "$glibc_minor" -1 5); do platforms="$platforms --platform manylinux_2_${minor}_$arch"; done
# shellcheck disable=SC2086 # $platforms is a list of options
"${PYTHON:-python3}" -m pip download -q --only-binary=:all: --python-version "$pyver" --implementation cp \
    --abi "cp$pyver" --abi abi3 --abi none $platforms --platform "manylinux2014_$arch" --platform "manylinux2010_$arch" \
    --platform "manylinux1_$arch" --platform any --dest "$context/wheels" "$wheel[$extras]"
cp "$wheel" "$context/wheels/$name"
tar --numeric-owner -C "$rootfs" -cf "$context/rootfs.tar" .
${BUILDAH:-buildah} build --isolation chroot --layers=false --network host \
    --build-arg WHEEL="$name" --build-arg EXTRAS="$extras" -f "$here/Containerfile" -t "$image" "$context"
