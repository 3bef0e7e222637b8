// Helpers for the mesh-collider tests: random closed meshes, and references that share no code
// with src/kernels/mesh_distance.h (a double-precision point-triangle distance by projection
// and segments, and the generalized winding number for inside/outside).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <glm/glm.hpp>

#include "core/mesh.h"

namespace cloth::test {

// Flips every triangle if the mesh encloses a negative volume (generators below are consistent
// but not sure of their winding), so the result is outward.
inline void makeOutward(Mesh& m) {
    double volume = 0.0;
    for (const glm::uvec3& t : m.triangles) {
        glm::dvec3 a(m.positions[t.x]), b(m.positions[t.y]), c(m.positions[t.z]);
        volume += glm::dot(a, glm::cross(b, c));
    }
    if (volume < 0.0)
        for (glm::uvec3& t : m.triangles) std::swap(t.y, t.z);
}

// A random rotation, per-axis scale in [0.4, 1.5] (before the rotation) and shift: keeps a closed
// mesh closed, embedded and outward (positive determinant).
inline void randomAffine(Mesh& m, std::mt19937& rng) {
    std::uniform_real_distribution<float> s(0.4f, 1.5f), u(-1.0f, 1.0f);
    glm::vec3 scale(s(rng), s(rng), s(rng)), shift(u(rng), u(rng), u(rng));
    glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.01f));
    float angle = 3.0f * u(rng);
    glm::vec3 x(std::cos(angle), std::sin(angle), 0.0f);
    for (glm::vec3& p : m.positions) {
        glm::vec3 q = p * scale;
        // Rodrigues: q cos + (axis x q) sin + axis (axis . q)(1 - cos)
        q = q * x.x + glm::cross(axis, q) * x.y + axis * (glm::dot(axis, q) * (1.0f - x.x));
        p = q + shift;
    }
}

// A smooth random function on the unit sphere: a few low-frequency plane waves, |f| <= 1.
struct Waves {
    std::vector<glm::vec4> waves;  // xyz frequency, w phase
    Waves(std::mt19937& rng, int count, float maxFrequency) {
        std::uniform_real_distribution<float> f(-maxFrequency, maxFrequency), ph(0.0f, 6.28f);
        for (int i = 0; i < count; ++i) waves.push_back({f(rng), f(rng), f(rng), ph(rng)});
    }
    float operator()(glm::vec3 d) const {
        float s = 0.0f;
        for (const glm::vec4& w : waves) s += std::sin(glm::dot(glm::vec3(w), d) + w.w);
        return s / float(waves.size());
    }
};

// A UV sphere (poles and `rings - 1` rings of `segments` vertices) with each vertex at radius
// radius(direction) > 0: star-shaped, so closed and embedded.
template <class Radius>
Mesh starShaped(int rings, int segments, Radius radius) {
    Mesh m;
    auto add = [&](glm::vec3 d) {
        m.positions.push_back(d * radius(d));
        return static_cast<std::uint32_t>(m.positions.size() - 1);
    };
    const float pi = 3.14159265f;
    std::uint32_t top = add({0.0f, 1.0f, 0.0f});
    for (int i = 1; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
            float th = pi * float(i) / float(rings), ph = 2.0f * pi * float(j) / float(segments);
            add({std::sin(th) * std::cos(ph), std::cos(th), std::sin(th) * std::sin(ph)});
        }
    std::uint32_t bottom = add({0.0f, -1.0f, 0.0f});
    auto ring = [&](int i, int j) { return 1u + std::uint32_t((i - 1) * segments + j % segments); };
    for (int j = 0; j < segments; ++j) {
        m.triangles.push_back({top, ring(1, j + 1), ring(1, j)});
        m.triangles.push_back({bottom, ring(rings - 1, j), ring(rings - 1, j + 1)});
        for (int i = 1; i + 1 < rings; ++i) {
            m.triangles.push_back({ring(i, j), ring(i, j + 1), ring(i + 1, j + 1)});
            m.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i + 1, j)});
        }
    }
    makeOutward(m);
    return m;
}

// A smooth blob: radius 1 + amplitude * waves(direction) (amplitude < 1), then a random affine.
inline Mesh perturbedSphere(std::uint32_t seed, int rings, int segments, float amplitude) {
    std::mt19937 rng(seed);
    Waves waves(rng, 4, 5.0f);
    Mesh m = starShaped(rings, segments, [&](glm::vec3 d) { return 1.0f + amplitude * waves(d); });
    randomAffine(m, rng);
    return m;
}

// A coarse star with each vertex at a random radius in [0.3, 1.6]: sharp convex and concave
// edges and corners (spikes and pits), where a face normal alone gets the sign wrong.
inline Mesh spikySphere(std::uint32_t seed, int rings, int segments) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> r(0.3f, 1.6f);
    Mesh m = starShaped(rings, segments, [&](glm::vec3) { return r(rng); });
    randomAffine(m, rng);
    return m;
}

// A random tetrahedron (random sharp dihedral angles), volume not too small.
inline Mesh randomTetrahedron(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Mesh m;
    do {
        m.positions.clear();
        for (int i = 0; i < 4; ++i) m.positions.push_back({u(rng), u(rng), u(rng)});
    } while (std::abs(glm::dot(m.positions[1] - m.positions[0],
                               glm::cross(m.positions[2] - m.positions[0],
                                          m.positions[3] - m.positions[0]))) < 0.05f);
    m.triangles = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
    makeOutward(m);
    return m;
}

