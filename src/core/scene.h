// Scenes: one or more cloths with materials, pins and attachments, plus solver settings.
// Read from JSON (loadSceneFile) or built in (builtinScene). Unknown keys and wrong types in a
// scene file are errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "core/orthotropic.h"

#include "core/mesh.h"

namespace cloth {

enum class SolverMode { Xpbd, Pbd };
const char* solverModeName(SolverMode m);
SolverMode parseSolverMode(const std::string& name);  // "xpbd" | "pbd", else cloth::Error

// How the constraint iterations of a substep update the positions (sim/iteration.h):
//  - GaussSeidel: colour by colour, each constraint seeing its colour's predecessors' moves;
//  - Jacobi: every constraint from the same positions, the corrections added per vertex with
//    mass splitting (a vertex in n constraints counts n times heavier in each), relaxed;
//  - Chebyshev: Jacobi accelerated by Chebyshev's semi-iteration (Cheng 2023 Alg. 2.2, after
//    Wang 2015), on positions and multipliers alike.
enum class IterationScheme { GaussSeidel, Jacobi, Chebyshev };
const char* iterationSchemeName(IterationScheme s);          // "gs" | "jacobi" | "chebyshev"
IterationScheme parseIterationScheme(const std::string& name);  // else cloth::Error

// Defaults for what Cheng 2023 leaves open (our choices): the relaxation gamma of the Jacobi step,
// the spectral radius rho of Chebyshev's weights and its warm-up S (iterations of plain Jacobi
// before the weights start). Cheng 2023 sets gamma = rho; these are our measured choices (README).
inline constexpr float kDefaultRelaxation = 1.0f;
inline constexpr float kDefaultChebyshevRho = 0.9f;
inline constexpr int kDefaultChebyshevWarmup = 2;

struct IterationSettings {
    IterationScheme scheme = IterationScheme::GaussSeidel;
    float relaxation = kDefaultRelaxation;  // gamma, in (0, 2): Jacobi and Chebyshev
    float rho = kDefaultChebyshevRho;       // in [0, 1): Chebyshev
    int warmup = kDefaultChebyshevWarmup;   // S >= 1: Chebyshev
    bool operator==(const IterationSettings&) const = default;
};
// Throws cloth::Error for a value out of range, its message prefixed by "where: " (none when
// `where` is empty: a scene file's node names itself).
void checkIterationSettings(const IterationSettings& s, const std::string& where);

// Seeded gusts: the wind's speed is scaled by 1 + amplitude g(t), with g in [-1, 1] a sum of
// three sines whose periods (about `period`, period/2 and period/4) and phases come from `seed`
// (sim/gusts.h). The same in space; a function of the time alone, so every backend agrees.
struct GustSettings {
    float amplitude = 0.0f;  // fraction of the mean wind speed; 0 = steady wind
    float period = 2.0f;     // s, of the slowest component
    std::uint32_t seed = 1;
    // Degrees, [0, 180]: the wind's heading swings about the vertical (y) by up to this much,
    // with gusts of its own (same period, other phases); 0 = a steady heading.
    float direction = 0.0f;
    bool operator==(const GustSettings&) const = default;
};

// Air moving at `velocity` (m/s, uniform in space) pushing on every vertex by its normal and
// Voronoi area (src/kernels/wind.h: drag along the relative wind, lift across it). Still air
// (velocity 0) still drags on a moving cloth.
struct WindSettings {
    glm::vec3 velocity{0.0f};
    float drag = 0.106f;       // C_D (Trendafilov 2021, experiment 2.3)
    float lift = 0.2f;         // C_L
    float airDensity = 1.2f;   // kg/m^3, air at 20 degrees C
    GustSettings gusts;
    bool operator==(const WindSettings&) const = default;
};

// Why these wind settings are meaningless (a NaN or out-of-range value), or nothing.
std::optional<std::string> windProblem(const WindSettings& wind);

// Collisions of the cloths with themselves and with each other (issue 13; src/kernels/
// self_contacts.h): layers keep the sum of their cloths' thicknesses apart (twice the thickness
// within one cloth), with Coulomb friction at position level.
struct SelfCollisionSettings {
    float staticFriction = 0.3f;   // mu_s >= 0 (cotton on cotton; Velvet's self-collision scene)
    float kineticFriction = 0.3f;  // 0 <= mu_k <= mu_s
    // m: a pair becomes a contact for the substep when the two come closer than the distance to
    // keep plus this, at the substep's start or at their predicted positions (Anon. 2023 §6.2's
    // critical distance); it covers what the solve moves them beyond the prediction.
    float margin = 0.005f;
    // Passes over the contacts in each solver iteration, in `order` (docs/collisions.md).
    int passes = 4;
    // The order of the passes' projections (docs/collisions.md, "Solving the contacts"):
    //  - Vertex: each vertex gathers its contacts and projects them one after another, moving
    //    itself alone by its share of each (w_k g_k D / W), from where the pass found the other
    //    vertices: one parallel step per pass, no colouring.
    //  - Jacobi: every contact from the same positions, each vertex moved by the |g|-weighted
    //    mean of its contacts' corrections (parallel).
    //  - Sequential: one contact after another in the contacts' order (Gauss-Seidel on one
    //    thread; the CPU reference only): what the other two are measured against.
    enum class Order { Vertex, Jacobi, Sequential };
    Order order = Order::Jacobi;
    // When the contacts are looked for (docs/collisions.md):
    //  - Bounded: a detection gathers every primitive pair within reach plus twice a bound of
    //    the vertices' motion; while no vertex has left its bounds, those candidates hold every
    //    pair that can become a contact and are tested every substep, and every vertex is
    //    clamped into its bounds, so that none passes through a layer; a vertex past its bounds
    //    makes the next detection (sim/self_phases.h).
    //  - EverySubstep: the same with a detection in every substep.
    enum class Detection { EverySubstep, Bounded };
    Detection detection = Detection::Bounded;
    // m: Bounded detection's least bound (a detection takes more where the motion of the
    // substep needs it).
    float bound = 0.001f;
    // Bounded detection, for the tests (no scene key): a full detection every substep beside
    // it, counting the contacts in which the two differ (Solver::SelfCounts::missed).
    bool checkCandidates = false;
    bool operator==(const SelfCollisionSettings&) const = default;
};

const char* selfContactOrderName(SelfCollisionSettings::Order o);
// "vertex" | "jacobi" | "sequential", else cloth::Error
SelfCollisionSettings::Order parseSelfContactOrder(const std::string& name);
const char* selfDetectionName(SelfCollisionSettings::Detection d);
// "every_substep" | "bounded", else cloth::Error
SelfCollisionSettings::Detection parseSelfDetection(const std::string& name);

// The cloth model a scene runs (docs/models.md): XPBD, the default, on both backends; or
// Provot's mass-spring cloth advanced by an explicit integrator (the CPU reference for now).
enum class ClothModel { Xpbd, MassSpring, Projective, Fem };
const char* clothModelName(ClothModel m);  // "xpbd" | "mass_spring" | "pd" | "fem"
ClothModel parseClothModel(const std::string& name);
// The mass-spring model's integrators: forward Euler (x and v from the old state), symplectic
// Euler (v first, x from the new v), position Verlet (x from the last two positions) and
// time-corrected Verlet over steps of varying length (adaptive_verlet: the longest steps allowed,
// the substep's remainder last; docs/models.md).
enum class Integrator { Explicit, Symplectic, Verlet, AdaptiveVerlet };
// "explicit" | "symplectic" | "verlet" | "adaptive_verlet"
const char* integratorName(Integrator i);
Integrator parseIntegrator(const std::string& name);

// Provot's springs (docs/models.md): structural (grid neighbours, or a mesh's edges), shear (grid
// diagonals) and flexion (two apart on a grid; on a mesh the far corners of each edge's two
// triangles). Stiffness in N/m per family; 0 takes it from each cloth's material: 1 / its
// stretch compliance for every family.
struct MassSpringSettings {
    Integrator integrator = Integrator::Symplectic;
    float structural = 0.0f, shear = 0.0f, flexion = 0.0f;  // N/m; 0: from the material
    float airDamping = 0.0f;  // 1/s: force -m c v on each particle
    // s: the longest step; each substep is split into as many equal steps as it needs
    // (adaptive_verlet: steps of this length, the remainder last). 0: as many as stability
    // needs (from the highest natural frequency at rest).
    float step = 0.0f;
    bool operator==(const MassSpringSettings&) const = default;
};

// The implicit corotational FEM (model Fem; docs/models.md): Rayleigh damping (force
// -(alpha M + beta K) v) and the conjugate gradients' stopping rule per step.
struct FemSettings {
    float rayleighAlpha = 0.2f;  // 1/s (Trendafilov 2021's value)
    float rayleighBeta = 0.01f;  // s
    float tolerance = 1e-6f;     // |residual| / |right-hand side|
    int maxIterations = 1000;    // CG iterations per step
    bool operator==(const FemSettings&) const = default;
};

struct SimSettings {
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    // Substeps per 1/60 s of simulated time, whatever the frame rate: a frame of 1/fps s takes
    // ceil(substeps * 60 / fps) (core/frame_rate.h FrameTiming, which a prepared cloth runs).
    int substeps = 10;
    int iterations = 1;
    SolverMode mode = SolverMode::Xpbd;
    float fps = 60.0f;   // frames per simulated second: scene key "fps", flag --fps (1 to 1000)
    // The number of the first frame (the initial state) in exported file names and in the glTF's
    // times: scene key "start_frame", flag --start-frame. The simulated time still starts at 0.
    int startFrame = 0;
    // Phantom copies are averaged after every iteration (all colours), or also after every
    // colour: tighter coupling, one more pass per colour.
    bool averagePhantomsEachColor = false;
    IterationSettings iteration;
    std::optional<WindSettings> wind;  // none: no air at all (not even drag)
    std::optional<SelfCollisionSettings> selfCollision;  // none: layers pass through each other
    ClothModel model = ClothModel::Xpbd;
    MassSpringSettings massSpring;  // model MassSpring
    FemSettings fem;                // model Fem
    bool operator==(const SimSettings&) const = default;
};

// Units are SI. Compliance is the inverse stiffness of a constraint, independent of substeps and
// iterations (XPBD). The PBD stiffnesses k in [0, 1] are used only in PBD mode.
// How a cloth resists stretch: distance constraints on the mesh edges (compliance per edge), or
// the orthotropic StVK membrane per triangle (moduli in N/m, constraint/stvk.h).
enum class StretchModel { Distance, Stvk };
const char* stretchModelName(StretchModel m);    // "distance" | "stvk"
StretchModel parseStretchModel(const std::string& name);
// How it resists bending: dihedral angles, or isometric bending (Bergou 2006; flat rest state);
// both from the material's bending rigidity in N m (prep/hinge_bending.h).
enum class BendModel { Dihedral, Isometric };
const char* bendModelName(BendModel m);          // "dihedral" | "isometric"
BendModel parseBendModel(const std::string& name);

// Contact distance when a material gives none: 5 mm (Anon. 2023 leaves it open).
inline constexpr float kDefaultThickness = 0.005f;
// The default bending rigidity, N m: the preset "cotton" (core/material_presets.cpp).
inline constexpr float kDefaultBendRigidity = 4.75e-5f;

struct Material {
    float density = 0.2f;               // kg/m^2, areal; lumped onto vertices by triangle area
    float stretchCompliance = 1e-8f;    // m/N, distance constraints on mesh edges
    // 1/(N m): an expert override, the same compliance on every dihedral hinge. A compliance per
    // hinge is not a material property: the cloth it gives bends differently on another mesh.
    // None: each hinge's compliance from bendRigidity and its geometry (prep/hinge_bending.h).
    std::optional<float> bendCompliance;
    float stretchStiffness = 1.0f;      // PBD k
    float bendStiffness = 0.1f;         // PBD k
    float linearDamping = 0.0f;         // 1/s, global velocity damping
    float rigidDamping = 0.0f;          // per 1/60 s in [0,1]: damping that keeps rigid motion
    StretchModel stretchModel = StretchModel::Distance;
    OrthotropicMaterial membrane;       // N/m, StretchModel::Stvk (weft = x, warp = y)
    float weftAngleDegrees = 0.0f;      // weft: the mesh's +u direction turned by this angle
    BendModel bendModel = BendModel::Dihedral;
    // N m: the bending rigidity B (moment per width per curvature) for curvature along the weft,
    // and along the warp (none: the same), for both bending models.
    float bendRigidity = kDefaultBendRigidity;
    std::optional<float> bendRigidityWarp;
    // Contacts hold the cloth's vertices this far from a collider's surface (m); cloth-cloth
    // contacts keep twice this between two layers (Anon. 2023 §4.5: r is the thickness).
    float thickness = kDefaultThickness;
    std::string preset;                 // the named material the values came from, if any
    // The colour the renderer draws the front with (linear RGB, each in [0, 1]); none: the
    // palette's colour for the cloth's place in the scene (render/cloth_colors.h).
    std::optional<glm::vec3> color;
    bool operator==(const Material&) const = default;
};

struct Box {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    bool operator==(const Box&) const = default;
};

// A set of vertices: explicit indices, named regions and boxes, all in mesh space (before the
// cloth's transform). Regions: "top_edge", "bottom_edge", "left_edge", "right_edge",
// "top_corners", "bottom_corners", "all" (by the mesh's bounding box: y up, x right).
struct VertexSelection {
    std::vector<std::uint32_t> indices;
    std::vector<std::string> regions;
    std::vector<Box> boxes;
    bool empty() const { return indices.empty() && regions.empty() && boxes.empty(); }
    bool operator==(const VertexSelection&) const = default;
};

// The region names above, and the same as one comma-separated string (for messages).
const std::vector<std::string>& regionNames();
std::string regionNameList();

// Sorted, unique vertex indices selected in `mesh`. Throws cloth::Error naming `source` for an
// index out of range or an unknown region name.
std::vector<std::uint32_t> selectVertices(const Mesh& mesh, const VertexSelection& sel,
                                          const std::string& source);

enum class MotionType { Static, Circle, Linear, Oscillate, Rotate };
const char* motionTypeName(MotionType t);
// "static" | "circle" | "linear" | "oscillate" | "rotate"
MotionType parseMotionType(const std::string& name);

// Circle: each selected vertex moves on its own circle of `radius` around `axis` with `period`
// seconds per turn, starting where it is. Linear: constant `velocity`. Oscillate: back and forth
// along `amplitude` (m), offset amplitude (sin(2 pi t / period + phase) - sin(phase)), so it
// starts where it is. Rotate (attachments only): the selected vertices turn together about the
// line through `centre` (world space) along `axis`, `period` seconds per turn, counter-clockwise
// seen from the axis tip (each vertex on its own circle about that line).
struct MotionDesc {
    MotionType type = MotionType::Static;
    float radius = 0.0f;
    float period = 1.0f;
    glm::vec3 axis{0.0f, 1.0f, 0.0f};
    glm::vec3 velocity{0.0f};
    glm::vec3 amplitude{0.0f};   // Oscillate
    float phaseDegrees = 0.0f;   // Oscillate
    glm::vec3 centre{0.0f};      // Rotate: a point of the axis (world space)
    bool operator==(const MotionDesc&) const = default;
};

struct AttachmentDesc {
    VertexSelection vertices;
    MotionDesc motion;
    float compliance = 0.0f;  // m/N; 0 = hard
    bool operator==(const AttachmentDesc&) const = default;
};

struct Transform {
    glm::vec3 translate{0.0f};
    glm::vec3 rotateDegrees{0.0f};  // applied X, then Y, then Z
    float scale = 1.0f;
    glm::mat4 matrix() const;
    bool operator==(const Transform&) const = default;
};

// A set of interior edges (each shared by two triangles), in mesh space: vertex index pairs,
// crease lines (the edges whose two ends lie on the segment, within 1e-4 of the mesh's bounding
// box diagonal) and boxes (the edges whose two ends lie in the box).
struct Segment {
    glm::vec3 from{0.0f};
    glm::vec3 to{0.0f};
    bool operator==(const Segment&) const = default;
};
struct EdgeSelection {
    std::vector<glm::uvec2> edges;
    std::vector<Segment> lines;
    std::vector<Box> boxes;
    bool empty() const { return edges.empty() && lines.empty() && boxes.empty(); }
    bool operator==(const EdgeSelection&) const = default;
};

// Indices into `topo.bendingPairs` (interior edges), sorted and unique. Throws cloth::Error naming
// `source` for an index out of range or a given pair that is not an interior edge of the mesh.
std::vector<std::uint32_t> selectInteriorEdges(const Mesh& mesh, const Topology& topo,
                                               const EdgeSelection& sel,
                                               const std::string& source);

// Fixed angles (Anon. 2023 §4.8): the selected interior edges fold to a target dihedral angle, in place
// of their bending constraint. The angle is between the two faces' normals, 0 flat; positive
// folds the faces towards the side their normals point to (counter-clockwise winding seen from
// that side), so a positive angle makes a valley seen from there.
struct FixedAngleDesc {
    EdgeSelection edges;
    float angleDegrees = 0.0f;  // in (-180, 180)
    float compliance = 0.0f;    // 1/(N m), XPBD; 0 = hard
    float stiffness = 1.0f;     // PBD k
    bool operator==(const FixedAngleDesc&) const = default;
};

// Where a cloth's rest state (edge lengths, rest triangles, rest angles, masses) comes from: its
// starting positions, or the flat sewing pattern its texture coordinates lay out (garment meshes
// carry one), scaled by ClothDesc::uvScale metres per UV unit. The positions are then only the
// starting pose (prep/rest_shape.h; docs/usage.md#garments-from-patterns).
enum class RestShape { Positions, Uv };

inline constexpr float kMaxUvScale = 1e4f;  // m per UV unit: a pattern as large as a scene

struct ClothDesc {
    std::string name;
    std::optional<GridDesc> grid;  // a procedural grid, or
    std::string objPath;           // an OBJ file (relative paths resolved against the scene file)
    Transform transform;
    Material material;
    VertexSelection pins;                     // inverse mass 0
    std::vector<AttachmentDesc> attachments;  // kinematic targets
    bool tethers = true;                      // long-range attachments to the nearest anchor
    float tetherSlack = 0.0f;                 // allowed extra length, fraction of rest distance
    std::vector<FixedAngleDesc> fixedAngles;  // creases; an edge in two of them is an error
    RestShape restShape = RestShape::Positions;
    float uvScale = 1.0f;  // RestShape::Uv: metres per UV unit, in (0, kMaxUvScale]
    bool operator==(const ClothDesc&) const = default;
};

// Sewing (Anon. 2023 §4.9): two chains of vertices, sewn pair by pair. Stage 1 pulls each pair
// together with a zero-length distance constraint; stage 2 merges a pair into one vertex once
// its two vertices are closer than `mergeDistance` (prep/sewing.h). A chain is the selected
// vertices of one cloth in ascending index order (b's reversed with `reverse`); the two chains
// must have the same length. Both sides may name the same cloth.
struct SeamSide {
    std::uint32_t cloth = 0;  // index into Scene::cloths
    VertexSelection vertices;
    bool operator==(const SeamSide&) const = default;
};

// Merge distance when a scene gives none: 1 mm (Anon. 2023 leaves it open).
inline constexpr float kDefaultSeamMergeDistance = 1e-3f;

struct SeamDesc {
    SeamSide a, b;             // every reference to b's vertex becomes a's when a pair merges
    bool reverse = false;      // pair a's first vertex with b's last
    float compliance = 0.0f;   // m/N of the zero-length constraints (0 = hard; PBD: hard)
    float mergeDistance = kDefaultSeamMergeDistance;  // m, world space; 0 = never merge
    bool operator==(const SeamDesc&) const = default;
};

// The pairs of a seam as (a's vertex, b's vertex), mesh indices of their cloths. Throws
// cloth::Error naming `source` for an empty chain, chains of different lengths, or a vertex on
// both sides (same cloth).
std::vector<std::pair<std::uint32_t, std::uint32_t>> seamChainPairs(const SeamDesc& seam,
                                                                     const Mesh& meshA,
                                                                     const Mesh& meshB,
                                                                     const std::string& source);

// ---- rigid colliders (kinematic: infinite mass, scripted motion) ----
// Each shape in its own frame, placed by `transform` (scale multiplies every size):
//  - plane: the half-space y <= 0 (normal +y), i.e. the ground when untransformed;
//  - sphere: `radius` around the origin;
//  - capsule: the points within `radius` of the segment from (0, -halfHeight, 0) to
//    (0, halfHeight, 0);
//  - box: |x| <= halfExtents, its edges and corners rounded by `radius` (0 = sharp; at most
//    the smallest half extent);
//  - mesh: a closed triangle mesh read from `objPath` (relative to the scene file), outward
//    normals by counter-clockwise winding.
enum class ColliderShape { Plane, Sphere, Capsule, Box, Mesh };
const char* colliderShapeName(ColliderShape s);            // "plane" | "sphere" | ...
ColliderShape parseColliderShape(const std::string& name);  // else cloth::Error

// Rotation of a collider about `axis` (world space, through its centre) at `degreesPerSecond`;
// with reversePeriod > 0 the direction flips every reversePeriod seconds (so it swings back and
// forth through the same angles).
struct SpinDesc {
    glm::vec3 axis{0.0f, 1.0f, 0.0f};
    float degreesPerSecond = 0.0f;
    float reversePeriod = 0.0f;
    bool operator==(const SpinDesc&) const = default;
};

// Friction when a collider gives none (Anon. 2023 leaves mu open): cotton on wood.
inline constexpr float kDefaultStaticFriction = 0.5f;
inline constexpr float kDefaultKineticFriction = 0.4f;

struct ColliderDesc {
    std::string name;
    ColliderShape shape = ColliderShape::Sphere;
    Transform transform;      // placement at t = 0
    float radius = 0.5f;      // sphere, capsule; box: rounding of its edges (scene files
                              // default a box's to 0, sharp)
    float halfHeight = 0.5f;  // capsule
    glm::vec3 halfExtents{0.5f};  // box
    std::string objPath;      // mesh (relative paths resolved against the scene file)
    MotionDesc motion;        // path of the frame's origin (the attachments' motion types)
    SpinDesc spin;
    float start = 0.0f;       // s: motion and spin begin at this time (the collider waits)
    float staticFriction = kDefaultStaticFriction;    // mu_s >= 0
    float kineticFriction = kDefaultKineticFriction;  // 0 <= mu_k
    float restitution = 0.0f;                         // in [0, 1]
    bool operator==(const ColliderDesc&) const = default;
};

enum class PhantomMode { Off, Auto, Target };
struct PhantomSetting {
    PhantomMode mode = PhantomMode::Off;
    std::uint32_t targetColors = 0;  // for PhantomMode::Target
    bool operator==(const PhantomSetting&) const = default;
};
// "off" | "auto" | a positive number of colours; else cloth::Error.
PhantomSetting parsePhantomSetting(const std::string& text);

// The camera of rendered runs and the window's first view (docs/usage.md#camera). Every key is
// optional: a missing position or target comes from the automatic framing, a missing field of
// view is 45 degrees. The turntable turns the eye about the vertical line through the target,
// counter-clockwise seen from above for a positive rate, at the simulated time.
struct CameraDesc {
    std::optional<glm::vec3> position;  // the eye, world space (m)
    std::optional<glm::vec3> target;    // the point looked at (m)
    std::optional<float> fovDegrees;    // vertical field of view, in (1, 179)
    float turntableDegreesPerSecond = 0.0f;
    bool empty() const { return *this == CameraDesc{}; }
    bool operator==(const CameraDesc&) const = default;
};

inline constexpr float kDefaultFovDegrees = 45.0f;
inline constexpr float kMinFovDegrees = 1.0f, kMaxFovDegrees = 179.0f;  // open interval
inline constexpr float kMaxTurntableDegreesPerSecond = 3600.0f;       // in magnitude
// The view may not be steeper than this (radians; 88.8 degrees): the camera keeps +y up.
inline constexpr float kMaxCameraPitch = 1.55f;

// Why a camera is meaningless, or nothing: a coordinate not finite or beyond the scene's size
// (limits::kMaxCoordinate), the position on the target, a view within 1.2 degrees of vertical,
// a field of view outside (1, 179) degrees, a turntable faster than 3,600 degrees/s. Messages
// name the key ("position", "fov", ...) first.
std::optional<std::string> cameraProblem(const CameraDesc& camera);
// The angle in radians above the horizontal at which `position` looks down on `target` (negative
// when it looks up).
float cameraPitch(const glm::vec3& position, const glm::vec3& target);

struct Scene {
    std::string name;
    std::vector<ClothDesc> cloths;
    SimSettings sim;
    PhantomSetting phantoms;
    std::vector<SeamDesc> seams;
    std::vector<ColliderDesc> colliders;
    CameraDesc camera;  // empty: framed automatically
    bool operator==(const Scene&) const = default;
};

std::vector<std::string> builtinSceneNames();  // hanging, curtain, swirl, drop
std::string builtinSceneDescription(const std::string& name);
Scene builtinScene(const std::string& name);   // cloth::Error for an unknown name
Scene loadSceneFile(const std::string& path);  // cloth::Error names the file and the problem
// The same from JSON text: `source` names it in errors, relative mesh paths resolve against
// `baseDir`. Every cloth's mesh is built once to check its pins and attachments, except grids
// of over 4M vertices: their description is checked, their selections when the cloth is built.
Scene parseSceneJson(const std::string& text, const std::string& source,
                     const std::string& baseDir);
// Every field written out; mesh paths relative to `baseDir` where possible. loadSceneFile of
// what saveSceneFile wrote gives an equal Scene.
std::string sceneToJson(const Scene& scene, const std::string& baseDir);
void saveSceneFile(const std::string& path, const Scene& scene);
// A path ending in .json (or an existing file) is loaded; anything else is a built-in name.
Scene resolveScene(const std::string& nameOrPath);

// The cloth's mesh in mesh space (grid or loaded OBJ), validated.
Mesh buildClothMesh(const ClothDesc& cloth);

}  // namespace cloth
