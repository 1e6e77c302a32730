#!/bin/bash
# Other CUDA runtimes, toolkits and libraries beside the system's, keyed by
# version: from Debian's non-free archive or from NVIDIA's wheels on PyPI.
#
#   harness/toolkit.sh fetch VERSION     download, check (sha256) and unpack VERSION into /opt/cuda-VERSION
#       11.8, 12.4      a whole toolkit from Debian (nvcc, headers, cudart, cuBLAS);
#                       its runtime packages are kept in /opt/cuda-VERSION/runtime
#       12.0 ... 12.9, 13.0 ... 13.5
#                       the runtime wheel (headers and libcudart) into
#                       /opt/cuda-VERSION/{include,lib}; the nvcc wheels of 12.x carry
#                       no nvcc (ptxas and libnvvm only), so .cu cases of a 12.x column
#                       are built with 12.4's nvcc and those of 13.x with the system's
#   harness/toolkit.sh fetch driver-535  Debian's user-space driver 535 (libcuda, libnvidia-ml)
#                                        into /opt/driver-535/lib
#   harness/toolkit.sh fetch nvrtc-X.Y   NVRTC X.Y without nvcc into /opt/nvrtc-X.Y/lib: 13.2 (a newer toolkit's
#                                        PTX), 11.8 (an NVRTC older than the GPU; 23 MB where the toolkit is GBs)
#   harness/toolkit.sh fetch cublas-X.Y.Z.W
#                                        the cuBLAS wheel of that exact version (nvidia-cublas for 13,
#                                        nvidia-cublas-cu12 for 12) into /opt/cublas-X.Y.Z.W/lib: another
#                                        build for cases/driver_versions (ATLAS_OTHER_CUBLASLT) or a
#                                        cuBLAS column; 500 MB and more
#   harness/toolkit.sh ptx LIBNVRTC OUT  compile a one-kernel program to PTX (compute_90) with the
#                                        NVRTC library given (e.g. /opt/nvrtc-13.2/lib/libnvrtc.so.13):
#                                        a real toolkit's output, for cases/driver_versions/
#   harness/toolkit.sh delta cublas-KEY cublas-BASE OUT
#                                        cuBLAS KEY as its difference from cuBLAS BASE (both fetched),
#                                        OUT/cublas-KEY: ~130 MB where the build is 500 MB and more
#   harness/toolkit.sh undelta DIR/cublas-KEY BASE-LIB-DIR...
#                                        on the GPU machine: rebuild /opt/cublas-KEY/lib from the delta
#                                        and BASE's files found in one of the folders (sha256-checked)
#   harness/toolkit.sh env VERSION       print what the build and the run need: the -D options
#                                        (or the preset) and the LD_LIBRARY_PATH
#   harness/toolkit.sh runtime VERSION DIR
#                                        on a machine that only runs: unpack the runtime packages
#                                        found in DIR (cudart, cuBLAS) into /opt/cuda-VERSION
#   harness/toolkit.sh pack OUT VERSION...   (VERSION: a runtime, 11.8-cublas or 12.4-cublas, system)
#                                        after building each VERSION (preset toolkit-12 / toolkit-13 /
#                                        toolkit-12.4 / toolkit-11.8 with the cudart-only targets):
#                                        one tar.xz of their case programs, fingerprint and libcudart,
#                                        to run on a GPU machine without any toolkit
#   harness/toolkit.sh sweep TARBALL OUT [SECONDS]
#                                        on the GPU machine: run every packed version in turn
#                                        (preset toolkit-prebuilt), its libcudart first on the
#                                        library path; results files into OUT; stops starting
#                                        versions after SECONDS (default 420); ATLAS_SWEEP_TESTS
#                                        (a ctest -R regex) runs part of each column (<id>.partial.json)
#   harness/toolkit.sh list              every key this script knows
#
# Every downloaded file must have its sha256 in harness/toolkit.sha256 (a
# file not listed there is refused: check it, then add its line). Nothing is
# installed system-wide: apt reads a private source list, packages are
# unpacked (dpkg -x) and wheels unzipped, never configured or pip-installed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sums=$here/toolkit.sha256
cache=${ATLAS_TOOLKIT_CACHE:-/opt/cuda-downloads}

