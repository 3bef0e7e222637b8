// A run that diverges stops with a message naming the vertex, what it became, the frame and the
// cause left once the load checks have passed (issue 15: divergence messages named no cause).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "app/simulation.h"
#include "core/error.h"

using namespace cloth;

namespace {

std::string messageOf(const std::vector<glm::vec4>& x, std::uint32_t count, int frame) {
    try {
        checkFinite(x, count, frame);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(Divergence, MessageNamesVertexValueFrameAndCause) {
    std::vector<glm::vec4> x(4, glm::vec4(0.0f, 1.0f, 0.0f, 1.0f));
    EXPECT_EQ(messageOf(x, 4, 3), "");  // finite: no error

    x[2].y = std::numeric_limits<float>::quiet_NaN();
    const std::string nan = messageOf(x, 4, 17);
    EXPECT_NE(nan.find("vertex 2 became NaN at frame 17"), std::string::npos) << nan;
    EXPECT_NE(nan.find("within their sane ranges"), std::string::npos) << nan;
    EXPECT_NE(nan.find("more substeps"), std::string::npos) << nan;

    x[2].y = 1.0f;
    x[3].z = -std::numeric_limits<float>::infinity();
    const std::string inf = messageOf(x, 4, 5);
    EXPECT_NE(inf.find("vertex 3 became infinite at frame 5"), std::string::npos) << inf;
    // Vertices past `count` (phantom copies) are not the user's: not checked.
    EXPECT_EQ(messageOf(x, 3, 5), "");
}
