// Image files for screenshots (PNG or JPEG) and recordings (PNG), with stb_image_write and
// stb_image from Debian's libstb.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cloth::render {

struct ImageRgba8 {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4 bytes, rows top to bottom
};

// Writes an 8-bit RGBA PNG; creates the parent directory when missing. Throws cloth::Error naming
// the file when it cannot be written.
void writePng(const std::string& path, const ImageRgba8& image);

enum class ImageFormat { Png, Jpeg };

// The format a file name asks for by its extension: .png, or .jpg or .jpeg (any case); none for
// anything else.
std::optional<ImageFormat> imageFormatOf(const std::string& path);
// The accepted extensions, for messages.
inline constexpr const char* kImageExtensions = ".png, .jpg or .jpeg";

// Writes `image` as PNG or JPEG (quality 90; alpha dropped) by the file's extension; creates the
// parent directory when missing. Throws cloth::Error naming the file for another extension or
// when it cannot be written.
void writeImage(const std::string& path, const ImageRgba8& image);

// Reads a PNG or JPEG (any channel count) as RGBA; throws cloth::Error naming the file on failure.
ImageRgba8 readPng(const std::string& path);

// "DIR/frame_0042.png" (at least four digits)
std::string framePath(const std::string& dir, std::int64_t frame);

}  // namespace cloth::render
