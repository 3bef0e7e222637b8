// StVK membrane, isometric bending and wind (src/kernels/constraint/, src/kernels/wind.h):
// gradients against finite differences, invariances, the moduli, the cylinder energy.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/quaternion.hpp>

#include "kernels/constraint/iso_bending.h"
#include "kernels/constraint/stvk.h"
#include "prep/continuum.h"
#include "kernels/wind.h"

using namespace cloth;
using namespace cloth::gpu;

namespace {

std::mt19937 continuumRng(2024);

float uniform(float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(continuumRng);
}

glm::vec3 randomContinuumPoint(float scale) {
    return {uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale)};
}

const OrthotropicMaterial kViscose{245.0f, 366.0f, 0.249f, 0.167f, 0.38f};

// A random well-shaped material triangle (angles well away from 0 and pi).
std::array<glm::vec2, 3> randomMaterialTriangle() {
    for (;;) {
        std::array<glm::vec2, 3> t = {glm::vec2(uniform(-1, 1), uniform(-1, 1)),
                                      glm::vec2(uniform(-1, 1), uniform(-1, 1)),
                                      glm::vec2(uniform(-1, 1), uniform(-1, 1))};
        glm::vec2 a = t[1] - t[0], b = t[2] - t[0];
        float area2 = std::abs(a.x * b.y - a.y * b.x);
        float l2 = std::max({glm::dot(a, a), glm::dot(b, b), glm::dot(b - a, b - a)});
        if (area2 > 0.3f * l2 && l2 > 0.2f) return t;
    }
}

glm::vec3 strain(const std::array<glm::vec3, 3>& x, glm::vec4 invRest) {
    glm::vec3 C;
    glm::mat3 g0, g1, g2;
    stvkEval(x[0], x[1], x[2], invRest, C, g0, g1, g2);
    return C;
}

// Rest positions of material coordinates in 3-D, rotated and moved rigidly.
std::array<glm::vec3, 3> placeRigidly(const std::array<glm::vec2, 3>& uv, glm::quat q,
                                      glm::vec3 t) {
    std::array<glm::vec3, 3> x;
    for (int i = 0; i < 3; ++i) x[i] = q * glm::vec3(uv[i], 0.0f) + t;
    return x;
}

glm::quat randomRotation() {
    return glm::angleAxis(uniform(0.0f, 6.2f),
                          glm::normalize(randomContinuumPoint(1.0f) + glm::vec3(0.01f)));
}

}  // namespace

TEST(Stvk, GradientsMatchFiniteDifferences) {
    const float h = 1e-3f;
    for (int trial = 0; trial < 100; ++trial) {
        auto uv = randomMaterialTriangle();
        StvkBuild b = makeStvk(uv[0], uv[1], uv[2], kViscose);
        ASSERT_TRUE(b.ok()) << b.error;
        std::array<glm::vec3, 3> x = {randomContinuumPoint(1.0f), randomContinuumPoint(1.0f), randomContinuumPoint(1.0f)};
        glm::vec3 C;
        glm::mat3 g[3];
        stvkEval(x[0], x[1], x[2], b.item.invRest, C, g[0], g[1], g[2]);
        for (int i = 0; i < 3; ++i)
            for (int axis = 0; axis < 3; ++axis) {
                auto plus = x, minus = x;
                plus[i][axis] += h;
                minus[i][axis] -= h;
                glm::vec3 fd =
                    (strain(plus, b.item.invRest) - strain(minus, b.item.invRest)) / (2.0f * h);
                for (int k = 0; k < 3; ++k) {
                    float want = fd[k], got = g[i][k][axis];
                    EXPECT_NEAR(got, want, 2e-3f * std::max(1.0f, std::abs(want)))
                        << "trial " << trial << " vertex " << i << " component " << k;
                }
            }
    }
}

