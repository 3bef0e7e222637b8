#include "render/image_file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>

#include <stb_image.h>
#include <stb_image_write.h>

#include "core/error.h"
#include "core/output_file.h"

namespace cloth::render {

namespace {

constexpr int kJpegQuality = 90;

void write(const std::string& path, const ImageRgba8& image, ImageFormat format) {
    CLOTH_ASSERT(image.pixels.size() == std::size_t(image.width) * image.height * 4);
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    if (ec)
        throw Error("cannot create the directory '" + parent.string() + "' for '" + path +
                    "': " + ec.message());
    // Encoded in memory, then written by writeOutputFile, which reports every write error
    // (stbi_write_png said nothing of a full disk: /dev/full was "written").
    std::string bytes;
    const auto append = [](void* out, void* data, int size) {
        static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size));
    };
    const bool png = format == ImageFormat::Png;
    const int ok = png ? stbi_write_png_to_func(append, &bytes, image.width, image.height, 4,
                                                image.pixels.data(), image.width * 4)
                       : stbi_write_jpg_to_func(append, &bytes, image.width, image.height, 4,
                                                image.pixels.data(), kJpegQuality);
    if (!ok)
        throw Error(std::string("cannot encode the ") + (png ? "PNG" : "JPEG") + " file '" + path +
                    "'");
    writeOutputFile(path, bytes);
}

}  // namespace

std::optional<ImageFormat> imageFormatOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".png") return ImageFormat::Png;
    if (ext == ".jpg" || ext == ".jpeg") return ImageFormat::Jpeg;
    return std::nullopt;
}

void writePng(const std::string& path, const ImageRgba8& image) {
    write(path, image, ImageFormat::Png);
}

void writeImage(const std::string& path, const ImageRgba8& image) {
    const std::optional<ImageFormat> format = imageFormatOf(path);
    if (!format) throw Error("'" + path + "': an image file must end in " + kImageExtensions);
    write(path, image, *format);
}

ImageRgba8 readPng(const std::string& path) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
    if (!data)
        throw Error("cannot read the image '" + path +
                    "': " + (stbi_failure_reason() ? stbi_failure_reason() : "unknown error"));
    ImageRgba8 image;
    image.width = w;
    image.height = h;
    image.pixels.assign(data, data + std::size_t(w) * h * 4);
    stbi_image_free(data);
    return image;
}

std::string framePath(const std::string& dir, std::int64_t frame) {
    char name[40];
    std::snprintf(name, sizeof name, "frame_%04lld.png", static_cast<long long>(frame));
    return (std::filesystem::path(dir) / name).string();
}

}  // namespace cloth::render
