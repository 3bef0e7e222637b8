#include "prep/cloth_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kernels/constraints.h"
#include "core/error.h"
#include "core/frame_rate.h"
#include "core/limits.h"
#include "prep/continuum.h"
#include "prep/hinge_bending.h"
#include "prep/motion.h"
#include "prep/nearest.h"
#include "prep/prepare.h"
#include "prep/rest_shape.h"

namespace cloth {

namespace {

std::string clothSource(const ClothDesc& desc, std::uint32_t index) {
    std::string s = "cloth " + std::to_string(index);
    if (!desc.name.empty()) s += " '" + desc.name + "'";
    if (!desc.objPath.empty()) s += " (" + desc.objPath + ")";
    return s;
}

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void requireRange(float value, float lo, float hi, const std::string& source, const char* what) {
    if (!(value >= lo && value <= hi))
        throw Error(source + ": " + what + " = " + shortNumber(value) + " is out of range [" +
                    shortNumber(lo) + ", " + shortNumber(hi) + "]");
}

// Every vertex after the transform within the sane range (core/limits.h): 1e38 coordinates or a
// 1e30 scale would overflow the solver's float arithmetic at the first step.
void checkWorldPositions(const std::vector<glm::vec3>& world, const std::string& source) {
    for (std::size_t v = 0; v < world.size(); ++v)
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(world[v][k]) <= limits::kMaxCoordinate))
                throw Error(source + ": vertex " + std::to_string(v) + " lies at " +
                            shortNumber(world[v][k]) + " m after the transform, beyond the sane " +
                            "range of positions (at most 10000 m from the origin on each axis)");
}

// A free vertex needs a mass the solver can invert: zero or subnormal masses (a density of
// 1e-45, a scale of 1e-15) would otherwise freeze it as if pinned.
void checkMasses(const std::vector<float>& mass, const std::vector<bool>& pinned,
                 const std::string& source) {
    for (std::size_t v = 0; v < mass.size(); ++v)
        if (!pinned[v] && !(mass[v] >= std::numeric_limits<float>::min() && std::isfinite(mass[v])))
            throw Error(source + ": vertex " + std::to_string(v) + " has a mass of " +
                        shortNumber(mass[v]) + " kg, too small to simulate (density times " +
                        "triangle area underflows): raise the density or the scale");
}

void validateMaterial(const Material& m, const std::string& source) {
    const float inf = INFINITY;
    if (!(m.density > 0.0f) || !std::isfinite(m.density))
        throw Error(source + ": density must be positive and finite");
    requireRange(m.density, limits::kMinDensity, limits::kMaxDensity, source, "density (kg/m^2)");
    requireRange(m.stretchCompliance, 0.0f, limits::kMaxCompliance, source, "stretch compliance");
    if (m.bendCompliance)
        requireRange(*m.bendCompliance, 0.0f, limits::kMaxCompliance, source, "bend compliance");
    requireRange(m.stretchStiffness, 0.0f, 1.0f, source, "stretch stiffness");
    requireRange(m.bendStiffness, 0.0f, 1.0f, source, "bend stiffness");
    requireRange(m.linearDamping, 0.0f, inf, source, "linear damping");
    requireRange(m.rigidDamping, 0.0f, 1.0f, source, "rigid damping");
    if (m.stretchModel == StretchModel::Stvk) validateOrthotropic(m.membrane, source + ": membrane");
    requireRange(m.bendRigidity, limits::kMinBendRigidity, limits::kMaxBendRigidity, source,
                 "bend rigidity (N m)");
    if (m.bendRigidityWarp)
        requireRange(*m.bendRigidityWarp, limits::kMinBendRigidity, limits::kMaxBendRigidity,
                     source, "warp bend rigidity (N m)");
    requireRange(m.weftAngleDegrees, -1e6f, 1e6f, source, "weft angle");
}

std::vector<glm::vec3> transformed(const std::vector<glm::vec3>& positions, const glm::mat4& m) {
    std::vector<glm::vec3> out;
    out.reserve(positions.size());
    for (const glm::vec3& p : positions) out.emplace_back(m * glm::vec4(p, 1.0f));
    return out;
}