TEST(Stvk, ZeroStrainAndNoMoveAtRestUnderRigidMotion) {
    SolveParams s{3600.0f, MODE_XPBD, 1u, 0.0f};
    for (int trial = 0; trial < 50; ++trial) {
        auto uv = randomMaterialTriangle();
        StvkBuild b = makeStvk(uv[0], uv[1], uv[2], kViscose);
        ASSERT_TRUE(b.ok());
        auto x = placeRigidly(uv, randomRotation(), randomContinuumPoint(5.0f));
        glm::vec3 C = strain(x, b.item.invRest);
        EXPECT_LT(glm::length(C), 3e-6f) << "trial " << trial;
        glm::vec4 p[3] = {{x[0], 1.0f}, {x[1], 2.0f}, {x[2], 0.5f}};
        glm::vec4 lambda(7.0f);
        projectStvk(p[0], p[1], p[2], b.item, lambda, s);
        for (int i = 0; i < 3; ++i) EXPECT_LT(glm::distance(glm::vec3(p[i]), x[i]), 1e-5f);
        EXPECT_LT(glm::length(glm::vec3(lambda)), 1e-4f);  // started from 0, not from 7
    }
}

TEST(Stvk, StrainIsInvariantUnderRigidMotion) {
    for (int trial = 0; trial < 100; ++trial) {
        auto uv = randomMaterialTriangle();
        StvkBuild b = makeStvk(uv[0], uv[1], uv[2], kViscose);
        std::array<glm::vec3, 3> x = {randomContinuumPoint(1.0f), randomContinuumPoint(1.0f), randomContinuumPoint(1.0f)};
        glm::quat q = randomRotation();
        glm::vec3 t = randomContinuumPoint(3.0f);
        std::array<glm::vec3, 3> y = {q * x[0] + t, q * x[1] + t, q * x[2] + t};
        glm::vec3 a = strain(x, b.item.invRest), c = strain(y, b.item.invRest);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(a[k], c[k], 2e-4f * std::max(1.0f, std::abs(a[k])));
    }
}

// Uniaxial stress along an axis: strain (e, -nu e, 0) in the material frame. The energy
// density C^T alpha^-1 C / (2 A0) must then be E e^2 / 2 with that axis's modulus, and the
// stored compliance must give exactly nu for the lateral strain.
TEST(Stvk, StretchAlongWeftAndWarpGivesTheTwoModuli) {
    // A triangle in 3-D whose weft runs at 30 degrees in its plane: exercises the world builder.
    glm::quat q = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
    const float c30 = std::cos(0.5236f), s30 = std::sin(0.5236f);
    glm::vec3 weft = q * glm::vec3(c30, s30, 0.0f), warp = q * glm::vec3(-s30, c30, 0.0f);
    std::array<glm::vec2, 3> uv = {glm::vec2(0.0f), glm::vec2(0.1f, 0.02f),
                                   glm::vec2(0.03f, 0.09f)};
    auto world = [&](glm::vec2 m) { return weft * m.x + warp * m.y + glm::vec3(1, 2, 3); };
    StvkBuild b = makeStvk(world(uv[0]), world(uv[1]), world(uv[2]), weft, kViscose);
    ASSERT_TRUE(b.ok()) << b.error;
    const glm::dvec4 d(b.item.complianceDiag), o(b.item.complianceOff);
    const double area = 0.5 * std::abs((uv[1] - uv[0]).x * (uv[2] - uv[0]).y -
                                       (uv[1] - uv[0]).y * (uv[2] - uv[0]).x);
    EXPECT_NEAR(b.restArea, area, 1e-7);
    // alpha = (A0 Cm)^-1: axial compliance 1 / (A0 E), Poisson -alpha_uv / alpha_uu.
    EXPECT_NEAR(1.0 / (area * d.x), kViscose.ex, 1e-3 * kViscose.ex);
    EXPECT_NEAR(1.0 / (area * d.y), kViscose.ey, 1e-3 * kViscose.ey);
    EXPECT_NEAR(1.0 / (area * d.z), kViscose.g, 1e-3 * kViscose.g);
    EXPECT_NEAR(-o.x / d.x, kViscose.nuYX, 2e-3);  // weft loaded: warp contracts by nuYX
    EXPECT_NEAR(-o.x / d.y, kViscose.nuXY, 2e-3);  // warp loaded: weft contracts by nuXY
    // Through stvkEval on deformed positions: stretch s along one axis, contraction on the other.
    glm::dmat3 alpha(d.x, o.x, o.y, o.x, d.y, o.z, o.y, o.z, d.z);
    glm::dmat3 stiffness = glm::inverse(alpha);
    for (int axis = 0; axis < 2; ++axis) {
        const double E = axis == 0 ? kViscose.ex : kViscose.ey;
        const double nu = axis == 0 ? kViscose.nuYX : kViscose.nuXY;
        const double e = 0.01;
        // Stretch factors giving Green strains e along `axis` and -nu e across it.
        double along = std::sqrt(1.0 + 2.0 * e), across = std::sqrt(1.0 - 2.0 * nu * e);
        glm::vec2 scale = axis == 0 ? glm::vec2(along, across) : glm::vec2(across, along);
        std::array<glm::vec3, 3> x;
        for (int i = 0; i < 3; ++i) x[i] = world(uv[i] * scale);
        glm::dvec3 C = strain(x, b.item.invRest);
        EXPECT_NEAR(C[axis], e, 2e-5);
        EXPECT_NEAR(C[1 - axis], -nu * e, 2e-5);
        EXPECT_NEAR(C.z, 0.0, 2e-5);
        double psi = 0.5 * glm::dot(C, stiffness * C) / area;
        std::printf(
            "stvk: %s stretch, Green strain %.3f: energy density %.6f J/m^2, "
            "E e^2 / 2 = %.6f J/m^2 (E = %.0f N/m)\n",
            axis == 0 ? "weft" : "warp", e, psi, 0.5 * E * e * e, E);
        EXPECT_NEAR(psi, 0.5 * E * e * e, 0.01 * 0.5 * E * e * e);
    }
}

