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
  nlohmann-json3-dev libstb-dev libimgui-dev libcli11-dev
  # projective dynamics' sparse Cholesky (and the implicit models' linear algebra)
  libeigen3-dev
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

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
