// Unit vertex normals of the original vertices: the normalised sum of the area-weighted normals
// of the triangles around each vertex, (0, 0, 1) where that sum is zero.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "constraints.h"
#include "solver_io.h"
#include "solver_buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(push_constant, std430) uniform Push { CountPush pc; };

void main() {
    uint v = gl_GlobalInvocationID.x;
    if (v >= pc.count) return;
    vec3 n = vec3(0.0);
    for (uint k = vertexTriOffsets[v]; k < vertexTriOffsets[v + 1u]; ++k) {
        uint t = 3u * vertexTriangles[k];
        n += triangleNormal(vec3(positions[triangles[t]]), vec3(positions[triangles[t + 1u]]),
                            vec3(positions[triangles[t + 2u]]));
    }
    float len2 = dot(n, n);
    normals[v] = len2 > 0.0 ? vec4(n / sqrt(len2), 0.0) : vec4(0.0, 0.0, 1.0, 0.0);
}
