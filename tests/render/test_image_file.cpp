#include <filesystem>

#include <gtest/gtest.h>

#include "core/error.h"
#include "render/image_file.h"

namespace cloth::render {
namespace {

TEST(ImageFile, PngRoundTrip) {
    ImageRgba8 img;
    img.width = 5;
    img.height = 3;
    for (int i = 0; i < 15; ++i)
        for (int c = 0; c < 4; ++c) img.pixels.push_back(std::uint8_t(i * 16 + c * 3));
    const auto dir = std::filesystem::temp_directory_path() / "clothsim_test_png" / "sub";
    std::filesystem::remove_all(dir.parent_path());
    const std::string path = framePath(dir.string(), 7);
    EXPECT_EQ(std::filesystem::path(path).filename(), "frame_0007.png");
    writePng(path, img);  // creates the missing directories
    const ImageRgba8 back = readPng(path);
    EXPECT_EQ(back.width, 5);
    EXPECT_EQ(back.height, 3);
    EXPECT_EQ(back.pixels, img.pixels);
    std::filesystem::remove_all(dir.parent_path());
}

TEST(ImageFile, ErrorsNameTheFile) {
    try {
        readPng("/nonexistent/nothing.png");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/nothing.png"), std::string::npos);
    }
    ImageRgba8 img{1, 1, {0, 0, 0, 255}};
    EXPECT_THROW(writePng("/proc/clothsim/x.png", img), Error);
}

}  // namespace
}  // namespace cloth::render
