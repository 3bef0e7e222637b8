// The colliders' meshes against the analytic shapes: every vertex on the surface (signed distance
// written out here, independently of the solver's, and the solver's too where it has one), normals
// equal to the distance's gradient (central differences), closed and outward-wound meshes whose
// volume approaches the shape's; the model matrix places points as colliderPose does.
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

#include <gtest/gtest.h>

#include "render/collider_mesh.h"
#include "test_colliders.h"

namespace cloth::render {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// The shapes' signed distances, in double precision so that central differences give their
// gradients to ~1e-6 even a step away from where a rounded box's flat face meets its rounding.
using Sdf = double (*)(glm::dvec3 p, glm::dvec4 size);

double sphereSdf(glm::dvec3 p, glm::dvec4 s) {
    return glm::length(p) - s.x;
}

double capsuleSdf(glm::dvec3 p, glm::dvec4 s) {
    return glm::length(glm::dvec3(p.x, p.y - std::clamp(p.y, -s.y, s.y), p.z)) - s.x;
}

// Rounded box (half extents s.xyz, rounding s.w): distance to the inner box, less the rounding.
double boxSdf(glm::dvec3 p, glm::dvec4 s) {
    const glm::dvec3 q = glm::abs(p) - (glm::dvec3(s) - glm::dvec3(s.w));
    return glm::length(glm::max(q, glm::dvec3(0.0))) + std::min(std::max({q.x, q.y, q.z}), 0.0) -
           s.w;
}

glm::dvec3 gradient(Sdf f, glm::dvec3 p, glm::dvec4 size, double h) {
    glm::dvec3 g;
    for (int k = 0; k < 3; ++k) {
        glm::dvec3 e(0.0);
        e[k] = h;
        g[k] = (f(p + e, size) - f(p - e, size)) / (2.0 * h);
    }
    return glm::normalize(g);
}

struct Closure {
    std::size_t unmatchedEdges = 0;    // an edge not used by exactly two triangles
    std::size_t misorientedEdges = 0;  // a directed edge used twice (inconsistent winding)
    std::size_t degenerate = 0;        // zero-area triangles
    double volume = 0.0;               // divergence theorem: positive when wound outward
};

// Welds vertices by position (to `tolerance`) and counts each edge's uses.
Closure closure(const ColliderMesh& m, float tolerance) {
    std::map<std::tuple<long, long, long>, std::uint32_t> ids;
    std::vector<std::uint32_t> weld(m.vertices.size());
    for (std::size_t i = 0; i < m.vertices.size(); ++i) {
        const glm::vec3 p(m.vertices[i].position);
        const auto key = std::make_tuple(std::lround(p.x / tolerance), std::lround(p.y / tolerance),
                                         std::lround(p.z / tolerance));
        weld[i] = ids.emplace(key, std::uint32_t(ids.size())).first->second;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    Closure c;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const std::uint32_t v[3] = {weld[m.indices[t]], weld[m.indices[t + 1]],
                                    weld[m.indices[t + 2]]};
        const glm::vec3 a(m.vertices[m.indices[t]].position),
            b(m.vertices[m.indices[t + 1]].position), d(m.vertices[m.indices[t + 2]].position);
        if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0] ||
            glm::length(glm::cross(b - a, d - a)) <= 0.0f)
            ++c.degenerate;
        c.volume += glm::dot(glm::dvec3(a), glm::cross(glm::dvec3(b), glm::dvec3(d))) / 6.0;
        for (int k = 0; k < 3; ++k) ++directed[{v[k], v[(k + 1) % 3]}];
    }
    for (const auto& [edge, uses] : directed) {
        if (uses != 1) ++c.misorientedEdges;
        const auto back = directed.find({edge.second, edge.first});
        if (back == directed.end()) ++c.unmatchedEdges;
    }
    return c;
}

