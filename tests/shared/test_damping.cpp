// Mueller's damping (PBD 2006, 3.5) with k = 1 keeps exactly the rigid part of the motion:
// rigid motion passes unchanged, and linear and angular momentum are conserved.
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/constraints.h"

using namespace cloth::gpu;

namespace {

struct DampedBody {
    std::vector<glm::vec3> x, v;
    std::vector<float> m;
};

DampedBody randomBody(std::mt19937& rng, glm::vec3 offset) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f), md(0.5f, 2.0f);
    DampedBody b;
    for (int i = 0; i < 64; ++i) {
        b.x.push_back(offset + glm::vec3(d(rng), d(rng), 0.3f * d(rng)));
        b.v.push_back({d(rng), d(rng), d(rng)});
        b.m.push_back(md(rng));
    }
    return b;
}

RigidMotion motionOf(const DampedBody& b, float k) {
    glm::vec3 ref = b.x[0];
    RigidSums s = rigidSumsZero();
    for (size_t i = 0; i < b.x.size(); ++i) s = rigidSumsAdd(s, b.x[i] - ref, b.v[i], b.m[i]);
    return rigidMotionFromSums(s, ref, k);
}

glm::dvec3 momentum(const DampedBody& b) {
    glm::dvec3 p(0.0);
    for (size_t i = 0; i < b.x.size(); ++i) p += glm::dvec3(b.v[i]) * double(b.m[i]);
    return p;
}

glm::dvec3 angularMomentum(const DampedBody& b) {
    glm::dvec3 L(0.0);
    for (size_t i = 0; i < b.x.size(); ++i)
        L += glm::cross(glm::dvec3(b.x[i]), glm::dvec3(b.v[i]) * double(b.m[i]));
    return L;
}

}  // namespace

TEST(RigidDamping, RigidMotionIsUnchanged) {
    std::mt19937 rng(7);
    DampedBody b = randomBody(rng, glm::vec3(3.0f, 1.0f, -2.0f));
    glm::vec3 vlin(0.3f, -1.0f, 0.5f), omega(0.7f, -0.2f, 1.1f), c(3.0f, 1.0f, -2.0f);
    for (size_t i = 0; i < b.x.size(); ++i) b.v[i] = vlin + glm::cross(omega, b.x[i] - c);
    RigidMotion rm = motionOf(b, 1.0f);
    for (size_t i = 0; i < b.x.size(); ++i) {
        glm::vec3 out = rigidDampedVelocity(b.x[i], b.v[i], rm);
        EXPECT_NEAR(glm::length(out - b.v[i]), 0.0f, 1e-4f);
    }
}

TEST(RigidDamping, FullDampingConservesMomentaAndLeavesRigidMotion) {
    std::mt19937 rng(11);
    DampedBody b = randomBody(rng, glm::vec3(-1.0f, 2.0f, 0.5f));
    glm::dvec3 p0 = momentum(b), L0 = angularMomentum(b);
    RigidMotion rm = motionOf(b, 1.0f);
    DampedBody out = b;
    for (size_t i = 0; i < b.x.size(); ++i) out.v[i] = rigidDampedVelocity(b.x[i], b.v[i], rm);
    EXPECT_NEAR(glm::length(momentum(out) - p0), 0.0, 1e-3 * glm::length(p0) + 1e-4);
    EXPECT_NEAR(glm::length(angularMomentum(out) - L0), 0.0, 1e-3 * glm::length(L0) + 1e-3);
    // What is left is rigid: damping it again changes nothing.
    RigidMotion rm2 = motionOf(out, 1.0f);
    for (size_t i = 0; i < b.x.size(); ++i)
        EXPECT_NEAR(glm::length(rigidDampedVelocity(out.x[i], out.v[i], rm2) - out.v[i]), 0.0f, 1e-4f);
}

TEST(RigidDamping, PartialDampingInterpolates) {
    std::mt19937 rng(3);
    DampedBody b = randomBody(rng, glm::vec3(0.0f));
    RigidMotion full = motionOf(b, 1.0f), half = motionOf(b, 0.25f);
    for (size_t i = 0; i < b.x.size(); ++i) {
        glm::vec3 r = rigidDampedVelocity(b.x[i], b.v[i], full);
        glm::vec3 q = rigidDampedVelocity(b.x[i], b.v[i], half);
        EXPECT_NEAR(glm::length(q - (b.v[i] + 0.25f * (r - b.v[i]))), 0.0f, 1e-5f);
    }
}