// kinematic: pinned or held by a hard attachment (compliance 0, or any attachment in PBD mode),
// a vertex no force moves: the tethers' anchors. A compliant attachment's vertex moves under its
// spring and the cloth, so it is tethered like any free vertex, never an anchor.
struct VertexRoles {
    std::vector<bool> pinned, attached, kinematic;
};

// Pins and attachments (mesh-space selections) -> roles, attachments and motions.
VertexRoles applyPinsAndAttachments(const ClothDesc& desc, const Mesh& mesh,
                                    const std::vector<glm::vec3>& world, std::uint32_t base,
                                    bool pbdMode, const std::string& source, PreparedCloth& out) {
    const std::size_t n = mesh.positions.size();
    VertexRoles roles{std::vector<bool>(n, false), std::vector<bool>(n, false),
                      std::vector<bool>(n, false)};
    // A selection that picks nothing is an error here too: scene files check it when read, but
    // not on very large grids, and --mesh puts a scene's selections on another mesh.
    auto select = [&](const VertexSelection& sel, const std::string& where) {
        std::vector<std::uint32_t> picked = selectVertices(mesh, sel, where);
        if (!sel.empty() && picked.empty())
            throw Error(where + ": selects no vertices of the mesh");
        return picked;
    };
    for (std::uint32_t v : select(desc.pins, source + " pins")) roles.pinned[v] = roles.kinematic[v] = true;
    for (std::size_t a = 0; a < desc.attachments.size(); ++a) {
        const AttachmentDesc& ad = desc.attachments[a];
        const std::string where = source + " attachment " + std::to_string(a);
        requireRange(ad.compliance, 0.0f, INFINITY, where, "compliance");
        const bool rotate = ad.motion.type == MotionType::Rotate;  // one circle per vertex
        const auto motionIndex = static_cast<std::uint32_t>(out.motions.size());
        if (!rotate) out.motions.push_back(makeMotion(ad.motion, where));
        for (std::uint32_t v : select(ad.vertices, where)) {
            if (roles.pinned[v])
                throw Error(where + ": vertex " + std::to_string(v) +
                            " is also pinned; a vertex is either pinned or attached");
            if (roles.attached[v])
                throw Error(where + ": vertex " + std::to_string(v) +
                            " is already attached; a vertex can have one attachment only");
            roles.attached[v] = true;
            roles.kinematic[v] = pbdMode || ad.compliance == 0.0f;
            gpu::Attachment at{};
            at.anchor = glm::vec4(world[v], 1.0f);
            at.vertex = base + v;
            at.motion = motionIndex;
            if (rotate) {
                at.motion = static_cast<std::uint32_t>(out.motions.size());
                out.motions.push_back(makeRotation(ad.motion, world[v], where));
            }
            at.param = pbdMode ? 1.0f : ad.compliance;
            out.attachments.push_back(at);
        }
    }
    return roles;
}

void addTethers(const ClothDesc& desc, const std::vector<glm::vec3>& world,
                const RestShapeData& rest, const std::vector<float>& invMass,
                const VertexRoles& roles, std::uint32_t base, const std::string& source,
                PreparedCloth& out) {
    requireRange(desc.tetherSlack, 0.0f, INFINITY, source, "tether slack");
    if (!desc.tethers) return;
    std::vector<std::uint32_t> anchors, dynamic;
    for (std::uint32_t v = 0; v < world.size(); ++v) {
        if (roles.kinematic[v])
            anchors.push_back(v);
        else if (invMass[v] > 0.0f)
            dynamic.push_back(v);
    }
    if (anchors.empty()) return;
    const std::vector<std::uint32_t> nearest = nearestAnchors(world, anchors, dynamic);
    for (std::size_t i = 0; i < dynamic.size(); ++i) {
        const std::uint32_t v = dynamic[i], a = nearest[i];
        gpu::Tether t{};
        t.vertex = base + v;
        t.anchor = base + a;
        float length = std::sqrt(squaredDistance(world[v], world[a]));
        if (rest.fromPattern)  // never shorter than the pattern (prep/rest_shape.h)
            length = std::max(length, glm::length(rest.vertexPoints[v] - rest.vertexPoints[a]));
        t.maxLength = length * (1.0f + desc.tetherSlack);
        out.tethers.push_back(t);
    }
}

