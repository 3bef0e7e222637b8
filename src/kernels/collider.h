// Rigid colliders: kinematic shapes (infinite mass, scripted motion) the cloth's vertices are
// kept out of. Shared by the CPU reference and the GLSL kernels (shaders/solver/contacts.glsl).
//
// A collider is a shape in its own frame (core/scene.h ColliderShape: plane y <= 0, sphere,
// capsule along y, rounded box, closed triangle mesh) placed by a pose that moves with time: the
// frame's origin follows a Motion path (motionOffset, as attachments do) and its axes turn about
// a spin axis. Everything here is a function of the time alone, so every backend and the
// renderer place a collider identically.
//
// Contacts (per vertex, solved after the colours of each iteration, zero compliance):
//   C(x) = phi(x) - h >= 0,  phi the shape's signed distance, h the cloth's thickness,
// projected as x += n (h - phi) with n = grad phi (the collider's inverse mass is 0, so the whole
// correction goes to the vertex: dLambda = -C / w, dx = w n dLambda).
// Friction at position level (the usual XPBD choice; Macklin et al. 2014, section 6.1): the
// vertex's displacement over the substep relative to the collider's surface, d = (x - x0) -
// (s(t1) - s(t0)), s the material point of the collider under the vertex, has its tangential part
// d_t = d - n (n . d). Let N be the normal correction the vertex has had in this substep (summed
// over iterations and colliders) and F the tangential correction already spent. Static regime
// if |d_t| + F <= mu_s N: the vertex sticks (d_t removed). Otherwise kinetic: d_t shrinks by up
// to mu_k N - F. On an incline with one iteration this gives exactly the Coulomb velocities:
// at rest while tan(theta) <= mu_s, else acceleration g (sin(theta) - mu_k cos(theta)).
// Restitution (Anon. n.d.): a vertex that hit a collider at normal speed v_n < -restitution
// threshold leaves it at -e v_n (relative to the collider's surface), set after the velocity
// update; slower contacts are left to XPBD (no bounce, no jitter).
#ifndef CLOTH_KERNELS_COLLIDER_H
#define CLOTH_KERNELS_COLLIDER_H

#include "kernels/common.h"
#include "kernels/types.h"
#include "kernels/constraints.h"  // clothSinCos, motionOffset
#include "kernels/mesh_distance.h"

CLOTH_NAMESPACE_BEGIN

const uint SHAPE_PLANE = 0u;
const uint SHAPE_SPHERE = 1u;
const uint SHAPE_CAPSULE = 2u;
const uint SHAPE_BOX = 3u;
const uint SHAPE_MESH = 4u;

struct Collider {
    vec4 origin;  // xyz: the frame's origin at t = 0
    vec4 axisX;   // xyz: the frame's unit x axis in world space at t = 0
    vec4 axisY;
    vec4 axisZ;
    vec4 size;    // sphere: x radius; capsule: x radius, y half height; box: xyz half extents
                  // (rounding included), w rounding radius; (scale already applied)
    vec4 spin;    // xyz: unit spin axis (world space); w: angular speed (rad/s)
    Motion path;  // of the origin, from t = start
    uint shape;   // SHAPE_*
    float start;  // s: before this the collider stands still
    float spinReverse;  // s: the spin reverses every spinReverse seconds; 0 = never
    float staticFriction;
    float kineticFriction;
    float restitution;
    uint meshNode;  // SHAPE_MESH: its root in the mesh nodes (mesh_collider.h)
    uint flags;     // COLLIDER_*
    uint meshTriangleBegin;  // SHAPE_MESH: its triangles [begin, end) in the mesh triangles
    uint meshTriangleEnd;
    uint featureNode;  // SHAPE_MESH: the root of its sharp features' hierarchy in the mesh nodes
                       // (feature_contacts.h); MESH_NO_HINT when it has none
    uint pad1;
};
CLOTH_CHECK_SIZE(Collider, 192)
CLOTH_CHECK_OFFSET(Collider, path, 96)
CLOTH_CHECK_OFFSET(Collider, shape, 144)

// A vertex's contacts over one substep.
struct ContactState {
    vec4 start;   // xyz: the vertex at the start of the substep (after pre-stabilisation);
                  // w: N, the normal correction it has had in this substep (m), over all contacts
                  // (the sharp features' included, feature_contacts.h)
    vec4 normal;  // xyz: the last contact's normal; w: F, the tangential correction spent (m)
    vec4 bounce;  // xyz: the last contact's surface velocity (m/s); w: the normal speed the
                  // vertex leaves with after restitution (m/s; 0 = none)
    vec4 near;    // kept across substeps: a bound on the static mesh colliders' distances,
                  // d(x) >= near.w - |x - near.xyz| for every one (see colliderDistanceBounded)
    uvec4 hint;   // shaders, kept across substeps: x = the vertex's MeshMemory (the closest
                  // triangle the last mesh query found; MESH_NO_HINT if none); yzw unused
};
CLOTH_CHECK_SIZE(ContactState, 80)

