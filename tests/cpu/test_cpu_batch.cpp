// The block kernels of the CPU reference (src/cpu/batch_kernels.h) against the plain loop over
// the shared maths, bit for bit, on every instruction set this CPU has: random colours (no
// shared vertex) with ordinary, folded, degenerate, pinned and non-finite constraints, every
// range length around the block size, both solver modes, first and later iterations.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "kernels/constraints.h"
#include "core/error.h"
#include "cpu/batch_kernels.h"

using namespace cloth;

namespace {

constexpr std::uint32_t kRange = 70;  // constraints per test colour; ranges of every length fit

struct Colour {
    std::vector<glm::vec4> pos;
    std::vector<gpu::DistanceConstraint> distance;
    std::vector<gpu::BendingConstraint> bending;
    std::vector<float> lambda;  // one per constraint (the test uses one type at a time)
};

bool sameBits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// A vertex near `base`, sometimes exactly on it or on the midpoint of two others.
glm::vec4 randomVertex(std::mt19937& rng, float spread) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_real_distribution<float> w(0.5f, 4.0f);
    return {u(rng) * spread, u(rng) * spread, u(rng) * spread, w(rng)};
}

// kRange constraints of each type over shuffled, distinct vertices, with special cases mixed in.
Colour randomColour(unsigned seed) {
    std::mt19937 rng(seed);
    Colour c;
    const std::uint32_t n = kRange * 4;
    c.pos.resize(n);
    for (auto& p : c.pos) p = randomVertex(rng, 1.0f);
    std::vector<std::uint32_t> ids(n);
    for (std::uint32_t i = 0; i < n; ++i) ids[i] = i;
    std::shuffle(ids.begin(), ids.end(), rng);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::uint32_t i = 0; i < kRange; ++i) {
        const std::uint32_t* v = &ids[4 * i];
        gpu::BendingConstraint b{};
        b.v0 = v[0];
        b.v1 = v[1];
        b.v2 = v[2];
        b.v3 = v[3];
        b.restAngle = 3.0f * u(rng);
        b.param = (i % 3 == 0) ? 0.0f : 1e-3f * (u(rng) + 1.0f);
        c.bending.push_back(b);
        gpu::DistanceConstraint d{};
        d.v0 = v[0];
        d.v1 = v[1];
        d.restLength = 0.5f * (u(rng) + 1.0f);
        d.param = b.param;
        c.distance.push_back(d);
        glm::vec4* p[4] = {&c.pos[v[0]], &c.pos[v[1]], &c.pos[v[2]], &c.pos[v[3]]};
        auto copyXyz = [](glm::vec4& to, const glm::vec4& from) {
            to = glm::vec4(glm::vec3(from), to.w);
        };
        switch (i % 11) {
            case 1:
                copyXyz(*p[1], *p[0]);
                break;  // zero-length edge
            case 2:
                copyXyz(*p[2], 0.5f * (*p[0] + *p[1]));
                break;  // flat triangle A
            case 3:
                copyXyz(*p[3], *p[1]);
                break;  // degenerate triangle B
            case 4:
                for (auto* q : p) q->w = 0.0f;
                break;  // all pinned: nothing to move
            case 5:
                p[0]->w = p[1]->w = 0.0f;
                break;  // shared edge pinned
            case 6:
                copyXyz(*p[3], *p[2]);
                break;  // folded flat onto itself
            case 7:
                p[2]->z = 1e-30f;
                p[3]->z = -0.0f;
                break;  // tiny and signed-zero input
            case 8:
                for (auto* q : p) *q = glm::vec4(glm::vec3(*q) * 1e-4f, q->w);  // tiny cloth
                break;
            case 9:
                p[3]->x = std::numeric_limits<float>::infinity();
                break;
            case 10:
                p[2]->y = std::numeric_limits<float>::quiet_NaN();
                break;
            default:
                break;
        }
    }
    c.lambda.resize(kRange);
    for (auto& l : c.lambda) l = 0.1f * u(rng);
    return c;
}

// The plain loop, as the shader does it: load, project, store.
template <class C>
void referenceLoop(Colour& c, const std::vector<C>& cs, std::uint32_t b, std::uint32_t e,
                   const gpu::SolveParams& sp) {
    for (std::uint32_t i = b; i < e; ++i) {
        const C& k = cs[i];
        if constexpr (std::is_same_v<C, gpu::BendingConstraint>) {
            glm::vec4 p0 = c.pos[k.v0], p1 = c.pos[k.v1], p2 = c.pos[k.v2], p3 = c.pos[k.v3];
            gpu::projectBending(p0, p1, p2, p3, k, c.lambda[i], sp);
            c.pos[k.v0] = p0;
            c.pos[k.v1] = p1;
            c.pos[k.v2] = p2;
            c.pos[k.v3] = p3;
        } else {
            glm::vec4 p0 = c.pos[k.v0], p1 = c.pos[k.v1];
            gpu::projectDistance(p0, p1, k, c.lambda[i], sp);
            c.pos[k.v0] = p0;
            c.pos[k.v1] = p1;
        }
    }
}