TEST(Stvk, DegenerateTrianglesAreRefusedOrSkipped) {
    StvkBuild b = makeStvk(glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(2, 0), kViscose);
    EXPECT_FALSE(b.ok());
    EXPECT_NE(b.error.find("degenerate"), std::string::npos);
    b = makeStvk(glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1),
                 kViscose);
    EXPECT_NE(b.error.find("weft"), std::string::npos) << b.error;
    OrthotropicMaterial bad = kViscose;
    bad.nuYX = 0.3f;  // breaks the pairing
    b = makeStvk(glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(0, 1), bad);
    EXPECT_NE(b.error.find("symmetric"), std::string::npos) << b.error;
    // A collapsed or NaN triangle in PBD mode (no compliance to regularise): no NaN, no move.
    b = makeStvk(glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(0, 1), kViscose);
    ASSERT_TRUE(b.ok());
    SolveParams pbd{3600.0f, MODE_PBD, 0u, 0.0f};
    glm::vec4 p0(0, 0, 0, 1), p1(1, 0, 0, 1), p2(2, 0, 0, 1), lambda(0.0f);
    projectStvk(p0, p1, p2, b.item, lambda, pbd);
    EXPECT_EQ(p2, glm::vec4(2, 0, 0, 1));
    glm::vec4 n0(0, 0, 0, 1), n1(1, 0, 0, 1), n2(NAN, 0, 0, 1);
    projectStvk(n0, n1, n2, b.item, lambda, pbd);
    EXPECT_EQ(n0, glm::vec4(0, 0, 0, 1));
    EXPECT_FALSE(std::isnan(lambda.x));
    glm::vec4 q0(0, 0, 0, 0), q1(1, 0, 0, 0), q2(0, 2, 0, 0);  // all pinned
    projectStvk(q0, q1, q2, b.item, lambda, pbd);
    EXPECT_EQ(q2, glm::vec4(0, 2, 0, 0));
}

