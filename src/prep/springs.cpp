#include "prep/springs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "core/error.h"
#include "kernels/constraints.h"

namespace cloth {

namespace {

std::string shortNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

enum Family { kStructural = 0, kShear = 1, kFlexion = 2 };

float familyStiffness(const MassSpringSettings& m, const Material& material, Family f,
                      const std::string& cloth) {
    const float given = f == kStructural ? m.structural : f == kShear ? m.shear : m.flexion;
    if (given > 0.0f) return given;
    if (!(material.stretchCompliance > 0.0f))
        throw Error("cloth '" + cloth +
                    "': model mass_spring takes its springs' stiffness from the material's "
                    "stretch_compliance (1 / compliance N/m), which is 0 (rigid); give "
                    "mass_spring.stiffness in N/m");
    return 1.0f / material.stretchCompliance;
}

struct Builder {
    PreparedCloth& p;
    std::uint32_t begin;
    float k[3];
    void add(std::uint32_t a, std::uint32_t b, Family f) {
        a += begin;
        b += begin;
        const float rest = glm::length(glm::vec3(p.positions[a]) - glm::vec3(p.positions[b]));
        p.springs.push_back({std::min(a, b), std::max(a, b), rest, k[f]});
        ++p.springFamilies[f];
    }
};

void gridSprings(const GridDesc& g, Builder& out) {
    const std::uint32_t w = g.resX + 1, h = g.resY + 1;
    auto at = [&](std::uint32_t r, std::uint32_t c) { return r * w + c; };
    for (std::uint32_t r = 0; r < h; ++r)
        for (std::uint32_t c = 0; c < w; ++c) {
            if (c + 1 < w) out.add(at(r, c), at(r, c + 1), kStructural);
            if (r + 1 < h) out.add(at(r, c), at(r + 1, c), kStructural);
            if (c + 1 < w && r + 1 < h) {
                out.add(at(r, c), at(r + 1, c + 1), kShear);
                out.add(at(r, c + 1), at(r + 1, c), kShear);
            }
            if (c + 2 < w) out.add(at(r, c), at(r, c + 2), kFlexion);
            if (r + 2 < h) out.add(at(r, c), at(r + 2, c), kFlexion);
        }
}

// Edges, then the far corners across each edge shared by two triangles (unless already an edge).
void meshSprings(const PreparedCloth& p, const ClothInfo& info, Builder& out) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> edges;
    for (std::uint32_t t = info.triangleBegin; t < info.triangleEnd; ++t) {
        const glm::uvec3 tri = p.triangles[t];
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = tri[e], b = tri[(e + 1) % 3], far = tri[(e + 2) % 3];
            edges[{std::min(a, b), std::max(a, b)}].push_back(far);
        }
    }
    for (const auto& [e, far] : edges) out.add(e.first - out.begin, e.second - out.begin, kStructural);
    for (const auto& [e, far] : edges) {
        if (far.size() != 2) continue;
        const std::pair key{std::min(far[0], far[1]), std::max(far[0], far[1])};
        if (key.first == key.second || edges.count(key)) continue;
        out.add(key.first - out.begin, key.second - out.begin, kFlexion);
    }
}

}  // namespace

void buildSprings(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                  PreparedCloth& p) {
    p.springs.clear();
    std::fill(std::begin(p.springFamilies), std::end(p.springFamilies), 0u);
    const MassSpringSettings& m = scene.sim.massSpring;
    for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
        const ClothDesc& c = scene.cloths[i];
        Builder out{p, clothBegin[i], {}};
        for (Family f : {kStructural, kShear, kFlexion})
            out.k[f] = familyStiffness(m, c.material, f, c.name);
        if (c.grid)
            gridSprings(*c.grid, out);
        else
            meshSprings(p, p.cloths[i], out);
    }
}

