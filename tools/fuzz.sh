#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and runs each for SECONDS
# (default 60), one after the other, from a corpus seeded with assets/ and tests/data/.
# Exits non-zero on any finding: the input that caused it is left in build-fuzz/findings/TARGET/
# (make it a regression input in tests/data/fuzz/, see the README there).
#
#   tools/fuzz.sh [SECONDS] [TARGET...]     targets: fuzz_obj fuzz_scene fuzz_scene_roundtrip
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(fuzz_obj fuzz_scene fuzz_scene_roundtrip); fi

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCLOTH_FUZZ=ON >/dev/null
cmake --build build-fuzz --target "${targets[@]}"

seeds() {  # the seed files of one target
    case "$1" in
        fuzz_obj) find assets/meshes tests/data/bad tests/data/fuzz/obj -type f \
                      \( -name '*.obj' -o -path '*/fuzz/obj/*' \) ;;
        *) find assets/scenes tests/data/bad tests/data/gpu tests/data/fuzz/scene -type f \
               \( -name '*.json' -o -path '*/fuzz/scene/*' \) ;;
    esac 2>/dev/null || true
}

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=0
for t in "${targets[@]}"; do
    corpus="build-fuzz/corpus/$t"
    findings="build-fuzz/findings/$t"
    log="build-fuzz/$t.log"
    mkdir -p "$corpus" "$findings"
    seeds "$t" | while read -r f; do cp -f "$f" "$corpus/seed_${f//\//_}"; done
    echo "fuzz: $t for ${seconds}s (log: $log)"
    status=0
    "build-fuzz/fuzz/$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" \
        >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $t: ${execs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs, exit $status"
    if [ "$status" -ne 0 ]; then
        failed=1
        grep -E "ERROR|runtime error|fuzz finding|Test unit written" "$log" | head -20 || true
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz: FINDINGS (inputs in build-fuzz/findings/)" >&2
    exit 1
fi
echo "fuzz: no findings"
