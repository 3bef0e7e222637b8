// Triangle-mesh colliders: a closed mesh in its collider's frame (scale applied) and a bounding
// volume hierarchy over its triangles, built once at load (src/prep/mesh_collider.h) and moved
// with the collider (queries are made in the collider's frame).
//
// PLACEHOLDER until the BVH lands: the query finds nothing. The interface below is what
// collider.h and the kernels use.
#ifndef CLOTH_SHARED_MESH_COLLIDER_H
#define CLOTH_SHARED_MESH_COLLIDER_H

#include "common.h"

CLOTH_NAMESPACE_BEGIN

// A node: its bounds, and either two children or a range of triangles.
struct MeshNode {
    vec4 lo;  // xyz: bounds' minimum; w: (uint bits) left child, or first triangle of a leaf
    vec4 hi;  // xyz: bounds' maximum; w: (uint bits) right child, or the leaf's triangle count
              //      with MESH_LEAF set
};
CLOTH_CHECK_SIZE(MeshNode, 32)

const uint MESH_LEAF = 0x80000000u;

// A triangle with what a signed distance needs: its corners, its face normal and the
// angle-weighted pseudo-normals of its edges and corners (Baerentzen and Aanaes 2005), so the
// sign of the distance to a closed mesh is right at every feature.
struct MeshTriangle {
    vec4 a;
    vec4 b;
    vec4 c;
    vec4 faceNormal;
    vec4 edgeNormal[3];    // edges ab, bc, ca
    vec4 vertexNormal[3];  // corners a, b, c
};
CLOTH_CHECK_SIZE(MeshTriangle, 160)

CLOTH_NAMESPACE_END

#endif  // CLOTH_SHARED_MESH_COLLIDER_H

// ---- queries: need the node and triangle arrays (C++ passes them, shaders declare buffers
// meshNodes[] and meshTriangles[] before including this with CLOTH_HAS_MESH defined) ----
#if (defined(__cplusplus) || defined(CLOTH_HAS_MESH)) && !defined(CLOTH_SHARED_MESH_QUERY)
#define CLOTH_SHARED_MESH_QUERY
#ifdef __cplusplus
#define CLOTH_MESH_PARAMS const MeshNode *meshNodes, const MeshTriangle *meshTriangles,
#define CLOTH_MESH_ARGS meshNodes, meshTriangles,
#else
#define CLOTH_MESH_PARAMS
#define CLOTH_MESH_ARGS
#endif
CLOTH_NAMESPACE_BEGIN

// Signed distance from local point p to the closed mesh whose root node is `root` (negative
// inside), with its unit gradient g (pointing out of the mesh), when |distance| < maxDistance.
// Otherwise returns maxDistance and g = (0, 1, 0): too far to matter (deep inside counts as far).
CLOTH_FN float meshSignedDistance(CLOTH_MESH_PARAMS uint root, vec3 p, float maxDistance,
                                  CLOTH_OUT(vec3) g) {
    g = vec3(0.0f, 1.0f, 0.0f);  // PLACEHOLDER: no contact yet
    return maxDistance;
}

CLOTH_NAMESPACE_END
#endif