// The weft direction on a triangle: the world direction of increasing u (from the mesh's UVs,
// else the cloth's transformed x axis), turned by the material's weft angle about the normal.
glm::vec3 weftOf(const glm::vec3 (&x)[3], const glm::vec2 (&uv)[3], bool haveUvs,
                 glm::vec3 fallback, float angleDegrees) {
    const glm::vec3 e1 = x[1] - x[0], e2 = x[2] - x[0];
    glm::vec3 weft = fallback;
    if (haveUvs) {
        const glm::vec2 d1 = uv[1] - uv[0], d2 = uv[2] - uv[0];
        const float det = d1.x * d2.y - d2.x * d1.y;
        if (std::abs(det) > 1e-12f) weft = (e1 * d2.y - e2 * d1.y) / det;  // dx/du
    }
    const glm::vec3 n = glm::cross(e1, e2);
    const float nl = glm::length(n);
    if (nl <= 0.0f || angleDegrees == 0.0f) return weft;
    const glm::vec3 axis = n / nl;
    const float a = glm::radians(angleDegrees);
    return weft * std::cos(a) + glm::cross(axis, weft) * std::sin(a) +
           axis * glm::dot(axis, weft) * (1.0f - std::cos(a));
}

void addStretch(const Mesh& mesh, const Topology& topo, const std::vector<glm::vec3>& world,
                const RestShapeData& rest, const glm::mat4& transform, const Material& mat,
                float param, std::uint32_t base, const std::string& source, PreparedCloth& out) {
    if (mat.stretchModel == StretchModel::Distance) {
        const std::vector<float> restLengths = restEdgeLengths(mesh, topo, rest, world);
        for (std::size_t i = 0; i < topo.edges.size(); ++i) {
            const glm::uvec2 e = topo.edges[i];
            gpu::DistanceConstraint c{};
            c.v0 = base + e.x;
            c.v1 = base + e.y;
            c.restLength = restLengths[i];
            c.param = param;
            out.items<gpu::DistanceConstraint>().push_back(c);
        }
        return;
    }
    const bool haveUvs = rest.fromPattern || mesh.uvs.size() == mesh.positions.size();
    const glm::vec3 fallback = glm::vec3(transform * glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3 tri = mesh.triangles[t];
        glm::vec3 x[3] = {world[tri.x], world[tri.y], world[tri.z]};
        glm::vec2 uv[3] = {};
        if (rest.fromPattern) {  // the pattern's corners, whose u runs along x (rest_shape.h)
            for (int k = 0; k < 3; ++k) {
                x[k] = rest.corners[t][k];
                uv[k] = glm::vec2(x[k].x, -x[k].y);
            }
        } else if (haveUvs) {
            uv[0] = mesh.uvs[tri.x], uv[1] = mesh.uvs[tri.y], uv[2] = mesh.uvs[tri.z];
        }
        const glm::vec3 weft = weftOf(x, uv, haveUvs, fallback, mat.weftAngleDegrees);
        StvkBuild b = makeStvk(x[0], x[1], x[2], weft, mat.membrane, param);
        if (!b.ok())
            throw Error(source + ": triangle " + std::to_string(t) + ": " + b.error);
        b.item.v0 = base + tri.x;
        b.item.v1 = base + tri.y;
        b.item.v2 = base + tri.z;
        out.items<gpu::StvkConstraint>().push_back(b.item);
    }
}

// The cloth's fixed angles by interior edge (index into topo.bendingPairs): target angle in
// bendingAngle's convention and param. An edge selected twice is an error.
struct FixedAngles {
    std::vector<bool> fixed;
    std::vector<float> target, param;
};

