// A line-by-line check of OBJ text for what tinyobjloader accepts silently (it reads "nan",
// "inf" and garbage coordinates as 0, keeps out-of-range face indices, and drops faces with
// fewer than three vertices) or mishandles (its number parser overflows on long exponents).
// Lines end at "\n", "\r\n" or a lone "\r", as in tinyobjloader. Internal to cloth_core.
#pragma once

#include <string>
#include <string_view>

namespace cloth::detail {

// Throws cloth::Error "<source>: line N: <problem>" for the first bad `v`, `vn`, `vt` or `f`
// line. Returns the text to give tinyobjloader: only the `v`, `vt` and `f` lines, rebuilt from
// their checked tokens (numbers with an exponent rewritten as the float they denote, normal
// indices dropped), so that no line reaches tinyobjloader unchecked. Everything else (normals,
// groups, materials, smoothing, lines, points, tinyobjloader's `vw` weights) is unused here
// and dropped.
std::string scanObjText(std::string_view text, const std::string& source);

}  // namespace cloth::detail
