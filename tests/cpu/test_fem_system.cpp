// The FEM's linear system (cpu/fem_system.h) against independent numbers: its stored blocks
// against a dense stiffness assembled here from femStiffness element by element, and its
// conjugate-gradient solve against Gaussian elimination of the dense A = d M + s K; the same
// bits on 1, 2 and 3 members, and no iteration from the exact solution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/material_presets.h"
#include "core/scene.h"
#include "cpu/fem.h"
#include "cpu/fem_system.h"
#include "cpu/thread_pool.h"
#include "fixtures/scenes.h"
#include "prep/prepare.h"

using namespace cloth;

namespace {

constexpr double kD = 1.25, kS = 2e-3;

// A 9 x 9 viscose cloth pinned at its top corners, its vertices moved by up to 2 cm so that
// the elements are stretched and turned.
struct FemCase {
    PreparedCloth p;
    std::vector<std::int32_t> row;
    std::int32_t rows = 0;
    std::vector<double> mass;
    std::vector<FemElement> elements;

    FemCase() {
        Scene s = fixtures::hangingScene(8, 1.0f);
        ClothDesc& c = s.cloths[0];
        c.tethers = false;
        const MaterialPreset m = *findMaterialPreset("viscose");
        c.material.stretchModel = StretchModel::Stvk;
        c.material.membrane = m.membrane;
        c.material.density = m.density;
        s.sim.model = ClothModel::Fem;
        p = prepareScene(s);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> jitter(-0.02f, 0.02f);
        std::vector<glm::vec3> x;
        for (std::uint32_t i = 0; i < p.originalVertexCount; ++i) {
            x.push_back(glm::vec3(p.positions[i]) + glm::vec3(jitter(rng), jitter(rng), jitter(rng)));
            row.push_back(p.positions[i].w > 0.0f ? rows++ : -1);
            if (p.positions[i].w > 0.0f) mass.push_back(1.0 / double(p.positions[i].w));
        }
        for (const gpu::PdTriangle& t : p.femTerms.triangles)
            elements.push_back(femElement(t, x[t.v0], x[t.v1], x[t.v2]));
    }

    // K over the free rows, dense, row-major (3 rows x 3 rows), element by element.
    std::vector<double> denseK() const {
        const std::size_t n = 3 * std::size_t(rows);
        std::vector<double> k(n * n, 0.0);
        for (std::size_t e = 0; e < p.femTerms.triangles.size(); ++e) {
            const gpu::PdTriangle& t = p.femTerms.triangles[e];
            const std::uint32_t v[3] = {t.v0, t.v1, t.v2};
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                    if (row[v[i]] < 0 || row[v[j]] < 0) continue;
                    const glm::dmat3 b = femStiffness(t, elements[e], i, j);
                    for (int a = 0; a < 3; ++a)
                        for (int c = 0; c < 3; ++c)
                            k[(3 * row[v[i]] + a) * n + 3 * row[v[j]] + c] += b[c][a];
                }
        }
        return k;
    }
};

// Gaussian elimination with partial pivoting.
std::vector<double> solveDense(std::vector<double> a, std::vector<double> b) {
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
        for (std::size_t c = 0; c < n; ++c) std::swap(a[col * n + c], a[pivot * n + c]);
        std::swap(b[col], b[pivot]);
        for (std::size_t r = col + 1; r < n; ++r) {
            const double f = a[r * n + col] / a[col * n + col];
            for (std::size_t c = col; c < n; ++c) a[r * n + c] -= f * a[col * n + c];
            b[r] -= f * b[col];
        }
    }
    std::vector<double> x(n);
    for (std::size_t r = n; r-- > 0;) {
        double sum = b[r];
        for (std::size_t c = r + 1; c < n; ++c) sum -= a[r * n + c] * x[c];
        x[r] = sum / a[r * n + r];
    }
    return x;
}

}  // namespace

