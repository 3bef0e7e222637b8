// A cloth's keys "rest_shape" and "uv_scale" (scene.h RestShape).
#include <string>

#include "core/json_node.h"
#include "core/scene_read_parts.h"

namespace cloth::detail {

void readRestShape(const JsonNode& n, ClothDesc& c) {
    if (n.has("rest_shape")) {
        const std::string shape = n["rest_shape"].string();
        if (shape == "positions")
            c.restShape = RestShape::Positions;
        else if (shape == "uv")
            c.restShape = RestShape::Uv;
        else
            n["rest_shape"].fail("'" + shape + "' is not a rest shape (positions or uv)");
    }
    if (n.has("uv_scale")) {
        if (c.restShape != RestShape::Uv)
            n["uv_scale"].fail("applies to \"rest_shape\": \"uv\" only");
        c.uvScale = positiveInRange(n["uv_scale"], 0.0f, kMaxUvScale,
                                    "is beyond the sane range of a pattern's scale (at most "
                                    "10000 m per UV unit)");
    }
}

}  // namespace cloth::detail
