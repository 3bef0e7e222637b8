// Mesh colliders (src/prep/mesh_collider.h, src/kernels/mesh_distance.h): the hierarchy's
// query gives exactly what a brute-force search over every triangle gives with the same
// per-triangle function; that distance matches an independent double-precision distance, its
// sign matches the generalized winding number, its gradient matches finite differences; the
// hierarchy's boxes hold what they should. On the meshes of assets/meshes and on random
// meshes: smooth perturbed spheres and tori, spiky stars and tetrahedra (sharp features).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "core/collider_mesh.h"
#include "fixtures/meshes.h"
#include "prep/mesh_collider.h"
#include "prep_test_util.h"

using namespace cloth;
using namespace cloth::gpu;

namespace {

struct Built {
    Mesh mesh;
    std::vector<MeshNode> nodes;
    std::vector<MeshTriangle> triangles;
    std::uint32_t root = 0;
    std::uint32_t firstTriangle = 0;
    std::uint32_t endTriangle = 0;
    float diagonal = 0.0f;
    // Each triangle's box, min and max of its corners (bruteForce's bound): x, y, z, then 0.
    std::vector<glm::vec4> triLo, triHi;
};

Built build(Mesh mesh) {
    Built b;
    b.mesh = std::move(mesh);
    b.root = appendMeshCollider(b.mesh, b.nodes, b.triangles);
    b.endTriangle = static_cast<std::uint32_t>(b.triangles.size());
    glm::vec3 lo, hi;
    b.diagonal = fixtures::boundsDiagonal(b.mesh, lo, hi);
    for (const MeshTriangle& t : b.triangles) {
        const glm::vec3 a(t.a), c(t.b), d(t.c);
        b.triLo.emplace_back(glm::min(a, glm::min(c, d)), 0.0f);
        b.triHi.emplace_back(glm::max(a, glm::max(c, d)), 0.0f);
    }
    return b;
}

// A lower bound of meshTriangleDistance2At(t, p) in float, never above it: that function clamps
// its closest point q into this box and returns x^2 + y^2 + z^2 of p - q in float, in this
// order. Each |p - q| component is at least p's distance to the box along its axis, and
// correctly rounded subtractions, squares and sums of non-negative terms are monotone, so its
// result is at least this one's (-ffp-contract=off: no fused operation in either).
float boxBound2(const Built& b, std::uint32_t t, glm::vec3 p) {
    const glm::vec4 &lo = b.triLo[t], &hi = b.triHi[t];
    const float x = std::max(std::max(lo.x - p.x, p.x - hi.x), 0.0f);
    const float y = std::max(std::max(lo.y - p.y, p.y - hi.y), 0.0f);
    const float z = std::max(std::max(lo.z - p.z, p.z - hi.z), 0.0f);
    return x * x + y * y + z * z;
}

Built asset(const char* name) {
    // loadColliderMesh: the assets also pass the closed-mesh validation of scene loading.
    return build(loadColliderMesh(test::sourceDir() + "/assets/meshes/" + name));
}

struct Result {
    float distance;
    glm::vec3 g;
    std::uint32_t tri = 0;      // brute force only: the closest triangle
    std::uint32_t feature = 0;  // and its feature
    bool found = false;
};

Result query(const Built& b, glm::vec3 p, float maxDistance) {
    Result r;
    r.distance =
        meshSignedDistance(b.nodes.data(), b.triangles.data(), b.root, p, maxDistance, r.g);
    return r;
}

// Every triangle through the shared per-triangle function, the lowest index of equal minima
// (those whose box is no nearer than the best so far skipped: boxBound2).
Result bruteForce(const Built& b, glm::vec3 p, float maxDistance) {
    Result r{maxDistance, glm::vec3(0.0f, 1.0f, 0.0f)};
    float best2 = maxDistance * maxDistance;
    glm::vec3 bestQ(0.0f);
    for (std::uint32_t t = b.firstTriangle; t < b.endTriangle; ++t) {
        // Its distance could not be below best2 (boxBound2): the same minimum, the same index.
        if (boxBound2(b, t, p) >= best2) continue;
        glm::vec3 q;
        std::uint32_t feature;
        float d2 = meshTriangleDistance2At(b.nodes.data(), b.triangles.data(), t, p, q, feature);
        if (d2 < best2) {
            best2 = d2;
            r.tri = t;
            bestQ = q;
            r.feature = feature;
            r.found = true;
        }
    }
    if (r.found && maxDistance > 0.0f)
        r.distance = meshSignedFromClosest(b.nodes.data(), b.triangles.data(), r.tri, r.feature,
                                           bestQ, best2, p, maxDistance, r.g);
    return r;
}

bool sameBits(const Result& a, const Result& b) {
    return std::memcmp(&a.distance, &b.distance, 4) == 0 && std::memcmp(&a.g, &b.g, 12) == 0;
}

using fixtures::Sample;

std::vector<Sample> samples(const Built& b, std::uint32_t seed, int count) {
    return fixtures::samplePoints(b.mesh, seed, count);
}

struct Counts {
    int distance = 0;  // compared with the double-precision distance
    int sign = 0;      // compared with the winding number
    int far = 0;       // beyond the search radius
};

// The whole check of one collider over `count` samples.
Counts checkQueries(const Built& b, std::uint32_t seed, int count, const std::string& name) {
    Counts n;
    int failures = 0;
    const float tol = 2e-6f * b.diagonal + 1e-6f;
    for (const Sample& s : samples(b, seed, count)) {
        Result got = query(b, s.p, s.maxDistance), want = bruteForce(b, s.p, s.maxDistance);
        if (!sameBits(got, want) && failures++ < 5)
            ADD_FAILURE() << name << ": point (" << s.p.x << ", " << s.p.y << ", " << s.p.z
                          << ") max " << s.maxDistance << ": hierarchy " << got.distance
                          << ", brute force " << want.distance;
        const double ref = fixtures::meshDistance(b.mesh, glm::dvec3(s.p));
        if (ref > s.maxDistance + tol) {
            EXPECT_EQ(got.distance, s.maxDistance) << name;
            EXPECT_EQ(got.g, glm::vec3(0.0f, 1.0f, 0.0f)) << name;
            ++n.far;
            continue;
        }
        if (ref >= s.maxDistance - tol) continue;  // on the search radius: either answer
        ++n.distance;
        EXPECT_NEAR(std::abs(got.distance), ref, tol) << name;
        EXPECT_NEAR(glm::length(got.g), 1.0f, 1e-5f) << name;
        if (ref < 1e-4 * b.diagonal) continue;  // too close to the surface for a sure sign
        const double w = fixtures::windingNumber(b.mesh, glm::dvec3(s.p));
        EXPECT_LT(std::abs(w - std::round(w)), 1e-3) << name << ": winding number " << w;
        const bool inside = w > 0.5;
        EXPECT_EQ(got.distance < 0.0f, inside)
            << name << ": point (" << s.p.x << ", " << s.p.y << ", " << s.p.z << ") distance "
            << got.distance << " winding " << w;
        ++n.sign;
    }
    EXPECT_EQ(failures, 0) << name << ": hierarchy and brute force differ";
    return n;
}

void expectMostChecked(const Counts& n, int count) {
    EXPECT_GT(n.distance, count / 2);
    EXPECT_GT(n.sign, count / 3);
    EXPECT_GT(n.far, count / 20);
}

std::vector<Mesh> randomMeshes() {
    std::vector<Mesh> out;
    for (std::uint32_t seed = 1; seed <= 5; ++seed)
        out.push_back(
            fixtures::perturbedSphere(seed, 16 + 4 * seed, 24 + 6 * seed, 0.1f + 0.12f * float(seed)));
    for (std::uint32_t seed = 11; seed <= 13; ++seed)
        out.push_back(fixtures::perturbedTorus(seed, 36 + 4 * seed % 10, 18));
    for (std::uint32_t seed = 21; seed <= 24; ++seed)
        out.push_back(fixtures::spikySphere(seed, 5 + seed % 4, 7 + seed % 5));
    for (std::uint32_t seed = 31; seed <= 34; ++seed) out.push_back(fixtures::randomTetrahedron(seed));
    return out;
}

// Walks the hierarchy: boxes hold their children's boxes and their triangles' corners, every
// triangle of the collider is in one leaf, leaves are small and no deeper than the stack.
void checkHierarchy(const Built& b, const std::string& name) {
    std::vector<int> seen(b.triangles.size(), 0), visited(b.nodes.size(), 0);
    struct Item {
        std::uint32_t node, depth;
    };
    std::vector<Item> todo{{b.root, 0}};
    std::uint32_t maxDepth = 0;
    auto contains = [&](const MeshNode& n, glm::vec3 p) {
        return p.x >= n.minX && p.y >= n.minY && p.z >= n.minZ && p.x <= n.maxX && p.y <= n.maxY &&
               p.z <= n.maxZ;
    };
    while (!todo.empty()) {
        Item it = todo.back();
        todo.pop_back();
        ASSERT_LT(it.node, b.nodes.size()) << name;
        ASSERT_EQ(visited[it.node]++, 0) << name << ": node " << it.node << " reached twice";
        maxDepth = std::max(maxDepth, it.depth);
        const MeshNode& n = b.nodes[it.node];
        if (n.second & MESH_LEAF) {
            std::uint32_t count = n.second & ~MESH_LEAF;
            EXPECT_GE(count, 1u);
            EXPECT_LE(count, kMeshLeafTriangles);
            ASSERT_GE(n.first, b.firstTriangle);
            ASSERT_LE(n.first + count, b.endTriangle);
            for (std::uint32_t t = n.first; t < n.first + count; ++t) {
                ++seen[t];
                const MeshTriangle& tri = b.triangles[t];
                for (glm::vec4 c : {tri.a, tri.b, tri.c})
                    EXPECT_TRUE(contains(n, glm::vec3(c))) << name << ": leaf " << it.node;
            }
            continue;
        }
        for (std::uint32_t child : {n.first, n.second}) {
            ASSERT_LT(child, b.nodes.size()) << name;
            const MeshNode& c = b.nodes[child];
            EXPECT_TRUE(contains(n, {c.minX, c.minY, c.minZ}) &&
                        contains(n, {c.maxX, c.maxY, c.maxZ}))
                << name << ": node " << child << " sticks out of its parent " << it.node;
            todo.push_back({child, it.depth + 1});
        }
    }
    EXPECT_LE(maxDepth, MESH_STACK_SIZE) << name;
    for (std::uint32_t t = b.firstTriangle; t < b.endTriangle; ++t)
        EXPECT_EQ(seen[t], 1) << name << ": triangle " << t;
    for (std::size_t i = 0; i < visited.size(); ++i)
        EXPECT_EQ(visited[i], 1) << name << ": node " << i << " unreachable";
}

}  // namespace

