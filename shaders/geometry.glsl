// Vertex pulling for the geometry passes: the solver's buffers, read as storage buffers, and the
// colliders' meshes and placements.
#ifndef CLOTH_RENDER_GEOMETRY_GLSL
#define CLOTH_RENDER_GEOMETRY_GLSL

layout(std430, set = 0, binding = RBIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = RBIND_NORMALS) readonly buffer Normals { vec4 normals[]; };
layout(std430, set = 0, binding = RBIND_UVS) readonly buffer Uvs { vec2 uvs[]; };
layout(std430, set = 0, binding = RBIND_MARKERS) readonly buffer Markers { Marker markers[]; };
layout(std430, set = 0, binding = RBIND_COLLIDER_VERTICES) readonly buffer ColliderVertices {
    ColliderVertex colliderVertices[];
};
layout(std430, set = 0, binding = RBIND_COLLIDER_INSTANCES) readonly buffer ColliderInstances {
    ColliderInstance colliderInstances[];
};

#endif