// Bitwise equality; a NaN result only has to be a NaN (its payload is not specified).
void expectSame(const Colour& want, const Colour& got, const std::string& what) {
    int bad = 0;
    auto same = [](float a, float b) { return sameBits(a, b) || (std::isnan(a) && std::isnan(b)); };
    for (std::size_t v = 0; v < want.pos.size() && bad < 5; ++v)
        for (int k = 0; k < 4; ++k)
            if (!same(want.pos[v][k], got.pos[v][k]) && bad++ < 5)
                ADD_FAILURE() << what << ": vertex " << v << " component " << k << ": "
                              << want.pos[v][k] << " (plain loop) vs " << got.pos[v][k];
    for (std::size_t i = 0; i < want.lambda.size(); ++i)
        if (!same(want.lambda[i], got.lambda[i]) && bad++ < 5)
            ADD_FAILURE() << what << ": lambda " << i << ": " << want.lambda[i] << " vs "
                          << got.lambda[i];
}

std::vector<BatchIsa> availableIsas() {
    std::vector<BatchIsa> out;
    for (BatchIsa isa : kBatchIsas)
        if (batchIsaAvailable(isa)) out.push_back(isa);
    return out;
}

template <class C>
void checkAllRanges(const std::vector<C> Colour::*member, const char* type) {
    int moved = 0;
    for (BatchIsa isa : availableIsas()) {
        for (unsigned seed = 0; seed < 3; ++seed) {
            const Colour start = randomColour(seed);
            for (std::uint32_t mode : {gpu::MODE_XPBD, gpu::MODE_PBD}) {
                for (std::uint32_t first : {0u, 1u}) {
                    gpu::SolveParams sp{};
                    sp.invDt2 = 3600.0f * 100.0f;
                    sp.mode = mode;
                    sp.firstIteration = first;
                    if (mode == gpu::MODE_PBD) sp.invDt2 = 0.0f;
                    // Every length 0..kRange from a few starts (block-aligned and not).
                    for (std::uint32_t b : {0u, 1u, 5u}) {
                        for (std::uint32_t e = b; e <= kRange; ++e) {
                            Colour want = start, got = start;
                            const auto& cs = start.*member;
                            referenceLoop(want, cs, b, e, sp);
                            if constexpr (std::is_same_v<C, gpu::BendingConstraint>)
                                solveBatch(isa, got.pos.data(), cs.data(), got.lambda.data(),
                                                  b, e, sp);
                            else
                                solveBatch(isa, got.pos.data(), cs.data(),
                                                   got.lambda.data(), b, e, sp);
                            expectSame(want, got,
                                       std::string(type) + " " + batchIsaName(isa) + " seed " +
                                           std::to_string(seed) + " mode " + std::to_string(mode) +
                                           " first " + std::to_string(first) + " range [" +
                                           std::to_string(b) + ", " + std::to_string(e) + ")");
                            if (::testing::Test::HasFailure()) return;
                            moved += std::memcmp(want.pos.data(), start.pos.data(),
                                                 start.pos.size() * sizeof(glm::vec4)) != 0;
                        }
                    }
                }
            }
        }
    }
    EXPECT_GT(moved, 0) << "no range moved a vertex: the comparison would prove nothing";
}

}  // namespace

TEST(CpuBatch, PortableAndSse2AreAvailable) {
    EXPECT_TRUE(batchIsaAvailable(BatchIsa::Portable));
#if defined(__x86_64__)
    EXPECT_TRUE(batchIsaAvailable(BatchIsa::Sse2));
#endif
    EXPECT_TRUE(batchIsaAvailable(bestBatchIsa()));
    std::printf("instruction sets: best %s, tested", batchIsaName(bestBatchIsa()));
    for (BatchIsa isa : availableIsas()) std::printf(" %s", batchIsaName(isa));
    std::printf("\n");
}