TEST(MeshCollider, AssetsQueryEqualsBruteForceWithTheRightDistanceAndSign) {
    const std::pair<const char*, int> assets[] = {
        {"table.obj", 3000}, {"body.obj", 1500}, {"bumpy_sphere.obj", 600}};
    std::uint32_t seed = 1;
    for (auto [name, count] : assets) {
        Built b = asset(name);
        expectMostChecked(checkQueries(b, seed++, count, name), count);
    }
}

TEST(MeshCollider, RandomMeshesQueryEqualsBruteForceWithTheRightDistanceAndSign) {
    std::uint32_t seed = 100;
    for (Mesh& m : randomMeshes()) {
        Built b = build(std::move(m));
        const std::string name = "random mesh " + std::to_string(seed);
        expectMostChecked(checkQueries(b, seed++, 700, name), 700);
    }
}

TEST(MeshCollider, HierarchyBoxesHoldChildrenAndTriangles) {
    for (const char* name : {"table.obj", "body.obj", "bumpy_sphere.obj"})
        checkHierarchy(asset(name), name);
    int i = 0;
    for (Mesh& m : randomMeshes())
        checkHierarchy(build(std::move(m)), "random " + std::to_string(i++));
}

TEST(MeshCollider, FarPointsGiveTheSearchRadius) {
    Built b = asset("body.obj");
    glm::vec3 g;
    // Outside, beyond the radius; deep inside (the body's centre is ~0.15 m from the surface).
    for (glm::vec3 p : {glm::vec3(3.0f, 0.3f, 0.0f), glm::vec3(0.0f, 0.35f, 0.0f),
                        glm::vec3(0.0f, -0.2f, 0.0f)}) {
        g = glm::vec3(7.0f);
        EXPECT_EQ(meshSignedDistance(b.nodes.data(), b.triangles.data(), b.root, p, 0.05f, g),
                  0.05f);
        EXPECT_EQ(g, glm::vec3(0.0f, 1.0f, 0.0f));
    }
    // No radius at all.
    EXPECT_EQ(meshSignedDistance(b.nodes.data(), b.triangles.data(), b.root, {0, 0.7f, 0}, 0.0f, g),
              0.0f);
    // The same centre point found with a radius large enough, and inside.
    float d =
        meshSignedDistance(b.nodes.data(), b.triangles.data(), b.root, {0, 0.35f, 0}, 1.0f, g);
    EXPECT_LT(d, -0.1f);
    EXPECT_GT(d, -0.2f);
}