# key -> wheel requirement (exact versions: a column is one version).
declare -A wheel=(
  [12.0]=nvidia-cuda-runtime-cu12==12.0.146 [12.1]=nvidia-cuda-runtime-cu12==12.1.105
  [12.2]=nvidia-cuda-runtime-cu12==12.2.140 [12.3]=nvidia-cuda-runtime-cu12==12.3.101
  [12.5]=nvidia-cuda-runtime-cu12==12.5.82  [12.6]=nvidia-cuda-runtime-cu12==12.6.77
  [12.8]=nvidia-cuda-runtime-cu12==12.8.90  [12.9]=nvidia-cuda-runtime-cu12==12.9.79
  [13.0]=nvidia-cuda-runtime==13.0.96 [13.1]=nvidia-cuda-runtime==13.1.80
  [13.2]=nvidia-cuda-runtime==13.2.86 [13.3]=nvidia-cuda-runtime==13.3.29
  [13.4]=nvidia-cuda-runtime==13.4.92 [13.5]=nvidia-cuda-runtime==13.5.37
  [nvrtc-13.2]=nvidia-cuda-nvrtc==13.2.86 [nvrtc-11.8]=nvidia-cuda-nvrtc-cu11==11.8.89
)

first_dir() { for d in "$@"; do [ -d "$d" ] && { echo "$d"; return; }; done; die "none of $* is in the wheel"; }
die() { echo "toolkit.sh: $*" >&2; exit 2; }

# Refuse a file whose sha256 is not the listed one: listed under its own name,
# or under NAME ("cublas-13.0.0.19/libcublasLt.so.13" for a file whose name
# several builds share).
check() {  # file [name]
  local file=$1 name=${2:-$(basename "$1")} got want
  got=$(sha256sum "$file" | cut -d' ' -f1)
  want=$(awk -v n="$name" '$2 == n { print $1 }' "$sums")
  [ -n "$want" ] || die "$name: no sha256 in $sums (it is $got: check the file, then add the line)"
  [ "$got" = "$want" ] || die "$name ($file): sha256 $got, expected $want ($sums)"
  echo "checked $name"
}