// XPBD projection reduces C + alpha~ lambda of the block to zero in one step when the
// constraint is linearised: check on a small deformation that one projection with lambda = 0
// leaves a residual that is second order.
TEST(Stvk, OneProjectionSolvesTheLinearisedBlock) {
    auto uv = randomMaterialTriangle();
    StvkBuild b = makeStvk(uv[0], uv[1], uv[2], kViscose);
    SolveParams s{3600.0f, MODE_XPBD, 1u, 0.0f};
    auto x = placeRigidly(uv, randomRotation(), glm::vec3(0.0f));
    x[1] += glm::vec3(0.01f, -0.004f, 0.003f);
    glm::vec4 p[3] = {{x[0], 3.0f}, {x[1], 1.0f}, {x[2], 2.0f}};
    glm::vec4 lambda(0.0f);
    glm::vec3 before = strain(x, b.item.invRest);
    projectStvk(p[0], p[1], p[2], b.item, lambda, s);
    glm::vec3 after = strain({glm::vec3(p[0]), glm::vec3(p[1]), glm::vec3(p[2])}, b.item.invRest);
    glm::vec3 al = glm::vec3(b.item.complianceDiag) * s.invDt2 * glm::vec3(lambda);
    glm::vec3 off = glm::vec3(b.item.complianceOff) * s.invDt2;
    al += glm::vec3(off.x * lambda.y + off.y * lambda.z, off.x * lambda.x + off.z * lambda.z,
                    off.y * lambda.x + off.z * lambda.y);
    EXPECT_LT(glm::length(after + al), 0.05f * glm::length(before));
}

// ---- isometric bending --------------------------------------------------------------------

namespace {

std::array<glm::vec3, 4> randomFlatStencil() {
    // Edge along x; x2 above, x3 below (opposite sides), all in the plane z = 0.
    return {glm::vec3(uniform(-0.2f, 0.2f), uniform(-0.2f, 0.2f), 0.0f),
            glm::vec3(uniform(0.8f, 1.2f), uniform(-0.2f, 0.2f), 0.0f),
            glm::vec3(uniform(-0.5f, 1.5f), uniform(0.5f, 1.5f), 0.0f),
            glm::vec3(uniform(-0.5f, 1.5f), uniform(-1.5f, -0.5f), 0.0f)};
}

IsoBendingConstraint buildIso(const std::array<glm::vec3, 4>& x, float D) {
    IsoBendingBuild b = makeIsoBending(x[0], x[1], x[2], x[3], D);
    EXPECT_TRUE(b.ok()) << b.error;
    return b.item;
}

}  // namespace

TEST(IsoBending, ZeroForFlatStencilsAndTheirAffineImages) {
    for (int trial = 0; trial < 100; ++trial) {
        auto x = randomFlatStencil();
        IsoBendingConstraint c = buildIso(x, 1.0f);
        EXPECT_NEAR(c.k.x + c.k.y + c.k.z + c.k.w, 0.0f, 1e-5f);
        EXPECT_LT(glm::length(isoBendingEval(x[0], x[1], x[2], x[3], c.k)), 1e-5f);
        // Any affine image of a flat stencil is flat (and may be stretched): still zero.
        glm::mat3 A(glm::vec3(uniform(0.5f, 2), uniform(-1, 1), uniform(-1, 1)),
                    glm::vec3(uniform(-1, 1), uniform(0.5f, 2), uniform(-1, 1)), randomContinuumPoint(1));
        glm::vec3 t = randomContinuumPoint(4.0f);
        glm::vec3 C = isoBendingEval(A * x[0] + t, A * x[1] + t, A * x[2] + t, A * x[3] + t, c.k);
        EXPECT_LT(glm::length(C), 5e-5f) << "trial " << trial;
    }
}

