#!/bin/bash
# Files larger than one transfer to the GPU machine (64 MiB, the working tree
# included) travel in parts: cut here, carried one part per call, gathered on
# the GPU machine while it is held, then joined and checked there.
#
#   harness/parts.sh cut NAME OUT PATH...
#       one tar of PATHs (relative to the current folder), cut into parts of
#       $ATLAS_PART_MIB MiB (default 60): OUT/NAME.NNN, and OUT/NAME.sha256 with
#       the sha256 of every part
#   harness/parts.sh gather FROM STORE
#       on the GPU machine, in each call that carries parts: move FROM's parts and
#       .sha256 files into STORE (a folder outside the working tree, e.g.
#       /tmp/parts, which stays while the machine is held); says what STORE has
#   harness/parts.sh join NAME STORE DEST
#       check every part against NAME.sha256, untar into DEST;
#       a missing or damaged part is named and nothing is unpacked
set -euo pipefail
die() { echo "parts.sh: $*" >&2; exit 2; }

cut_parts() {  # name out paths...
  local name=$1 out=$2; shift 2
  mkdir -p "$out"
  rm -f "$out/$name".[0-9][0-9][0-9] "$out/$name.sha256"
  tar -cf - "$@" | split -a 3 -d -b "${ATLAS_PART_MIB:-60}M" - "$out/$name."
  (cd "$out" && sha256sum "$name".[0-9][0-9][0-9]) > "$out/$name.sha256"
  ls -la "$out" | grep -F "$name."
}

gather() {  # from store
  mkdir -p "$2"
  find "$1" -maxdepth 1 -type f \( -name '*.[0-9][0-9][0-9]' -o -name '*.sha256' \) -exec mv -f {} "$2/" \;
  echo "$2 holds:"; ls -la "$2" | tail -n +4
}

join_parts() {  # name store dest
  local name=$1 store=$2 dest=$3 sums=$2/$1.sha256 part
  [ -f "$sums" ] || die "$sums: missing (it travels with the first part)"
  while read -r want part; do
    [ -f "$store/$part" ] || die "$store/$part: missing; carry it, then join again"
    [ "$(sha256sum "$store/$part" | cut -d' ' -f1)" = "$want" ] || die "$store/$part: damaged (sha256 differs)"
  done < "$sums"
  [ "$(ls "$store/$name".[0-9][0-9][0-9] | wc -l)" = "$(wc -l < "$sums")" ] || die "$store: parts of $name that $sums does not list"
  mkdir -p "$dest"
  cat "$store/$name".[0-9][0-9][0-9] | tar -xf - -C "$dest"
  echo "$name: $(ls "$store/$name".[0-9][0-9][0-9] | wc -l) parts checked, unpacked into $dest"
}

case ${1:-} in
  cut) cut_parts "${2:?usage: parts.sh cut NAME OUT PATH...}" "${3:?the folder for the parts}" "${@:4}" ;;
  gather) gather "${2:?usage: parts.sh gather FROM STORE}" "${3:?the store}" ;;
  join) join_parts "${2:?usage: parts.sh join NAME STORE DEST}" "${3:?the store}" "${4:?the folder to unpack into}" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] && [ "$1" != --help ] && exit 2; exit 0 ;;
esac