TEST(FemSystem, TheBlocksAreTheElementsStiffnessAssembled) {
    const FemCase set;
    ASSERT_GT(set.rows, 70);
    const FemPattern pattern = femPattern(set.p.femTerms.triangles, set.row, set.rows);
    FemSystem sys(set.p.femTerms.triangles, pattern, set.mass, kD, kS);
    ThreadPool pool(2);
    pool.run([&](int member, int size) { sys.fill(set.elements, member, size); });
    const std::vector<double> k = set.denseK();
    const std::size_t n = 3 * std::size_t(set.rows);
    double largest = 0.0;
    for (double v : k) largest = std::max(largest, std::abs(v));
    ASSERT_GT(largest, 0.0);
    std::size_t nonZeroBlocks = 0;
    for (std::int32_t i = 0; i < set.rows; ++i)
        for (std::int32_t j = 0; j < set.rows; ++j) {
            const glm::dmat3 b = sys.block(i, j);
            bool any = false;
            for (int a = 0; a < 3; ++a)
                for (int c = 0; c < 3; ++c) {
                    const double want = k[(3 * i + a) * n + 3 * j + c];
                    any = any || want != 0.0;
                    EXPECT_NEAR(b[c][a], want, 1e-12 * largest) << i << " " << j;
                }
            nonZeroBlocks += any;
        }
    // Every non-zero block is stored, and the pattern holds no more than the neighbours.
    EXPECT_EQ(sys.blockCount(), nonZeroBlocks);
}

TEST(FemSystem, ConjugateGradientsMatchGaussianEliminationOnAnyTeam) {
    const FemCase set;
    const std::size_t n = 3 * std::size_t(set.rows);
    std::vector<double> a = set.denseK();
    for (double& v : a) v *= kS;
    for (std::int32_t r = 0; r < set.rows; ++r)
        for (int c = 0; c < 3; ++c) a[(3 * r + c) * n + 3 * r + c] += kD * set.mass[r];
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<glm::dvec3> b(set.rows);
    std::vector<double> flat(n);
    for (std::int32_t r = 0; r < set.rows; ++r)
        for (int c = 0; c < 3; ++c) flat[3 * r + c] = b[r][c] = u(rng);
    const std::vector<double> exact = solveDense(a, flat);
    double largest = 0.0;
    for (double v : exact) largest = std::max(largest, std::abs(v));

    std::vector<glm::dvec3> first;
    for (int members : {1, 2, 3}) {
        const FemPattern pattern = femPattern(set.p.femTerms.triangles, set.row, set.rows);
        FemSystem sys(set.p.femTerms.triangles, pattern, set.mass, kD, kS);
        ThreadPool pool(members);
        std::vector<glm::dvec3> x(set.rows, glm::dvec3(0.0));
        FemCgResult result;
        pool.run([&](int member, int size) {
            sys.fill(set.elements, member, size);
            pool.barrier();
            const FemCgResult r = sys.solve(pool, b, x, 1e-12, 2000, member, size);
            if (member == 0) result = r;
        });
        EXPECT_TRUE(result.converged);
        EXPECT_GT(result.iterations, 5);
        EXPECT_LE(result.relativeResidual, 1e-12);
        for (std::int32_t r = 0; r < set.rows; ++r)
            for (int c = 0; c < 3; ++c)
                ASSERT_NEAR(x[r][c], exact[3 * r + c], 1e-9 * largest) << r;
        if (members == 1) {
            first = x;
            // From the solution, no iteration: the starting residual is already small enough.
            pool.run([&](int member, int size) {
                const FemCgResult r = sys.solve(pool, b, x, 1e-6, 2000, member, size);
                if (member == 0) result = r;
            });
            EXPECT_EQ(result.iterations, 0);
            continue;
        }
        EXPECT_EQ(std::memcmp(x.data(), first.data(), x.size() * sizeof(glm::dvec3)), 0)
            << members << " members";
    }
}
