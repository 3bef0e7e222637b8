// Load-time preparation: scene -> PreparedCloth (masses, constraints, colouring, phantoms).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "core/scene.h"
#include "prep/phantoms.h"
#include "prep/prepared.h"

namespace cloth {

struct PrepareOptions {
    // Empty: use the scene's setting (Scene::phantoms). Set: replaces the scene's setting
    // whatever it is, Off included (so `--phantoms off` can switch off a scene's phantoms).
    std::optional<PhantomSetting> phantoms;
    // How the split is chosen (see phantoms.h); Repair measured fewer phantoms for the same
    // target on every mesh we tried.
    PhantomMethod phantomMethod = PhantomMethod::Repair;
    // The target used for PhantomMode::Auto when resolveAuto is empty.
    std::uint32_t autoTargetColors = 8;
    // PhantomMode::Auto: called once with the scene's original vertex count (all cloths) after the
    // meshes are built; returns what auto means here (Off or Target), e.g. the target clothbench
    // measured fastest on the device (app/phantom_tuning.h).
    std::function<PhantomSetting(std::uint32_t vertices)> resolveAuto;
    // Called as each stage of the preparation starts ("building the cloths' meshes and
    // constraints", ...), for a progress line on large scenes (app/progress.h); may be empty.
    std::function<void(const char* stage)> stage;
};

// Builds meshes, lumps masses, applies pins, attachments and tethers, creates the distance and
// bending constraints, colours them and packs them by colour. Throws cloth::Error for bad input.
//
// Conventions (see prepare.cpp for the details):
//  - Positions are the meshes' vertices under each cloth's transform; pins, attachments and
//    regions are selected in mesh space (before the transform).
//  - Mass: density x triangle area (world space), a third of each triangle to each of its
//    vertices. Pinned vertices, and vertices in no triangle, get inverse mass 0.
//  - A vertex may not be both pinned and attached, nor attached twice: cloth::Error.
//  - Attachment motions are in world space. In PBD mode attachments are hard (param k' = 1).
//  - Tethers: each vertex with inverse mass > 0 that no hard attachment holds gets one tether to the
//    nearest (Euclidean, rest state) pinned or hard-attached vertex of its own cloth, lowest index on
//    ties; maxLength = that distance x (1 + tetherSlack).
//  - Constraint `param`: XPBD the material's compliance; PBD pbdIterationStiffness(k,
//    sim.iterations). So apply command-line overrides to the Scene before calling this.
//  - Seams (prep/sewing.h): one zero-length distance item per pair, after the cloths' items;
//    pairs already closer than their merge distance are merged before this returns.
//  - Phantoms (when the setting is not Off and the colours exceed the target): see
//    phantom_vertices.h. Copies share the original's mass equally, attachments and tethers are
//    repeated on each copy, and phantomGroups lists original then copies for the averaging.
PreparedCloth prepareScene(const Scene& scene, const PrepareOptions& options = {});

// Vertex -> incident triangles over all cloths (global triangle and vertex indices): fills
// vertexTriangleOffsets and vertexTriangles from triangles (original vertices only), and with
// colliders triangleFeatureInfo.
void buildVertexTriangles(PreparedCloth& p);

// p.windVertices: each vertex's share of the wind, a third of the area of every triangle around
// it in the rest state (`rest`, `restTriangles`: original vertices, before any seam merged),
// moved to the vertex it was merged into (`mergedInto`, empty: none), split between a vertex and
// its phantom copies as its mass is, with the original whose normal it takes. After colouring.
void buildWindVertices(PreparedCloth& p, const std::vector<glm::vec4>& rest,
                       const std::vector<glm::uvec3>& restTriangles,
                       const std::vector<std::uint32_t>& mergedInto);

// PBD per-iteration stiffness k' = 1 - (1 - k)^(1/n), so n iterations give stiffness k overall.
float pbdIterationStiffness(float k, int iterations);

// Mueller's rigid-motion-preserving damping per substep from the factor k per 1/60 s:
// 1 - (1 - k)^(1/substeps), `substeps` counted per 1/60 s (core/frame_rate.h
// substepsPerSixtieth: the scene's substeps at 60 fps, and whenever fps divides 60 * substeps).
float rigidDampingPerSubstep(float kFrame, double substeps);

}  // namespace cloth
