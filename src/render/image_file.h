// PNG files for screenshots and recordings (stb_image_write / stb_image from Debian's libstb).
#pragma once

#include <cstdint>
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

// Reads a PNG (any channel count) as RGBA; throws cloth::Error naming the file on failure.
ImageRgba8 readPng(const std::string& path);

// "DIR/frame_0042.png"
std::string framePath(const std::string& dir, int frame);

}  // namespace cloth::render