// Every vertex on the surface within 1e-5 of the size, normals unit and equal to the gradient,
// every triangle wound like its vertices' normals.
void expectOnSurface(const ColliderMesh& m, Sdf f, glm::vec4 size, float scale) {
    ASSERT_FALSE(m.vertices.empty());
    std::size_t off = 0, badNormal = 0;
    float worstDistance = 0.0f, worstAngle = 0.0f;
    for (const gpu::ColliderVertex& v : m.vertices) {
        const glm::vec3 p(v.position), n(v.normal);
        const float d = float(std::abs(f(p, size)));
        worstDistance = std::max(worstDistance, d);
        if (d > 1e-5f * scale) ++off;
        const glm::dvec3 g = gradient(f, p, size, 1e-6 * scale), nd(n);
        const float angle = float(std::atan2(glm::length(glm::cross(nd, g)), glm::dot(nd, g)));
        worstAngle = std::max(worstAngle, angle);
        if (std::abs(glm::length(n) - 1.0f) > 1e-5f || angle > 1e-4f) ++badNormal;
    }
    EXPECT_EQ(off, 0u) << "worst |distance| " << worstDistance << " (size " << scale << ")";
    EXPECT_EQ(badNormal, 0u) << "worst angle to the gradient " << worstAngle << " rad";
    std::size_t against = 0;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const gpu::ColliderVertex &a = m.vertices[m.indices[t]], &b = m.vertices[m.indices[t + 1]],
                                  &c = m.vertices[m.indices[t + 2]];
        const glm::vec3 w =
            glm::cross(glm::vec3(b.position - a.position), glm::vec3(c.position - a.position));
        if (glm::dot(w, glm::vec3(a.normal + b.normal + c.normal)) <= 0.0f) ++against;
    }
    EXPECT_EQ(against, 0u) << "triangles wound against their normals";
}

void expectClosed(const ColliderMesh& m, float scale, double volume) {
    const Closure c = closure(m, 1e-6f * scale);
    EXPECT_EQ(c.unmatchedEdges, 0u);
    EXPECT_EQ(c.misorientedEdges, 0u);
    EXPECT_EQ(c.degenerate, 0u);
    // Inscribed in the shape: a little less than its volume, never more.
    EXPECT_LT(c.volume, volume * (1.0 + 1e-6));
    EXPECT_GT(c.volume, volume * 0.98) << "analytic " << volume;
}

double roundedBoxVolume(glm::vec3 half, float r) {  // Steiner: box + faces r + edges + ball
    const glm::dvec3 l = 2.0 * glm::dvec3(half - glm::vec3(r));
    const double pi = std::numbers::pi;
    return l.x * l.y * l.z + 2.0 * (l.x * l.y + l.y * l.z + l.z * l.x) * r +
           pi * (l.x + l.y + l.z) * r * r + 4.0 / 3.0 * pi * r * r * r;
}

TEST(ColliderMesh, SphereOnItsSurfaceAndClosed) {
    for (float r : {0.3f, 1.0f, 25.0f}) {
        SCOPED_TRACE(r);
        const glm::vec4 size(r, 0, 0, 0);
        const ColliderMesh m = sphereMesh(r);
        expectOnSurface(m, sphereSdf, size, r);
        expectClosed(m, r, 4.0 / 3.0 * std::numbers::pi * r * r * r);
    }
}

TEST(ColliderMesh, CapsuleOnItsSurfaceAndClosed) {
    for (glm::vec2 rh : {glm::vec2(0.2f, 0.5f), glm::vec2(1.0f, 0.1f), glm::vec2(0.5f, 0.0f)}) {
        SCOPED_TRACE(testing::Message() << rh.x << " " << rh.y);
        const glm::vec4 size(rh.x, rh.y, 0, 0);
        const ColliderMesh m = capsuleMesh(rh.x, rh.y);
        const float scale = rh.x + rh.y;
        expectOnSurface(m, capsuleSdf, size, scale);
        const double pi = std::numbers::pi;
        expectClosed(m, scale, pi * rh.x * rh.x * (2.0 * rh.y + 4.0 / 3.0 * rh.x));
    }
}

TEST(ColliderMesh, RoundedBoxOnItsSurfaceAndClosed) {
    const glm::vec4 sizes[] = {{0.5f, 0.2f, 0.3f, 0.05f},  // thin rounding
                               {1.0f, 1.0f, 1.0f, 0.5f},   // a rounded cube
                               {0.4f, 0.1f, 0.6f, 0.1f},   // fully rounded along y
                               {0.3f, 0.3f, 0.3f, 0.3f}};  // fully rounded: a sphere
    for (const glm::vec4& s : sizes) {
        SCOPED_TRACE(testing::Message() << s.x << " " << s.y << " " << s.z << " r " << s.w);
        const ColliderMesh m = roundedBoxMesh(glm::vec3(s), s.w);
        const float scale = std::max({s.x, s.y, s.z});
        expectOnSurface(m, boxSdf, s, scale);
        expectClosed(m, scale, roundedBoxVolume(glm::vec3(s), s.w));
        // What the solvers collide with: the shared header's distance agrees.
        for (const gpu::ColliderVertex& v : m.vertices) {
            glm::vec3 g;
            const float d = gpu::boxDistance(glm::vec3(v.position), glm::vec3(s), s.w, g);
            ASSERT_LT(std::abs(d), 1e-5f * scale);
            ASSERT_GT(glm::dot(g, glm::vec3(v.normal)), 0.99999f);
        }
    }
}