// Central differences of the distance agree with its gradient where the closest feature is the
// same face at every point of the stencil (away from edges and corners, and from where two faces
// are equally far, the field is smooth), inside and out.
TEST(MeshCollider, GradientMatchesFiniteDifferencesAwayFromEdges) {
    std::vector<Built> meshes;
    for (const char* name : {"table.obj", "body.obj", "bumpy_sphere.obj"})
        meshes.push_back(asset(name));
    meshes.push_back(build(fixtures::perturbedSphere(7, 24, 36, 0.3f)));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    int checked = 0;
    for (const Built& b : meshes) {
        const float h = 1e-4f * b.diagonal;
        for (int i = 0; i < 200; ++i) {
            const MeshTriangle& t = b.triangles[rng() % b.triangles.size()];
            glm::vec3 a(t.a), bb(t.b), c(t.c), n(t.faceNormal);
            float s = 0.2f + 0.6f * u01(rng), r = (0.8f - s) * u01(rng) + 0.1f;
            if (s + r > 0.9f) continue;
            float offset =
                (u01(rng) < 0.5f ? -1.0f : 1.0f) * (0.002f + 0.01f * u01(rng)) * b.diagonal;
            glm::vec3 p = a + (bb - a) * s + (c - a) * r + n * offset;
            Result at = bruteForce(b, p, b.diagonal);
            if (at.feature != MESH_FEATURE_FACE) continue;
            glm::vec3 fd;
            bool sameFace = true;
            for (int k = 0; k < 3; ++k) {
                glm::vec3 plus = p, minus = p;
                plus[k] += h;
                minus[k] -= h;
                Result rp = bruteForce(b, plus, b.diagonal), rm = bruteForce(b, minus, b.diagonal);
                sameFace = sameFace && rp.feature == MESH_FEATURE_FACE && rp.tri == at.tri &&
                           rm.feature == MESH_FEATURE_FACE && rm.tri == at.tri;
                fd[k] = float((double(rp.distance) - double(rm.distance)) /
                              (double(plus[k]) - double(minus[k])));
            }
            if (!sameFace) continue;
            Result got = query(b, p, b.diagonal);
            EXPECT_NEAR(glm::length(fd - got.g), 0.0f, 2e-3f)
                << "fd (" << fd.x << ", " << fd.y << ", " << fd.z << ") g (" << got.g.x << ", "
                << got.g.y << ", " << got.g.z << ")";
            ++checked;
        }
    }
    EXPECT_GT(checked, 400);
}

