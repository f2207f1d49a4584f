#!/usr/bin/env bash
# The image `make sam-local` gives `sam local invoke --invoke-image`, built offline: no Lambda base
# image can be pulled on these machines, but Debian's mirror and PyPI can be reached.
#
# Where it differs from Lambda's python3.13 runtime, and why that is acceptable for this test:
# - Debian bookworm (minbase), not Amazon Linux 2023. The functions call no system program and load
#   no system library but those CPython links (glibc, OpenSSL 3, zlib, …), which both have; the
#   layer's wheels are manylinux2014, for any glibc >= 2.17, the same files Lambda loads.
# - pyenv's CPython (the one `make install` builds the venv on, 3.13), not Amazon's build of it:
#   the same language version the template's `Runtime: python3.13` names.
# - awslambdaric, AWS's published runtime interface client, instead of Lambda's own bootstrap.py; SAM
#   adds its runtime interface emulator on top, as it does to the images it pulls.
# - boto3 at the version the tests run on (BOTO3_VERSION), not the one Lambda ships that month.
# What the test is about is the same as on Lambda: the layer at /opt, the code at /var/task, the
# handler named by the template, the environment SAM resolves from events/env.json, the event as JSON.
#
# Usage: BOTO3_VERSION=1.x.y tests/support/lambda-image.sh [IMAGE]   (as root, with dockerd running)
set -euo pipefail

image=${1:-podpages/lambda-python:3.13}
python=${PYTHON:-python3.13}
# AWS SDKs read AWS_ENDPOINT_URL; env.json cannot add it (SAM passes only the template's variables), so
# the image does: the containers' gateway, where make sam-local relays to the local S3 and SQS.
endpoint=${AWS_ENDPOINT:-http://172.17.0.1:4566}
: "${BOTO3_VERSION:?name the boto3 version the runtime ships, as the venv has it}"
awslambdaric_version=4.2.2

if docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image is built; docker rmi $image to build it again"
  exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

# Debian's own mirror, as apt reaches it here (after apt-get update).
mirror=$(apt-get indextargets 'Identifier: Packages' 'Codename: bookworm' 'Component: main' \
  --format '$(REPO_URI)' 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian/}
# The libraries CPython's extension modules link to (ssl, sqlite3, readline, curses, expat); the rest
# (zlib, bz2, lzma, ffi, uuid) come with minbase.
debootstrap --variant=minbase --include=libssl3,libsqlite3-0,libreadline8,libncursesw6,libexpat1,ca-certificates \
  bookworm "$root" "$mirror" >/dev/null
rm -rf "$root"/usr/share/{doc,man,info,locale}/* "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/*

# pyenv builds a shared libpython with its own prefix baked in, so it goes in at the same path. Its
# site-packages stays behind: the runtime's packages are in /var/runtime, as on Lambda.
prefix=$("$python" -c 'import sys; print(sys.prefix)')
version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
[[ $version == 3.13 ]] || { echo "$python is Python $version; the template's runtime is python3.13" >&2; exit 1; }
lib=./lib/python$version
mkdir -p "$root$prefix" "$root/var/lang/bin"
tar -C "$prefix" --anchored --exclude="$lib/test" --exclude="$lib/site-packages/*" --exclude="$lib/idlelib" \
  --exclude="$lib/tkinter" --exclude="$lib/turtledemo" --exclude="$lib/ensurepip" --exclude="$lib/config-*" \
  --exclude=./include --exclude=./share -c . | tar -C "$root$prefix" -x
ln -s "$prefix/bin/python$version" "$root/var/lang/bin/python$version"

"$python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-compile --target "$root/var/runtime" \
  "awslambdaric==$awslambdaric_version" "boto3==$BOTO3_VERSION"
# The runtime interface emulator starts this; it runs the handler SAM names in _HANDLER. The path is
# Lambda's: the code, then the layer's two folders, then the runtime's packages.
cat >"$root/var/runtime/bootstrap" <<EOF
#!/bin/sh
export PYTHONPATH=/var/task:/opt/python/lib/python$version/site-packages:/opt/python:/var/runtime
exec /var/lang/bin/python$version -m awslambdaric "\$_HANDLER"
EOF
chmod +x "$root/var/runtime/bootstrap"

tar -C "$root" -c . | docker import \
  --change "ENV PATH=/var/lang/bin:/usr/local/bin:/usr/bin:/bin" \
  --change "ENV LANG=C.UTF-8 TZ=:UTC LAMBDA_TASK_ROOT=/var/task LAMBDA_RUNTIME_DIR=/var/runtime" \
  --change "ENV AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local" \
  --change "ENV AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1" \
  --change "WORKDIR /var/task" \
  - "$image" >/dev/null
echo "$image built: $(docker image inspect --format '{{.Size}}' "$image" | awk '{printf "%d MB", $1 / 1e6}')"
