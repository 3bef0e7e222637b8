// Each shipped scene's stated stretch: the largest edge strain (app/metrics.h's edge stretch:
// |x_i - x_j| / rest - 1 over the distance constraints and the StVK triangles' edges) that its
// cloth may reach after its first quarter second, on the CPU reference at the scene's own
// settings. A woven fabric strains well under 1% under its own weight; the aim (issue 44) is 5%
// for every scene whose material is not meant to stretch. `measured` is the largest strain seen
// from 0.25 s to 2 s (120 frames; twisted 240, pile 126, as their collision tests run),
// and `limit` the check's bound, a little above it. assets/scenes/README.md lists the same table
// (tests/cpu/test_scene_stretch.cpp keeps the two equal and runs the check).
#pragma once

#include <string>

namespace cloth::test {

struct SceneStretch {
    const char* scene;  // file name in assets/scenes/
    double measured;    // largest edge strain after 0.25 s, as a fraction
    double limit;       // the check's bound, as a fraction
    const char* why;    // why past 5%, or "" (within 5%)
};

inline constexpr double kFabricStretch = 0.05;

// clang-format off
inline constexpr SceneStretch kSceneStretch[] = {
    {"attach.json",                    0.5227, 0.56, "meant to stretch: a jersey knit (16.6 and 34.5 N/m) held taut at its corners, landing on the sphere (13-22% after frame 50)"},
    {"coil.json",                      0.0285, 0.05, ""},
    {"curtain.json",                   0.0352, 0.05, ""},
    {"drape.json",                     0.1063, 0.12, "the landing on the body's shoulders (frames 21-27), at 80 substeps"},
    {"drape128.json",                  0.0857, 0.095, "the 128^2 cloth's landing, at 160 substeps"},
    {"dress.json",                     0.0373, 0.05, ""},
    {"drop.json",                      0.0000, 0.05, ""},
    {"flag.json",                      0.0356, 0.05, ""},
    {"friction.json",                  0.0456, 0.05, ""},
    {"hanging.json",                   0.0402, 0.05, ""},
    {"incline.json",                   0.0258, 0.05, ""},
    {"multiple_objects.json",          0.8361, 0.90, "Velvet's settings (5 substeps x 5 iterations): three cloths piled on the cube's edges"},
    {"pile.json",                      0.0410, 0.05, ""},
    {"pleats.json",                    0.0116, 0.05, ""},
    {"sdf_collision.json",             0.0309, 0.05, ""},
    {"self_collision.json",            0.3378, 0.37, "Velvet's settings (8 substeps x 4 iterations): the landing fold"},
    {"skirt.json",                     0.0377, 0.05, ""},
    {"sphere.json",                    0.0462, 0.05, ""},
    {"sphere_fold.json",               0.0435, 0.05, ""},
    {"swirl.json",                     0.0264, 0.05, ""},
    {"tablecloth.json",                0.0455, 0.05, ""},
    {"trendafilov_springs.json",       0.7983, 0.88, "meant to stretch: Trendafilov's 43 N/m springs"},
    {"trendafilov_springs_heavy.json", 5.6511, 6.20, "meant to stretch: Trendafilov's 43 N/m springs under 1 kg/m^2"},
    {"tube.json",                      0.0459, 0.05, ""},
    {"twisted.json",                   1.1238, 1.24, "the scene asks for it: its ends turn 480 degrees apart, 1 m apart; kept 0.5 m wide, its outer rows would strain 132%"},
    {"two_cloths.json",                0.0125, 0.05, ""},
};
// clang-format on

// The entry of a scene file's name; nullptr when there is none.
inline const SceneStretch* sceneStretch(const std::string& scene) {
    for (const SceneStretch& s : kSceneStretch)
        if (scene == s.scene) return &s;
    return nullptr;
}

}  // namespace cloth::test
