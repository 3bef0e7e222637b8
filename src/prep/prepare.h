// Load-time preparation: scene -> PreparedCloth (masses, constraints, colouring, phantoms).
#pragma once

#include "core/scene.h"
#include "prep/prepared.h"

namespace cloth {

struct PrepareOptions {
    PhantomSetting phantoms;  // overrides the scene's setting when set by the caller
};

// Builds meshes, lumps masses, applies pins, attachments and tethers, creates the distance and
// bending constraints, colours them and packs them by colour. Throws cloth::Error for bad input.
PreparedCloth prepareScene(const Scene& scene, const PrepareOptions& options);

}  // namespace cloth
