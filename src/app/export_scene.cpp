#include "app/export_scene.h"

#include "core/error.h"
#include "prep/sewing.h"
#include "render/collider_mesh.h"

namespace cloth {

namespace {

// The scene's surface as loaded: before any seam pair merged (sewing drops the triangles a merge
// collapses), so that every frame of a run has the same objects and faces.
const PreparedCloth& loadedSurface(const PreparedCloth& p) {
    return p.sewingBase ? p.sewingBase->uncoloured : p;
}

ExportCollider planeSquare() {
    const float h = kExportPlaneHalfExtent;
    ExportCollider c;
    c.positions = {{-h, 0.0f, -h}, {-h, 0.0f, h}, {h, 0.0f, h}, {h, 0.0f, -h}};
    c.normals.assign(4, glm::vec3(0.0f, 1.0f, 0.0f));
    c.triangles = {{0, 1, 2}, {0, 2, 3}};  // counter-clockwise seen from +y, the outside
    return c;
}

ExportCollider colliderSurface(const PreparedCloth& p, std::size_t i) {
    const gpu::Collider& c = p.colliders[i];
    if (c.shape == gpu::SHAPE_PLANE) return planeSquare();
    const glm::uvec2 range = p.colliderTriangles[i];
    const render::ColliderMesh mesh = render::colliderMesh(
        c, std::span<const gpu::MeshTriangle>(p.meshTriangles.data() + range.x, range.y - range.x));
    ExportCollider out;
    for (const gpu::ColliderVertex& v : mesh.vertices) {
        out.positions.emplace_back(v.position);
        out.normals.emplace_back(v.normal);
    }
    for (std::size_t k = 0; k + 2 < mesh.indices.size(); k += 3)
        out.triangles.emplace_back(mesh.indices[k], mesh.indices[k + 1], mesh.indices[k + 2]);
    return out;
}

}  // namespace

ExportScene makeExportScene(const PreparedCloth& p, bool colliders) {
    ExportScene s;
    const PreparedCloth& surface = loadedSurface(p);
    for (std::size_t i = 0; i < surface.cloths.size(); ++i) {
        const ClothInfo& info = surface.cloths[i];
        ExportCloth c;
        c.name = info.name.empty() ? "cloth" + std::to_string(i) : info.name;
        c.vertexBegin = info.vertexBegin;
        c.vertexCount = info.vertexEnd - info.vertexBegin;
        for (std::uint32_t t = info.triangleBegin; t < info.triangleEnd; ++t) {
            const glm::uvec3 tri = surface.triangles[t] - glm::uvec3(info.vertexBegin);
            CLOTH_ASSERT(tri.x < c.vertexCount && tri.y < c.vertexCount && tri.z < c.vertexCount);
            c.triangles.push_back(tri);
        }
        if (info.hasUvs)
            c.uvs.assign(surface.uvs.begin() + info.vertexBegin,
                         surface.uvs.begin() + info.vertexEnd);
        s.cloths.push_back(std::move(c));
    }
    if (!colliders) return s;
    for (std::size_t i = 0; i < p.colliders.size(); ++i) {
        ExportCollider c = colliderSurface(p, i);
        c.name = i < p.colliderNames.size() && !p.colliderNames[i].empty()
                     ? p.colliderNames[i]
                     : "collider" + std::to_string(i);
        c.collider = p.colliders[i];
        s.colliders.push_back(std::move(c));
    }
    return s;
}

void ExportScene::frame(const PreparedCloth& p, const std::vector<glm::vec4>& positions,
                        Frame& out) const {
    out.positions.resize(cloths.size());
    out.normals.resize(cloths.size());
    for (std::size_t i = 0; i < cloths.size(); ++i) {
        const ExportCloth& c = cloths[i];
        std::vector<glm::vec3>& x = out.positions[i];
        x.resize(c.vertexCount);
        for (std::uint32_t v = 0; v < c.vertexCount; ++v) {
            const std::uint32_t g = c.vertexBegin + v;
            CLOTH_ASSERT(g < p.originalVertexCount);
            x[v] = glm::vec3(positions[p.shownAt.empty() ? g : p.shownAt[g]]);
        }
        vertexNormals(x, c.triangles, out.normals[i]);
    }
}

void vertexNormals(std::span<const glm::vec3> positions, std::span<const glm::uvec3> triangles,
                   std::vector<glm::vec3>& out) {
    out.assign(positions.size(), glm::vec3(0.0f));
    for (const glm::uvec3& t : triangles) {
        const glm::vec3 a = positions[t.x], b = positions[t.y], c = positions[t.z];
        const glm::vec3 n = glm::cross(b - a, c - a);  // twice the area times the unit normal
        out[t.x] += n;
        out[t.y] += n;
        out[t.z] += n;
    }
    for (glm::vec3& n : out) {
        const float len = glm::length(n);
        n = len > 0.0f ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
    }
}

ExportPose exportPose(const gpu::Collider& c, double time) {
    const gpu::ColliderPose pose = gpu::colliderPose(c, float(time));
    return {glm::mat3(pose.ax, pose.ay, pose.az), pose.origin};
}

glm::quat ExportPose::rotation() const {
    return glm::normalize(glm::quat_cast(axes));
}

}  // namespace cloth
