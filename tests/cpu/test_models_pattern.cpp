// The models other than XPBD (mass_spring, pd with its direct and Jacobi global steps, fem) with
// their rest state from a sewing pattern (rest_shape "uv", prep/rest_shape.h; docs/models.md):
// a free cloth whose pattern differs from its starting shape (stretched 20% along one axis,
// squeezed 15% along the other), with no gravity and damping, relaxes to the pattern. Every
// surface edge's length is checked against its length in the pattern, computed here from the
// texture coordinates the test writes (an OBJ of two panels whose shared column has a UV in
// each) or from the grid's UV layout (u = column / resX, v = row / resY).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/scene.h"
#include "cpu/fem.h"
#include "cpu/mass_spring.h"
#include "cpu/projective.h"
#include "prep/prepare.h"
#include "sim/solver.h"
#include "model_variants.h"

using namespace cloth;

namespace {

using test::Variant;
using test::kVariants;
using test::name;

void setModel(Scene& s, Variant v) {
    s.sim.model = v == Variant::MassSpring ? ClothModel::MassSpring
                  : v == Variant::Fem      ? ClothModel::Fem
                                           : ClothModel::Projective;
    s.sim.substeps = 10;
    s.sim.iterations = 20;
    if (v == Variant::PdJacobi) {
        s.sim.iteration.scheme = IterationScheme::Chebyshev;
        s.sim.iteration.relaxation = 0.5f;
        s.sim.iteration.rho = 0.9f;
    }
}

// One thread: these cloths are too small to share (on two, the team's barrier waits were 40% of
// the Release run), and any thread count gives the same bits (each model's AnyThreadCount test).
std::unique_ptr<Solver> makePatternSolver(const PreparedCloth& p) {
    return test::makeModelSolver(p, 1);
}

// A W x H pattern of nx x ny quads in two panels (the right half's vt moved 1 in u, so the
// middle column's vertices have two UVs), its vertices placed at (sx u, sy v, 0).
constexpr int kNx = 6, kNy = 4;
constexpr double kW = 0.6, kH = 0.4, kSx = 1.2, kSy = 0.85;

glm::dvec2 patternPoint(std::uint32_t v) {  // vertex v = j (nx + 1) + i, in metres (uv_scale 1)
    return {kW * double(v % (kNx + 1)) / kNx, kH * double(v / (kNx + 1)) / kNy};
}

std::string writePanels() {
    const std::string path = ::testing::TempDir() + "models_pattern.obj";
    std::ofstream f(path);
    f.precision(9);
    for (int j = 0; j <= kNy; ++j)
        for (int i = 0; i <= kNx; ++i)
            f << "v " << kSx * kW * i / kNx << ' ' << kSy * kH * j / kNy << " 0\n";
    for (int panel = 0; panel < 2; ++panel)
        for (int j = 0; j <= kNy; ++j)
            for (int i = 0; i <= kNx; ++i)
                f << "vt " << kW * i / kNx + panel << ' ' << kH * j / kNy << '\n';
    const int perSet = (kNx + 1) * (kNy + 1);
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) {
            const bool second = 2 * i >= kNx;
            auto corner = [&](int ci, int cj) {
                const int v = cj * (kNx + 1) + ci + 1;
                return std::to_string(v) + "/" + std::to_string(v + (second ? perSet : 0));
            };
            f << "f " << corner(i, j) << ' ' << corner(i + 1, j) << ' ' << corner(i + 1, j + 1)
              << '\n';
            f << "f " << corner(i, j) << ' ' << corner(i + 1, j + 1) << ' ' << corner(i, j + 1)
              << '\n';
        }
    return path;
}

Scene freeCloth(Variant v, ClothDesc c) {
    Scene s;
    s.name = "pattern";
    s.sim.gravity = glm::vec3(0.0f);
    c.name = "cloth";
    c.tethers = false;
    c.restShape = RestShape::Uv;
    c.uvScale = 1.0f;
    c.material.density = 0.2f;
    c.material.stretchCompliance = 1e-3f;  // 1000 N/m springs
    c.material.bendCompliance = 1.0f;
    c.material.linearDamping = 5.0f;
    s.cloths.push_back(c);
    setModel(s, v);
    return s;
}

// The largest |l / L - 1| over the surface edges, l from x, L from `rest` (per vertex pair).
template <class Rest>
double worstEdge(const PreparedCloth& p, const std::vector<glm::vec4>& x, Rest rest) {
    double worst = 0.0;
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t[k], b = t[(k + 1) % 3];
            const double l = glm::length(glm::dvec3(glm::vec3(x[a])) - glm::dvec3(glm::vec3(x[b])));
            worst = std::max(worst, std::abs(l / rest(a, b) - 1.0));
        }
    return worst;
}

template <class Rest>
void expectRelaxesToThePattern(const Scene& s, Rest rest, const char* what) {
    const PreparedCloth p = prepareScene(s);
    ASSERT_TRUE(p.cloths[0].restFromPattern);
    std::vector<glm::vec4> x = p.positions;
    EXPECT_GT(worstEdge(p, x, rest), 0.14) << what;  // the start is not the pattern
    auto solver = makePatternSolver(p);
    for (int f = 0; f < 180; ++f) solver->stepFrame();
    solver->readPositions(x);
    const double worst = worstEdge(p, x, rest);
    std::printf("%s: largest |l/L - 1| after 3 s: %.2e\n", what, worst);
    EXPECT_LT(worst, 1e-3) << what;
}

}  // namespace

// An OBJ of two panels: every model's rest lengths, areas and angles come from the pattern.
TEST(ModelsPattern, AClothFromAnObjRelaxesToItsPatternsEdgeLengths) {
    ClothDesc c;
    c.objPath = writePanels();
    for (Variant v : kVariants) {
        const std::string what = std::string(name(v)) + ", obj";
        expectRelaxesToThePattern(
            freeCloth(v, c),
            [](std::uint32_t a, std::uint32_t b) {
                return glm::length(patternPoint(a) - patternPoint(b));
            },
            what.c_str());
    }
}

// A grid (Provot's shear and flexion springs for mass_spring): the pattern is uv_scale times
// the unit square, whatever the grid's width and height.
TEST(ModelsPattern, AGridRelaxesToItsPatternsEdgeLengths) {
    ClothDesc c;
    GridDesc g;
    g.resX = 6;
    g.resY = 4;
    g.width = 1.2f;   // cells of 0.2 m against the pattern's 1/6
    g.height = 0.85f;  // 0.2125 m against 1/4
    c.grid = g;
    auto rest = [](std::uint32_t a, std::uint32_t b) {
        auto at = [](std::uint32_t v) {
            return glm::dvec2(double(v % 7) / 6.0, double(v / 7) / 4.0);
        };
        return glm::length(at(a) - at(b));
    };
    for (Variant v : kVariants) {
        const std::string what = std::string(name(v)) + ", grid";
        expectRelaxesToThePattern(freeCloth(v, c), rest, what.c_str());
    }
}
