// The contacts' colouring (cpu/contact_colors.h) on contact lists built to need what real
// scenes rarely do: overflow colours, and more rounds than the colouring allows.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/contact_colors.h"

namespace cloth {
namespace {

gpu::SelfContact contactOn(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    gpu::SelfContact k{};
    k.vertices = glm::uvec4(a, b, c, d);
    return k;
}

// n contacts sharing vertex 0 (a fan), the others their own.
std::vector<gpu::SelfContact> fan(std::uint32_t n) {
    std::vector<gpu::SelfContact> out;
    for (std::uint32_t k = 0; k < n; ++k) out.push_back(contactOn(0, 1 + 3 * k, 2 + 3 * k, 3 + 3 * k));
    return out;
}

// Contacts sharing no vertex: one colour, one round.
TEST(ContactColors, ContactsSharingNoVertexTakeOneColourInOneRound) {
    std::vector<gpu::SelfContact> c;
    for (std::uint32_t k = 0; k < 50; ++k) c.push_back(contactOn(4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3));
    ContactColoring out;
    colorContacts(c, 200, out);
    EXPECT_EQ(out.rounds, 1u);
    EXPECT_FALSE(out.failed);
    for (std::uint32_t color : out.colorOf) EXPECT_EQ(color, 0u);
    EXPECT_EQ(out.offsets[1], 50u);
}

// A fan of 200 contacts: every two are neighbours, so in decreasing priority the q-th takes
// colour q while one of the SELF_COLORS is free, then SELF_COLORS + q (its round: a chain of q
// before it); 200 rounds; every contact its own colour.
TEST(ContactColors, ContactsPastTheColoursTakeTheirRoundsOverflowColour) {
    const std::vector<gpu::SelfContact> c = fan(200);
    ContactColoring out;
    colorContacts(c, 601, out);
    std::vector<std::uint32_t> byPriority(c.size());
    for (std::uint32_t i = 0; i < c.size(); ++i) byPriority[i] = i;
    std::sort(byPriority.begin(), byPriority.end(), [](std::uint32_t a, std::uint32_t b) {
        return gpu::selfColorPriority(a) > gpu::selfColorPriority(b);
    });
    for (std::uint32_t q = 0; q < c.size(); ++q)
        EXPECT_EQ(out.colorOf[byPriority[q]], q < gpu::SELF_COLORS ? q : gpu::SELF_COLORS + q)
            << "the " << q << "-th by priority";
    EXPECT_EQ(out.rounds, 200u);
    EXPECT_FALSE(out.failed);
    for (std::uint32_t k = 0; k < gpu::SELF_COLOR_SLOTS; ++k) EXPECT_LE(out.offsets[k + 1] - out.offsets[k], 1u);
}

// A chain longer than SELF_COLOR_ROUNDS fails (the solvers then throw), one as long does not.
TEST(ContactColors, AChainLongerThanTheRoundsFails) {
    ContactColoring out;
    colorContacts(fan(gpu::SELF_COLOR_ROUNDS), 3 * gpu::SELF_COLOR_ROUNDS + 1, out);
    EXPECT_FALSE(out.failed);
    EXPECT_EQ(out.rounds, gpu::SELF_COLOR_ROUNDS);
    colorContacts(fan(gpu::SELF_COLOR_ROUNDS + 1), 3 * gpu::SELF_COLOR_ROUNDS + 4, out);
    EXPECT_TRUE(out.failed);
    // An empty list and a single contact.
    colorContacts({}, 4, out);
    EXPECT_EQ(out.rounds, 0u);
    EXPECT_EQ(out.offsets.back(), 0u);
    colorContacts(fan(1), 4, out);
    EXPECT_EQ(out.colorOf, std::vector<std::uint32_t>{0u});
}

}  // namespace
}  // namespace cloth
