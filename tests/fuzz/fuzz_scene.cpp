// libFuzzer target: scene JSON through the strict reader (cloth::parseSceneJson, what
// loadSceneFile runs after reading the file), which also builds and checks every cloth's mesh.
#include "core/scene.h"
#include "fuzz_guard.h"
#include "scene_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string json = cloth::fuzz::text(data, size);
    if (cloth::fuzz::hasLargeGrid(json)) return -1;
    cloth::fuzz::refusesOrSucceeds(
        [&] { cloth::parseSceneJson(json, "fuzz.json", cloth::fuzz::baseDir()); });
    return 0;
}