// Several colliders in one pair of arrays (absolute indices): each answers as when built alone,
// and building is deterministic.
TEST(MeshCollider, CollidersShareTheArraysAndBuildDeterministically) {
    const char* names[] = {"table.obj", "body.obj", "bumpy_sphere.obj"};
    std::vector<MeshNode> nodes;
    std::vector<MeshTriangle> triangles;
    std::vector<std::uint32_t> roots;
    std::vector<Built> alone;
    for (const char* name : names) {
        alone.push_back(asset(name));
        roots.push_back(appendMeshCollider(alone.back().mesh, nodes, triangles));
    }
    EXPECT_EQ(roots[0], 0u);
    EXPECT_EQ(roots[1], alone[0].nodes.size());
    EXPECT_EQ(roots[2], alone[0].nodes.size() + alone[1].nodes.size());
    std::size_t firstTriangle = 0;
    for (std::size_t i = 0; i < alone.size(); ++i) {
        EXPECT_EQ(std::memcmp(&triangles[firstTriangle], alone[i].triangles.data(),
                              alone[i].triangles.size() * sizeof(MeshTriangle)),
                  0)
            << names[i];
        firstTriangle += alone[i].triangles.size();
        for (const Sample& s : samples(alone[i], 9, 300)) {
            Result want = query(alone[i], s.p, s.maxDistance), got;
            got.distance = meshSignedDistance(nodes.data(), triangles.data(), roots[i], s.p,
                                              s.maxDistance, got.g);
            EXPECT_TRUE(sameBits(got, want)) << names[i];
        }
    }
    Built again = asset("bumpy_sphere.obj");
    ASSERT_EQ(again.nodes.size(), alone[2].nodes.size());
    EXPECT_EQ(std::memcmp(again.nodes.data(), alone[2].nodes.data(),
                          again.nodes.size() * sizeof(MeshNode)),
              0);
}

