// --export-obj DIR: an OBJ sequence, DIR/frame_NNNN.obj for frames 0, K, 2K, ... (K =
// --export-every). Each file holds one `o` per cloth, named after the scene's cloth, with its
// positions, UVs (when its mesh has them), area-weighted normals and triangles in the scene's
// topology as loaded (app/export_scene.h), so that every frame has the same objects and faces;
// with --export-colliders one more `o` per collider, placed where the physics had it that frame.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/export_scene.h"
#include "prep/prepared.h"

namespace cloth {

class ObjExporter {
  public:
    // Creates DIR (cloth::Error when it cannot). An empty `dir` exports nothing.
    ObjExporter(std::string dir, int every, const PreparedCloth& prepared, bool colliders = false);
    bool wants(int frame) const { return !dir_.empty() && frame % every_ == 0; }
    // `positions`: every vertex of `prepared` (phantoms included); `time`: the simulated time,
    // which places the colliders. Frame 0 (a run that starts, or starts again) reads the scene's
    // objects from `prepared` again.
    void write(int frame, const std::vector<glm::vec4>& positions, double time = 0.0);

  private:
    std::string dir_;
    int every_;
    bool colliders_;
    const PreparedCloth& prepared_;  // replaced in place by sewing and by a new scene
    ExportScene scene_;
    ExportScene::Frame frame_;
};

}  // namespace cloth
