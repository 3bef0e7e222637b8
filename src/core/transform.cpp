// Transform matrix, names of the scene enums, and building a cloth's mesh.
#include <charconv>
#include <glm/gtc/matrix_transform.hpp>

#include "core/error.h"
#include "core/scene.h"

namespace cloth {

glm::mat4 Transform::matrix() const {
    glm::mat4 m = glm::translate(glm::mat4(1.0f), translate);
    m = glm::rotate(m, glm::radians(rotateDegrees.z), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(rotateDegrees.y), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(rotateDegrees.x), glm::vec3(1, 0, 0));
    return glm::scale(m, glm::vec3(scale));
}

const char* solverModeName(SolverMode m) {
    return m == SolverMode::Pbd ? "pbd" : "xpbd";
}

SolverMode parseSolverMode(const std::string& name) {
    if (name == "xpbd") return SolverMode::Xpbd;
    if (name == "pbd") return SolverMode::Pbd;
    throw Error("unknown solver mode '" + name + "' (expected xpbd or pbd)");
}

const char* iterationSchemeName(IterationScheme s) {
    switch (s) {
        case IterationScheme::Jacobi:
            return "jacobi";
        case IterationScheme::Chebyshev:
            return "chebyshev";
        default:
            return "gs";
    }
}

IterationScheme parseIterationScheme(const std::string& name) {
    if (name == "gs") return IterationScheme::GaussSeidel;
    if (name == "jacobi") return IterationScheme::Jacobi;
    if (name == "chebyshev") return IterationScheme::Chebyshev;
    throw Error("unknown iteration scheme '" + name + "' (expected gs, jacobi or chebyshev)");
}

void checkIterationSettings(const IterationSettings& s, const std::string& whereText) {
    const std::string where = whereText.empty() ? std::string() : whereText + ": ";
    if (!(s.relaxation > 0.0f && s.relaxation < 2.0f))
        throw Error(where + "relaxation " + std::to_string(s.relaxation) +
                    " is outside (0, 2), where a relaxed Jacobi step can converge");
    if (!(s.rho >= 0.0f && s.rho < 1.0f))
        throw Error(where + "rho " + std::to_string(s.rho) +
                    " is outside [0, 1) (a spectral radius of a convergent iteration)");
    if (s.warmup < 1)
        throw Error(where + "warmup " + std::to_string(s.warmup) +
                    " must be at least 1 (the first iteration has no previous one)");
    if (s.warmup > 1000000)
        throw Error(where + "warmup " + std::to_string(s.warmup) +
                    " is beyond any iteration count (at most 1000000)");
}

const char* selfContactOrderName(SelfCollisionSettings::Order o) {
    switch (o) {
        case SelfCollisionSettings::Order::Vertex:
            return "vertex";
        case SelfCollisionSettings::Order::Jacobi:
            return "jacobi";
        case SelfCollisionSettings::Order::Sequential:
            return "sequential";
    }
    return "?";
}

SelfCollisionSettings::Order parseSelfContactOrder(const std::string& name) {
    if (name == "vertex") return SelfCollisionSettings::Order::Vertex;
    if (name == "jacobi") return SelfCollisionSettings::Order::Jacobi;
    if (name == "sequential") return SelfCollisionSettings::Order::Sequential;
    if (name == "colored")
        throw Error("self-contact order 'colored' (contacts coloured every substep) was replaced "
                    "by 'vertex', the default (expected vertex, jacobi or sequential)");
    throw Error("unknown self-contact order '" + name +
                "' (expected vertex, jacobi or sequential)");
}

const char* selfDetectionName(SelfCollisionSettings::Detection d) {
    switch (d) {
        case SelfCollisionSettings::Detection::EverySubstep:
            return "every_substep";
        case SelfCollisionSettings::Detection::Bounded:
            return "bounded";
    }
    return "?";
}

SelfCollisionSettings::Detection parseSelfDetection(const std::string& name) {
    if (name == "every_substep") return SelfCollisionSettings::Detection::EverySubstep;
    if (name == "bounded") return SelfCollisionSettings::Detection::Bounded;
    throw Error("unknown self-collision detection '" + name +
                "' (expected every_substep or bounded)");
}

const char* motionTypeName(MotionType t) {
    switch (t) {
        case MotionType::Static:
            return "static";
        case MotionType::Circle:
            return "circle";
        case MotionType::Linear:
            return "linear";
        case MotionType::Oscillate:
            return "oscillate";
        case MotionType::Rotate:
            return "rotate";
    }
    return "?";
}

MotionType parseMotionType(const std::string& name) {
    for (MotionType t :
         {MotionType::Static, MotionType::Circle, MotionType::Linear, MotionType::Oscillate,
          MotionType::Rotate})
        if (name == motionTypeName(t)) return t;
    throw Error("unknown motion type '" + name +
                "' (expected static, circle, linear, oscillate or rotate)");
}

const char* colliderShapeName(ColliderShape s) {
    switch (s) {
        case ColliderShape::Plane:
            return "plane";
        case ColliderShape::Sphere:
            return "sphere";
        case ColliderShape::Capsule:
            return "capsule";
        case ColliderShape::Box:
            return "box";
        case ColliderShape::Mesh:
            return "mesh";
    }
    return "?";
}

ColliderShape parseColliderShape(const std::string& name) {
    for (ColliderShape s : {ColliderShape::Plane, ColliderShape::Sphere, ColliderShape::Capsule,
                            ColliderShape::Box, ColliderShape::Mesh})
        if (name == colliderShapeName(s)) return s;
    throw Error("unknown collider shape '" + name +
                "' (expected plane, sphere, capsule, box or mesh)");
}

const char* stretchModelName(StretchModel m) {
    return m == StretchModel::Stvk ? "stvk" : "distance";
}

StretchModel parseStretchModel(const std::string& name) {
    for (StretchModel m : {StretchModel::Distance, StretchModel::Stvk})
        if (name == stretchModelName(m)) return m;
    throw Error("unknown stretch model '" + name + "' (expected distance or stvk)");
}

const char* bendModelName(BendModel m) {
    return m == BendModel::Isometric ? "isometric" : "dihedral";
}

BendModel parseBendModel(const std::string& name) {
    for (BendModel m : {BendModel::Dihedral, BendModel::Isometric})
        if (name == bendModelName(m)) return m;
    throw Error("unknown bending model '" + name + "' (expected dihedral or isometric)");
}

PhantomSetting parsePhantomSetting(const std::string& text) {
    if (text == "off") return {PhantomMode::Off, 0};
    if (text == "auto") return {PhantomMode::Auto, 0};
    std::uint32_t n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || ptr != text.data() + text.size() || n == 0 || text.empty())
        throw Error("bad phantom setting '" + text +
                    "' (expected off, auto or a positive number of colours)");
    return {PhantomMode::Target, n};
}

Mesh buildClothMesh(const ClothDesc& cloth) {
    const std::string who = "cloth '" + cloth.name + "'";
    if (cloth.grid && !cloth.objPath.empty())
        throw Error(who + ": has both a grid and a mesh file (give one)");
    if (cloth.grid) {
        try {
            return makeGrid(*cloth.grid);  // valid by construction
        } catch (const Error& e) {
            throw Error(who + ": " + e.what());
        }
    }
    if (cloth.objPath.empty()) throw Error(who + ": has neither a grid nor a mesh file");
    return loadObj(cloth.objPath);
}

}  // namespace cloth