FixedAngles selectFixedAngles(const ClothDesc& desc, const Mesh& mesh, const Topology& topo,
                              bool pbd, int iterations, const std::string& source) {
    const std::size_t n = topo.bendingPairs.size();
    FixedAngles f{std::vector<bool>(n, false), std::vector<float>(n, 0.0f),
                  std::vector<float>(n, 0.0f)};
    for (std::size_t i = 0; i < desc.fixedAngles.size(); ++i) {
        const FixedAngleDesc& d = desc.fixedAngles[i];
        const std::string where = source + " fixed angle " + std::to_string(i);
        if (!(d.angleDegrees > -180.0f && d.angleDegrees < 180.0f))
            throw Error(where + ": angle = " + shortNumber(d.angleDegrees) +
                        " degrees must lie strictly between -180 and 180");
        requireRange(d.compliance, 0.0f, limits::kMaxCompliance, where, "compliance");
        requireRange(d.stiffness, 0.0f, 1.0f, where, "stiffness");
        const std::vector<std::uint32_t> edges = selectInteriorEdges(mesh, topo, d.edges, where);
        if (edges.empty()) throw Error(where + ": selects no interior edge of the mesh");
        for (std::uint32_t e : edges) {
            const BendingPair& p = topo.bendingPairs[e];
            if (f.fixed[e])
                throw Error(where + ": edge (" + std::to_string(p.v0) + ", " +
                            std::to_string(p.v1) + ") already has a fixed angle");
            f.fixed[e] = true;
            // Folding towards the normals' side makes bendingAngle negative (bending.h).
            f.target[e] = -glm::radians(d.angleDegrees);
            f.param[e] = pbd ? pbdIterationStiffness(d.stiffness, iterations) : d.compliance;
        }
    }
    return f;
}

// Each hinge's k (N m) from the material's bending rigidity (prep/hinge_bending.h), fixed
// angles' hinges included (they share their triangles' area with the others).
std::vector<double> hingeWeights(const Mesh& mesh, const Topology& topo,
                                 const std::vector<glm::vec3>& world, const RestShapeData& rest,
                                 const glm::mat4& transform, const Material& mat) {
    const double weft = mat.bendRigidity;
    const double warp = mat.bendRigidityWarp ? *mat.bendRigidityWarp : weft;
    const bool haveUvs = rest.fromPattern || mesh.uvs.size() == mesh.positions.size();
    const glm::vec3 fallback = glm::vec3(transform * glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    std::vector<HingeInput> hinges(topo.bendingPairs.size());
    for (std::size_t e = 0; e < topo.bendingPairs.size(); ++e) {
        const BendingPair& p = topo.bendingPairs[e];
        HingeInput& h = hinges[e];
        h.v0 = p.v0;
        h.v1 = p.v1;
        h.rest = restStencil(mesh, topo, rest, world, e);
        h.triangleA = triangleOf(mesh, topo, p.v0, p.v1, p.v2);
        h.triangleB = triangleOf(mesh, topo, p.v0, p.v1, p.v3);
        if (weft == warp) continue;
        const glm::uvec3 tri = mesh.triangles[h.triangleA];
        glm::vec3 x[3] = {world[tri.x], world[tri.y], world[tri.z]};
        glm::vec2 uv[3] = {};
        if (rest.fromPattern) {  // the pattern's corners, whose u runs along x (rest_shape.h)
            for (int k = 0; k < 3; ++k) {
                x[k] = rest.corners[h.triangleA][k];
                uv[k] = glm::vec2(x[k].x, -x[k].y);
            }
        } else if (haveUvs) {
            uv[0] = mesh.uvs[tri.x], uv[1] = mesh.uvs[tri.y], uv[2] = mesh.uvs[tri.z];
        }
        h.weft = weftOf(x, uv, haveUvs, fallback, mat.weftAngleDegrees);
    }
    std::vector<std::array<glm::vec3, 3>> corners(mesh.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3 tri = mesh.triangles[t];
        corners[t] = rest.fromPattern ? rest.corners[t]
                                      : std::array<glm::vec3, 3>{world[tri.x], world[tri.y], world[tri.z]};
    }
    return hingeBendWeights(hinges, mesh.triangles, corners, weft, warp);
}

void addBending(const Mesh& mesh, const Topology& topo, const std::vector<glm::vec3>& world,
                const RestShapeData& rest, const glm::mat4& transform, const Material& mat,
                float pbdParam, bool pbd, const FixedAngles& fixedAngles, std::uint32_t base,
                const std::string& source, PreparedCloth& out) {
    // XPBD without the expert override: each hinge's compliance from the rigidity.
    const bool derived =
        !pbd && (mat.bendModel == BendModel::Isometric || !mat.bendCompliance.has_value());
    const std::vector<double> k =
        derived ? hingeWeights(mesh, topo, world, rest, transform, mat) : std::vector<double>{};
    for (std::size_t e = 0; e < topo.bendingPairs.size(); ++e) {
        const BendingPair& p = topo.bendingPairs[e];
        if (fixedAngles.fixed[e]) {  // in place of the edge's bending constraint
            gpu::FixedAngleConstraint c{};
            c.v0 = base + p.v0;
            c.v1 = base + p.v1;
            c.v2 = base + p.v2;
            c.v3 = base + p.v3;
            c.targetAngle = fixedAngles.target[e];
            c.param = fixedAngles.param[e];
            out.items<gpu::FixedAngleConstraint>().push_back(c);
            continue;
        }
        const std::array<glm::vec3, 4> x = restStencil(mesh, topo, rest, world, e);
        if (derived && !(k[e] > 0.0))
            throw Error(source + ": bending hinge at edge (" + std::to_string(p.v0) + ", " +
                        std::to_string(p.v1) + ") is degenerate at rest");
        if (mat.bendModel == BendModel::Isometric) {
            // PBD: the weight only scales the compliance, which PBD does not read.
            IsoBendingBuild b = makeIsoBending(x[0], x[1], x[2], x[3], pbd ? 1.0 : k[e], pbdParam);
            if (!b.ok())
                throw Error(source + ": bending stencil at edge (" + std::to_string(p.v0) + ", " +
                            std::to_string(p.v1) + "): " + b.error);
            b.item.v0 = base + p.v0;
            b.item.v1 = base + p.v1;
            b.item.v2 = base + p.v2;
            b.item.v3 = base + p.v3;
            out.items<gpu::IsoBendingConstraint>().push_back(b.item);
            continue;
        }
        gpu::BendingConstraint c{};
        c.v0 = base + p.v0;
        c.v1 = base + p.v1;
        c.v2 = base + p.v2;
        c.v3 = base + p.v3;
        // A pattern is flat (rest_shape.h).
        c.restAngle = rest.fromPattern ? 0.0f : gpu::bendingAngle(x[0], x[1], x[2], x[3]);
        c.param = pbd ? pbdParam : derived ? float(1.0 / k[e]) : *mat.bendCompliance;
        out.items<gpu::BendingConstraint>().push_back(c);
    }
}

}  // namespace