TEST(IsoBending, FoldGivesTwoEdgeLengthsTimesSinHalfAngle) {
    auto x = randomFlatStencil();
    x[0] = glm::vec3(0.0f);
    x[1] = glm::vec3(1.0f, 0.0f, 0.0f);
    IsoBendingConstraint c = buildIso(x, 1.0f);
    for (float theta : {0.1f, 0.5f, 1.5f}) {
        // Rotate x3 about the edge (the x axis) by theta.
        glm::quat q = glm::angleAxis(theta, glm::vec3(1, 0, 0));
        glm::vec3 C = isoBendingEval(x[0], x[1], x[2], q * x[3], c.k);
        EXPECT_NEAR(glm::length(C), 2.0f * std::sin(0.5f * theta), 1e-5f) << theta;
    }
}

TEST(IsoBending, MagnitudeUnchangedByRigidMotionAndGradientsMatchFiniteDifferences) {
    const float h = 1e-3f;
    for (int trial = 0; trial < 100; ++trial) {
        auto rest = randomFlatStencil();
        IsoBendingConstraint c = buildIso(rest, 0.7f);
        std::array<glm::vec3, 4> x;
        for (int i = 0; i < 4; ++i) x[i] = rest[i] + randomContinuumPoint(0.3f);
        glm::quat q = randomRotation();
        glm::vec3 t = randomContinuumPoint(3.0f);
        glm::vec3 C = isoBendingEval(x[0], x[1], x[2], x[3], c.k);
        glm::vec3 Cm = isoBendingEval(q * x[0] + t, q * x[1] + t, q * x[2] + t, q * x[3] + t, c.k);
        EXPECT_NEAR(glm::length(Cm), glm::length(C), 1e-4f * std::max(1.0f, glm::length(C)));
        // Energy gradient: dE/dx_i = K_i C / compliance.
        float K[4] = {c.k.x, c.k.y, c.k.z, c.k.w};
        auto energy = [&](const std::array<glm::vec3, 4>& y) {
            return isoBendingEnergy(y[0], y[1], y[2], y[3], c);
        };
        for (int i = 0; i < 4; ++i) {
            glm::vec3 want = K[i] * C / c.compliance;
            for (int axis = 0; axis < 3; ++axis) {
                auto plus = x, minus = x;
                plus[i][axis] += h;
                minus[i][axis] -= h;
                float fd = (energy(plus) - energy(minus)) / (2.0f * h);
                EXPECT_NEAR(fd, want[axis], 3e-3f * std::max(1.0f, std::abs(want[axis])))
                    << "trial " << trial << " vertex " << i;
                // C itself: dC/dx_i = K_i I.
                glm::vec3 dC = (isoBendingEval(plus[0], plus[1], plus[2], plus[3], c.k) -
                                isoBendingEval(minus[0], minus[1], minus[2], minus[3], c.k)) /
                               (2.0f * h);
                glm::vec3 unit(0.0f);
                unit[axis] = K[i];
                for (int k = 0; k < 3; ++k)
                    EXPECT_NEAR(dC[k], unit[k], 2e-3f * std::max(1.0f, std::abs(K[i])));
            }
        }
    }
}

TEST(IsoBending, DegenerateStencilsAreRefused) {
    glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0.5f, 1, 0), d(0.5f, -1, 0);
    EXPECT_FALSE(makeIsoBending(a, b, glm::vec3(2, 0, 0), d, 1.0f).ok());
    EXPECT_FALSE(makeIsoBending(a, a, c, d, 1.0f).ok());
    EXPECT_FALSE(makeIsoBending(a, b, c, d, 0.0f).ok());
    EXPECT_TRUE(makeIsoBending(a, b, c, d, 1.0f).ok());
    // All pinned: no move, no NaN.
    IsoBendingConstraint k = makeIsoBending(a, b, c, d, 1.0f).item;
    glm::vec4 p0(a, 0), p1(b, 0), p2(c, 0), p3(0.5f, -1, 1, 0), lambda(0.0f);
    SolveParams s{3600.0f, MODE_XPBD, 1u, 0.0f};
    projectIsoBending(p0, p1, p2, p3, k, lambda, s);
    EXPECT_EQ(p3, glm::vec4(0.5f, -1, 1, 0));
    EXPECT_EQ(lambda, glm::vec4(0.0f));
}