// A torus (major radius 1, tube radius 0.35 (1 + 0.4 waves)), `around` x `tube` quads, then a
// random affine: genus one, with saddle regions and concave edges.
inline Mesh perturbedTorus(std::uint32_t seed, int around, int tube) {
    std::mt19937 rng(seed);
    Waves waves(rng, 3, 3.0f);
    Mesh m;
    const float pi = 3.14159265f;
    for (int i = 0; i < around; ++i)
        for (int j = 0; j < tube; ++j) {
            float u = 2.0f * pi * float(i) / float(around), v = 2.0f * pi * float(j) / float(tube);
            glm::vec3 dir(std::cos(u), 0.0f, std::sin(u));
            glm::vec3 d = dir * std::cos(v) + glm::vec3(0.0f, std::sin(v), 0.0f);
            float r =
                0.35f *
                (1.0f + 0.4f * waves({std::cos(u) + 0.5f * std::cos(v), std::sin(u), std::sin(v)}));
            m.positions.push_back(dir + d * r);
        }
    auto at = [&](int i, int j) { return std::uint32_t((i % around) * tube + j % tube); };
    for (int i = 0; i < around; ++i)
        for (int j = 0; j < tube; ++j) {
            m.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
            m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
        }
    randomAffine(m, rng);
    makeOutward(m);
    return m;
}

inline float boundsDiagonal(const Mesh& m, glm::vec3& lo, glm::vec3& hi) {
    lo = glm::vec3(INFINITY);
    hi = glm::vec3(-INFINITY);
    for (glm::vec3 p : m.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    return glm::length(hi - lo);
}

struct Sample {
    glm::vec3 p;
    float maxDistance;
};

// Query points: a third uniform in the bounds grown by a fifth of the diagonal, a third near
// the surface (along a face normal, 3 % of the diagonal apart on average), a third near corners
// (any direction, 1e-4 to 3e-2 diagonals away); search radii of 2 %, 10 % and 200 % of the
// diagonal.
inline std::vector<Sample> samplePoints(const Mesh& m, std::uint32_t seed, int count) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    glm::vec3 lo, hi;
    const float diag = boundsDiagonal(m, lo, hi), grow = 0.2f * diag;
    const float radii[3] = {0.02f * diag, 0.1f * diag, 2.0f * diag};
    std::vector<Sample> out;
    for (int i = 0; i < count; ++i) {
        glm::vec3 p;
        if (i % 3 == 0) {
            for (int k = 0; k < 3; ++k) p[k] = lo[k] - grow + u01(rng) * (hi[k] - lo[k] + 2 * grow);
        } else if (i % 3 == 1) {
            const glm::uvec3& t = m.triangles[rng() % m.triangles.size()];
            glm::vec3 a = m.positions[t.x], b = m.positions[t.y], c = m.positions[t.z];
            float s = u01(rng), r = u01(rng);
            if (s + r > 1.0f) s = 1.0f - s, r = 1.0f - r;
            glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
            p = a + (b - a) * s + (c - a) * r + n * (0.03f * diag * gauss(rng));
        } else {
            glm::vec3 v = m.positions[rng() % m.positions.size()];
            glm::vec3 dir = glm::normalize(glm::vec3(gauss(rng), gauss(rng), gauss(rng)));
            p = v + dir * (diag * std::pow(10.0f, -4.0f + 2.5f * u01(rng)));
        }
        out.push_back({p, radii[rng() % 3]});
    }
    return out;
}

// Distance from p to the segment [a, b].
inline double segmentDistance(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b) {
    glm::dvec3 ab = b - a;
    double t = glm::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    return glm::length(p - (a + ab * t));
}

// Distance from p to triangle (a, b, c): to its plane when the projection falls inside (signs of
// the edge cross products), else to the nearest edge.
inline double triangleDistance(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    glm::dvec3 n = glm::cross(b - a, c - a);
    glm::dvec3 proj = p - n * (glm::dot(p - a, n) / glm::dot(n, n));
    if (glm::dot(glm::cross(b - a, proj - a), n) >= 0.0 &&
        glm::dot(glm::cross(c - b, proj - b), n) >= 0.0 &&
        glm::dot(glm::cross(a - c, proj - c), n) >= 0.0)
        return std::abs(glm::dot(p - a, n)) / glm::length(n);
    return std::min({segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, c, a)});
}

inline double meshDistance(const Mesh& m, glm::dvec3 p) {
    double best = INFINITY;
    for (const glm::uvec3& t : m.triangles)
        best = std::min(
            best, triangleDistance(p, glm::dvec3(m.positions[t.x]), glm::dvec3(m.positions[t.y]),
                                   glm::dvec3(m.positions[t.z])));
    return best;
}

// Generalized winding number (Jacobson et al. 2013): the triangles' signed solid angles at p
// (Van Oosterom and Strackee 1983) over 4 pi. About 1 inside a closed outward mesh, 0 outside.
inline double windingNumber(const Mesh& m, glm::dvec3 p) {
    double sum = 0.0;
    for (const glm::uvec3& t : m.triangles) {
        glm::dvec3 a = glm::dvec3(m.positions[t.x]) - p, b = glm::dvec3(m.positions[t.y]) - p,
                   c = glm::dvec3(m.positions[t.z]) - p;
        double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
        double num = glm::dot(a, glm::cross(b, c));
        double den = la * lb * lc + glm::dot(a, b) * lc + glm::dot(a, c) * lb + glm::dot(b, c) * la;
        sum += 2.0 * std::atan2(num, den);
    }
    return sum / (4.0 * 3.14159265358979323846);
}

}  // namespace cloth::test
