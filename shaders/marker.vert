// Small cubes on pinned, kinematic and grabbed vertices (one instance per Marker).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"
#include "geometry.glsl"

layout(location = 0) out vec3 outNormal;  // view space
layout(location = 1) flat out uint outKind;

// 36 vertices of a unit cube, two triangles per face, counter-clockwise seen from outside.
const vec3 kFaceNormal[6] = vec3[](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0),
                                   vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));
const vec2 kQuad[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                             vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
    uint face = uint(gl_VertexIndex) / 6u;
    vec2 q = kQuad[uint(gl_VertexIndex) % 6u];
    vec3 n = kFaceNormal[face];
    // Two axes spanning the face, with s x t = n so the winding faces outwards.
    vec3 s = abs(n.x) > 0.5 ? vec3(0, 1, 0) : vec3(1, 0, 0);
    vec3 t = cross(n, s);
    s = cross(t, n);
    vec3 corner = n + q.x * s + q.y * t;

    Marker m = markers[gl_InstanceIndex];
    uint vertex = m.kind == MARKER_GRAB ? frame.options.x : m.vertex;
    vec3 centre = m.kind == MARKER_GRAB_TARGET ? frame.grabTarget.xyz : positions[vertex].xyz;
    float size = frame.markers.x * (m.kind >= MARKER_GRAB ? 1.4 : 1.0);
    gl_Position = frame.viewProj * vec4(centre + size * corner, 1.0);
    outNormal = mat3(frame.view) * n;
    outKind = m.kind;
}
