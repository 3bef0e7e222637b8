// mesh_query_report: load-time cost of the mesh-collider hierarchy (src/prep/mesh_collider.h)
// and the cost of one signed-distance query (src/kernels/mesh_distance.h, the C++ build)
// against a brute-force search over every triangle, for points near the surface (where cloth
// vertices are) and anywhere in the bounds. Not a test (no assertions on time); build it in
// Release and run
//   build/tests/mesh_query_report [--repeats N]
// Prints the minimum and median over N repeats (default 15).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/collider_mesh.h"
#include "fixtures/meshes.h"
#include "prep/mesh_collider.h"

using namespace cloth;
using Clock = std::chrono::steady_clock;

namespace {

struct Stat {
    double min, median;
};

template <class F>
Stat timeIt(int repeats, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        f();
        t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

// A sink the optimiser cannot drop.
volatile float g_sink = 0.0f;

// Points within `band` of the surface (along a face normal, uniform in [-band, band]), or
// uniform in the bounds grown by 10 % of the diagonal.
std::vector<glm::vec3> points(const Mesh& m, bool nearSurface, float band, int count) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    glm::vec3 lo, hi;
    const float diag = fixtures::boundsDiagonal(m, lo, hi);
    std::vector<glm::vec3> out;
    for (int i = 0; i < count; ++i) {
        if (!nearSurface) {
            glm::vec3 p;
            for (int k = 0; k < 3; ++k)
                p[k] = lo[k] - 0.1f * diag + u01(rng) * (hi[k] - lo[k] + 0.2f * diag);
            out.push_back(p);
            continue;
        }
        const glm::uvec3& t = m.triangles[rng() % m.triangles.size()];
        glm::vec3 a = m.positions[t.x], b = m.positions[t.y], c = m.positions[t.z];
        float s = u01(rng), r = u01(rng);
        if (s + r > 1.0f) s = 1.0f - s, r = 1.0f - r;
        glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
        out.push_back(a + (b - a) * s + (c - a) * r + n * (band * (2.0f * u01(rng) - 1.0f)));
    }
    return out;
}

float bruteForce(const std::vector<gpu::MeshNode>& nodes,
                 const std::vector<gpu::MeshTriangle>& tris, glm::vec3 p, float maxDistance) {
    float best2 = maxDistance * maxDistance;
    std::uint32_t bestTri = 0, bestFeature = 0;
    glm::vec3 bestQ(0.0f);
    bool found = false;
    for (std::uint32_t t = 0; t < tris.size(); ++t) {
        glm::vec3 q;
        std::uint32_t feature;
        float d2 = gpu::meshTriangleDistance2At(nodes.data(), tris.data(), t, p, q, feature);
        if (d2 < best2) {
            best2 = d2;
            bestTri = t;
            bestFeature = feature;
            bestQ = q;
            found = true;
        }
    }
    glm::vec3 g;
    if (!found) return maxDistance;
    return gpu::meshSignedFromClosest(nodes.data(), tris.data(), bestTri, bestFeature, bestQ, best2,
                                      p, maxDistance, g);
}

void reportMesh(const std::string& name, const Mesh& mesh, int repeats) {
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> tris;
    Stat build = timeIt(repeats, [&] {
        nodes.clear();
        tris.clear();
        appendMeshCollider(mesh, nodes, tris);
    });
    std::printf("%-18s %7zu triangles %7zu nodes  build %8.2f ms min %8.2f ms median\n",
                name.c_str(), tris.size(), nodes.size(), build.min * 1e3, build.median * 1e3);
    // Search radius 5 cm (a cloth thickness plus a margin); points within 1 cm of the surface,
    // and anywhere in the bounds (most beyond the radius).
    const float radius = 0.05f;
    for (bool nearSurface : {true, false}) {
        const int count = 20000;
        std::vector<glm::vec3> pts = points(mesh, nearSurface, 0.01f, count);
        Stat bvh = timeIt(repeats, [&] {
            float sum = 0.0f;
            for (glm::vec3 p : pts) {
                glm::vec3 g;
                sum += gpu::meshSignedDistance(nodes.data(), tris.data(), 0u, p, radius, g);
            }
            g_sink = sum;
        });
        const int bruteCount = std::max(200, count * 200 / int(tris.size()));
        const int bruteRepeats = std::max(3, repeats / 5);
        Stat brute = timeIt(bruteRepeats, [&] {
            float sum = 0.0f;
            for (int i = 0; i < std::min(bruteCount, count); ++i)
                sum += bruteForce(nodes, tris, pts[i], radius);
            g_sink = sum;
        });
        const double n = double(std::min(bruteCount, count));
        std::printf(
            "  %-14s query: bvh %8.1f ns min %8.1f ns median | brute force %10.1f ns min "
            "%10.1f ns median\n",
            nearSurface ? "near surface" : "in bounds", bvh.min / count * 1e9,
            bvh.median / count * 1e9, brute.min / n * 1e9, brute.median / n * 1e9);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 15;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--repeats N]\n", argv[0]);
            return 1;
        }
    }
    const std::string assets = std::string(CLOTH_SOURCE_DIR) + "/assets/meshes/";
    for (const char* name : {"table.obj", "body.obj", "bumpy_sphere.obj"})
        reportMesh(name, loadColliderMesh(assets + name), repeats);
    // About 100k triangles: a smooth blob, 0.5 m across.
    Mesh big = fixtures::perturbedSphere(3, 224, 224, 0.2f);
    for (glm::vec3& p : big.positions) p *= 0.25f;
    reportMesh("blob 100k", big, std::max(3, repeats / 3));
    return 0;
}