// The isometric stencils' energy on a cylinder, from their weights derived from the bending
// rigidity, is checked with the dihedral hinges' in tests/prep/test_hinge_bending.cpp.

// ---- wind -------------------------------------------------------------------------------

TEST(Wind, ZeroWithoutRelativeWind) {
    EXPECT_EQ(windForce(glm::vec3(0.0f), glm::vec3(0, 0, 1), 0.1f, 1.2f, 0.5f, 0.3f),
              glm::vec3(0.0f));
    glm::vec3 tiny = windForce(glm::vec3(1e-20f, 0, 0), glm::vec3(0, 0, 1), 0.1f, 1.2f, 0.5f, 0.3f);
    EXPECT_FALSE(std::isnan(tiny.x) || std::isnan(tiny.y) || std::isnan(tiny.z));
}

TEST(Wind, DragAlongTheWindOnTheFrontalArea) {
    const float rho = 1.2f, A = 0.05f, cd = 0.8f;
    for (int trial = 0; trial < 50; ++trial) {
        glm::vec3 v = randomContinuumPoint(10.0f), n = glm::normalize(randomContinuumPoint(1.0f));
        glm::vec3 f = windForce(v, n, A, rho, cd, 0.0f);
        float speed = glm::length(v), cosT = std::abs(glm::dot(v, n)) / speed;
        float want = 0.5f * rho * cd * A * cosT * speed * speed;
        EXPECT_NEAR(glm::length(f), want, 1e-5f * want + 1e-6f);
        EXPECT_GE(glm::dot(f, v), 0.0f);                   // along the relative wind
        EXPECT_EQ(f, windForce(v, -n, A, rho, cd, 0.0f));  // either side of the cloth
    }
}

TEST(Wind, LiftPerpendicularZeroAtNormalAndGrazingIncidence) {
    const float rho = 1.2f, A = 0.05f, cl = 0.5f;
    glm::vec3 n(0, 0, 1);
    EXPECT_LT(glm::length(windForce(glm::vec3(0, 0, 7), n, A, rho, 0.0f, cl)), 1e-6f);
    EXPECT_LT(glm::length(windForce(glm::vec3(0, 0, -7), n, A, rho, 0.0f, cl)), 1e-6f);
    EXPECT_LT(glm::length(windForce(glm::vec3(5, 3, 0), n, A, rho, 0.0f, cl)), 1e-6f);
    for (int trial = 0; trial < 50; ++trial) {
        glm::vec3 v = randomContinuumPoint(10.0f), m = glm::normalize(randomContinuumPoint(1.0f));
        glm::vec3 f = windForce(v, m, A, rho, 0.0f, cl);
        float speed = glm::length(v), c = glm::dot(v, m) / speed;
        EXPECT_NEAR(glm::dot(f, v), 0.0f, 1e-3f * glm::length(f) * speed);  // perpendicular
        EXPECT_NEAR(glm::dot(f, glm::cross(v, m)), 0.0f, 1e-3f * glm::length(f) * speed);
        float want = 0.5f * rho * cl * A * speed * speed * std::abs(c) * std::sqrt(1 - c * c);
        EXPECT_NEAR(glm::length(f), want, 1e-4f + 1e-4f * want);
        EXPECT_EQ(f, windForce(v, -m, A, rho, 0.0f, cl));
    }
    // Air moving along +x and slightly up under a horizontal plate lifts it (+z), slightly
    // down pushes it down.
    EXPECT_GT(windForce(glm::vec3(10, 0, 1), n, A, rho, 0.0f, cl).z, 0.0f);
    EXPECT_LT(windForce(glm::vec3(10, 0, -1), n, A, rho, 0.0f, cl).z, 0.0f);
    EXPECT_LT(windForce(glm::vec3(10, 0, 1), n, A, rho, 0.0f, cl).x, 0.0f);
}

