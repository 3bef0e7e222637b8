// Bending in physical units (prep/hinge_bending.h): each hinge's k from the rigidity B and its
// geometry, checked against the plate energy (B/2) kappa^2 per area of a cloth wrapped on a
// cylinder, on a regular and an irregular triangulation, both bending models.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "kernels/constraint/bending.h"
#include "kernels/constraint/iso_bending.h"
#include "core/mesh.h"
#include "fixtures/fabric_meshes.h"
#include "prep/continuum.h"
#include "prep/hinge_bending.h"
#include "prep/rest_shape.h"

namespace cloth {
namespace {

struct Hinges {
    Topology topo;
    std::vector<HingeInput> inputs;
    std::vector<double> k;
};

Hinges weigh(const Mesh& mesh, double bWeft, double bWarp) {
    Hinges h;
    h.topo = buildTopology(mesh, "test");
    for (const BendingPair& p : h.topo.bendingPairs) {
        HingeInput in;
        in.v0 = p.v0;
        in.v1 = p.v1;
        in.rest = {mesh.positions[p.v0], mesh.positions[p.v1], mesh.positions[p.v2],
                   mesh.positions[p.v3]};
        in.triangleA = triangleOf(mesh, h.topo, p.v0, p.v1, p.v2);
        in.triangleB = triangleOf(mesh, h.topo, p.v0, p.v1, p.v3);
        in.weft = glm::vec3(1.0f, 0.0f, 0.0f);
        h.inputs.push_back(in);
    }
    std::vector<std::array<glm::vec3, 3>> corners;
    for (const glm::uvec3& t : mesh.triangles)
        corners.push_back({mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z]});
    h.k = hingeBendWeights(h.inputs, mesh.triangles, corners, bWeft, bWarp);
    return h;
}

// The flat mesh wrapped (without stretch) on a cylinder of radius R whose axis lies in the
// plane at `degrees` from the y axis: the arc length runs along d = (cos a, -sin a).
std::vector<glm::vec3> wrapped(const Mesh& mesh, double R, double degrees) {
    const double a = degrees * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
    std::vector<glm::vec3> out;
    for (const glm::vec3& p : mesh.positions) {
        const double arc = c * p.x - s * p.y, along = s * p.x + c * p.y;
        const double phi = arc / R;
        const glm::dvec3 d(c, -s, 0.0), axis(s, c, 0.0);
        const glm::dvec3 q = d * (R * std::sin(phi)) + axis * along +
                             glm::dvec3(0, 0, R * (1.0 - std::cos(phi)));
        out.emplace_back(q);
    }
    return out;
}

double meshArea(const Mesh& m) {
    double a = 0.0;
    for (const glm::uvec3& t : m.triangles)
        a += 0.5 * glm::length(glm::cross(glm::dvec3(m.positions[t.y] - m.positions[t.x]),
                                          glm::dvec3(m.positions[t.z] - m.positions[t.x])));
    return a;
}

// Energy of the wrapped mesh over the plate's (B/2) kappa^2 A: dihedral (k/2) theta^2 with theta
// from the kernel's angle, and isometric |C|^2 / (2 compliance) from its stencils.
struct Ratios {
    double dihedral, isometric;
};
Ratios cylinderRatios(const Mesh& mesh, const Hinges& h, double R, double degrees, double B) {
    const std::vector<glm::vec3> x = wrapped(mesh, R, degrees);
    double dihedral = 0.0, isometric = 0.0;
    for (std::size_t e = 0; e < h.inputs.size(); ++e) {
        const BendingPair& p = h.topo.bendingPairs[e];
        const float theta = gpu::bendingAngle(x[p.v0], x[p.v1], x[p.v2], x[p.v3]);
        dihedral += 0.5 * h.k[e] * double(theta) * theta;
        const std::array<glm::vec3, 4>& r = h.inputs[e].rest;
        const IsoBendingBuild b = makeIsoBending(r[0], r[1], r[2], r[3], h.k[e]);
        EXPECT_TRUE(b.ok());
        isometric += gpu::isoBendingEnergy(x[p.v0], x[p.v1], x[p.v2], x[p.v3], b.item);
    }
    const double plate = 0.5 * B / (R * R) * meshArea(mesh);
    return {dihedral / plate, isometric / plate};
}

// The whole mesh, border included: a border edge cannot fold, so the border row's share of the
// energy is partly lost (about a tenth of a row on these 0.4 m patches of 1 cm edges).
void expectPlateEnergy(const Mesh& mesh, const char* what, double tolerance) {
    const double B = 2e-5, R = 0.25;
    const Hinges h = weigh(mesh, B, B);
    for (double degrees : {0.0, 20.0, 45.0, 70.0, 90.0}) {
        const Ratios r = cylinderRatios(mesh, h, R, degrees, B);
        std::printf("%s, cylinder axis at %2.0f degrees: dihedral %.4f, isometric %.4f of the "
                    "plate's energy\n",
                    what, degrees, r.dihedral, r.isometric);
        EXPECT_NEAR(r.dihedral, 1.0, tolerance) << what << " at " << degrees;
        EXPECT_NEAR(r.isometric, 1.0, tolerance) << what << " at " << degrees;
    }
}

TEST(HingeBending, CylinderEnergyIsThePlatesOnARegularTriangulation) {
    expectPlateEnergy(fixtures::trianglePatch(0.4f, 0.4f, 0.01f, 0.0f, 1), "regular", 0.05);
}

TEST(HingeBending, CylinderEnergyIsThePlatesOnAnIrregularTriangulation) {
    expectPlateEnergy(fixtures::trianglePatch(0.4f, 0.4f, 0.01f, 0.25f, 7), "irregular", 0.05);
    expectPlateEnergy(fixtures::ringDisc(0.25f, 25, 0.4f, 3), "ring disc", 0.05);
}

// A grid whose diagonals alternate gives every interior hinge k = B (the hand derivation:
// axis hinges m = 3 a^2 / 8, diagonals a^2 / 4, S = a^2 per triangle, k = B (1/2 + 1/2)), so a
// cylinder along its lines has exactly the plate's energy; warp and weft each their own.
TEST(HingeBending, AnAlternatingGridAlongItsLinesHasEachDirectionsRigidity) {
    GridDesc g;
    g.width = g.height = 0.4f;
    g.resX = g.resY = 40;
    g.pattern = GridPattern::Alternating;
    const Mesh mesh = makeGrid(g);
    const double weft = 1e-5, warp = 3e-5;
    const Hinges h = weigh(mesh, weft, warp);
    for (std::size_t e = 0; e < h.k.size(); ++e) {
        const HingeShape s = hingeShape(glm::dvec3(h.inputs[e].rest[0]), glm::dvec3(h.inputs[e].rest[1]),
                                        glm::dvec3(h.inputs[e].rest[2]), glm::dvec3(h.inputs[e].rest[3]));
        ASSERT_TRUE(s.ok);
    }
    // Curvature along x (the weft) folds only the hinges across x; along y the warp's.
    for (auto [degrees, B] : {std::pair{0.0, weft}, std::pair{90.0, warp}}) {
        const Ratios r = cylinderRatios(mesh, h, 0.25, degrees, B);
        std::printf("alternating grid, curvature along %s: dihedral %.4f, isometric %.4f\n",
                    degrees == 0.0 ? "weft" : "warp", r.dihedral, r.isometric);
        // 40 columns of cells fold at 39 lines of hinges: the half cells at the two ends
        // carry no fold.
        EXPECT_NEAR(r.dihedral, 39.0 / 40.0, 0.002);
        EXPECT_NEAR(r.isometric, 39.0 / 40.0, 0.002);
    }
}

// The fold formula of step 1 against the fold of a real hinge bent on a cylinder, and the mean
// of step 2 against a numerical mean over directions, on random hinges.
TEST(HingeBending, FoldOfABentHingeAndItsMeanOverDirections) {
    std::uint64_t state = 12345;
    auto uni = [&](double lo, double hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * double(state >> 11) / double(1ull << 53);
    };
    for (int trial = 0; trial < 50; ++trial) {
        const glm::dvec3 x0(0, 0, 0), x1(uni(0.5, 1.5), 0, 0);
        const glm::dvec3 x2(uni(-0.3, 1.8), uni(-1.2, -0.2), 0), x3(uni(-0.3, 1.8), uni(0.2, 1.2), 0);
        const HingeShape s = hingeShape(x0, x1, x2, x3);
        ASSERT_TRUE(s.ok);
        double mean = 0.0;
        const int n = 720;
        double sign = 0.0;  // the kernel's sign convention, from the fold across the edge
        for (int i = 0; i < n; ++i) {
            const double a = M_PI * (i + 0.5) / n;  // d at angle a from the edge (along x)
            const glm::dvec2 d(std::cos(a), std::sin(a));
            // Height field z = kappa (d.p)^2 / 2 at a small kappa: theta from the kernel.
            const double kappa = 1e-3;
            auto lift = [&](glm::dvec3 p) {
                const double t = d.x * p.x + d.y * p.y;
                return glm::vec3(glm::dvec3(p.x, p.y, 0.5 * kappa * t * t));
            };
            double theta = double(gpu::bendingAngle(lift(x0), lift(x1), lift(x2), lift(x3))) / kappa;
            const double predicted = s.p * d.y * d.y + s.q * d.x * d.y - s.r * d.x * d.x;
            if (sign == 0.0) {
                const double t2 = 0.5 * kappa;
                auto up = [&](glm::dvec3 p) { return glm::vec3(glm::dvec3(p.x, p.y, t2 * p.y * p.y)); };
                sign = gpu::bendingAngle(up(x0), up(x1), up(x2), up(x3)) > 0.0f ? 1.0 : -1.0;
            }
            theta *= sign;
            ASSERT_NEAR(theta, predicted, 2e-3 * (s.p + std::abs(s.q) + std::abs(s.r)))
                << "trial " << trial << " direction " << a;
            mean += predicted * predicted / n;
        }
        EXPECT_NEAR(hingeMeanSquareFold(s), mean, 1e-9 * mean);
    }
}

}  // namespace
}  // namespace cloth
