// Evaluates the shared mesh-collider query on the device for tests/vk/test_mesh_query.cpp: the
// same points through the same code must give the same bits as the CPU build of
// src/kernels/mesh_distance.h.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/mesh_distance.h"

layout(local_size_x_id = 0) in;  // ComputeKernel sets it (64)
layout(std430, set = 0, binding = 0) readonly buffer Nodes { MeshNode meshNodes[]; };
layout(std430, set = 0, binding = 1) readonly buffer Triangles { MeshTriangle meshTriangles[]; };
// points: xyz the point, w the search radius; results: xyz the gradient, w the distance.
layout(std430, set = 0, binding = 2) readonly buffer Points { vec4 points[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push {
    uint root;
    uint count;
} pc;

#define CLOTH_HAS_MESH 1
#include "kernels/mesh_distance.h"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    vec3 g;
    float d = meshSignedDistance(pc.root, vec3(points[i]), points[i].w, g);
    results[i] = vec4(g, d);
}
