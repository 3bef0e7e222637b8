// Colour classification for rendered images: which pixels show the first cloth's front (red) or
// back (teal), any palette-coloured cloth, or a collider (pale wood), judged by hue and
// saturation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "render/cloth_look.h"
#include "render/image_file.h"

namespace cloth::test {

struct Hsv {
    float h, s, v;  // h in degrees [0, 360)
};

inline Hsv toHsv(const std::uint8_t* p) {
    const float r = p[0] / 255.0f, g = p[1] / 255.0f, b = p[2] / 255.0f;
    const float mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
    float h = 0.0f;
    if (d > 0.0f) {
        if (mx == r)
            h = 60.0f * std::fmod((g - b) / d + 6.0f, 6.0f);
        else if (mx == g)
            h = 60.0f * ((b - r) / d + 2.0f);
        else
            h = 60.0f * ((r - g) / d + 4.0f);
    }
    return {h, mx > 0.0f ? d / mx : 0.0f, mx};
}

inline bool isClothFront(const std::uint8_t* p) {
    const Hsv c = toHsv(p);
    return c.s > 0.5f && c.v > 0.08f && (c.h < 25.0f || c.h > 340.0f);
}

inline bool isClothBack(const std::uint8_t* p) {
    const Hsv c = toHsv(p);
    return c.s > 0.5f && c.v > 0.08f && c.h > 135.0f && c.h < 185.0f;
}

inline float srgbOf(float linear) {
    return linear <= 0.0031308f ? 12.92f * linear
                                : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

// The hue, in degrees, of a linear colour once encoded as sRGB.
inline float hueOf(glm::vec3 linear) {
    const std::uint8_t p[3] = {std::uint8_t(255 * srgbOf(linear.r)),
                               std::uint8_t(255 * srgbOf(linear.g)),
                               std::uint8_t(255 * srgbOf(linear.b))};
    return toHsv(p).h;
}

inline float hueDistance(float a, float b) {
    const float d = std::abs(a - b);
    return std::min(d, 360.0f - d);
}

// A pixel of any of a scene's `cloths` cloths coloured by the palette (render/cloth_look.h):
// the first's red or teal as above, the others' front or back hue within 20 degrees and more
// saturated than the colliders' wood can be (yellow and amber share its hues).
inline bool isPaletteCloth(const std::uint8_t* p, std::size_t cloths) {
    if (isClothFront(p) || isClothBack(p)) return true;
    const Hsv c = toHsv(p);
    if (c.s <= 0.65f || c.v <= 0.08f) return false;
    for (std::size_t i = 1; i < std::min(cloths, render::kPaletteSize); ++i) {
        const gpu::ClothLook look = render::paletteLook(i);
        if (hueDistance(c.h, hueOf(glm::vec3(look.front))) < 20.0f ||
            hueDistance(c.h, hueOf(glm::vec3(look.back))) < 20.0f)
            return true;
    }
    return false;
}

// The rigid colliders' pale wood (render/stage.cpp kCollider), lit or in shade.
inline bool isCollider(const std::uint8_t* p) {
    const Hsv c = toHsv(p);
    return c.s > 0.12f && c.s < 0.6f && c.v > 0.08f && c.h > 18.0f && c.h < 55.0f;
}

struct Coverage {
    double front = 0.0;  // share of pixels
    double back = 0.0;
    int distinctColours = 0;  // capped at 1000
    double lumaStdDev = 0.0;  // of the luminance in [0, 1]
};

inline Coverage coverage(const render::ImageRgba8& img) {
    Coverage c;
    std::size_t front = 0, back = 0;
    std::vector<std::uint32_t> seen;
    const std::size_t n = std::size_t(img.width) * img.height;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = &img.pixels[4 * i];
        front += isClothFront(p);
        back += isClothBack(p);
        const std::uint32_t rgb = p[0] | (p[1] << 8) | (p[2] << 16);
        if (seen.size() < 1000 && std::find(seen.begin(), seen.end(), rgb) == seen.end())
            seen.push_back(rgb);
    }
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = &img.pixels[4 * i];
        const double y = (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
        sum += y;
        sum2 += y * y;
    }
    c.lumaStdDev = std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
    c.front = double(front) / n;
    c.back = double(back) / n;
    c.distinctColours = int(seen.size());
    return c;
}

}  // namespace cloth::test