TEST(ColliderMesh, SharpBoxHasFlatFaces) {
    const glm::vec4 s(0.5f, 0.25f, 0.75f, 0.0f);
    const ColliderMesh m = roundedBoxMesh(glm::vec3(s), 0.0f);
    EXPECT_EQ(m.indices.size(), 36u);  // two triangles a face
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
        const glm::vec3 a(m.vertices[m.indices[t]].position),
            b(m.vertices[m.indices[t + 1]].position), c(m.vertices[m.indices[t + 2]].position);
        const glm::vec3 face = glm::normalize(glm::cross(b - a, c - a));
        for (int k = 0; k < 3; ++k) {
            const glm::vec3 p(m.vertices[m.indices[t + k]].position);
            EXPECT_LT(std::abs(boxSdf(p, s)), 1e-6);
            EXPECT_GT(glm::dot(glm::vec3(m.vertices[m.indices[t + k]].normal), face), 0.99999f);
            // Outward: the face normal is the axis the vertex is at its extent on.
            const float along = glm::dot(p, face);
            EXPECT_NEAR(along, glm::dot(glm::abs(face), glm::vec3(s)), 1e-6f);
        }
    }
    expectClosed(m, 1.0f, 8.0 * s.x * s.y * s.z);
}

TEST(ColliderMesh, TriangleMeshKeepsItsCornersAndCreases) {
    std::vector<gpu::MeshTriangle> tris = test::octahedron(0.5f);
    std::swap(tris[3].b, tris[3].c);       // wound inward, but its face normal says outward
    tris[5].faceNormal = glm::vec4(0.0f);  // no face normal: its winding decides
    const ColliderMesh m = triangleMesh(tris);
    ASSERT_EQ(m.vertices.size(), 3 * tris.size());
    expectClosed(m, 0.5f, 4.0 / 3.0 * 0.125);  // the octahedron's volume, 4/3 h^3
    for (std::size_t t = 0; t < tris.size(); ++t) {
        const glm::vec3 face = glm::normalize(glm::vec3(test::octahedron(0.5f)[t].faceNormal));
        for (int k = 0; k < 3; ++k) {
            // 109-degree edges are creases: every corner keeps its face's normal.
            EXPECT_GT(glm::dot(glm::vec3(m.vertices[3 * t + k].normal), face), 0.99999f)
                << "triangle " << t;
            EXPECT_NEAR(std::abs(glm::dot(glm::vec3(m.vertices[3 * t + k].position), face)),
                        0.5f / std::sqrt(3.0f), 1e-6f);
        }
    }
}

// A finely tessellated sphere given as triangles: its edges are flat enough to be smoothed, so the
// corners' normals approach the sphere's.
TEST(ColliderMesh, TriangleMeshSmoothsAcrossFlatEdges) {
    const ColliderMesh sphere = sphereMesh(1.0f);
    std::vector<gpu::MeshTriangle> tris;
    for (std::size_t t = 0; t < sphere.indices.size(); t += 3) {
        gpu::MeshTriangle m{};
        m.a = sphere.vertices[sphere.indices[t]].position;
        m.b = sphere.vertices[sphere.indices[t + 1]].position;
        m.c = sphere.vertices[sphere.indices[t + 2]].position;
        tris.push_back(m);
    }
    const ColliderMesh m = triangleMesh(tris);
    float worst = 0.0f;
    for (const gpu::ColliderVertex& v : m.vertices)
        worst = std::max(
            worst, std::acos(std::min(1.0f, glm::dot(glm::vec3(v.normal),
                                                     glm::normalize(glm::vec3(v.position))))));
    EXPECT_LT(worst, glm::radians(3.0f));
    expectClosed(m, 1.0f, 4.0 / 3.0 * std::numbers::pi);
}

