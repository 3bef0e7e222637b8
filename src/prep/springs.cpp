#include "prep/springs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "core/error.h"
#include "kernels/constraints.h"
#include "prep/rest_shape.h"
#include "prep/sewing.h"

namespace cloth {

namespace {

std::string shortNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

enum Family { kStructural = 0, kShear = 1, kFlexion = 2 };

float givenStiffness(const MassSpringSettings& m, Family f) {
    return f == kStructural ? m.structural : f == kShear ? m.shear : m.flexion;
}

// A distance material: 1 / its stretch compliance (an XPBD distance constraint of compliance a
// is a spring of 1/a N/m), the same for every family.
float complianceStiffness(const Material& material, const std::string& cloth) {
    if (!(material.stretchCompliance > 0.0f))
        throw Error("cloth '" + cloth +
                    "': model mass_spring takes its springs' stiffness from the material's "
                    "stretch_compliance (1 / compliance N/m), which is 0 (rigid); give "
                    "mass_spring.stiffness in N/m");
    return 1.0f / material.stretchCompliance;
}

// The stiffness of each spring of a grid, by direction: structural along x and y, shear,
// flexion along x and y (N/m). `halve`: the structural and flexion springs on the grid's border
// lines (parallel to it) get half, as a border cell has only one side (the springs of a material
// lattice; given stiffnesses are taken as they are).
struct GridStiffness {
    float structuralX, structuralY, shear, flexionX, flexionY;
    bool halve;
};

// A StVK material on a grid of spacing a (x) by b (y) whose orthotropic axes lie along the grid
// (weft angle a multiple of 90 degrees), as a lattice with the same moduli (docs/models.md,
// "Stiffness from the material"): with every spring stretched by a uniform small strain, the
// lattice stores the energy of the plane-stress stiffness C11 = (kx + 4 kfx) a/b + G a^2/b^2,
// C22 = (ky + 4 kfy) b/a + G b^2/a^2, C12 = C66 = 2 ks a b / (a^2 + b^2). So: shear springs give
// the shear modulus G; C12 = G (a spring lattice cannot have another); flexion springs
// kFlexionShare of the structural ones along their axis; structural ones so that the lattice's
// moduli under uniaxial stress (C11 - C12^2 / C22, C22 - C12^2 / C11) are the material's E along
// each axis.
//
// Flexion springs stretch with the cloth, and where a cloth is a few cells wide the ones across it
// are fewer than the lattice counts (a 2-cell strip has one per row, not two), which softens it.
// Measured on the 2 x 20 strip of the tests: 7.6% softer than the lattice's modulus with flexion
// springs as stiff as structural ones, 1.6% at a tenth, 0.7% at a twentieth. A tenth keeps
// flexion springs (the model's bending) while the stretch is the material's.
constexpr double kFlexionShare = 0.1;
GridStiffness latticeStiffness(const Material& material, double a, double b,
                               const std::string& cloth) {
    const double turns = double(material.weftAngleDegrees) / 90.0;
    if (std::abs(turns - std::round(turns)) > 1e-6)
        throw Error("cloth '" + cloth + "': model mass_spring derives its springs from a StVK "
                    "material only when the weft lies along the grid (weft angle a multiple of "
                    "90 degrees, got " + shortNumber(material.weftAngleDegrees) +
                    "); give mass_spring.stiffness in N/m");
    const bool swapped = std::abs(std::llround(turns)) % 2 == 1;  // the weft along the grid's y
    const OrthotropicMaterial& m = material.membrane;
    const double ex = swapped ? m.ey : m.ex, ey = swapped ? m.ex : m.ey, shearModulus = m.g;
    const double g2 = shearModulus * shearModulus;
    const double c11 = 0.5 * (ex + std::sqrt(ex * ex + 4.0 * ex * g2 / ey));
    const double c22 = 0.5 * (ey + std::sqrt(ey * ey + 4.0 * ey * g2 / ex));
    const double f = kFlexionShare;
    const double kx = (c11 - shearModulus * a * a / (b * b)) * b / ((1.0 + 4.0 * f) * a);
    const double ky = (c22 - shearModulus * b * b / (a * a)) * a / ((1.0 + 4.0 * f) * b);
    const double ks = shearModulus * (a * a + b * b) / (2.0 * a * b);
    if (!(kx > 0.0) || !(ky > 0.0) || !(ks > 0.0))
        throw Error("cloth '" + cloth + "': no spring lattice of this grid's cells (" +
                    shortNumber(a) + " x " + shortNumber(b) + " m) has the material's moduli "
                    "(its shear modulus " + shortNumber(shearModulus) +
                    " N/m is too large or not positive for them); give mass_spring.stiffness "
                    "in N/m");
    return {float(kx), float(ky), float(ks), float(f * kx), float(f * ky), true};
}

// a, b: the grid's cell as placed (m).
GridStiffness gridStiffness(const MassSpringSettings& m, const Material& material, double a,
                            double b, const std::string& cloth) {
    GridStiffness k{};
    if (material.stretchModel == StretchModel::Stvk) {
        // Derived only where needed: a family given in the scene is taken as it is.
        if (!(m.structural > 0.0f && m.shear > 0.0f && m.flexion > 0.0f))
            k = latticeStiffness(material, a, b, cloth);
    } else {
        const float c = givenStiffness(m, kStructural) > 0.0f && givenStiffness(m, kShear) > 0.0f &&
                                givenStiffness(m, kFlexion) > 0.0f
                            ? 0.0f
                            : complianceStiffness(material, cloth);
        k = {c, c, c, c, c, false};
    }
    if (m.structural > 0.0f) k.structuralX = k.structuralY = m.structural;
    if (m.shear > 0.0f) k.shear = m.shear;
    if (m.flexion > 0.0f) k.flexionX = k.flexionY = m.flexion;
    if (m.structural > 0.0f || m.flexion > 0.0f) k.halve = false;
    return k;
}

float meshStiffness(const MassSpringSettings& m, const Material& material, Family f,
                    const std::string& cloth) {
    const float given = givenStiffness(m, f);
    if (given > 0.0f) return given;
    if (material.stretchModel == StretchModel::Stvk)
        throw Error("cloth '" + cloth + "': model mass_spring derives its springs from a StVK "
                    "material on grids only (a lattice of known cells); give "
                    "mass_spring.stiffness in N/m for this mesh");
    return complianceStiffness(material, cloth);
}

struct Builder {
    PreparedCloth& p;
    std::uint32_t begin;
    void add(std::uint32_t a, std::uint32_t b, Family f, float k, float rest) {
        a += begin;
        b += begin;
        p.springTerms.springs.push_back({std::min(a, b), std::max(a, b), rest, k});
        ++p.springTerms.families[f];
    }
};

// x: the cloth's vertices at rest (prep/rest_shape.h restVertexPoints), a grid's one point each.
void gridSprings(const GridDesc& g, const GridStiffness& k, const std::vector<glm::vec3>& x,
                 Builder& out) {
    const std::uint32_t w = g.resX + 1, h = g.resY + 1;
    auto at = [&](std::uint32_t r, std::uint32_t c) { return r * w + c; };
    auto add = [&](std::uint32_t a, std::uint32_t b, Family f, float stiffness) {
        out.add(a, b, f, stiffness, glm::length(x[a] - x[b]));
    };
    // Springs along x on the top and bottom rows, along y on the side columns: half, if halved.
    const float half = k.halve ? 0.5f : 1.0f;
    for (std::uint32_t r = 0; r < h; ++r)
        for (std::uint32_t c = 0; c < w; ++c) {
            const float alongX = r == 0 || r + 1 == h ? half : 1.0f;
            const float alongY = c == 0 || c + 1 == w ? half : 1.0f;
            if (c + 1 < w) add(at(r, c), at(r, c + 1), kStructural, k.structuralX * alongX);
            if (r + 1 < h) add(at(r, c), at(r + 1, c), kStructural, k.structuralY * alongY);
            if (c + 1 < w && r + 1 < h) {
                add(at(r, c), at(r + 1, c + 1), kShear, k.shear);
                add(at(r, c + 1), at(r + 1, c), kShear, k.shear);
            }
            if (c + 2 < w) add(at(r, c), at(r, c + 2), kFlexion, k.flexionX * alongX);
            if (r + 2 < h) add(at(r, c), at(r + 2, c), kFlexion, k.flexionY * alongY);
        }
}

// Edges, then the far corners across each edge shared by two triangles (unless already an edge).
// Rest lengths from the starting positions; from the pattern (rest_shape "uv"), an edge's length
// in the triangles that hold it, averaged over them (as the XPBD distance items' rest lengths,
// prep/rest_shape.h), and a flexion spring's across its two triangles unfolded flat.
void meshSprings(const PreparedCloth& p, const ClothInfo& info, const float (&k)[3], Builder& out) {
    struct Side {
        std::uint32_t far, triangle;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Side>> edges;
    for (std::uint32_t t = info.triangleBegin; t < info.triangleEnd; ++t) {
        const glm::uvec3 tri = p.triangles[t];
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = tri[e], b = tri[(e + 1) % 3], far = tri[(e + 2) % 3];
            edges[{std::min(a, b), std::max(a, b)}].push_back({far, t});
        }
    }
    auto apart = [&](std::uint32_t a, std::uint32_t b) {
        return glm::length(glm::vec3(p.positions[a]) - glm::vec3(p.positions[b]));
    };
    auto corner = [&](std::uint32_t t, std::uint32_t v) {
        const glm::uvec3 tri = p.triangles[t];
        return restTriangle(p, t)[tri.x == v ? 0 : tri.y == v ? 1 : 2];
    };
    for (const auto& [e, sides] : edges) {
        float rest = apart(e.first, e.second);
        if (info.restFromPattern) {
            double sum = 0.0;
            for (const Side& s : sides)
                sum += glm::length(glm::dvec3(corner(s.triangle, e.first)) -
                                   glm::dvec3(corner(s.triangle, e.second)));
            rest = float(sum / double(sides.size()));
        }
        out.add(e.first - out.begin, e.second - out.begin, kStructural, k[kStructural], rest);
    }
    for (const auto& [e, sides] : edges) {
        if (sides.size() != 2) continue;
        const std::pair key{std::min(sides[0].far, sides[1].far), std::max(sides[0].far, sides[1].far)};
        if (key.first == key.second || edges.count(key)) continue;
        float rest = apart(key.first, key.second);
        if (info.restFromPattern) {
            const Side &s = sides[0], &o = sides[1];
            const std::array<glm::vec3, 4> x =
                unfoldHinge(corner(s.triangle, e.first), corner(s.triangle, e.second),
                            corner(s.triangle, s.far), corner(o.triangle, e.first),
                            corner(o.triangle, e.second), corner(o.triangle, o.far));
            rest = glm::length(x[2] - x[3]);
        }
        out.add(key.first - out.begin, key.second - out.begin, kFlexion, k[kFlexion], rest);
    }
}

}  // namespace

void buildSprings(const Scene& scene, const std::vector<std::uint32_t>& clothBegin,
                  PreparedCloth& p) {
    p.springTerms.springs.clear();
    std::fill(std::begin(p.springTerms.families), std::end(p.springTerms.families), 0u);
    const MassSpringSettings& m = scene.sim.massSpring;
    for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
        const ClothDesc& c = scene.cloths[i];
        Builder out{p, clothBegin[i]};
        if (c.grid) {
            const std::vector<glm::vec3> x =
                restVertexPoints(p, clothBegin[i], p.cloths[i].vertexEnd);
            const std::uint32_t right = 1, below = c.grid->resX + 1;
            auto apart = [&](std::uint32_t u, std::uint32_t v) {
                return double(glm::length(x[u] - x[v]));
            };
            const GridStiffness k =
                gridStiffness(m, c.material, apart(0, right), apart(0, below), c.name);
            gridSprings(*c.grid, k, x, out);
        } else {
            const float k[3] = {meshStiffness(m, c.material, kStructural, c.name), 0.0f,
                                meshStiffness(m, c.material, kFlexion, c.name)};
            meshSprings(p, p.cloths[i], k, out);
        }
    }
    // Seams: a spring of rest length 0 per pair (a hard seam as stiff as the stiffest spring).
    float stiffest = 0.0f;
    for (const gpu::Spring& s : p.springTerms.springs) stiffest = std::max(stiffest, s.stiffness);
    for (const SeamPair& s : p.seamPairs)
        p.springTerms.springs.push_back(
            {std::min(s.a, s.b), std::max(s.a, s.b), 0.0f, seamStiffness(scene, s, stiffest)});
    p.springTerms.angles = angleSprings(p, stiffest);
}

