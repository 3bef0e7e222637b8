#include "render/collider_mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>

#include "core/error.h"

namespace cloth::render {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// A point of a surface of revolution about y: distance from the axis, height, and the outward
// normal in the (rho, y) half-plane.
struct ProfilePoint {
    float rho, y;
    glm::vec2 normal;
};

// The surface swept by `profile` (bottom to top, both ends on the axis) about the y axis.
// The ends become single vertices (fans), so the mesh is closed with no degenerate triangle.
ColliderMesh lathe(const std::vector<ProfilePoint>& profile, std::uint32_t segments) {
    CLOTH_ASSERT(profile.size() >= 3 && profile.front().rho == 0.0f && profile.back().rho == 0.0f);
    ColliderMesh m;
    const std::uint32_t rings = static_cast<std::uint32_t>(profile.size()) - 2;
    auto add = [&](glm::vec3 p, glm::vec3 n) {
        m.vertices.push_back({glm::vec4(p, 1.0f), glm::vec4(n, 0.0f)});
    };
    const ProfilePoint& bottom = profile.front();
    add({0.0f, bottom.y, 0.0f}, {0.0f, bottom.normal.y, 0.0f});
    for (std::uint32_t k = 1; k <= rings; ++k) {
        const ProfilePoint& q = profile[k];
        for (std::uint32_t j = 0; j < segments; ++j) {
            const float phi = 2.0f * kPi * float(j) / float(segments);
            const float c = std::cos(phi), s = std::sin(phi);
            add({q.rho * c, q.y, q.rho * s}, {q.normal.x * c, q.normal.y, q.normal.x * s});
        }
    }
    const ProfilePoint& top = profile.back();
    add({0.0f, top.y, 0.0f}, {0.0f, top.normal.y, 0.0f});

    auto ring = [&](std::uint32_t k, std::uint32_t j) {
        return 1 + (k - 1) * segments + j % segments;
    };
    auto tri = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        m.indices.insert(m.indices.end(), {a, b, c});
    };
    const std::uint32_t topIndex = static_cast<std::uint32_t>(m.vertices.size()) - 1;
    for (std::uint32_t j = 0; j < segments; ++j) {
        // Going up the profile then around (+phi) is counter-clockwise seen from outside.
        tri(0, ring(1, j), ring(1, j + 1));
        for (std::uint32_t k = 1; k < rings; ++k) {
            tri(ring(k, j), ring(k + 1, j), ring(k + 1, j + 1));
            tri(ring(k, j), ring(k + 1, j + 1), ring(k, j + 1));
        }
        tri(ring(rings, j), topIndex, ring(rings, j + 1));
    }
    return m;
}

// A quarter circle of radius r about height y0, from angle a0 to a1 (radians from the equator;
// negative is below), `steps` segments, both ends included.
void arc(std::vector<ProfilePoint>& out, float r, float y0, float a0, float a1,
         std::uint32_t steps) {
    for (std::uint32_t i = 0; i <= steps; ++i) {
        const float a = a0 + (a1 - a0) * float(i) / float(steps);
        const float c = std::cos(a), s = std::sin(a);
        ProfilePoint p{r * c, y0 + r * s, {c, s}};
        if (i == 0 && a0 == -0.5f * kPi) p = {0.0f, y0 - r, {0.0f, -1.0f}};
        if (i == steps && a1 == 0.5f * kPi) p = {0.0f, y0 + r, {0.0f, 1.0f}};
        out.push_back(p);
    }
}

// Coordinates along one axis of a rounded box, from -h to +h: the rounded band at each end
// placed so that its normals turn by equal angles (r tan(theta) past the inner box), and the
// inner box's extent in between (one coordinate, 0, when the rounding takes all of it).
std::vector<float> boxAxis(float h, float r) {
    const float inner = h - r;
    std::vector<float> up;  // from +inner to +h
    if (r <= 0.0f) {
        up = {h};
    } else {
        const std::uint32_t band = std::max(1u, kEdgeSegments / 2);
        for (std::uint32_t i = 0; i <= band; ++i) {
            const float theta = 0.25f * kPi * float(i) / float(band);
            up.push_back(i == band ? h : inner + r * std::tan(theta));
        }
    }
    std::vector<float> axis;
    for (auto it = up.rbegin(); it != up.rend(); ++it) axis.push_back(-*it);
    for (float x : up)
        if (x > axis.back()) axis.push_back(x);  // inner == 0: -0 and +0 are one coordinate
    return axis;
}