// near.w of a vertex that knows nothing yet (every query is made).
const float NEAR_UNKNOWN = -3.0e38f;
// A bound being gathered in a pass that has not met a static mesh collider yet.
const float NEAR_UNSET = 3.0e38f;

// What a vertex remembers of its mesh queries across substeps, for the mesh collider whose
// triangle meshMemoryTriangle names. Shaders: the last closest triangle, where the next walk
// starts (meshSignedDistanceHinted; ContactState::hint.x). The CPU reference (an array of its
// own): the triangles nearest the vertex and the bounds that answer most queries with one
// triangle test (meshSignedDistanceKept). Both give the same answers, bit for bit.
#ifdef __cplusplus
struct MeshMemory {
    uvec4 keepA;
    uvec4 keepB;
    vec4 rival;
};

CLOTH_FN MeshMemory meshMemoryNone() {
    return {uvec4(MESH_NO_HINT), uvec4(MESH_NO_HINT), vec4(0.0f)};
}

CLOTH_FN uint meshMemoryTriangle(const MeshMemory& m) {
    return m.keepA.x;
}
#else
struct MeshMemory {
    uint hint;
};

MeshMemory meshMemoryNone() {
    return MeshMemory(MESH_NO_HINT);
}

uint meshMemoryTriangle(MeshMemory m) {
    return m.hint;
}
#endif

// A fresh state at x for a new substep, keeping what `near` and `hint` knew.
CLOTH_FN ContactState contactStateAt(vec3 x, vec4 near, uvec4 hint) {
    ContactState s;
    s.start = vec4(x, 0.0f);
    s.normal = vec4(0.0f);
    s.bounce = vec4(0.0f);
    s.near = near;
    s.hint = hint;
    return s;
}

// The state of a vertex that knows nothing yet.
CLOTH_FN ContactState contactStateNew(vec3 x) {
    return contactStateAt(x, vec4(0.0f, 0.0f, 0.0f, NEAR_UNKNOWN), uvec4(MESH_NO_HINT));
}

// Collider::flags. QUERY_ALWAYS: a static mesh collider is queried for every vertex every time
// (no remembered distance bounds; tests compare the two).
const uint COLLIDER_QUERY_ALWAYS = 1u;

// Where a collider's frame is at a time: origin and unit axes in world space.
struct ColliderPose {
    vec3 origin;
    vec3 ax;
    vec3 ay;
    vec3 az;
};

// Rodrigues' rotation of v about the unit axis a by the angle whose (sin, cos) is sc.
CLOTH_FN vec3 rotateAbout(vec3 v, vec3 a, vec2 sc) {
    return v * sc.y + cross(a, v) * sc.x + a * (dot(a, v) * (1.0f - sc.y));
}

// The spin angle (rad) at time t since the collider started: w t, or with reversals the
// triangle wave that turns w for spinReverse seconds, then back, ...
CLOTH_FN float colliderSpinAngle(CLOTH_IN(Collider) c, float t) {
    if (c.spinReverse > 0.0f) {
        float k = floor(t / c.spinReverse);
        float r = t - k * c.spinReverse;
        float odd = k - 2.0f * floor(0.5f * k);  // 0 or 1
        return c.spin.w * (odd > 0.5f ? c.spinReverse - r : r);
    }
    return c.spin.w * t;
}

CLOTH_FN ColliderPose colliderPose(CLOTH_IN(Collider) c, float time) {
    float t = max(time - c.start, 0.0f);
    ColliderPose p;
    p.origin = vec3(c.origin) + motionOffset(c.path, t);
    p.ax = vec3(c.axisX);
    p.ay = vec3(c.axisY);
    p.az = vec3(c.axisZ);
    if (c.spin.w != 0.0f) {
        vec2 sc = clothSinCos(colliderSpinAngle(c, t));
        vec3 a = vec3(c.spin);
        p.ax = rotateAbout(p.ax, a, sc);
        p.ay = rotateAbout(p.ay, a, sc);
        p.az = rotateAbout(p.az, a, sc);
    }
    return p;
}

