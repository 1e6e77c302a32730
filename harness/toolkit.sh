#!/bin/bash
# Other CUDA toolkits, from Debian's non-free archive, beside the system's.
#
#   harness/toolkit.sh fetch VERSION    download and unpack toolkit VERSION (11.8 or 12.4)
#                                       into /opt/cuda-VERSION, ready for the preset toolkit-VERSION;
#                                       its runtime packages are kept in /opt/cuda-VERSION/runtime
#   harness/toolkit.sh runtime VERSION DIR
#                                       on a machine that only runs: unpack the runtime packages
#                                       found in DIR (cudart, cuBLAS) into /opt/cuda-VERSION
#
# Nothing is installed system-wide: apt reads a private source list, and the
# packages are unpacked (dpkg -x), never configured.
set -euo pipefail

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
version=${2:?usage: toolkit.sh fetch|runtime VERSION [DIR]}
prefix=/opt/cuda-$version
case $version in
  11.8) suite=bookworm; v=11.8.89~11.8.0-5~deb12u1; blas=11.11.3.6~11.8.0-5~deb12u1
        runtime="libcudart11.0=$v libcublas11=$blas libcublaslt11=$blas"
        build="nvidia-cuda-toolkit=$v nvidia-cuda-dev=$v libnvvm4=$v" ;;
  12.4) suite=trixie; v=12.4.127~12.4.1-2; blas=12.4.5.8~12.4.1-2
        runtime="libcudart12=$v libcublas12=$blas libcublaslt12=$blas"
        build="nvidia-cuda-toolkit=12.4.131~12.4.1-2 nvidia-cuda-dev=$v libnvvm4=12.4.131~12.4.1-2 libcu++-dev=2.3.2-2" ;;
  *) echo "toolkit.sh: no recipe for CUDA $version (11.8 and 12.4 are in Debian's archive)" >&2; exit 2 ;;
esac

unpack() { for deb in "$@"; do dpkg -x "$deb" "$prefix"; done; }

if [ "$1" = runtime ]; then
  mkdir -p "$prefix"
  unpack "${3:?the folder with the runtime packages}"/*.deb
  exit 0
fi

apt_dir=$(mktemp -d)
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache" "$prefix/runtime" "$apt_dir/debs"
echo "deb http://deb.debian.org/debian $suite main non-free contrib" > "$apt_dir/sources.list"
apt=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
apt-get "${apt[@]}" update -qq
(cd "$prefix/runtime" && apt-get "${apt[@]}" download $runtime)
(cd "$apt_dir/debs" && apt-get "${apt[@]}" download $build)
unpack "$prefix"/runtime/*.deb "$apt_dir"/debs/*.deb
rm -rf "$apt_dir"

# Debian's nvcc reads /etc/nvcc.profile for /usr paths: point it at the prefix
# (CMake finds the toolkit from NVVMIR_LIBRARY_DIR, which must end in nvvm/libdevice).
bin=$prefix/usr/lib/nvidia-cuda-toolkit/bin
rm -f "$bin/nvcc.profile"
cat > "$bin/nvcc.profile" <<PROFILE
NVVMIR_LIBRARY_DIR = $prefix/usr/lib/cuda/nvvm/libdevice
PATH += $bin:$prefix/usr/bin:
INCLUDES += "-I$prefix/usr/include" \$(_SPACE_)
LIBRARIES =+ \$(_SPACE_) -L$prefix/usr/lib/x86_64-linux-gnu/stubs -L$prefix/usr/lib/x86_64-linux-gnu
PROFILE
"$bin/nvcc" --version | tail -1
