// The interface both backends implement. A solver is built from a PreparedCloth and advances it
// one frame (1/60 s) at a time:
//   for each substep:  predict
//                      for each iteration:  for each colour: distance batch, bending batch
//                                           attachments, tethers, grab, phantom averaging
//                      velocity update (+ linear damping), rigid-preserving damping
//   then vertex normals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace cloth {

// Stage names, in frame order; stageTimes() reports them in this order.
inline constexpr const char* kStageNames[] = {"predict",    "distance", "bending",
                                              "attachments", "tethers", "phantoms",
                                              "velocities", "damping",  "normals"};
inline constexpr int kStageCount = 9;

struct StageTime {
    std::string name;
    double ms = 0.0;
};

// Mouse grab: a hard attachment pulling `vertex` (and its phantom copies) to `target` in every
// iteration, after the attachments and tethers (so it wins over both), until cleared.
struct Grab {
    std::uint32_t vertex = 0;
    glm::vec3 target{0.0f};
};

class Solver {
public:
    virtual ~Solver() = default;

    virtual const char* backendName() const = 0;  // "cpu" | "gpu"
    virtual std::string deviceName() const = 0;   // CPU model or GPU name
    virtual int threadCount() const = 0;          // CPU worker threads (1 for the GPU)

    virtual void stepFrame() = 0;
    virtual double simTime() const = 0;  // seconds simulated so far

    // All vertices, phantoms included, in PreparedCloth order.
    virtual void readPositions(std::vector<glm::vec4>& out) = 0;
    virtual void readVelocities(std::vector<glm::vec4>& out) = 0;
    // Unit normals of the original vertices, as of the last stepFrame().
    virtual void readNormals(std::vector<glm::vec4>& out) = 0;

    // Milliseconds per stage of the most recent frame, in kStageNames order.
    virtual std::vector<StageTime> stageTimes() const = 0;

    virtual void setGrab(std::optional<Grab> grab) = 0;
};

}  // namespace cloth
