#include "app/metrics.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sim/schedule.h"

namespace cloth {

namespace {

using glm::dvec3;

dvec3 at(const std::vector<glm::vec4>& x, std::uint32_t i) { return dvec3(glm::vec3(x[i])); }

struct Sums {
    double r2 = 0.0, rMax = 0.0;
    std::size_t components = 0;
    double energy = 0.0;
    void residual(double r) {
        r2 += r * r;
        rMax = std::max(rMax, std::abs(r));
        ++components;
    }
};

// Signed dihedral angle of the hinge x0 -> x1 with opposite vertices x2 (of (x0, x1, x2)) and
// x3 (of (x1, x0, x3)), as bending.h defines it; false for a degenerate triangle.
bool hingeAngle(dvec3 x0, dvec3 x1, dvec3 x2, dvec3 x3, double& angle) {
    const dvec3 e = x1 - x0;
    const dvec3 n1 = glm::cross(x2 - x0, x2 - x1);
    const dvec3 n2 = glm::cross(x3 - x1, x3 - x0);
    const double el = glm::length(e);
    if (!(el > 0.0) || !(glm::length(n1) > 0.0) || !(glm::length(n2) > 0.0)) return false;
    angle = std::atan2(glm::dot(glm::cross(n1, n2), e), glm::dot(n1, n2) * el);
    return true;
}

double wrapped(double a) {
    constexpr double pi = 3.14159265358979323846;
    while (a > pi) a -= 2.0 * pi;
    while (a <= -pi) a += 2.0 * pi;
    return a;
}

// A scalar constraint with compliance `alpha` (XPBD) or a stiffness (PBD).
void scalar(Sums& s, double C, double alpha, double lambda, double invDt2, bool xpbd) {
    s.residual(xpbd ? C + alpha * invDt2 * lambda : C);
    if (xpbd && alpha > 0.0) s.energy += 0.5 * C * C / alpha;
}

}  // namespace

FrameMetrics computeMetrics(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                            const std::vector<glm::vec4>& v, const TypeMultipliers& lambdas) {
    CLOTH_ASSERT(x.size() == p.positions.size() && v.size() == p.positions.size());
    // The XPBD residual and energy need the multipliers and compliances: the mass-spring model
    // has neither (its residual is C, as PBD's; its elastic energy its springs', below).
    const bool xpbd = p.sim.mode == SolverMode::Xpbd && p.sim.model == ClothModel::Xpbd;
    const double dt = substepDt(p.timing);
    const double invDt2 = 1.0 / (dt * dt);
    FrameMetrics m;
    Sums s;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        using Item = typename T::Item;
        const std::vector<Item>& items = p.items<Item>();
        const std::vector<glm::vec4>& lam = lambdas[T::kIndex];
        CLOTH_ASSERT(!xpbd || lam.size() == items.size());
        for (std::size_t k = 0; k < items.size(); ++k) {
            const Item& c = items[k];
            const glm::dvec4 l = xpbd ? glm::dvec4(lam[k]) : glm::dvec4(0.0);
            if constexpr (std::is_same_v<Item, gpu::DistanceConstraint>) {
                const double len = glm::length(at(x, c.v0) - at(x, c.v1));
                const double C = len - double(c.restLength);
                scalar(s, C, c.param, l.x, invDt2, xpbd);
                m.residualStrain += C * C;
            } else if constexpr (std::is_same_v<Item, gpu::BendingConstraint> ||
                                 std::is_same_v<Item, gpu::FixedAngleConstraint>) {
                double angle = 0.0;
                if (!hingeAngle(at(x, c.v0), at(x, c.v1), at(x, c.v2), at(x, c.v3), angle))
                    continue;  // degenerate: the solver skips it too
                double target;
                if constexpr (std::is_same_v<Item, gpu::BendingConstraint>)
                    target = c.restAngle;
                else
                    target = c.targetAngle;
                scalar(s, wrapped(angle - target), c.param, l.x, invDt2, xpbd);
            } else if constexpr (std::is_same_v<Item, gpu::StvkConstraint>) {
                const dvec3 x0 = at(x, c.v0);
                const dvec3 e1 = at(x, c.v1) - x0, e2 = at(x, c.v2) - x0;
                const glm::dvec4 b(c.invRest);
                const dvec3 fu = e1 * b.x + e2 * b.y, fv = e1 * b.z + e2 * b.w;
                const dvec3 C(0.5 * (glm::dot(fu, fu) - 1.0), 0.5 * (glm::dot(fv, fv) - 1.0),
                              glm::dot(fu, fv));
                const dvec3 d(glm::vec3(c.complianceDiag)), o(glm::vec3(c.complianceOff));
                const glm::dmat3 alpha(d.x, o.x, o.y, o.x, d.y, o.z, o.y, o.z, d.z);
                const dvec3 r = xpbd ? C + invDt2 * (alpha * dvec3(l)) : C;
                for (int i = 0; i < 3; ++i) s.residual(r[i]);
                if (xpbd && glm::determinant(alpha) > 0.0)
                    s.energy += 0.5 * glm::dot(C, glm::inverse(alpha) * C);
            } else if constexpr (std::is_same_v<Item, gpu::IsoBendingConstraint>) {
                const glm::dvec4 k(c.k);
                const dvec3 C = at(x, c.v0) * k.x + at(x, c.v1) * k.y + at(x, c.v2) * k.z +
                                at(x, c.v3) * k.w;
                const double alpha = c.compliance;
                const dvec3 r = xpbd ? C + (alpha * invDt2) * dvec3(l) : C;
                for (int i = 0; i < 3; ++i) s.residual(r[i]);
                if (xpbd && alpha > 0.0) s.energy += 0.5 * glm::dot(C, C) / alpha;
            } else {
                static_assert(sizeof(Item) == 0, "a constraint type without metrics");
            }
        }
    });
    m.residualNorm = std::sqrt(s.r2);
    m.residualMax = s.rMax;
    m.residualComponents = s.components;
    if (xpbd) m.elasticEnergy = s.energy;
    const EdgeStretch stretch = edgeStretch(p, x);
    if (p.sim.model == ClothModel::MassSpring) {
        double energy = 0.0;
        for (const gpu::Spring& sp : p.springTerms.springs) {
            const double l = glm::length(dvec3(glm::vec3(x[sp.a])) - dvec3(glm::vec3(x[sp.b])));
            energy += 0.5 * double(sp.stiffness) * (l - sp.rest) * (l - sp.rest);
        }
        m.elasticEnergy = energy;
    }
    if (p.sim.model == ClothModel::Projective) {
        // Projective dynamics' own energy: each term at its projection (kernels/projective.h).
        double energy = 0.0;
        for (const gpu::PdTriangle& t : p.pdTerms.triangles) {
            const glm::vec3 x0(x[t.v0]), x1(x[t.v1]), x2(x[t.v2]);
            glm::vec3 ru, rv;
            gpu::pdProjectTriangle(x0, x1, x2, t.invRest, t.stiffness, ru, rv);
            energy += gpu::pdTriangleEnergy(x0, x1, x2, t.invRest, t.stiffness, t.area, ru, rv);
        }
        for (const gpu::PdBend& b : p.pdTerms.bends) {
            const glm::vec3 q[4] = {glm::vec3(x[b.v0]), glm::vec3(x[b.v1]), glm::vec3(x[b.v2]),
                                    glm::vec3(x[b.v3])};
            const glm::vec3 c = q[0] * b.k.x + q[1] * b.k.y + q[2] * b.k.z + q[3] * b.k.w;
            const glm::vec3 d = c - gpu::pdProjectBend(q[0], q[1], q[2], q[3], b);
            energy += 0.5 * double(b.weight) * double(glm::dot(d, d));
        }
        m.elasticEnergy = energy;
    }
    m.maxStretch = stretch.largest;
    m.meanStretch = stretch.mean;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!(x[i].w > 0.0f)) continue;
        const dvec3 vi(glm::vec3(v[i]));
        m.kineticEnergy += 0.5 * glm::dot(vi, vi) / double(x[i].w);
    }
    return m;
}