double springOmegaMax(const PreparedCloth& p, int iterations) {
    const std::size_t n = p.originalVertexCount;
    // y = M^-1/2 K M^-1/2 x over the free vertices (pinned ones: x = y = 0).
    std::vector<double> scale(n, 0.0);  // 1 / sqrt(m) = sqrt(inverse mass)
    for (std::size_t v = 0; v < n; ++v) scale[v] = std::sqrt(double(p.positions[v].w));
    std::vector<glm::dvec3> angleGradients(4 * p.springTerms.angles.size(), glm::dvec3(0.0));
    for (std::size_t a = 0; a < p.springTerms.angles.size(); ++a) {
        const gpu::FixedAngleConstraint& t = p.springTerms.angles[a];
        float angle;
        glm::vec3 g[4];
        gpu::bendingEval(glm::vec3(p.positions[t.v0]), glm::vec3(p.positions[t.v1]),
                         glm::vec3(p.positions[t.v2]), glm::vec3(p.positions[t.v3]), angle, g[0],
                         g[1], g[2], g[3]);
        for (int j = 0; j < 4; ++j) angleGradients[4 * a + j] = glm::dvec3(g[j]);
    }
    auto apply = [&](const std::vector<glm::dvec3>& x, std::vector<glm::dvec3>& y) {
        std::fill(y.begin(), y.end(), glm::dvec3(0.0));
        for (const gpu::Spring& s : p.springTerms.springs) {
            if (s.rest == 0.0f) {  // rest length 0 (a seam): the force -k (x_a - x_b), K = k I
                const glm::dvec3 f = double(s.stiffness) * (x[s.a] * scale[s.a] - x[s.b] * scale[s.b]);
                y[s.a] += f * scale[s.a];
                y[s.b] -= f * scale[s.b];
                continue;
            }
            glm::dvec3 d = glm::dvec3(p.positions[s.a]) - glm::dvec3(p.positions[s.b]);
            const double l = glm::length(d);
            if (!(l > 0.0)) continue;
            d /= l;
            const glm::dvec3 ua = x[s.a] * scale[s.a], ub = x[s.b] * scale[s.b];
            const double f = double(s.stiffness) * glm::dot(d, ua - ub);
            y[s.a] += f * d * scale[s.a];
            y[s.b] -= f * d * scale[s.b];
        }
        // Fixed angles: (w/2)(theta - theta_0)^2, counted as kAngleSpringShare w g g^T (g:
        // theta's gradient at the start; prep/springs.h).
        for (std::size_t a = 0; a < p.springTerms.angles.size(); ++a) {
            const gpu::FixedAngleConstraint& t = p.springTerms.angles[a];
            const std::uint32_t v[4] = {t.v0, t.v1, t.v2, t.v3};
            double along = 0.0;
            for (int j = 0; j < 4; ++j) along += glm::dot(angleGradients[4 * a + j], x[v[j]] * scale[v[j]]);
            for (int j = 0; j < 4; ++j)
                y[v[j]] += kAngleSpringShare * double(t.param) * along * scale[v[j]] *
                           angleGradients[4 * a + j];
        }
        for (const gpu::Attachment& a : p.attachments)  // a spring of rest length 0
            if (a.param > 0.0f && a.vertex < n)
                y[a.vertex] += x[a.vertex] * (scale[a.vertex] * scale[a.vertex] / double(a.param));
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

namespace {

// adaptive_verlet's steps in a substep of S with steps of at most `longest` (SpringPlan).
void splitWithRemainder(SpringPlan& plan, double longest) {
    const double S = plan.substep;
    const double full = std::floor(S / longest * (1.0 + 1e-6));
    const double rem = S - full * longest;
    plan.step = longest;
    plan.tailSteps = 0;
    plan.tail = 0.0;
    if (full < 1.0) {  // one step, the whole substep
        plan.step = S;
        plan.steps = 1;
    } else if (std::abs(rem) <= 1e-6 * S) {  // a float step's rounding: equal steps fill S
        plan.steps = std::uint32_t(full);
        plan.step = S / full;
    } else if (rem >= 0.5 * longest) {
        plan.steps = std::uint32_t(full) + 1;
        plan.tailSteps = 1;
        plan.tail = rem;
    } else {
        plan.steps = std::uint32_t(full) + 1;
        plan.tailSteps = 2;
        plan.tail = 0.5 * (longest + rem);
    }
}

// The fewest modes the pattern check scans: resonances of a long pattern are narrow.
int patternModes(const SpringPlan& plan) { return int(std::max<std::uint32_t>(2000, 50 * plan.steps)); }

}  // namespace

std::vector<double> springStepLengths(const SpringPlan& plan) {
    std::vector<double> out(plan.steps, plan.step);
    for (std::uint32_t k = plan.steps - plan.tailSteps; k < plan.steps; ++k) out[k] = plan.tail;
    return out;
}

std::vector<double> springSplitWithRemainder(double substep, double longest) {
    SpringPlan plan;
    plan.substep = substep;
    splitWithRemainder(plan, longest);
    return springStepLengths(plan);
}

SpringStepSize springStepSize(const SpringPlan& plan, std::uint32_t k) {
    auto length = [&](std::uint32_t i) {
        return static_cast<float>(i + plan.tailSteps >= plan.steps && plan.tailSteps > 0 ? plan.tail
                                                                                         : plan.step);
    };
    const float h = length(k), before = length(k == 0 ? plan.steps - 1 : k - 1);
    if (plan.tailSteps == 0) return {h, h, 1.0f};
    return {h, 0.5f * (h + before), h / before};
}

double springPatternGrowth(const std::vector<double>& lengths, double omegaMax, double damping,
                           int modes) {
    // Per step, a mode's (x_n, x_{n-1}) goes to (x_{n+1}, x_n) by the step's 2x2 matrix
    // [[1 + d r - w^2 h m, -d r], [1, 0]] with r = h / hPrev, m = (h + hPrev) / 2,
    // d = 1 - c m (kernels/spring.h springTimeCorrectedVerletStep); the period's product has
    // eigenvalues from its trace and determinant.
    const std::size_t n = lengths.size();
    double period = 0.0;
    for (double h : lengths) period += h;
    double worst = -1e300;
    for (int i = 1; i <= modes; ++i) {
        const double w2 = std::pow(omegaMax * double(i) / double(modes), 2.0);
        double a = 1.0, b = 0.0, c = 0.0, d = 1.0;  // the product so far
        for (std::size_t k = 0; k < n; ++k) {
            const double h = lengths[k], before = lengths[k == 0 ? n - 1 : k - 1];
            const double r = h / before, mean = 0.5 * (h + before), keep = 1.0 - damping * mean;
            const double t00 = 1.0 + keep * r - w2 * h * mean, t01 = -keep * r;
            const double na = t00 * a + t01 * c, nb = t00 * b + t01 * d;
            c = a;
            d = b;
            a = na;
            b = nb;
            const double scale = std::max({std::abs(a), std::abs(b), std::abs(c), std::abs(d)});
            if (scale > 1e100) return 1e300;  // grows past doubt
        }
        const double tr = a + d, det = a * d - b * c;
        const double disc = tr * tr - 4.0 * det;
        double radius;
        if (disc >= 0.0) {
            const double s = std::sqrt(disc);
            radius = std::max(std::abs(tr + s), std::abs(tr - s)) / 2.0;
        } else {
            radius = std::sqrt(std::max(det, 0.0));  // a complex pair: |lambda|^2 = det
        }
        worst = std::max(worst, std::log(std::max(radius, 1e-300)) / period);
    }
    return worst;
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
    const double substep = double(p.timing.frameDt) / double(p.timing.substeps);
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
    if (!(steps * double(p.timing.substeps) <= 1e6))
        throw Error("mass_spring: the springs need a step of " + shortNumber(plan.limit) +
                    " s at most, more than 10^6 steps per frame; lower mass_spring.stiffness" +
                    (m.integrator == Integrator::Explicit ? " or use symplectic or verlet" : ""));
    plan.steps = static_cast<std::uint32_t>(std::max(1.0, steps));
    plan.step = substep / double(plan.steps);
    plan.substep = substep;
    if (m.integrator != Integrator::AdaptiveVerlet) return plan;
    // Unequal steps: the pattern must keep every mode from growing (least damping: the worst).
    auto growth = [&](double longest) {
        splitWithRemainder(plan, longest);
        return springPatternGrowth(springStepLengths(plan), plan.omegaMax, least, patternModes(plan));
    };
    constexpr double kGrowthAllowed = 1e-3;  // 1/s: an amplitude e-folds in no less than 1000 s
    if (m.step > 0.0f) {
        plan.growth = growth(double(m.step));
        if (plan.growth <= kGrowthAllowed) return plan;
    }
    // The longest stable pattern, from 90% of equal steps' limit down by 5% a try.
    for (double longest = 0.9 * plan.limit; longest >= 0.02 * plan.limit; longest *= 0.95) {
        const double g = growth(longest);
        if (g > kGrowthAllowed) continue;
        if (m.step > 0.0f)
            throw Error("mass_spring.step " + shortNumber(m.step) + " s: adaptive_verlet's steps "
                        "with the substep's remainder last are unstable at that step (a mode "
                        "grows by e^" + shortNumber(plan.growth) + " per second); its longest "
                        "stable step here is " + shortNumber(longest) + " s");
        if (!(double(plan.steps) * double(p.timing.substeps) <= 1e6)) break;
        plan.growth = g;
        return plan;
    }
    throw Error("mass_spring: adaptive_verlet finds no stable pattern of steps down to 2% of "
                "equal steps' limit of " + shortNumber(plan.limit) + " s; use verlet");
}

namespace {

// Each vertex's (term, corner) pairs as k * term + corner, in term order (CSR over `vertices`);
// corners(term) lists a term's k vertices.
template <std::uint32_t K, class Term, class Corners>
SpringIncidence incidence(const std::vector<Term>& terms, std::uint32_t vertices, Corners corners) {
    SpringIncidence in;
    in.offsets.assign(vertices + 1, 0);
    for (const Term& t : terms)
        for (std::uint32_t v : corners(t)) ++in.offsets[v + 1];
    for (std::uint32_t v = 0; v < vertices; ++v) in.offsets[v + 1] += in.offsets[v];
    in.springs.resize(in.offsets[vertices]);
    std::vector<std::uint32_t> cursor(in.offsets.begin(), in.offsets.end() - 1);
    for (std::uint32_t i = 0; i < terms.size(); ++i) {
        const auto v = corners(terms[i]);
        for (std::uint32_t c = 0; c < K; ++c) in.springs[cursor[v[c]]++] = K * i + c;
    }
    return in;
}

}  // namespace

SpringIncidence springIncidence(const std::vector<gpu::Spring>& springs, std::uint32_t vertices) {
    // Its two ends as corners (2 i + c), then the spring's own index i.
    SpringIncidence in = incidence<2>(springs, vertices, [](const gpu::Spring& s) {
        return std::array<std::uint32_t, 2>{s.a, s.b};
    });
    for (std::uint32_t& k : in.springs) k /= 2;
    return in;
}

std::vector<gpu::FixedAngleConstraint> angleSprings(const PreparedCloth& p, double hardStiffness) {
    std::vector<gpu::FixedAngleConstraint> out;
    for (gpu::FixedAngleConstraint f : p.items<gpu::FixedAngleConstraint>()) {
        const std::array<glm::vec3, 4> x = restHinge(p, f.v0, f.v1, f.v2, f.v3);
        const double e2 = glm::dot(glm::dvec3(x[1] - x[0]), glm::dvec3(x[1] - x[0]));
        f.param = float(f.param > 0.0f ? 1.0 / double(f.param) : hardStiffness * e2);
        out.push_back(f);
    }
    return out;
}

SpringIncidence stencilIncidence(const std::vector<gpu::FixedAngleConstraint>& terms,
                                 std::uint32_t vertices) {
    return incidence<4>(terms, vertices, [](const gpu::FixedAngleConstraint& t) {
        return std::array<std::uint32_t, 4>{t.v0, t.v1, t.v2, t.v3};
    });
}

SpringIncidence stencilIncidence(const std::vector<gpu::PdBend>& terms, std::uint32_t vertices) {
    return incidence<4>(terms, vertices, [](const gpu::PdBend& t) {
        return std::array<std::uint32_t, 4>{t.v0, t.v1, t.v2, t.v3};
    });
}

std::vector<std::uint32_t> springAttachmentOf(const PreparedCloth& p) {
    std::vector<std::uint32_t> of(p.originalVertexCount, kNoSpringAttachment);
    for (std::uint32_t i = 0; i < p.attachments.size(); ++i) {
        const std::uint32_t v = p.attachments[i].vertex;
        if (v >= of.size()) throw Error("attachment " + std::to_string(i) + ": vertex out of range");
        if (of[v] != kNoSpringAttachment)
            throw Error("model " + std::string(clothModelName(p.sim.model)) + ": vertex " +
                        std::to_string(v) + " has two attachments; this model runs one per vertex");
        of[v] = i;
    }
    return of;
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
