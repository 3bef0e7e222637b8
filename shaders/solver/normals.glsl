// Unit vertex normals of the original vertices: the normalised sum of the area-weighted normals
// of the triangles around each vertex, (0, 0, 1) where that sum is zero. STRIDED as in
// colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { CountPush pc; };

void vertexNormal(uint v) {
    vec3 n = vec3(0.0);
    for (uint k = vertexTriOffsets[v]; k < vertexTriOffsets[v + 1u]; ++k) {
        uint t = 3u * vertexTriangles[k];
        n += triangleNormal(vec3(loadPosition(triangles[t])), vec3(loadPosition(triangles[t + 1u])),
                            vec3(loadPosition(triangles[t + 2u])));
    }
    float len2 = dot(n, n);
    storeNormal(v, len2 > 0.0 ? vec4(n / sqrt(len2), 0.0) : vec4(0.0, 0.0, 1.0, 0.0));
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) vertexNormal(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        vertexNormal(gl_GlobalInvocationID.x);
    }
}
