// libFuzzer target: every scene the reader accepts is written out (cloth::sceneToJson) and read
// back; the second reading must succeed and give an equal Scene.
#include "core/scene.h"
#include "fuzz_guard.h"
#include "scene_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string json = cloth::fuzz::text(data, size);
    if (cloth::fuzz::hasLargeGrid(json)) return -1;
    const std::string dir = cloth::fuzz::baseDir();
    cloth::Scene first;
    if (!cloth::fuzz::refusesOrSucceeds(
            [&] { first = cloth::parseSceneJson(json, "fuzz.json", dir); }))
        return 0;
    const std::string written = cloth::sceneToJson(first, dir);
    cloth::Scene second;
    try {
        second = cloth::parseSceneJson(written, "written.json", dir);
    } catch (const cloth::Error& e) {
        std::fprintf(stderr, "%s\nwritten:\n%s\n", e.what(), written.c_str());
        cloth::fuzz::finding("a scene the reader accepted was refused after writing it out");
    }
    if (!(second == first)) {
        std::fprintf(stderr, "written:\n%s\n", written.c_str());
        cloth::fuzz::finding("the scene read back differs from the scene written");
    }
    return 0;
}