std::array<std::uint64_t, gpu::kConstraintTypeCount> gridItemCounts(const ClothDesc& desc,
                                                                    std::uint64_t rx,
                                                                    std::uint64_t ry) {
    std::array<std::uint64_t, gpu::kConstraintTypeCount> n{};
    const std::uint64_t edges = rx * (ry + 1) + ry * (rx + 1) + rx * ry;
    if (desc.material.stretchModel == StretchModel::Distance)
        n[gpu::constraintTypeIndex<gpu::DistanceConstraint>] = edges;
    else
        n[gpu::constraintTypeIndex<gpu::StvkConstraint>] = 2 * rx * ry;
    const std::uint64_t interior = edges - 2 * (rx + ry);
    if (desc.material.bendModel == BendModel::Dihedral)
        n[gpu::constraintTypeIndex<gpu::BendingConstraint>] = interior;
    else
        n[gpu::constraintTypeIndex<gpu::IsoBendingConstraint>] = interior;
    return n;
}

std::vector<float> lumpMasses(const std::vector<glm::vec3>& positions,
                              const std::vector<glm::uvec3>& triangles, float density) {
    std::vector<float> mass(positions.size(), 0.0f);
    for (const glm::uvec3& t : triangles) {
        const float area = 0.5f * glm::length(glm::cross(positions[t.y] - positions[t.x],
                                                         positions[t.z] - positions[t.x]));
        const float third = density * area / 3.0f;
        mass[t.x] += third;
        mass[t.y] += third;
        mass[t.z] += third;
    }
    return mass;
}