CLOTH_FN vec3 poseToLocal(CLOTH_IN(ColliderPose) p, vec3 x) {
    vec3 q = x - p.origin;
    return vec3(dot(q, p.ax), dot(q, p.ay), dot(q, p.az));
}

CLOTH_FN vec3 poseDirection(CLOTH_IN(ColliderPose) p, vec3 l) {
    return p.ax * l.x + p.ay * l.y + p.az * l.z;
}

CLOTH_FN vec3 poseToWorld(CLOTH_IN(ColliderPose) p, vec3 l) {
    return p.origin + poseDirection(p, l);
}

// Distance from the origin of local point l, less r, with the unit direction away from it.
CLOTH_FN float roundDistance(vec3 l, float r, CLOTH_OUT(vec3) g) {
    float len2 = dot(l, l);
    if (len2 <= LENGTH_EPSILON) {
        g = vec3(0.0f, 1.0f, 0.0f);
        return -r;
    }
    float len = sqrt(len2);
    g = l * (1.0f / len);
    return len - r;
}

CLOTH_FN float signOrPlus(float x) {
    return x >= 0.0f ? 1.0f : -1.0f;
}

// Signed distance of local point l to the rounded box (outer half extents b, rounding r) and its
// unit gradient. Outside the inner box b - r: the distance to it, less r. Inside: the face the
// point is nearest to (ties: x, then y, then z).
CLOTH_FN float boxDistance(vec3 l, vec3 b, float r, CLOTH_OUT(vec3) g) {
    vec3 d = abs(l) - (b - vec3(r));
    vec3 o = max(d, vec3(0.0f));
    float len2 = dot(o, o);
    if (len2 > TINY_LENGTH2) {
        float len = sqrt(len2);
        g = vec3(o.x * signOrPlus(l.x), o.y * signOrPlus(l.y), o.z * signOrPlus(l.z)) *
            (1.0f / len);
        return len - r;
    }
    if (d.x >= d.y && d.x >= d.z) {
        g = vec3(signOrPlus(l.x), 0.0f, 0.0f);
        return d.x - r;
    }
    if (d.y >= d.z) {
        g = vec3(0.0f, signOrPlus(l.y), 0.0f);
        return d.y - r;
    }
    g = vec3(0.0f, 0.0f, signOrPlus(l.z));
    return d.z - r;
}

// Signed distance of local point l to an analytic shape (plane, sphere, capsule, box; not a
// mesh), with its unit gradient g in the collider's frame.
CLOTH_FN float colliderShapeDistance(CLOTH_IN(Collider) c, vec3 l, CLOTH_OUT(vec3) g) {
    g = vec3(0.0f, 1.0f, 0.0f);
    if (c.shape == SHAPE_SPHERE) return roundDistance(l, c.size.x, g);
    if (c.shape == SHAPE_CAPSULE) {
        vec3 q = vec3(l.x, l.y - clamp(l.y, -c.size.y, c.size.y), l.z);
        return roundDistance(q, c.size.x, g);
    }
    if (c.shape == SHAPE_BOX) return boxDistance(l, vec3(c.size), c.size.w, g);
    return l.y;  // SHAPE_PLANE
}

// The response to one contact found at x, `depth` (> 0) inside the thickness along the world
// normal n: the projection out, friction and the restitution to come (see the top of this file).
// p1, p0: the collider's pose at the end and the start of the substep; vPred: the vertex's
// predicted velocity; bounceBelow: normal speeds slower than this (m/s) get no restitution.
CLOTH_FN void respondToContact(CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) p1,
                               CLOTH_IN(ColliderPose) p0, CLOTH_INOUT(vec4) x, vec3 n,
                               float depth, vec3 vPred, float dt, float bounceBelow,
                               CLOTH_INOUT(ContactState) s) {
    vec3 y = vec3(x) + n * depth;
    float N = s.start.w + depth;
    float F = s.normal.w;
    // The collider's material point at y, and where it was at the start of the substep.
    vec3 surface = y - poseToWorld(p0, poseToLocal(p1, y));
    vec3 rel = (y - vec3(s.start)) - surface;
    vec3 rt = rel - n * dot(rel, n);
    float len2 = dot(rt, rt);
    if (len2 > TINY_LENGTH2) {
        float len = sqrt(len2);
        if (len + F <= c.staticFriction * N) {
            y -= rt;
            F += len;
        } else {
            float removed = min(len, max(c.kineticFriction * N - F, 0.0f));
            y -= rt * (removed / len);
            F += removed;
        }
    }
    vec3 vs = surface * (1.0f / dt);
    float vn = dot(vPred - vs, n);
    float leave = s.bounce.w;
    if (c.restitution > 0.0f && vn < -bounceBelow) leave = max(leave, -c.restitution * vn);
    s.start.w = N;
    s.normal = vec4(n, F);
    s.bounce = vec4(vs, leave);
    x = vec4(y, x.w);
}

