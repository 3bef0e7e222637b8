#!/usr/bin/env bash
# The GPU check: on whatever Vulkan device is present, clothcheck (GPU against the CPU
# reference, validation layer on) on five scenes, three without self-collision and two with it,
# and on two scenes under the other models (PD's Jacobi step, mass-spring); the four
# self-collision scenes timed by clothsim on each backend (120 frames, no validation layer, a
# read-back every 10th frame); clothbench at 64²-512² and clothbench --collisions at 64²-256²
# (stages and the frame's counters); all written to one JSON stamped with the device, driver,
# commit and date.
#
#   tools/gpu_check.sh [--quick] [--out FILE]   build Release (clothcheck, clothbench) and run
#   tools/gpu_check.sh --pack DIR               build Release and make DIR: the programs, every
#                                               shared library they load (ldd, glibc and its
#                                               loader included), the Vulkan loader, the
#                                               validation layer, the scenes and this script
#   DIR/gpu_check.sh [--quick] [--out FILE]     run from that folder: no compiler, no packages,
#                                               no network needed, only a Vulkan driver
#
# --quick: tiny sizes and few frames, to test the plumbing (on lavapipe: about a minute).
# --out FILE: where the JSON goes (default: gpu_check.json in the current directory).
# --logs DIR: also keep each step's output there.
# --exec PROGRAM ARGS...: run one program (clothcheck, clothbench or clothsim) of the pack or build with
#   the pack's libraries and driver set-up, and nothing else (the last option; paths under
#   assets/ are the pack's: DIR/assets/scenes/...).
# --build-dir DIR: take clothcheck and clothbench from that build instead of building Release in
#   build/ (the test suite packs and runs its own sanitizer build this way).
# Each step runs under a time limit; a step that fails is recorded in the JSON ("failures") and
# the others still run; the exit status is 1 when any step failed.
set -Eeuo pipefail
# A command that fails says so (set -e alone ends the script without a word).
trap 'echo "gpu_check: line $LINENO: a command failed (exit $?): $BASH_COMMAND" >&2' ERR

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
quick=0
exec_args=()
out="gpu_check.json"
pack=""
logs=""
builddir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --out) [ $# -ge 2 ] || { echo "gpu_check: --out needs a file" >&2; exit 2; }; out="$2"; shift ;;
    --logs) [ $# -ge 2 ] || { echo "gpu_check: --logs needs a folder" >&2; exit 2; }; logs="$2"; shift ;;
    --build-dir) [ $# -ge 2 ] || { echo "gpu_check: --build-dir needs a folder" >&2; exit 2; }; builddir="$(cd "$2" && pwd)"; shift ;;
    --pack) [ $# -ge 2 ] || { echo "gpu_check: --pack needs a folder" >&2; exit 2; }; pack="$2"; shift ;;
    --exec) shift; [ $# -ge 1 ] || { echo "gpu_check: --exec needs a program" >&2; exit 2; }
            exec_args=("$@"); break ;;
    -h|--help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

packed=0
if [ -f "$here/COMMIT" ] && [ -x "$here/bin/clothcheck" ]; then packed=1; fi

# --- Building (in the repository) -----------------------------------------------------------
build_release() {
  local repo="$here/.."
  if [ -n "$builddir" ]; then return 0; fi
  builddir="$(cd "$repo" && pwd)/build"
  cmake -S "$repo" -B "$builddir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$builddir" --target clothcheck clothbench clothsim
}

# No pipeline here ends in a reader that quits early (awk's exit, head, grep -q): under pipefail
# the writer's SIGPIPE fails the pipeline, and set -e then ended the script without a word,
# now and then (a flaky CI run of tools.gpu_check_quick).

# The shared library a program loads, as ldd resolves it here.
copy_lib() {
  local lib="$1" dest="$2"
  [ -e "$lib" ] || return 0
  cp -L "$lib" "$dest/$(basename "$lib")"
}

make_pack() {
  local dir="$1" repo="$here/.."
  [ "$packed" -eq 0 ] || { echo "gpu_check: --pack runs in the repository, not a packed folder" >&2; exit 2; }
  build_release
  rm -rf "$dir"
  mkdir -p "$dir/bin" "$dir/lib" "$dir/glibc" "$dir/cxx" "$dir/layers"
  for prog in clothcheck clothbench clothsim; do
    cp "$builddir/$prog" "$dir/bin/"
    strip --strip-unneeded "$dir/bin/$prog"
    # Every library ldd lists. glibc (with its loader) and the C++ runtime go in folders of their
    # own: the run takes them only where the machine's own are older (a newer system's driver
    # libraries need its newer glibc).
    ldd "$builddir/$prog" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}' |
      while read -r lib; do
        case "$(basename "$lib")" in
          ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*) copy_lib "$lib" "$dir/glibc" ;;
          libstdc++.so*|libgcc_s.so*) copy_lib "$lib" "$dir/cxx" ;;
          *) copy_lib "$lib" "$dir/lib" ;;
        esac
      done
  done
  getconf GNU_LIBC_VERSION | awk '{print $2}' >"$dir/glibc/VERSION"
  objdump -T "$dir"/bin/* | grep -o 'GLIBCXX_[0-9.]*' | sort -V | tail -n 1 >"$dir/cxx/NEEDS"
  # volk opens the Vulkan loader at run time, so ldd does not list it; nor glvnd's libraries,
  # which the NVIDIA driver's ICD expects and a machine with only the driver may lack.
  for name in libvulkan.so.1 libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libGL.so.1 \
              libOpenGL.so.0 libGLESv2.so.2; do
    local path
    path="$(ldconfig -p | awk -v n="$name" '$1==n && /x86-64/ && f==""{f=$NF} END{print f}')"
    [ -n "$path" ] && copy_lib "$path" "$dir/lib"
  done
  local layer=/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
  if [ -f "$layer" ]; then
    cp "$layer" "$dir/layers/"
    copy_lib /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so "$dir/lib"
    strip --strip-unneeded "$dir/lib/libVkLayer_khronos_validation.so" 2>/dev/null || true
  fi
  cp -r "$repo/assets" "$dir/assets"
  cp "${BASH_SOURCE[0]}" "$dir/gpu_check.sh"
  git -C "$repo" rev-parse HEAD 2>/dev/null >"$dir/COMMIT" || echo unknown >"$dir/COMMIT"
  if [ -n "$(git -C "$repo" status --porcelain 2>/dev/null)" ]; then
    sed -i 's/$/ (with uncommitted changes)/' "$dir/COMMIT"
  fi
  echo "gpu_check: packed $(du -sh "$dir" | cut -f1) into $dir; run $dir/gpu_check.sh there"
}

if [ -n "$pack" ]; then
  make_pack "$pack"
  exit 0
fi

# --- Running ---------------------------------------------------------------------------------
if [ "$packed" -eq 1 ]; then
  commit="$(cat "$here/COMMIT")"
  assets="$here/assets"
  # The driver's own libraries come after ours: the system's search path and the usual places a
  # container mounts the NVIDIA driver.
  libpath="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/usr/local/nvidia/lib64:/usr/local/nvidia/lib"
  # The C++ runtime packed along only where the system's lacks the newest version we need.
  syscxx="$(ldconfig -p 2>/dev/null | awk '$1=="libstdc++.so.6" && /x86-64/ && f==""{f=$NF} END{print f}')"
  if [ -z "$syscxx" ] || ! grep -qa "$(cat "$here/cxx/NEEDS")" "$syscxx"; then
    libpath="$here/cxx:$libpath"
  fi
  # glibc and its loader packed along only where the system's is older than the one we built on.
  sysglibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  ourglibc="$(cat "$here/glibc/VERSION")"
  if [ -n "$sysglibc" ] &&
     [ "$(printf '%s\n%s\n' "$ourglibc" "$sysglibc" | sort -V | sed -n 1p)" = "$ourglibc" ]; then
    loader=""
    echo "gpu_check: this machine's glibc $sysglibc (built with $ourglibc)"
  else
    loader="$(ls "$here"/glibc/ld-linux*.so* | sed -n 1p)"
    libpath="$here/glibc:$libpath"
    echo "gpu_check: the packed glibc $ourglibc (this machine's: ${sysglibc:-unknown})"
  fi
  export VK_LAYER_PATH="$here/layers"
  # No driver manifest where the loader looks (a container with the driver mounted elsewhere)?
  if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] &&
     ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json \
          /usr/local/share/vulkan/icd.d/*.json >/dev/null 2>&1; then
    for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
               /usr/local/nvidia/icd.d/nvidia_icd.json /usr/share/nvidia/nvidia_icd.json; do
      if [ -f "$icd" ]; then export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"; break; fi
    done
  fi
  # glvnd's EGL finds the NVIDIA driver's EGL only through a vendor file.
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && ! ls /usr/share/glvnd/egl_vendor.d/*.json \
       /etc/glvnd/egl_vendor.d/*.json >/dev/null 2>&1; then
    for v in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
      if [ -f "$v" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES="$v"; fi
    done
  fi
  if [ -n "$loader" ]; then
    runner="exec $(printf '%q' "$loader") --library-path $(printf '%q' "$libpath") $(printf '%q' "$here/bin")/\"\$1\" \"\${@:2}\""
  else
    runner="export LD_LIBRARY_PATH=$(printf '%q' "$libpath"); exec $(printf '%q' "$here/bin")/\"\$1\" \"\${@:2}\""
  fi
else
  repo="$(cd "$here/.." && pwd)"
  build_release
  commit="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git -C "$repo" status --porcelain 2>/dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
  fi
  assets="$repo/assets"
  runner="exec $(printf '%q' "$builddir")/\"\$1\" \"\${@:2}\""
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# $work/run PROGRAM ARGS...: one program of this build or of the packed folder.
printf '#!/usr/bin/env bash\n%s\n' "$runner" >"$work/run"
chmod +x "$work/run"
if [ "${#exec_args[@]}" -gt 0 ]; then
  case "${exec_args[0]}" in clothcheck|clothbench|clothsim) ;;
    *) echo "gpu_check: --exec runs clothcheck, clothbench or clothsim, not '${exec_args[0]}'" >&2; exit 2 ;;
  esac
  rc=0; "$work/run" "${exec_args[@]}" || rc=$?; exit "$rc"
fi
failures=()
started=$(date +%s)

# step NAME LIMIT_SECONDS PROGRAM ARGS...: runs one program under a time limit (cut to what is
# left of the whole check's), output to $work/NAME.log and its tail to the terminal; a failure
# is recorded, never fatal. Past the whole check's deadline, steps are skipped and recorded.
step() {
  local name="$1" limit="$2"; shift 2
  local t0 rc=0 left
  t0=$(date +%s)
  left=$(( deadline - (t0 - started) ))
  echo "== $name"
  if [ "$left" -lt 5 ]; then
    failures+=("$name: skipped, the check's $deadline s were spent")
    echo "   skipped: the check's $deadline s were spent"
    return 0
  fi
  [ "$limit" -le "$left" ] || limit="$left"
  timeout --kill-after=10 "$limit" "$work/run" "$@" >"$work/$name.log" 2>&1 || rc=$?
  tail -n 3 "$work/$name.log"
  echo "   ($(( $(date +%s) - t0 )) s, exit $rc)"
  if [ "$rc" -ne 0 ]; then
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      failures+=("$name: timed out after $limit s")
    else
      # The line that says why (a distance past the tolerance, a count not reached), else the last.
      local why
      why="$(grep -E 'EXCEEDED|NOT REACHED|clothcheck: |clothbench: ' "$work/$name.log" | tail -n 1 || true)"
      [ -n "$why" ] || why="$(grep -v '^ *$' "$work/$name.log" | tail -n 1 || true)"
      failures+=("$name: exit $rc: $(printf '%s' "$why" | tr -d '"\\')")
    fi
  fi
}

if [ "$quick" -eq 1 ]; then
  frames=1; grids=(16 32); cgrids=(12); bench=(--warmup 1 --frames 2 --repeats 1)
  cbench=(--warmup 1 --frames 2 --repeats 1); check_limit=300; bench_limit=300; deadline=900
  # One frame of the timed scene, as of each clothcheck: on lavapipe a frame of Velvet's scene
  # costs about 12 s on the GPU, the most of any quick step.
  scene_frames=1; scene_limit=300; inject_frames=3
else
  # Sized for a GPU lent for minutes: a few minutes on an H200 with 16 cores, never past the
  # deadline (the JSON is written in any case).
  frames=120; grids=(64 128 256 512); cgrids=(64 128 256); bench=(--warmup 5 --frames 10 --repeats 3)
  cbench=(--warmup 2 --frames 5 --repeats 2); check_limit=60; bench_limit=90; deadline=540
  scene_frames=120; scene_limit=60; inject_frames=30
  # The two self-collision scenes took 41 and 49 s on an H200 (2026-11-26) and passed 60 s the
  # next day: they get longer, and report each backend's share (cpu_seconds, gpu_seconds).
  self_check_limit=150
fi
threads="$(nproc)"

# The self-collision scenes timed on each backend: clothsim headless, 120 frames, no validation
# layer, positions read back every 10th frame only (its stretch check); frames per second from
# its --stats JSON (ms_per_frame). First, so that a short loan measures them.
self_scenes=(self_collision multiple_objects dress pile)
[ "$quick" -eq 0 ] || self_scenes=(self_collision)
for s in "${self_scenes[@]}"; do
  for b in gpu cpu; do
    step "clothsim_${s}_$b" "$scene_limit" clothsim --headless --scene "$assets/scenes/$s.json" \
      --backend "$b" --threads "$threads" --frames "$scene_frames" --stats "$work/scene_${s}_$b.json"
  done
done

# Three scenes without self-collision (a pinned cloth, a mesh collider, wind), two with it
# (one cloth folding on itself, three cloths on a cube). clothcheck's default mode: exact
# (tolerance 0) on lavapipe, resync with the error model's tolerance on any other device
# (docs/backends.md); its JSON records the mode and the model.
scenes=(hanging drape flag self_collision multiple_objects)
for s in "${scenes[@]}"; do
  file="$s"; [ -f "$assets/scenes/$s.json" ] && file="$assets/scenes/$s.json"
  limit="$check_limit"
  case "$s" in self_collision|multiple_objects) limit="${self_check_limit:-$check_limit}" ;; esac
  step "clothcheck_$s" "$limit" clothcheck --scene "$file" --frames "$frames" \
    --validate --every 30 --json "$work/check_$s.json"
done
# Seeded bugs (clothcheck --inject, in the GPU side only): each check must fail (exit 1) in the
# device's default mode, with validation; one that passes is a verdict blind to that bug, and a
# failure here.
# SCENE:KIND:SCALE:SUBSTEPS, the compliance scaled by 1 + SCALE (empty for the other kinds): the
# smallest that lavapipe with the emulated rounding caught on each scene; SUBSTEPS, if given,
# in place of the scene's (hanging's 60 and the flag's 140 dilute a bug in one substep below the
# rounding's spread) (docs/bench/clothcheck_sensitivity.json, tools/check_sensitivity.py). The
# compliances go into the tube (its seams), where the flag on the default fabric's bending no
# longer shows them at 1e-2 (docs/backends.md).
injections=(hanging:skip-colour::10 flag:skip-colour::15 tube:compliance:1e-2:
            flag:gradient-sign::15 flag:missing-barrier::15)
for entry in "${injections[@]}"; do
  IFS=: read -r s kind scale substeps <<<"$entry"
  file="$s"; [ -f "$assets/scenes/$s.json" ] && file="$assets/scenes/$s.json"
  name="inject_${s}_$kind"
  if [ $(( deadline - ($(date +%s) - started) )) -lt "$check_limit" ]; then
    failures+=("$name: skipped, the check's $deadline s were spent"); continue
  fi
  rc=0
  timeout --kill-after=10 "$check_limit" "$work/run" clothcheck --scene "$file" \
    --frames "$inject_frames" --inject "$kind" ${scale:+--inject-scale "$scale"} \
    ${substeps:+--substeps "$substeps"} --validate --every 10 \
    --json "$work/$name.json" \
    >"$work/$name.log" 2>&1 || rc=$?
  echo "== $name: exit $rc"
  case "$rc" in
    1) ;;  # caught
    0) failures+=("$name: the injected bug was not caught") ;;
    *) failures+=("$name: exit $rc: $(tail -n 1 "$work/$name.log" | tr -d '"\\')") ;;
  esac
done
# The other models on the same device (docs/models.md): PD's Jacobi step on two cloths with rigid
# damping, and the mass-spring model on the pleated curtain's fixed angles (softer springs, so
# that its explicit steps stay few).
step "clothcheck_pd_two_cloths" "$check_limit" clothcheck --scene "$assets/scenes/two_cloths.json" \
  --model pd --iteration jacobi --relaxation 0.5 --frames "$frames" --tolerance 0 --validate \
  --every 30 --json "$work/check_pd_two_cloths.json"
step "clothcheck_mass_spring_pleats" "$check_limit" clothcheck --scene "$assets/scenes/pleats.json" \
  --model mass_spring --spring-stiffness 50 --frames "$frames" --tolerance 0 --validate \
  --every 30 --json "$work/check_mass_spring_pleats.json"
# One run per grid, so that a grid past its limit leaves the others' figures.
for g in "${grids[@]}"; do
  step "clothbench_$g" "$bench_limit" clothbench --backend all --grids "$g" --threads "$threads" \
    "${bench[@]}" --json "$work/bench_$g.json"
done
# Self-collision at one workgroup size (128, which every Vulkan device allows): on an H200 its
# frame time hardly moved across 32-512, and five sizes at 256² took past the step's limit.
for g in "${cgrids[@]}"; do
  step "clothbench_collisions_$g" "$bench_limit" clothbench --collisions --backend all \
    --grids "$g" --threads "$threads" --workgroup-sizes 128 "${cbench[@]}" \
    --json "$work/collisions_$g.json"
done

if [ -n "$logs" ]; then mkdir -p "$logs" && cp "$work"/*.log "$logs/"; fi

# --- One JSON ---------------------------------------------------------------------------------
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
json_file() { if [ -s "$1" ]; then cat "$1"; else printf 'null'; fi; }
# The device as clothcheck saw it (its JSON's only "name", "driver" ... keys are the GPU's).
field() {
  local f
  for f in "$work"/check_*.json; do
    [ -s "$f" ] && sed -n "s/^ *\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" "$f" | sed -n 1p && return 0
  done
  echo unknown
}
{
  printf '{\n  "check": "tools/gpu_check.sh%s",\n' "$([ "$quick" -eq 1 ] && echo ' --quick')"
  printf '  "device": %s,\n' "$(json_string "$(field name)")"
  printf '  "driver": %s,\n' "$(json_string "$(field driver) $(field driver_info) $(field driver_version)")"
  printf '  "commit": %s,\n' "$(json_string "$commit")"
  printf '  "date": %s,\n' "$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
  printf '  "host_cpu": %s,\n' "$(json_string "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | sed -n 1p) ($threads threads)")"
  printf '  "seconds": %s,\n' "$(( $(date +%s) - started ))"
  printf '  "failures": ['
  sep=""
  for f in "${failures[@]+"${failures[@]}"}"; do printf '%s\n    %s' "$sep" "$(json_string "$f")"; sep=","; done
  printf '],\n  "scenes": [\n'
  sep=""
  for s in "${self_scenes[@]}"; do
    for b in gpu cpu; do printf '%s' "$sep"; json_file "$work/scene_${s}_$b.json"; sep=","; done
  done
  printf '],\n  "clothcheck": [\n'
  sep=""
  for s in "${scenes[@]}" pd_two_cloths mass_spring_pleats; do
    printf '%s' "$sep"; json_file "$work/check_$s.json"; sep=","
  done
  printf '],\n  "injections": [\n'
  sep=""
  for entry in "${injections[@]}"; do
    IFS=: read -r s kind scale <<<"$entry"
    printf '%s' "$sep"; json_file "$work/inject_${s}_$kind.json"; sep=","
  done
  printf '],\n  "clothbench": [\n'
  sep=""
  for g in "${grids[@]}"; do printf '%s' "$sep"; json_file "$work/bench_$g.json"; sep=","; done
  printf '],\n  "clothbench_collisions": [\n'
  sep=""
  for g in "${cgrids[@]}"; do printf '%s' "$sep"; json_file "$work/collisions_$g.json"; sep=","; done
  printf ']\n}\n'
} >"$out"
echo "gpu_check: wrote $out ($(( $(date +%s) - started )) s, ${#failures[@]} failed steps)"
for f in "${failures[@]+"${failures[@]}"}"; do echo "  failed: $f"; done
[ "${#failures[@]}" -eq 0 ]