double springOmegaMax(const PreparedCloth& p, int iterations) {
    const std::size_t n = p.originalVertexCount;
    // y = M^-1/2 K M^-1/2 x over the free vertices (pinned ones: x = y = 0).
    std::vector<double> scale(n, 0.0);  // 1 / sqrt(m) = sqrt(inverse mass)
    for (std::size_t v = 0; v < n; ++v) scale[v] = std::sqrt(double(p.positions[v].w));
    auto apply = [&](const std::vector<glm::dvec3>& x, std::vector<glm::dvec3>& y) {
        std::fill(y.begin(), y.end(), glm::dvec3(0.0));
        for (const gpu::Spring& s : p.springs) {
            glm::dvec3 d = glm::dvec3(p.positions[s.a]) - glm::dvec3(p.positions[s.b]);
            const double l = glm::length(d);
            if (!(l > 0.0)) continue;
            d /= l;
            const glm::dvec3 ua = x[s.a] * scale[s.a], ub = x[s.b] * scale[s.b];
            const double f = double(s.stiffness) * glm::dot(d, ua - ub);
            y[s.a] += f * d * scale[s.a];
            y[s.b] -= f * d * scale[s.b];
        }
    };
    std::vector<glm::dvec3> x(n), y(n);
    std::uint32_t state = 12345u;
    auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return double(state >> 8) / double(1u << 24) - 0.5;
    };
    for (std::size_t v = 0; v < n; ++v) x[v] = scale[v] > 0.0 ? glm::dvec3(next(), next(), next()) : glm::dvec3(0.0);
    double lambda = 0.0;
    for (int it = 0; it < iterations; ++it) {
        double norm2 = 0.0;
        for (const glm::dvec3& e : x) norm2 += glm::dot(e, e);
        if (!(norm2 > 0.0)) return 0.0;
        const double inv = 1.0 / std::sqrt(norm2);
        for (glm::dvec3& e : x) e *= inv;
        apply(x, y);
        lambda = 0.0;
        for (std::size_t v = 0; v < n; ++v) lambda += glm::dot(x[v], y[v]);
        std::swap(x, y);
    }
    return std::sqrt(std::max(lambda, 0.0));
}

double stableStep(Integrator integrator, double omega, double damping) {
    if (!(omega > 0.0)) return 1e30;  // nothing oscillates
    if (integrator == Integrator::Explicit) return damping / (omega * omega);
    return (std::sqrt(damping * damping + 4.0 * omega * omega) - damping) / (omega * omega);
}

SpringPlan planSpringSteps(const PreparedCloth& p) {
    const MassSpringSettings& m = p.sim.massSpring;
    SpringPlan plan;
    plan.omegaMax = springOmegaMax(p);
    // Each vertex is damped by the air and its material's linear damping: the least damping
    // bounds forward Euler's step, the most the others' (damping shortens their limit).
    const std::vector<float> damping = springDamping(p);
    double least = m.airDamping, most = m.airDamping;
    if (!damping.empty()) {
        least = *std::min_element(damping.begin(), damping.end());
        most = *std::max_element(damping.begin(), damping.end());
    }
    plan.limit = stableStep(m.integrator, plan.omegaMax,
                            m.integrator == Integrator::Explicit ? least : most);
    const double substep = double(p.sim.frameDt) / double(p.sim.substeps);
    if (m.integrator == Integrator::Explicit && !(least > 0.0))
        throw Error("mass_spring: forward Euler (integrator explicit) is unstable at any step "
                    "without damping; set mass_spring.air_damping (or every material's "
                    "damping), or use symplectic or verlet");
    if (m.step > 0.0f && double(m.step) > plan.limit)
        throw Error("mass_spring.step " + shortNumber(m.step) + " s is past the stable limit of " +
                    shortNumber(plan.limit) + " s (highest natural frequency " +
                    shortNumber(plan.omegaMax) + " rad/s)");
    const double longest = m.step > 0.0f ? double(m.step) : 0.9 * plan.limit;
    const double steps = std::ceil(substep / longest);
    if (!(steps * double(p.sim.substeps) <= 1e6))
        throw Error("mass_spring: the springs need a step of " + shortNumber(plan.limit) +
                    " s at most, more than 10^6 steps per frame; lower mass_spring.stiffness" +
                    (m.integrator == Integrator::Explicit ? " or use symplectic or verlet" : ""));
    plan.steps = static_cast<std::uint32_t>(std::max(1.0, steps));
    plan.step = substep / double(plan.steps);
    return plan;
}