std::vector<std::uint32_t> nearestAnchors(const std::vector<glm::vec3>& positions,
                                          const std::vector<std::uint32_t>& anchors,
                                          const std::vector<std::uint32_t>& dynamic) {
    std::vector<glm::vec3> anchorPoints;
    anchorPoints.reserve(anchors.size());
    for (std::uint32_t a : anchors) anchorPoints.push_back(positions[a]);
    const NearestPoint index(std::move(anchorPoints));
    std::vector<std::uint32_t> out;
    out.reserve(dynamic.size());
    // anchors ascend, so the lowest position in `anchors` is also the lowest vertex index.
    for (std::uint32_t v : dynamic) out.push_back(anchors[index.nearest(positions[v])]);
    return out;
}

void appendCloth(const ClothDesc& desc, std::uint32_t clothIndex, const SimSettings& sim,
                 PreparedCloth& out) {
    const std::string source = clothSource(desc, clothIndex);
    validateMaterial(desc.material, source);
    const Mesh mesh = buildClothMesh(desc);
    const Topology topo = buildTopology(mesh, source);
    const RestShapeData rest = restShapeOf(desc, mesh, source);
    requireRange(desc.transform.scale, limits::kMinScale, limits::kMaxScale, source,
                 "transform scale");
    const std::vector<glm::vec3> world = transformed(mesh.positions, desc.transform.matrix());
    checkWorldPositions(world, source);
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    const auto n = static_cast<std::uint32_t>(mesh.positions.size());

    const VertexRoles roles =
        applyPinsAndAttachments(desc, mesh, world, base, sim.mode == SolverMode::Pbd, source, out);
    const std::vector<float> mass = restMasses(mesh, rest, world, desc.material.density);
    checkMasses(mass, roles.pinned, source);
    std::vector<float> invMass(n);
    for (std::uint32_t v = 0; v < n; ++v)
        invMass[v] = roles.pinned[v] || mass[v] <= 0.0f ? 0.0f : 1.0f / mass[v];
    addTethers(desc, world, rest, invMass, roles, base, source, out);
    const Material& mat = desc.material;
    const bool pbd = sim.mode == SolverMode::Pbd;
    const float stretchParam =
        pbd ? pbdIterationStiffness(mat.stretchStiffness, sim.iterations) : mat.stretchCompliance;
    const float bendPbd = pbdIterationStiffness(mat.bendStiffness, sim.iterations);
    addStretch(mesh, topo, world, rest, desc.transform.matrix(), mat, stretchParam, base, source,
               out);
    const FixedAngles fixedAngles =
        selectFixedAngles(desc, mesh, topo, pbd, sim.iterations, source);
    addBending(mesh, topo, world, rest, desc.transform.matrix(), mat, bendPbd, pbd, fixedAngles,
               base, source, out);

    for (std::uint32_t v = 0; v < n; ++v) {
        out.positions.emplace_back(world[v], invMass[v]);
        out.velocities.emplace_back(0.0f);
        out.uvs.push_back(mesh.uvs.size() == n ? mesh.uvs[v] : glm::vec2(0.0f));
    }
    ClothInfo info;
    info.name = desc.name;
    info.vertexBegin = base;
    info.vertexEnd = base + n;
    info.hasUvs = mesh.uvs.size() == n;
    info.restFromPattern = rest.fromPattern;
    info.color = mat.color;
    info.triangleBegin = static_cast<std::uint32_t>(out.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const glm::uvec3 tri = mesh.triangles[t];
        out.triangles.push_back(tri + glm::uvec3(base));
        out.restCorners.push_back(rest.fromPattern
                                      ? rest.corners[t]
                                      : std::array<glm::vec3, 3>{world[tri.x], world[tri.y], world[tri.z]});
    }
    info.triangleEnd = static_cast<std::uint32_t>(out.triangles.size());
    out.cloths.push_back(info);

    gpu::ClothSegment seg{};
    seg.vertexBegin = base;
    seg.vertexEnd = base + n;
    seg.linearDamping = desc.material.linearDamping;
    seg.rigidDamping = rigidDampingPerSubstep(desc.material.rigidDamping, substepsPerSixtieth(sim));
    seg.thickness = desc.material.thickness;
    out.segments.push_back(seg);
}

}  // namespace cloth