FrameMetrics measureFrame(const PreparedCloth& p, Solver& solver,
                          std::vector<glm::vec4>* positions) {
    std::vector<glm::vec4> x, v;
    TypeMultipliers lambdas;
    // XPBD's residual holds its multipliers; PBD and the mass-spring model have none, and their
    // residual is the constraints' value C (the strain of the XPBD constraints the scene defines).
    const bool multipliers = p.sim.mode == SolverMode::Xpbd && p.sim.model == ClothModel::Xpbd;
    solver.readState(x, v, multipliers ? lambdas.data() : nullptr);
    x.resize(p.positions.size());
    v.resize(p.positions.size());
    FrameMetrics m = computeMetrics(p, x, v, lambdas);
    if (positions) *positions = std::move(x);
    return m;
}

MetricsWriter::MetricsWriter(std::string path) : path_(std::move(path)) {
    auto endsWith = [&](const char* ext) {
        const std::string e(ext);
        return path_.size() > e.size() && path_.compare(path_.size() - e.size(), e.size(), e) == 0;
    };
    if (endsWith(".json"))
        json_ = true;
    else if (!endsWith(".csv"))
        throw Error("--metrics: '" + path_ + "' must end in .csv or .json");
}

void MetricsWriter::add(int frame, double time, const FrameMetrics& m) {
    rows_.push_back({frame, time, m});
}

