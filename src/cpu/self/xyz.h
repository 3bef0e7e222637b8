// A vertex's position, the xyz of its vec4 (w holds the inverse mass): for src/cpu/self/ alone.
#pragma once

#include <glm/glm.hpp>

namespace cloth::self_detail {

inline glm::vec3 xyz(const glm::vec4& v) {
    return glm::vec3(v);
}

}  // namespace cloth::self_detail
