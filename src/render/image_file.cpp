#include "render/image_file.h"

#include <cstdio>
#include <filesystem>

#include <stb_image.h>
#include <stb_image_write.h>

#include "core/error.h"

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
    if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(),
                        image.width * 4))
        throw Error("cannot write the PNG file '" + path + "'");
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