fetch_wheel() {  # requirement dir
  mkdir -p "$cache/wheels"
  # cuBLAS 12.9's wheels are tagged manylinux_2_27 only, not manylinux2014 (2_17)
  pip download -q --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
      --platform manylinux_2_27_x86_64 --python-version 3.12 -d "$cache/wheels" "$1" >&2
  local name=${1%%==*} version=${1##*==} file
  file=$(ls "$cache/wheels/${name//-/_}-$version-"*.whl | head -1)
  check "$file"
  rm -rf "$2.unpack" && mkdir -p "$2.unpack" && (cd "$2.unpack" && unzip -q "$file")
}

apt_fetch() {  # suite dir packages...
  local suite=$1 dir=$2; shift 2
  local apt_dir; apt_dir=$(mktemp -d)
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache" "$dir"
  echo "deb http://deb.debian.org/debian $suite main non-free contrib" > "$apt_dir/sources.list"
  local apt=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
  apt-get "${apt[@]}" update -qq
  (cd "$dir" && apt-get "${apt[@]}" download "$@")
  rm -rf "$apt_dir"
  for deb in "$dir"/*.deb; do check "$deb"; done
}

debian_toolkit() {  # version
  local version=$1 prefix=/opt/cuda-$1 suite v blas runtime build
  case $version in
    11.8) suite=bookworm; v=11.8.89~11.8.0-5~deb12u1; blas=11.11.3.6~11.8.0-5~deb12u1
          runtime="libcudart11.0=$v libcublas11=$blas libcublaslt11=$blas"
          build="nvidia-cuda-toolkit=$v nvidia-cuda-dev=$v libnvvm4=$v libnvrtc11.2=$v libnvrtc-builtins11.8=$v" ;;
    12.4) suite=trixie; v=12.4.127~12.4.1-2; blas=12.4.5.8~12.4.1-2
          runtime="libcudart12=$v libcublas12=$blas libcublaslt12=$blas"
          build="nvidia-cuda-toolkit=12.4.131~12.4.1-2 nvidia-cuda-dev=$v libnvvm4=12.4.131~12.4.1-2 libcu++-dev=2.3.2-2" ;;
  esac
  local debs; debs=$(mktemp -d)
  # shellcheck disable=SC2086
  apt_fetch $suite "$prefix/runtime" $runtime
  # shellcheck disable=SC2086
  apt_fetch $suite "$debs" $build
  for deb in "$prefix"/runtime/*.deb "$debs"/*.deb; do dpkg -x "$deb" "$prefix"; done
  rm -rf "$debs"
  # Debian's nvcc reads /etc/nvcc.profile for /usr paths: point it at the prefix
  # (CMake finds the toolkit from NVVMIR_LIBRARY_DIR, which must end in nvvm/libdevice).
  local bin=$prefix/usr/lib/nvidia-cuda-toolkit/bin
  rm -f "$bin/nvcc.profile"
  cat > "$bin/nvcc.profile" <<PROFILE
NVVMIR_LIBRARY_DIR = $prefix/usr/lib/cuda/nvvm/libdevice
PATH += $bin:$prefix/usr/bin:
INCLUDES += "-I$prefix/usr/include" \$(_SPACE_)
LIBRARIES =+ \$(_SPACE_) -L$prefix/usr/lib/x86_64-linux-gnu/stubs -L$prefix/usr/lib/x86_64-linux-gnu
PROFILE
  "$bin/nvcc" --version | tail -1
}

# A runtime wheel becomes /opt/cuda-VERSION/{include,lib}: its headers and
# libcudart, with the unversioned name the linker wants.
runtime_wheel() {  # version
  local prefix=/opt/cuda-$1 top
  fetch_wheel "${wheel[$1]}" "$prefix"
  top=$(first_dir "$prefix".unpack/nvidia/cuda_runtime "$prefix".unpack/nvidia/cu13)
  rm -rf "$prefix" && mkdir -p "$prefix"
  cp -r "$top/include" "$top/lib" "$prefix/"
  rm -rf "$prefix.unpack"
  find "$prefix" -name __init__.py -delete
  local so; so=$(ls "$prefix"/lib/libcudart.so.1* | head -1)
  ln -sf "$(basename "$so")" "$prefix/lib/libcudart.so"
  echo "$prefix: $(basename "$so") and headers of CUDART_VERSION $(awk '/#define CUDART_VERSION/ {print $3}' "$prefix/include/cuda_runtime_api.h")"
}

driver_535() {
  local prefix=/opt/driver-535 v=535.261.03-1
  apt_fetch bookworm "$prefix/debs" "libcuda1=$v" "libnvidia-ml1=$v" "libnvidia-ptxjitcompiler1=$v"
  mkdir -p "$prefix/root" "$prefix/lib"
  for deb in "$prefix"/debs/*.deb; do dpkg -x "$deb" "$prefix/root"; done
  cp -a "$prefix"/root/usr/lib/x86_64-linux-gnu/nvidia/current/. "$prefix/lib/" 2>/dev/null || true
  cp -a "$prefix"/root/usr/lib/x86_64-linux-gnu/lib*.so* "$prefix/lib/" 2>/dev/null || true
  rm -rf "$prefix/root"
  ls "$prefix/lib"
}

cublas() {  # cublas-X.Y.Z.W
  local version=${1#cublas-} prefix=/opt/$1 top requirement
  case $version in
    13.*) requirement=nvidia-cublas==$version ;;
    12.*) requirement=nvidia-cublas-cu12==$version ;;
    *) die "no recipe for cuBLAS $version (12.x and 13.x come as wheels)" ;;
  esac
  fetch_wheel "$requirement" "$prefix"
  top=$(first_dir "$prefix".unpack/nvidia/cu13 "$prefix".unpack/nvidia/cublas)
  rm -rf "$prefix" && mkdir -p "$prefix" && cp -r "$top/lib" "$prefix/" && rm -rf "$prefix.unpack"
  find "$prefix" -name __init__.py -delete
  ls "$prefix/lib"
}

nvrtc() {  # nvrtc-X.Y
  local prefix=/opt/$1 top
  fetch_wheel "${wheel[$1]}" "$prefix"
  top=$(first_dir "$prefix".unpack/nvidia/cu13 "$prefix".unpack/nvidia/cuda_nvrtc)
  rm -rf "$prefix" && mkdir -p "$prefix" && cp -r "$top/lib" "$prefix/" && rm -rf "$prefix.unpack"
  ls "$prefix/lib"
}

# Cases that need a library other than cudart (cuBLAS, cuDNN, ...): a runtime
# column carries libcudart alone, so they are "not run" there, with the reason.
# A cuBLAS column (11.8-cublas, 12.4-cublas) carries cudart and cuBLAS.
needs_more_than_cudart() {
  grep -qE 'atlas_cublas\.h|<cublasLt\.h>|<cusolverDn\.h>|<cufft\.h>|<cudnn\.h>|<nccl\.h>' "$1"
}
needs_more_than_cublas() {
  grep -qE 'atlas_libraries\.h|<cusolverDn\.h>|<cufft\.h>|<cudnn\.h>|<nccl\.h>' "$1"
}
# Whether column VERSION (12.4, or 12.4-cublas) can run case source FILE.
column_runs() {  # version file
  case $1 in
    *-cublas) ! needs_more_than_cublas "$2" ;;
    *) ! needs_more_than_cudart "$2" ;;
  esac
}

# The targets a column runs, for: cmake --build ... --target $(toolkit.sh targets [12.4-cublas])
targets() {
  local f
  echo atlas-run
  for f in "$root"/cases/*/*.c "$root"/cases/*/*.cu; do
    column_runs "${1:-runtime}" "$f" && echo "case_$(basename "${f%.*}")"
  done
  return 0
}

# A column key is a runtime version, or 11.8-cublas / 12.4-cublas: Debian's
# whole build of that version (cudart and cuBLAS cases), run with its cuBLAS.
base_version() { echo "${1%-cublas}"; }
build_dir() { echo "$root/build/toolkit-$(base_version "$1")"; }
runtime_dir() { case $(base_version "$1") in 11.8|12.4) echo "/opt/cuda-$(base_version "$1")/usr/lib/x86_64-linux-gnu" ;; *) echo "/opt/cuda-$1/lib" ;; esac; }
include_dir() { case $(base_version "$1") in 11.8|12.4) echo "/opt/cuda-$(base_version "$1")/usr/include" ;; *) echo "/opt/cuda-$1/include" ;; esac; }

# The fingerprint of a runtime-only column: atlas-fingerprint built against
# this runtime with a stand-in <cublas_v2.h> (no cuBLAS is loaded, so none is
# named: the wrapper writes cublas=none), the real runtime linked.
fingerprint() {  # version stage
  local version=$1 stage=$2 shim
  shim=$(mktemp -d)
  cat > "$shim/cublas_v2.h" <<'SHIM'
#define MAJOR_VERSION 0
#define MINOR_VERSION 1
#define PATCH_LEVEL 2
#define CUBLAS_VER_MAJOR 0
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
static inline int cublasGetProperty(int type, int *value) { (void)type; *value = 0; return 1; }
SHIM
  gcc -std=c11 -O2 -w -I"$shim" -isystem "$(include_dir "$version")" "${ATLAS_FINGERPRINT_SOURCE:-$root/harness/fingerprint.c}" \
      -o "$stage/atlas-fingerprint.bin" -L"$(runtime_dir "$version")" -l:"$(cd "$(runtime_dir "$version")" && ls libcudart.so.1* | head -1)" -ldl
  cat > "$stage/atlas-fingerprint" <<'WRAP'
#!/bin/sh
# A runtime-only column: no cuBLAS is loaded, so none is named.
"$(dirname "$0")/atlas-fingerprint.bin" "$@" |
  sed -e 's/^cublas=0\.0\.0$/cublas=none/' -e 's/^cublas_header=0\.0\.0$/cublas_header=none/' \
      -e '/^id=/s/_cublas-0\.0\.0_/_cublas-none_/'
WRAP
  chmod +x "$stage/atlas-fingerprint"
  rm -rf "$shim"
}

# The fingerprint of a cuBLAS column: atlas-fingerprint linked with the
# version's own cudart and cuBLAS (found at run time where toolkit.sh runtime
# unpacks them: the library path the sweep sets).
fingerprint_with_cublas() {  # version stage
  local version=$1 stage=$2 dir
  dir=$(runtime_dir "$version")
  gcc -std=c11 -O2 -w -isystem "$(include_dir "$version")" "${ATLAS_FINGERPRINT_SOURCE:-$root/harness/fingerprint.c}" \
      -o "$stage/atlas-fingerprint" -L"$dir" -l:"$(cd "$dir" && ls libcublas.so.1* | head -1)" \
      -l:"$(cd "$dir" && ls libcudart.so.1* | head -1)" -ldl
}

# The system's own build (preset run) whole, with a fingerprint that links
# cuBLAS: run with another cuBLAS first on the library path, it is a cuBLAS column.
pack_system() {  # stage
  local stage=$1/toolkit-system
  [ -d "$root/build/run/cases" ] || die "$root/build/run: build the preset run first"
  mkdir -p "$stage/lib"
  cp -r "$root/build/run/cases" "$stage/"
  gcc -std=c11 -O2 -w -isystem /usr/local/cuda/include "${ATLAS_FINGERPRINT_SOURCE:-$root/harness/fingerprint.c}" \
      -o "$stage/atlas-fingerprint" -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl -Wl,-rpath,/usr/local/cuda/lib64
}

pack() {  # out versions...
  local out=$1; shift
  local stage; stage=$(mktemp -d)
  local version f name family dir
  for version in "$@"; do
    if [ "$version" = system ]; then pack_system "$stage"; echo system >> "$stage/versions.txt"; continue; fi
    if [ "$version" = driver-535 ]; then
      mkdir -p "$stage/driver-535" && cp -P /opt/driver-535/lib/libcuda.so* /opt/driver-535/lib/libnvidia-ml.so* "$stage/driver-535/"
      continue
    fi
    dir=$(build_dir "$version")
    [ -d "$dir/cases" ] || die "$dir: build $version first (toolkit.sh env $version)"
    mkdir -p "$stage/toolkit-$version/lib" "$stage/toolkit-$version/cases"
    cp -P "$(runtime_dir "$version")"/libcudart.so.1* "$stage/toolkit-$version/lib/"
    local why="a runtime column (cudart $version) carries libcudart alone; this case needs cuBLAS or another library"
    case $version in
      *-cublas) fingerprint_with_cublas "$version" "$stage/toolkit-$version"
                why="a cuBLAS column (CUDA $(base_version "$version")) carries cudart and cuBLAS alone; this case needs cuSOLVER, cuFFT, cuDNN or NCCL" ;;
      *) fingerprint "$version" "$stage/toolkit-$version" ;;
    esac
    for f in "$root"/cases/*/*.c "$root"/cases/*/*.cu; do
      name=$(basename "${f%.*}"); family=$(basename "$(dirname "$f")")
      mkdir -p "$stage/toolkit-$version/cases/$family"
      if ! column_runs "$version" "$f"; then
        printf '#!/bin/sh\nprintf "skip\\t%%s\\n" "%s" >> "$ATLAS_RECORD"\necho "[skip] %s"\nexit 77\n' \
          "not run: $why" "not run: $why" > "$stage/toolkit-$version/cases/$family/$name"
        chmod +x "$stage/toolkit-$version/cases/$family/$name"
      elif [ -x "$dir/cases/$family/$name" ]; then
        cp "$dir/cases/$family/$name" "$stage/toolkit-$version/cases/$family/"
      else
        die "$dir/cases/$family/$name: not built (cmake --build $dir --target case_$name)"
      fi
    done
    echo "$version" >> "$stage/versions.txt"
  done
  mkdir -p "$(dirname "$out")"
  tar -C "$stage" -cJf "$out" .
  rm -rf "$stage"
  echo "$out: $(du -h "$out" | cut -f1), versions $*"
}

sweep() {  # tarball out seconds
  local tarball=$1 out=$2 limit=${3:-420} start=$SECONDS version
  mkdir -p "$root/build/versions" "$out"
  tar -C "$root/build/versions" -xJf "$tarball"
  ln -sfn "$root/build/versions/current" "$root/build/toolkit-sweep"
  ATLAS_CUDA_VERSION=sweep cmake --preset toolkit-prebuilt < /dev/null > "$out/configure.log" 2>&1
  cmake --build "$root/build/toolkit-sweep-run" --target atlas-run < /dev/null >> "$out/configure.log" 2>&1
  # Cases of cases/driver_versions find the files they need here (in the
  # system column only: a runtime column varies the runtime alone).
  local extra=()
  [ -d "$root/build/versions/driver-535" ] && extra+=("ATLAS_DRIVER_535=$root/build/versions/driver-535")
  [ -d "$root/build/versions/toolkit-13.5/lib" ] && extra+=("ATLAS_CUDART_NEWER=$root/build/versions/toolkit-13.5/lib")
  [ -n "${ATLAS_SWEEP_OTHER_CUBLASLT:-}" ] && extra+=("ATLAS_OTHER_CUBLASLT=$ATLAS_SWEEP_OTHER_CUBLASLT")
  while read -r version; do
    if [ $((SECONDS - start)) -gt "$limit" ]; then echo "not run: $version (the sweep's ${limit} s were spent)" | tee -a "$out/sweep.log"; continue; fi
    # The system's build runs as a cuBLAS column: with $ATLAS_SWEEP_CUBLAS_DIR
    # (another cuBLAS 13 build) first, the tests matching $ATLAS_SWEEP_SYSTEM_TESTS.
    # $ATLAS_SWEEP_TESTS (a ctest -R regex) runs part of each runtime column:
    # a filtered run writes <id>.partial.json, laid over the complete column.
    local library_path=$root/build/versions/toolkit-$version/lib select=(-R "${ATLAS_SWEEP_TESTS:-.}" -E 'atlas/report|rules-lint') with=()
    if [ "$version" = system ]; then
      [ -n "${ATLAS_SWEEP_CUBLAS_DIR:-}" ] || { echo "not run: system (no ATLAS_SWEEP_CUBLAS_DIR)" | tee -a "$out/sweep.log"; continue; }
      library_path=$ATLAS_SWEEP_CUBLAS_DIR
      select=(-R "${ATLAS_SWEEP_SYSTEM_TESTS:-.}" -E 'atlas/report|rules-lint')
      with=("${extra[@]}")
    fi
    if [ "${version%-cublas}" != "$version" ]; then
      # a cuBLAS column: its cuBLAS where toolkit.sh runtime unpacked it (rpath of the build, too)
      local blas; blas=$(runtime_dir "$version")
      ls "$blas"/libcublasLt.so.1* > /dev/null 2>&1 ||
        { echo "not run: $version (no cuBLAS in $blas: toolkit.sh runtime $(base_version "$version") DIR with its packages)" | tee -a "$out/sweep.log"; continue; }
      library_path=$library_path:$blas
    fi
    ln -sfn "$root/build/versions/toolkit-$version" "$root/build/versions/current"
    # The previous column's parts and fingerprint go; registered.txt (written
    # at configure time: collect's list of every variant) stays.
    rm -rf "$root/build/toolkit-sweep-run/atlas/parts" "$root/build/toolkit-sweep-run/atlas/fingerprint.txt" \
           "$root/build/toolkit-sweep-run/results"
    local t=$SECONDS
    env "${with[@]}" LD_LIBRARY_PATH="$library_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      ctest --test-dir "$root/build/toolkit-sweep-run" -j16 "${select[@]}" < /dev/null > "$out/ctest-$version.log" 2>&1 || true
    cp "$root"/build/toolkit-sweep-run/results/*.json "$out/" 2>/dev/null || echo "no results file for $version" >> "$out/sweep.log"
    echo "$version: $((SECONDS - t)) s, $(tail -3 "$out/ctest-$version.log" | head -1)" | tee -a "$out/sweep.log"
  done < "$root/build/versions/versions.txt"
}

# A cuBLAS build as the difference from another (zstd --patch-from): two
# cuBLAS 13 builds share most of their 500 MB, so a build the GPU machine lacks
# travels as ~130 MB against the one it has. Every file is checked against
# toolkit.sha256 ("cublas-X.Y.Z.W/<file>" lines) before and after.
delta() {  # key base out
  local key=$1 base=$2 out=$3/$1 f
  mkdir -p "$out"
  for f in libcublas.so.13 libcublasLt.so.13; do
    check "/opt/$key/lib/$f" "$key/$f"; check "/opt/$base/lib/$f" "$base/$f"
    zstd -q -f -"${ATLAS_DELTA_LEVEL:-12}" --long=31 -T0 --patch-from="/opt/$base/lib/$f" "/opt/$key/lib/$f" -o "$out/$f.zst"
  done
  echo "$base" > "$out/base.txt"
  du -sh "$out"
}
undelta() {  # dir-with-the-delta base-lib-dir...: /opt/<key>/lib
  local dir=$1 key base f from; shift
  key=$(basename "$dir"); base=$(cat "$dir/base.txt")
  mkdir -p "/opt/$key/lib"
  for f in libcublas.so.13 libcublasLt.so.13; do
    from=""
    for d in "$@"; do
      for candidate in "$d/$f" "$d/$f".*; do
        [ -f "$candidate" ] && (check "$candidate" "$base/$f" > /dev/null 2>&1) && { from=$candidate; break 2; }
      done
    done
    [ -n "$from" ] || die "$base/$f: no file with its sha256 in $* (the delta needs that very build)"
    zstd -q -d -f --long=31 --patch-from="$from" "$dir/$f.zst" -o "/opt/$key/lib/$f"
    check "/opt/$key/lib/$f" "$key/$f"
  done
  ls "/opt/$key/lib"
}

# PTX as a given NVRTC writes it (ctypes: NVRTC needs no GPU).
ptx() {  # libnvrtc out
  python3 - "$1" "$2" <<'PY'
import ctypes, sys
nvrtc = ctypes.CDLL(sys.argv[1])
source = b'extern "C" __global__ void noop(int *out) { if (out) *out = 1; }'
program = ctypes.c_void_p()
def ok(status, what):
    if status != 0:
        sys.exit("toolkit.sh ptx: %s failed with NVRTC status %d" % (what, status))
ok(nvrtc.nvrtcCreateProgram(ctypes.byref(program), source, b"noop.cu", 0, None, None), "nvrtcCreateProgram")
options = (ctypes.c_char_p * 1)(b"--gpu-architecture=compute_90")
ok(nvrtc.nvrtcCompileProgram(program, 1, options), "nvrtcCompileProgram")
size = ctypes.c_size_t()
ok(nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size)), "nvrtcGetPTXSize")
text = ctypes.create_string_buffer(size.value)
ok(nvrtc.nvrtcGetPTX(program, text), "nvrtcGetPTX")
major, minor = ctypes.c_int(), ctypes.c_int()
nvrtc.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
with open(sys.argv[2], "w") as f:
    f.write("// NVRTC %d.%d (%s), --gpu-architecture=compute_90: harness/toolkit.sh ptx\n" % (major.value, minor.value, sys.argv[1].rsplit("/", 1)[-1]))
    f.write(text.value.decode())
print("%s: PTX of NVRTC %d.%d, %s" % (sys.argv[2], major.value, minor.value,
      next(line for line in text.value.decode().splitlines() if line.startswith(".version"))))
PY
}

# What a build against VERSION and a run of it need.
environment() {
  local version=$1 prefix=/opt/cuda-$1
  case $version in
    11.8|12.4) echo "preset: toolkit-$version (nvcc $version from $prefix)"
               echo "LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu" ;;
    12.*|13.*) [ -n "${wheel[$version]:-}" ] || die "no recipe for CUDA $version"
               local nvcc=/opt/cuda-12.4/usr/lib/nvidia-cuda-toolkit/bin/nvcc
               [ "${version%%.*}" = 13 ] && nvcc=/usr/local/cuda/bin/nvcc
               echo "preset: toolkit-$version"
               echo "cmake -DCMAKE_CUDA_COMPILER=$nvcc -DCUDAToolkit_INCLUDE_DIR=$prefix/include -DCUDA_cudart_LIBRARY=$prefix/lib/libcudart.so -DCMAKE_BUILD_RPATH=$prefix/lib"
               echo "LD_LIBRARY_PATH=$prefix/lib" ;;
    *) die "no recipe for CUDA $version" ;;
  esac
}

command=${1:-}
key=${2:-}
case $command in
  --help|-h|"") sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  fetch)
    [ -n "$key" ] || die "usage: toolkit.sh fetch VERSION|driver-535|nvrtc-X.Y"
    case $key in
      11.8|12.4) debian_toolkit "$key" ;;
      driver-535) driver_535 ;;
      nvrtc-*) [ -n "${wheel[$key]:-}" ] || die "no recipe for $key"; nvrtc "$key" ;;
      cublas-*) cublas "$key" ;;
      *) [ -n "${wheel[$key]:-}" ] || die "no recipe for CUDA $key (try: toolkit.sh list)"; runtime_wheel "$key" ;;
    esac ;;
  env) environment "${key:?usage: toolkit.sh env VERSION}" ;;
  runtime)
    [ -n "$key" ] || die "usage: toolkit.sh runtime VERSION DIR"
    mkdir -p "/opt/cuda-$key"
    for deb in "${3:?the folder with the runtime packages}"/*.deb; do check "$deb"; dpkg -x "$deb" "/opt/cuda-$key"; done ;;
  targets) targets "$key" ;;
  delta) delta "${2:?usage: toolkit.sh delta cublas-KEY cublas-BASE OUT}" "${3:?the base build}" "${4:?the folder for the delta}" ;;
  undelta) shift; undelta "${1:?usage: toolkit.sh undelta DIR/cublas-KEY BASE-LIB-DIR...}" "${@:2}" ;;
  ptx) ptx "${2:?usage: toolkit.sh ptx LIBNVRTC OUT}" "${3:?usage: toolkit.sh ptx LIBNVRTC OUT}" ;;
  pack) out=${2:?usage: toolkit.sh pack OUT VERSION...}; shift 2; pack "$out" "$@" ;;
  sweep) sweep "${2:?usage: toolkit.sh sweep TARBALL OUT [SECONDS]}" "${3:?the folder for the results}" "${4:-420}" ;;
  list) echo "11.8 12.4 (Debian) $(printf '%s\n' "${!wheel[@]}" | sort -V | tr '\n' ' ') driver-535 cublas-X.Y.Z.W" ;;
  *) die "usage: toolkit.sh fetch|env|runtime|list KEY" ;;
esac
