// A material's key "color" (scene.h Material::color): [r, g, b], linear RGB, each from 0 to 1.
#include <cmath>
#include <string>

#include "core/json_node.h"
#include "core/scene_read_parts.h"

namespace cloth::detail {

glm::vec3 readColor(const JsonNode& n) {
    const auto refuse = [&](const std::string& got) {
        n.fail("must be [r, g, b]: three numbers from 0 to 1 (linear RGB); " + got);
    };
    if (!n.isArray() || n.size() != 3) refuse("got something else");
    glm::vec3 c;
    for (std::size_t i = 0; i < 3; ++i) {
        const JsonNode v = n[i];
        if (!v.isNumber()) refuse("item " + std::to_string(i) + " is not a number");
        const double d = v.numberAsDouble();
        if (!std::isfinite(d) || d < 0.0 || d > 1.0)
            refuse("item " + std::to_string(i) + " is " + shortNumber(d));
        c[int(i)] = static_cast<float>(d);
    }
    return c;
}

}  // namespace cloth::detail
