#include "app/export_obj.h"

#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/mesh.h"

namespace cloth {

ObjExporter::ObjExporter(std::string dir, int every, const PreparedCloth& prepared, bool colliders)
    : dir_(std::move(dir)), every_(every), colliders_(colliders), prepared_(prepared) {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec || !std::filesystem::is_directory(dir_))
        throw Error("--export-obj " + dir_ + ": cannot create directory" +
                    (ec ? " (" + ec.message() + ")" : ""));
    scene_ = makeExportScene(prepared_, colliders_);
}

void ObjExporter::write(int frame, const std::vector<glm::vec4>& positions, double time) {
    if (frame == 0) scene_ = makeExportScene(prepared_, colliders_);
    scene_.frame(prepared_, positions, frame_);
    std::vector<ObjObject> objects;
    for (std::size_t i = 0; i < scene_.cloths.size(); ++i) {
        const ExportCloth& c = scene_.cloths[i];
        objects.push_back({c.name, frame_.positions[i], c.uvs, frame_.normals[i], c.triangles});
    }
    std::vector<std::vector<glm::vec3>> placed(2 * scene_.colliders.size());
    for (std::size_t i = 0; i < scene_.colliders.size(); ++i) {
        const ExportCollider& c = scene_.colliders[i];
        const ExportPose pose = exportPose(c.collider, time);
        std::vector<glm::vec3>&x = placed[2 * i], &n = placed[2 * i + 1];
        for (const glm::vec3& p : c.positions) x.push_back(pose.point(p));
        for (const glm::vec3& d : c.normals) n.push_back(glm::normalize(pose.axes * d));
        objects.push_back({c.name, x, {}, n, c.triangles});
    }
    // Numbered from the scene's start frame (core/frame_rate.h): frame 0 is start_frame.
    char name[40];
    std::snprintf(name, sizeof name, "frame_%04lld.obj",
                  static_cast<long long>(prepared_.sim.startFrame) + frame);
    saveObjObjects((std::filesystem::path(dir_) / name).string(), objects);
}

}  // namespace cloth
