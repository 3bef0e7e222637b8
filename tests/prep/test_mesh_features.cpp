// Sharp features of mesh colliders (prep/mesh_features.h) against meshes whose sharp edges and
// corners are known: a cube, an L-shaped prism with one concave edge, the table (five boxes),
// and a smooth blob; their hierarchy (every feature once, in bounds) and the contacts it finds
// against brute force over every feature.
#include <bit>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/collider_mesh.h"
#include "fixtures/meshes.h"
#include "prep/mesh_collider.h"
#include "prep/mesh_features.h"
#include "kernels/feature_contacts.h"
#include "prep_test_util.h"

using namespace cloth;

namespace {

struct Counted {
    int edges = 0, corners = 0;
};

Counted count(const Mesh& mesh) {
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    appendMeshCollider(mesh, nodes, tris);
    Counted c;
    for (std::uint32_t f : sharpMeshFeatures(tris)) {
        c.edges += std::popcount(f & kFeatureEdges);
        c.corners += std::popcount(f & kFeatureCorners);
    }
    return c;
}

Mesh cube() {
    Mesh m;
    for (int i = 0; i < 8; ++i)
        m.positions.push_back(glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f,
                                        i & 4 ? 1.0f : -1.0f));
    m.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                   {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
    return m;
}

// An L-shaped cross-section (one reflex corner) extruded along z.
Mesh lPrism() {
    const glm::vec2 l[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};  // counter-clockwise
    Mesh m;
    for (float z : {0.0f, 1.0f})
        for (const glm::vec2& p : l) m.positions.push_back(glm::vec3(p, z));
    const std::uint32_t fan[4][3] = {{3, 4, 5}, {3, 5, 0}, {3, 0, 1}, {3, 1, 2}};
    for (const auto& t : fan) {
        m.triangles.push_back({t[0] + 6, t[1] + 6, t[2] + 6});  // top, facing +z
        m.triangles.push_back({t[0], t[2], t[1]});              // bottom, facing -z
    }
    for (std::uint32_t i = 0; i < 6; ++i) {
        const std::uint32_t j = (i + 1) % 6;
        m.triangles.push_back({i, j, j + 6});
        m.triangles.push_back({i, j + 6, i + 6});
    }
    fixtures::makeOutward(m);
    return m;
}

// An asset loaded as a mesh collider, with its sharp features and their hierarchy.
struct WithFeatures {
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    std::vector<gpu::MeshFeature> features;
    std::uint32_t featureRoot = gpu::MESH_NO_HINT;
};

WithFeatures withFeatures(const char* asset) {
    WithFeatures m;
    appendMeshCollider(loadColliderMesh(test::sourceDir() + "/assets/meshes/" + asset), m.nodes,
                       m.tris);
    m.featureRoot = appendMeshFeatures(m.tris, 0, std::uint32_t(m.tris.size()), m.nodes,
                                       m.features);
    return m;
}

}  // namespace

TEST(MeshFeatures, CubeHasTwelveSharpEdgesAndEightCorners) {
    const Counted c = count(cube());
    EXPECT_EQ(c.edges, 12);  // the face diagonals are flat
    EXPECT_EQ(c.corners, 8);
}

TEST(MeshFeatures, AConcaveEdgeIsNotSharp) {
    // 12 cap outline edges and 5 of the 6 vertical edges: the one at the reflex corner is concave.
    validateClosedMesh(lPrism(), "L prism");
    const Counted c = count(lPrism());
    EXPECT_EQ(c.edges, 17);
    EXPECT_EQ(c.corners, 12);
}

TEST(MeshFeatures, TheTableIsFiveBoxesAndTheBodyIsSmooth) {
    const std::string dir = test::sourceDir() + "/assets/meshes/";
    const Counted table = count(loadColliderMesh(dir + "table.obj"));
    EXPECT_EQ(table.edges, 5 * 12);
    EXPECT_EQ(table.corners, 5 * 8);
    const Counted body = count(loadColliderMesh(dir + "body.obj"));
    EXPECT_EQ(body.edges, 0);
    EXPECT_EQ(body.corners, 0);
}

TEST(MeshFeatures, AShallowerThresholdFindsMore) {
    // A sphere tessellated coarsely has no 30-degree edge, but its facets meet at a few degrees.
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    appendMeshCollider(loadColliderMesh(test::sourceDir() + "/assets/meshes/bumpy_sphere.obj"),
                       nodes, tris);
    int at30 = 0, at1 = 0;
    for (std::uint32_t f : sharpMeshFeatures(tris, 30.0f)) at30 += std::popcount(f & kFeatureEdges);
    for (std::uint32_t f : sharpMeshFeatures(tris, 1.0f)) at1 += std::popcount(f & kFeatureEdges);
    EXPECT_EQ(at30, 0);
    EXPECT_GT(at1, 1000);
}

