#!/usr/bin/env bash
# Installs everything the project needs to build, test and run, on a fresh Debian 12 machine.
# Idempotent: run it as often as you like. Needs root (or sudo).
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # fuzzing (tools/fuzz.sh): clang 14, its libFuzzer and sanitizer runtimes, llvm-symbolizer
  clang libclang-rt-14-dev llvm
  # Vulkan: loader, headers, volk, shader compiler, lavapipe, validation layers, tools
  libvulkan-dev libvulkan-volk-dev glslc libshaderc-dev spirv-tools
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  # libraries
  libsdl2-dev libglm-dev libtinyobjloader-dev libgtest-dev libgmock-dev
  nlohmann-json3-dev libstb-dev libimgui-dev libcli11-dev libtinygltf-dev
  # projective dynamics' sparse Cholesky (and the implicit models' linear algebra)
  libeigen3-dev
  # the Khronos glTF validator (npm package, below) for the glTF export's tests
  nodejs
  # --video: H.264 through FFmpeg's libraries (libavcodec with libx264); ffprobe for its tests
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev ffmpeg
  # headless window tests and plots
  xvfb xauth python3 python3-matplotlib
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null; then
    missing+=("$p")
  fi
done

# npm: Debian's package, unless an npm is already there (NodeSource's nodejs carries its own npm
# and conflicts with Debian's).
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
else
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The Khronos glTF validator (tools/gltf_validate.js runs it), pinned, in tools/gltf_validator/
# (ignored by git). Installed once: a second run finds it and does nothing.
VALIDATOR_VERSION=2.0.0-dev.3.10
VALIDATOR_DIR="$(cd "$(dirname "$0")" && pwd)/gltf_validator"
if ! grep -q "\"version\": \"$VALIDATOR_VERSION\"" \
    "$VALIDATOR_DIR/node_modules/gltf-validator/package.json" 2>/dev/null; then
  echo "setup: installing gltf-validator@$VALIDATOR_VERSION in $VALIDATOR_DIR"
  npm install --prefix "$VALIDATOR_DIR" --no-audit --no-fund --no-save \
    "gltf-validator@$VALIDATOR_VERSION"
fi
