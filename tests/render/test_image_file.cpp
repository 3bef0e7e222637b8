#include <array>
#include <filesystem>
#include <fstream>

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

// --screenshot's formats by extension, any case; other extensions are refused.
TEST(ImageFile, FormatByExtension) {
    EXPECT_EQ(imageFormatOf("a/shot.png"), ImageFormat::Png);
    EXPECT_EQ(imageFormatOf("shot.PNG"), ImageFormat::Png);
    EXPECT_EQ(imageFormatOf("shot.jpg"), ImageFormat::Jpeg);
    EXPECT_EQ(imageFormatOf("shot.JPeG"), ImageFormat::Jpeg);
    for (const char* bad : {"shot.bmp", "shot", "png", "shot.png.txt", "dir.jpg/shot"})
        EXPECT_FALSE(imageFormatOf(bad).has_value()) << bad;
}

// A .jpg holds JPEG bytes (SOI marker FF D8 FF) that decode to the image within JPEG's loss; a
// .png beside it holds the PNG signature.
TEST(ImageFile, WritesJpegOrPngByExtension) {
    ImageRgba8 img;
    img.width = 16;
    img.height = 8;
    for (int i = 0; i < 16 * 8; ++i)  // two flat halves: red on the left, blue on the right
        for (std::uint8_t c : (i % 16 < 8 ? std::array<std::uint8_t, 4>{200, 30, 30, 255}
                                          : std::array<std::uint8_t, 4>{20, 40, 220, 255}))
            img.pixels.push_back(c);
    const auto dir = std::filesystem::temp_directory_path() / "clothsim_test_jpeg";
    std::filesystem::remove_all(dir);
    const std::string jpg = (dir / "shot.JPG").string(), png = (dir / "shot.png").string();
    writeImage(jpg, img);
    writeImage(png, img);
    const auto head = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::string bytes(4, '\0');
        in.read(bytes.data(), 4);
        return bytes;
    };
    EXPECT_EQ(head(jpg).substr(0, 3), "\xFF\xD8\xFF");
    EXPECT_EQ(head(png), "\x89PNG");
    const ImageRgba8 back = readPng(jpg);
    ASSERT_EQ(back.width, 16);
    ASSERT_EQ(back.height, 8);
    for (int y = 0; y < 8; ++y)
        for (int x : {2, 13})  // away from the edge between the halves
            for (int c = 0; c < 3; ++c) {
                const std::size_t k = std::size_t(y * 16 + x) * 4 + c;
                EXPECT_NEAR(back.pixels[k], img.pixels[k], 12) << x << "," << y << " channel " << c;
            }
    EXPECT_EQ(readPng(png).pixels, img.pixels);
    try {
        writeImage((dir / "shot.bmp").string(), img);
        FAIL() << "a .bmp was written";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("shot.bmp': an image file must end in .png, .jpg or "
                                             ".jpeg"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "shot.bmp"));
    std::filesystem::remove_all(dir);
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
