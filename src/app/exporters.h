// The exports a run writes (--export-obj, --export-gltf, with --export-every and
// --export-colliders), the same in every mode: the plain headless run (app/simulation.h), the
// rendered headless run and the window (app/viewer_outputs.h). docs/export.md describes them.
#pragma once

#include <iosfwd>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "app/export_gltf.h"
#include "app/export_obj.h"
#include "app/options.h"
#include "prep/prepared.h"

namespace cloth {

class Exporters {
  public:
    // Creates the OBJ directory and checks the glTF file's folder and size before the run
    // (cloth::Error when they are bad). `prepared` is read at every frame 0 and every write; it
    // may be replaced in place (sewing, another scene). `frames`: the run's length, if known.
    Exporters(const Options& options, const PreparedCloth& prepared, std::optional<int> frames);
    bool wants(int frame) const { return obj_.wants(frame) || gltf_.wants(frame); }
    // Frame `frame` at simulated time `time`; `positions`: every vertex, phantoms included.
    void write(int frame, const std::vector<glm::vec4>& positions, double time);
    // Writes the glTF file, if one was asked for, and says so on `out`.
    void finish(std::ostream& out);

  private:
    ObjExporter obj_;
    GltfExporter gltf_;
};

}  // namespace cloth
