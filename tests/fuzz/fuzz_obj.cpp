// libFuzzer target: OBJ text through the pre-scan, tinyobjloader and mesh validation
// (cloth::parseObjText, what loadObj runs after reading the file).
#include "core/mesh.h"
#include "fuzz_guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string obj = cloth::fuzz::text(data, size);
    cloth::fuzz::refusesOrSucceeds([&] {
        const cloth::Mesh mesh = cloth::parseObjText(obj, "fuzz.obj");
        // A mesh that was accepted is valid: validating it again must not throw.
        cloth::validateMesh(mesh, "fuzz.obj (accepted)");
    });
    return 0;
}