// Outward unit normal of the triangle (a, b, c) by its winding; zero when degenerate.
glm::vec3 windingNormal(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 n = glm::cross(b - a, c - a);
    const float len = glm::length(n);
    return len > 0.0f ? n / len : glm::vec3(0.0f);
}

float cornerAngle(glm::vec3 p, glm::vec3 q, glm::vec3 r) {
    const glm::vec3 u = q - p, v = r - p;
    const float lu = glm::length(u), lv = glm::length(v);
    if (lu <= 0.0f || lv <= 0.0f) return 0.0f;
    return std::acos(std::clamp(glm::dot(u, v) / (lu * lv), -1.0f, 1.0f));
}

}  // namespace

ColliderMesh sphereMesh(float radius) {
    std::vector<ProfilePoint> profile;
    arc(profile, radius, 0.0f, -0.5f * kPi, 0.0f, kHemisphereRings);
    profile.pop_back();  // the equator once
    arc(profile, radius, 0.0f, 0.0f, 0.5f * kPi, kHemisphereRings);
    return lathe(profile, kRoundSegments);
}

ColliderMesh capsuleMesh(float radius, float halfHeight) {
    std::vector<ProfilePoint> profile;
    arc(profile, radius, -halfHeight, -0.5f * kPi, 0.0f, kHemisphereRings);
    if (halfHeight <= 0.0f) profile.pop_back();  // a sphere: the equator once
    arc(profile, radius, halfHeight, 0.0f, 0.5f * kPi, kHemisphereRings);
    return lathe(profile, kRoundSegments);
}

ColliderMesh roundedBoxMesh(glm::vec3 half, float rounding) {
    const float r = std::clamp(rounding, 0.0f, std::min({half.x, half.y, half.z}));
    const glm::vec3 inner = half - glm::vec3(r);
    const std::vector<float> axes[3] = {boxAxis(half.x, r), boxAxis(half.y, r), boxAxis(half.z, r)};
    ColliderMesh m;
    for (int a = 0; a < 3; ++a) {
        // (u, v, a) is right-handed: u x v = +a.
        const int u = (a + 1) % 3, v = (a + 2) % 3;
        const std::vector<float>&U = axes[u], &V = axes[v];
        for (float side : {-1.0f, 1.0f}) {
            const std::uint32_t base = static_cast<std::uint32_t>(m.vertices.size());
            for (float y : V)
                for (float x : U) {
                    glm::vec3 q(0.0f);
                    q[a] = side * half[a];
                    q[u] = x;
                    q[v] = y;
                    glm::vec3 n(0.0f), p = q;
                    if (r > 0.0f) {
                        // Cube-sphere mapping: the point of the box's surface moved onto the
                        // rounded surface along the direction from the inner box.
                        const glm::vec3 c = glm::clamp(q, -inner, inner);
                        n = glm::normalize(q - c);
                        p = c + r * n;
                    } else {
                        n[a] = side;
                    }
                    m.vertices.push_back({glm::vec4(p, 1.0f), glm::vec4(n, 0.0f)});
                }
            const std::uint32_t nu = static_cast<std::uint32_t>(U.size());
            for (std::uint32_t j = 0; j + 1 < V.size(); ++j)
                for (std::uint32_t i = 0; i + 1 < nu; ++i) {
                    const std::uint32_t p00 = base + j * nu + i, p10 = p00 + 1, p01 = p00 + nu,
                                        p11 = p01 + 1;
                    if (side > 0.0f)
                        m.indices.insert(m.indices.end(), {p00, p10, p11, p00, p11, p01});
                    else
                        m.indices.insert(m.indices.end(), {p00, p11, p10, p00, p01, p11});
                }
        }
    }
    return m;
}