TEST(MeshFeatures, TheHierarchyHoldsEveryFeatureOnceWithinItsBounds) {
    const WithFeatures table = withFeatures("table.obj");
    const auto& nodes = table.nodes;
    const auto& features = table.features;
    const std::uint32_t root = table.featureRoot;
    ASSERT_EQ(features.size(), 5u * (12 + 8));
    std::vector<int> seen(features.size(), 0);
    std::vector<std::uint32_t> stack = {root};
    auto inside = [](const gpu::MeshNode& n, glm::vec3 p) {
        return p.x >= n.minX && p.y >= n.minY && p.z >= n.minZ && p.x <= n.maxX &&
               p.y <= n.maxY && p.z <= n.maxZ;
    };
    while (!stack.empty()) {
        const gpu::MeshNode n = nodes[stack.back()];
        stack.pop_back();
        if (n.second & gpu::MESH_LEAF) {
            for (std::uint32_t f = n.first; f < n.first + (n.second & ~gpu::MESH_LEAF); ++f) {
                ++seen[f];
                EXPECT_TRUE(inside(n, glm::vec3(features[f].a)) && inside(n, glm::vec3(features[f].b)));
            }
        } else {
            for (std::uint32_t c : {n.first, n.second}) {
                const gpu::MeshNode& k = nodes[c];
                EXPECT_TRUE(inside(n, {k.minX, k.minY, k.minZ}) && inside(n, {k.maxX, k.maxY, k.maxZ}));
                stack.push_back(c);
            }
        }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    // A mesh without sharp features gets no hierarchy.
    EXPECT_EQ(withFeatures("body.obj").featureRoot, gpu::MESH_NO_HINT);
}

TEST(MeshFeatures, ContactsFoundByTheHierarchyEqualBruteForce) {
    // Random small cloth triangles around the table's features: the hierarchy's walk (box of the
    // triangle then and now, grown by h) against every feature tried in turn. The sums agree to
    // rounding (they add in another order).
    const WithFeatures table = withFeatures("table.obj");
    const auto& nodes = table.nodes;
    const auto& features = table.features;
    gpu::Collider c{};
    c.shape = gpu::SHAPE_MESH;
    c.axisX = glm::vec4(1, 0, 0, 0);
    c.axisY = glm::vec4(0, 1, 0, 0);
    c.axisZ = glm::vec4(0, 0, 1, 0);
    c.featureNode = table.featureRoot;
    const gpu::ColliderPose pose = gpu::colliderPose(c, 0.0f);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<std::size_t> pick(0, features.size() - 1);
    const float h = 0.02f;
    int touched = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const gpu::MeshFeature& f = features[pick(rng)];
        const glm::vec3 centre = glm::mix(glm::vec3(f.a), glm::vec3(f.b), 0.5f * (u(rng) + 1.0f)) +
                                 0.03f * glm::vec3(u(rng), u(rng), u(rng));
        glm::vec4 x[3];
        glm::vec3 s[3];
        for (int k = 0; k < 3; ++k) {
            x[k] = glm::vec4(centre + 0.05f * glm::vec3(u(rng), u(rng), u(rng)), 1.0f);
            s[k] = glm::vec3(x[k]) + 0.01f * glm::vec3(u(rng), u(rng), u(rng));
        }
        const std::uint32_t owned = trial % 8;
        glm::vec4 a[3] = {glm::vec4(0.0f), glm::vec4(0.0f), glm::vec4(0.0f)};
        gpu::featureContacts(nodes.data(), features.data(), c, pose, pose, x[0], x[1], x[2], s[0],
                             s[1], s[2], owned, h, a[0], a[1], a[2]);
        glm::vec4 b[3] = {glm::vec4(0.0f), glm::vec4(0.0f), glm::vec4(0.0f)};
        const glm::vec3 y[3] = {glm::vec3(x[0]), glm::vec3(x[1]), glm::vec3(x[2])};
        for (const gpu::MeshFeature& g : features) {
            if (g.a.w == gpu::MESH_FEATURE_IS_CORNER) {
                gpu::cornerTriangleContact(glm::vec3(g.a), y[0], y[1], y[2], s[0], s[1], s[2],
                                           glm::vec3(1.0f), h, 0.0f, 0.0f, b[0], b[1], b[2]);
                continue;
            }
            for (int e = 0; e < 3; ++e)
                if (owned & (1u << e))
                    gpu::edgeEdgeContact(glm::vec3(g.a), glm::vec3(g.b), y[e], y[(e + 1) % 3],
                                         s[e], s[(e + 1) % 3], 1.0f, 1.0f, h, 0.0f, 0.0f, b[e],
                                         b[(e + 1) % 3]);
        }
        for (int k = 0; k < 3; ++k) {
            ASSERT_EQ(a[k].w, b[k].w) << trial;
            EXPECT_NEAR(glm::length(glm::vec3(a[k]) - glm::vec3(b[k])), 0.0f,
                        1e-6f * (1.0f + glm::length(glm::vec3(b[k]))))
                << trial;
        }
        touched += a[0].w + a[1].w + a[2].w > 0.0f;
    }
    EXPECT_GT(touched, 200);  // the trials meet features often
}