// ---- PBD mode -----------------------------------------------------------------------------

TEST(Stvk, PbdBlockProjectionRemovesMostOfTheStrain) {
    auto uv = randomMaterialTriangle();
    StvkBuild b = makeStvk(uv[0], uv[1], uv[2], kViscose, 1.0f);
    auto x = placeRigidly(uv, randomRotation(), glm::vec3(0.0f));
    x[2] += glm::vec3(0.02f, 0.01f, -0.015f);
    glm::vec4 p[3] = {{x[0], 1.0f}, {x[1], 1.0f}, {x[2], 1.0f}};
    glm::vec4 lambda(0.0f);
    SolveParams s{3600.0f, MODE_PBD, 1u, 0.0f};
    glm::vec3 before = strain(x, b.item.invRest);
    projectStvk(p[0], p[1], p[2], b.item, lambda, s);
    glm::vec3 after = strain({glm::vec3(p[0]), glm::vec3(p[1]), glm::vec3(p[2])}, b.item.invRest);
    EXPECT_LT(glm::length(after), 0.05f * glm::length(before));
    // k' = 0.5 removes about half.
    b.item.pbdStiffness = 0.5f;
    glm::vec4 q[3] = {{x[0], 1.0f}, {x[1], 1.0f}, {x[2], 1.0f}};
    projectStvk(q[0], q[1], q[2], b.item, lambda, s);
    glm::vec3 half = strain({glm::vec3(q[0]), glm::vec3(q[1]), glm::vec3(q[2])}, b.item.invRest);
    EXPECT_NEAR(glm::length(half) / glm::length(before), 0.5f, 0.05f);
}

TEST(IsoBending, PbdProjectionWithUnitStiffnessFlattensInOneStep) {
    auto rest = randomFlatStencil();
    IsoBendingConstraint c = buildIso(rest, 1.0f);
    glm::vec4 p[4];
    for (int i = 0; i < 4; ++i) p[i] = glm::vec4(rest[i] + randomContinuumPoint(0.2f), 1.0f + i);
    glm::vec4 lambda(0.0f);
    SolveParams s{3600.0f, MODE_PBD, 1u, 0.0f};
    projectIsoBending(p[0], p[1], p[2], p[3], c, lambda, s);  // C is linear: exact
    glm::vec3 C =
        isoBendingEval(glm::vec3(p[0]), glm::vec3(p[1]), glm::vec3(p[2]), glm::vec3(p[3]), c.k);
    EXPECT_LT(glm::length(C), 1e-5f);
}

// XPBD with compliance: the multiplier converges to -C / alpha~ balance, i.e. repeated
// projections of a single stencil with fixed x0..x2 reach C + alpha~ lambda = 0.
TEST(IsoBending, XpbdIterationsSatisfyTheCompliantConstraint) {
    auto rest = randomFlatStencil();
    IsoBendingConstraint c = buildIso(rest, 0.01f);
    glm::vec4 p[4];
    for (int i = 0; i < 4; ++i) p[i] = glm::vec4(rest[i] + randomContinuumPoint(0.2f), 1.0f);
    glm::vec4 lambda(0.0f);
    for (int it = 0; it < 3; ++it) {
        SolveParams s{100.0f, MODE_XPBD, it == 0 ? 1u : 0u, 0.0f};
        projectIsoBending(p[0], p[1], p[2], p[3], c, lambda, s);
    }
    glm::vec3 C =
        isoBendingEval(glm::vec3(p[0]), glm::vec3(p[1]), glm::vec3(p[2]), glm::vec3(p[3]), c.k);
    glm::vec3 residual = C + c.compliance * 100.0f * glm::vec3(lambda);
    EXPECT_LT(glm::length(residual), 1e-5f * std::max(1.0f, glm::length(C)));
    EXPECT_GT(glm::length(C), 1e-4f);  // compliant: not flattened
}