ColliderMesh triangleMesh(std::span<const gpu::MeshTriangle> triangles) {
    struct Face {
        glm::vec3 p[3];
        glm::vec3 n;
    };
    std::vector<Face> faces;
    faces.reserve(triangles.size());
    for (const gpu::MeshTriangle& t : triangles) {
        Face f{{glm::vec3(t.a), glm::vec3(t.b), glm::vec3(t.c)}, glm::vec3(0.0f)};
        const glm::vec3 wound = windingNormal(f.p[0], f.p[1], f.p[2]);
        const glm::vec3 given(t.faceNormal);
        const float len = glm::length(given);
        if (len > 0.5f) {
            f.n = given / len;
            if (glm::dot(wound, f.n) < 0.0f) std::swap(f.p[1], f.p[2]);
        } else {
            f.n = wound;
        }
        faces.push_back(f);
    }
    // Corners meeting at one point (exactly: the triangles of one mesh share their corners).
    using Key = std::tuple<float, float, float>;
    std::map<Key, std::vector<std::pair<std::uint32_t, float>>> around;  // face, corner angle
    for (std::uint32_t i = 0; i < faces.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const glm::vec3 p = faces[i].p[k];
            const float w = cornerAngle(p, faces[i].p[(k + 1) % 3], faces[i].p[(k + 2) % 3]);
            around[{p.x, p.y, p.z}].push_back({i, w});
        }
    const float crease = std::cos(glm::radians(kMeshCreaseDegrees));
    ColliderMesh m;
    m.vertices.reserve(3 * faces.size());
    for (const Face& f : faces) {
        for (int k = 0; k < 3; ++k) {
            const glm::vec3 p = f.p[k];
            glm::vec3 sum(0.0f);
            for (const auto& [other, w] : around[{p.x, p.y, p.z}])
                if (glm::dot(faces[other].n, f.n) >= crease) sum += w * faces[other].n;
            const float len = glm::length(sum);
            const glm::vec3 n = len > 0.0f ? sum / len : f.n;
            m.indices.push_back(static_cast<std::uint32_t>(m.vertices.size()));
            m.vertices.push_back({glm::vec4(p, 1.0f), glm::vec4(n, 0.0f)});
        }
    }
    return m;
}

ColliderMesh colliderMesh(const gpu::Collider& c, std::span<const gpu::MeshTriangle> triangles) {
    switch (c.shape) {
        case gpu::SHAPE_SPHERE:
            return sphereMesh(c.size.x);
        case gpu::SHAPE_CAPSULE:
            return capsuleMesh(c.size.x, c.size.y);
        case gpu::SHAPE_BOX:
            return roundedBoxMesh(glm::vec3(c.size), c.size.w);
        case gpu::SHAPE_MESH:
            return triangleMesh(triangles);
        default:
            return {};
    }
}

glm::mat4 colliderModel(const gpu::Collider& c, float time) {
    const gpu::ColliderPose p = gpu::colliderPose(c, time);
    return glm::mat4(glm::vec4(p.ax, 0.0f), glm::vec4(p.ay, 0.0f), glm::vec4(p.az, 0.0f),
                     glm::vec4(p.origin, 1.0f));
}

Bounds meshBounds(const ColliderMesh& mesh, const glm::mat4& model) {
    Bounds b{glm::vec3(std::numeric_limits<float>::max()),
             glm::vec3(-std::numeric_limits<float>::max())};
    for (const gpu::ColliderVertex& v : mesh.vertices) {
        const glm::vec3 p(model * glm::vec4(glm::vec3(v.position), 1.0f));
        b.min = glm::min(b.min, p);
        b.max = glm::max(b.max, p);
    }
    if (mesh.vertices.empty()) b = Bounds{};
    return b;
}

}  // namespace cloth::render
