#include "render/image_file.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include <stb_image.h>
#include <stb_image_write.h>

#include "core/error.h"
#include "core/output_file.h"

namespace cloth::render {

void writePng(const std::string& path, const ImageRgba8& image) {
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
    std::string png;
    const auto append = [](void* out, void* data, int size) {
        static_cast<std::string*>(out)->append(static_cast<const char*>(data), std::size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, image.width, image.height, 4, image.pixels.data(),
                                image.width * 4))
        throw Error("cannot encode the PNG file '" + path + "'");
    writeOutputFile(path, png);
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

std::string framePath(const std::string& dir, int frame) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", frame);
    return (std::filesystem::path(dir) / name).string();
}

}  // namespace cloth::render