void MetricsWriter::write(const std::string& sceneName) const {
    std::ofstream out(path_);
    if (!out) throw Error("--metrics: cannot write '" + path_ + "'");
    static const char* kColumns[] = {"frame",          "time",        "residual_l2",
                                     "residual_max",   "residual_strain", "elastic_energy",
                                     "max_stretch",    "mean_stretch", "kinetic_energy"};
    if (json_) {
        nlohmann::json j;
        j["scene"] = sceneName;
        j["frames"] = nlohmann::json::array();
        for (const Row& r : rows_) {
            nlohmann::json f;
            f["frame"] = r.frame;
            f["time"] = r.time;
            f["residual_l2"] = r.m.residualNorm;
            f["residual_max"] = r.m.residualMax;
            f["residual_components"] = r.m.residualComponents;
            f["residual_strain"] = r.m.residualStrain;
            f["elastic_energy"] =
                r.m.elasticEnergy ? nlohmann::json(*r.m.elasticEnergy) : nlohmann::json(nullptr);
            f["max_stretch"] = r.m.maxStretch;
            f["mean_stretch"] = r.m.meanStretch;
            f["kinetic_energy"] = r.m.kineticEnergy;
            j["frames"].push_back(std::move(f));
        }
        out << j.dump(1) << "\n";
    } else {
        for (std::size_t c = 0; c < std::size(kColumns); ++c)
            out << (c ? "," : "") << kColumns[c];
        out << "\n";
        char line[512];
        for (const Row& r : rows_) {
            char energy[32] = "";  // empty in PBD mode
            if (r.m.elasticEnergy) std::snprintf(energy, sizeof energy, "%.9g", *r.m.elasticEnergy);
            std::snprintf(line, sizeof line, "%d,%.9g,%.9g,%.9g,%.9g,%s,%.9g,%.9g,%.9g\n", r.frame,
                          r.time, r.m.residualNorm, r.m.residualMax, r.m.residualStrain, energy,
                          r.m.maxStretch, r.m.meanStretch, r.m.kineticEnergy);
            out << line;
        }
    }
    out.flush();
    if (!out) throw Error("--metrics: cannot write '" + path_ + "'");
}

}  // namespace cloth
