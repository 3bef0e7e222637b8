// A material's key "color": read, written and read back equal; absent in files that do not give
// it; each bad value refused with one message naming the key.
#include <gtest/gtest.h>

#include "core/scene.h"
#include "test_util.h"

using namespace cloth;
using cloth::test::throwsError;

namespace {

using test::parse;

std::string withColor(const std::string& color) {
    return R"({"cloths": [{"grid": {}, "material": {"color": )" + color + "}}]}";
}

}  // namespace

TEST(SceneFiles, MaterialColorReadAndRoundTrip) {
    const Scene none = parse(R"({"cloths": [{"grid": {}}, {"grid": {}}]})");
    EXPECT_FALSE(none.cloths[0].material.color.has_value());
    EXPECT_EQ(sceneToJson(none, "").find("color"), std::string::npos);  // older files unchanged
    const Scene s = parse(withColor("[0.1, 0.5, 1]"));
    ASSERT_TRUE(s.cloths[0].material.color.has_value());
    EXPECT_EQ(*s.cloths[0].material.color, glm::vec3(0.1f, 0.5f, 1.0f));
    const Scene back = parse(sceneToJson(s, ""));
    EXPECT_EQ(back, s);
    ASSERT_TRUE(back.cloths[0].material.color.has_value());
    EXPECT_EQ(*back.cloths[0].material.color, glm::vec3(0.1f, 0.5f, 1.0f));
    // The limits themselves, and a colour beside a preset.
    EXPECT_NO_THROW(parse(withColor("[0, 0, 0]")));
    EXPECT_NO_THROW(parse(withColor("[1, 1, 1]")));
    const Scene wool =
        parse(R"({"cloths": [{"grid": {}, "material": {"preset": "wool", "color": [1, 0, 0]}}]})");
    EXPECT_EQ(parse(sceneToJson(wool, "")), wool);
}

TEST(SceneFiles, MaterialColorRefusesBadValues) {
    const std::string message =
        "inline.json: cloths[0].material.color: must be [r, g, b]: three numbers from 0 to 1 "
        "(linear RGB); ";
    struct Case {
        const char* color;
        const char* got;
    } cases[] = {
        {"[0.5, 0.5]", "got something else"},
        {"[0.5, 0.5, 0.5, 1]", "got something else"},
        {R"("red")", "got something else"},
        {"0.5", "got something else"},
        {R"([0.5, "0.5", 0.5])", "item 1 is not a number"},
        {"[0.5, 0.5, null]", "item 2 is not a number"},
        {"[1.5, 0, 0]", "item 0 is 1.5"},
        {"[0, -0.1, 0]", "item 1 is -0.1"},
        {"[0, 0, 1e39]", "item 2 is 1e+39"},  // JSON itself refuses an overflow (1e999)
        {"[0, 0, 255]", "item 2 is 255"},
    };
    for (const Case& c : cases)
        EXPECT_TRUE(throwsError([&] { parse(withColor(c.color)); }, {message + c.got})) << c.color;
}