// The test colours hold what they claim: skipped (degenerate or pinned) and solved constraints.
TEST(CpuBatch, TestColoursMixSkippedAndSolvedBending) {
    const Colour c = randomColour(0);
    int degenerate = 0, solved = 0;
    for (const auto& b : c.bending) {
        float angle;
        glm::vec3 g[4];
        const bool ok =
            gpu::bendingEval(glm::vec3(c.pos[b.v0]), glm::vec3(c.pos[b.v1]), glm::vec3(c.pos[b.v2]),
                             glm::vec3(c.pos[b.v3]), angle, g[0], g[1], g[2], g[3]);
        (ok ? solved : degenerate)++;
    }
    EXPECT_GE(degenerate, 10);
    EXPECT_GE(solved, 30);
}

TEST(CpuBatch, BendingBitIdenticalToPlainLoop) {
    checkAllRanges<gpu::BendingConstraint>(&Colour::bending, "bending");
}

TEST(CpuBatch, DistanceBitIdenticalToPlainLoop) {
    checkAllRanges<gpu::DistanceConstraint>(&Colour::distance, "distance");
}

TEST(CpuBatch, NamesRoundTripAndUnknownNamesAreRefused) {
    for (BatchIsa isa : kBatchIsas)
        EXPECT_EQ(batchIsaFromName(batchIsaName(isa)), isa);
    EXPECT_TRUE(batchIsaAvailable(BatchIsa::Scalar));
    try {
        batchIsaFromName("neon");
        ADD_FAILURE() << "an unknown name was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("neon"), std::string::npos) << e.what();
    }
}

// clothbench --kernel-parts' parts (BatchPart): All solves the whole blocks of a range as the
// plain loop does, bit for bit; Move gathers and scatters without changing a bit
// or a multiplier; Maths changes multipliers only, never a position; sse2 is refused by name.
template <class C>
void checkParts(const std::vector<C> Colour::*member, const char* type) {
    int tested = 0;
    for (BatchIsa isa : {BatchIsa::Avx2, BatchIsa::Avx512}) {
        if (!batchIsaAvailable(isa)) continue;
        const std::uint32_t lanes = isa == BatchIsa::Avx512 ? 32 : 16;
        const Colour start = randomColour(7);
        const auto& cs = start.*member;
        gpu::SolveParams sp{};
        sp.invDt2 = 3600.0f * 100.0f;
        sp.mode = gpu::MODE_XPBD;
        sp.firstIteration = 1u;
        for (std::uint32_t b : {0u, 3u}) {
            const std::uint32_t e = kRange, whole = b + (e - b) / lanes * lanes;
            ASSERT_GE(whole - b, 2 * lanes) << "the range must hold two whole blocks";
            const std::string what = std::string(type) + " " + batchIsaName(isa) + " from " +
                                     std::to_string(b);
            Colour want = start;
            referenceLoop(want, cs, b, whole, sp);  // whole blocks only: the tail is not solved
            ASSERT_NE(std::memcmp(want.pos.data(), start.pos.data(),
                                  start.pos.size() * sizeof(glm::vec4)),
                      0) << what << ": the plain loop moved nothing";
            Colour got = start;
            solveBatchPart(BatchPart::All, isa, got.pos.data(), cs.data(), got.lambda.data(), b, e,
                           sp);
            expectSame(want, got, what + " all");
            Colour moved = start;
            solveBatchPart(BatchPart::Move, isa, moved.pos.data(), cs.data(),
                           moved.lambda.data(), b, e, sp);
            expectSame(start, moved, what + " move");
            Colour maths = start;
            solveBatchPart(BatchPart::Maths, isa, maths.pos.data(), cs.data(),
                           maths.lambda.data(), b, e, sp);
            EXPECT_EQ(std::memcmp(maths.pos.data(), start.pos.data(),
                                  start.pos.size() * sizeof(glm::vec4)),
                      0) << what << ": the maths alone stored positions";
            int changed = 0;
            for (std::uint32_t i = b; i < whole; ++i)
                changed += !sameBits(maths.lambda[i], start.lambda[i]);
            EXPECT_GT(changed, 0) << what << ": the maths alone solved nothing";
            ++tested;
        }
    }
    if (tested == 0) GTEST_SKIP() << "this CPU has neither avx2 nor avx512";
    try {
        Colour c = randomColour(0);
        solveBatchPart(BatchPart::Move, BatchIsa::Sse2, c.pos.data(), (c.*member).data(),
                       c.lambda.data(), 0, kRange, gpu::SolveParams{});
        ADD_FAILURE() << "the parts ran on sse2";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("sse2"), std::string::npos) << e.what();
    }
}

TEST(CpuBatch, KernelPartsSolveMoveOrComputeAsTheyClaim) {
    checkParts<gpu::BendingConstraint>(&Colour::bending, "bending");
    checkParts<gpu::DistanceConstraint>(&Colour::distance, "distance");
}