// Not convex and of genus one: still closed and outward, normals smooth around the tube.
TEST(ColliderMesh, TriangleMeshOfATorus) {
    const float R = 0.5f, r = 0.15f;
    const ColliderMesh m = triangleMesh(test::torus(R, r, 48, 24));
    const double pi = std::numbers::pi;
    const Closure c = closure(m, 1e-6f);
    EXPECT_EQ(c.unmatchedEdges, 0u);
    EXPECT_EQ(c.misorientedEdges, 0u);
    EXPECT_NEAR(c.volume, 2.0 * pi * pi * R * r * r, 0.03 * 2.0 * pi * pi * R * r * r);
    float worst = 0.0f;
    for (const gpu::ColliderVertex& v : m.vertices) {
        const glm::vec3 p(v.position);
        const glm::vec3 ring = R * glm::normalize(glm::vec3(p.x, 0.0f, p.z));
        const glm::vec3 n = glm::normalize(p - ring);
        worst = std::max(worst, std::acos(std::min(1.0f, glm::dot(glm::vec3(v.normal), n))));
    }
    EXPECT_LT(worst, glm::radians(4.0f));
}

TEST(ColliderMesh, PlaneHasNoMesh) {
    const gpu::Collider plane = test::collider(gpu::SHAPE_PLANE, {0, 0, 0}, glm::vec4(0.0f));
    EXPECT_TRUE(colliderMesh(plane, {}).indices.empty());
}

TEST(ColliderMesh, ColliderMeshFollowsTheShape) {
    const glm::vec4 size(0.3f, 0.6f, 0.2f, 0.05f);
    for (std::uint32_t shape : {gpu::SHAPE_SPHERE, gpu::SHAPE_CAPSULE, gpu::SHAPE_BOX}) {
        const ColliderMesh m = colliderMesh(test::collider(shape, {0, 0, 0}, size), {});
        const Sdf f = shape == gpu::SHAPE_SPHERE    ? sphereSdf
                      : shape == gpu::SHAPE_CAPSULE ? capsuleSdf
                                                    : boxSdf;
        expectOnSurface(m, f, size, 1.0f);
    }
    const std::vector<gpu::MeshTriangle> tris = test::octahedron(0.5f);
    EXPECT_EQ(colliderMesh(test::collider(gpu::SHAPE_MESH, {0, 0, 0}, size), tris).vertices.size(),
              24u);
}

// The model matrix moves a local point where poseToWorld puts it, for a collider that spins
// (with reversals) and moves on a circle after a delayed start.
TEST(ColliderMesh, ModelMatrixIsTheColliderPose) {
    gpu::Collider c = test::turned(test::collider(gpu::SHAPE_BOX, {0.2f, 1.0f, -0.3f}, {}),
                                   glm::normalize(glm::vec3(1, 2, 3)), 0.7f);
    c.spin = glm::vec4(glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f)), 2.5f);
    c.spinReverse = 0.8f;
    c.start = 0.25f;
    c.path.type = gpu::MOTION_CIRCLE;
    c.path.radius = 0.4f;
    c.path.angularSpeed = 3.0f;
    c.path.phase = 0.3f;
    c.path.u = {1, 0, 0, 0};
    c.path.v = {0, 0, 1, 0};
    const glm::vec3 local(0.3f, -0.2f, 0.5f);
    for (float t : {0.0f, 0.2f, 0.5f, 1.1f, 2.7f}) {
        const glm::mat4 model = colliderModel(c, t);
        const gpu::ColliderPose pose = gpu::colliderPose(c, t);
        const glm::vec3 viaModel(model * glm::vec4(local, 1.0f));
        const glm::vec3 viaPose = gpu::poseToWorld(pose, local);
        EXPECT_LT(glm::distance(viaModel, viaPose), 1e-6f) << "t = " << t;
        // Rigid: normals turn with mat3(model), lengths kept.
        const glm::mat3 r(model);
        const glm::mat3 i = glm::transpose(r) * r;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) EXPECT_NEAR(i[a][b], a == b ? 1.0f : 0.0f, 1e-5f);
    }
}

TEST(ColliderMesh, BoundsOfAPlacedMesh) {
    const ColliderMesh m = sphereMesh(0.5f);
    glm::mat4 model(1.0f);
    model[3] = glm::vec4(1.0f, 2.0f, 3.0f, 1.0f);
    const Bounds b = meshBounds(m, model);
    EXPECT_NEAR(b.min.y, 1.5f, 1e-5f);
    EXPECT_NEAR(b.max.y, 2.5f, 1e-5f);
    EXPECT_NEAR(b.max.x, 1.5f, 1e-5f);
    EXPECT_GT(b.min.x, 0.5f - 1e-5f);
    EXPECT_LT(b.min.x, 0.5f + 0.01f);  // the tessellation reaches almost to the radius
}

}  // namespace
}  // namespace cloth::render