// On a box the pseudo-normals are known: a corner's is (+-1, +-1, +-1) / sqrt 3 however its
// three right angles are split into triangles, an edge's the mean of its two faces' axes, and a
// face diagonal's the face's own normal. The table's top slab is such a box.
TEST(MeshCollider, PseudoNormalsOfABoxAreTheAnalyticOnes) {
    Built b = asset("table.obj");
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (glm::vec3 p : b.mesh.positions)
        if (p.y > 0.709f) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
    // Per axis: +1 or -1 on the slab's faces, 0 in between (no corner lies in between).
    auto side = [&](glm::vec3 p) {
        glm::vec3 s;
        for (int k = 0; k < 3; ++k) s[k] = p[k] == hi[k] ? 1.0f : p[k] == lo[k] ? -1.0f : 0.0f;
        return s;
    };
    auto expectNear = [](glm::vec3 got, glm::vec3 want) {
        EXPECT_LT(glm::length(got - glm::normalize(want)), 1e-6f)
            << "(" << got.x << ", " << got.y << ", " << got.z << ") vs (" << want.x << ", "
            << want.y << ", " << want.z << ")";
    };
    int slabTriangles = 0;
    for (const MeshTriangle& t : b.triangles) {
        glm::vec3 c[3] = {glm::vec3(t.a), glm::vec3(t.b), glm::vec3(t.c)};
        if (c[0].y < 0.709f || c[1].y < 0.709f || c[2].y < 0.709f) continue;
        ++slabTriangles;
        glm::vec3 s[3] = {side(c[0]), side(c[1]), side(c[2])};
        // Shared sides: where both (or all three) corners sit on the same face.
        auto common = [](glm::vec3 u, glm::vec3 v) {
            return glm::vec3(u.x == v.x ? u.x : 0.0f, u.y == v.y ? u.y : 0.0f,
                             u.z == v.z ? u.z : 0.0f);
        };
        expectNear(glm::vec3(t.faceNormal), common(common(s[0], s[1]), s[2]));
        for (int k = 0; k < 3; ++k) {
            expectNear(glm::vec3(t.vertexNormal[k]), s[k]);
            expectNear(glm::vec3(t.edgeNormal[k]), common(s[k], s[(k + 1) % 3]));
        }
    }
    EXPECT_EQ(slabTriangles, 12);
}