// Restitution after the velocity update: the normal velocity relative to the surface becomes
// the bounce speed recorded by respondToContact (never slower than the solver left it).
CLOTH_FN vec3 restituteVelocity(vec3 v, CLOTH_IN(ContactState) s) {
    if (s.bounce.w <= 0.0f) return v;
    vec3 n = vec3(s.normal);
    float vn = dot(v - vec3(s.bounce), n);
    if (vn >= s.bounce.w) return v;
    return v + n * (s.bounce.w - vn);
}

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_COLLIDER_H

// ---- contacts: need the mesh colliders' arrays (mesh_collider.h) ----------------------------
#if (defined(__cplusplus) || defined(CLOTH_HAS_MESH)) && !defined(CLOTH_KERNELS_COLLIDER_CONTACTS)
#define CLOTH_KERNELS_COLLIDER_CONTACTS
CLOTH_NAMESPACE_BEGIN

// How far beyond the thickness a mesh collider is searched (m): a vertex deeper inside a mesh
// than this is lost (the analytic shapes have no such limit).
const float MESH_SEARCH_MARGIN = 0.05f;

// Signed distance of world point x to the collider at `pose`, with the unit normal g (its
// gradient) in the collider's frame. `h` is the thickness the caller cares about: a mesh is
// searched to h + MESH_SEARCH_MARGIN and reports that distance beyond.
CLOTH_FN float colliderLocalDistance(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c,
                                     CLOTH_IN(ColliderPose) pose, vec3 x,
                                     float h, CLOTH_INOUT(MeshMemory) memory, CLOTH_OUT(vec3) g) {
    vec3 l = poseToLocal(pose, x);
    float d;
    if (c.shape != SHAPE_MESH) {
        d = colliderShapeDistance(c, l, g);
    } else {
        g = vec3(0.0f, 1.0f, 0.0f);
        // What a vertex remembers of another mesh collider (one memory per vertex) is no help.
        uint known = meshMemoryTriangle(memory);
        if (known < c.meshTriangleBegin || known >= c.meshTriangleEnd) memory = meshMemoryNone();
#ifdef __cplusplus
        d = meshSignedDistanceKept(CLOTH_MESH_ARGS c.meshNode, l, h + MESH_SEARCH_MARGIN,
                                   memory.keepA, memory.keepB, memory.rival, g);
#else
        d = meshSignedDistanceHinted(CLOTH_MESH_ARGS c.meshNode, l, h + MESH_SEARCH_MARGIN,
                                     memory.hint, g);
#endif
    }
    return d;
}

// The same with the normal n in world space.
CLOTH_FN float colliderDistance(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c,
                                CLOTH_IN(ColliderPose) pose, vec3 x, float h,
                                CLOTH_OUT(vec3) n) {
    vec3 g;
    MeshMemory memory = meshMemoryNone();
    float d = colliderLocalDistance(CLOTH_MESH_ARGS c, pose, x, h, memory, g);
    n = poseDirection(pose, g);
    return d;
}

// A mesh collider that neither moves nor spins: its distances are worth remembering.
CLOTH_FN bool colliderIsStaticMesh(CLOTH_IN(Collider) c) {
    return c.shape == SHAPE_MESH && c.path.type == MOTION_STATIC && c.spin.w == 0.0f &&
           (c.flags & COLLIDER_QUERY_ALWAYS) == 0u;
}


// colliderLocalDistance, skipping the BVH query of a static mesh collider when the vertex's bound
// `known` (ContactState::near) proves it at least h away: then it returns that bound (>= h) and
// g = 0. By the triangle inequality d(x) >= d(p) - |x - p| for a distance d to a fixed set, so
// what one query at p learnt holds, shrinking, as the vertex moves: a vertex far from every
// static mesh is queried again only once it has moved about as far as it was. A query beyond the
// search radius returns the radius, itself a lower bound. Every distance found (queried or
// bounded) is folded into `gathered` (the bound for the next pass: point at the first static
// mesh collider met, NEAR_UNSET until then). Other colliders are simply evaluated.
CLOTH_FN float colliderDistanceBounded(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c,
                                       CLOTH_IN(ColliderPose) pose, vec3 x,
                                       float h, vec4 known, CLOTH_INOUT(vec4) gathered,
                                       CLOTH_INOUT(MeshMemory) memory, CLOTH_OUT(vec3) g) {
    if (!colliderIsStaticMesh(c))
        return colliderLocalDistance(CLOTH_MESH_ARGS c, pose, x, h, memory, g);
    vec3 e = x - vec3(known);
    float d = known.w - sqrt(dot(e, e));
    if (d >= h) {
        g = vec3(0.0f);
    } else {
        d = colliderLocalDistance(CLOTH_MESH_ARGS c, pose, x, h, memory, g);
    }
    if (gathered.w == NEAR_UNSET) {
        gathered = vec4(x, d);
    } else {
        vec3 f = x - vec3(gathered);
        gathered.w = min(gathered.w, d - sqrt(dot(f, f)));
    }
    return d;
}

