// Ranges outside which a scene's physics is meaningless, or overflows the float arithmetic of
// the solvers (a compliance of 1e30 over a substep's dt^2 is infinite; a density of 1e-45 or a
// scale of 1e-15 gives vertices zero mass; a gravity of 1e12 crushes a cloth onto its pins).
// Scene files, the command line and the cloth builder refuse values outside them, with the
// reason. Generous on purpose: they catch typos and hostile input, not unusual scenes.
#pragma once

#include <cstdint>

namespace cloth::limits {

constexpr std::int64_t kMaxSubsteps = 10000;  // also iterations and phantom colour targets
constexpr float kMaxGravity = 1000.0f;        // m/s^2, about 100 g
constexpr float kMinScale = 1e-4f;            // transform scale
constexpr float kMaxScale = 1e4f;
constexpr float kMaxCoordinate = 1e4f;  // m, any vertex after its transform (float: 1 mm there)
constexpr float kMinDensity = 1e-6f;    // kg/m^2 (household foil is about 0.04)
constexpr float kMaxDensity = 1e4f;     // kg/m^2 (a metre of steel is 7850)
constexpr float kMaxCompliance = 1e6f;  // m/N and 1/(N m): softer than any material
// N m, a bending rigidity: fabrics are 1e-7 to 1e-4, a sheet of 1 mm steel about 20.
constexpr float kMinBendRigidity = 1e-12f;
constexpr float kMaxBendRigidity = 1e3f;
constexpr float kMinPeriod = 1e-3f;     // s per turn of a circle motion
constexpr float kMaxSpeed = 1e4f;       // m/s, a linear motion's velocity and the wind's
constexpr float kMaxAirDensity = 1e4f;  // kg/m^3 of the wind's medium (water is 1000)
constexpr float kMaxAeroCoefficient = 100.0f;  // drag and lift coefficients (a flat plate: ~2)
constexpr float kMaxGustAmplitude = 10.0f;     // gusts, as a fraction of the mean wind speed
constexpr float kMaxThickness = 0.1f;          // m, a cloth's contact thickness (felt: ~5 mm)
constexpr float kMaxFriction = 100.0f;         // friction coefficients (rubber on rubber: ~1-2)
constexpr float kMaxSpinSpeed = 1e5f;          // degrees per second of a collider's spin

}  // namespace cloth::limits