// The walk for the nearest MESH_KEEP triangles against sorting every triangle: the same list
// (distance, then index), and a rival bound no greater than the next triangle's distance.
TEST(MeshCollider, NearestTrianglesAreBruteForcesAndTheRivalBoundHolds) {
    for (const char* name : {"body.obj", "bumpy_sphere.obj", "table.obj"}) {
        SCOPED_TRACE(name);
        const Built b = asset(name);
        const float maxDistance = 0.05f * b.diagonal;
        std::mt19937 rng(4);
        std::uniform_int_distribution<std::uint32_t> anyTri(b.firstTriangle, b.endTriangle - 1);
        for (const Sample& s : samples(b, 13, 400)) {
            std::vector<std::pair<float, std::uint32_t>> all;
            for (std::uint32_t t = b.firstTriangle; t < b.endTriangle; ++t) {
                glm::vec3 q;
                std::uint32_t f;
                all.push_back({meshTriangleDistance2At(b.nodes.data(), b.triangles.data(), t, s.p,
                                                       q, f),
                               t});
            }
            std::sort(all.begin(), all.end());
            // Seeds: none, or a few arbitrary triangles (distinct), as a vertex's memory is.
            for (bool seeded : {false, true}) {
                glm::uvec4 a(gpu::MESH_NO_HINT), c(gpu::MESH_NO_HINT);
                if (seeded) a = glm::uvec4(anyTri(rng), gpu::MESH_NO_HINT, gpu::MESH_NO_HINT,
                                           gpu::MESH_NO_HINT);
                float rival2;
                meshNearestTriangles(b.nodes.data(), b.triangles.data(), b.root, s.p, maxDistance,
                                     a, c, rival2);
                const std::uint32_t got[7] = {a.x, a.y, a.z, a.w, c.x, c.y, c.z};
                std::size_t k = 0;
                for (; k < gpu::MESH_KEEP; ++k) {
                    const bool inRange = all[k].first < maxDistance * maxDistance;
                    ASSERT_EQ(got[k], inRange ? all[k].second : gpu::MESH_NO_HINT) << k;
                }
                EXPECT_LE(rival2, all[gpu::MESH_KEEP].first);
                // keepB.w: a bound on all but the nearest, no greater than the second.
                if (all[0].first < maxDistance * maxDistance) {
                    EXPECT_LE(glm::uintBitsToFloat(c.w), std::sqrt(all[1].first));
                }
            }
        }
    }
}

// Queries that remember what they proved (meshSignedDistanceKept), made from points that walk
// in small random steps over and around each mesh: every answer has the bits of the plain query
// and its nearest kept triangle is brute force's closest; most are answered from the memory.
TEST(MeshCollider, KeptQueriesAlongAWalkGiveTheSameBits) {
    for (const char* name : {"body.obj", "bumpy_sphere.obj", "table.obj"}) {
        SCOPED_TRACE(name);
        const Built b = asset(name);
        std::mt19937 rng(8);
        std::normal_distribution<float> step(0.0f, 0.0005f * b.diagonal);
        const float maxDistance = 0.05f * b.diagonal;
        int queries = 0, remembered = 0, found = 0;
        for (const Sample& s : samples(b, 12, 60)) {
            glm::uvec4 keepA(gpu::MESH_NO_HINT), keepB(gpu::MESH_NO_HINT);
            glm::vec4 rival(0.0f);
            glm::vec3 p = s.p;
            for (int k = 0; k < 100; ++k) {
                p += glm::vec3(step(rng), step(rng), step(rng));
                const glm::vec4 before = rival;
                Result kept;
                kept.distance = meshSignedDistanceKept(b.nodes.data(), b.triangles.data(), b.root,
                                                       p, maxDistance, keepA, keepB, rival,
                                                       kept.g);
                const Result plain = query(b, p, maxDistance);
                const Result brute = bruteForce(b, p, maxDistance);
                ASSERT_TRUE(sameBits(kept, plain)) << k;
                ASSERT_EQ(keepA.x, brute.found ? brute.tri : gpu::MESH_NO_HINT) << k;
                ++queries;
                found += brute.found ? 1 : 0;
                // From memory: the bounds kept (the nearest alone), or moved to p (all kept).
                const float moved = before.w - std::sqrt(gpu::meshLength2(p - glm::vec3(before)));
                remembered += before.w > 0.0f &&
                              (std::memcmp(&before, &rival, sizeof(rival)) == 0 ||
                               (glm::vec3(rival) == p && rival.w == moved));
            }
        }
        std::printf("%s: %d of %d queries (%d within the search radius) answered from memory\n",
                    name, remembered, queries, found);
        EXPECT_GT(found, 1000);
        EXPECT_GT(remembered, found / 2);
    }
}
