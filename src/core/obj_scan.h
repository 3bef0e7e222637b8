// A line-by-line check of OBJ text for what tinyobjloader accepts silently: it reads "nan",
// "inf" and garbage coordinates as 0, keeps out-of-range face indices, and drops faces with
// fewer than three vertices. Internal to cloth_core.
#pragma once

#include <string>
#include <string_view>

namespace cloth::detail {

// Throws cloth::Error "<source>: line N: <problem>" for the first bad `v`, `vt` or `f` line.
void scanObjText(std::string_view text, const std::string& source);

}  // namespace cloth::detail
