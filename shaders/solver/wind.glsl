// The wind of a substep (Step::Wind, before the prediction): each vertex, phantom copies
// included, gets v += w F dt with F the drag and lift on its area share and the unit normal of
// its original vertex, from the current positions (src/kernels/wind.h). Reads positions,
// writes each vertex's own velocity. STRIDED as in colors.comp.
#include "buffers.glsl"

layout(local_size_x_id = SPEC_WORKGROUP_SIZE) in;
layout(constant_id = SPEC_STRIDED) const bool STRIDED = false;
layout(push_constant, std430) uniform Push { WindPush pc; };

void windVertex(uint i) {
    WindVertex wv = windVertices[i];
    vec3 sum = vec3(0.0);
    for (uint k = vertexTriOffsets[wv.normalVertex]; k < vertexTriOffsets[wv.normalVertex + 1u]; ++k) {
        uint t = 3u * vertexTriangles[k];
        sum += triangleNormal(vec3(loadPosition(triangles[t])), vec3(loadPosition(triangles[t + 1u])),
                              vec3(loadPosition(triangles[t + 2u])));
    }
    WindParams wind = pc.wind;
    wind.velocity = clock[pc.substep].wind;
    vec4 vel = loadVelocity(i);
    vel += vec4(windVelocityChange(vec3(vel), loadPosition(i).w, windNormal(sum), wv.area, wind),
                0.0);
    storeVelocity(i, vel);
}

void main() {
    if (STRIDED) {
        uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
        for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += stride) windVertex(i);
    } else if (gl_GlobalInvocationID.x < pc.count) {
        windVertex(gl_GlobalInvocationID.x);
    }
}