// A collider that neither moves nor spins.
CLOTH_FN bool colliderIsStatic(CLOTH_IN(Collider) c) {
    return c.path.type == MOTION_STATIC && c.spin.w == 0.0f;
}

// Pre-stabilisation (Cheng 2023, Velvet's CollideSDF): at the start of a substep the vertex is moved
// out of the collider at its pose then, without changing its velocity, so that a fast collider
// neither lets it through nor flings it. Only moving colliders need it: against a static one the
// vertex starts the substep where the last contact projection left it (the grab and the phantom
// averaging aside, and those the substep's contacts handle). `known`, `gathered`:
// colliderDistanceBounded.
CLOTH_FN vec3 prestabilise(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) pose,
                           vec3 x, float h,
                           vec4 known, CLOTH_INOUT(vec4) gathered,
                           CLOTH_INOUT(MeshMemory) memory) {
    if (colliderIsStatic(c)) return x;
    vec3 g;
    float d = colliderDistanceBounded(CLOTH_MESH_ARGS c, pose, x, h, known, gathered, memory, g);
    if (d < h) return x + poseDirection(pose, g) * (h - d);
    return x;
}

// One contact projection with friction (see the top of this file). p1, p0: the collider's pose
// at the end and the start of the substep; vPred: the vertex's predicted velocity (restitution);
// bounceBelow: normal speeds slower than this (m/s, > 0) get no restitution; `gathered`:
// colliderDistanceBounded, with s.near as what is known; memory: the vertex's MeshMemory.
CLOTH_FN void projectContact(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) p1,
                             CLOTH_IN(ColliderPose) p0,
                             CLOTH_INOUT(vec4) x, vec3 vPred, float h, float dt, float bounceBelow,
                             CLOTH_INOUT(ContactState) s, CLOTH_INOUT(MeshMemory) memory,
                             CLOTH_INOUT(vec4) gathered) {
    if (x.w <= 0.0f) return;
    vec3 g;
    float d = colliderDistanceBounded(CLOTH_MESH_ARGS c, p1, vec3(x), h, s.near, gathered, memory,
                                      g);
    if (d >= h) return;
    respondToContact(c, p1, p0, x, poseDirection(p1, g), h - d, vPred, dt, bounceBelow, s);
}

// The per-vertex models' contact after a step (kernels/spring.h springContact: the mass-spring,
// PD and FEM models) against any collider, a mesh included: the vertex, moved from s's start by
// the step of h seconds, is projected out of collider c (at pose p1 at the step's end, p0 at its
// start) to `thickness` with the response above. memory: the vertex's MeshMemory, kept from step
// to step (it only saves work: the distance is the same without it). Against an analytic shape it
// is springContact, bit for bit. A mesh's sharp features (feature_contacts.h) are not met: the
// vertices are kept out, not the cloth's edges.
CLOTH_FN void springContactAny(CLOTH_MESH_PARAMS CLOTH_IN(Collider) c, CLOTH_IN(ColliderPose) p1,
                               CLOTH_IN(ColliderPose) p0, CLOTH_INOUT(vec4) x, vec3 vStep,
                               float thickness, float h, float bounceBelow,
                               CLOTH_INOUT(ContactState) s, CLOTH_INOUT(MeshMemory) memory) {
    vec3 g;
    float d = colliderLocalDistance(CLOTH_MESH_ARGS c, p1, vec3(x), thickness, memory, g);
    if (d >= thickness) return;
    respondToContact(c, p1, p0, x, poseDirection(p1, g), thickness - d, vStep, h, bounceBelow,
                     s);
}

// What a pass learnt about the static meshes becomes what the next one knows.
CLOTH_FN vec4 nearAfterPass(vec4 known, vec4 gathered) {
    return gathered.w == NEAR_UNSET ? known : gathered;
}

CLOTH_NAMESPACE_END
#endif