SpringIncidence springIncidence(const std::vector<gpu::Spring>& springs, std::uint32_t vertices) {
    SpringIncidence in;
    in.offsets.assign(vertices + 1, 0);
    for (const gpu::Spring& s : springs) {
        ++in.offsets[s.a + 1];
        ++in.offsets[s.b + 1];
    }
    for (std::uint32_t v = 0; v < vertices; ++v) in.offsets[v + 1] += in.offsets[v];
    in.springs.resize(in.offsets[vertices]);
    std::vector<std::uint32_t> cursor(in.offsets.begin(), in.offsets.end() - 1);
    for (std::uint32_t i = 0; i < springs.size(); ++i) {
        in.springs[cursor[springs[i].a]++] = i;
        in.springs[cursor[springs[i].b]++] = i;
    }
    return in;
}

void vertexNormals(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                   std::vector<glm::vec4>& out, std::uint32_t begin, std::uint32_t end) {
    out.resize(p.originalVertexCount);
    for (std::uint32_t v = begin; v < end; ++v) {
        glm::vec3 n(0.0f);
        for (std::uint32_t k = p.vertexTriangleOffsets[v]; k < p.vertexTriangleOffsets[v + 1]; ++k) {
            const glm::uvec3 t = p.triangles[p.vertexTriangles[k]];
            n += gpu::triangleNormal(glm::vec3(x[t.x]), glm::vec3(x[t.y]), glm::vec3(x[t.z]));
        }
        const float len2 = glm::dot(n, n);
        out[v] = len2 > 0.0f ? glm::vec4(n / std::sqrt(len2), 0.0f) : glm::vec4(0, 0, 1, 0);
    }
}

void refuseWhatMassSpringLacks(const PreparedCloth& p) {
    auto refuse = [](const std::string& what) {
        throw Error("model mass_spring: " + what +
                    " not built for this model yet (XPBD runs them: model xpbd)");
    };
    for (const gpu::Collider& c : p.colliders)
        if (c.shape == gpu::SHAPE_MESH) refuse("mesh colliders are");
    if (!p.attachments.empty()) refuse("attachments are");
    if (!p.seamPairs.empty()) refuse("seams are");
    if (p.sim.selfCollision) refuse("self-collision is");
    if (p.sim.wind) refuse("wind is");
    if (p.vertexCount() != p.originalVertexCount) refuse("phantom vertices are");
    for (const gpu::ClothSegment& s : p.segments)
        if (s.rigidDamping != 0.0f) refuse("rigid-motion-preserving damping (rigid_damping) is");
}

std::vector<float> springDamping(const PreparedCloth& p) {
    std::vector<float> c(p.originalVertexCount, p.sim.massSpring.airDamping);
    for (const gpu::ClothSegment& s : p.segments)
        for (std::uint32_t v = s.vertexBegin; v < std::min(s.vertexEnd, p.originalVertexCount); ++v)
            c[v] += s.linearDamping;
    return c;
}

std::vector<float> springThickness(const PreparedCloth& p) {
    std::vector<float> h(p.originalVertexCount, 0.0f);
    for (const gpu::ClothSegment& s : p.segments)
        for (std::uint32_t v = s.vertexBegin; v < std::min(s.vertexEnd, p.originalVertexCount); ++v)
            h[v] = s.thickness;
    return h;
}

std::vector<glm::vec4> springPrevious(const std::vector<glm::vec4>& x,
                                      const std::vector<glm::vec4>& v, float h) {
    std::vector<glm::vec4> previous = x;
    for (std::size_t i = 0; i < previous.size(); ++i)
        previous[i] -= glm::vec4(h * glm::vec3(v[i]), 0.0f);
    return previous;
}

}  // namespace cloth
